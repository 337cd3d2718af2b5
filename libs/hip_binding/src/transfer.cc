// Copies and fills (hipMemcpy*, hipMemset*).
#include "core/transfer.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "copy_params.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/status.h"

using streamhal::CopyKind;
using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::Sync;
using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;

namespace {

// `kind` is the caller's hipMemcpyKind read as an int (core/c_enum.h): C
// callers may pass numbers outside the enum.
absl::Status Copy(uint64_t dst, uint64_t src, size_t bytes, int kind, hipStream_t stream,
                  Sync sync) {
  CopyKind core_kind;
  switch (kind) {
    case hipMemcpyHostToHost: core_kind = CopyKind::kHostToHost; break;
    case hipMemcpyHostToDevice: core_kind = CopyKind::kHostToDevice; break;
    case hipMemcpyDeviceToHost: core_kind = CopyKind::kDeviceToHost; break;
    case hipMemcpyDeviceToDevice: core_kind = CopyKind::kDeviceToDevice; break;
    case hipMemcpyDefault: core_kind = CopyKind::kDefault; break;
    default:
      return streamhal::Error(streamhal::ErrorCode::kInvalidMemcpyDirection,
                              "hipMemcpy: unknown hipMemcpyKind ", kind);
  }
  return streamhal::Memcpy(dst, src, bytes, core_kind, HandleValue(stream), sync);
}

hipError_t Set(uint64_t dst, uint32_t value, unsigned size, size_t count, hipStream_t stream,
               Sync sync) {
  return RuntimeCall(
      [&] { return streamhal::Memset(dst, value, size, count, HandleValue(stream), sync); });
}

template <typename Descriptor>
hipError_t Copy3D(const Descriptor* descriptor, hipStream_t stream, Sync sync) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::Copy3DParams copy, streamhal::hip::ToCopy(descriptor));
    return streamhal::Memcpy3D(copy, HandleValue(stream), sync);
  });
}

hipError_t Copy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                  size_t height, int kind, hipStream_t stream, Sync sync) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::Copy3DParams copy,
                        streamhal::hip::ToCopy2D(dst, dpitch, src, spitch, width, height, kind));
    return streamhal::Memcpy3D(copy, HandleValue(stream), sync);
  });
}

// hipMemset2D/3D: `value`'s low byte in every byte.
hipError_t Set3D(void* dst, size_t pitch, size_t slice_pitch, int value, size_t width,
                 size_t height, size_t depth, hipStream_t stream, Sync sync) {
  streamhal::MemsetNodeParams rows;
  rows.dst = Address(dst);
  rows.pitch = pitch;
  rows.value = static_cast<uint8_t>(value);
  rows.element_size = 1;
  rows.width = width;
  rows.height = height;
  return RuntimeCall(
      [&] { return streamhal::Memset3D(rows, depth, slice_pitch, HandleValue(stream), sync); });
}

}  // namespace

extern "C" {

hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, EnumArgument(kind), nullptr, Sync::kBlocking);
  });
}
hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                               hipStream_t stream) {
  // HIP: like hipMemcpyAsync followed by hipStreamSynchronize.
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, EnumArgument(kind), stream, Sync::kBlocking);
  });
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                          hipStream_t stream) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, EnumArgument(kind), stream, Sync::kAsync);
  });
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void* src, size_t bytes) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyHostToDevice, nullptr, Sync::kBlocking);
  });
}
hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t bytes) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyDeviceToHost, nullptr, Sync::kBlocking);
  });
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyDeviceToDevice, nullptr,
                Sync::kBlocking);
  });
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t bytes, hipStream_t stream) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyHostToDevice, stream, Sync::kAsync);
  });
}
hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t bytes, hipStream_t stream) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyDeviceToHost, stream, Sync::kAsync);
  });
}
hipError_t hipMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t bytes) {
  return RuntimeCall([&] {
    return streamhal::MemcpyPeerDevices(Address(dst), dst_device, Address(src), src_device, bytes,
                                        0, Sync::kBlocking);
  });
}

hipError_t hipMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device,
                              size_t bytes, hipStream_t stream) {
  return RuntimeCall([&] {
    return streamhal::MemcpyPeerDevices(Address(dst), dst_device, Address(src), src_device, bytes,
                                        HandleValue(stream), Sync::kAsync);
  });
}

hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes,
                              hipStream_t stream) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyDeviceToDevice, stream, Sync::kAsync);
  });
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind) {
  return Copy2D(dst, dpitch, src, spitch, width, height, EnumArgument(kind), nullptr,
                Sync::kBlocking);
}
hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, hipMemcpyKind kind, hipStream_t stream) {
  return Copy2D(dst, dpitch, src, spitch, width, height, EnumArgument(kind), stream, Sync::kAsync);
}
hipError_t hipMemcpyParam2D(const hip_Memcpy2D* copy) {
  return Copy3D(copy, nullptr, Sync::kBlocking);
}
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D* copy, hipStream_t stream) {
  return Copy3D(copy, stream, Sync::kAsync);
}
// No alignment limits apply to any copy: the unaligned form is the same.
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D* copy) {
  return Copy3D(copy, nullptr, Sync::kBlocking);
}
hipError_t hipMemcpy3D(const hipMemcpy3DParms* copy) {
  return Copy3D(copy, nullptr, Sync::kBlocking);
}
hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* copy, hipStream_t stream) {
  return Copy3D(copy, stream, Sync::kAsync);
}
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D* copy) {
  return Copy3D(copy, nullptr, Sync::kBlocking);
}
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D* copy, hipStream_t stream) {
  return Copy3D(copy, stream, Sync::kAsync);
}

hipError_t hipMemset(void* dst, int value, size_t bytes) {
  return Set(Address(dst), static_cast<uint8_t>(value), 1, bytes, nullptr, Sync::kBlocking);
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream) {
  return Set(Address(dst), static_cast<uint8_t>(value), 1, bytes, stream, Sync::kAsync);
}
hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  return Set(Address(dst), value, 1, count, nullptr, Sync::kBlocking);
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count,
                            hipStream_t stream) {
  return Set(Address(dst), value, 1, count, stream, Sync::kAsync);
}
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  return Set(Address(dst), value, 2, count, nullptr, Sync::kBlocking);
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count,
                             hipStream_t stream) {
  return Set(Address(dst), value, 2, count, stream, Sync::kAsync);
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  return Set(Address(dst), static_cast<uint32_t>(value), 4, count, nullptr, Sync::kBlocking);
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  return Set(Address(dst), static_cast<uint32_t>(value), 4, count, stream, Sync::kAsync);
}

hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return Set3D(dst, pitch, 0, value, width, height, 1, nullptr, Sync::kBlocking);
}
hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                            hipStream_t stream) {
  return Set3D(dst, pitch, 0, value, width, height, 1, stream, Sync::kAsync);
}
// Slices are pitch * ysize bytes apart (hipMalloc3D's layout).
hipError_t hipMemset3D(hipPitchedPtr dst, int value, hipExtent extent) {
  return Set3D(dst.ptr, dst.pitch, dst.pitch * dst.ysize, value, extent.width, extent.height,
               extent.depth, nullptr, Sync::kBlocking);
}
hipError_t hipMemset3DAsync(hipPitchedPtr dst, int value, hipExtent extent, hipStream_t stream) {
  return Set3D(dst.ptr, dst.pitch, dst.pitch * dst.ysize, value, extent.width, extent.height,
               extent.depth, stream, Sync::kAsync);
}

}  // extern "C"
