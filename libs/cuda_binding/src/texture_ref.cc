// Texture and surface references (cuModuleGetTexRef, cuTexRef*, cuSurfRef*,
// cuParamSetTexRef): CUDA's types converted to core's (core/texture_ref.h).
#include "core/texture_ref.h"

#include <cuda.h>

#include <cstdint>

#include "core/c_enum.h"
#include "core/handle.h"
#include "core/module.h"
#include "result.h"

using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ToApiHandle;
using streamhal::cuda::ToCUresult;

namespace {

// A core getter of a uint64_t handle or address into an API output.
template <typename Api, typename F>
CUresult GetHandle(Api* out, F get) {
  uint64_t value = 0;
  const absl::Status status = get(out != nullptr ? &value : nullptr);
  if (status.ok()) *out = ToApiHandle<Api>(value);
  return ToCUresult(status);
}

template <typename Api, typename F>
CUresult GetEnum(Api* out, F get) {
  uint32_t value = 0;
  const absl::Status status = get(out != nullptr ? &value : nullptr);
  if (status.ok()) *out = static_cast<Api>(value);
  return ToCUresult(status);
}

}  // namespace

extern "C" {

CUresult cuModuleGetTexRef(CUtexref* pTexRef, CUmodule hmod, const char* name) {
  return GetHandle(pTexRef, [&](uint64_t* out) {
    return streamhal::ModuleGetTexRef(out, HandleValue(hmod), name);
  });
}

CUresult cuModuleGetSurfRef(CUsurfref* pSurfRef, CUmodule hmod, const char* name) {
  return GetHandle(pSurfRef, [&](uint64_t* out) {
    return streamhal::ModuleGetSurfRef(out, HandleValue(hmod), name);
  });
}

CUresult cuTexRefCreate(CUtexref* pTexRef) {
  return GetHandle(pTexRef, [](uint64_t* out) { return streamhal::TexRefCreate(out); });
}

CUresult cuTexRefDestroy(CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefDestroy(HandleValue(hTexRef)));
}

CUresult cuTexRefSetArray(CUtexref hTexRef, CUarray hArray, unsigned int Flags) {
  return ToCUresult(streamhal::TexRefSetArray(HandleValue(hTexRef), HandleValue(hArray), Flags));
}

CUresult cuTexRefSetMipmappedArray(CUtexref hTexRef, CUmipmappedArray hMipmappedArray,
                                   unsigned int Flags) {
  return ToCUresult(streamhal::TexRefSetMipmappedArray(HandleValue(hTexRef),
                                                       HandleValue(hMipmappedArray), Flags));
}

CUresult cuTexRefSetAddress(size_t* ByteOffset, CUtexref hTexRef, CUdeviceptr dptr, size_t bytes) {
  uint64_t offset = 0;
  const absl::Status status =
      streamhal::TexRefSetAddress(&offset, HandleValue(hTexRef), dptr, bytes);
  if (status.ok() && ByteOffset != nullptr) *ByteOffset = static_cast<size_t>(offset);
  return ToCUresult(status);
}

CUresult cuTexRefSetAddress2D(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR* desc, CUdeviceptr dptr,
                              size_t Pitch) {
  if (desc == nullptr) return CUDA_ERROR_INVALID_VALUE;
  return ToCUresult(streamhal::TexRefSetAddress2D(HandleValue(hTexRef), desc->Width, desc->Height,
                                                  static_cast<uint32_t>(EnumArgument(desc->Format)),
                                                  desc->NumChannels, dptr, Pitch));
}

CUresult cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt, int NumPackedComponents) {
  return ToCUresult(streamhal::TexRefSetFormat(
      HandleValue(hTexRef), static_cast<uint32_t>(EnumArgument(fmt)), NumPackedComponents));
}

CUresult cuTexRefSetAddressMode(CUtexref hTexRef, int dim, CUaddress_mode am) {
  return ToCUresult(streamhal::TexRefSetAddressMode(HandleValue(hTexRef), dim,
                                                    static_cast<uint32_t>(EnumArgument(am))));
}

CUresult cuTexRefSetFilterMode(CUtexref hTexRef, CUfilter_mode fm) {
  return ToCUresult(streamhal::TexRefSetFilterMode(HandleValue(hTexRef),
                                                   static_cast<uint32_t>(EnumArgument(fm))));
}

CUresult cuTexRefSetMipmapFilterMode(CUtexref hTexRef, CUfilter_mode fm) {
  return ToCUresult(streamhal::TexRefSetMipmapFilterMode(HandleValue(hTexRef),
                                                         static_cast<uint32_t>(EnumArgument(fm))));
}

CUresult cuTexRefSetMipmapLevelBias(CUtexref hTexRef, float bias) {
  return ToCUresult(streamhal::TexRefSetMipmapLevelBias(HandleValue(hTexRef), bias));
}

CUresult cuTexRefSetMipmapLevelClamp(CUtexref hTexRef, float minMipmapLevelClamp,
                                     float maxMipmapLevelClamp) {
  return ToCUresult(streamhal::TexRefSetMipmapLevelClamp(HandleValue(hTexRef), minMipmapLevelClamp,
                                                         maxMipmapLevelClamp));
}

CUresult cuTexRefSetMaxAnisotropy(CUtexref hTexRef, unsigned int maxAniso) {
  return ToCUresult(streamhal::TexRefSetMaxAnisotropy(HandleValue(hTexRef), maxAniso));
}

CUresult cuTexRefSetBorderColor(CUtexref hTexRef, float* pBorderColor) {
  return ToCUresult(streamhal::TexRefSetBorderColor(HandleValue(hTexRef), pBorderColor));
}

CUresult cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags) {
  return ToCUresult(streamhal::TexRefSetFlags(HandleValue(hTexRef), Flags));
}

CUresult cuTexRefGetAddress(CUdeviceptr* pdptr, CUtexref hTexRef) {
  uint64_t value = 0;
  const absl::Status status =
      streamhal::TexRefGetAddress(pdptr != nullptr ? &value : nullptr, HandleValue(hTexRef));
  if (status.ok()) *pdptr = value;
  return ToCUresult(status);
}

CUresult cuTexRefGetArray(CUarray* phArray, CUtexref hTexRef) {
  return GetHandle(
      phArray, [&](uint64_t* out) { return streamhal::TexRefGetArray(out, HandleValue(hTexRef)); });
}

CUresult cuTexRefGetMipmappedArray(CUmipmappedArray* phMipmappedArray, CUtexref hTexRef) {
  return GetHandle(phMipmappedArray, [&](uint64_t* out) {
    return streamhal::TexRefGetMipmappedArray(out, HandleValue(hTexRef));
  });
}

CUresult cuTexRefGetAddressMode(CUaddress_mode* pam, CUtexref hTexRef, int dim) {
  return GetEnum(pam, [&](uint32_t* out) {
    return streamhal::TexRefGetAddressMode(out, HandleValue(hTexRef), dim);
  });
}

CUresult cuTexRefGetFilterMode(CUfilter_mode* pfm, CUtexref hTexRef) {
  return GetEnum(pfm, [&](uint32_t* out) {
    return streamhal::TexRefGetFilterMode(out, HandleValue(hTexRef));
  });
}

CUresult cuTexRefGetFormat(CUarray_format* pFormat, int* pNumChannels, CUtexref hTexRef) {
  uint32_t format = 0;
  const absl::Status status = streamhal::TexRefGetFormat(pFormat != nullptr ? &format : nullptr,
                                                         pNumChannels, HandleValue(hTexRef));
  if (status.ok() && pFormat != nullptr) *pFormat = static_cast<CUarray_format>(format);
  return ToCUresult(status);
}

CUresult cuTexRefGetMipmapFilterMode(CUfilter_mode* pfm, CUtexref hTexRef) {
  return GetEnum(pfm, [&](uint32_t* out) {
    return streamhal::TexRefGetMipmapFilterMode(out, HandleValue(hTexRef));
  });
}

CUresult cuTexRefGetMipmapLevelBias(float* pbias, CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefGetMipmapLevelBias(pbias, HandleValue(hTexRef)));
}

CUresult cuTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp, float* pmaxMipmapLevelClamp,
                                     CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefGetMipmapLevelClamp(pminMipmapLevelClamp, pmaxMipmapLevelClamp,
                                                         HandleValue(hTexRef)));
}

CUresult cuTexRefGetMaxAnisotropy(int* pmaxAniso, CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefGetMaxAnisotropy(pmaxAniso, HandleValue(hTexRef)));
}

CUresult cuTexRefGetBorderColor(float* pBorderColor, CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefGetBorderColor(pBorderColor, HandleValue(hTexRef)));
}

CUresult cuTexRefGetFlags(unsigned int* pFlags, CUtexref hTexRef) {
  return ToCUresult(streamhal::TexRefGetFlags(pFlags, HandleValue(hTexRef)));
}

CUresult cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray, unsigned int Flags) {
  return ToCUresult(streamhal::SurfRefSetArray(HandleValue(hSurfRef), HandleValue(hArray), Flags));
}

CUresult cuSurfRefGetArray(CUarray* phArray, CUsurfref hSurfRef) {
  return GetHandle(phArray, [&](uint64_t* out) {
    return streamhal::SurfRefGetArray(out, HandleValue(hSurfRef));
  });
}

CUresult cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef) {
  return ToCUresult(streamhal::ParamSetTexRef(HandleValue(hfunc), texunit, HandleValue(hTexRef)));
}

}  // extern "C"
