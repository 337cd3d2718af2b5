#include "core/array.h"

#include <cstring>
#include <utility>

#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

constexpr unsigned kKnownFlags = kArrayLayered | kArraySurfaceLoadStore | kArrayCubemap |
                                 kArrayTextureGather | kArrayDepthTexture | kArrayColorAttachment |
                                 kArraySparse | kArrayDeferredMapping;

uint8_t* HostPointer(uint64_t address) {
  return reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(address));
}

}  // namespace

absl::Status ValidateArrayShape(const ArrayDescriptor& d, const char* api) {
  if (ArrayElementBytes(d.format, d.channels) == 0) {
    return Error(ErrorCode::kInvalidValue, api, ": Format 0x", absl::Hex(d.format), " with ",
                 d.channels, " channels is not an array format (1, 2 or 4 channels of ",
                 "8/16/32-bit integers, half or float)");
  }
  if (d.width == 0) return Error(ErrorCode::kInvalidValue, api, ": Width is 0");
  if ((d.flags & ~kKnownFlags) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown flags 0x", absl::Hex(d.flags));
  }
  if ((d.flags &
       (kArrayDepthTexture | kArrayColorAttachment | kArraySparse | kArrayDeferredMapping)) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": flags 0x", absl::Hex(d.flags),
                 " ask for depth, colour-attachment, sparse or deferred-mapping arrays, which ",
                 "this device does not hold");
  }
  const bool layered = (d.flags & kArrayLayered) != 0;
  const bool cubemap = (d.flags & kArrayCubemap) != 0;
  if (cubemap) {
    if (d.width != d.height || d.depth == 0 || d.depth % 6 != 0 || (!layered && d.depth != 6)) {
      return Error(ErrorCode::kInvalidValue, api, ": a cubemap has Width == Height and Depth 6 ",
                   "(a multiple of 6 when layered); got ", d.width, " x ", d.height, " x ",
                   d.depth);
    }
  } else if (layered) {
    if (d.depth == 0) {
      return Error(ErrorCode::kInvalidValue, api, ": a layered array needs Depth (layers) > 0");
    }
  } else if (d.height == 0 && d.depth != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": Height 0 with Depth ", d.depth,
                 " is no array shape (a 3-D array needs all three extents)");
  }
  if ((d.flags & kArrayTextureGather) != 0 && (d.height == 0 || d.depth != 0)) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": CUDA_ARRAY3D_TEXTURE_GATHER is for 2-D arrays only");
  }
  // Extents past 32 bits fit no device (Vulkan extents are 32-bit).
  if (d.width > UINT32_MAX || d.height > UINT32_MAX || d.depth > UINT32_MAX) {
    return Error(ErrorCode::kInvalidValue, api, ": extent ", d.width, " x ", d.height, " x ",
                 d.depth, " is larger than any device array");
  }
  return absl::OkStatus();
}

ImageDesc ArrayImageDesc(const ArrayDescriptor& desc, uint32_t levels) {
  ImageDesc image;
  image.format = static_cast<ArrayFormat>(desc.format);
  image.channels = desc.channels;
  image.width = desc.width;
  image.height = desc.height;
  image.depth = desc.depth;
  image.layered = (desc.flags & kArrayLayered) != 0;
  image.cubemap = (desc.flags & kArrayCubemap) != 0;
  image.storage = (desc.flags & kArraySurfaceLoadStore) != 0;
  image.gather = (desc.flags & kArrayTextureGather) != 0;
  image.levels = levels;
  return image;
}

namespace {

// One linear end of an array copy, resolved.
struct LinearEnd {
  ResolvedPointer pointer;  // allocation null: pageable host memory
  uint8_t* host = nullptr;  // the first byte, when the end is host memory
  bool device = false;      // device memory (else host, pinned or not)
};

// The end's memory: device, pinned host or pageable host.
absl::StatusOr<LinearEnd> ResolveLinear(Stream* stream, const CopyEnd& end,
                                        const Copy3DParams& copy, const char* what) {
  // Rows must hold x + width and slices y + height, as for linear copies.
  if ((copy.height > 1 || copy.depth > 1) && end.pitch < end.x + copy.width) {
    return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " pitch ", end.pitch,
                 " is smaller than x + WidthInBytes (", end.x + copy.width, ")");
  }
  if (copy.depth > 1 && end.height < end.y + copy.height) {
    return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " height ", end.height,
                 " is smaller than y + Height (", end.y + copy.height, ")");
  }
  if (end.address == 0) return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " is null");
  const uint64_t span = CopyEndSpan(end, copy);
  const uint64_t start = CopyRowOffset(end, 0, 0);
  LinearEnd side;
  switch (end.type) {
    case MemoryType::kDevice: {
      SH_ASSIGN_OR_RETURN(side.pointer, ResolveDeviceRange(end.address, span, what));
      side.device = true;
      break;
    }
    case MemoryType::kHost:
      side.pointer = ResolveHostRange(HostPointer(end.address), span);
      break;
    case MemoryType::kUnified:
      if (!stream->context()->device()->properties().unified_addressing) {
        return Error(ErrorCode::kInvalidValue, "memcpy: a unified ", what,
                     " needs unified addressing");
      }
      side.pointer = ResolveAnyRange(end.address, span);
      side.device = side.pointer.is_device();
      if (!side.device && stream->context()->device()->backend()->IsDeviceMemory(end.address)) {
        return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " 0x", absl::Hex(end.address),
                     " is device memory that is not allocated (freed?)");
      }
      break;
    default:
      return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " memory type ",
                   static_cast<int>(end.type), " is unknown");
  }
  if (!side.device) side.host = HostPointer(end.address + start);
  side.pointer.offset += start;
  return side;
}

// Checks an array end and returns the array and the box in texels.
absl::StatusOr<std::pair<Array*, ImageBox>> ResolveArrayEnd(Context* context, const CopyEnd& end,
                                                            const Copy3DParams& copy,
                                                            const char* what) {
  SH_ASSIGN_OR_RETURN(Array * array, ResolveArray(end.address, ErrorCode::kInvalidValue, what));
  if (array->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " belongs to another device");
  }
  const uint32_t size = array->element_bytes();
  if (end.x % size != 0 || copy.width % size != 0) {
    return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " x (", end.x, ") and WidthInBytes (",
                 copy.width, ") must be multiples of the array's ", size, "-byte elements");
  }
  ImageBox box;
  box.level = array->level();
  box.x = end.x / size;
  box.y = end.y;
  box.z = end.z;
  box.width = copy.width / size;
  box.height = copy.height;
  box.depth = copy.depth;
  const ArrayDescriptor& d = array->desc();
  // Written so that no sum can wrap (a WidthInBytes of SIZE_MAX).
  const auto outside = [](uint64_t at, uint64_t extent, uint64_t limit) {
    return at > limit || extent > limit - at;
  };
  if (outside(box.x, box.width, d.width) || outside(box.y, box.height, array->rows()) ||
      outside(box.z, box.depth, array->slices())) {
    return Error(ErrorCode::kInvalidValue, "memcpy: ", what, " box at (", box.x, ", ", box.y, ", ",
                 box.z, ") of ", box.width, " x ", box.height, " x ", box.depth,
                 " elements runs outside the ", d.width, " x ", array->rows(), " x ",
                 array->slices(), " array");
  }
  return std::pair{array, box};
}

// Bytes of a packed copy of `copy`'s box.
uint64_t PackedBytes(const Copy3DParams& copy) { return copy.width * copy.height * copy.depth; }

// The box shape between a packed buffer (`packed_on_dst`: on the
// destination side) and a linear end with pitch/height.
CopyBox PackBox(const Copy3DParams& copy, const CopyEnd& linear, bool packed_on_dst) {
  CopyBox box;
  box.width = copy.width;
  box.height = copy.height;
  box.depth = copy.depth;
  const uint64_t pitch = copy.height > 1 || copy.depth > 1 ? linear.pitch : copy.width;
  const uint64_t slice = pitch * (copy.depth > 1 ? linear.height : copy.height);
  (packed_on_dst ? box.dst_pitch : box.src_pitch) = copy.width;
  (packed_on_dst ? box.dst_slice_pitch : box.src_slice_pitch) = copy.width * copy.height;
  (packed_on_dst ? box.src_pitch : box.dst_pitch) = pitch;
  (packed_on_dst ? box.src_slice_pitch : box.dst_slice_pitch) = slice;
  return box;
}

// Whether a linear end can be the buffer side of an image copy as it is:
// Vulkan wants texel-aligned offsets and rows.
bool TexelAligned(const LinearEnd& side, const CopyEnd& end, const Copy3DParams& copy,
                  uint32_t size) {
  if (side.pointer.allocation == nullptr) return false;
  const uint64_t address = side.pointer.allocation->device_address() + side.pointer.offset;
  const bool rows = copy.height > 1 || copy.depth > 1;
  return address % size == 0 && (!rows || end.pitch % size == 0);
}

ImageBufferSide Side(BufferRange range, const CopyEnd& end, const Copy3DParams& copy,
                     uint32_t size) {
  ImageBufferSide side;
  side.range = range;
  const bool rows = copy.height > 1 || copy.depth > 1;
  side.row_texels = rows ? end.pitch / size : 0;
  side.slice_rows = copy.depth > 1 ? end.height : 0;
  return side;
}

ImageBufferSide PackedSide(BufferRange range) { return ImageBufferSide{range, 0, 0}; }

absl::Status Finish(Stream* stream, Sync sync) {
  if (sync == Sync::kBlocking) return stream->Synchronize(Completion::kResults);
  return stream->Flush().status();
}

// Linear memory to an array.
absl::Status CopyToArray(Stream* stream, Array* array, const ImageBox& box, const LinearEnd& src,
                         const CopyEnd& end, const Copy3DParams& copy, Sync sync) {
  const uint32_t size = array->element_bytes();
  BackendImage* image = array->image();
  const bool pinned = !src.device && src.pointer.allocation != nullptr;
  if ((src.device || pinned) && TexelAligned(src, end, copy, size)) {
    // Device memory, or page-locked memory read when the copy runs (CUDA;
    // the blocking form waits for it).
    BufferRange range{src.pointer.allocation->backend.get(), src.pointer.offset};
    SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
      return backend->RecordBufferToImage(image, box, Side(range, end, copy, size));
    }));
    if (src.device) {
      // Device-to-array copies do not block the host (CUDA).
      return stream->Flush().status();
    }
    return Finish(stream, sync);
  }
  // Packed through a temporary buffer, waited for before it goes.
  BackendDevice* device = stream->context()->device()->backend();
  const CopyBox pack = PackBox(copy, end, /*packed_on_dst=*/true);
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> staging,
                      device->Allocate(PackedBytes(copy),
                                       src.device ? MemoryKind::kDevice : MemoryKind::kHostPinned));
  const BufferRange packed{staging.get(), 0};
  if (!src.device && staging->host_pointer() != nullptr) {
    // Ordered after earlier work like any copy; the host writes the staging.
    const uint8_t* from = src.host;
    auto* to = static_cast<uint8_t*>(staging->host_pointer());
    for (uint64_t row = 0; row < pack.rows(); ++row) {
      std::memcpy(to + pack.DstRow(row), from + pack.SrcRow(row), pack.width);
    }
  }
  const absl::Status recorded = stream->Record([&](BackendStream* backend) -> absl::Status {
    if (src.device) {
      BufferRange from{src.pointer.allocation->backend.get(), src.pointer.offset};
      SH_RETURN_IF_ERROR(backend->RecordCopyBox(packed, from, pack));
    } else if (staging->host_pointer() == nullptr) {
      SH_RETURN_IF_ERROR(backend->RecordUploadBox(packed, src.host, pack));
    }
    return backend->RecordBufferToImage(image, box, PackedSide(packed));
  });
  // The staging goes when this returns: whatever was recorded must be done.
  const absl::Status waited = stream->Synchronize();
  return recorded.ok() ? waited : recorded;
}

// An array to linear memory.
absl::Status CopyFromArray(Stream* stream, const LinearEnd& dst, const CopyEnd& end, Array* array,
                           const ImageBox& box, const Copy3DParams& copy, Sync sync) {
  const uint32_t size = array->element_bytes();
  BackendImage* image = array->image();
  const bool pinned = !dst.device && dst.pointer.allocation != nullptr;
  if ((dst.device || pinned) && TexelAligned(dst, end, copy, size)) {
    BufferRange range{dst.pointer.allocation->backend.get(), dst.pointer.offset};
    SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
      return backend->RecordImageToBuffer(Side(range, end, copy, size), image, box);
    }));
    if (dst.device) return stream->Flush().status();
    return Finish(stream, sync);
  }
  BackendDevice* device = stream->context()->device()->backend();
  const CopyBox unpack = PackBox(copy, end, /*packed_on_dst=*/false);
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> staging,
                      device->Allocate(PackedBytes(copy),
                                       dst.device ? MemoryKind::kDevice : MemoryKind::kHostPinned));
  const BufferRange packed{staging.get(), 0};
  const absl::Status recorded = stream->Record([&](BackendStream* backend) -> absl::Status {
    SH_RETURN_IF_ERROR(backend->RecordImageToBuffer(PackedSide(packed), image, box));
    if (dst.device) {
      BufferRange to{dst.pointer.allocation->backend.get(), dst.pointer.offset};
      return backend->RecordCopyBox(to, packed, unpack);
    }
    if (staging->host_pointer() == nullptr) {
      return backend->RecordDownloadBox(dst.host, packed, unpack);
    }
    return absl::OkStatus();
  });
  // The host holds the data when the call returns (pageable memory), and
  // the staging goes.
  const absl::Status waited = stream->Synchronize();
  SH_RETURN_IF_ERROR(recorded);
  SH_RETURN_IF_ERROR(waited);
  if (!dst.device && staging->host_pointer() != nullptr) {
    const auto* from = static_cast<const uint8_t*>(staging->host_pointer());
    for (uint64_t row = 0; row < unpack.rows(); ++row) {
      std::memcpy(dst.host + unpack.DstRow(row), from + unpack.SrcRow(row), unpack.width);
    }
  }
  return absl::OkStatus();
}

bool BoxesOverlap(const ImageBox& a, const ImageBox& b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height &&
         b.y < a.y + a.height && a.z < b.z + b.depth && b.z < a.z + a.depth;
}

}  // namespace

uint32_t ArrayElementBytes(uint32_t format, uint32_t channels) {
  if (channels != 1 && channels != 2 && channels != 4) return 0;
  switch (static_cast<ArrayFormat>(format)) {
    case ArrayFormat::kUint8:
    case ArrayFormat::kSint8:
      return channels;
    case ArrayFormat::kUint16:
    case ArrayFormat::kSint16:
    case ArrayFormat::kHalf:
      return 2 * channels;
    case ArrayFormat::kUint32:
    case ArrayFormat::kSint32:
    case ArrayFormat::kFloat:
      return 4 * channels;
  }
  return 0;
}

absl::StatusOr<Array*> ResolveArray(uint64_t handle, ErrorCode code, const char* what) {
  HandleState state;
  Array* array = LookupAs<Array>(handle, &state);
  if (array == nullptr) {
    return Error(code, what, ": array handle 0x", absl::Hex(handle),
                 HandleProblem(state, " is not an array", " was destroyed"));
  }
  return array;
}

absl::Status ArrayCreate(HandleOut out, const ArrayDescriptor& desc, bool three_d) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  const char* api = three_d ? "cuArray3DCreate" : "cuArrayCreate";
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, api, ": pHandle is null");
  SH_RETURN_IF_ERROR(ValidateArrayShape(desc, api));
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendImage> backend_image,
                      context->device()->backend()->CreateImage(ArrayImageDesc(desc, 1)));
  auto array = std::make_unique<Array>(context, desc, ArrayElementBytes(desc.format, desc.channels),
                                       std::move(backend_image));
  out.Set(array->handle());
  context->Adopt(std::move(array));
  return absl::OkStatus();
}

absl::Status ArrayDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Array * array,
                      ResolveArray(handle, ErrorCode::kInvalidHandle, "cuArrayDestroy"));
  if (array->mipmapped_array() != 0) {
    return Error(ErrorCode::kInvalidValue, "cuArrayDestroy: array 0x", absl::Hex(handle),
                 " is a level of a mipmapped array; it goes with cuMipmappedArrayDestroy");
  }
  // Pending copies name the image: let them finish first, as cuMemFree does.
  absl::Status status = array->context()->Synchronize();
  array->context()->Destroy(array);
  return status;
}

absl::Status ArrayGetDescriptor(uint64_t handle, ArrayDescriptor* out) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (out == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuArrayGetDescriptor: pArrayDescriptor is null");
  }
  SH_ASSIGN_OR_RETURN(Array * array,
                      ResolveArray(handle, ErrorCode::kInvalidHandle, "cuArrayGetDescriptor"));
  *out = array->desc();
  return absl::OkStatus();
}

absl::Status ArrayCopy(Stream* stream, const Copy3DParams& copy, Sync sync) {
  Context* context = stream->context();
  if (copy.width == 0 || copy.height == 0 || copy.depth == 0) {
    // As for linear copies: nothing to do, once the ends are known.
    for (const CopyEnd* end : {&copy.src, &copy.dst}) {
      if (end->type == MemoryType::kArray) {
        SH_RETURN_IF_ERROR(ResolveArray(end->address, ErrorCode::kInvalidValue, "memcpy").status());
      }
    }
    return absl::OkStatus();
  }
  if (stream->capture() != nullptr) {
    return Error(ErrorCode::kNotSupported,
                 "memcpy: copies with an array end cannot be captured into graphs yet");
  }
  const bool src_array = copy.src.type == MemoryType::kArray;
  const bool dst_array = copy.dst.type == MemoryType::kArray;
  if (src_array && dst_array) {
    SH_ASSIGN_OR_RETURN(auto src, ResolveArrayEnd(context, copy.src, copy, "memcpy: source"));
    SH_ASSIGN_OR_RETURN(auto dst, ResolveArrayEnd(context, copy.dst, copy, "memcpy: destination"));
    if (src.first->element_bytes() != dst.first->element_bytes()) {
      return Error(ErrorCode::kNotSupported, "memcpy: arrays with elements of ",
                   src.first->element_bytes(), " and ", dst.first->element_bytes(),
                   " bytes cannot be copied into each other here");
    }
    if (src.first == dst.first && BoxesOverlap(src.second, dst.second)) {
      return Error(ErrorCode::kInvalidValue, "memcpy: source and destination overlap");
    }
    SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
      return backend->RecordImageToImage(dst.first->image(), dst.second, src.first->image(),
                                         src.second);
    }));
    return stream->Flush().status();
  }
  if (dst_array) {
    SH_ASSIGN_OR_RETURN(LinearEnd src, ResolveLinear(stream, copy.src, copy, "source"));
    SH_ASSIGN_OR_RETURN(auto dst, ResolveArrayEnd(context, copy.dst, copy, "memcpy: destination"));
    return CopyToArray(stream, dst.first, dst.second, src, copy.src, copy, sync);
  }
  SH_ASSIGN_OR_RETURN(auto src, ResolveArrayEnd(context, copy.src, copy, "memcpy: source"));
  SH_ASSIGN_OR_RETURN(LinearEnd dst, ResolveLinear(stream, copy.dst, copy, "destination"));
  return CopyFromArray(stream, dst, copy.dst, src.first, src.second, copy, sync);
}

}  // namespace streamhal
