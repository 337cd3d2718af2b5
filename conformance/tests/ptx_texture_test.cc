// Row cuModuleLoadData (PTX): nvcc's texture fetches (tex.2d, tex.1d of
// linear memory, integer texels) on texture objects passed as kernel
// parameters, translated to kernel ABI v2 bindings, including a handle
// chosen between two parameters with selp and one passed on to a device
// function (conformance/ptx_corpus/texture_fetch.cu). Every value a kernel
// reads is checked against the host's sampling on lavapipe.
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using PtxTextureConformance = ContextTest;

constexpr int kWidth = 7;
constexpr int kHeight = 5;

float TexelValue(int x, int y, float scale) {
  return scale * static_cast<float>((x * 5 + y * 3) % 13);
}

// A kWidth x kHeight float array holding TexelValue(x, y, scale), and a
// texture object over it (clamped, bilinear, texel coordinates).
struct FloatTexture {
  CUarray array = nullptr;
  CUtexObject texture = 0;
};

FloatTexture MakeFloatTexture(float scale) {
  FloatTexture t;
  CUDA_ARRAY_DESCRIPTOR desc = {kWidth, kHeight, CU_AD_FORMAT_FLOAT, 1};
  EXPECT_CU(CUDA_SUCCESS, cuArrayCreate(&t.array, &desc));
  std::vector<float> texels;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) texels.push_back(TexelValue(x, y, scale));
  }
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = kWidth * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = t.array;
  c.WidthInBytes = kWidth * sizeof(float);
  c.Height = kHeight;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = t.array;
  CUDA_TEXTURE_DESC d;
  std::memset(&d, 0, sizeof(d));
  d.addressMode[0] = d.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  d.filterMode = CU_TR_FILTER_MODE_LINEAR;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&t.texture, &r, &d, nullptr));
  return t;
}

void Destroy(const FloatTexture& t) {
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(t.texture));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(t.array));
}

// The host's clamped bilinear tex2D in texel coordinates.
float HostBilinear(float x, float y, float scale) {
  auto at = [&](int i, int j) {
    return TexelValue(std::clamp(i, 0, kWidth - 1), std::clamp(j, 0, kHeight - 1), scale);
  };
  const float xb = x - 0.5f, yb = y - 0.5f;
  const int x0 = static_cast<int>(std::floor(xb)), y0 = static_cast<int>(std::floor(yb));
  const float a = xb - std::floor(xb), b = yb - std::floor(yb);
  return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) +
         (1 - a) * b * at(x0, y0 + 1) + a * b * at(x0 + 1, y0 + 1);
}

// Coordinates in and around the texture at odd eighths.
std::vector<float> Coordinates() {
  std::vector<float> coords;
  for (float y = -1.375f; y <= kHeight + 1.5f; y += 0.75f) {
    for (float x = -1.625f; x <= kWidth + 1.5f; x += 0.75f) {
      coords.push_back(x);
      coords.push_back(y);
    }
  }
  return coords;
}

// Runs `kernel` (tex_sample or tex_through_call) over Coordinates().
void ExpectSamples(const char* kernel) {
  SCOPED_TRACE(kernel);
  const FloatTexture t = MakeFloatTexture(1.0f);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(PtxTextureFetch(), kernel, &module);
  ASSERT_NE(f, nullptr);
  const std::vector<float> coords = Coordinates();
  int n = static_cast<int>(coords.size() / 2);
  CUdeviceptr d_coords = CudaUpload(coords), d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  CUtexObject texture = t.texture;
  void* params[] = {&texture, &d_coords, &d_out, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i], HostBilinear(coords[2 * i], coords[2 * i + 1], 1.0f), 1e-5f)
        << "sample " << i << " at (" << coords[2 * i] << ", " << coords[2 * i + 1] << ")";
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  Destroy(t);
}

TEST_F(PtxTextureConformance, Tex2DSamplesATextureParameterBilinearly) {
  ExpectSamples("tex_sample");
}

TEST_F(PtxTextureConformance, DeviceFunctionSamplesTheTextureItIsPassed) {
  ExpectSamples("tex_through_call");
}

TEST_F(PtxTextureConformance, HandleChosenBetweenTwoParametersSamplesTheChosenOne) {
  const FloatTexture a = MakeFloatTexture(1.0f), b = MakeFloatTexture(-2.0f);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(PtxTextureFetch(), "tex_choose", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<float> coords = Coordinates();
  int n = static_cast<int>(coords.size() / 2);
  std::vector<int> which(n);
  for (int i = 0; i < n; ++i) which[i] = (i * 7 / 3) % 2;
  CUdeviceptr d_coords = CudaUpload(coords), d_which = CudaUpload(which), d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  CUtexObject ta = a.texture, tb = b.texture;
  void* params[] = {&ta, &tb, &d_which, &d_coords, &d_out, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (int i = 0; i < n; ++i) {
    const float want = HostBilinear(coords[2 * i], coords[2 * i + 1], which[i] ? -2.0f : 1.0f);
    ASSERT_NEAR(got[i], want, 1e-5f) << "sample " << i << " of texture " << (which[i] ? "b" : "a");
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_which));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  Destroy(a);
  Destroy(b);
}

TEST_F(PtxTextureConformance, Tex1DfetchReadsLinearMemory) {
  std::vector<float> values(300);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.25f - 9.0f;
  CUdeviceptr memory = CudaUpload(values), d_out = 0;
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_LINEAR;
  r.res.linear.devPtr = memory;
  r.res.linear.format = CU_AD_FORMAT_FLOAT;
  r.res.linear.numChannels = 1;
  r.res.linear.sizeInBytes = values.size() * sizeof(float);
  CUDA_TEXTURE_DESC d;
  std::memset(&d, 0, sizeof(d));
  CUtexObject texture = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&texture, &r, &d, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(PtxTextureFetch(), "tex_fetch", &module);
  ASSERT_NE(f, nullptr);
  int first = 17, n = 256;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  void* params[] = {&texture, &d_out, &first, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], values[first + i]) << "texel " << first + i;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(texture));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxTextureConformance, IntegerTexelsReadAsIntegers) {
  constexpr int kW = 9, kH = 4;
  CUDA_ARRAY_DESCRIPTOR desc = {kW, kH, CU_AD_FORMAT_UNSIGNED_INT8, 4};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  std::vector<uint8_t> texels;
  for (int i = 0; i < kW * kH * 4; ++i) texels.push_back(static_cast<uint8_t>(i * 37 + 11));
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = kW * 4;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = array;
  c.WidthInBytes = kW * 4;
  c.Height = kH;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  CUDA_TEXTURE_DESC d;
  std::memset(&d, 0, sizeof(d));
  d.flags = CU_TRSF_READ_AS_INTEGER;
  CUtexObject texture = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&texture, &r, &d, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(PtxTextureFetch(), "tex_uint", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, kW * kH * 4));
  int width = kW, height = kH;
  void* params[] = {&texture, &d_out, &width, &height};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, kH, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<uint32_t> got = CudaDownload<uint32_t>(d_out, kW * kH);
  for (int i = 0; i < kW * kH; ++i) {
    uint32_t want = 0;
    std::memcpy(&want, &texels[i * 4], 4);
    ASSERT_EQ(got[i], want) << "texel " << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(texture));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

}  // namespace
}  // namespace streamhal::conformance
