// Texture references (hipModuleGetTexRef, hipTexRef*, hipBindTexture*):
// HIP hands out a pointer to a textureReference struct that programs may
// also fill in directly. The struct lives in the core reference's API
// storage; each call first applies its sampling fields to the reference
// (where AMD's runtime reads them when binding), then mirrors the
// reference's state back into it.
#include "core/texture_ref.h"

#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <new>

#include "call.h"
#include "channel_format.h"
#include "core/array.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/module.h"
#include "core/status.h"

using streamhal::ArrayDescriptor;
using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::TextureRef;
using streamhal::ToApiHandle;
using streamhal::hip::Address;
using streamhal::hip::Call;
using streamhal::hip::FromChannelDesc;
using streamhal::hip::Pointer;

static_assert(sizeof(textureReference) <= streamhal::kTextureRefApiBytes,
              "textureReference must fit the reference's API storage");

namespace {

// The reference behind `ref` with the struct's sampling fields applied.
absl::StatusOr<uint64_t> Absorb(const textureReference* ref) {
  const uint64_t handle = ref != nullptr ? streamhal::TexRefOfApiStorage(ref) : 0;
  if (handle == 0) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                            "textureReference is null or not one hipModuleGetTexRef returned");
  }
  for (int i = 0; i < 3; ++i) {
    SH_RETURN_IF_ERROR(streamhal::TexRefSetAddressMode(
        handle, i, static_cast<uint32_t>(EnumArgument(ref->addressMode[i]))));
  }
  SH_RETURN_IF_ERROR(
      streamhal::TexRefSetFilterMode(handle, static_cast<uint32_t>(EnumArgument(ref->filterMode))));
  uint32_t flags = 0;
  if (EnumArgument(ref->readMode) == hipReadModeElementType) flags |= HIP_TRSF_READ_AS_INTEGER;
  if (ref->normalized != 0) flags |= HIP_TRSF_NORMALIZED_COORDINATES;
  if (ref->sRGB != 0) flags |= HIP_TRSF_SRGB;
  SH_RETURN_IF_ERROR(streamhal::TexRefSetFlags(handle, flags));
  SH_RETURN_IF_ERROR(streamhal::TexRefSetMaxAnisotropy(handle, ref->maxAnisotropy));
  SH_RETURN_IF_ERROR(streamhal::TexRefSetMipmapFilterMode(
      handle, static_cast<uint32_t>(EnumArgument(ref->mipmapFilterMode))));
  SH_RETURN_IF_ERROR(streamhal::TexRefSetMipmapLevelBias(handle, ref->mipmapLevelBias));
  SH_RETURN_IF_ERROR(streamhal::TexRefSetMipmapLevelClamp(handle, ref->minMipmapLevelClamp,
                                                          ref->maxMipmapLevelClamp));
  if (ref->numChannels != 0) {
    SH_RETURN_IF_ERROR(streamhal::TexRefSetFormat(
        handle, static_cast<uint32_t>(EnumArgument(ref->format)), ref->numChannels));
  }
  return handle;
}

// Writes the reference's state into its struct (which is the reference's
// own storage, so writing through the caller's const pointer is sound).
void Mirror(uint64_t handle) {
  absl::StatusOr<void*> storage = streamhal::TexRefApiStorage(handle);
  absl::StatusOr<TextureRef::State> state = streamhal::TexRefGetState(handle);
  if (!storage.ok() || !state.ok()) return;
  auto* ref = static_cast<textureReference*>(*storage);
  const streamhal::TextureDesc& t = state->texture;
  for (int i = 0; i < 3; ++i) {
    ref->addressMode[i] = static_cast<hipTextureAddressMode>(t.address_mode[i]);
  }
  ref->filterMode = static_cast<hipTextureFilterMode>(t.filter_mode);
  ref->readMode = (t.flags & HIP_TRSF_READ_AS_INTEGER) != 0 ? hipReadModeElementType
                                                            : hipReadModeNormalizedFloat;
  ref->normalized = (t.flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0 ? 1 : 0;
  ref->sRGB = (t.flags & HIP_TRSF_SRGB) != 0 ? 1 : 0;
  ref->maxAnisotropy = t.max_anisotropy;
  ref->mipmapFilterMode = static_cast<hipTextureFilterMode>(t.mipmap_filter_mode);
  ref->mipmapLevelBias = t.mipmap_level_bias;
  ref->minMipmapLevelClamp = t.min_mipmap_level_clamp;
  ref->maxMipmapLevelClamp = t.max_mipmap_level_clamp;
  ref->format = static_cast<hipArray_Format>(state->format);
  ref->numChannels = static_cast<int>(state->channels);
  ArrayDescriptor d;
  d.format = state->format;
  d.channels = state->channels;
  if (state->channels != 0) ref->channelDesc = streamhal::hip::ToChannelDesc(d);
}

// A call that changes the reference: absorb the struct, change, mirror.
template <typename F>
hipError_t Set(const textureReference* ref, F change) {
  return Call([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(uint64_t handle, Absorb(ref));
    const absl::Status status = change(handle);
    Mirror(handle);
    return status;
  });
}

// A call that reads the reference (after absorbing the struct).
template <typename F>
hipError_t Get(const textureReference* ref, F read) {
  return Call([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(uint64_t handle, Absorb(ref));
    return read(handle);
  });
}

absl::Status FormatOf(const hipChannelFormatDesc* desc, ArrayDescriptor* d) {
  if (desc == nullptr) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "hipBindTexture: desc is null");
  }
  return FromChannelDesc(desc, d);
}

}  // namespace

extern "C" {

hipError_t hipModuleGetTexRef(textureReference** texRef, hipModule_t hmod, const char* name) {
  return Call([&]() -> absl::Status {
    if (texRef == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "hipModuleGetTexRef: null");
    }
    uint64_t handle = 0;
    SH_RETURN_IF_ERROR(streamhal::ModuleGetTexRef(&handle, HandleValue(hmod), name));
    SH_ASSIGN_OR_RETURN(void* storage, streamhal::TexRefApiStorage(handle));
    Mirror(handle);
    *texRef = static_cast<textureReference*>(storage);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefSetArray(textureReference* tex, hipArray_const_t array, unsigned int flags) {
  return Set(tex,
             [&](uint64_t h) { return streamhal::TexRefSetArray(h, HandleValue(array), flags); });
}

hipError_t hipTexRefSetMipmappedArray(textureReference* texRef,
                                      struct hipMipmappedArray* mipmappedArray,
                                      unsigned int Flags) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetMipmappedArray(h, HandleValue(mipmappedArray), Flags);
  });
}

hipError_t hipTexRefSetAddress(size_t* ByteOffset, textureReference* texRef, hipDeviceptr_t dptr,
                               size_t bytes) {
  return Set(texRef, [&](uint64_t h) -> absl::Status {
    uint64_t offset = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefSetAddress(&offset, h, Address(dptr), bytes));
    if (ByteOffset != nullptr) *ByteOffset = static_cast<size_t>(offset);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefSetAddress2D(textureReference* texRef, const HIP_ARRAY_DESCRIPTOR* desc,
                                 hipDeviceptr_t dptr, size_t Pitch) {
  return Set(texRef, [&](uint64_t h) -> absl::Status {
    if (desc == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipTexRefSetAddress2D: desc is null");
    }
    return streamhal::TexRefSetAddress2D(h, desc->Width, desc->Height,
                                         static_cast<uint32_t>(EnumArgument(desc->Format)),
                                         desc->NumChannels, Address(dptr), Pitch);
  });
}

hipError_t hipTexRefSetFormat(textureReference* texRef, hipArray_Format fmt,
                              int NumPackedComponents) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetFormat(h, static_cast<uint32_t>(EnumArgument(fmt)),
                                      NumPackedComponents);
  });
}

hipError_t hipTexRefSetAddressMode(textureReference* texRef, int dim,
                                   enum hipTextureAddressMode am) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetAddressMode(h, dim, static_cast<uint32_t>(EnumArgument(am)));
  });
}

hipError_t hipTexRefSetFilterMode(textureReference* texRef, enum hipTextureFilterMode fm) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetFilterMode(h, static_cast<uint32_t>(EnumArgument(fm)));
  });
}

hipError_t hipTexRefSetMipmapFilterMode(textureReference* texRef, enum hipTextureFilterMode fm) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetMipmapFilterMode(h, static_cast<uint32_t>(EnumArgument(fm)));
  });
}

hipError_t hipTexRefSetMipmapLevelBias(textureReference* texRef, float bias) {
  return Set(texRef, [&](uint64_t h) { return streamhal::TexRefSetMipmapLevelBias(h, bias); });
}

hipError_t hipTexRefSetMipmapLevelClamp(textureReference* texRef, float minMipMapLevelClamp,
                                        float maxMipMapLevelClamp) {
  return Set(texRef, [&](uint64_t h) {
    return streamhal::TexRefSetMipmapLevelClamp(h, minMipMapLevelClamp, maxMipMapLevelClamp);
  });
}

hipError_t hipTexRefSetMaxAnisotropy(textureReference* texRef, unsigned int maxAniso) {
  return Set(texRef, [&](uint64_t h) { return streamhal::TexRefSetMaxAnisotropy(h, maxAniso); });
}

hipError_t hipTexRefSetBorderColor(textureReference* texRef, float* pBorderColor) {
  return Set(texRef, [&](uint64_t h) { return streamhal::TexRefSetBorderColor(h, pBorderColor); });
}

hipError_t hipTexRefSetFlags(textureReference* texRef, unsigned int Flags) {
  return Set(texRef, [&](uint64_t h) { return streamhal::TexRefSetFlags(h, Flags); });
}

hipError_t hipTexRefGetAddress(hipDeviceptr_t* dev_ptr, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint64_t address = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetAddress(dev_ptr != nullptr ? &address : nullptr, h));
    *dev_ptr = Pointer(address);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetArray(hipArray_t* pArray, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint64_t array = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetArray(pArray != nullptr ? &array : nullptr, h));
    *pArray = ToApiHandle<hipArray_t>(array);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetMipMappedArray(hipMipmappedArray_t* pArray, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint64_t array = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetMipmappedArray(pArray != nullptr ? &array : nullptr, h));
    *pArray = ToApiHandle<hipMipmappedArray_t>(array);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetAddressMode(enum hipTextureAddressMode* pam, const textureReference* texRef,
                                   int dim) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint32_t mode = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetAddressMode(pam != nullptr ? &mode : nullptr, h, dim));
    *pam = static_cast<hipTextureAddressMode>(mode);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetFilterMode(enum hipTextureFilterMode* pfm, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint32_t mode = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetFilterMode(pfm != nullptr ? &mode : nullptr, h));
    *pfm = static_cast<hipTextureFilterMode>(mode);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetMipmapFilterMode(enum hipTextureFilterMode* pfm,
                                        const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint32_t mode = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetMipmapFilterMode(pfm != nullptr ? &mode : nullptr, h));
    *pfm = static_cast<hipTextureFilterMode>(mode);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetFlags(unsigned int* pFlags, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) { return streamhal::TexRefGetFlags(pFlags, h); });
}

hipError_t hipTexRefGetFormat(hipArray_Format* pFormat, int* pNumChannels,
                              const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) -> absl::Status {
    uint32_t format = 0;
    SH_RETURN_IF_ERROR(
        streamhal::TexRefGetFormat(pFormat != nullptr ? &format : nullptr, pNumChannels, h));
    if (pFormat != nullptr) *pFormat = static_cast<hipArray_Format>(format);
    return absl::OkStatus();
  });
}

hipError_t hipTexRefGetMaxAnisotropy(int* pmaxAnsio, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) { return streamhal::TexRefGetMaxAnisotropy(pmaxAnsio, h); });
}

hipError_t hipTexRefGetMipmapLevelBias(float* pbias, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) { return streamhal::TexRefGetMipmapLevelBias(pbias, h); });
}

hipError_t hipTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp, float* pmaxMipmapLevelClamp,
                                        const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) {
    return streamhal::TexRefGetMipmapLevelClamp(pminMipmapLevelClamp, pmaxMipmapLevelClamp, h);
  });
}

hipError_t hipTexRefGetBorderColor(float* pBorderColor, const textureReference* texRef) {
  return Get(texRef, [&](uint64_t h) { return streamhal::TexRefGetBorderColor(pBorderColor, h); });
}

hipError_t hipBindTexture(size_t* offset, const textureReference* tex, const void* devPtr,
                          const hipChannelFormatDesc* desc, size_t size) {
  return Set(tex, [&](uint64_t h) -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FormatOf(desc, &d));
    SH_RETURN_IF_ERROR(streamhal::TexRefSetFormat(h, d.format, static_cast<int>(d.channels)));
    uint64_t byte_offset = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefSetAddress(&byte_offset, h, Address(devPtr), size));
    if (offset != nullptr) *offset = static_cast<size_t>(byte_offset);
    return absl::OkStatus();
  });
}

hipError_t hipBindTexture2D(size_t* offset, const textureReference* tex, const void* devPtr,
                            const hipChannelFormatDesc* desc, size_t width, size_t height,
                            size_t pitch) {
  return Set(tex, [&](uint64_t h) -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FormatOf(desc, &d));
    SH_RETURN_IF_ERROR(streamhal::TexRefSetAddress2D(h, width, height, d.format, d.channels,
                                                     Address(devPtr), pitch));
    if (offset != nullptr) *offset = 0;
    return absl::OkStatus();
  });
}

hipError_t hipBindTextureToArray(const textureReference* tex, hipArray_const_t array,
                                 const hipChannelFormatDesc* desc) {
  return Set(tex, [&](uint64_t h) -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FormatOf(desc, &d));
    return streamhal::TexRefSetArray(h, HandleValue(array), HIP_TRSA_OVERRIDE_FORMAT);
  });
}

hipError_t hipBindTextureToMipmappedArray(const textureReference* tex,
                                          hipMipmappedArray_const_t mipmappedArray,
                                          const hipChannelFormatDesc* desc) {
  return Set(tex, [&](uint64_t h) -> absl::Status {
    ArrayDescriptor d;
    SH_RETURN_IF_ERROR(FormatOf(desc, &d));
    return streamhal::TexRefSetMipmappedArray(h, HandleValue(mipmappedArray),
                                              HIP_TRSA_OVERRIDE_FORMAT);
  });
}

hipError_t hipUnbindTexture(const textureReference* tex) {
  return Set(tex, [&](uint64_t h) { return streamhal::TexRefUnbind(h); });
}

hipError_t hipGetTextureAlignmentOffset(size_t* offset, const textureReference* texref) {
  return Get(texref, [&](uint64_t h) -> absl::Status {
    uint64_t value = 0;
    SH_RETURN_IF_ERROR(streamhal::TexRefGetByteOffset(offset != nullptr ? &value : nullptr, h));
    *offset = static_cast<size_t>(value);
    return absl::OkStatus();
  });
}

}  // extern "C"
