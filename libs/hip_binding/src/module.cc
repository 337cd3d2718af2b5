// Module management (hipModuleLoad*, hipModuleGetFunction,
// hipModuleGetGlobal) and function attributes.
#include "core/module.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"

using streamhal::FunctionAttribute;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;
using streamhal::hip::WriteOut;

extern "C" {

hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  return RuntimeCall(
      [&] { return streamhal::ModuleLoad(HandleOut(module), fname, streamhal::Api::kHip); });
}

hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  return RuntimeCall([&] { return streamhal::ModuleLoadData(HandleOut(module), image, nullptr); });
}

hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int num_options,
                               hipJitOption* options, void** option_values) {
  static_assert(sizeof(hipJitOption) == sizeof(int), "hipJitOption is an int-sized enum");
  // The ids are read as ints (core checks them), never as hipJitOption.
  return RuntimeCall([&] {
    return streamhal::ModuleLoadDataEx(HandleOut(module), image, num_options,
                                       reinterpret_cast<const int*>(options), option_values,
                                       hipJitOptionNumOptions);
  });
}

hipError_t hipModuleLoadFatBin(hipModule_t* module, const void* fatbin) {
  return RuntimeCall([&] { return streamhal::ModuleLoadFatBinary(HandleOut(module), fatbin); });
}

hipError_t hipModuleLoadFatBinary(hipModule_t* module, const void* fatbin) {
  return RuntimeCall([&] { return streamhal::ModuleLoadFatBinary(HandleOut(module), fatbin); });
}

hipError_t hipModuleUnload(hipModule_t module) {
  return RuntimeCall([&] { return streamhal::ModuleUnload(HandleValue(module)); });
}

hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) {
  return RuntimeCall([&] {
    return streamhal::ModuleGetFunction(HandleOut(function), HandleValue(module), kname,
                                        streamhal::Api::kHip);
  });
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod,
                              const char* name) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::ModuleGetGlobal(dptr ? &value : nullptr, bytes, HandleValue(hmod),
                                               name, streamhal::Api::kHip),
                    dptr, value);
  });
}

hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc) {
  return RuntimeCall([&] {
    return streamhal::FuncGetAttribute(value, streamhal::EnumArgument(attrib), HandleValue(hfunc));
  });
}

// HIP's runtime forms take the kernel as `const void*`: a registered host
// stub or a hipFunction_t (KernelOf).
hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
  return RuntimeCall([&]() -> absl::Status {
    if (attr == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipFuncGetAttributes: attr is null");
    }
    SH_ASSIGN_OR_RETURN(const uint64_t f, streamhal::hip::KernelOf(func));
    auto get = [&](FunctionAttribute which, int* out) {
      return streamhal::FuncGetAttribute(out, static_cast<int>(which), f);
    };
    int shared = 0, constant = 0, local = 0;
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kMaxThreadsPerBlock, &attr->maxThreadsPerBlock));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kSharedSizeBytes, &shared));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kConstSizeBytes, &constant));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kLocalSizeBytes, &local));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kNumRegs, &attr->numRegs));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kPtxVersion, &attr->ptxVersion));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kBinaryVersion, &attr->binaryVersion));
    SH_RETURN_IF_ERROR(get(FunctionAttribute::kCacheModeCa, &attr->cacheModeCA));
    SH_RETURN_IF_ERROR(
        get(FunctionAttribute::kMaxDynamicSharedSizeBytes, &attr->maxDynamicSharedSizeBytes));
    SH_RETURN_IF_ERROR(
        get(FunctionAttribute::kPreferredSharedMemoryCarveout, &attr->preferredShmemCarveout));
    attr->sharedSizeBytes = static_cast<size_t>(shared);
    attr->constSizeBytes = static_cast<size_t>(constant);
    attr->localSizeBytes = static_cast<size_t>(local);
    return absl::OkStatus();
  });
}

hipError_t hipFuncSetAttribute(const void* func, hipFuncAttribute attr, int value) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t f, streamhal::hip::KernelOf(func));
    return streamhal::FuncSetAttribute(f, streamhal::EnumArgument(attr), value);
  });
}

hipError_t hipFuncSetCacheConfig(const void* func, hipFuncCache_t config) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t f, streamhal::hip::KernelOf(func));
    return streamhal::FuncSetCacheConfig(f, streamhal::EnumArgument(config));
  });
}

hipError_t hipFuncSetSharedMemConfig(const void* func, hipSharedMemConfig config) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t f, streamhal::hip::KernelOf(func));
    return streamhal::FuncSetSharedMemConfig(f, streamhal::EnumArgument(config));
  });
}

}  // extern "C"
