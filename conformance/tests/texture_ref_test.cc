// Rows: texture and surface references (cuModuleGetTexRef, cuTexRefSet*/
// Get*, cuTexRefCreate/Destroy, cuParamSetTexRef, cuModuleGetSurfRef,
// cuSurfRef*; hipModuleGetTexRef, hipTexRef*, hipBindTexture*,
// hipUnbindTexture, hipGetTextureAlignmentOffset). GLSL kernels declare a
// reference at set 2 with a binding from 1024 up, named by its variable
// (docs/kernel-abi.md); each launch binds what the module's reference holds
// then. Kernels run on lavapipe and what they read is checked against the
// host's sampling; what they write through a surface reference is read back.
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

using TextureRefConformance = ContextTest;

// Samples the module's reference `image_ref` at n coordinate pairs.
const char kSampleRefGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sample_ref
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 1024) uniform sampler2D image_ref;
layout(push_constant) uniform Params {
  float_ptr coords;
  float_ptr out_values;
  uint n;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.out_values.v[i] = tex2D(image_ref, p.coords.v[2 * i], p.coords.v[2 * i + 1]).x;
}
)";

// Reads n texels of the reference `linear_ref` (linear memory) from `first`.
const char kFetchRefGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME fetch_ref
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 1024) uniform samplerBuffer linear_ref;
layout(push_constant) uniform Params {
  float_ptr out_values;
  uint first;
  uint n;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.out_values.v[i] = tex1Dfetch(linear_ref, p.first + i).x;
}
)";

// The same two kernels as PTX with `.global .texref` references, as nvcc
// before CUDA 12 wrote them for `texture<float, 2>` and `texture<float, 1>`
// (tex.1d with an integer coordinate is tex1Dfetch).
const char kTexrefPtx[] = R"(.version 7.0
.target sm_75
.address_size 64
.global .texref image_ref;
.global .texref linear_ref;
.visible .entry sample_ref(.param .u64 coords, .param .u64 out, .param .u32 n)
{
 .reg .pred %p<2>; .reg .b32 %r<6>; .reg .f32 %f<8>; .reg .b64 %rd<8>;
 ld.param.u64 %rd1, [coords];
 ld.param.u64 %rd2, [out];
 ld.param.u32 %r1, [n];
 mov.u32 %r2, %ctaid.x;
 mov.u32 %r3, %ntid.x;
 mov.u32 %r4, %tid.x;
 mad.lo.s32 %r5, %r2, %r3, %r4;
 setp.ge.u32 %p1, %r5, %r1;
 @%p1 bra DONE;
 mul.wide.u32 %rd3, %r5, 8;
 add.s64 %rd4, %rd1, %rd3;
 ld.global.f32 %f1, [%rd4];
 ld.global.f32 %f2, [%rd4+4];
 tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [image_ref, {%f1, %f2}];
 mul.wide.u32 %rd5, %r5, 4;
 add.s64 %rd6, %rd2, %rd5;
 st.global.f32 [%rd6], %f3;
DONE:
 ret;
}
.visible .entry fetch_ref(.param .u64 out, .param .u32 first, .param .u32 n)
{
 .reg .pred %p<2>; .reg .b32 %r<8>; .reg .f32 %f<6>; .reg .b64 %rd<4>;
 ld.param.u64 %rd1, [out];
 ld.param.u32 %r1, [first];
 ld.param.u32 %r2, [n];
 mov.u32 %r3, %ctaid.x;
 mov.u32 %r4, %ntid.x;
 mov.u32 %r5, %tid.x;
 mad.lo.s32 %r6, %r3, %r4, %r5;
 setp.ge.u32 %p1, %r6, %r2;
 @%p1 bra DONE;
 add.s32 %r7, %r1, %r6;
 tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [linear_ref, {%r7}];
 mul.wide.u32 %rd2, %r6, 4;
 add.s64 %rd3, %rd1, %rd2;
 st.global.f32 [%rd3], %f1;
DONE:
 ret;
}
)";

// Adds x * 100 + y to every element of the surface reference `grid_ref`.
const char kSurfaceRefGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME surface_ref_add
layout(set = 2, binding = 1024, r32f) uniform image2D grid_ref;
layout(push_constant) uniform Params {
  uint width;
  uint height;
} p;
void main() {
  const uint x = threadIdx.x, y = blockIdx.x;
  if (x >= p.width || y >= p.height) return;
  const float old = surf2Dread(grid_ref, x, y).x;
  surf2Dwrite(vec4(old + float(x * 100 + y)), grid_ref, x, y);
}
)";

constexpr int kWidth = 8;
constexpr int kHeight = 5;

float TexelValue(int x, int y) { return static_cast<float>((x * 7 + y * 3) % 11); }

std::vector<float> Texels() {
  std::vector<float> texels;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) texels.push_back(TexelValue(x, y));
  }
  return texels;
}

// The host's tex2D with clamped addressing, in texel coordinates: point,
// or bilinear with CUDA's half-texel shift.
float HostSample(float x, float y, bool linear) {
  auto at = [](int i, int j) {
    return TexelValue(std::clamp(i, 0, kWidth - 1), std::clamp(j, 0, kHeight - 1));
  };
  if (!linear) return at(static_cast<int>(std::floor(x)), static_cast<int>(std::floor(y)));
  const float xb = x - 0.5f, yb = y - 0.5f;
  const int x0 = static_cast<int>(std::floor(xb)), y0 = static_cast<int>(std::floor(yb));
  const float a = xb - std::floor(xb), b = yb - std::floor(yb);
  return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) +
         (1 - a) * b * at(x0, y0 + 1) + a * b * at(x0 + 1, y0 + 1);
}

// Coordinates in and around the image at odd eighths (exact bilinear
// weights, never on a texel edge, where point sampling is up to the device).
std::vector<float> Coordinates() {
  std::vector<float> coords;
  for (float y = -1.625f; y <= kHeight + 1.5f; y += 0.75f) {
    for (float x = -2.125f; x <= kWidth + 2.0f; x += 0.75f) {
      coords.push_back(x);
      coords.push_back(y);
    }
  }
  return coords;
}

CUarray MakeFloatArray(unsigned flags = 0) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  desc.Flags = flags;
  CUarray array = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuArray3DCreate(&array, &desc));
  if (array == nullptr) return nullptr;
  const std::vector<float> texels = Texels();
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = kWidth * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = array;
  c.WidthInBytes = kWidth * sizeof(float);
  c.Height = kHeight;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  return array;
}

// Runs sample_ref over Coordinates() and returns how many samples differ
// from the host's (clamped addressing, `linear` or point filtering).
int CountWrongSamples(CUfunction f, bool linear) {
  const std::vector<float> coords = Coordinates();
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = CudaUpload(coords), d_out = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  void* params[] = {&d_coords, &d_out, const_cast<unsigned*>(&n)};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  int wrong = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float want = HostSample(coords[2 * i], coords[2 * i + 1], linear);
    if (std::fabs(got[i] - want) > 1e-5f && ++wrong <= 3) {
      ADD_FAILURE() << "at (" << coords[2 * i] << ", " << coords[2 * i + 1] << "): got " << got[i]
                    << ", want " << want;
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  return wrong;
}

TEST_F(TextureRefConformance, KernelSamplesAnArrayThroughAModuleTextureReference) {
  CUarray array = MakeFloatArray();
  ASSERT_NE(array, nullptr);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleRefGlsl, "sample_ref", &module);
  ASSERT_NE(f, nullptr);
  CUtexref ref = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "image_ref"));
  ASSERT_NE(ref, nullptr);
  CUtexref again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&again, module, "image_ref"));
  EXPECT_EQ(again, ref) << "one reference per name";
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(ref, array, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddressMode(ref, 0, CU_TR_ADDRESS_MODE_CLAMP));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddressMode(ref, 1, CU_TR_ADDRESS_MODE_CLAMP));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFlags(ref, 0));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetTexRef(f, CU_PARAM_TR_DEFAULT, ref));
  EXPECT_EQ(CountWrongSamples(f, /*linear=*/true), 0);
  // The next launch sees the reference's new state.
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_POINT));
  EXPECT_EQ(CountWrongSamples(f, /*linear=*/false), 0);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  // The reference went with its module.
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_POINT));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureRefConformance, ReferenceBoundToLinearMemoryReadsWithTex1Dfetch) {
  std::vector<float> values(256);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.5f + 3.0f;
  CUdeviceptr memory = CudaUpload(values);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kFetchRefGlsl, "fetch_ref", &module);
  ASSERT_NE(f, nullptr);
  CUtexref ref = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "linear_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFormat(ref, CU_AD_FORMAT_FLOAT, 1));
  // An address past the texture alignment binds from the aligned address
  // below it and returns the difference, which the kernel adds (CUDA's rule).
  const int alignment = DeviceAttribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT);
  ASSERT_GT(alignment, 4);
  const CUdeviceptr start = memory + 4 * sizeof(float);
  size_t offset = 1234;
  ASSERT_CU(CUDA_SUCCESS,
            cuTexRefSetAddress(&offset, ref, start, (values.size() - 4) * sizeof(float)));
  EXPECT_EQ(offset, start % static_cast<CUdeviceptr>(alignment));
  CUdeviceptr bound = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefGetAddress(&bound, ref));
  EXPECT_EQ(bound, start);
  CUdeviceptr d_out = 0;
  const unsigned n = 200;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  unsigned first = static_cast<unsigned>(offset / sizeof(float));
  void* params[] = {&d_out, &first, const_cast<unsigned*>(&n)};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], values[i + 4]) << "texel " << i;
  // Reading the array of a reference bound to memory is an error.
  CUarray array = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&array, ref));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// PTX `.texref` references are the module's references too: found by name,
// set through cuTexRef*, sampled at the state of each launch; one bound to
// linear memory reads with tex1Dfetch. The HIP forms reach the same ones.
TEST_F(TextureRefConformance, PtxTexrefsAreModuleTextureReferences) {
  CUarray array = MakeFloatArray();
  ASSERT_NE(array, nullptr);
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kTexrefPtx));
  CUfunction sample = nullptr, fetch = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&sample, module, "sample_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&fetch, module, "fetch_ref"));
  CUtexref image = nullptr, linear = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&image, module, "image_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&linear, module, "linear_ref"));
  CUtexref missing = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetTexRef(&missing, module, "no_such_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(image, array, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddressMode(image, 0, CU_TR_ADDRESS_MODE_CLAMP));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddressMode(image, 1, CU_TR_ADDRESS_MODE_CLAMP));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(image, CU_TR_FILTER_MODE_LINEAR));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFlags(image, 0));
  EXPECT_EQ(CountWrongSamples(sample, /*linear=*/true), 0);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(image, CU_TR_FILTER_MODE_POINT));
  EXPECT_EQ(CountWrongSamples(sample, /*linear=*/false), 0);

  std::vector<float> values(128);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 0.25f - 7.0f;
  CUdeviceptr memory = CudaUpload(values);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFormat(linear, CU_AD_FORMAT_FLOAT, 1));
  size_t offset = 1;
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress(&offset, linear, memory, values.size() * 4));
  EXPECT_EQ(offset, 0u);
  const unsigned n = 100, first = 20;
  CUdeviceptr d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  void* params[] = {&d_out, const_cast<unsigned*>(&first), const_cast<unsigned*>(&n)};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(fetch, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], values[first + i]) << "texel " << i;

  textureReference* hip_ref = nullptr;
  ASSERT_HIP(hipSuccess,
             hipModuleGetTexRef(&hip_ref, reinterpret_cast<hipModule_t>(module), "image_ref"));
  ASSERT_HIP(hipSuccess, hipTexRefSetFilterMode(hip_ref, hipFilterModeLinear));
  EXPECT_EQ(CountWrongSamples(sample, /*linear=*/true), 0);

  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureRefConformance, EverySetterIsReadBackByItsGetter) {
  CUmodule module = nullptr;
  ASSERT_NE(LoadCudaKernel(kSampleRefGlsl, "sample_ref", &module), nullptr);
  CUtexref ref = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "image_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddressMode(ref, 2, CU_TR_ADDRESS_MODE_MIRROR));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMipmapFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMipmapLevelBias(ref, 0.25f));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMipmapLevelClamp(ref, 1.0f, 3.5f));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMaxAnisotropy(ref, 4));
  float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetBorderColor(ref, border));
  ASSERT_CU(CUDA_SUCCESS,
            cuTexRefSetFlags(ref, CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFormat(ref, CU_AD_FORMAT_UNSIGNED_INT16, 2));

  CUaddress_mode mode = CU_TR_ADDRESS_MODE_WRAP;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetAddressMode(&mode, ref, 2));
  EXPECT_EQ(mode, CU_TR_ADDRESS_MODE_MIRROR);
  CUfilter_mode filter = CU_TR_FILTER_MODE_POINT;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFilterMode(&filter, ref));
  EXPECT_EQ(filter, CU_TR_FILTER_MODE_LINEAR);
  filter = CU_TR_FILTER_MODE_POINT;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetMipmapFilterMode(&filter, ref));
  EXPECT_EQ(filter, CU_TR_FILTER_MODE_LINEAR);
  float bias = 0, min_clamp = 0, max_clamp = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetMipmapLevelBias(&bias, ref));
  EXPECT_EQ(bias, 0.25f);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetMipmapLevelClamp(&min_clamp, &max_clamp, ref));
  EXPECT_EQ(min_clamp, 1.0f);
  EXPECT_EQ(max_clamp, 3.5f);
  int anisotropy = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetMaxAnisotropy(&anisotropy, ref));
  EXPECT_EQ(anisotropy, 4);
  float got_border[4] = {};
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetBorderColor(got_border, ref));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got_border[i], border[i]);
  unsigned flags = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFlags(&flags, ref));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_READ_AS_INTEGER));
  CUarray_format format = CU_AD_FORMAT_FLOAT;
  int channels = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&format, &channels, ref));
  EXPECT_EQ(format, CU_AD_FORMAT_UNSIGNED_INT16);
  EXPECT_EQ(channels, 2);

  // Binding an array takes its format (CU_TRSA_OVERRIDE_FORMAT).
  CUarray array = MakeFloatArray();
  ASSERT_NE(array, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(ref, array, CU_TRSA_OVERRIDE_FORMAT));
  CUarray bound = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetArray(&bound, ref));
  EXPECT_EQ(bound, array);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&format, nullptr, ref));
  EXPECT_EQ(format, CU_AD_FORMAT_FLOAT);
  CUdeviceptr address = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddress(&address, ref));
  CUmipmappedArray mipmapped = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetMipmappedArray(&mipmapped, ref));

  // A pitched binding takes the descriptor's format and reports its address.
  CUdeviceptr pitched = 0;
  size_t pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&pitched, &pitch, 64 * sizeof(float), 16, 4));
  CUDA_ARRAY_DESCRIPTOR desc = {64, 16, CU_AD_FORMAT_SIGNED_INT32, 1};
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress2D(ref, &desc, pitched, pitch));
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetAddress(&address, ref));
  EXPECT_EQ(address, pitched);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFormat(&format, &channels, ref));
  EXPECT_EQ(format, CU_AD_FORMAT_SIGNED_INT32);
  EXPECT_EQ(channels, 1);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&bound, ref));

  EXPECT_CU(CUDA_SUCCESS, cuMemFree(pitched));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureRefConformance, BadArgumentsGetTheDocumentedErrors) {
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleRefGlsl, "sample_ref", &module);
  ASSERT_NE(f, nullptr);
  CUtexref ref = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetTexRef(nullptr, module, "image_ref"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetTexRef(&ref, module, nullptr));
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetTexRef(&ref, module, "no_such_ref"));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetTexRef(&ref, nullptr, "image_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "image_ref"));

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddressMode(ref, 3, CU_TR_ADDRESS_MODE_CLAMP));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuTexRefSetAddressMode(ref, 0, static_cast<CUaddress_mode>(7)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetFilterMode(ref, static_cast<CUfilter_mode>(2)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetFlags(ref, 0x100));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetFormat(ref, CU_AD_FORMAT_FLOAT, 3));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetBorderColor(ref, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetMipmapLevelBias(ref, std::nanf("")));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetArray(ref, nullptr, CU_TRSA_OVERRIDE_FORMAT));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddress(nullptr, ref, 0x1000, 64));
  size_t offset = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefSetAddress(&offset, ref, 0, 64));
  CUaddress_mode mode;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddressMode(&mode, ref, -1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetAddressMode(nullptr, ref, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetFlags(nullptr, ref));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetFormat(nullptr, nullptr, ref));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefSetFlags(nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetTexRef(f, 0, ref));
  // A module reference goes with its module, not with cuTexRefDestroy.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefDestroy(ref));

  // Launching a kernel whose reference is bound to nothing, or to an array
  // since destroyed, fails cleanly; the reference still works afterwards.
  CUdeviceptr d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, 64));
  unsigned n = 1;
  void* params[] = {&d_out, &d_out, &n};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  CUarray array = MakeFloatArray();
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(ref, array, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  array = MakeFloatArray();
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetArray(ref, array, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  EXPECT_EQ(CountWrongSamples(f, /*linear=*/true), 0);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureRefConformance, TexRefCreateMakesAReferenceThatDestroyRemoves) {
  CUtexref ref = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefCreate(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefCreate(&ref));
  ASSERT_NE(ref, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  CUfilter_mode filter = CU_TR_FILTER_MODE_POINT;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetFilterMode(&filter, ref));
  EXPECT_EQ(filter, CU_TR_FILTER_MODE_LINEAR);
  EXPECT_CU(CUDA_SUCCESS, cuTexRefDestroy(ref));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefGetFilterMode(&filter, ref));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuTexRefDestroy(ref));
}

TEST_F(TextureRefConformance, KernelWritesAnArrayThroughASurfaceReference) {
  CUarray array = MakeFloatArray(CUDA_ARRAY3D_SURFACE_LDST);
  CUarray plain = MakeFloatArray();
  ASSERT_NE(array, nullptr);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSurfaceRefGlsl, "surface_ref_add", &module);
  ASSERT_NE(f, nullptr);
  CUsurfref ref = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuModuleGetSurfRef(&ref, module, "image_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetSurfRef(&ref, module, "grid_ref"));
  CUarray bound = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefGetArray(&bound, ref));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefSetArray(ref, plain, 0))
      << "surfaces need CUDA_ARRAY3D_SURFACE_LDST";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuSurfRefSetArray(ref, array, 1));
  ASSERT_CU(CUDA_SUCCESS, cuSurfRefSetArray(ref, array, 0));
  EXPECT_CU(CUDA_SUCCESS, cuSurfRefGetArray(&bound, ref));
  EXPECT_EQ(bound, array);
  unsigned width = kWidth, height = kHeight;
  void* params[] = {&width, &height};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> written(kWidth * kHeight);
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = array;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = written.data();
  c.dstPitch = kWidth * sizeof(float);
  c.WidthInBytes = kWidth * sizeof(float);
  c.Height = kHeight;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      EXPECT_EQ(written[y * kWidth + x], TexelValue(x, y) + static_cast<float>(x * 100 + y));
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuSurfRefGetArray(&bound, ref));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(plain));
}

// HIP: the textureReference struct the module hands out, changed through
// the hipTexRef* setters or written directly and bound with hipBindTexture*.
TEST_F(TextureRefConformance, HipKernelsSampleThroughTextureReferences) {
  hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  hipArray_t array = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocArray(&array, &channel, kWidth, kHeight, 0));
  const std::vector<float> texels = Texels();
  ASSERT_HIP(hipSuccess, hipMemcpy2DToArray(array, 0, 0, texels.data(), kWidth * 4, kWidth * 4,
                                            kHeight, hipMemcpyHostToDevice));
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kSampleRefGlsl, "sample_ref", &module);
  ASSERT_NE(f, nullptr);
  textureReference* ref = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetTexRef(&ref, module, "image_ref"));
  ASSERT_NE(ref, nullptr);
  const std::vector<float> coords = Coordinates();
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  hipDeviceptr_t d_coords = nullptr, d_out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&d_coords, coords.size() * 4));
  ASSERT_HIP(hipSuccess, hipMalloc(&d_out, n * 4));
  ASSERT_HIP(hipSuccess,
             hipMemcpyHtoD(d_coords, const_cast<float*>(coords.data()), coords.size() * 4));
  void* params[] = {&d_coords, &d_out, const_cast<unsigned*>(&n)};
  auto check = [&](bool linear) {
    ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                                 params, nullptr));
    std::vector<float> got(n);
    ASSERT_HIP(hipSuccess, hipMemcpyDtoH(got.data(), d_out, n * 4));
    for (unsigned i = 0; i < n; ++i) {
      ASSERT_NEAR(got[i], HostSample(coords[2 * i], coords[2 * i + 1], linear), 1e-5f)
          << "sample " << i << (linear ? " (linear)" : " (point)");
    }
  };
  // Driver-style setters.
  ASSERT_HIP(hipSuccess, hipTexRefSetArray(ref, array, HIP_TRSA_OVERRIDE_FORMAT));
  ASSERT_HIP(hipSuccess, hipTexRefSetAddressMode(ref, 0, hipAddressModeClamp));
  ASSERT_HIP(hipSuccess, hipTexRefSetAddressMode(ref, 1, hipAddressModeClamp));
  ASSERT_HIP(hipSuccess, hipTexRefSetFilterMode(ref, hipFilterModeLinear));
  ASSERT_HIP(hipSuccess, hipTexRefSetFlags(ref, 0));
  EXPECT_EQ(ref->filterMode, hipFilterModeLinear) << "setters show in the struct";
  EXPECT_EQ(ref->format, HIP_AD_FORMAT_FLOAT);
  check(true);
  // The struct written directly, applied when bound (AMD's runtime model).
  ref->filterMode = hipFilterModePoint;
  ASSERT_HIP(hipSuccess, hipBindTextureToArray(ref, array, &channel));
  check(false);
  hipTextureFilterMode filter = hipFilterModeLinear;
  EXPECT_HIP(hipSuccess, hipTexRefGetFilterMode(&filter, ref));
  EXPECT_EQ(filter, hipFilterModePoint);
  hipArray_t bound = nullptr;
  EXPECT_HIP(hipSuccess, hipTexRefGetArray(&bound, ref));
  EXPECT_EQ(bound, array);
  // Unbound, the launch fails cleanly.
  ASSERT_HIP(hipSuccess, hipUnbindTexture(ref));
  EXPECT_HIP(hipErrorInvalidValue,
             hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefGetArray(&bound, ref));
  EXPECT_HIP(hipErrorInvalidValue, hipTexRefSetFilterMode(nullptr, hipFilterModePoint));
  textureReference* missing = nullptr;
  EXPECT_HIP(hipErrorNotFound, hipModuleGetTexRef(&missing, module, "no_such_ref"));
  EXPECT_HIP(hipSuccess, hipFree(d_coords));
  EXPECT_HIP(hipSuccess, hipFree(d_out));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  EXPECT_HIP(hipSuccess, hipFreeArray(array));
}

TEST_F(TextureRefConformance, HipBindTextureBindsLinearMemory) {
  std::vector<float> values(256);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) * 2.0f - 7.0f;
  hipDeviceptr_t memory = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&memory, values.size() * 4));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(memory, values.data(), values.size() * 4));
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kFetchRefGlsl, "fetch_ref", &module);
  ASSERT_NE(f, nullptr);
  textureReference* ref = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetTexRef(&ref, module, "linear_ref"));
  hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  size_t offset = 99;
  ASSERT_HIP(hipSuccess, hipBindTexture(&offset, ref, memory, &channel, values.size() * 4));
  EXPECT_EQ(offset, 0u);
  size_t alignment_offset = 99;
  EXPECT_HIP(hipSuccess, hipGetTextureAlignmentOffset(&alignment_offset, ref));
  EXPECT_EQ(alignment_offset, 0u);
  hipDeviceptr_t bound = nullptr;
  EXPECT_HIP(hipSuccess, hipTexRefGetAddress(&bound, ref));
  EXPECT_EQ(bound, memory);
  hipArray_Format format = HIP_AD_FORMAT_UNSIGNED_INT8;
  int channels = 0;
  EXPECT_HIP(hipSuccess, hipTexRefGetFormat(&format, &channels, ref));
  EXPECT_EQ(format, HIP_AD_FORMAT_FLOAT);
  EXPECT_EQ(channels, 1);
  hipDeviceptr_t d_out = nullptr;
  const unsigned n = 256;
  ASSERT_HIP(hipSuccess, hipMalloc(&d_out, n * 4));
  unsigned first = 0;
  void* params[] = {&d_out, &first, const_cast<unsigned*>(&n)};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(f, 4, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got(n);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(got.data(), d_out, n * 4));
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], values[i]) << "texel " << i;
  EXPECT_HIP(hipErrorInvalidValue, hipBindTexture(&offset, ref, memory, nullptr, 64));
  EXPECT_HIP(hipSuccess, hipFree(d_out));
  EXPECT_HIP(hipSuccess, hipFree(memory));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

// A reference bound to pitched memory (cuTexRefSetAddress2D,
// hipBindTexture2D) samples it as it would an array with the same texels.
TEST_F(TextureRefConformance, PitchedBindingSamplesLikeAnArray) {
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleRefGlsl, "sample_ref", &module);
  ASSERT_NE(f, nullptr);
  CUtexref ref = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "image_ref"));
  CUdeviceptr pitched = 0;
  size_t pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&pitched, &pitch, kWidth * sizeof(float), kHeight, 4));
  const std::vector<float> texels = Texels();
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = kWidth * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = pitched;
  c.dstPitch = pitch;
  c.WidthInBytes = kWidth * sizeof(float);
  c.Height = kHeight;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  CUDA_ARRAY_DESCRIPTOR desc = {kWidth, kHeight, CU_AD_FORMAT_FLOAT, 1};
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetAddress2D(ref, &desc, pitched, pitch));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFilterMode(ref, CU_TR_FILTER_MODE_LINEAR));
  EXPECT_EQ(CountWrongSamples(f, /*linear=*/true), 0);
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));

  // HIP: hipBindTexture2D with a channel descriptor.
  hipModule_t hip_module = nullptr;
  hipFunction_t hip_f = LoadHipKernel(kSampleRefGlsl, "sample_ref", &hip_module);
  ASSERT_NE(hip_f, nullptr);
  textureReference* hip_ref = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetTexRef(&hip_ref, hip_module, "image_ref"));
  hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  hip_ref->filterMode = hipFilterModePoint;
  size_t offset = 1;
  ASSERT_HIP(hipSuccess, hipBindTexture2D(&offset, hip_ref, AsHipPointer(pitched), &channel, kWidth,
                                          kHeight, pitch));
  EXPECT_EQ(offset, 0u);
  const std::vector<float> coords = Coordinates();
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = CudaUpload(coords), d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  void* params[] = {&d_coords, &d_out, const_cast<unsigned*>(&n)};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(hip_f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                               params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_NEAR(got[i], HostSample(coords[2 * i], coords[2 * i + 1], false), 1e-5f)
        << "sample " << i;
  }
  HIP_ARRAY_DESCRIPTOR hip_desc = {kWidth, kHeight, HIP_AD_FORMAT_FLOAT, 1};
  EXPECT_HIP(hipSuccess, hipTexRefSetAddress2D(hip_ref, &hip_desc, AsHipPointer(pitched), pitch));
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(pitched));
}

// A reference bound to a mipmapped array samples its level 0 (the default
// level clamps), in normalised coordinates as mipmapped textures need.
TEST_F(TextureRefConformance, MipmappedBindingSamplesLevelZero) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = kWidth;
  desc.Height = kHeight;
  desc.Format = CU_AD_FORMAT_FLOAT;
  desc.NumChannels = 1;
  CUmipmappedArray mipmapped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayCreate(&mipmapped, &desc, 2));
  CUarray level0 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&level0, mipmapped, 0));
  const std::vector<float> texels = Texels();
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = texels.data();
  c.srcPitch = kWidth * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = level0;
  c.WidthInBytes = kWidth * sizeof(float);
  c.Height = kHeight;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleRefGlsl, "sample_ref", &module);
  ASSERT_NE(f, nullptr);
  CUtexref ref = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetTexRef(&ref, module, "image_ref"));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetMipmappedArray(ref, mipmapped, CU_TRSA_OVERRIDE_FORMAT));
  ASSERT_CU(CUDA_SUCCESS, cuTexRefSetFlags(ref, CU_TRSF_NORMALIZED_COORDINATES));
  CUmipmappedArray bound = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuTexRefGetMipmappedArray(&bound, ref));
  EXPECT_EQ(bound, mipmapped);
  CUarray array = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuTexRefGetArray(&array, ref));
  std::vector<float> coords;
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      coords.push_back((x + 0.5f) / kWidth);
      coords.push_back((y + 0.5f) / kHeight);
    }
  }
  unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = CudaUpload(coords), d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  void* params[] = {&d_coords, &d_out, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> got = CudaDownload<float>(d_out, n);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(got[i], texels[i]) << "texel " << i;

  // HIP: hipBindTextureToMipmappedArray, hipTexRefGetMipMappedArray.
  hipModule_t hip_module = nullptr;
  ASSERT_NE(LoadHipKernel(kSampleRefGlsl, "sample_ref", &hip_module), nullptr);
  textureReference* hip_ref = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetTexRef(&hip_ref, hip_module, "image_ref"));
  hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  auto hip_mipmapped = reinterpret_cast<hipMipmappedArray_t>(mipmapped);
  ASSERT_HIP(hipSuccess, hipBindTextureToMipmappedArray(hip_ref, hip_mipmapped, &channel));
  hipMipmappedArray_t hip_bound = nullptr;
  EXPECT_HIP(hipSuccess, hipTexRefGetMipMappedArray(&hip_bound, hip_ref));
  EXPECT_EQ(hip_bound, hip_mipmapped);
  EXPECT_HIP(hipSuccess,
             hipTexRefSetMipmappedArray(hip_ref, hip_mipmapped, HIP_TRSA_OVERRIDE_FORMAT));
  EXPECT_HIP(hipSuccess, hipModuleUnload(hip_module));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmapped));
}

}  // namespace
}  // namespace streamhal::conformance
