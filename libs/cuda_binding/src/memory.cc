// Memory management (cuMemAlloc*, cuMemFree*, cuMemHost*, cuMemGetInfo).
#include <cuda.h>

#include "core/memory.h"
#include "result.h"

using streamhal::cuda::ToCUresult;
using streamhal::cuda::WriteOut;

extern "C" {

CUresult cuMemAlloc(CUdeviceptr* dptr, size_t bytesize) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemAlloc(dptr ? &value : nullptr, bytesize, /*allow_zero=*/false),
                  dptr, value);
}

CUresult cuMemFree(CUdeviceptr dptr) {
  return ToCUresult(streamhal::MemFree(dptr, /*allow_null=*/false));
}

CUresult cuMemGetInfo(size_t* free, size_t* total) {
  return ToCUresult(streamhal::MemGetInfo(free, total));
}

CUresult cuMemGetAddressRange(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  uint64_t base = 0;
  return WriteOut(streamhal::MemGetAddressRange(pbase ? &base : nullptr, psize, dptr), pbase,
                  base);
}

CUresult cuMemAllocPitch(CUdeviceptr* dptr, size_t* pitch, size_t width_in_bytes, size_t height,
                         unsigned int element_size_bytes) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemAllocPitch(dptr ? &value : nullptr, pitch, width_in_bytes, height,
                                           element_size_bytes),
                  dptr, value);
}

CUresult cuMemAllocHost(void** pp, size_t bytesize) {
  return ToCUresult(streamhal::MemHostAlloc(pp, bytesize, 0, /*allow_zero=*/false));
}

CUresult cuMemHostAlloc(void** pp, size_t bytesize, unsigned int flags) {
  return ToCUresult(streamhal::MemHostAlloc(pp, bytesize, flags, /*allow_zero=*/false));
}

CUresult cuMemFreeHost(void* p) { return ToCUresult(streamhal::MemFreeHost(p, false)); }

CUresult cuMemHostGetDevicePointer(CUdeviceptr* pdptr, void* p, unsigned int flags) {
  uint64_t value = 0;
  return WriteOut(streamhal::MemHostGetDevicePointer(pdptr ? &value : nullptr, p, flags), pdptr,
                  value);
}

CUresult cuMemHostGetFlags(unsigned int* flags, void* p) {
  return ToCUresult(streamhal::MemHostGetFlags(flags, p));
}

CUresult cuMemHostRegister(void* p, size_t bytesize, unsigned int flags) {
  return ToCUresult(streamhal::MemHostRegister(p, bytesize, flags));
}

CUresult cuMemHostUnregister(void* p) { return ToCUresult(streamhal::MemHostUnregister(p)); }

}  // extern "C"
