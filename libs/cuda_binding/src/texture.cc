// Texture and surface objects (cuTexObject*, cuSurfObject*): CUDA's
// descriptors converted to core's and back.
#include "core/texture.h"

#include <cuda.h>

#include <cstdint>
#include <cstring>

#include "core/c_enum.h"
#include "core/handle.h"
#include "result.h"

using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ResourceDesc;
using streamhal::ResourceType;
using streamhal::ResourceViewDesc;
using streamhal::TextureDesc;
using streamhal::cuda::ToCUresult;

namespace {

ResourceDesc FromCuda(const CUDA_RESOURCE_DESC& in) {
  ResourceDesc r;
  r.type = static_cast<ResourceType>(EnumArgument(in.resType));
  r.flags = in.flags;
  switch (r.type) {
    case ResourceType::kArray:
      r.array = HandleValue(in.res.array.hArray);
      break;
    case ResourceType::kMipmappedArray:
      r.mipmapped_array = HandleValue(in.res.mipmap.hMipmappedArray);
      break;
    case ResourceType::kLinear:
      r.address = in.res.linear.devPtr;
      r.format = static_cast<uint32_t>(EnumArgument(in.res.linear.format));
      r.channels = in.res.linear.numChannels;
      r.size_bytes = in.res.linear.sizeInBytes;
      break;
    case ResourceType::kPitch2D:
      r.address = in.res.pitch2D.devPtr;
      r.format = static_cast<uint32_t>(EnumArgument(in.res.pitch2D.format));
      r.channels = in.res.pitch2D.numChannels;
      r.width = in.res.pitch2D.width;
      r.height = in.res.pitch2D.height;
      r.pitch = in.res.pitch2D.pitchInBytes;
      break;
  }
  return r;
}

void ToCuda(const ResourceDesc& r, CUDA_RESOURCE_DESC* out) {
  std::memset(out, 0, sizeof(*out));
  out->resType = static_cast<CUresourcetype>(r.type);
  out->flags = r.flags;
  switch (r.type) {
    case ResourceType::kArray:
      out->res.array.hArray = streamhal::ToApiHandle<CUarray>(r.array);
      break;
    case ResourceType::kMipmappedArray:
      out->res.mipmap.hMipmappedArray = streamhal::ToApiHandle<CUmipmappedArray>(r.mipmapped_array);
      break;
    case ResourceType::kLinear:
      out->res.linear.devPtr = r.address;
      out->res.linear.format = static_cast<CUarray_format>(r.format);
      out->res.linear.numChannels = r.channels;
      out->res.linear.sizeInBytes = r.size_bytes;
      break;
    case ResourceType::kPitch2D:
      out->res.pitch2D.devPtr = r.address;
      out->res.pitch2D.format = static_cast<CUarray_format>(r.format);
      out->res.pitch2D.numChannels = r.channels;
      out->res.pitch2D.width = r.width;
      out->res.pitch2D.height = r.height;
      out->res.pitch2D.pitchInBytes = r.pitch;
      break;
  }
}

TextureDesc FromCuda(const CUDA_TEXTURE_DESC& in) {
  TextureDesc t;
  for (int i = 0; i < 3; ++i) {
    t.address_mode[i] = static_cast<uint32_t>(EnumArgument(in.addressMode[i]));
  }
  t.filter_mode = static_cast<uint32_t>(EnumArgument(in.filterMode));
  t.flags = in.flags;
  t.max_anisotropy = in.maxAnisotropy;
  t.mipmap_filter_mode = static_cast<uint32_t>(EnumArgument(in.mipmapFilterMode));
  t.mipmap_level_bias = in.mipmapLevelBias;
  t.min_mipmap_level_clamp = in.minMipmapLevelClamp;
  t.max_mipmap_level_clamp = in.maxMipmapLevelClamp;
  for (int i = 0; i < 4; ++i) t.border_color[i] = in.borderColor[i];
  return t;
}

void ToCuda(const TextureDesc& t, CUDA_TEXTURE_DESC* out) {
  std::memset(out, 0, sizeof(*out));
  for (int i = 0; i < 3; ++i) out->addressMode[i] = static_cast<CUaddress_mode>(t.address_mode[i]);
  out->filterMode = static_cast<CUfilter_mode>(t.filter_mode);
  out->flags = t.flags;
  out->maxAnisotropy = t.max_anisotropy;
  out->mipmapFilterMode = static_cast<CUfilter_mode>(t.mipmap_filter_mode);
  out->mipmapLevelBias = t.mipmap_level_bias;
  out->minMipmapLevelClamp = t.min_mipmap_level_clamp;
  out->maxMipmapLevelClamp = t.max_mipmap_level_clamp;
  for (int i = 0; i < 4; ++i) out->borderColor[i] = t.border_color[i];
}

ResourceViewDesc FromCuda(const CUDA_RESOURCE_VIEW_DESC& in) {
  ResourceViewDesc v;
  v.format = static_cast<uint32_t>(EnumArgument(in.format));
  v.width = in.width;
  v.height = in.height;
  v.depth = in.depth;
  v.first_mipmap_level = in.firstMipmapLevel;
  v.last_mipmap_level = in.lastMipmapLevel;
  v.first_layer = in.firstLayer;
  v.last_layer = in.lastLayer;
  return v;
}

void ToCuda(const ResourceViewDesc& v, CUDA_RESOURCE_VIEW_DESC* out) {
  std::memset(out, 0, sizeof(*out));
  out->format = static_cast<CUresourceViewFormat>(v.format);
  out->width = v.width;
  out->height = v.height;
  out->depth = v.depth;
  out->firstMipmapLevel = v.first_mipmap_level;
  out->lastMipmapLevel = v.last_mipmap_level;
  out->firstLayer = v.first_layer;
  out->lastLayer = v.last_layer;
}

}  // namespace

extern "C" {

CUresult cuTexObjectCreate(CUtexObject* pTexObject, const CUDA_RESOURCE_DESC* pResDesc,
                           const CUDA_TEXTURE_DESC* pTexDesc,
                           const CUDA_RESOURCE_VIEW_DESC* pResViewDesc) {
  ResourceDesc r;
  TextureDesc t;
  ResourceViewDesc v;
  if (pResDesc != nullptr) r = FromCuda(*pResDesc);
  if (pTexDesc != nullptr) t = FromCuda(*pTexDesc);
  if (pResViewDesc != nullptr) v = FromCuda(*pResViewDesc);
  uint64_t handle = 0;
  const CUresult result = ToCUresult(streamhal::TexObjectCreate(
      pTexObject != nullptr ? &handle : nullptr, pResDesc != nullptr ? &r : nullptr,
      pTexDesc != nullptr ? &t : nullptr, pResViewDesc != nullptr ? &v : nullptr));
  if (result == CUDA_SUCCESS) *pTexObject = handle;
  return result;
}

CUresult cuTexObjectDestroy(CUtexObject texObject) {
  return ToCUresult(streamhal::TexObjectDestroy(texObject));
}

CUresult cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUtexObject texObject) {
  ResourceDesc r;
  const CUresult result = ToCUresult(
      streamhal::TexObjectGetResourceDesc(texObject, pResDesc != nullptr ? &r : nullptr));
  if (result == CUDA_SUCCESS) ToCuda(r, pResDesc);
  return result;
}

CUresult cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* pTexDesc, CUtexObject texObject) {
  TextureDesc t;
  const CUresult result =
      ToCUresult(streamhal::TexObjectGetTextureDesc(texObject, pTexDesc != nullptr ? &t : nullptr));
  if (result == CUDA_SUCCESS) ToCuda(t, pTexDesc);
  return result;
}

CUresult cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC* pResViewDesc,
                                        CUtexObject texObject) {
  ResourceViewDesc v;
  const CUresult result = ToCUresult(
      streamhal::TexObjectGetResourceViewDesc(texObject, pResViewDesc != nullptr ? &v : nullptr));
  if (result == CUDA_SUCCESS) ToCuda(v, pResViewDesc);
  return result;
}

CUresult cuSurfObjectCreate(CUsurfObject* pSurfObject, const CUDA_RESOURCE_DESC* pResDesc) {
  ResourceDesc r;
  if (pResDesc != nullptr) r = FromCuda(*pResDesc);
  uint64_t handle = 0;
  const CUresult result = ToCUresult(streamhal::SurfObjectCreate(
      pSurfObject != nullptr ? &handle : nullptr, pResDesc != nullptr ? &r : nullptr));
  if (result == CUDA_SUCCESS) *pSurfObject = handle;
  return result;
}

CUresult cuSurfObjectDestroy(CUsurfObject surfObject) {
  return ToCUresult(streamhal::SurfObjectDestroy(surfObject));
}

CUresult cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUsurfObject surfObject) {
  ResourceDesc r;
  const CUresult result = ToCUresult(
      streamhal::SurfObjectGetResourceDesc(surfObject, pResDesc != nullptr ? &r : nullptr));
  if (result == CUDA_SUCCESS) ToCuda(r, pResDesc);
  return result;
}

}  // extern "C"
