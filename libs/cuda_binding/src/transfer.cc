// Copies and fills (cuMemcpy*, cuMemsetD*).
#include "core/transfer.h"

#include <cuda.h>

#include <cstdint>
#include <cstring>

#include "copy_params.h"
#include "core/handle.h"
#include "per_thread_stream.h"
#include "result.h"

using streamhal::CopyKind;
using streamhal::HandleValue;
using streamhal::Sync;
using streamhal::cuda::SynchronousCallStream;
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

template <typename Descriptor>
CUresult Copy3D(const Descriptor* descriptor, CUstream stream, Sync sync) {
  absl::StatusOr<streamhal::Copy3DParams> copy = streamhal::cuda::ToCopy(descriptor);
  if (!copy.ok()) return ToCUresult(copy.status());
  return ToCUresult(streamhal::Memcpy3D(*copy, HandleValue(stream), sync));
}

// CUDA_MEMCPY3D_PEER is CUDA_MEMCPY3D with a context in place of each
// reserved member.
CUresult Copy3DPeer(const CUDA_MEMCPY3D_PEER* peer, CUstream stream, Sync sync) {
  if (peer == nullptr) return Copy3D(static_cast<const CUDA_MEMCPY3D*>(nullptr), stream, sync);
  CUDA_MEMCPY3D plain = {};
  plain.srcXInBytes = peer->srcXInBytes;
  plain.srcY = peer->srcY;
  plain.srcZ = peer->srcZ;
  plain.srcLOD = peer->srcLOD;
  // Enumerations as a C caller wrote them (core/c_enum.h).
  std::memcpy(&plain.srcMemoryType, &peer->srcMemoryType, sizeof(plain.srcMemoryType));
  plain.srcHost = peer->srcHost;
  plain.srcDevice = peer->srcDevice;
  plain.srcArray = peer->srcArray;
  plain.srcPitch = peer->srcPitch;
  plain.srcHeight = peer->srcHeight;
  plain.dstXInBytes = peer->dstXInBytes;
  plain.dstY = peer->dstY;
  plain.dstZ = peer->dstZ;
  plain.dstLOD = peer->dstLOD;
  std::memcpy(&plain.dstMemoryType, &peer->dstMemoryType, sizeof(plain.dstMemoryType));
  plain.dstHost = peer->dstHost;
  plain.dstDevice = peer->dstDevice;
  plain.dstArray = peer->dstArray;
  plain.dstPitch = peer->dstPitch;
  plain.dstHeight = peer->dstHeight;
  plain.WidthInBytes = peer->WidthInBytes;
  plain.Height = peer->Height;
  plain.Depth = peer->Depth;
  absl::StatusOr<streamhal::Copy3DParams> copy = streamhal::cuda::ToCopy(&plain);
  if (!copy.ok()) return ToCUresult(copy.status());
  return ToCUresult(streamhal::Memcpy3DPeer(*copy, HandleValue(peer->dstContext),
                                            HandleValue(peer->srcContext), HandleValue(stream),
                                            sync));
}

CUresult Set2D(CUdeviceptr dst, size_t pitch, uint32_t value, unsigned size, size_t width,
               size_t height, CUstream stream, Sync sync) {
  streamhal::MemsetNodeParams rows;
  rows.dst = dst;
  rows.pitch = pitch;
  rows.value = value;
  rows.element_size = size;
  rows.width = width;
  rows.height = height;
  return ToCUresult(streamhal::Memset3D(rows, 1, 0, HandleValue(stream), sync));
}

}  // namespace

extern "C" {

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  return Copy(dst, src, bytes, CopyKind::kDefault, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(dst, src, bytes, CopyKind::kDefault, stream, Sync::kAsync);
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void* src, size_t bytes) {
  return Copy(dst, Host(src), bytes, CopyKind::kHostToDevice, SynchronousCallStream(),
              Sync::kBlocking);
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream) {
  return Copy(dst, Host(src), bytes, CopyKind::kHostToDevice, stream, Sync::kAsync);
}
CUresult cuMemcpyDtoH(void* dst, CUdeviceptr src, size_t bytes) {
  return Copy(Host(dst), src, bytes, CopyKind::kDeviceToHost, SynchronousCallStream(),
              Sync::kBlocking);
}
CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(Host(dst), src, bytes, CopyKind::kDeviceToHost, stream, Sync::kAsync);
}
CUresult cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  return Copy(dst, src, bytes, CopyKind::kDeviceToDevice, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return Copy(dst, src, bytes, CopyKind::kDeviceToDevice, stream, Sync::kAsync);
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src,
                      CUcontext src_context, size_t bytes) {
  return ToCUresult(streamhal::MemcpyPeerContexts(
      dst, HandleValue(dst_context), src, HandleValue(src_context), bytes, 0, Sync::kBlocking));
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src,
                           CUcontext src_context, size_t bytes, CUstream stream) {
  return ToCUresult(streamhal::MemcpyPeerContexts(dst, HandleValue(dst_context), src,
                                                  HandleValue(src_context), bytes,
                                                  HandleValue(stream), Sync::kAsync));
}

// streamhal's copies have no alignment or pitch limits beyond CUDA's checks,
// so cuMemcpy2DUnaligned is cuMemcpy2D.
CUresult cuMemcpy2D(const CUDA_MEMCPY2D* copy) {
  return Copy3D(copy, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D* copy) {
  return Copy3D(copy, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D* copy, CUstream stream) {
  return Copy3D(copy, stream, Sync::kAsync);
}
CUresult cuMemcpy3D(const CUDA_MEMCPY3D* copy) {
  return Copy3D(copy, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D* copy, CUstream stream) {
  return Copy3D(copy, stream, Sync::kAsync);
}

CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t count) {
  return Set(dst, value, 1, count, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemsetD16(CUdeviceptr dst, unsigned short value, size_t count) {
  return Set(dst, value, 2, count, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemsetD32(CUdeviceptr dst, unsigned int value, size_t count) {
  return Set(dst, value, 4, count, SynchronousCallStream(), Sync::kBlocking);
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

CUresult cuMemsetD2D8(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                      size_t height) {
  return Set2D(dst, pitch, value, 1, width, height, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemsetD2D16(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width,
                       size_t height) {
  return Set2D(dst, pitch, value, 2, width, height, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemsetD2D32(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width,
                       size_t height) {
  return Set2D(dst, pitch, value, 4, width, height, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,
                           size_t height, CUstream stream) {
  return Set2D(dst, pitch, value, 1, width, height, stream, Sync::kAsync);
}
CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short value, size_t width,
                            size_t height, CUstream stream) {
  return Set2D(dst, pitch, value, 2, width, height, stream, Sync::kAsync);
}
CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int value, size_t width,
                            size_t height, CUstream stream) {
  return Set2D(dst, pitch, value, 4, width, height, stream, Sync::kAsync);
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER* copy) {
  return Copy3DPeer(copy, SynchronousCallStream(), Sync::kBlocking);
}
CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* copy, CUstream stream) {
  return Copy3DPeer(copy, stream, Sync::kAsync);
}

}  // extern "C"
