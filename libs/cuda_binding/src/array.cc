// CUDA arrays (cuArray*) and the 1-D copies with an array end
// (cuMemcpy*A*). cuMemcpy2D/3D with array ends are in transfer.cc.
#include "core/array.h"

#include <cuda.h>

#include <cstdint>

#include "core/handle.h"
#include "core/mipmapped_array.h"
#include "core/transfer.h"
#include "result.h"

using streamhal::ArrayDescriptor;
using streamhal::Copy3DParams;
using streamhal::CopyEnd;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::MemoryType;
using streamhal::Sync;
using streamhal::cuda::ToCUresult;

namespace {

CopyEnd ArrayEnd(CUarray array, size_t offset) {
  CopyEnd end;
  end.type = MemoryType::kArray;
  end.address = HandleValue(array);
  end.x = offset;
  return end;
}

CopyEnd LinearEnd(MemoryType type, uint64_t address) {
  CopyEnd end;
  end.type = type;
  end.address = address;
  return end;
}

// The 1-D copies: `bytes` along the first row of the array.
CUresult Copy1D(const CopyEnd& dst, const CopyEnd& src, size_t bytes, CUstream stream, Sync sync) {
  Copy3DParams copy;
  copy.dst = dst;
  copy.src = src;
  copy.width = bytes;
  return ToCUresult(streamhal::Memcpy3D(copy, HandleValue(stream), sync));
}

uint64_t Host(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer); }

}  // namespace

extern "C" {

CUresult cuArrayCreate(CUarray* handle, const CUDA_ARRAY_DESCRIPTOR* desc) {
  if (desc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  ArrayDescriptor d;
  d.width = desc->Width;
  d.height = desc->Height;
  d.format = static_cast<uint32_t>(desc->Format);
  d.channels = desc->NumChannels;
  return ToCUresult(streamhal::ArrayCreate(HandleOut(handle), d, /*three_d=*/false));
}

CUresult cuArray3DCreate(CUarray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc) {
  if (desc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  ArrayDescriptor d;
  d.width = desc->Width;
  d.height = desc->Height;
  d.depth = desc->Depth;
  d.format = static_cast<uint32_t>(desc->Format);
  d.channels = desc->NumChannels;
  d.flags = desc->Flags;
  return ToCUresult(streamhal::ArrayCreate(HandleOut(handle), d, /*three_d=*/true));
}

CUresult cuMipmappedArrayCreate(CUmipmappedArray* handle, const CUDA_ARRAY3D_DESCRIPTOR* desc,
                                unsigned int levels) {
  ArrayDescriptor d;
  if (desc != nullptr) {
    d.width = desc->Width;
    d.height = desc->Height;
    d.depth = desc->Depth;
    d.format = static_cast<uint32_t>(desc->Format);
    d.channels = desc->NumChannels;
    d.flags = desc->Flags;
  }
  return ToCUresult(
      streamhal::MipmappedArrayCreate(HandleOut(handle), desc == nullptr ? nullptr : &d, levels));
}

CUresult cuMipmappedArrayGetLevel(CUarray* level_array, CUmipmappedArray mipmapped,
                                  unsigned int level) {
  return ToCUresult(
      streamhal::MipmappedArrayGetLevel(HandleOut(level_array), HandleValue(mipmapped), level));
}

CUresult cuMipmappedArrayDestroy(CUmipmappedArray mipmapped) {
  return ToCUresult(streamhal::MipmappedArrayDestroy(HandleValue(mipmapped)));
}

CUresult cuArrayDestroy(CUarray array) {
  return ToCUresult(streamhal::ArrayDestroy(HandleValue(array)));
}

CUresult cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR* out, CUarray array) {
  ArrayDescriptor d;
  const absl::Status status =
      streamhal::ArrayGetDescriptor(HandleValue(array), out == nullptr ? nullptr : &d);
  if (!status.ok()) return ToCUresult(status);
  out->Width = d.width;
  out->Height = d.height;
  out->Format = static_cast<CUarray_format>(d.format);
  out->NumChannels = d.channels;
  return CUDA_SUCCESS;
}

CUresult cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR* out, CUarray array) {
  ArrayDescriptor d;
  const absl::Status status =
      streamhal::ArrayGetDescriptor(HandleValue(array), out == nullptr ? nullptr : &d);
  if (!status.ok()) return ToCUresult(status);
  out->Width = d.width;
  out->Height = d.height;
  out->Depth = d.depth;
  out->Format = static_cast<CUarray_format>(d.format);
  out->NumChannels = d.channels;
  out->Flags = d.flags;
  return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoA(CUarray dst, size_t offset, const void* src, size_t bytes) {
  return Copy1D(ArrayEnd(dst, offset), LinearEnd(MemoryType::kHost, Host(src)), bytes, nullptr,
                Sync::kBlocking);
}
CUresult cuMemcpyHtoAAsync(CUarray dst, size_t offset, const void* src, size_t bytes,
                           CUstream stream) {
  return Copy1D(ArrayEnd(dst, offset), LinearEnd(MemoryType::kHost, Host(src)), bytes, stream,
                Sync::kAsync);
}
CUresult cuMemcpyAtoH(void* dst, CUarray src, size_t offset, size_t bytes) {
  return Copy1D(LinearEnd(MemoryType::kHost, Host(dst)), ArrayEnd(src, offset), bytes, nullptr,
                Sync::kBlocking);
}
CUresult cuMemcpyAtoHAsync(void* dst, CUarray src, size_t offset, size_t bytes, CUstream stream) {
  return Copy1D(LinearEnd(MemoryType::kHost, Host(dst)), ArrayEnd(src, offset), bytes, stream,
                Sync::kAsync);
}
CUresult cuMemcpyDtoA(CUarray dst, size_t offset, CUdeviceptr src, size_t bytes) {
  return Copy1D(ArrayEnd(dst, offset), LinearEnd(MemoryType::kDevice, src), bytes, nullptr,
                Sync::kBlocking);
}
CUresult cuMemcpyAtoD(CUdeviceptr dst, CUarray src, size_t offset, size_t bytes) {
  return Copy1D(LinearEnd(MemoryType::kDevice, dst), ArrayEnd(src, offset), bytes, nullptr,
                Sync::kBlocking);
}
CUresult cuMemcpyAtoA(CUarray dst, size_t dst_offset, CUarray src, size_t src_offset,
                      size_t bytes) {
  return Copy1D(ArrayEnd(dst, dst_offset), ArrayEnd(src, src_offset), bytes, nullptr,
                Sync::kBlocking);
}

}  // extern "C"
