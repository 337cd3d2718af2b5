// Rows: kernels that bind textures over pitched 2-D memory
// (cuTexObjectCreate / hipCreateTextureObject with CU_RESOURCE_TYPE_PITCH2D /
// hipResourceTypePitch2D), and border colours of any value. A kernel
// declares a sampler2D as for an array; each launch copies the pitched
// region into an image of the texture object's before its dispatch
// (docs/kernel-abi.md), so the kernel sees the memory as it is when the
// launch runs. Every value read is checked against the host.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using PitchedTextureConformance = ContextTest;

// A 5-point stencil (the texel and its four neighbours, averaged) read
// through a 2-D texture at texel centres; clamped addressing does the
// edges.
const char kStencilGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME stencil
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  float_ptr out_values;
  uint width;
  uint height;
} p;
void main() {
  const uint x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= p.width || y >= p.height) return;
  const float u = x + 0.5, v = y + 0.5;
  p.out_values.v[y * p.width + x] =
      0.2 * (tex2D(tex, u, v).x + tex2D(tex, u - 1.0, v).x + tex2D(tex, u + 1.0, v).x +
             tex2D(tex, u, v - 1.0).x + tex2D(tex, u, v + 1.0).x);
}
)";

// Samples a float texture at n coordinate pairs.
const char kSampleGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sample_2d
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  float_ptr coords;
  float_ptr out_values;
  uint n;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.out_values.v[i] = tex2D(tex, p.coords.v[2 * i], p.coords.v[2 * i + 1]).x;
}
)";

constexpr unsigned kWidth = 37, kHeight = 19;

// Small integers, so that every average and bilinear weight is exact
// enough for 1e-5.
std::vector<float> MakeTexels(unsigned width, unsigned height, int seed) {
  std::vector<float> texels;
  for (unsigned y = 0; y < height; ++y) {
    for (unsigned x = 0; x < width; ++x) {
      texels.push_back(static_cast<float>((x * 7 + y * 3 + static_cast<unsigned>(seed)) % 13));
    }
  }
  return texels;
}

float At(const std::vector<float>& t, int x, int y, unsigned width, unsigned height) {
  x = std::clamp(x, 0, static_cast<int>(width) - 1);
  y = std::clamp(y, 0, static_cast<int>(height) - 1);
  return t[static_cast<size_t>(y) * width + x];
}

std::vector<float> HostStencil(const std::vector<float>& t, unsigned width, unsigned height) {
  std::vector<float> out;
  for (int y = 0; y < static_cast<int>(height); ++y) {
    for (int x = 0; x < static_cast<int>(width); ++x) {
      out.push_back(0.2f * (At(t, x, y, width, height) + At(t, x - 1, y, width, height) +
                            At(t, x + 1, y, width, height) + At(t, x, y - 1, width, height) +
                            At(t, x, y + 1, width, height)));
    }
  }
  return out;
}

// Bilinear with CUDA's half-texel shift; clamp, or border with `border`.
float HostBilinear(const std::vector<float>& t, unsigned width, unsigned height, float u, float v,
                   bool border, float border_value) {
  auto texel = [&](int x, int y) {
    if (border && (x < 0 || y < 0 || x >= static_cast<int>(width) || y >= static_cast<int>(height)))
      return border_value;
    return At(t, x, y, width, height);
  };
  const float xb = u - 0.5f, yb = v - 0.5f;
  const int x0 = static_cast<int>(std::floor(xb)), y0 = static_cast<int>(std::floor(yb));
  const float a = xb - std::floor(xb), b = yb - std::floor(yb);
  return (1 - a) * (1 - b) * texel(x0, y0) + a * (1 - b) * texel(x0 + 1, y0) +
         (1 - a) * b * texel(x0, y0 + 1) + a * b * texel(x0 + 1, y0 + 1);
}

// Pitched memory from cuMemAllocPitch holding `texels` (packed rows).
CUdeviceptr MakePitched(const std::vector<float>& texels, unsigned width, unsigned height,
                        size_t* pitch) {
  CUdeviceptr memory = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAllocPitch(&memory, pitch, width * 4, height, 4));
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = width * 4;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = memory;
  c.dstPitch = *pitch;
  c.WidthInBytes = width * 4;
  c.Height = height;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  return memory;
}

// Copies `texels` (packed rows) into all of a 2-D array.
CUresult UploadArray(CUarray array, const std::vector<float>& texels, unsigned width,
                     unsigned height) {
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = width * 4;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = array;
  c.WidthInBytes = width * 4;
  c.Height = height;
  return cuMemcpy2D(&c);
}

CUtexObject MakePitchedTexture(CUdeviceptr memory, size_t pitch, unsigned width, unsigned height,
                               CUaddress_mode mode, CUfilter_mode filter, float border = 0.0f) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_PITCH2D;
  r.res.pitch2D.devPtr = memory;
  r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
  r.res.pitch2D.numChannels = 1;
  r.res.pitch2D.width = width;
  r.res.pitch2D.height = height;
  r.res.pitch2D.pitchInBytes = pitch;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = mode;
  t.filterMode = filter;
  for (float& c : t.borderColor) c = border;
  CUtexObject tex = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  return tex;
}

std::vector<float> RunStencil(CUfunction f, CUtexObject tex, unsigned width, unsigned height,
                              CUstream stream = nullptr) {
  CUdeviceptr out = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&out, width * height * 4));
  void* params[] = {&tex, &out, &width, &height};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (width + 31) / 32, height, 1, 32, 1, 1, 0, stream, params, nullptr));
  std::vector<float> got(width * height, -1.0f);
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), out, got.size() * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  return got;
}

void ExpectNear(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::fabs(got[i] - want[i]) > tolerance && ++wrong <= 5) {
      ADD_FAILURE() << "value " << i << ": got " << got[i] << ", want " << want[i];
    }
  }
  EXPECT_EQ(wrong, 0) << "of " << got.size();
}

TEST_F(PitchedTextureConformance, StencilThroughPitchedMemoryMatchesStencilThroughAnArray) {
  const std::vector<float> texels = MakeTexels(kWidth, kHeight, 0);
  size_t pitch = 0;
  CUdeviceptr memory = MakePitched(texels, kWidth, kHeight, &pitch);
  ASSERT_GT(pitch, kWidth * 4u) << "the test wants padded rows";
  CUtexObject pitched = MakePitchedTexture(memory, pitch, kWidth, kHeight, CU_TR_ADDRESS_MODE_CLAMP,
                                           CU_TR_FILTER_MODE_POINT);
  CUDA_ARRAY_DESCRIPTOR desc = {kWidth, kHeight, CU_AD_FORMAT_FLOAT, 1};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  ASSERT_CU(CUDA_SUCCESS, UploadArray(array, texels, kWidth, kHeight));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  CUtexObject over_array = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&over_array, &r, &t, nullptr));

  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kStencilGlsl, "stencil", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<float> from_pitched = RunStencil(f, pitched, kWidth, kHeight);
  const std::vector<float> from_array = RunStencil(f, over_array, kWidth, kHeight);
  EXPECT_EQ(from_pitched, from_array);
  ExpectNear(from_pitched, HostStencil(texels, kWidth, kHeight), 1e-5f);

  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(pitched));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(over_array));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
}

TEST_F(PitchedTextureConformance, BilinearSamplingOfPitchedMemoryMatchesTheHost) {
  const std::vector<float> texels = MakeTexels(kWidth, kHeight, 5);
  size_t pitch = 0;
  CUdeviceptr memory = MakePitched(texels, kWidth, kHeight, &pitch);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  // In and around the texture, at odd eighths (exact bilinear weights).
  std::vector<float> coords;
  for (float y = -1.625f; y <= kHeight + 1.5f; y += 0.75f) {
    for (float x = -2.125f; x <= kWidth + 2.0f; x += 0.75f) {
      coords.push_back(x);
      coords.push_back(y);
    }
  }
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = 0, d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * 4));
  for (const bool border : {false, true}) {
    SCOPED_TRACE(border ? "border" : "clamp");
    CUtexObject tex =
        MakePitchedTexture(memory, pitch, kWidth, kHeight,
                           border ? CU_TR_ADDRESS_MODE_BORDER : CU_TR_ADDRESS_MODE_CLAMP,
                           CU_TR_FILTER_MODE_LINEAR, 1.0f);
    void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
    std::vector<float> got(n);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, n * 4));
    std::vector<float> want;
    for (unsigned i = 0; i < n; ++i) {
      want.push_back(
          HostBilinear(texels, kWidth, kHeight, coords[2 * i], coords[2 * i + 1], border, 1.0f));
    }
    ExpectNear(got, want, 1e-5f);
    EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
}

// The kernel samples the memory as it is when the launch runs: after a
// write in stream order, and after the memory was freed the launch is
// refused.
TEST_F(PitchedTextureConformance, EachLaunchSeesWhatTheMemoryHoldsThen) {
  const std::vector<float> first = MakeTexels(kWidth, kHeight, 1);
  const std::vector<float> second = MakeTexels(kWidth, kHeight, 8);
  size_t pitch = 0;
  CUdeviceptr memory = MakePitched(first, kWidth, kHeight, &pitch);
  CUtexObject tex = MakePitchedTexture(memory, pitch, kWidth, kHeight, CU_TR_ADDRESS_MODE_CLAMP,
                                       CU_TR_FILTER_MODE_POINT);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kStencilGlsl, "stencil", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr out_a = 0, out_b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out_a, kWidth * kHeight * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out_b, kWidth * kHeight * 4));
  unsigned width = kWidth, height = kHeight;
  // Two launches with a write between them, all in one stream's batch.
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  void* params_a[] = {&tex, &out_a, &width, &height};
  void* params_b[] = {&tex, &out_b, &width, &height};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0, stream,
                                         params_a, nullptr));
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = second.data();
  c.srcPitch = kWidth * 4;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = memory;
  c.dstPitch = pitch;
  c.WidthInBytes = kWidth * 4;
  c.Height = kHeight;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&c, stream));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0, stream,
                                         params_b, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<float> got_a(kWidth * kHeight), got_b(kWidth * kHeight);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_a.data(), out_a, got_a.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_b.data(), out_b, got_b.size() * 4));
  ExpectNear(got_a, HostStencil(first, kWidth, kHeight), 1e-5f);
  ExpectNear(got_b, HostStencil(second, kWidth, kHeight), 1e-5f);
  // Launches on two streams that may run at once: each takes an image of
  // its own from the texture object's pool.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out_a, 0, kWidth * kHeight));
  CUstream other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&other, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0, stream,
                                         params_a, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0, other,
                                         params_b, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_a.data(), out_a, got_a.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_b.data(), out_b, got_b.size() * 4));
  ExpectNear(got_a, HostStencil(second, kWidth, kHeight), 1e-5f);
  ExpectNear(got_b, HostStencil(second, kWidth, kHeight), 1e-5f);
  // Freed memory: the launch is refused and nothing runs.
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0,
                                                     stream, params_a, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(other));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out_a));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out_b));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// Graphs: a captured launch and an explicit kernel node each copy the
// memory when the graph runs, so a later run sees later writes.
TEST_F(PitchedTextureConformance, GraphsCopyThePitchedMemoryAtEachRun) {
  const std::vector<float> first = MakeTexels(kWidth, kHeight, 2);
  const std::vector<float> second = MakeTexels(kWidth, kHeight, 9);
  size_t pitch = 0;
  CUdeviceptr memory = MakePitched(first, kWidth, kHeight, &pitch);
  CUtexObject tex = MakePitchedTexture(memory, pitch, kWidth, kHeight, CU_TR_ADDRESS_MODE_CLAMP,
                                       CU_TR_FILTER_MODE_POINT);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kStencilGlsl, "stencil", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr out_captured = 0, out_node = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out_captured, kWidth * kHeight * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out_node, kWidth * kHeight * 4));
  unsigned width = kWidth, height = kHeight;
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  // Captured.
  void* captured_params[] = {&tex, &out_captured, &width, &height};
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0, stream,
                                         captured_params, nullptr));
  CUgraph captured = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &captured));
  // An explicit kernel node.
  CUgraph built = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&built, 0));
  void* node_params[] = {&tex, &out_node, &width, &height};
  CUDA_KERNEL_NODE_PARAMS k;
  std::memset(&k, 0, sizeof(k));
  k.func = f;
  k.gridDimX = (kWidth + 31) / 32;
  k.gridDimY = kHeight;
  k.gridDimZ = 1;
  k.blockDimX = 32;
  k.blockDimY = 1;
  k.blockDimZ = 1;
  k.kernelParams = node_params;
  CUgraphNode node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&node, built, nullptr, 0, &k));
  CUgraphExec captured_exec = nullptr, built_exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&captured_exec, captured, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&built_exec, built, 0));

  std::vector<float> got(kWidth * kHeight);
  for (const std::vector<float>* texels : {&first, &second}) {
    SCOPED_TRACE(texels == &first ? "first run" : "second run");
    CUDA_MEMCPY2D c;
    std::memset(&c, 0, sizeof(c));
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = texels->data();
    c.srcPitch = kWidth * 4;
    c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c.dstDevice = memory;
    c.dstPitch = pitch;
    c.WidthInBytes = kWidth * 4;
    c.Height = kHeight;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(captured_exec, stream));
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(built_exec, stream));
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
    const std::vector<float> want = HostStencil(*texels, kWidth, kHeight);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), out_captured, got.size() * 4));
    ExpectNear(got, want, 1e-5f);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), out_node, got.size() * 4));
    ExpectNear(got, want, 1e-5f);
  }
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(captured_exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(built_exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(captured));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(built));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out_captured));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out_node));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// The HIP form: hipMallocPitch and a hipResourceTypePitch2D texture.
TEST_F(PitchedTextureConformance, HipKernelsSamplePitchedMemory) {
  const std::vector<float> texels = MakeTexels(kWidth, kHeight, 4);
  void* memory = nullptr;
  size_t pitch = 0;
  ASSERT_HIP(hipSuccess, hipMallocPitch(&memory, &pitch, kWidth * 4, kHeight));
  ASSERT_HIP(hipSuccess, hipMemcpy2D(memory, pitch, texels.data(), kWidth * 4, kWidth * 4, kHeight,
                                     hipMemcpyHostToDevice));
  hipResourceDesc r;
  std::memset(&r, 0, sizeof(r));
  r.resType = hipResourceTypePitch2D;
  r.res.pitch2D.devPtr = memory;
  r.res.pitch2D.desc = {32, 0, 0, 0, hipChannelFormatKindFloat};
  r.res.pitch2D.width = kWidth;
  r.res.pitch2D.height = kHeight;
  r.res.pitch2D.pitchInBytes = pitch;
  hipTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = hipAddressModeClamp;
  t.filterMode = hipFilterModePoint;
  t.readMode = hipReadModeElementType;
  hipTextureObject_t tex = nullptr;
  ASSERT_HIP(hipSuccess, hipCreateTextureObject(&tex, &r, &t, nullptr));
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kStencilGlsl, "stencil", &module);
  ASSERT_NE(f, nullptr);
  void* out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&out, kWidth * kHeight * 4));
  unsigned width = kWidth, height = kHeight;
  void* params[] = {&tex, &out, &width, &height};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(f, (kWidth + 31) / 32, kHeight, 1, 32, 1, 1, 0,
                                               nullptr, params, nullptr));
  std::vector<float> got(kWidth * kHeight);
  ASSERT_HIP(hipSuccess, hipMemcpy(got.data(), out, got.size() * 4, hipMemcpyDeviceToHost));
  ExpectNear(got, HostStencil(texels, kWidth, kHeight), 1e-5f);
  EXPECT_HIP(hipSuccess, hipDestroyTextureObject(tex));
  EXPECT_HIP(hipSuccess, hipFree(out));
  EXPECT_HIP(hipSuccess, hipFree(memory));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

// Border colours other than Vulkan's three come from
// VK_EXT_custom_border_color, which lavapipe has.
TEST_F(PitchedTextureConformance, AnyBorderColourIsSampled) {
  const std::vector<float> texels = MakeTexels(8, 4, 3);
  CUDA_ARRAY_DESCRIPTOR desc = {8, 4, CU_AD_FORMAT_FLOAT, 1};
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArrayCreate(&array, &desc));
  ASSERT_CU(CUDA_SUCCESS, UploadArray(array, texels, 8, 4));
  size_t pitch = 0;
  CUdeviceptr memory = MakePitched(texels, 8, 4, &pitch);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  // Outside on every side, inside, and half-way across the left edge.
  const std::vector<float> coords = {-3.5f, 1.5f, 10.5f, 2.5f, 4.5f,  -0.5f,
                                     2.5f,  7.5f, 3.5f,  1.5f, 0.25f, 1.5f};
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = 0, d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * 4));
  for (const bool pitched : {false, true}) {
    SCOPED_TRACE(pitched ? "pitched" : "array");
    CUDA_RESOURCE_DESC r;
    std::memset(&r, 0, sizeof(r));
    if (pitched) {
      r.resType = CU_RESOURCE_TYPE_PITCH2D;
      r.res.pitch2D.devPtr = memory;
      r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
      r.res.pitch2D.numChannels = 1;
      r.res.pitch2D.width = 8;
      r.res.pitch2D.height = 4;
      r.res.pitch2D.pitchInBytes = pitch;
    } else {
      r.resType = CU_RESOURCE_TYPE_ARRAY;
      r.res.array.hArray = array;
    }
    CUDA_TEXTURE_DESC t;
    std::memset(&t, 0, sizeof(t));
    t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
    t.filterMode = CU_TR_FILTER_MODE_LINEAR;
    t.borderColor[0] = 0.375f;
    t.borderColor[1] = 2.0f;
    t.borderColor[2] = -1.0f;
    t.borderColor[3] = 0.5f;
    CUtexObject tex = 0;
    ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
    void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
    std::vector<float> got(n);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, n * 4));
    std::vector<float> want;
    for (unsigned i = 0; i < n; ++i) {
      want.push_back(HostBilinear(texels, 8, 4, coords[2 * i], coords[2 * i + 1], true, 0.375f));
    }
    ExpectNear(got, want, 1e-5f);
    EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

// Rows cuTexObjectCreate and hipCreateTextureObject stay partial: Vulkan
// samples unnormalised coordinates from 1-D and 2-D images of one level
// only, so 3-D, layered and cubemap textures need
// CU_TRSF_NORMALIZED_COORDINATES. Such a launch is CUDA_ERROR_NOT_SUPPORTED
// and nothing runs.
const char kVolumeGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME volume
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler3D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  float_ptr out_values;
} p;
void main() { p.out_values.v[threadIdx.x] = tex3D(tex, 0.5, 0.5, 0.5).x; }
)";

TEST_F(PitchedTextureConformance, UnnormalizedCoordinatesOnThreeDimensionalTexturesAreRefused) {
  ProvesLimitation();
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = desc.Height = desc.Depth = 2;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuArray3DCreate(&array, &desc));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kVolumeGlsl, "volume", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0x3f800000, 1));  // 1.0f
  void* params[] = {&tex, &out};
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  float got = 0.0f;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&got, out, 4));
  EXPECT_EQ(got, 1.0f) << "the refused launch wrote its output";
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

}  // namespace
}  // namespace streamhal::conformance
