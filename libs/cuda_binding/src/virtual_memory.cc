// Virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess, ...).
#include "core/virtual_memory.h"

#include <cuda.h>

#include <vector>

#include "core/c_enum.h"
#include "result.h"

using streamhal::EnumArgument;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

namespace {

streamhal::MemAllocationProps ToCore(const CUmemAllocationProp& prop) {
  streamhal::MemAllocationProps core;
  core.type = EnumArgument(prop.type);
  core.requested_handle_types = EnumArgument(prop.requestedHandleTypes);
  core.location_type = EnumArgument(prop.location.type);
  core.location_id = prop.location.id;
  return core;
}

}  // namespace

extern "C" {

CUresult cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                       CUmemAllocationGranularity_flags option) {
  streamhal::MemAllocationProps core;
  if (prop != nullptr) core = ToCore(*prop);
  return ToCUresult(streamhal::MemGetAllocationGranularity(granularity, prop ? &core : nullptr,
                                                           EnumArgument(option)));
}

CUresult cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size,
                     const CUmemAllocationProp* prop, unsigned long long flags) {
  streamhal::MemAllocationProps core;
  if (prop != nullptr) core = ToCore(*prop);
  uint64_t value = 0;
  return WriteOut(
      streamhal::MemCreate(handle ? &value : nullptr, size, prop ? &core : nullptr, flags), handle,
      value);
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  return ToCUresult(streamhal::MemRelease(handle));
}

CUresult cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr,
                             unsigned long long flags) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::MemAddressReserve(ptr ? &value : nullptr, size, alignment, addr, flags), ptr,
      value);
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return ToCUresult(streamhal::MemAddressFree(ptr, size));
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                  unsigned long long flags) {
  return ToCUresult(streamhal::MemMap(ptr, size, offset, handle, flags));
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) {
  return ToCUresult(streamhal::MemUnmap(ptr, size));
}

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count) {
  if ((desc == nullptr && count != 0) || count > streamhal::kMaxAccessDescs) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  std::vector<streamhal::MemAccessDesc> descs;
  descs.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    streamhal::MemAccessDesc core;
    core.location_type = EnumArgument(desc[i].location.type);
    core.location_id = desc[i].location.id;
    core.flags = EnumArgument(desc[i].flags);
    descs.push_back(core);
  }
  return ToCUresult(
      streamhal::MemSetAccess(ptr, size, descs.empty() ? nullptr : descs.data(), descs.size()));
}

CUresult cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location, CUdeviceptr ptr) {
  streamhal::MemAccessDesc where;
  if (location != nullptr) {
    where.location_type = EnumArgument(location->type);
    where.location_id = location->id;
  }
  return ToCUresult(streamhal::MemGetAccess(flags, location ? &where : nullptr, ptr));
}

CUresult cuMemExportToShareableHandle(void* shareableHandle, CUmemGenericAllocationHandle handle,
                                      CUmemAllocationHandleType handleType,
                                      unsigned long long flags) {
  return ToCUresult(streamhal::MemExportToShareableHandle(shareableHandle, handle,
                                                          EnumArgument(handleType), flags));
}

CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle, void* osHandle,
                                        CUmemAllocationHandleType shHandleType) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemImportFromShareableHandle(handle ? &value : nullptr, osHandle,
                                                          EnumArgument(shHandleType)),
                  handle, value);
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop,
                                                CUmemGenericAllocationHandle handle) {
  streamhal::MemAllocationProps core;
  const absl::Status status =
      streamhal::MemGetAllocationPropertiesFromHandle(prop ? &core : nullptr, handle);
  if (status.ok()) {
    *prop = CUmemAllocationProp{};
    prop->type = static_cast<CUmemAllocationType>(core.type);
    prop->requestedHandleTypes =
        static_cast<CUmemAllocationHandleType>(core.requested_handle_types);
    prop->location.type = static_cast<CUmemLocationType>(core.location_type);
    prop->location.id = core.location_id;
  }
  return ToCUresult(status);
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemRetainAllocationHandle(handle ? &value : nullptr,
                                                       reinterpret_cast<uintptr_t>(addr)),
                  handle, value);
}

}  // extern "C"
