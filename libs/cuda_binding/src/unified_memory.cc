// Managed memory and pointer attributes (cuMemAllocManaged, cuMemAdvise,
// cuMemPrefetchAsync, cuMemRangeGetAttribute(s), cuStreamAttachMemAsync,
// cuPointerGetAttribute(s), cuPointerSetAttribute).
#include <cuda.h>

#include <functional>

#include "core/c_enum.h"
#include "core/handle.h"
#include "core/managed_location.h"
#include "core/managed_memory.h"
#include "core/pointer_attributes.h"
#include "result.h"

using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ManagedApi;
using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

namespace {

// CU_POINTER_ATTRIBUTE_MEMORY_TYPE: managed memory is device memory to the
// driver API (CU_POINTER_ATTRIBUTE_IS_MANAGED tells it apart).
constexpr streamhal::MemoryTypeCodes kMemoryTypes = {CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE,
                                                     CU_MEMORYTYPE_DEVICE};

// Reads element j of a CUmemLocation array; empty for a null array.
std::function<streamhal::MemLocationArg(size_t)> LocationReader(const CUmemLocation* locations) {
  if (locations == nullptr) return nullptr;
  return [locations](size_t j) {
    return streamhal::MemLocationArg{EnumArgument(locations[j].type), locations[j].id};
  };
}

}  // namespace

extern "C" {

CUresult cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemAllocManaged(dptr ? &value : nullptr, bytesize, flags), dptr,
                  value);
}

CUresult cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                unsigned int flags) {
  return ToCUresult(streamhal::StreamAttachMem(HandleValue(hStream), dptr, length, flags));
}

CUresult cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device) {
  return ToCUresult(
      streamhal::MemAdvise(devPtr, count, EnumArgument(advice), device, ManagedApi::kCuda));
}

CUresult cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice,
                            CUstream hStream) {
  return ToCUresult(streamhal::MemPrefetch(devPtr, count, dstDevice, HandleValue(hStream)));
}

CUresult cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                        CUmemLocation location) {
  return ToCUresult(streamhal::MemAdviseAtLocation(devPtr, count, EnumArgument(advice),
                                                   EnumArgument(location.type), location.id));
}

CUresult cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                               unsigned int flags, CUstream hStream) {
  return ToCUresult(streamhal::MemPrefetchToLocation(devPtr, count, EnumArgument(location.type),
                                                     location.id, flags, HandleValue(hStream)));
}

CUresult cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                 CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                 size_t numPrefetchLocs, unsigned long long flags,
                                 CUstream hStream) {
  return ToCUresult(streamhal::MemBatchAsync("cuMemPrefetchBatchAsync", dptrs, sizes, count,
                                             /*prefetch=*/true, LocationReader(prefetchLocs),
                                             prefetchLocIdxs, numPrefetchLocs, flags,
                                             HandleValue(hStream)));
}

CUresult cuMemDiscardBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                unsigned long long flags, CUstream hStream) {
  return ToCUresult(streamhal::MemBatchAsync("cuMemDiscardBatchAsync", dptrs, sizes, count,
                                             /*prefetch=*/false, nullptr, nullptr, 0, flags,
                                             HandleValue(hStream)));
}

CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                           CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                           size_t numPrefetchLocs, unsigned long long flags,
                                           CUstream hStream) {
  return ToCUresult(streamhal::MemBatchAsync(
      "cuMemDiscardAndPrefetchBatchAsync", dptrs, sizes, count, /*prefetch=*/true,
      LocationReader(prefetchLocs), prefetchLocIdxs, numPrefetchLocs, flags, HandleValue(hStream)));
}

CUresult cuMemRangeGetAttribute(void* data, size_t dataSize, CUmem_range_attribute attribute,
                                CUdeviceptr devPtr, size_t count) {
  return ToCUresult(streamhal::MemRangeGetAttribute(data, dataSize, EnumArgument(attribute), devPtr,
                                                    count, ManagedApi::kCuda));
}

CUresult cuMemRangeGetAttributes(void** data, size_t* dataSizes, CUmem_range_attribute* attributes,
                                 size_t numAttributes, CUdeviceptr devPtr, size_t count) {
  return ToCUresult(streamhal::MemRangeGetAttributes(data, dataSizes, attributes, numAttributes,
                                                     devPtr, count, ManagedApi::kCuda));
}

CUresult cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  return ToCUresult(
      streamhal::PointerGetAttribute(data, EnumArgument(attribute), ptr, kMemoryTypes));
}

CUresult cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes,
                                void** data, CUdeviceptr ptr) {
  return ToCUresult(
      streamhal::PointerGetAttributes(numAttributes, attributes, data, ptr, kMemoryTypes));
}

CUresult cuPointerSetAttribute(const void* value, CUpointer_attribute attribute, CUdeviceptr ptr) {
  return ToCUresult(streamhal::PointerSetAttribute(value, EnumArgument(attribute), ptr));
}

}  // extern "C"
