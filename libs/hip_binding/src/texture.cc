// Texture and surface objects: the runtime forms (hipCreateTextureObject,
// hipResourceDesc with channel descriptors, hipTextureDesc with read mode)
// and the driver forms (hipTexObjectCreate, HIP_RESOURCE_DESC), converted to
// core's descriptors and back.
#include "core/texture.h"

#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>

#include "call.h"
#include "channel_format.h"
#include "core/array.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/status.h"

using streamhal::ArrayDescriptor;
using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ResourceDesc;
using streamhal::ResourceType;
using streamhal::ResourceViewDesc;
using streamhal::TextureDesc;
using streamhal::ToApiHandle;
using streamhal::hip::Address;
using streamhal::hip::Call;
using streamhal::hip::FromChannelDesc;
using streamhal::hip::Pointer;
using streamhal::hip::RuntimeCall;
using streamhal::hip::ToChannelDesc;

namespace {

// --- Runtime forms ---

absl::Status FromHip(const hipResourceDesc& in, ResourceDesc* r) {
  r->type = static_cast<ResourceType>(EnumArgument(in.resType));
  ArrayDescriptor channels;
  switch (r->type) {
    case ResourceType::kArray:
      r->array = HandleValue(in.res.array.array);
      break;
    case ResourceType::kMipmappedArray:
      r->mipmapped_array = HandleValue(in.res.mipmap.mipmap);
      break;
    case ResourceType::kLinear:
      SH_RETURN_IF_ERROR(FromChannelDesc(&in.res.linear.desc, &channels));
      r->address = Address(in.res.linear.devPtr);
      r->format = channels.format;
      r->channels = channels.channels;
      r->size_bytes = in.res.linear.sizeInBytes;
      break;
    case ResourceType::kPitch2D:
      SH_RETURN_IF_ERROR(FromChannelDesc(&in.res.pitch2D.desc, &channels));
      r->address = Address(in.res.pitch2D.devPtr);
      r->format = channels.format;
      r->channels = channels.channels;
      r->width = in.res.pitch2D.width;
      r->height = in.res.pitch2D.height;
      r->pitch = in.res.pitch2D.pitchInBytes;
      break;
  }
  return absl::OkStatus();
}

void ToHip(const ResourceDesc& r, hipResourceDesc* out) {
  std::memset(out, 0, sizeof(*out));
  out->resType = static_cast<hipResourceType>(r.type);
  ArrayDescriptor channels;
  channels.format = r.format;
  channels.channels = r.channels;
  switch (r.type) {
    case ResourceType::kArray:
      out->res.array.array = ToApiHandle<hipArray_t>(r.array);
      break;
    case ResourceType::kMipmappedArray:
      out->res.mipmap.mipmap = ToApiHandle<hipMipmappedArray_t>(r.mipmapped_array);
      break;
    case ResourceType::kLinear:
      out->res.linear.devPtr = Pointer(r.address);
      out->res.linear.desc = ToChannelDesc(channels);
      out->res.linear.sizeInBytes = r.size_bytes;
      break;
    case ResourceType::kPitch2D:
      out->res.pitch2D.devPtr = Pointer(r.address);
      out->res.pitch2D.desc = ToChannelDesc(channels);
      out->res.pitch2D.width = r.width;
      out->res.pitch2D.height = r.height;
      out->res.pitch2D.pitchInBytes = r.pitch;
      break;
  }
}

// hipReadModeElementType is CU_TRSF_READ_AS_INTEGER (it matters for integer
// texels only), sRGB and normalizedCoords their flags.
TextureDesc FromHip(const hipTextureDesc& in) {
  TextureDesc t;
  for (int i = 0; i < 3; ++i) {
    t.address_mode[i] = static_cast<uint32_t>(EnumArgument(in.addressMode[i]));
  }
  t.filter_mode = static_cast<uint32_t>(EnumArgument(in.filterMode));
  const int read_mode = EnumArgument(in.readMode);
  if (read_mode == hipReadModeElementType) {
    t.flags |= streamhal::kTexReadAsInteger;
  } else if (read_mode != hipReadModeNormalizedFloat) {
    t.flags |= 0x80000000u;  // no flag: core rejects it as unknown
  }
  if (in.sRGB != 0) t.flags |= streamhal::kTexSrgb;
  if (in.normalizedCoords != 0) t.flags |= streamhal::kTexNormalizedCoordinates;
  t.max_anisotropy = in.maxAnisotropy;
  t.mipmap_filter_mode = static_cast<uint32_t>(EnumArgument(in.mipmapFilterMode));
  t.mipmap_level_bias = in.mipmapLevelBias;
  t.min_mipmap_level_clamp = in.minMipmapLevelClamp;
  t.max_mipmap_level_clamp = in.maxMipmapLevelClamp;
  for (int i = 0; i < 4; ++i) t.border_color[i] = in.borderColor[i];
  return t;
}

void ToHip(const TextureDesc& t, hipTextureDesc* out) {
  std::memset(out, 0, sizeof(*out));
  for (int i = 0; i < 3; ++i) {
    out->addressMode[i] = static_cast<hipTextureAddressMode>(t.address_mode[i]);
  }
  out->filterMode = static_cast<hipTextureFilterMode>(t.filter_mode);
  out->readMode = (t.flags & streamhal::kTexReadAsInteger) != 0 ? hipReadModeElementType
                                                                : hipReadModeNormalizedFloat;
  out->sRGB = (t.flags & streamhal::kTexSrgb) != 0 ? 1 : 0;
  out->normalizedCoords = (t.flags & streamhal::kTexNormalizedCoordinates) != 0 ? 1 : 0;
  out->maxAnisotropy = t.max_anisotropy;
  out->mipmapFilterMode = static_cast<hipTextureFilterMode>(t.mipmap_filter_mode);
  out->mipmapLevelBias = t.mipmap_level_bias;
  out->minMipmapLevelClamp = t.min_mipmap_level_clamp;
  out->maxMipmapLevelClamp = t.max_mipmap_level_clamp;
  for (int i = 0; i < 4; ++i) out->borderColor[i] = t.border_color[i];
}

// hipResourceViewDesc and HIP_RESOURCE_VIEW_DESC have the same members.
template <typename View>
ResourceViewDesc FromHipView(const View& in) {
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

template <typename View, typename Format>
void ToHipView(const ResourceViewDesc& v, View* out) {
  std::memset(out, 0, sizeof(*out));
  out->format = static_cast<Format>(v.format);
  out->width = v.width;
  out->height = v.height;
  out->depth = v.depth;
  out->firstMipmapLevel = v.first_mipmap_level;
  out->lastMipmapLevel = v.last_mipmap_level;
  out->firstLayer = v.first_layer;
  out->lastLayer = v.last_layer;
}

// --- Driver forms ---

ResourceDesc FromHipDriver(const HIP_RESOURCE_DESC& in) {
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
      r.address = Address(in.res.linear.devPtr);
      r.format = static_cast<uint32_t>(EnumArgument(in.res.linear.format));
      r.channels = in.res.linear.numChannels;
      r.size_bytes = in.res.linear.sizeInBytes;
      break;
    case ResourceType::kPitch2D:
      r.address = Address(in.res.pitch2D.devPtr);
      r.format = static_cast<uint32_t>(EnumArgument(in.res.pitch2D.format));
      r.channels = in.res.pitch2D.numChannels;
      r.width = in.res.pitch2D.width;
      r.height = in.res.pitch2D.height;
      r.pitch = in.res.pitch2D.pitchInBytes;
      break;
  }
  return r;
}

void ToHipDriver(const ResourceDesc& r, HIP_RESOURCE_DESC* out) {
  std::memset(out, 0, sizeof(*out));
  out->resType = static_cast<HIPresourcetype>(r.type);
  out->flags = r.flags;
  switch (r.type) {
    case ResourceType::kArray:
      out->res.array.hArray = ToApiHandle<hipArray_t>(r.array);
      break;
    case ResourceType::kMipmappedArray:
      out->res.mipmap.hMipmappedArray = ToApiHandle<hipMipmappedArray_t>(r.mipmapped_array);
      break;
    case ResourceType::kLinear:
      out->res.linear.devPtr = Pointer(r.address);
      out->res.linear.format = static_cast<hipArray_Format>(r.format);
      out->res.linear.numChannels = r.channels;
      out->res.linear.sizeInBytes = r.size_bytes;
      break;
    case ResourceType::kPitch2D:
      out->res.pitch2D.devPtr = Pointer(r.address);
      out->res.pitch2D.format = static_cast<hipArray_Format>(r.format);
      out->res.pitch2D.numChannels = r.channels;
      out->res.pitch2D.width = r.width;
      out->res.pitch2D.height = r.height;
      out->res.pitch2D.pitchInBytes = r.pitch;
      break;
  }
}

TextureDesc FromHipDriver(const HIP_TEXTURE_DESC& in) {
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

void ToHipDriver(const TextureDesc& t, HIP_TEXTURE_DESC* out) {
  std::memset(out, 0, sizeof(*out));
  for (int i = 0; i < 3; ++i) out->addressMode[i] = static_cast<HIPaddress_mode>(t.address_mode[i]);
  out->filterMode = static_cast<HIPfilter_mode>(t.filter_mode);
  out->flags = t.flags;
  out->maxAnisotropy = t.max_anisotropy;
  out->mipmapFilterMode = static_cast<HIPfilter_mode>(t.mipmap_filter_mode);
  out->mipmapLevelBias = t.mipmap_level_bias;
  out->minMipmapLevelClamp = t.min_mipmap_level_clamp;
  out->maxMipmapLevelClamp = t.max_mipmap_level_clamp;
  for (int i = 0; i < 4; ++i) out->borderColor[i] = t.border_color[i];
}

// Creates through core and writes the handle only on success.
template <typename Handle>
absl::Status CreateTexture(Handle* out, const ResourceDesc* r, const TextureDesc* t,
                           const ResourceViewDesc* v) {
  uint64_t handle = 0;
  SH_RETURN_IF_ERROR(streamhal::TexObjectCreate(out != nullptr ? &handle : nullptr, r, t, v));
  *out = ToApiHandle<Handle>(handle);
  return absl::OkStatus();
}

}  // namespace

extern "C" {

hipError_t hipCreateTextureObject(hipTextureObject_t* pTexObject, const hipResourceDesc* pResDesc,
                                  const hipTextureDesc* pTexDesc,
                                  const struct hipResourceViewDesc* pResViewDesc) {
  return RuntimeCall([&]() -> absl::Status {
    ResourceDesc r;
    TextureDesc t;
    ResourceViewDesc v;
    if (pResDesc != nullptr) SH_RETURN_IF_ERROR(FromHip(*pResDesc, &r));
    if (pTexDesc != nullptr) t = FromHip(*pTexDesc);
    if (pResViewDesc != nullptr) v = FromHipView(*pResViewDesc);
    return CreateTexture(pTexObject, pResDesc != nullptr ? &r : nullptr,
                         pTexDesc != nullptr ? &t : nullptr,
                         pResViewDesc != nullptr ? &v : nullptr);
  });
}

hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
  return RuntimeCall([&] { return streamhal::TexObjectDestroy(HandleValue(textureObject)); });
}

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* pResDesc,
                                           hipTextureObject_t textureObject) {
  return RuntimeCall([&]() -> absl::Status {
    ResourceDesc r;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetResourceDesc(HandleValue(textureObject),
                                                           pResDesc != nullptr ? &r : nullptr));
    ToHip(r, pResDesc);
    return absl::OkStatus();
  });
}

hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc* pResViewDesc,
                                               hipTextureObject_t textureObject) {
  return RuntimeCall([&]() -> absl::Status {
    ResourceViewDesc v;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetResourceViewDesc(
        HandleValue(textureObject), pResViewDesc != nullptr ? &v : nullptr));
    ToHipView<hipResourceViewDesc, hipResourceViewFormat>(v, pResViewDesc);
    return absl::OkStatus();
  });
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* pTexDesc,
                                          hipTextureObject_t textureObject) {
  return RuntimeCall([&]() -> absl::Status {
    TextureDesc t;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetTextureDesc(HandleValue(textureObject),
                                                          pTexDesc != nullptr ? &t : nullptr));
    ToHip(t, pTexDesc);
    return absl::OkStatus();
  });
}

hipError_t hipTexObjectCreate(hipTextureObject_t* pTexObject, const HIP_RESOURCE_DESC* pResDesc,
                              const HIP_TEXTURE_DESC* pTexDesc,
                              const HIP_RESOURCE_VIEW_DESC* pResViewDesc) {
  return Call([&]() -> absl::Status {
    ResourceDesc r;
    TextureDesc t;
    ResourceViewDesc v;
    if (pResDesc != nullptr) r = FromHipDriver(*pResDesc);
    if (pTexDesc != nullptr) t = FromHipDriver(*pTexDesc);
    if (pResViewDesc != nullptr) v = FromHipView(*pResViewDesc);
    return CreateTexture(pTexObject, pResDesc != nullptr ? &r : nullptr,
                         pTexDesc != nullptr ? &t : nullptr,
                         pResViewDesc != nullptr ? &v : nullptr);
  });
}

hipError_t hipTexObjectDestroy(hipTextureObject_t texObject) {
  return Call([&] { return streamhal::TexObjectDestroy(HandleValue(texObject)); });
}

hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC* pResDesc, hipTextureObject_t texObject) {
  return Call([&]() -> absl::Status {
    ResourceDesc r;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetResourceDesc(HandleValue(texObject),
                                                           pResDesc != nullptr ? &r : nullptr));
    ToHipDriver(r, pResDesc);
    return absl::OkStatus();
  });
}

hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC* pResViewDesc,
                                           hipTextureObject_t texObject) {
  return Call([&]() -> absl::Status {
    ResourceViewDesc v;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetResourceViewDesc(
        HandleValue(texObject), pResViewDesc != nullptr ? &v : nullptr));
    ToHipView<HIP_RESOURCE_VIEW_DESC, HIPresourceViewFormat>(v, pResViewDesc);
    return absl::OkStatus();
  });
}

hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC* pTexDesc, hipTextureObject_t texObject) {
  return Call([&]() -> absl::Status {
    TextureDesc t;
    SH_RETURN_IF_ERROR(streamhal::TexObjectGetTextureDesc(HandleValue(texObject),
                                                          pTexDesc != nullptr ? &t : nullptr));
    ToHipDriver(t, pTexDesc);
    return absl::OkStatus();
  });
}

hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* pSurfObject,
                                  const hipResourceDesc* pResDesc) {
  return RuntimeCall([&]() -> absl::Status {
    ResourceDesc r;
    if (pResDesc != nullptr) SH_RETURN_IF_ERROR(FromHip(*pResDesc, &r));
    uint64_t handle = 0;
    SH_RETURN_IF_ERROR(streamhal::SurfObjectCreate(pSurfObject != nullptr ? &handle : nullptr,
                                                   pResDesc != nullptr ? &r : nullptr));
    *pSurfObject = ToApiHandle<hipSurfaceObject_t>(handle);
    return absl::OkStatus();
  });
}

hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject) {
  return RuntimeCall([&] { return streamhal::SurfObjectDestroy(HandleValue(surfaceObject)); });
}

}  // extern "C"
