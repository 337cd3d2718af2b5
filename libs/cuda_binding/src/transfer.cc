// Copies and fills (cuMemcpy*, cuMemsetD*).
#include <cuda.h>

#include <cstdint>

#include "core/handle.h"
#include "core/transfer.h"
#include "result.h"

using streamhal::CopyKind;
using streamhal::HandleValue;
using streamhal::Sync;
using streamhal::cuda::ToCUresult;

namespace {

uint64_t Host(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer); }

CUresult Copy(uint64_t dst, uint64_t src, size_t bytes, CopyKind kind, CUstream stream, Sync sync) {
  return ToCUresult(streamhal::Memcpy(dst, src, bytes, kind, HandleValue(stream), sync));
}

CUresult Set(CUdeviceptr dst, uint32_t value, unsigned size, size_t count, CUstream stream,
             Sync sync) {
  return ToCUresult(streamhal::Memset(dst, value, size, count, HandleValue(stream), sync));
}

}  // namespace

extern "C" {

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  return Copy(dst, src, bytes, CopyKind::kDefault, nullptr, Sync::kBlocking);
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(dst, src, bytes, CopyKind::kDefault, stream, Sync::kAsync);
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t bytes) {
  return Copy(dst, Host(src), bytes, CopyKind::kHostToDevice, nullptr, Sync::kBlocking);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream) {
  return Copy(dst, Host(src), bytes, CopyKind::kHostToDevice, stream, Sync::kAsync);
}
CUresult cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t bytes) {
  return Copy(Host(dst), src, bytes, CopyKind::kDeviceToHost, nullptr, Sync::kBlocking);
}
CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(Host(dst), src, bytes, CopyKind::kDeviceToHost, stream, Sync::kAsync);
}
CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  return Copy(dst, src, bytes, CopyKind::kDeviceToDevice, nullptr, Sync::kBlocking);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(dst, src, bytes, CopyKind::kDeviceToDevice, stream, Sync::kAsync);
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
  return Set(dst, value, 1, count, nullptr, Sync::kBlocking);
}
CUresult cuMemsetD16(CUdeviceptr dst, unsigned short value, size_t count) {
  return Set(dst, value, 2, count, nullptr, Sync::kBlocking);
}
CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t count) {
  return Set(dst, value, 4, count, nullptr, Sync::kBlocking);
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t count, CUstream stream) {
  return Set(dst, value, 1, count, stream, Sync::kAsync);
}
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count, CUstream stream) {
  return Set(dst, value, 2, count, stream, Sync::kAsync);
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream) {
  return Set(dst, value, 4, count, stream, Sync::kAsync);
}

}  // extern "C"
