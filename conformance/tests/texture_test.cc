// Rows: texture and surface objects through both APIs (cuTexObjectCreate,
// cuTexObjectDestroy, cuTexObjectGet*Desc, cuSurfObjectCreate,
// cuSurfObjectDestroy, cuSurfObjectGetResourceDesc, hipCreateTextureObject,
// hipTexObjectCreate, hipGetTextureObject*Desc, hipTexObjectGet*Desc,
// hipCreateSurfaceObject, ...). Objects over arrays, linear and pitched
// memory keep exactly the descriptors they were given; bad descriptors
// and stale handles give the codes libs/core/texture.h documents. Kernels
// that bind them are tested in texture_kernel_test.cc.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using TextureConformance = ContextTest;

CUarray Make2DArray(size_t width, size_t height, CUarray_format format, unsigned channels,
                    unsigned flags = 0) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.Format = format;
  desc.NumChannels = channels;
  desc.Flags = flags;
  CUarray array = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuArray3DCreate(&array, &desc));
  return array;
}

CUDA_RESOURCE_DESC ArrayResource(CUarray array) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  return r;
}

CUDA_TEXTURE_DESC Sampler(CUaddress_mode mode, CUfilter_mode filter, unsigned flags) {
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = mode;
  t.filterMode = filter;
  t.flags = flags;
  return t;
}

TEST_F(TextureConformance, ArrayTextureKeepsItsDescriptors) {
  CUarray array = Make2DArray(16, 8, CU_AD_FORMAT_UNSIGNED_INT8, 4);
  CUDA_RESOURCE_DESC r = ArrayResource(array);
  CUDA_TEXTURE_DESC t = Sampler(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_LINEAR,
                                CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB);
  t.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
  t.borderColor[0] = 0.25f;
  t.borderColor[3] = 1.0f;
  CUDA_RESOURCE_VIEW_DESC v;
  std::memset(&v, 0, sizeof(v));
  v.format = CU_RES_VIEW_FORMAT_UINT_4X8;
  v.width = 16;
  v.height = 8;
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, &v));
  EXPECT_NE(tex, 0u);

  CUDA_RESOURCE_DESC got_r;
  std::memset(&got_r, 0xab, sizeof(got_r));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceDesc(&got_r, tex));
  EXPECT_EQ(got_r.resType, CU_RESOURCE_TYPE_ARRAY);
  EXPECT_EQ(got_r.res.array.hArray, array);
  EXPECT_EQ(got_r.flags, 0u);
  CUDA_TEXTURE_DESC got_t;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetTextureDesc(&got_t, tex));
  EXPECT_EQ(got_t.addressMode[0], CU_TR_ADDRESS_MODE_BORDER);
  EXPECT_EQ(got_t.addressMode[1], CU_TR_ADDRESS_MODE_MIRROR);
  EXPECT_EQ(got_t.filterMode, CU_TR_FILTER_MODE_LINEAR);
  EXPECT_EQ(got_t.flags, unsigned{CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB});
  EXPECT_EQ(got_t.borderColor[0], 0.25f);
  EXPECT_EQ(got_t.borderColor[3], 1.0f);
  CUDA_RESOURCE_VIEW_DESC got_v;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceViewDesc(&got_v, tex));
  EXPECT_EQ(got_v.format, CU_RES_VIEW_FORMAT_UINT_4X8);
  EXPECT_EQ(got_v.width, 16u);
  EXPECT_EQ(got_v.height, 8u);

  // The same object through HIP's driver and runtime forms.
  hipTextureObject_t hip_tex = reinterpret_cast<hipTextureObject_t>(tex);
  HIP_TEXTURE_DESC hip_t;
  EXPECT_HIP(hipSuccess, hipTexObjectGetTextureDesc(&hip_t, hip_tex));
  EXPECT_EQ(hip_t.addressMode[1], HIP_TR_ADDRESS_MODE_MIRROR);
  EXPECT_EQ(hip_t.flags, unsigned{CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB});
  hipTextureDesc hip_rt;
  EXPECT_HIP(hipSuccess, hipGetTextureObjectTextureDesc(&hip_rt, hip_tex));
  EXPECT_EQ(hip_rt.readMode, hipReadModeNormalizedFloat);
  EXPECT_EQ(hip_rt.sRGB, 1);
  EXPECT_EQ(hip_rt.normalizedCoords, 1);
  EXPECT_EQ(hip_rt.borderColor[0], 0.25f);
  hipResourceDesc hip_r;
  EXPECT_HIP(hipSuccess, hipGetTextureObjectResourceDesc(&hip_r, hip_tex));
  EXPECT_EQ(hip_r.resType, hipResourceTypeArray);
  EXPECT_EQ(static_cast<void*>(hip_r.res.array.array), static_cast<void*>(array));
  HIP_RESOURCE_VIEW_DESC hip_v;
  EXPECT_HIP(hipSuccess, hipTexObjectGetResourceViewDesc(&hip_v, hip_tex));
  EXPECT_EQ(hip_v.format, HIP_RES_VIEW_FORMAT_UINT_4X8);
  hipResourceViewDesc hip_rv;
  EXPECT_HIP(hipSuccess, hipGetTextureObjectResourceViewDesc(&hip_rv, hip_tex));
  EXPECT_EQ(hip_rv.width, 16u);

  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureConformance, LinearAndPitchedTexturesKeepTheirMemory) {
  CUdeviceptr linear = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&linear, 4096));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_LINEAR;
  r.res.linear.devPtr = linear;
  r.res.linear.format = CU_AD_FORMAT_FLOAT;
  r.res.linear.numChannels = 1;
  r.res.linear.sizeInBytes = 4096;
  CUDA_TEXTURE_DESC t = Sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  CUDA_RESOURCE_DESC got;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectGetResourceDesc(&got, tex));
  EXPECT_EQ(got.resType, CU_RESOURCE_TYPE_LINEAR);
  EXPECT_EQ(got.res.linear.devPtr, linear);
  EXPECT_EQ(got.res.linear.format, CU_AD_FORMAT_FLOAT);
  EXPECT_EQ(got.res.linear.numChannels, 1u);
  EXPECT_EQ(got.res.linear.sizeInBytes, 4096u);
  // CUDA: no view was given, so there is none to return.
  CUDA_RESOURCE_VIEW_DESC v;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceViewDesc(&v, tex));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));

  // 8-bit, 2 channels, pitched (ffmpeg's scaler reads planes like this).
  CUdeviceptr pitched = 0;
  size_t pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&pitched, &pitch, 2 * 100, 30, 4));
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_PITCH2D;
  r.res.pitch2D.devPtr = pitched;
  r.res.pitch2D.format = CU_AD_FORMAT_UNSIGNED_INT8;
  r.res.pitch2D.numChannels = 2;
  r.res.pitch2D.width = 100;
  r.res.pitch2D.height = 30;
  r.res.pitch2D.pitchInBytes = pitch;
  t = Sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  hipResourceDesc hip_r;
  EXPECT_HIP(hipSuccess,
             hipGetTextureObjectResourceDesc(&hip_r, reinterpret_cast<hipTextureObject_t>(tex)));
  EXPECT_EQ(hip_r.resType, hipResourceTypePitch2D);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(hip_r.res.pitch2D.devPtr), pitched);
  EXPECT_EQ(hip_r.res.pitch2D.desc.x, 8);
  EXPECT_EQ(hip_r.res.pitch2D.desc.y, 8);
  EXPECT_EQ(hip_r.res.pitch2D.desc.z, 0);
  EXPECT_EQ(hip_r.res.pitch2D.desc.f, hipChannelFormatKindUnsigned);
  EXPECT_EQ(hip_r.res.pitch2D.width, 100u);
  EXPECT_EQ(hip_r.res.pitch2D.pitchInBytes, pitch);
  EXPECT_HIP(hipSuccess, hipTexObjectDestroy(reinterpret_cast<hipTextureObject_t>(tex)));

  // HIP's runtime form of the same pitched texture, 16-bit read as integers.
  hipResourceDesc hr;
  std::memset(&hr, 0, sizeof(hr));
  hr.resType = hipResourceTypePitch2D;
  hr.res.pitch2D.devPtr = reinterpret_cast<void*>(pitched);
  hr.res.pitch2D.desc = {16, 0, 0, 0, hipChannelFormatKindUnsigned};
  hr.res.pitch2D.width = 100;
  hr.res.pitch2D.height = 30;
  hr.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc ht;
  std::memset(&ht, 0, sizeof(ht));
  ht.addressMode[0] = ht.addressMode[1] = hipAddressModeClamp;
  ht.filterMode = hipFilterModePoint;
  ht.readMode = hipReadModeElementType;
  hipTextureObject_t hip_tex = nullptr;
  ASSERT_HIP(hipSuccess, hipCreateTextureObject(&hip_tex, &hr, &ht, nullptr));
  CUDA_TEXTURE_DESC got_t;
  EXPECT_CU(CUDA_SUCCESS,
            cuTexObjectGetTextureDesc(&got_t, reinterpret_cast<CUtexObject>(hip_tex)));
  EXPECT_EQ(got_t.flags, unsigned{CU_TRSF_READ_AS_INTEGER});
  EXPECT_EQ(got_t.addressMode[0], CU_TR_ADDRESS_MODE_CLAMP);
  CUDA_RESOURCE_DESC got_r;
  EXPECT_CU(CUDA_SUCCESS,
            cuTexObjectGetResourceDesc(&got_r, reinterpret_cast<CUtexObject>(hip_tex)));
  EXPECT_EQ(got_r.res.pitch2D.format, CU_AD_FORMAT_UNSIGNED_INT16);
  EXPECT_EQ(got_r.res.pitch2D.numChannels, 1u);
  EXPECT_HIP(hipSuccess, hipDestroyTextureObject(hip_tex));

  EXPECT_CU(CUDA_SUCCESS, cuMemFree(pitched));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(linear));
}

TEST_F(TextureConformance, BadTextureDescriptorsAreInvalidValueAndCreateNothing) {
  CUarray array = Make2DArray(8, 8, CU_AD_FORMAT_UNSIGNED_INT8, 1);
  const CUDA_RESOURCE_DESC good_r = ArrayResource(array);
  const CUDA_TEXTURE_DESC good_t = Sampler(CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, 0);
  CUtexObject tex = 0x1234;
  hipTextureObject_t hip_tex = nullptr;
  HIP_RESOURCE_DESC hip_r;
  std::memset(&hip_r, 0, sizeof(hip_r));
  hip_r.resType = HIP_RESOURCE_TYPE_ARRAY;
  hip_r.res.array.hArray = reinterpret_cast<hipArray_t>(array);
  HIP_TEXTURE_DESC hip_t;
  std::memset(&hip_t, 0, sizeof(hip_t));

  // Null arguments.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(nullptr, &good_r, &good_t, nullptr),
              hipTexObjectCreate(nullptr, &hip_r, &hip_t, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, nullptr, &good_t, nullptr),
              hipTexObjectCreate(&hip_tex, nullptr, &hip_t, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, nullptr, nullptr),
              hipTexObjectCreate(&hip_tex, &hip_r, nullptr, nullptr));
  // Modes and flags.
  CUDA_TEXTURE_DESC t = good_t;
  t.addressMode[2] = static_cast<CUaddress_mode>(4);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, &t, nullptr));
  t = good_t;
  t.filterMode = static_cast<CUfilter_mode>(2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, &t, nullptr));
  t = good_t;
  t.flags = 0x100;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, &t, nullptr));
  // sRGB on 16-bit texels.
  CUarray wide = Make2DArray(8, 8, CU_AD_FORMAT_UNSIGNED_INT16, 1);
  CUDA_RESOURCE_DESC wide_r = ArrayResource(wide);
  t = Sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_SRGB);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &wide_r, &t, nullptr));
  // Resources: flags, type, a destroyed array, memory outside allocations.
  CUDA_RESOURCE_DESC r = good_r;
  r.flags = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  r = good_r;
  r.resType = static_cast<CUresourcetype>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  r = good_r;
  r.res.array.hArray = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  CUdeviceptr memory = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&memory, 1024));
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_LINEAR;
  r.res.linear.devPtr = memory;
  r.res.linear.format = CU_AD_FORMAT_FLOAT;
  r.res.linear.numChannels = 1;
  r.res.linear.sizeInBytes = 2048;  // past the allocation
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  r.res.linear.sizeInBytes = 1024;
  r.res.linear.numChannels = 3;  // no such texel format
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  r.res.linear.numChannels = 1;
  r.res.linear.devPtr = memory + 4;  // below the texture alignment
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_PITCH2D;
  r.res.pitch2D.devPtr = memory;
  r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  r.res.pitch2D.numChannels = 1;
  r.res.pitch2D.width = 64;
  r.res.pitch2D.height = 4;
  r.res.pitch2D.pitchInBytes = 128;  // smaller than a row of 64 floats
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));
  // A view that does not match the array.
  CUDA_RESOURCE_VIEW_DESC v;
  std::memset(&v, 0, sizeof(v));
  v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;  // 4-byte texels over 1-byte ones
  v.width = 8;
  v.height = 8;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, &good_t, &v));
  v.format = CU_RES_VIEW_FORMAT_UINT_1X8;
  v.width = 4;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &good_r, &good_t, &v));
  // A mipmapped-array resource whose handle is an array's.
  r = good_r;
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &good_t, nullptr));

  // Nothing was written, and the array is still usable.
  EXPECT_EQ(tex, 0x1234u);
  EXPECT_EQ(hip_tex, nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &good_r, &good_t, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(wide));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureConformance, DestroyedAndForeignObjectsAreInvalidHandle) {
  CUarray array = Make2DArray(4, 4, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST);
  CUDA_RESOURCE_DESC r = ArrayResource(array);
  CUDA_TEXTURE_DESC t = Sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  CUsurfObject surf = 0;
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&surf, &r));
  // A texture is no surface and the other way round.
  CUDA_RESOURCE_DESC got;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfObjectGetResourceDesc(&got, tex));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexObjectGetResourceDesc(&got, surf));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuTexObjectDestroy(surf),
              hipDestroyTextureObject(reinterpret_cast<hipTextureObject_t>(surf)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuSurfObjectDestroy(tex),
              hipDestroySurfaceObject(reinterpret_cast<hipSurfaceObject_t>(tex)));
  // Null outputs.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetResourceDesc(nullptr, tex),
              hipTexObjectGetResourceDesc(nullptr, reinterpret_cast<hipTextureObject_t>(tex)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuTexObjectGetTextureDesc(nullptr, tex),
              hipGetTextureObjectTextureDesc(nullptr, reinterpret_cast<hipTextureObject_t>(tex)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectGetResourceDesc(nullptr, surf));

  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(surf));
  CUDA_TEXTURE_DESC got_t;
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuTexObjectGetTextureDesc(&got_t, tex),
              hipTexObjectGetTextureDesc(reinterpret_cast<HIP_TEXTURE_DESC*>(&got_t),
                                         reinterpret_cast<hipTextureObject_t>(tex)));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfObjectGetResourceDesc(&got, surf));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuTexObjectDestroy(tex),
              hipTexObjectDestroy(reinterpret_cast<hipTextureObject_t>(tex)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuSurfObjectDestroy(surf),
              hipDestroySurfaceObject(reinterpret_cast<hipSurfaceObject_t>(surf)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuTexObjectDestroy(0), hipDestroyTextureObject(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  // A texture over a destroyed array is refused.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &t, nullptr));
}

TEST_F(TextureConformance, SurfacesNeedLoadStoreArrays) {
  CUarray plain = Make2DArray(8, 8, CU_AD_FORMAT_UNSIGNED_INT32, 1);
  CUarray ldst = Make2DArray(8, 8, CU_AD_FORMAT_UNSIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST);
  CUDA_RESOURCE_DESC r = ArrayResource(plain);
  CUsurfObject surf = 0;
  hipResourceDesc hr;
  std::memset(&hr, 0, sizeof(hr));
  hr.resType = hipResourceTypeArray;
  hr.res.array.array = reinterpret_cast<hipArray_t>(plain);
  hipSurfaceObject_t hip_surf = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&surf, &r),
              hipCreateSurfaceObject(&hip_surf, &hr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&surf, nullptr),
              hipCreateSurfaceObject(&hip_surf, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(nullptr, &r),
              hipCreateSurfaceObject(nullptr, &hr));
  // CUDA: surfaces are over arrays only.
  CUdeviceptr memory = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&memory, 256));
  CUDA_RESOURCE_DESC lin;
  std::memset(&lin, 0, sizeof(lin));
  lin.resType = CU_RESOURCE_TYPE_LINEAR;
  lin.res.linear.devPtr = memory;
  lin.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT32;
  lin.res.linear.numChannels = 1;
  lin.res.linear.sizeInBytes = 256;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfObjectCreate(&surf, &lin));
  EXPECT_EQ(surf, 0u);
  EXPECT_EQ(hip_surf, nullptr);

  r.res.array.hArray = ldst;
  ASSERT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&surf, &r));
  CUDA_RESOURCE_DESC got;
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectGetResourceDesc(&got, surf));
  EXPECT_EQ(got.resType, CU_RESOURCE_TYPE_ARRAY);
  EXPECT_EQ(got.res.array.hArray, ldst);
  hr.res.array.array = reinterpret_cast<hipArray_t>(ldst);
  ASSERT_HIP(hipSuccess, hipCreateSurfaceObject(&hip_surf, &hr));
  EXPECT_NE(reinterpret_cast<CUsurfObject>(hip_surf), surf);
  EXPECT_CU(CUDA_SUCCESS,
            cuSurfObjectGetResourceDesc(&got, reinterpret_cast<CUsurfObject>(hip_surf)));
  EXPECT_EQ(got.res.array.hArray, ldst);
  EXPECT_HIP(hipSuccess, hipDestroySurfaceObject(hip_surf));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(surf));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(ldst));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(plain));
}

}  // namespace
}  // namespace streamhal::conformance
