#include "core/transfer.h"

#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "core/array.h"
#include "core/context.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"

namespace streamhal {
namespace {

uint8_t* HostPointer(uint64_t address) {
  return reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address));
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

ResolvedPointer Advance(ResolvedPointer pointer, uint64_t bytes) {
  pointer.offset += bytes;
  return pointer;
}

// The bytes from each side's first byte to its last.
uint64_t DstSpan(const CopyBox& box) { return box.DstRow(box.rows() - 1) + box.width; }
uint64_t SrcSpan(const CopyBox& box) { return box.SrcRow(box.rows() - 1) + box.width; }

// Copies a box between host addresses (host-to-host copies, and mapped
// device memory).
void HostCopy(uint8_t* dst, const uint8_t* src, const CopyBox& box) {
  if (box.rows() == 1) {
    std::memmove(dst, src, box.width);
    return;
  }
  for (uint64_t row = 0; row < box.rows(); ++row) {
    std::memmove(dst + box.DstRow(row), src + box.SrcRow(row), box.width);
  }
}

// The stream's recording of one copy: the 1-D forms for one row.
absl::Status RecordCopy(BackendStream* backend, const ResolvedPointer& dst,
                        const ResolvedPointer& src, const CopyBox& box) {
  if (box.rows() == 1) return backend->RecordCopy(Range(dst), Range(src), box.width);
  return backend->RecordCopyBox(Range(dst), Range(src), box);
}

// Whether the rows of two boxes in one allocation share a byte. Each side's
// rows ascend and are disjoint (CopyBox), so one merge pass decides.
bool Overlap(const ResolvedPointer& dst, const ResolvedPointer& src, const CopyBox& box) {
  if (dst.allocation != src.allocation) return false;
  if (dst.offset >= src.offset + SrcSpan(box) || src.offset >= dst.offset + DstSpan(box)) {
    return false;
  }
  for (uint64_t d = 0, s = 0; d < box.rows() && s < box.rows();) {
    const uint64_t dst_row = dst.offset + box.DstRow(d);
    const uint64_t src_row = src.offset + box.SrcRow(s);
    if (dst_row < src_row + box.width && src_row < dst_row + box.width) return true;
    if (dst_row < src_row) {
      ++d;
    } else {
      ++s;
    }
  }
  return false;
}

absl::Status CopyToDevice(Stream* stream, const ResolvedPointer& dst, const uint8_t* src,
                          const CopyBox& box, Sync sync) {
  const ResolvedPointer pinned = ResolveHostRange(src, SrcSpan(box));
  if (sync == Sync::kAsync && pinned.allocation != nullptr) {
    // Page-locked source: read when the copy executes (CUDA).
    return stream->Record(
        [&](BackendStream* backend) { return RecordCopy(backend, dst, pinned, box); });
  }
  if (sync == Sync::kBlocking) {
    // Blocking copies wait for earlier work in the stream, then write
    // directly when the destination is host-visible (integrated GPUs, CPU
    // devices): one memcpy per row, no staging.
    if (uint8_t* mapped = Mapped(dst)) {
      SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
      HostCopy(mapped, src, box);
      return absl::OkStatus();
    }
  }
  // Pageable source (or a blocking copy to memory the host cannot map):
  // read now, before returning (CUDA).
  SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
    if (box.rows() == 1) return backend->RecordUpload(Range(dst), src, box.width);
    return backend->RecordUploadBox(Range(dst), src, box);
  }));
  if (sync == Sync::kBlocking) return stream->Synchronize(Completion::kResults);
  return stream->Flush().status();
}

absl::Status CopyFromDevice(Stream* stream, uint8_t* dst, const ResolvedPointer& src,
                            const CopyBox& box, Sync sync) {
  const ResolvedPointer pinned = ResolveHostRange(dst, DstSpan(box));
  if (sync == Sync::kAsync && pinned.allocation != nullptr) {
    return stream->Record(
        [&](BackendStream* backend) { return RecordCopy(backend, pinned, src, box); });
  }
  // Pageable destination (or a blocking call): the copy has completed when
  // the call returns (CUDA).
  if (uint8_t* mapped = Mapped(src)) {
    SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
    HostCopy(dst, mapped, box);
    return absl::OkStatus();
  }
  SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
    if (box.rows() == 1) return backend->RecordDownload(dst, Range(src), box.width);
    return backend->RecordDownloadBox(dst, Range(src), box);
  }));
  return stream->Synchronize(Completion::kResults);
}

absl::Status CopyDeviceToDevice(Stream* stream, const ResolvedPointer& dst,
                                const ResolvedPointer& src, const CopyBox& box, Sync sync) {
  // A copy onto itself changes nothing: both vendors return success.
  if (dst.allocation == src.allocation && dst.offset == src.offset &&
      (box.rows() == 1 || (box.dst_pitch == box.src_pitch &&
                           (box.depth == 1 || box.dst_slice_pitch == box.src_slice_pitch)))) {
    return absl::OkStatus();
  }
  if (Overlap(dst, src, box)) {
    return Error(ErrorCode::kInvalidValue, "memcpy: source and destination overlap");
  }
  SH_RETURN_IF_ERROR(
      stream->Record([&](BackendStream* backend) { return RecordCopy(backend, dst, src, box); }));
  // Device-to-device copies do not block the host even in the synchronous
  // form (CUDA); submit so the work starts. Unless either side has
  // CU_POINTER_ATTRIBUTE_SYNC_MEMOPS set: then synchronous memory operations
  // on it always synchronize (cuPointerSetAttribute).
  if (sync == Sync::kBlocking && (dst.allocation->sync_memops.load(std::memory_order_relaxed) ||
                                  src.allocation->sync_memops.load(std::memory_order_relaxed))) {
    return stream->Synchronize(Completion::kResults);
  }
  return stream->Flush().status();
}

// The device whose memory `pointer` is.
Device* DeviceOf(const ResolvedPointer& pointer) { return pointer.allocation->context->device(); }

// One end of a copy across devices: device memory (with the host address it
// is mapped at, null where the host cannot reach it), or host memory.
struct End {
  ResolvedPointer device;  // allocation null: host memory
  uint8_t* host = nullptr;
};
End DeviceEnd(const ResolvedPointer& pointer) { return End{pointer, Mapped(pointer)}; }
End HostEnd(const void* pointer) {
  return End{ResolvedPointer{}, static_cast<uint8_t*>(const_cast<void*>(pointer))};
}

struct HostCopyTask {
  uint8_t* dst;
  const uint8_t* src;
  uint64_t bytes;
};
void RunHostCopyTask(void* data) {
  std::unique_ptr<HostCopyTask> task(static_cast<HostCopyTask*>(data));
  std::memmove(task->dst, task->src, task->bytes);
}

// A copy whose ends are not both memory of the stream's device: a VkDevice
// cannot record a copy of another VkDevice's buffer, so the bytes go through
// the host. Between two host-mapped allocations (CPU and integrated devices)
// an async copy is a host function ordered in the stream; otherwise the copy
// waits for the stream and both devices' contexts, then stages through host
// memory, and is complete on return.
absl::Status CopyAcrossDevices(Stream* stream, const End& dst, const End& src, uint64_t bytes,
                               Sync sync) {
  const bool device_to_device =
      dst.device.allocation != nullptr && src.device.allocation != nullptr;
  if (sync == Sync::kAsync && device_to_device && dst.host != nullptr && src.host != nullptr) {
    auto* task = new HostCopyTask{dst.host, src.host, bytes};
    absl::Status recorded = stream->Record([&](BackendStream* backend) {
      return backend->RecordHostFunction(&RunHostCopyTask, task);
    });
    if (!recorded.ok()) {
      delete task;
      return recorded;
    }
    return stream->Flush().status();
  }
  SH_RETURN_IF_ERROR(stream->Synchronize());
  for (const End* end : {&dst, &src}) {
    if (end->device.allocation != nullptr) {
      SH_RETURN_IF_ERROR(end->device.allocation->context->Synchronize());
    }
  }
  std::vector<uint8_t> staging;
  const uint8_t* from = src.host;
  if (from == nullptr) {
    staging.resize(bytes);
    SH_ASSIGN_OR_RETURN(Stream * source, src.device.allocation->context->DefaultStream());
    SH_RETURN_IF_ERROR(
        CopyFromDevice(source, staging.data(), src.device, CopyBox{bytes}, Sync::kBlocking));
    from = staging.data();
  }
  if (dst.host != nullptr) {
    std::memmove(dst.host, from, bytes);
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(Stream * target, dst.device.allocation->context->DefaultStream());
  return CopyToDevice(target, dst.device, from, CopyBox{bytes}, Sync::kBlocking);
}

absl::Status CopyHostToHost(Stream* stream, uint8_t* dst, const uint8_t* src, const CopyBox& box,
                            Sync sync) {
  // Ordered after earlier work in the stream, like any copy.
  if (sync == Sync::kBlocking) SH_RETURN_IF_ERROR(stream->SynchronizeForHostAccess());
  HostCopy(dst, src, box);
  return absl::OkStatus();
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
  const CopyBox row{bytes};
  switch (kind) {
    case CopyKind::kHostToHost:
      return CopyHostToHost(stream, HostPointer(dst), HostPointer(src), row, sync);
    case CopyKind::kHostToDevice: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                          ResolveDeviceRange(dst, bytes, "memcpy: destination"));
      if (DeviceOf(to) != stream->context()->device()) {
        return CopyAcrossDevices(stream, DeviceEnd(to), HostEnd(HostPointer(src)), bytes, sync);
      }
      return CopyToDevice(stream, to, HostPointer(src), row, sync);
    }
    case CopyKind::kDeviceToHost: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer from, ResolveDeviceRange(src, bytes, "memcpy: source"));
      if (DeviceOf(from) != stream->context()->device()) {
        return CopyAcrossDevices(stream, HostEnd(HostPointer(dst)), DeviceEnd(from), bytes, sync);
      }
      return CopyFromDevice(stream, HostPointer(dst), from, row, sync);
    }
    case CopyKind::kDeviceToDevice: {
      SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                          ResolveDeviceRange(dst, bytes, "memcpy: destination"));
      SH_ASSIGN_OR_RETURN(ResolvedPointer from, ResolveDeviceRange(src, bytes, "memcpy: source"));
      if (DeviceOf(to) != stream->context()->device() ||
          DeviceOf(from) != stream->context()->device()) {
        return CopyAcrossDevices(stream, DeviceEnd(to), DeviceEnd(from), bytes, sync);
      }
      return CopyDeviceToDevice(stream, to, from, row, sync);
    }
    case CopyKind::kDefault:
      break;
  }
  return Error(ErrorCode::kInvalidMemcpyDirection, "memcpy: unknown direction");
}

namespace {

// The peer copy between the memory of two devices, both forms.
absl::Status MemcpyPeer(uint64_t dst, Device* dst_device, uint64_t src, Device* src_device,
                        size_t bytes, uint64_t stream_handle, Sync sync) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (bytes == 0) return absl::OkStatus();
  SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                      ResolveDeviceRange(dst, bytes, "memcpy peer: destination"));
  SH_ASSIGN_OR_RETURN(ResolvedPointer from, ResolveDeviceRange(src, bytes, "memcpy peer: source"));
  if (DeviceOf(to) != dst_device || DeviceOf(from) != src_device) {
    return Error(ErrorCode::kInvalidValue, "memcpy peer: the ",
                 DeviceOf(to) != dst_device ? "destination" : "source",
                 " is not memory of the device its context names");
  }
  if (stream->capture() != nullptr) {
    if (sync == Sync::kBlocking) return CaptureForbidden(stream, "a synchronous peer copy");
    if (dst_device != src_device || dst_device != stream->context()->device()) {
      return Error(ErrorCode::kNotSupported,
                   "memcpy peer: a copy between devices cannot be captured into a graph yet");
    }
    Copy3DParams copy;
    copy.src.type = MemoryType::kDevice;
    copy.src.address = src;
    copy.dst.type = MemoryType::kDevice;
    copy.dst.address = dst;
    copy.width = bytes;
    return CaptureCopy(stream, copy);
  }
  if (sync == Sync::kBlocking) {
    // Serialised with the work of the current context and of both ends'
    // contexts (cuMemcpyPeer).
    SH_RETURN_IF_ERROR(context->Synchronize());
    SH_RETURN_IF_ERROR(to.allocation->context->Synchronize());
    SH_RETURN_IF_ERROR(from.allocation->context->Synchronize());
  }
  if (dst_device == src_device && dst_device == stream->context()->device()) {
    return CopyDeviceToDevice(stream, to, from, CopyBox{bytes}, sync);
  }
  return CopyAcrossDevices(stream, DeviceEnd(to), DeviceEnd(from), bytes, sync);
}

}  // namespace

absl::Status MemcpyPeerContexts(uint64_t dst, uint64_t dst_context, uint64_t src,
                                uint64_t src_context, size_t bytes, uint64_t stream, Sync sync) {
  SH_ASSIGN_OR_RETURN(Context * to, ResolveContext(dst_context));
  SH_ASSIGN_OR_RETURN(Context * from, ResolveContext(src_context));
  return MemcpyPeer(dst, to->device(), src, from->device(), bytes, stream, sync);
}

absl::Status MemcpyPeerDevices(uint64_t dst, int dst_device, uint64_t src, int src_device,
                               size_t bytes, uint64_t stream, Sync sync) {
  SH_ASSIGN_OR_RETURN(Device * to, GetDevice(dst_device));
  SH_ASSIGN_OR_RETURN(Device * from, GetDevice(src_device));
  return MemcpyPeer(dst, to, src, from, bytes, stream, sync);
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
  if (sync == Sync::kBlocking) return stream->Synchronize(Completion::kResults);
  return stream->Flush().status();
}

absl::Status Memcpy3D(const Copy3DParams& copy, uint64_t stream_handle, Sync sync) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (copy.src.type == MemoryType::kArray || copy.dst.type == MemoryType::kArray) {
    return ArrayCopy(stream, copy, sync);
  }
  SH_RETURN_IF_ERROR(ValidateCopy3D(copy, /*allow_empty=*/true));
  if (copy.width == 0 || copy.height == 0 || copy.depth == 0) return absl::OkStatus();
  if ((copy.src.type == MemoryType::kUnified || copy.dst.type == MemoryType::kUnified) &&
      !context->device()->properties().unified_addressing) {
    return Error(ErrorCode::kInvalidValue, "memcpy3D: a unified end needs unified addressing, ",
                 "which device ", context->device()->ordinal(), " does not have");
  }
  if (stream->capture() != nullptr) {
    if (sync == Sync::kBlocking) return CaptureForbidden(stream, "a synchronous copy");
    return CaptureCopy(stream, copy);
  }
  return RunCopy3D(stream, copy, sync);
}

absl::Status Memcpy3DPeer(const Copy3DParams& copy, uint64_t dst_context, uint64_t src_context,
                          uint64_t stream_handle, Sync sync) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_RETURN_IF_ERROR(ResolveStream(stream_handle).status());
  // The device each device end's context names; the memory must be its.
  const auto check = [&](const CopyEnd& end, uint64_t context_handle,
                         const char* what) -> absl::Status {
    if (end.type == MemoryType::kHost || end.type == MemoryType::kArray) return absl::OkStatus();
    if (end.type == MemoryType::kUnified) {
      const ResolvedPointer pointer = ResolveAnyRange(end.address, 1);
      if (!pointer.is_device()) return absl::OkStatus();
    }
    SH_ASSIGN_OR_RETURN(Context * owner, ResolveContext(context_handle));
    SH_ASSIGN_OR_RETURN(ResolvedPointer pointer, ResolveDeviceRange(end.address, 1, what));
    if (DeviceOf(pointer) != owner->device()) {
      return Error(ErrorCode::kInvalidValue, what, " 0x", absl::Hex(end.address),
                   " is not memory of the device its context names");
    }
    if (owner->device() != context->device()) {
      return Error(ErrorCode::kNotSupported, what,
                   " is memory of another device: 3-D copies between devices are not "
                   "supported yet (cuMemcpyPeer copies between them)");
    }
    return absl::OkStatus();
  };
  SH_RETURN_IF_ERROR(check(copy.src, src_context, "cuMemcpy3DPeer: source"));
  SH_RETURN_IF_ERROR(check(copy.dst, dst_context, "cuMemcpy3DPeer: destination"));
  return Memcpy3D(copy, stream_handle, sync);
}

absl::Status RunCopy3D(Stream* stream, const Copy3DParams& copy, Sync sync) {
  // One end: its first byte, and the memory it is in.
  struct Side {
    ResolvedPointer pointer;  // allocation null: pageable host memory
    uint64_t first = 0;       // host pointer or device address of the first byte
    bool device = false;
  };
  auto resolve = [&](const CopyEnd& end, const char* what) -> absl::StatusOr<Side> {
    const uint64_t span = CopyEndSpan(end, copy);
    const uint64_t start = CopyRowOffset(end, 0, 0);
    Side side;
    side.first = end.address + start;
    if (end.type == MemoryType::kDevice) {
      SH_ASSIGN_OR_RETURN(side.pointer, ResolveDeviceRange(end.address, span, what));
      side.device = true;
    } else {
      side.pointer = end.type == MemoryType::kHost
                         ? ResolveHostRange(HostPointer(end.address), span)
                         : ResolveAnyRange(end.address, span);
      side.device = side.pointer.is_device();
      // Device memory outside any live allocation (a freed pointer) is not
      // host memory, whatever the host can read there.
      if (!side.device && end.type == MemoryType::kUnified &&
          stream->context()->device()->backend()->IsDeviceMemory(end.address)) {
        return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " 0x", absl::Hex(end.address),
                     " is device memory that is not allocated (freed?)");
      }
    }
    side.pointer.offset += start;
    return side;
  };
  SH_ASSIGN_OR_RETURN(const Side src, resolve(copy.src, "memcpy3D: source"));
  SH_ASSIGN_OR_RETURN(const Side dst, resolve(copy.dst, "memcpy3D: destination"));
  CopyBox box;
  box.width = copy.width;
  box.height = copy.height;
  box.depth = copy.depth;
  box.dst_pitch = copy.dst.pitch;
  box.dst_slice_pitch = copy.dst.pitch * copy.dst.height;
  box.src_pitch = copy.src.pitch;
  box.src_slice_pitch = copy.src.pitch * copy.src.height;
  if (dst.device && src.device)
    return CopyDeviceToDevice(stream, dst.pointer, src.pointer, box, sync);
  if (dst.device) return CopyToDevice(stream, dst.pointer, HostPointer(src.first), box, sync);
  if (src.device) return CopyFromDevice(stream, HostPointer(dst.first), src.pointer, box, sync);
  return CopyHostToHost(stream, HostPointer(dst.first), HostPointer(src.first), box, sync);
}

absl::Status Memset3D(const MemsetNodeParams& rows, uint64_t depth, uint64_t slice_pitch,
                      uint64_t stream_handle, Sync sync) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  const uint32_t size = rows.element_size;
  if (rows.dst % size != 0) {
    return Error(ErrorCode::kInvalidValue, "memset2D: 0x", absl::Hex(rows.dst),
                 " is not aligned to ", size, " bytes");
  }
  if (rows.width == 0 || rows.height == 0 || depth == 0) return absl::OkStatus();
  // Element size, row and pitch checks, and the first slice's range.
  SH_RETURN_IF_ERROR(ValidateMemset(rows));
  const uint64_t slice_bytes = (rows.height - 1) * rows.pitch + rows.width * size;
  // Slices back to back are rows of one slice.
  const bool packed = depth == 1 || slice_pitch == rows.height * rows.pitch;
  if (depth > 1) {
    if (slice_pitch < slice_bytes) {
      return Error(ErrorCode::kInvalidValue, "memset3D: slice pitch ", slice_pitch,
                   " is smaller than a slice (", slice_bytes, " bytes)");
    }
    if (depth - 1 > (UINT64_MAX - slice_bytes) / slice_pitch) {
      return Error(ErrorCode::kInvalidValue, "memset3D: ", depth, " slices overflow");
    }
  }
  const uint64_t bytes = (depth - 1) * slice_pitch + slice_bytes;
  SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                      ResolveDeviceRange(rows.dst, bytes, "memset2D: destination"));
  if (stream->capture() != nullptr) {
    if (sync == Sync::kBlocking) return CaptureForbidden(stream, "a synchronous memset");
    if (packed) {
      MemsetNodeParams all = rows;
      all.height = rows.height * depth;
      return CaptureMemset(stream, all);
    }
    for (uint64_t z = 0; z < depth; ++z) {
      MemsetNodeParams slice = rows;
      slice.dst = rows.dst + z * slice_pitch;
      SH_RETURN_IF_ERROR(CaptureMemset(stream, slice));
    }
    return absl::OkStatus();
  }
  // Slices apart are filled one by one.
  const uint64_t slices = packed ? 1 : depth;
  const uint64_t rows_per_fill = packed ? rows.height * depth : rows.height;
  SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
    absl::Status status;
    for (uint64_t z = 0; z < slices && status.ok(); ++z) {
      status = backend->RecordFillRows(Range(Advance(to, z * slice_pitch)), rows.value, size,
                                       rows.width, rows.pitch, rows_per_fill);
    }
    return status;
  }));
  if (sync == Sync::kBlocking) return stream->Synchronize(Completion::kResults);
  return stream->Flush().status();
}

}  // namespace streamhal
