// Stream-ordered allocation and memory pools (cuMemAllocAsync, cuMemFreeAsync,
// cuMemPool*, cuDevice{Get,Set,GetDefault}MemPool, cuMem{Get,Set,GetDefault}MemPool).
#include "core/mem_pool.h"

#include <cuda.h>

#include <vector>

#include "core/c_enum.h"
#include "result.h"

using streamhal::EnumArgument;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

namespace {

streamhal::MemAccessDesc ToCore(const CUmemAccessDesc& desc) {
  streamhal::MemAccessDesc core;
  core.location_type = EnumArgument(desc.location.type);
  core.location_id = desc.location.id;
  core.flags = EnumArgument(desc.flags);
  return core;
}

// A null location reads as the default; the caller passes null on.
streamhal::MemLocation ToCore(const CUmemLocation* location) {
  streamhal::MemLocation core;
  if (location != nullptr) {
    core.type = EnumArgument(location->type);
    core.id = location->id;
  }
  return core;
}

}  // namespace

extern "C" {

CUresult cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemAllocAsync(dptr ? &value : nullptr, bytesize, HandleValue(hStream)),
                  dptr, value);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                 CUstream hStream) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemAllocFromPoolAsync(dptr ? &value : nullptr, bytesize,
                                                   HandleValue(pool), HandleValue(hStream)),
                  dptr, value);
}

CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  return ToCUresult(streamhal::MemFreeAsync(dptr, HandleValue(hStream)));
}

CUresult cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* poolProps) {
  if (poolProps == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return ToCUresult(
      streamhal::MemPoolCreate(HandleOut(pool), streamhal::ToMemPoolProps(*poolProps)));
}

CUresult cuMemPoolDestroy(CUmemoryPool pool) {
  return ToCUresult(streamhal::MemPoolDestroy(HandleValue(pool)));
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  return ToCUresult(streamhal::MemPoolTrimTo(HandleValue(pool), minBytesToKeep));
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return ToCUresult(streamhal::MemPoolSetAttribute(HandleValue(pool), EnumArgument(attr), value));
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return ToCUresult(streamhal::MemPoolGetAttribute(HandleValue(pool), EnumArgument(attr), value));
}

CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count) {
  // Bounded before the copy: a map of more entries than there could be
  // locations is not read.
  if (map == nullptr && count != 0) return CUDA_ERROR_INVALID_VALUE;
  if (count > streamhal::kMaxAccessDescs) return CUDA_ERROR_INVALID_VALUE;
  std::vector<streamhal::MemAccessDesc> descs;
  descs.reserve(count);
  for (size_t i = 0; i < count; ++i) descs.push_back(ToCore(map[i]));
  return ToCUresult(streamhal::MemPoolSetAccess(HandleValue(pool), descs.data(), descs.size()));
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool memPool,
                            CUmemLocation* location) {
  streamhal::MemAccessDesc where;
  if (location != nullptr) {
    where.location_type = EnumArgument(location->type);
    where.location_id = location->id;
  }
  int value = 0;
  const absl::Status status = streamhal::MemPoolGetAccess(
      flags ? &value : nullptr, HandleValue(memPool), location ? &where : nullptr);
  if (status.ok()) *flags = static_cast<CUmemAccess_flags>(value);
  return ToCUresult(status);
}

CUresult cuMemPoolExportToShareableHandle(void* handle_out, CUmemoryPool pool,
                                          CUmemAllocationHandleType handleType,
                                          unsigned long long flags) {
  return ToCUresult(streamhal::MemPoolExportToShareableHandle(handle_out, HandleValue(pool),
                                                              EnumArgument(handleType), flags));
}

CUresult cuMemPoolImportFromShareableHandle(CUmemoryPool* pool_out, void* handle,
                                            CUmemAllocationHandleType handleType,
                                            unsigned long long flags) {
  return ToCUresult(streamhal::MemPoolImportFromShareableHandle(HandleOut(pool_out), handle,
                                                                EnumArgument(handleType), flags));
}

CUresult cuMemPoolExportPointer(CUmemPoolPtrExportData* shareData_out, CUdeviceptr ptr) {
  return ToCUresult(streamhal::MemPoolExportPointer(shareData_out, ptr));
}

CUresult cuMemPoolImportPointer(CUdeviceptr* ptr_out, CUmemoryPool pool,
                                CUmemPoolPtrExportData* shareData) {
  uint64_t value = 0;
  return WriteOut(
      streamhal::MemPoolImportPointer(ptr_out ? &value : nullptr, HandleValue(pool), shareData),
      ptr_out, value);
}

CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  return ToCUresult(streamhal::DeviceSetMemPool(dev, HandleValue(pool)));
}

CUresult cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  return ToCUresult(streamhal::DeviceGetMemPool(HandleOut(pool), dev));
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  return ToCUresult(streamhal::DeviceGetDefaultMemPool(HandleOut(pool_out), dev));
}

CUresult cuMemGetDefaultMemPool(CUmemoryPool* pool_out, CUmemLocation* location,
                                CUmemAllocationType type) {
  const streamhal::MemLocation where = ToCore(location);
  return ToCUresult(streamhal::MemGetDefaultMemPool(
      HandleOut(pool_out), location ? &where : nullptr, EnumArgument(type)));
}

CUresult cuMemGetMemPool(CUmemoryPool* pool, CUmemLocation* location, CUmemAllocationType type) {
  const streamhal::MemLocation where = ToCore(location);
  return ToCUresult(
      streamhal::MemGetMemPool(HandleOut(pool), location ? &where : nullptr, EnumArgument(type)));
}

CUresult cuMemSetMemPool(CUmemLocation* location, CUmemAllocationType type, CUmemoryPool pool) {
  const streamhal::MemLocation where = ToCore(location);
  return ToCUresult(
      streamhal::MemSetMemPool(location ? &where : nullptr, EnumArgument(type), HandleValue(pool)));
}

}  // extern "C"
