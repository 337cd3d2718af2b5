// Copies and fills (hipMemcpy*, hipMemset*).
#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/status.h"
#include "core/transfer.h"

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
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t bytes,
                              hipStream_t stream) {
  return RuntimeCall([&] {
    return Copy(Address(dst), Address(src), bytes, hipMemcpyDeviceToDevice, stream, Sync::kAsync);
  });
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

}  // extern "C"
