// HIP arrays (hipArrayCreate, hipMallocArray, ...) and the copies with an
// array end that are not descriptor-based (hipMemcpy2DToArray, ...).
#include "core/array.h"

#include <hip/hip_runtime_api.h>

#include <cstdint>

#include "call.h"
#include "channel_format.h"
#include "copy_params.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/mipmapped_array.h"
#include "core/status.h"
#include "core/transfer.h"

using streamhal::ArrayDescriptor;
using streamhal::Copy3DParams;
using streamhal::CopyEnd;
using streamhal::EnumArgument;
using streamhal::ErrorCode;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::MemoryType;
using streamhal::Sync;
using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;

namespace streamhal::hip {

// A hipChannelFormatDesc as CUarray_format and channel count: every
// present channel has the same width; 3 channels are no array format.
absl::Status FromChannelDesc(const hipChannelFormatDesc* desc, ArrayDescriptor* d) {
  if (desc == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue, "hipMallocArray: desc is null");
  }
  const int bits[4] = {desc->x, desc->y, desc->z, desc->w};
  uint32_t channels = 0;
  for (int b : bits) {
    if (b == 0) break;
    if (b != desc->x) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipMallocArray: channels of different widths");
    }
    ++channels;
  }
  uint32_t format = 0;
  switch (EnumArgument(desc->f)) {
    case hipChannelFormatKindUnsigned:
      format = desc->x == 8 ? 0x01 : desc->x == 16 ? 0x02 : desc->x == 32 ? 0x03 : 0;
      break;
    case hipChannelFormatKindSigned:
      format = desc->x == 8 ? 0x08 : desc->x == 16 ? 0x09 : desc->x == 32 ? 0x0a : 0;
      break;
    case hipChannelFormatKindFloat:
      format = desc->x == 16 ? 0x10 : desc->x == 32 ? 0x20 : 0;
      break;
    default:
      break;
  }
  // Core rejects format 0 and channel counts other than 1, 2, 4.
  d->format = format;
  d->channels = channels;
  return absl::OkStatus();
}

hipChannelFormatDesc ToChannelDesc(const ArrayDescriptor& d) {
  hipChannelFormatDesc desc = {};
  const uint32_t bytes = streamhal::ArrayElementBytes(d.format, 1);
  const int bits = static_cast<int>(bytes * 8);
  desc.x = bits;
  desc.y = d.channels >= 2 ? bits : 0;
  desc.z = d.channels >= 4 ? bits : 0;
  desc.w = d.channels >= 4 ? bits : 0;
  desc.f = d.format == 0x10 || d.format == 0x20 ? hipChannelFormatKindFloat
           : d.format >= 0x08                   ? hipChannelFormatKindSigned
                                                : hipChannelFormatKindUnsigned;
  return desc;
}

}  // namespace streamhal::hip

namespace {

using streamhal::hip::FromChannelDesc;
using streamhal::hip::ToChannelDesc;

CopyEnd ArrayEnd(hipArray_const_t array, size_t x, size_t y) {
  CopyEnd end;
  end.type = MemoryType::kArray;
  end.address = Address(array);
  end.x = x;
  end.y = y;
  return end;
}

// The linear end of a runtime-style array copy: its memory type from
// `kind`'s source (`source`) or destination side.
absl::StatusOr<CopyEnd> LinearEnd(int kind, bool source, const void* pointer, size_t pitch) {
  MemoryType src, dst;
  SH_RETURN_IF_ERROR(streamhal::hip::EndTypes(kind, &src, &dst));
  CopyEnd end;
  end.type = source ? src : dst;
  end.address = Address(pointer);
  end.pitch = pitch;
  return end;
}

absl::Status Run(const CopyEnd& dst, const CopyEnd& src, size_t width, size_t height,
                 hipStream_t stream, Sync sync) {
  Copy3DParams copy;
  copy.dst = dst;
  copy.src = src;
  copy.width = width;
  copy.height = height;
  return streamhal::Memcpy3D(copy, HandleValue(stream), sync);
}

absl::Status ToArray(hipArray_t dst, size_t x, size_t y, const void* src, size_t pitch,
                     size_t width, size_t height, int kind, hipStream_t stream, Sync sync) {
  SH_ASSIGN_OR_RETURN(CopyEnd from, LinearEnd(kind, /*source=*/true, src, pitch));
  return Run(ArrayEnd(dst, x, y), from, width, height, stream, sync);
}

absl::Status FromArray(void* dst, size_t pitch, hipArray_const_t src, size_t x, size_t y,
                       size_t width, size_t height, int kind, hipStream_t stream, Sync sync) {
  SH_ASSIGN_OR_RETURN(CopyEnd to, LinearEnd(kind, /*source=*/false, dst, pitch));
  return Run(to, ArrayEnd(src, x, y), width, height, stream, sync);
}

CopyEnd HostEnd(const void* pointer) {
  CopyEnd end;
  end.type = MemoryType::kHost;
  end.address = Address(pointer);
  return end;
}

CopyEnd DeviceEnd(const void* pointer) {
  CopyEnd end;
  end.type = MemoryType::kDevice;
  end.address = Address(pointer);
  return end;
}

}  // namespace

extern "C" {

hipError_t hipArrayCreate(hipArray_t* array, const HIP_ARRAY_DESCRIPTOR* desc) {
  return RuntimeCall([&]() -> absl::Status {
    if (desc == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipArrayCreate: descriptor is null");
    }
    ArrayDescriptor d;
    d.width = desc->Width;
    d.height = desc->Height;
    d.format = static_cast<uint32_t>(EnumArgument(desc->Format));
    d.channels = desc->NumChannels;
    return streamhal::ArrayCreate(HandleOut(array), d, /*three_d=*/false);
  });
}

hipError_t hipArray3DCreate(hipArray_t* array, const HIP_ARRAY3D_DESCRIPTOR* desc) {
  return RuntimeCall([&]() -> absl::Status {
    if (desc == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipArray3DCreate: descriptor is null");
    }
    ArrayDescriptor d;
    d.width = desc->Width;
    d.height = desc->Height;
    d.depth = desc->Depth;
    d.format = static_cast<uint32_t>(EnumArgument(desc->Format));
    d.channels = desc->NumChannels;
    d.flags = desc->Flags;
    return streamhal::ArrayCreate(HandleOut(array), d, /*three_d=*/true);
  });
}

hipError_t hipMallocArray(hipArray_t* array, const hipChannelFormatDesc* desc, size_t width,
                          size_t height, unsigned int flags) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FromChannelDesc(desc, &d));
    d.width = width;
    d.height = height;
    d.flags = flags;
    return streamhal::ArrayCreate(HandleOut(array), d, /*three_d=*/true);
  });
}

hipError_t hipMalloc3DArray(hipArray_t* array, const hipChannelFormatDesc* desc, hipExtent extent,
                            unsigned int flags) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FromChannelDesc(desc, &d));
    d.width = extent.width;
    d.height = extent.height;
    d.depth = extent.depth;
    d.flags = flags;
    return streamhal::ArrayCreate(HandleOut(array), d, /*three_d=*/true);
  });
}

hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t* handle, HIP_ARRAY3D_DESCRIPTOR* desc,
                                   unsigned int levels) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    if (desc != nullptr) {
      d.width = desc->Width;
      d.height = desc->Height;
      d.depth = desc->Depth;
      d.format = static_cast<uint32_t>(EnumArgument(desc->Format));
      d.channels = desc->NumChannels;
      d.flags = desc->Flags;
    }
    return streamhal::MipmappedArrayCreate(HandleOut(handle), desc == nullptr ? nullptr : &d,
                                           levels);
  });
}

hipError_t hipMallocMipmappedArray(hipMipmappedArray_t* handle, const hipChannelFormatDesc* desc,
                                   hipExtent extent, unsigned int levels, unsigned int flags) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FromChannelDesc(desc, &d));
    d.width = extent.width;
    d.height = extent.height;
    d.depth = extent.depth;
    d.flags = flags;
    return streamhal::MipmappedArrayCreate(HandleOut(handle), &d, levels);
  });
}

hipError_t hipMipmappedArrayGetLevel(hipArray_t* level_array, hipMipmappedArray_t mipmapped,
                                     unsigned int level) {
  return RuntimeCall([&] {
    return streamhal::MipmappedArrayGetLevel(HandleOut(level_array), HandleValue(mipmapped), level);
  });
}

hipError_t hipGetMipmappedArrayLevel(hipArray_t* level_array, hipMipmappedArray_const_t mipmapped,
                                     unsigned int level) {
  return RuntimeCall([&] {
    return streamhal::MipmappedArrayGetLevel(HandleOut(level_array), HandleValue(mipmapped), level);
  });
}

hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t mipmapped) {
  return RuntimeCall([&] { return streamhal::MipmappedArrayDestroy(HandleValue(mipmapped)); });
}

hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmapped) {
  return RuntimeCall([&] { return streamhal::MipmappedArrayDestroy(HandleValue(mipmapped)); });
}

hipError_t hipArrayDestroy(hipArray_t array) {
  return RuntimeCall([&] { return streamhal::ArrayDestroy(HandleValue(array)); });
}

hipError_t hipFreeArray(hipArray_t array) {
  return RuntimeCall([&] { return streamhal::ArrayDestroy(HandleValue(array)); });
}

hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR* out, hipArray_t array) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(
        streamhal::ArrayGetDescriptor(HandleValue(array), out == nullptr ? nullptr : &d));
    out->Width = d.width;
    out->Height = d.height;
    out->Format = static_cast<hipArray_Format>(d.format);
    out->NumChannels = d.channels;
    return absl::OkStatus();
  });
}

hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR* out, hipArray_t array) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(
        streamhal::ArrayGetDescriptor(HandleValue(array), out == nullptr ? nullptr : &d));
    out->Width = d.width;
    out->Height = d.height;
    out->Depth = d.depth;
    out->Format = static_cast<hipArray_Format>(d.format);
    out->NumChannels = d.channels;
    out->Flags = d.flags;
    return absl::OkStatus();
  });
}

hipError_t hipArrayGetInfo(hipChannelFormatDesc* desc, hipExtent* extent, unsigned int* flags,
                           hipArray_t array) {
  return RuntimeCall([&]() -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(streamhal::ArrayGetDescriptor(HandleValue(array), &d));
    // Every output is optional.
    if (desc != nullptr) *desc = ToChannelDesc(d);
    if (extent != nullptr) *extent = hipExtent{d.width, d.height, d.depth};
    if (flags != nullptr) *flags = d.flags;
    return absl::OkStatus();
  });
}

hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t x, size_t y, const void* src, size_t pitch,
                              size_t width, size_t height, hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return ToArray(dst, x, y, src, pitch, width, height, EnumArgument(kind), nullptr,
                   Sync::kBlocking);
  });
}

hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t x, size_t y, const void* src,
                                   size_t pitch, size_t width, size_t height, hipMemcpyKind kind,
                                   hipStream_t stream) {
  return RuntimeCall([&] {
    return ToArray(dst, x, y, src, pitch, width, height, EnumArgument(kind), stream, Sync::kAsync);
  });
}

hipError_t hipMemcpy2DFromArray(void* dst, size_t pitch, hipArray_const_t src, size_t x, size_t y,
                                size_t width, size_t height, hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return FromArray(dst, pitch, src, x, y, width, height, EnumArgument(kind), nullptr,
                     Sync::kBlocking);
  });
}

hipError_t hipMemcpy2DFromArrayAsync(void* dst, size_t pitch, hipArray_const_t src, size_t x,
                                     size_t y, size_t width, size_t height, hipMemcpyKind kind,
                                     hipStream_t stream) {
  return RuntimeCall([&] {
    return FromArray(dst, pitch, src, x, y, width, height, EnumArgument(kind), stream,
                     Sync::kAsync);
  });
}

hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t dst_x, size_t dst_y, hipArray_const_t src,
                                   size_t src_x, size_t src_y, size_t width, size_t height,
                                   hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    MemoryType unused_src, unused_dst;
    SH_RETURN_IF_ERROR(streamhal::hip::EndTypes(EnumArgument(kind), &unused_src, &unused_dst));
    return Run(ArrayEnd(dst, dst_x, dst_y), ArrayEnd(src, src_x, src_y), width, height, nullptr,
               Sync::kBlocking);
  });
}

hipError_t hipMemcpyToArray(hipArray_t dst, size_t x, size_t y, const void* src, size_t count,
                            hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return ToArray(dst, x, y, src, 0, count, 1, EnumArgument(kind), nullptr, Sync::kBlocking);
  });
}

hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t x, size_t y, size_t count,
                              hipMemcpyKind kind) {
  return RuntimeCall([&] {
    return FromArray(dst, 0, src, x, y, count, 1, EnumArgument(kind), nullptr, Sync::kBlocking);
  });
}

hipError_t hipMemcpyHtoA(hipArray_t dst, size_t offset, const void* src, size_t count) {
  return RuntimeCall([&] {
    return Run(ArrayEnd(dst, offset, 0), HostEnd(src), count, 1, nullptr, Sync::kBlocking);
  });
}

hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t offset, const void* src, size_t count,
                              hipStream_t stream) {
  return RuntimeCall(
      [&] { return Run(ArrayEnd(dst, offset, 0), HostEnd(src), count, 1, stream, Sync::kAsync); });
}

hipError_t hipMemcpyAtoH(void* dst, hipArray_t src, size_t offset, size_t count) {
  return RuntimeCall([&] {
    return Run(HostEnd(dst), ArrayEnd(src, offset, 0), count, 1, nullptr, Sync::kBlocking);
  });
}

hipError_t hipMemcpyAtoHAsync(void* dst, hipArray_t src, size_t offset, size_t count,
                              hipStream_t stream) {
  return RuntimeCall(
      [&] { return Run(HostEnd(dst), ArrayEnd(src, offset, 0), count, 1, stream, Sync::kAsync); });
}

hipError_t hipMemcpyAtoA(hipArray_t dstArray, size_t dstOffset, hipArray_t srcArray,
                         size_t srcOffset, size_t ByteCount) {
  return RuntimeCall([&] {
    return Run(ArrayEnd(dstArray, dstOffset, 0), ArrayEnd(srcArray, srcOffset, 0), ByteCount, 1,
               nullptr, Sync::kBlocking);
  });
}

hipError_t hipMemcpyAtoD(hipDeviceptr_t dstDevice, hipArray_t srcArray, size_t srcOffset,
                         size_t ByteCount) {
  return RuntimeCall([&] {
    return Run(DeviceEnd(dstDevice), ArrayEnd(srcArray, srcOffset, 0), ByteCount, 1, nullptr,
               Sync::kBlocking);
  });
}

hipError_t hipMemcpyDtoA(hipArray_t dstArray, size_t dstOffset, hipDeviceptr_t srcDevice,
                         size_t ByteCount) {
  return RuntimeCall([&] {
    return Run(ArrayEnd(dstArray, dstOffset, 0), DeviceEnd(srcDevice), ByteCount, 1, nullptr,
               Sync::kBlocking);
  });
}

// AMD: a null desc or array is hipErrorInvalidValue; a destroyed array is
// an invalid handle here (undefined behaviour in AMD's runtime).
hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
  return RuntimeCall([&]() -> absl::Status {
    if (desc == nullptr || array == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipGetChannelDesc: desc or array is null");
    }
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(streamhal::ArrayGetDescriptor(HandleValue(array), &d));
    *desc = ToChannelDesc(d);
    return absl::OkStatus();
  });
}

}  // extern "C"
