// Rows: mipmapped arrays (cuMipmappedArrayCreate/GetLevel/Destroy,
// hipMipmappedArrayCreate/GetLevel/Destroy, hipMallocMipmappedArray,
// hipGetMipmappedArrayLevel, hipFreeMipmappedArray) and texture objects over
// them (CU_RESOURCE_TYPE_MIPMAPPED_ARRAY). Each level is an array that
// copies reach; kernels sample levels with tex2DLod and filter between
// them, checked against the host.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using MipmappedArrayConformance = ContextTest;

// kSampleLodGlsl (conformance_kernels.h) through tex2DGrad: gradients of
// 2^k texels of level 0 pick level k.
const char kSampleGradGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sample_grad
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  float_ptr coords;
  float_ptr out_values;
  uint n;
  float width;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const float u = p.coords.v[3 * i], v = p.coords.v[3 * i + 1], level = p.coords.v[3 * i + 2];
  const float d = exp2(level) / p.width;
  p.out_values.v[i] = tex2DGrad(tex, u, v, vec2(d, 0.0), vec2(0.0, d)).x;
}
)";

constexpr unsigned kWidth = 16, kHeight = 8, kLevels = 5;

unsigned LevelExtent(unsigned extent, unsigned level) {
  const unsigned e = extent >> level;
  return e == 0 ? 1 : e;
}

// Level `level`'s texels: small integers, distinct per level.
std::vector<float> LevelTexels(unsigned level) {
  const unsigned w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
  std::vector<float> texels;
  for (unsigned y = 0; y < h; ++y) {
    for (unsigned x = 0; x < w; ++x)
      texels.push_back(static_cast<float>(level * 10 + (x * 3 + y * 5) % 7));
  }
  return texels;
}

// Nearest texel of `level` at normalised (u, v).
float Nearest(unsigned level, float u, float v) {
  const unsigned w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
  const unsigned x = static_cast<unsigned>(std::floor(u * w));
  const unsigned y = static_cast<unsigned>(std::floor(v * h));
  return LevelTexels(level)[y * w + x];
}

CUresult CopyLevel(CUarray level_array, std::vector<float>* texels, unsigned level, bool to_array) {
  const unsigned w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  if (to_array) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = texels->data();
    c.srcPitch = w * 4;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = level_array;
  } else {
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = level_array;
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = texels->data();
    c.dstPitch = w * 4;
  }
  c.WidthInBytes = w * 4;
  c.Height = h;
  return cuMemcpy2D(&c);
}

CUmipmappedArray MakeFilledMipmappedArray() {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  CUmipmappedArray mipmapped = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&mipmapped, &desc, kLevels));
  for (unsigned level = 0; level < kLevels; ++level) {
    CUarray array = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&array, mipmapped, level));
    std::vector<float> texels = LevelTexels(level);
    EXPECT_CU(CUDA_SUCCESS, CopyLevel(array, &texels, level, true));
  }
  return mipmapped;
}

struct MipSampling {
  CUfilter_mode mipmap_filter = CU_TR_FILTER_MODE_POINT;
  float bias = 0.0f;
  float min_clamp = 0.0f;
  float max_clamp = kLevels - 1;
};

CUtexObject MakeMipmappedTexture(CUmipmappedArray mipmapped, const MipSampling& s,
                                 const CUDA_RESOURCE_VIEW_DESC* view = nullptr) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  r.res.mipmap.hMipmappedArray = mipmapped;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  t.filterMode = CU_TR_FILTER_MODE_POINT;
  t.flags = CU_TRSF_NORMALIZED_COORDINATES;
  t.mipmapFilterMode = s.mipmap_filter;
  t.mipmapLevelBias = s.bias;
  t.minMipmapLevelClamp = s.min_clamp;
  t.maxMipmapLevelClamp = s.max_clamp;
  CUtexObject tex = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, view));
  return tex;
}

// Runs `f` (sample_lod or sample_grad) over (u, v, level) triples.
std::vector<float> Sample(CUfunction f, CUtexObject tex, const std::vector<float>& coords) {
  const unsigned n = static_cast<unsigned>(coords.size() / 3);
  CUdeviceptr d_coords = 0, d_out = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * 4));
  float width = kWidth;
  void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n), &width};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> out(n, -1.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(out.data(), d_out, n * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  return out;
}

// Texel centres of level 0 (never on an edge of any level's texels, so
// point samples are unambiguous), each at `level`.
std::vector<float> Coords(float level) {
  std::vector<float> coords;
  for (unsigned y = 0; y < kHeight; ++y) {
    for (unsigned x = 0; x < kWidth; ++x) {
      coords.push_back((x + 0.5f) / kWidth);
      coords.push_back((y + 0.5f) / kHeight);
      coords.push_back(level);
    }
  }
  return coords;
}

// The host's answer: the nearest texel of the level (point mipmap
// filtering rounds the level), or the blend of two levels.
float HostLod(float u, float v, float level, const MipSampling& s) {
  level = std::fmin(std::fmax(level + s.bias, s.min_clamp), s.max_clamp);
  if (s.mipmap_filter == CU_TR_FILTER_MODE_POINT) {
    return Nearest(static_cast<unsigned>(std::floor(level + 0.5f)), u, v);
  }
  const unsigned lower = static_cast<unsigned>(std::floor(level));
  const float frac = level - lower;
  if (frac == 0.0f) return Nearest(lower, u, v);
  return (1 - frac) * Nearest(lower, u, v) + frac * Nearest(lower + 1, u, v);
}

void ExpectSamples(const std::vector<float>& got, const std::vector<float>& coords,
                   const MipSampling& s) {
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const float want = HostLod(coords[3 * i], coords[3 * i + 1], coords[3 * i + 2], s);
    if (std::fabs(got[i] - want) > 1e-5f && ++wrong <= 5) {
      ADD_FAILURE() << "at (" << coords[3 * i] << ", " << coords[3 * i + 1] << ") level "
                    << coords[3 * i + 2] << ": got " << got[i] << ", want " << want;
    }
  }
  EXPECT_EQ(wrong, 0) << "of " << got.size();
}

TEST_F(MipmappedArrayConformance, LevelsAreArraysOfHalvedExtents) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 2;
  desc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUmipmappedArray mipmapped = nullptr;
  // CUDA clamps the level count to 1 + floor(log2(16)) = 5.
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&mipmapped, &desc, 12));
  for (unsigned level = 0; level < kLevels; ++level) {
    CUarray array = nullptr, again = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&array, mipmapped, level));
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&again, mipmapped, level));
    EXPECT_EQ(array, again) << "a level is one array";
    CUDA_ARRAY3D_DESCRIPTOR got = {};
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&got, array));
    EXPECT_EQ(got.Width, LevelExtent(kWidth, level));
    EXPECT_EQ(got.Height, LevelExtent(kHeight, level));
    EXPECT_EQ(got.Depth, 0u);
    EXPECT_EQ(got.Format, CU_AD_FORMAT_FLOAT);
    EXPECT_EQ(got.NumChannels, 2u);
    EXPECT_EQ(got.Flags, static_cast<unsigned>(CUDA_ARRAY3D_SURFACE_LDST));
  }
  CUarray level = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&level, mipmapped, kLevels));
  EXPECT_EQ(level, nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

// Each level takes and gives back its own texels, through cuMemcpy2D,
// cuMemcpy3D and the 1-D copies, without touching the other levels.
TEST_F(MipmappedArrayConformance, CopiesReachEachLevel) {
  CUmipmappedArray mipmapped = MakeFilledMipmappedArray();
  ASSERT_NE(mipmapped, nullptr);
  for (unsigned level = 0; level < kLevels; ++level) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    CUarray array = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&array, mipmapped, level));
    std::vector<float> got(LevelTexels(level).size(), -1.0f);
    ASSERT_CU(CUDA_SUCCESS, CopyLevel(array, &got, level, false));
    EXPECT_EQ(got, LevelTexels(level));
    // cuMemcpy3D out of the level into device memory, then back to host.
    const unsigned w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
    CUdeviceptr device = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, w * h * 4));
    CUDA_MEMCPY3D c;
    std::memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = array;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = device;
    c.dstPitch = w * 4;
    c.dstHeight = h;
    c.WidthInBytes = w * 4;
    c.Height = h;
    c.Depth = 1;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&c));
    std::vector<float> via_device(w * h, -1.0f);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(via_device.data(), device, w * h * 4));
    EXPECT_EQ(via_device, LevelTexels(level));
    ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
  // The 1-D copies: the first row of level 1, written and read back; the
  // other levels keep their texels.
  CUarray one = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&one, mipmapped, 1));
  const std::vector<float> row = {-1, -2, -3, -4, -5, -6, -7, -8};
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(one, 0, row.data(), row.size() * 4));
  std::vector<float> row_back(row.size());
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(row_back.data(), one, 0, row.size() * 4));
  EXPECT_EQ(row_back, row);
  CUarray zero = nullptr, two = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&zero, mipmapped, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&two, mipmapped, 2));
  std::vector<float> level0(LevelTexels(0).size()), level2(LevelTexels(2).size());
  ASSERT_CU(CUDA_SUCCESS, CopyLevel(zero, &level0, 0, false));
  ASSERT_CU(CUDA_SUCCESS, CopyLevel(two, &level2, 2, false));
  EXPECT_EQ(level0, LevelTexels(0));
  EXPECT_EQ(level2, LevelTexels(2));
  // Level to level (cuMemcpyAtoA): level 2's first row into level 1's.
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoA(one, 0, two, 0, 4 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAtoH(row_back.data(), one, 0, 4 * 4));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(row_back[i], LevelTexels(2)[i]);
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

TEST_F(MipmappedArrayConformance, Tex2DLodSamplesEachLevelAsTheHostDoes) {
  CUmipmappedArray mipmapped = MakeFilledMipmappedArray();
  ASSERT_NE(mipmapped, nullptr);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  const MipSampling point;
  CUtexObject tex = MakeMipmappedTexture(mipmapped, point);
  for (unsigned level = 0; level < kLevels; ++level) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    const std::vector<float> coords = Coords(static_cast<float>(level));
    ExpectSamples(Sample(f, tex, coords), coords, point);
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

TEST_F(MipmappedArrayConformance, LinearMipmapFilteringBlendsTwoLevels) {
  CUmipmappedArray mipmapped = MakeFilledMipmappedArray();
  ASSERT_NE(mipmapped, nullptr);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  MipSampling linear;
  linear.mipmap_filter = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject tex = MakeMipmappedTexture(mipmapped, linear);
  for (const float level : {0.5f, 1.25f, 2.75f, 3.5f}) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    const std::vector<float> coords = Coords(level);
    ExpectSamples(Sample(f, tex, coords), coords, linear);
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

// CUDA_TEXTURE_DESC's level bias and clamps, a resource view's first and
// last level, and tex2DGrad picking the level from gradients.
TEST_F(MipmappedArrayConformance, BiasClampsViewsAndGradientsPickTheLevel) {
  CUmipmappedArray mipmapped = MakeFilledMipmappedArray();
  ASSERT_NE(mipmapped, nullptr);
  CUmodule module = nullptr, grad_module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  CUfunction grad = LoadCudaKernel(kSampleGradGlsl, "sample_grad", &grad_module);
  ASSERT_NE(f, nullptr);
  ASSERT_NE(grad, nullptr);
  MipSampling biased;
  biased.bias = 1.0f;
  biased.min_clamp = 0.0f;
  biased.max_clamp = 2.0f;
  CUtexObject tex = MakeMipmappedTexture(mipmapped, biased);
  for (const float level : {0.0f, 1.0f, 3.0f}) {
    SCOPED_TRACE(testing::Message() << "biased, level " << level);
    const std::vector<float> coords = Coords(level);
    ExpectSamples(Sample(f, tex, coords), coords, biased);
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));

  // A view of levels 1..2: its level 0 is the array's level 1.
  CUDA_RESOURCE_VIEW_DESC view;
  std::memset(&view, 0, sizeof(view));
  view.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
  view.width = LevelExtent(kWidth, 1);
  view.height = LevelExtent(kHeight, 1);
  view.firstMipmapLevel = 1;
  view.lastMipmapLevel = 2;
  MipSampling two_levels;
  two_levels.max_clamp = 1.0f;
  CUtexObject viewed = MakeMipmappedTexture(mipmapped, two_levels, &view);
  for (const float level : {0.0f, 1.0f}) {
    SCOPED_TRACE(testing::Message() << "view, level " << level);
    const std::vector<float> coords = Coords(level);
    const std::vector<float> got = Sample(f, viewed, coords);
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i], Nearest(static_cast<unsigned>(level) + 1, coords[3 * i], coords[3 * i + 1]))
          << "sample " << i;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(viewed));

  const MipSampling point;
  CUtexObject plain = MakeMipmappedTexture(mipmapped, point);
  for (const float level : {0.0f, 1.0f, 2.0f, 3.0f}) {
    SCOPED_TRACE(testing::Message() << "gradients of level " << level);
    const std::vector<float> coords = Coords(level);
    ExpectSamples(Sample(grad, plain, coords), coords, point);
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(plain));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(grad_module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

// 1-D and 3-D mipmapped arrays: levels copied with cuMemcpy3D and sampled
// with tex1DLod and tex3DLod at each level's texel centres.
const char kSample1D3DGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sample_1d_3d
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler1D line;
layout(set = 2, binding = 1) uniform sampler3D volume;
layout(push_constant) uniform Params {
  uint64_t line;
  uint64_t volume;
  float_ptr from_line;
  float_ptr from_volume;
  uint level;
} p;
void main() {
  // One thread per texel of the level: x, y, z in the level's extent.
  const uint size = 8u >> p.level;
  const uint x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x >= size || y >= size || z >= size) return;
  const float s = float(size);
  const uint i = (z * size + y) * size + x;
  p.from_volume.v[i] = tex3DLod(volume, (x + 0.5) / s, (y + 0.5) / s, (z + 0.5) / s, p.level).x;
  if (y == 0 && z == 0) p.from_line.v[x] = tex1DLod(line, (x + 0.5) / s, p.level).x;
}
)";

TEST_F(MipmappedArrayConformance, OneAndThreeDimensionalLevelsSampleWithLod) {
  constexpr unsigned kSize = 8, kVolumeLevels = 4;
  CUDA_ARRAY3D_DESCRIPTOR line_desc = {};
  line_desc.Width = kSize;
  line_desc.Format = CU_AD_FORMAT_FLOAT;
  line_desc.NumChannels = 1;
  CUDA_ARRAY3D_DESCRIPTOR volume_desc = line_desc;
  volume_desc.Height = kSize;
  volume_desc.Depth = kSize;
  CUmipmappedArray line = nullptr, volume = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&line, &line_desc, kVolumeLevels));
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&volume, &volume_desc, kVolumeLevels));
  auto value = [](unsigned level, unsigned i) {
    return static_cast<float>(level * 1000 + (i * 7) % 97);
  };
  for (unsigned level = 0; level < kVolumeLevels; ++level) {
    const unsigned size = kSize >> level;
    CUarray line_level = nullptr, volume_level = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&line_level, line, level));
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&volume_level, volume, level));
    CUDA_ARRAY3D_DESCRIPTOR got = {};
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&got, volume_level));
    EXPECT_EQ(got.Depth, size);
    std::vector<float> texels(size * size * size);
    for (unsigned i = 0; i < texels.size(); ++i) texels[i] = value(level, i);
    CUDA_MEMCPY3D c;
    std::memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = texels.data();
    c.srcPitch = size * 4;
    c.srcHeight = size;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = volume_level;
    c.WidthInBytes = size * 4;
    c.Height = size;
    c.Depth = size;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&c));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoA(line_level, 0, texels.data(), size * 4));
  }
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.flags = CU_TRSF_NORMALIZED_COORDINATES;
  t.maxMipmapLevelClamp = kVolumeLevels - 1;
  CUtexObject tex_line = 0, tex_volume = 0;
  r.res.mipmap.hMipmappedArray = line;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex_line, &r, &t, nullptr));
  r.res.mipmap.hMipmappedArray = volume;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex_volume, &r, &t, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSample1D3DGlsl, "sample_1d_3d", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr from_line = 0, from_volume = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&from_line, kSize * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&from_volume, kSize * kSize * kSize * 4));
  for (unsigned level = 0; level < kVolumeLevels; ++level) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    const unsigned size = kSize >> level;
    void* params[] = {&tex_line, &tex_volume, &from_line, &from_volume, &level};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(f, size, 1, 1, size, size, 1, 0, nullptr, params, nullptr));
    std::vector<float> got_line(size), got_volume(size * size * size);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_line.data(), from_line, size * 4));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_volume.data(), from_volume, got_volume.size() * 4));
    for (unsigned i = 0; i < got_volume.size(); ++i) {
      ASSERT_EQ(got_volume[i], value(level, i)) << "volume texel " << i;
    }
    for (unsigned i = 0; i < size; ++i) ASSERT_EQ(got_line[i], value(level, i)) << "texel " << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(from_line));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(from_volume));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_line));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_volume));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(line));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(volume));
}

// A texture over one level's array samples that level (tex2D reads the
// view's only level).
TEST_F(MipmappedArrayConformance, ATextureOverALevelSamplesThatLevel) {
  CUmipmappedArray mipmapped = MakeFilledMipmappedArray();
  ASSERT_NE(mipmapped, nullptr);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  CUarray level2 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&level2, mipmapped, 2));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = level2;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  const std::vector<float> coords = Coords(0.0f);
  const std::vector<float> got = Sample(f, tex, coords);
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], Nearest(2, coords[3 * i], coords[3 * i + 1])) << "sample " << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

TEST_F(MipmappedArrayConformance, BadInputIsRefusedAndLosesNothing) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  CUmipmappedArray mipmapped = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(nullptr, &desc, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&mipmapped, nullptr, 2));
  CUDA_ARRAY3D_DESCRIPTOR bad = desc;
  bad.Width = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&mipmapped, &bad, 2));
  bad = desc;
  bad.NumChannels = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&mipmapped, &bad, 2));
  bad = desc;
  bad.Flags = 0x4000;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayCreate(&mipmapped, &bad, 2));
  EXPECT_EQ(mipmapped, nullptr);

  // Zero levels are clamped to one, as CUDA documents.
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&mipmapped, &desc, 0));
  CUarray level = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&level, mipmapped, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&level, mipmapped, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(nullptr, mipmapped, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&level, nullptr, 0));
  // A level goes with its mipmapped array, not on its own.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuArrayDestroy(level));
  CUDA_ARRAY3D_DESCRIPTOR got = {};
  EXPECT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&got, level));
  // A texture whose view names levels the array lacks.
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  r.res.mipmap.hMipmappedArray = mipmapped;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.flags = CU_TRSF_NORMALIZED_COORDINATES;
  CUDA_RESOURCE_VIEW_DESC view;
  std::memset(&view, 0, sizeof(view));
  view.width = kWidth;
  view.height = kHeight;
  view.lastMipmapLevel = 1;
  CUtexObject tex = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &t, &view));
  // A NaN level bias.
  t.mipmapLevelBias = std::nanf("");
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &t, nullptr));
  t.mipmapLevelBias = 0.0f;
  EXPECT_EQ(tex, 0u);

  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
  // Destroyed: the mipmapped array, its level, and a texture made over it
  // before.
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(mipmapped));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayGetLevel(&level, mipmapped, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuArray3DGetDescriptor(&got, level));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexObjectCreate(&tex, &r, &t, nullptr));
  // A texture that outlived its mipmapped array (a caller error in CUDA)
  // is refused at launch.
  CUmipmappedArray gone = MakeFilledMipmappedArray();
  r.res.mipmap.hMipmappedArray = gone;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(gone));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr scratch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&scratch, 64));
  unsigned n = 1;
  float width = kWidth;
  void* params[] = {&tex, &scratch, &scratch, &n, &width};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(scratch));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The HIP forms: hipMallocMipmappedArray / hipGetMipmappedArrayLevel /
// hipFreeMipmappedArray and hipMipmappedArrayCreate / GetLevel / Destroy,
// sampled through hipCreateTextureObject.
TEST_F(MipmappedArrayConformance, HipFormsCreateFillAndSampleLevels) {
  hipMipmappedArray_t malloced = nullptr;
  const hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  ASSERT_HIP(hipSuccess, hipMallocMipmappedArray(&malloced, &channel, hipExtent{kWidth, kHeight, 0},
                                                 kLevels, 0));
  HIP_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = HIP_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  hipMipmappedArray_t created = nullptr;
  ASSERT_HIP(hipSuccess, hipMipmappedArrayCreate(&created, &desc, kLevels));
  for (unsigned level = 0; level < kLevels; ++level) {
    const unsigned w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
    const std::vector<float> texels = LevelTexels(level);
    hipArray_t a = nullptr, b = nullptr;
    ASSERT_HIP(hipSuccess, hipGetMipmappedArrayLevel(&a, malloced, level));
    ASSERT_HIP(hipSuccess, hipMipmappedArrayGetLevel(&b, created, level));
    ASSERT_HIP(hipSuccess,
               hipMemcpy2DToArray(a, 0, 0, texels.data(), w * 4, w * 4, h, hipMemcpyHostToDevice));
    ASSERT_HIP(hipSuccess,
               hipMemcpy2DToArray(b, 0, 0, texels.data(), w * 4, w * 4, h, hipMemcpyHostToDevice));
  }
  hipArray_t none = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipGetMipmappedArrayLevel(&none, malloced, kLevels));
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  MipSampling linear;
  linear.mipmap_filter = CU_TR_FILTER_MODE_LINEAR;
  const std::vector<float> coords = Coords(1.5f);
  const unsigned n = static_cast<unsigned>(coords.size() / 3);
  void* d_coords = nullptr;
  void* d_out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&d_coords, coords.size() * 4));
  ASSERT_HIP(hipSuccess, hipMalloc(&d_out, n * 4));
  ASSERT_HIP(hipSuccess,
             hipMemcpy(d_coords, coords.data(), coords.size() * 4, hipMemcpyHostToDevice));
  for (hipMipmappedArray_t mipmapped : {malloced, created}) {
    hipResourceDesc r;
    std::memset(&r, 0, sizeof(r));
    r.resType = hipResourceTypeMipmappedArray;
    r.res.mipmap.mipmap = mipmapped;
    hipTextureDesc t;
    std::memset(&t, 0, sizeof(t));
    t.addressMode[0] = t.addressMode[1] = hipAddressModeClamp;
    t.filterMode = hipFilterModePoint;
    t.readMode = hipReadModeElementType;
    t.normalizedCoords = 1;
    t.mipmapFilterMode = hipFilterModeLinear;
    t.maxMipmapLevelClamp = kLevels - 1;
    hipTextureObject_t tex = nullptr;
    ASSERT_HIP(hipSuccess, hipCreateTextureObject(&tex, &r, &t, nullptr));
    void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
    ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                                 params, nullptr));
    std::vector<float> got(n);
    ASSERT_HIP(hipSuccess, hipMemcpy(got.data(), d_out, n * 4, hipMemcpyDeviceToHost));
    ExpectSamples(got, coords, linear);
    EXPECT_HIP(hipSuccess, hipDestroyTextureObject(tex));
  }
  EXPECT_HIP(hipSuccess, hipFree(d_coords));
  EXPECT_HIP(hipSuccess, hipFree(d_out));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  EXPECT_HIP(hipSuccess, hipFreeMipmappedArray(malloced));
  EXPECT_HIP(hipSuccess, hipMipmappedArrayDestroy(created));
  EXPECT_HIP(hipErrorInvalidHandle, hipFreeMipmappedArray(malloced));
  EXPECT_HIP(hipErrorInvalidHandle, hipMipmappedArrayDestroy(created));
}

}  // namespace
}  // namespace streamhal::conformance
