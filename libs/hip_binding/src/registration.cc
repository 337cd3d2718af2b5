// Kernels and variables registered by the host program (the hipcc path) and
// the entry points that take their host symbols: hipLaunchKernel,
// hipGetFuncBySymbol, hipGetSymbolAddress/Size, hipMemcpyTo/FromSymbol.
#include <hip/hip_runtime_api.h>

#include <vector>

#include "call.h"
#include "copy_params.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/launch.h"
#include "core/log.h"
#include "core/registered_code.h"
#include "core/status.h"
#include "core/transfer.h"

using streamhal::HandleValue;
using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;

namespace {

// The registration entry points return nothing: a bad argument is logged.
void LogIfError(const absl::Status& status) {
  if (!status.ok()) streamhal::Log(streamhal::LogLevel::kWarning, status.message());
}

// The device address `offset` bytes into a registered variable, after the
// checks every symbol copy makes: the range fits the variable, and `kind`
// (read as an int: a value outside the enum is bad input, not a load) fits
// the direction.
absl::StatusOr<uint64_t> SymbolAddress(const void* symbol, size_t bytes, size_t offset,
                                       int kind_value, bool to_symbol) {
  SH_ASSIGN_OR_RETURN(streamhal::RegisteredVarAddress var, streamhal::ResolveRegisteredVar(symbol));
  if (offset > var.size || bytes > var.size - offset) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "symbol copy of ", bytes,
                            " bytes at offset ", offset, " overruns the variable's ", var.size,
                            " bytes");
  }
  // HIP: a copy to a symbol comes from the host or the device, a copy from a
  // symbol goes to either; hipMemcpyDefault infers it.
  const bool allowed =
      to_symbol ? (kind_value == hipMemcpyHostToDevice || kind_value == hipMemcpyDeviceToDevice ||
                   kind_value == hipMemcpyDefault)
                : (kind_value == hipMemcpyDeviceToHost || kind_value == hipMemcpyDeviceToDevice ||
                   kind_value == hipMemcpyDefault);
  if (!allowed) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidMemcpyDirection, "symbol copy: kind ",
                            kind_value, " does not fit the direction");
  }
  return var.address + offset;
}

// Copies between a registered variable and memory, `offset` bytes into it.
absl::Status SymbolCopy(const void* symbol, void* memory, size_t bytes, size_t offset,
                        const hipMemcpyKind& kind, bool to_symbol, hipStream_t stream,
                        streamhal::Sync sync) {
  const int kind_value = streamhal::EnumArgument(kind);
  SH_ASSIGN_OR_RETURN(const uint64_t device,
                      SymbolAddress(symbol, bytes, offset, kind_value, to_symbol));
  streamhal::CopyKind core_kind = streamhal::CopyKind::kDefault;
  if (kind_value == hipMemcpyHostToDevice) core_kind = streamhal::CopyKind::kHostToDevice;
  if (kind_value == hipMemcpyDeviceToHost) core_kind = streamhal::CopyKind::kDeviceToHost;
  if (kind_value == hipMemcpyDeviceToDevice) core_kind = streamhal::CopyKind::kDeviceToDevice;
  const uint64_t other = Address(memory);
  return streamhal::Memcpy(to_symbol ? device : other, to_symbol ? other : device, bytes, core_kind,
                           HandleValue(stream), sync);
}

}  // namespace

namespace streamhal::hip {

absl::StatusOr<Copy3DParams> ToSymbolCopy(const void* symbol, void* memory, size_t bytes,
                                          size_t offset, int kind, bool to_symbol) {
  SH_ASSIGN_OR_RETURN(const uint64_t device, SymbolAddress(symbol, bytes, offset, kind, to_symbol));
  // The other end's memory: the host or the device as `kind` says; unified
  // (classified from the pointer) for hipMemcpyDefault.
  MemoryType other = MemoryType::kUnified;
  if (kind == hipMemcpyHostToDevice || kind == hipMemcpyDeviceToHost) other = MemoryType::kHost;
  if (kind == hipMemcpyDeviceToDevice) other = MemoryType::kDevice;
  CopyEnd symbol_end;
  symbol_end.type = MemoryType::kDevice;
  symbol_end.address = device;
  symbol_end.pitch = bytes;
  symbol_end.height = 1;
  CopyEnd memory_end;
  memory_end.type = other;
  memory_end.address = Address(memory);
  memory_end.pitch = bytes;
  memory_end.height = 1;
  Copy3DParams copy;
  copy.dst = to_symbol ? symbol_end : memory_end;
  copy.src = to_symbol ? memory_end : symbol_end;
  copy.width = bytes;
  return copy;
}

}  // namespace streamhal::hip

extern "C" {

void** __hipRegisterFatBinary(const void* data) { return streamhal::RegisterFatBinary(data); }

void __hipRegisterFunction(void** modules, const void* hostFunction, char* deviceFunction,
                           const char* deviceName, unsigned int /*threadLimit*/, void* /*tid*/,
                           void* /*bid*/, dim3* /*blockDim*/, dim3* /*gridDim*/, int* /*wSize*/) {
  LogIfError(streamhal::RegisterFunction(modules, hostFunction,
                                         deviceName != nullptr ? deviceName : deviceFunction));
}

void __hipRegisterVar(void** modules, void* var, char* hostVar, char* deviceVar, int /*ext*/,
                      size_t size, int /*constant*/, int /*global*/) {
  LogIfError(streamhal::RegisterVar(modules, var, hostVar != nullptr ? hostVar : deviceVar, size));
}

void __hipRegisterManagedVar(void* hipModule, void** pointer, void* init_value, const char* name,
                             size_t size, unsigned align) {
  LogIfError(streamhal::RegisterManagedVar(hipModule, pointer, init_value, name, size, align));
}

void __hipUnregisterFatBinary(void** modules) { streamhal::UnregisterFatBinary(modules); }

hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks, dim3 dimBlocks,
                           void** args, size_t sharedMemBytes, hipStream_t stream) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(uint64_t function, streamhal::ResolveRegisteredFunction(function_address));
    streamhal::LaunchConfig config;
    config.grid = {numBlocks.x, numBlocks.y, numBlocks.z};
    config.block = {dimBlocks.x, dimBlocks.y, dimBlocks.z};
    if (sharedMemBytes > UINT32_MAX) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipLaunchKernel: sharedMemBytes is too large");
    }
    config.shared_bytes = static_cast<uint32_t>(sharedMemBytes);
    config.stream = HandleValue(stream);
    config.kernel_params = args;
    return streamhal::LaunchKernel(function, config);
  });
}

hipError_t hipLaunchCooperativeKernel(const void* f, dim3 grid, dim3 block, void** kernel_params,
                                      unsigned int shared_mem_bytes, hipStream_t stream) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(uint64_t function, streamhal::ResolveRegisteredFunction(f));
    streamhal::LaunchConfig config;
    config.grid = {grid.x, grid.y, grid.z};
    config.block = {block.x, block.y, block.z};
    config.shared_bytes = shared_mem_bytes;
    config.stream = HandleValue(stream);
    config.kernel_params = kernel_params;
    return streamhal::LaunchCooperativeKernel(function, config);
  });
}

namespace {

// hipLaunchParams lists (host stubs, one launch per device).
absl::Status LaunchParamsList(const hipLaunchParams* list, int num_devices, unsigned flags,
                              bool cooperative, const char* api) {
  if (num_devices < 0) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue, api, ": numDevices ", num_devices,
                            " is negative");
  }
  std::vector<streamhal::DeviceLaunch> launches;
  if (list != nullptr) {
    for (int i = 0; i < num_devices; ++i) {
      streamhal::DeviceLaunch& to = launches.emplace_back();
      to.host_function = list[i].func;
      to.config.grid = {list[i].gridDim.x, list[i].gridDim.y, list[i].gridDim.z};
      to.config.block = {list[i].blockDim.x, list[i].blockDim.y, list[i].blockDim.z};
      if (list[i].sharedMem > UINT32_MAX) {
        return streamhal::Error(streamhal::ErrorCode::kInvalidValue, api, ": launch ", i,
                                ": sharedMem is too large");
      }
      to.config.shared_bytes = static_cast<uint32_t>(list[i].sharedMem);
      to.config.stream = HandleValue(list[i].stream);
      to.config.kernel_params = list[i].args;
    }
  }
  return streamhal::LaunchMultiDevice(list != nullptr ? launches.data() : nullptr, launches.size(),
                                      flags, cooperative, api);
}

}  // namespace

hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams* list, int num_devices,
                                                 unsigned int flags) {
  return RuntimeCall([&] {
    return LaunchParamsList(list, num_devices, flags, /*cooperative=*/true,
                            "hipLaunchCooperativeKernelMultiDevice");
  });
}

// AMD: one launch per device, the kernels may differ; nothing waits for
// anything (hipExtAnyOrderLaunch only relaxes an order never promised here).
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams* list, int num_devices,
                                              unsigned int flags) {
  return RuntimeCall([&] {
    return LaunchParamsList(list, num_devices, flags, /*cooperative=*/false,
                            "hipExtLaunchMultiKernelMultiDevice");
  });
}

hipError_t hipGetFuncBySymbol(hipFunction_t* functionPtr, const void* symbolPtr) {
  return RuntimeCall([&]() -> absl::Status {
    if (functionPtr == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipGetFuncBySymbol: functionPtr is null");
    }
    SH_ASSIGN_OR_RETURN(uint64_t function, streamhal::ResolveRegisteredFunction(symbolPtr));
    *functionPtr = streamhal::ToApiHandle<hipFunction_t>(function);
    return absl::OkStatus();
  });
}

hipError_t hipGetSymbolAddress(void** devPtr, const void* symbol) {
  return RuntimeCall([&]() -> absl::Status {
    if (devPtr == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipGetSymbolAddress: devPtr is null");
    }
    SH_ASSIGN_OR_RETURN(streamhal::RegisteredVarAddress var,
                        streamhal::ResolveRegisteredVar(symbol));
    *devPtr = streamhal::hip::Pointer(var.address);
    return absl::OkStatus();
  });
}

hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
  return RuntimeCall([&]() -> absl::Status {
    if (size == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipGetSymbolSize: size is null");
    }
    SH_ASSIGN_OR_RETURN(streamhal::RegisteredVarAddress var,
                        streamhal::ResolveRegisteredVar(symbol));
    *size = var.size;
    return absl::OkStatus();
  });
}

hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t sizeBytes, size_t offset,
                             hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return SymbolCopy(symbol, const_cast<void*>(src), sizeBytes, offset, kind, true, nullptr,
                      streamhal::Sync::kBlocking);
  });
}

hipError_t hipMemcpyToSymbolAsync(const void* symbol, const void* src, size_t sizeBytes,
                                  size_t offset, hipMemcpyKind kind, hipStream_t stream) {
  return RuntimeCall([&] {
    return SymbolCopy(symbol, const_cast<void*>(src), sizeBytes, offset, kind, true, stream,
                      streamhal::Sync::kAsync);
  });
}

hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                               hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return SymbolCopy(symbol, dst, sizeBytes, offset, kind, false, nullptr,
                      streamhal::Sync::kBlocking);
  });
}

hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t sizeBytes, size_t offset,
                                    hipMemcpyKind kind, hipStream_t stream) {
  return RuntimeCall([&] {
    return SymbolCopy(symbol, dst, sizeBytes, offset, kind, false, stream, streamhal::Sync::kAsync);
  });
}

}  // extern "C"
