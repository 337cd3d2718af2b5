#include "core/transfer.h"

#include <cstring>
#include <utility>

#include "core/context.h"
#include "core/memory.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"

namespace streamhal {
namespace {

void* HostPointer(uint64_t address) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(address));
}

BufferRange Range(const ResolvedPointer& pointer) {
  return BufferRange{pointer.allocation->backend.get(), pointer.offset};
}

// The host address of a resolved range when the host can access it
// directly, else null.
uint8_t* Mapped(const ResolvedPointer& pointer) {
  void* base = pointer.allocation->backend->host_pointer();
  return base == nullptr ? nullptr : static_cast<uint8_t*>(base) + pointer.offset;
}

bool Overlap(const ResolvedPointer& a, const ResolvedPointer& b, uint64_t bytes) {
  return a.allocation == b.allocation && a.offset < b.offset + bytes && b.offset < a.offset + bytes;
}

absl::Status CopyToDevice(Stream* stream, const ResolvedPointer& dst, const void* src,
                          uint64_t bytes, Sync sync) {
  const ResolvedPointer pinned = ResolveHostRange(src, bytes);
  if (sync == Sync::kAsync && pinned.allocation != nullptr) {
    // Page-locked source: read when the copy executes (CUDA).
    return stream->Record([&](BackendStream* backend) {
      return backend->RecordCopy(Range(dst), Range(pinned), bytes);
    });
  }
  if (sync == Sync::kBlocking) {
    // Blocking copies wait for earlier work in the stream, then write
    // directly when the destination is host-visible (integrated GPUs, CPU
    // devices): one memcpy, no staging.
    if (uint8_t* mapped = Mapped(dst)) {
      SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
      std::memcpy(mapped, src, bytes);
      return absl::OkStatus();
    }
    SH_RETURN_IF_ERROR(stream->Record(
        [&](BackendStream* backend) { return backend->RecordUpload(Range(dst), src, bytes); }));
    return stream->Synchronize();
  }
  // Pageable source, async: read now, before returning (CUDA).
  SH_RETURN_IF_ERROR(stream->Record(
      [&](BackendStream* backend) { return backend->RecordUpload(Range(dst), src, bytes); }));
  return stream->Flush().status();
}

absl::Status CopyFromDevice(Stream* stream, void* dst, const ResolvedPointer& src, uint64_t bytes,
                            Sync sync) {
  const ResolvedPointer pinned = ResolveHostRange(dst, bytes);
  if (sync == Sync::kAsync && pinned.allocation != nullptr) {
    return stream->Record([&](BackendStream* backend) {
      return backend->RecordCopy(Range(pinned), Range(src), bytes);
    });
  }
  // Pageable destination (or a blocking call): the copy has completed when
  // the call returns (CUDA).
  if (uint8_t* mapped = Mapped(src)) {
    SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
    std::memcpy(dst, mapped, bytes);
    return absl::OkStatus();
  }
  SH_RETURN_IF_ERROR(stream->Record(
      [&](BackendStream* backend) { return backend->RecordDownload(dst, Range(src), bytes); }));
  return stream->Synchronize();
}

absl::Status CopyDeviceToDevice(Stream* stream, const ResolvedPointer& dst,
                                const ResolvedPointer& src, uint64_t bytes, Sync sync) {
  // A copy onto itself changes nothing: both vendors return success.
  if (dst.allocation == src.allocation && dst.offset == src.offset) return absl::OkStatus();
  if (Overlap(dst, src, bytes)) {
    return Error(ErrorCode::kInvalidValue, "cuMemcpyDtoD: source and destination overlap");
  }
  SH_RETURN_IF_ERROR(stream->Record(
      [&](BackendStream* backend) { return backend->RecordCopy(Range(dst), Range(src), bytes); }));
  // Device-to-device copies do not block the host even in the synchronous
  // form (CUDA); submit so the work starts. Unless either side has
  // CU_POINTER_ATTRIBUTE_SYNC_MEMOPS set: then synchronous memory operations
  // on it always synchronize (cuPointerSetAttribute).
  if (sync == Sync::kBlocking && (dst.allocation->sync_memops.load(std::memory_order_relaxed) ||
                                  src.allocation->sync_memops.load(std::memory_order_relaxed))) {
    return stream->Synchronize();
  }
  return stream->Flush().status();
}

}  // namespace

absl::Status Memcpy(uint64_t dst, uint64_t src, size_t bytes, CopyKind kind, uint64_t stream_handle,
                    Sync sync) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (bytes == 0) return absl::OkStatus();
  if (dst == 0 || src == 0) {
    return Error(ErrorCode::kInvalidValue, "memcpy: null ", dst == 0 ? "destination" : "source");
  }
  if (kind == CopyKind::kDefault) {
    if (!context->device()->properties().unified_addressing) {
      return Error(ErrorCode::kInvalidValue, "memcpy: the direction cannot be inferred because ",
                   "device ", context->device()->ordinal(), " has no unified addressing");
    }
    // A range that starts inside a device allocation must lie inside it.
    for (uint64_t address : {dst, src}) {
      if (ResolveAnyRange(address, 1).is_device() && !ResolveAnyRange(address, bytes).is_device()) {
        return Error(ErrorCode::kInvalidValue, "memcpy: range [0x", absl::Hex(address), ", +",
                     bytes, ") runs past the end of its allocation");
      }
    }
    const bool dst_device = ResolveAnyRange(dst, bytes).is_device();
    const bool src_device = ResolveAnyRange(src, bytes).is_device();
    // Device memory outside any live allocation (a freed pointer) is not
    // host memory, whatever the host can read there.
    for (const auto& [address, live] : {std::pair{dst, dst_device}, std::pair{src, src_device}}) {
      if (!live && context->device()->backend()->IsDeviceMemory(address)) {
        return Error(ErrorCode::kInvalidValue, "memcpy: 0x", absl::Hex(address),
                     " is device memory that is not allocated (freed?)");
      }
    }
    kind = dst_device ? (src_device ? CopyKind::kDeviceToDevice : CopyKind::kHostToDevice)
                      : (src_device ? CopyKind::kDeviceToHost : CopyKind::kHostToHost);
  }
  if (stream->capture() != nullptr) {
    if (sync == Sync::kBlocking) return CaptureForbidden(stream, "a synchronous copy");
    if (kind == CopyKind::kDefault)
      return Error(ErrorCode::kInvalidMemcpyDirection, "memcpy: unknown direction");
    const bool src_device = kind == CopyKind::kDeviceToHost || kind == CopyKind::kDeviceToDevice;
    const bool dst_device = kind == CopyKind::kHostToDevice || kind == CopyKind::kDeviceToDevice;
    Copy3DParams copy;
    copy.src.type = src_device ? MemoryType::kDevice : MemoryType::kHost;
    copy.src.address = src;
    copy.dst.type = dst_device ? MemoryType::kDevice : MemoryType::kHost;
    copy.dst.address = dst;
    copy.width = bytes;
    return CaptureCopy(stream, copy);
  }
  switch (kind) {
    case CopyKind::kHostToHost:
      // Ordered after earlier work in the stream, like any copy.
      if (sync == Sync::kBlocking) SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
      std::memmove(HostPointer(dst), HostPointer(src), bytes);
      return absl::OkStatus();
    case CopyKind::kHostToDevice: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                          ResolveDeviceRange(dst, bytes, "memcpy: destination"));
      return CopyToDevice(stream, to, HostPointer(src), bytes, sync);
    }
    case CopyKind::kDeviceToHost: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer from, ResolveDeviceRange(src, bytes, "memcpy: source"));
      return CopyFromDevice(stream, HostPointer(dst), from, bytes, sync);
    }
    case CopyKind::kDeviceToDevice: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                          ResolveDeviceRange(dst, bytes, "memcpy: destination"));
      SH_ASSIGN_OR_RETURN(ResolvedPointer from, ResolveDeviceRange(src, bytes, "memcpy: source"));
      return CopyDeviceToDevice(stream, to, from, bytes, sync);
    }
    case CopyKind::kDefault:
      break;
  }
  return Error(ErrorCode::kInvalidMemcpyDirection, "memcpy: unknown direction");
}

absl::Status Memset(uint64_t dst, uint32_t value, unsigned element_size, size_t count,
                    uint64_t stream_handle, Sync sync) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (dst % element_size != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemsetD", element_size * 8, ": 0x", absl::Hex(dst),
                 " is not aligned to ", element_size, " bytes");
  }
  if (count == 0) return absl::OkStatus();
  if (count > UINT64_MAX / element_size) {
    return Error(ErrorCode::kInvalidValue, "memset: count ", count, " is too large");
  }
  if (stream->capture() != nullptr) {
    if (sync == Sync::kBlocking) return CaptureForbidden(stream, "a synchronous memset");
    MemsetNodeParams params;
    params.dst = dst;
    params.value = value;
    params.element_size = element_size;
    params.width = count;
    params.pitch = uint64_t{count} * element_size;
    return CaptureMemset(stream, params);
  }
  SH_ASSIGN_OR_RETURN(ResolvedPointer to, ResolveDeviceRange(dst, uint64_t{count} * element_size,
                                                             "memset: destination"));
  SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
    return backend->RecordFill(Range(to), value, element_size, count);
  }));
  if (sync == Sync::kBlocking) return stream->Synchronize();
  return stream->Flush().status();
}

}  // namespace streamhal
