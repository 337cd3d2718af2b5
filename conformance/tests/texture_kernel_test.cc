// Rows: kernels that bind texture and surface objects (kernel ABI v2;
// cuTexObjectCreate, cuSurfObjectCreate, hipCreateTextureObject,
// hipTexObjectCreate, hipCreateSurfaceObject). GLSL kernels declare a
// sampler or image at set 2, binding i, and take the object's handle in
// parameter i; they run on lavapipe, and every value they read is checked
// against the same sampling done on the host (bilinear filtering, wrap,
// clamp and border addressing, normalised and unnormalised coordinates,
// integer and normalised reads, 3-D and layered arrays), every value they
// write through a surface is read back.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using TextureKernelConformance = ContextTest;

// Samples a float texture at n coordinate pairs.
const char kSample2DGlsl[] = R"(#version 460
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

// Reads 8-bit texels as normalised floats (parameter 0) and as integers
// (parameter 1), one texel a thread.
const char kReadModesGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME read_modes
STREAMHAL_DECLARE_PTR(float);
STREAMHAL_DECLARE_PTR(uint);
layout(set = 2, binding = 0) uniform sampler2D as_float;
layout(set = 2, binding = 1) uniform usampler2D as_uint;
layout(push_constant) uniform Params {
  uint64_t as_float;
  uint64_t as_uint;
  float_ptr floats;
  uint_ptr uints;
  uint width;
  uint height;
} p;
void main() {
  const uint x = threadIdx.x, y = blockIdx.x;
  if (x >= p.width || y >= p.height) return;
  const uint i = y * p.width + x;
  p.floats.v[i] = tex2D(as_float, x + 0.5, y + 0.5).y;
  p.uints.v[i] = tex2D(as_uint, x + 0.5, y + 0.5).y;
}
)";

// Samples integer texels between texel centres: 0.4 right of and below the
// centre of texel (x, y), where linear filtering would blend four texels.
const char kIntegerBetweenCentresGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME between_centres
STREAMHAL_DECLARE_PTR(uint);
layout(set = 2, binding = 0) uniform usampler2D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  uint_ptr out_values;
  uint width;
  uint height;
} p;
void main() {
  const uint x = threadIdx.x, y = blockIdx.x;
  if (x >= p.width || y >= p.height) return;
  p.out_values.v[y * p.width + x] = tex2D(tex, x + 0.9, y + 0.9).x;
}
)";

// Writes x * 100 + y + add to every element of a surface, after reading
// what is there (so a second launch adds to the first).
const char kSurfaceGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME surface_add
layout(set = 2, binding = 0, r32f) uniform image2D surf;
layout(push_constant) uniform Params {
  uint64_t surf;
  float add;
  uint width;
  uint height;
} p;
void main() {
  const uint x = threadIdx.x, y = blockIdx.x;
  if (x >= p.width || y >= p.height) return;
  const float old = surf2Dread(surf, x, y).x;
  surf2Dwrite(vec4(old + float(x * 100 + y) + p.add), surf, x, y);
}
)";

// Point samples of a 3-D texture and a layered 2-D texture at texel centres
// in normalised coordinates.
const char kVolumeGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME volume_and_layers
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler3D volume;
layout(set = 2, binding = 1) uniform sampler2DArray layers;
layout(push_constant) uniform Params {
  uint64_t volume;
  uint64_t layers;
  float_ptr from_volume;
  float_ptr from_layers;
  uint size;
} p;
void main() {
  const uint x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  const float s = float(p.size);
  const uint i = (z * p.size + y) * p.size + x;
  p.from_volume.v[i] = tex3D(volume, (x + 0.5) / s, (y + 0.5) / s, (z + 0.5) / s).x;
  p.from_layers.v[i] = tex2DLayered(layers, (x + 0.5) / s, (y + 0.5) / s, z).x;
}
)";

CUarray MakeArray(size_t width, size_t height, size_t depth, CUarray_format format,
                  unsigned channels, unsigned flags = 0) {
  CUDA_ARRAY3D_DESCRIPTOR desc = {};
  desc.Width = width;
  desc.Height = height;
  desc.Depth = depth;
  desc.Format = format;
  desc.NumChannels = channels;
  desc.Flags = flags;
  CUarray array = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuArray3DCreate(&array, &desc));
  return array;
}

// Copies `host` (packed rows of `row_bytes`) to or from all of `array`.
CUresult CopyArray(CUarray array, void* host, size_t row_bytes, size_t rows, size_t slices,
                   bool to_array) {
  CUDA_MEMCPY3D c;
  std::memset(&c, 0, sizeof(c));
  if (to_array) {
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = host;
    c.srcPitch = row_bytes;
    c.srcHeight = rows;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = array;
  } else {
    c.dstMemoryType = CU_MEMORYTYPE_HOST;
    c.dstHost = host;
    c.dstPitch = row_bytes;
    c.dstHeight = rows;
    c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    c.srcArray = array;
  }
  c.WidthInBytes = row_bytes;
  c.Height = rows;
  c.Depth = slices;
  return cuMemcpy3D(&c);
}

CUtexObject MakeTexture(CUarray array, CUaddress_mode mode, CUfilter_mode filter, unsigned flags,
                        float border = 0.0f) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = mode;
  t.filterMode = filter;
  t.flags = flags;
  for (float& c : t.borderColor) c = border;
  CUtexObject tex = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  return tex;
}

CUsurfObject MakeSurface(CUarray array) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_ARRAY;
  r.res.array.hArray = array;
  CUsurfObject surf = 0;
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectCreate(&surf, &r));
  return surf;
}

// A width x height float image and its texels, f(x, y) small integers so
// that filtered values are exact in float.
struct Image {
  int width, height;
  std::vector<float> texels;
  float at(int x, int y) const { return texels[static_cast<size_t>(y) * width + x]; }
};

Image MakeImage(int width, int height) {
  Image image{width, height, {}};
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x)
      image.texels.push_back(static_cast<float>((x * 7 + y * 3) % 11));
  }
  return image;
}

// CUDA's addressing of texel index i in [0, n): clamp, wrap, mirror (for
// normalised coordinates), border (-1: the border colour).
int Address(int i, int n, CUaddress_mode mode) {
  switch (mode) {
    case CU_TR_ADDRESS_MODE_WRAP:
      return ((i % n) + n) % n;
    case CU_TR_ADDRESS_MODE_MIRROR: {
      const int period = ((i % (2 * n)) + 2 * n) % (2 * n);
      return period < n ? period : 2 * n - 1 - period;
    }
    case CU_TR_ADDRESS_MODE_BORDER:
      return i < 0 || i >= n ? -1 : i;
    default:
      return std::clamp(i, 0, n - 1);
  }
}

float Texel(const Image& image, int x, int y, CUaddress_mode mode, float border) {
  const int ax = Address(x, image.width, mode), ay = Address(y, image.height, mode);
  if (ax < 0 || ay < 0) return border;
  return image.at(ax, ay);
}

// The host's tex2D: coordinates in texels (normalised ones scaled first),
// point or bilinear with CUDA's half-texel shift.
float HostSample(const Image& image, float u, float v, CUaddress_mode mode, bool linear,
                 bool normalized, float border) {
  const float x = normalized ? u * image.width : u;
  const float y = normalized ? v * image.height : v;
  if (!linear) {
    return Texel(image, static_cast<int>(std::floor(x)), static_cast<int>(std::floor(y)), mode,
                 border);
  }
  const float xb = x - 0.5f, yb = y - 0.5f;
  const int x0 = static_cast<int>(std::floor(xb)), y0 = static_cast<int>(std::floor(yb));
  const float a = xb - std::floor(xb), b = yb - std::floor(yb);
  return (1 - a) * (1 - b) * Texel(image, x0, y0, mode, border) +
         a * (1 - b) * Texel(image, x0 + 1, y0, mode, border) +
         (1 - a) * b * Texel(image, x0, y0 + 1, mode, border) +
         a * b * Texel(image, x0 + 1, y0 + 1, mode, border);
}

struct Sampling {
  CUaddress_mode mode;
  CUfilter_mode filter;
  bool normalized;
  float border;
};

// Samples `tex` at `coords` (pairs) with the sample_2d kernel.
std::vector<float> RunSample(CUfunction f, CUtexObject tex, const std::vector<float>& coords,
                             CUstream stream = nullptr) {
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = 0, d_out = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * sizeof(float)));
  void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  std::vector<float> out(n, -1.0f);
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(out.data(), d_out, n * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  return out;
}

// Coordinates in and around the image, in steps of 3/4 texel at odd
// eighths (exact bilinear weights), never on a texel's edge, where which
// texel a point sample takes is up to the device's rounding.
std::vector<float> Coordinates(const Image& image, bool normalized) {
  std::vector<float> coords;
  for (float y = -1.625f; y <= image.height + 1.5f; y += 0.75f) {
    for (float x = -2.125f; x <= image.width + 2.0f; x += 0.75f) {
      coords.push_back(normalized ? x / image.width : x);
      coords.push_back(normalized ? y / image.height : y);
    }
  }
  return coords;
}

TEST_F(TextureKernelConformance, KernelSamplesA2DTextureAsTheHostDoes) {
  const Image image = MakeImage(8, 5);
  CUarray array = MakeArray(image.width, image.height, 0, CU_AD_FORMAT_FLOAT, 1);
  ASSERT_NE(array, nullptr);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, const_cast<float*>(image.texels.data()),
                                    image.width * sizeof(float), image.height, 1, true));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSample2DGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  const Sampling samplings[] = {
      {CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, false, 0.0f},
      {CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, false, 0.0f},
      {CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_LINEAR, false, 0.0f},
      {CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_POINT, true, 1.0f},
      {CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_LINEAR, true, 0.0f},
      {CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, true, 0.0f},
      {CU_TR_ADDRESS_MODE_MIRROR, CU_TR_FILTER_MODE_LINEAR, true, 0.0f},
      {CU_TR_ADDRESS_MODE_MIRROR, CU_TR_FILTER_MODE_POINT, true, 0.0f},
  };
  for (const Sampling& s : samplings) {
    SCOPED_TRACE(testing::Message() << "address mode " << s.mode << ", filter " << s.filter
                                    << ", normalised " << s.normalized);
    CUtexObject tex = MakeTexture(array, s.mode, s.filter,
                                  s.normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0, s.border);
    ASSERT_NE(tex, 0u);
    const std::vector<float> coords = Coordinates(image, s.normalized);
    const std::vector<float> got = RunSample(f, tex, coords);
    int wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const float want = HostSample(image, coords[2 * i], coords[2 * i + 1], s.mode,
                                    s.filter == CU_TR_FILTER_MODE_LINEAR, s.normalized, s.border);
      if (std::fabs(got[i] - want) > 1e-5f && ++wrong <= 5) {
        ADD_FAILURE() << "at (" << coords[2 * i] << ", " << coords[2 * i + 1] << "): got " << got[i]
                      << ", want " << want;
      }
    }
    EXPECT_EQ(wrong, 0) << "of " << got.size() << " samples";
    EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  }
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureKernelConformance, EightBitTexelsReadAsNormalizedFloatsOrIntegers) {
  constexpr unsigned kWidth = 16, kHeight = 4;
  std::vector<uint8_t> texels(kWidth * kHeight * 4);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint8_t>(i * 37 + 5);
  CUarray array = MakeArray(kWidth, kHeight, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4);
  ASSERT_NE(array, nullptr);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, texels.data(), kWidth * 4, kHeight, 1, true));
  CUtexObject as_float = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  CUtexObject as_uint = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
                                    CU_TRSF_READ_AS_INTEGER);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kReadModesGlsl, "read_modes", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr floats = 0, uints = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&floats, kWidth * kHeight * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&uints, kWidth * kHeight * 4));
  unsigned width = kWidth, height = kHeight;
  void* params[] = {&as_float, &as_uint, &floats, &uints, &width, &height};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got_floats(kWidth * kHeight);
  std::vector<uint32_t> got_uints(kWidth * kHeight);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_floats.data(), floats, kWidth * kHeight * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_uints.data(), uints, kWidth * kHeight * 4));
  for (size_t i = 0; i < kWidth * kHeight; ++i) {
    const uint8_t green = texels[4 * i + 1];
    EXPECT_NEAR(got_floats[i], green / 255.0f, 1e-6f) << "texel " << i;
    EXPECT_EQ(got_uints[i], green) << "texel " << i;
  }
  // Swapped, each texture meets a declaration it cannot satisfy.
  void* swapped[] = {&as_uint, &as_float, &floats, &uints, &width, &height};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, swapped, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(floats));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(uints));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(as_float));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(as_uint));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

// CUDA filters only reads that return floats; NVIDIA's driver still accepts
// CU_TR_FILTER_MODE_LINEAR with CU_TRSF_READ_AS_INTEGER (ffmpeg's bilinear
// scale_cuda and thumbnail_cuda set both), and such reads give the nearest
// texel, through both APIs.
TEST_F(TextureKernelConformance, LinearFilteringOfIntegerReadsGivesTheNearestTexel) {
  constexpr unsigned kWidth = 12, kHeight = 5;
  std::vector<uint16_t> texels(kWidth * kHeight);
  for (size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<uint16_t>(i * 997 + 3);
  CUarray array = MakeArray(kWidth, kHeight, 0, CU_AD_FORMAT_UNSIGNED_INT16, 1);
  ASSERT_NE(array, nullptr);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, texels.data(), kWidth * 2, kHeight, 1, true));
  CUtexObject tex = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR,
                                CU_TRSF_READ_AS_INTEGER);
  ASSERT_NE(tex, 0u);
  CUDA_TEXTURE_DESC got_t;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectGetTextureDesc(&got_t, tex));
  EXPECT_EQ(got_t.filterMode, CU_TR_FILTER_MODE_LINEAR);
  hipResourceDesc hip_r;
  std::memset(&hip_r, 0, sizeof(hip_r));
  hip_r.resType = hipResourceTypeArray;
  hip_r.res.array.array = reinterpret_cast<hipArray_t>(array);
  hipTextureDesc hip_t;
  std::memset(&hip_t, 0, sizeof(hip_t));
  hip_t.filterMode = hipFilterModeLinear;
  hip_t.readMode = hipReadModeElementType;
  hipTextureObject_t hip_tex = nullptr;
  ASSERT_HIP(hipSuccess, hipCreateTextureObject(&hip_tex, &hip_r, &hip_t, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kIntegerBetweenCentresGlsl, "between_centres", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, kWidth * kHeight * 4));
  unsigned width = kWidth, height = kHeight;
  CUtexObject hip_as_cu = static_cast<CUtexObject>(reinterpret_cast<uintptr_t>(hip_tex));
  for (CUtexObject object : {tex, hip_as_cu}) {
    SCOPED_TRACE(object == tex ? "cuTexObjectCreate" : "hipCreateTextureObject");
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0xdeadbeef, kWidth * kHeight));
    void* params[] = {&object, &out, &width, &height};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, params, nullptr));
    std::vector<uint32_t> got(kWidth * kHeight);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), out, got.size() * 4));
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], texels[i]) << "texel " << i;
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_HIP(hipSuccess, hipDestroyTextureObject(hip_tex));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureKernelConformance, KernelReadsAndWritesASurface) {
  constexpr unsigned kWidth = 32, kHeight = 6;
  CUarray array = MakeArray(kWidth, kHeight, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST);
  ASSERT_NE(array, nullptr);
  std::vector<float> start(kWidth * kHeight);
  for (size_t i = 0; i < start.size(); ++i) start[i] = static_cast<float>(i) * 0.5f;
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, start.data(), kWidth * 4, kHeight, 1, true));
  CUsurfObject surf = MakeSurface(array);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSurfaceGlsl, "surface_add", &module);
  ASSERT_NE(f, nullptr);
  unsigned width = kWidth, height = kHeight;
  float add = 1.0f;
  void* params[] = {&surf, &add, &width, &height};
  // Two launches in stream order: the second reads what the first wrote.
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, params, nullptr));
  add = 2.0f;
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got(kWidth * kHeight, -1.0f);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, got.data(), kWidth * 4, kHeight, 1, false));
  for (unsigned y = 0; y < kHeight; ++y) {
    for (unsigned x = 0; x < kWidth; ++x) {
      const float want = start[y * kWidth + x] + 2.0f * static_cast<float>(x * 100 + y) + 3.0f;
      EXPECT_EQ(got[y * kWidth + x], want) << "at (" << x << ", " << y << ")";
    }
  }
  // A texture where the kernel declares a surface, and the reverse.
  CUtexObject tex = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  void* with_texture[] = {&tex, &add, &width, &height};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, kHeight, 1, 1, kWidth, 1, 1, 0, nullptr, with_texture, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  CUfunction sample = LoadCudaKernel(kSample2DGlsl, "sample_2d", &module);
  ASSERT_NE(sample, nullptr);
  CUdeviceptr scratch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&scratch, 64));
  unsigned n = 1;
  void* with_surface[] = {&surf, &scratch, &scratch, &n};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(sample, 1, 1, 1, 32, 1, 1, 0, nullptr, with_surface, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(scratch));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuSurfObjectDestroy(surf));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

TEST_F(TextureKernelConformance, ThreeDimensionalAndLayeredTextures) {
  constexpr unsigned kSize = 4;
  std::vector<float> values(kSize * kSize * kSize);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i) + 0.25f;
  CUarray volume = MakeArray(kSize, kSize, kSize, CU_AD_FORMAT_FLOAT, 1);
  CUarray layers = MakeArray(kSize, kSize, kSize, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_LAYERED);
  ASSERT_NE(volume, nullptr);
  ASSERT_NE(layers, nullptr);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(volume, values.data(), kSize * 4, kSize, kSize, true));
  std::vector<float> layered(values.size());
  for (size_t i = 0; i < values.size(); ++i) layered[i] = -values[i];
  ASSERT_CU(CUDA_SUCCESS, CopyArray(layers, layered.data(), kSize * 4, kSize, kSize, true));
  CUtexObject tex_volume = MakeTexture(volume, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
                                       CU_TRSF_NORMALIZED_COORDINATES);
  CUtexObject tex_layers = MakeTexture(layers, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT,
                                       CU_TRSF_NORMALIZED_COORDINATES);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kVolumeGlsl, "volume_and_layers", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr from_volume = 0, from_layers = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&from_volume, values.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&from_layers, values.size() * 4));
  unsigned size = kSize;
  void* params[] = {&tex_volume, &tex_layers, &from_volume, &from_layers, &size};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kSize, 1, 1, kSize, kSize, 1, 0, nullptr, params, nullptr));
  std::vector<float> got_volume(values.size()), got_layers(values.size());
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_volume.data(), from_volume, values.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_layers.data(), from_layers, values.size() * 4));
  EXPECT_EQ(got_volume, values);
  EXPECT_EQ(got_layers, layered);
  // Unnormalised coordinates on a 3-D texture are a documented limitation.
  CUtexObject unnormalized =
      MakeTexture(volume, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  void* limited[] = {&unnormalized, &tex_layers, &from_volume, &from_layers, &size};
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuLaunchKernel(f, kSize, 1, 1, kSize, kSize, 1, 0, nullptr, limited, nullptr));
  // A layered texture where the kernel declares a 3-D one.
  void* swapped[] = {&tex_layers, &tex_layers, &from_volume, &from_layers, &size};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, kSize, 1, 1, kSize, kSize, 1, 0, nullptr, swapped, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(from_volume));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(from_layers));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(unnormalized));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_volume));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_layers));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(volume));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(layers));
}

// A texture parameter given something else: 0, a destroyed texture, a
// device pointer. Nothing is launched, and the stream works on.
TEST_F(TextureKernelConformance, TextureParameterGivenAnotherValueIsInvalidValue) {
  const Image image = MakeImage(4, 4);
  CUarray array = MakeArray(4, 4, 0, CU_AD_FORMAT_FLOAT, 1);
  ASSERT_CU(CUDA_SUCCESS,
            CopyArray(array, const_cast<float*>(image.texels.data()), 16, 4, 1, true));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSample2DGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  CUdeviceptr coords = 0, out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&coords, 8));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, 4));
  unsigned n = 1;
  CUtexObject destroyed = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectDestroy(destroyed));
  CUtexObject values[] = {0, destroyed, static_cast<CUtexObject>(out)};
  for (CUtexObject value : values) {
    void* params[] = {&value, &coords, &out, &n};
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  }
  // A texture whose array was destroyed first (a caller error in CUDA).
  CUarray gone = MakeArray(4, 4, 0, CU_AD_FORMAT_FLOAT, 1);
  CUtexObject orphan = MakeTexture(gone, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  ASSERT_CU(CUDA_SUCCESS, cuArrayDestroy(gone));
  void* orphan_params[] = {&orphan, &coords, &out, &n};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, nullptr, orphan_params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(orphan));
  // The same kernel with a live texture still runs.
  CUtexObject tex = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  const std::vector<float> got = RunSample(f, tex, {2.5f, 1.5f});
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], image.at(2, 1));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

// tex1Dfetch over linear memory: floats as they are, 8-bit texels as
// normalised floats, through samplerBuffer kernels.
const char kFetchGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME fetch
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform samplerBuffer floats;
layout(set = 2, binding = 1) uniform samplerBuffer bytes;
layout(push_constant) uniform Params {
  uint64_t floats;
  uint64_t bytes;
  float_ptr out_values;
  uint n;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.out_values.v[2 * i] = tex1Dfetch(floats, i).x;
  p.out_values.v[2 * i + 1] = tex1Dfetch(bytes, i).z;
}
)";

CUtexObject MakeLinearTexture(CUdeviceptr memory, size_t bytes, CUarray_format format,
                              unsigned channels) {
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_LINEAR;
  r.res.linear.devPtr = memory;
  r.res.linear.format = format;
  r.res.linear.numChannels = channels;
  r.res.linear.sizeInBytes = bytes;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  CUtexObject tex = 0;
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  return tex;
}

TEST_F(TextureKernelConformance, Tex1DfetchReadsLinearMemory) {
  constexpr unsigned kN = 1000;
  std::vector<float> floats(kN);
  std::vector<uint8_t> bytes(4 * kN);
  for (unsigned i = 0; i < kN; ++i) floats[i] = static_cast<float>(i) * 0.5f - 7.0f;
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 13 + 1);
  CUdeviceptr d_floats = 0, d_bytes = 0, d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_floats, kN * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_bytes, kN * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, 2 * kN * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_floats, floats.data(), kN * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_bytes, bytes.data(), kN * 4));
  CUtexObject tex_floats = MakeLinearTexture(d_floats, kN * 4, CU_AD_FORMAT_FLOAT, 1);
  CUtexObject tex_bytes = MakeLinearTexture(d_bytes, kN * 4, CU_AD_FORMAT_UNSIGNED_INT8, 4);
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kFetchGlsl, "fetch", &module);
  ASSERT_NE(f, nullptr);
  unsigned n = kN;
  void* params[] = {&tex_floats, &tex_bytes, &d_out, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got(2 * kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, 2 * kN * 4));
  for (unsigned i = 0; i < kN; ++i) {
    ASSERT_EQ(got[2 * i], floats[i]) << "texel " << i;
    ASSERT_NEAR(got[2 * i + 1], bytes[4 * i + 2] / 255.0f, 1e-6f) << "texel " << i;
  }
  // The kernels see later writes to the memory: a texture is a view, not
  // a copy.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(d_floats, 0x40400000, kN));  // 3.0f
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, 2 * kN * 4));
  EXPECT_EQ(got[0], 3.0f);
  EXPECT_EQ(got[2 * (kN - 1)], 3.0f);
  // A 2-D kernel given a linear texture, and a linear kernel given a
  // texture over memory that was freed, are invalid values.
  CUmodule sample_module = nullptr;
  CUfunction sample = LoadCudaKernel(kSample2DGlsl, "sample_2d", &sample_module);
  ASSERT_NE(sample, nullptr);
  void* wrong_shape[] = {&tex_floats, &d_out, &d_out, &n};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(sample, 1, 1, 1, 32, 1, 1, 0, nullptr, wrong_shape, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(d_bytes));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(f, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_floats));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex_bytes));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(sample_module));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_floats));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
}

void CUDA_CB WaitForGate(void* gate) {
  auto* open = static_cast<std::atomic<bool>*>(gate);
  while (!open->load()) {
  }
}

// Destroying a texture object while a launch that binds it is pending (and
// a graph that binds it exists) leaves that launch and the graph what they
// need.
TEST_F(TextureKernelConformance, TextureDestroyedWhileALaunchIsPendingStillSamples) {
  const Image image = MakeImage(6, 3);
  CUarray array = MakeArray(image.width, image.height, 0, CU_AD_FORMAT_FLOAT, 1);
  ASSERT_CU(CUDA_SUCCESS, CopyArray(array, const_cast<float*>(image.texels.data()), image.width * 4,
                                    image.height, 1, true));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSample2DGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  std::vector<float> coords;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      coords.push_back(x + 0.5f);
      coords.push_back(y + 0.5f);
    }
  }
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  CUdeviceptr d_coords = 0, d_out = 0, d_graph_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_graph_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * 4));

  // A graph captured with the texture, instantiated before it goes.
  CUtexObject tex = MakeTexture(array, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  void* graph_params[] = {&tex, &d_coords, &d_graph_out, const_cast<unsigned*>(&n)};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, graph_params, nullptr));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &graph));
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));

  std::atomic<bool> gate{false};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(stream, WaitForGate, &gate));
  void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamQuery(stream) == CUDA_ERROR_NOT_READY ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN);
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  gate.store(true);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<float> got(n), got_graph(n);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got_graph.data(), d_graph_out, n * 4));
  EXPECT_EQ(got, image.texels);
  EXPECT_EQ(got_graph, image.texels);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_graph_out));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuArrayDestroy(array));
}

// The HIP forms: hipMallocArray, hipCreateTextureObject and
// hipCreateSurfaceObject, launched with hipModuleLaunchKernel.
TEST_F(TextureKernelConformance, HipKernelsBindTextureAndSurfaceObjects) {
  const Image image = MakeImage(8, 4);
  hipChannelFormatDesc channel = {32, 0, 0, 0, hipChannelFormatKindFloat};
  hipArray_t array = nullptr;
  ASSERT_HIP(hipSuccess,
             hipMallocArray(&array, &channel, image.width, image.height, hipArraySurfaceLoadStore));
  ASSERT_HIP(hipSuccess, hipMemcpy2DToArray(array, 0, 0, image.texels.data(), image.width * 4,
                                            image.width * 4, image.height, hipMemcpyHostToDevice));
  hipResourceDesc r;
  std::memset(&r, 0, sizeof(r));
  r.resType = hipResourceTypeArray;
  r.res.array.array = array;
  hipTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = hipAddressModeClamp;
  t.filterMode = hipFilterModeLinear;
  t.readMode = hipReadModeElementType;
  hipTextureObject_t tex = nullptr;
  ASSERT_HIP(hipSuccess, hipCreateTextureObject(&tex, &r, &t, nullptr));
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kSample2DGlsl, "sample_2d", &module);
  ASSERT_NE(f, nullptr);
  const std::vector<float> coords = Coordinates(image, false);
  const unsigned n = static_cast<unsigned>(coords.size() / 2);
  hipDeviceptr_t d_coords = nullptr, d_out = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&d_coords, coords.size() * 4));
  ASSERT_HIP(hipSuccess, hipMalloc(&d_out, n * 4));
  ASSERT_HIP(hipSuccess,
             hipMemcpyHtoD(d_coords, const_cast<float*>(coords.data()), coords.size() * 4));
  void* params[] = {&tex, &d_coords, &d_out, const_cast<unsigned*>(&n)};
  ASSERT_HIP(hipSuccess,
             hipModuleLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got(n);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(got.data(), d_out, n * 4));
  for (unsigned i = 0; i < n; ++i) {
    const float want = HostSample(image, coords[2 * i], coords[2 * i + 1], CU_TR_ADDRESS_MODE_CLAMP,
                                  true, false, 0.0f);
    ASSERT_NEAR(got[i], want, 1e-5f) << "sample " << i;
  }
  // The surface form writes the same array.
  hipSurfaceObject_t surf = nullptr;
  ASSERT_HIP(hipSuccess, hipCreateSurfaceObject(&surf, &r));
  hipModule_t surface_module = nullptr;
  hipFunction_t add = LoadHipKernel(kSurfaceGlsl, "surface_add", &surface_module);
  ASSERT_NE(add, nullptr);
  float plus = 0.0f;
  unsigned width = image.width, height = image.height;
  void* add_params[] = {&surf, &plus, &width, &height};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(add, image.height, 1, 1, image.width, 1, 1, 0,
                                               nullptr, add_params, nullptr));
  std::vector<float> written(image.texels.size());
  ASSERT_HIP(hipSuccess,
             hipMemcpy2DFromArray(written.data(), image.width * 4, array, 0, 0, image.width * 4,
                                  image.height, hipMemcpyDeviceToHost));
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      EXPECT_EQ(written[y * image.width + x], image.at(x, y) + static_cast<float>(x * 100 + y));
    }
  }
  EXPECT_HIP(hipSuccess, hipDestroySurfaceObject(surf));
  EXPECT_HIP(hipSuccess, hipDestroyTextureObject(tex));
  EXPECT_HIP(hipSuccess, hipFree(d_coords));
  EXPECT_HIP(hipSuccess, hipFree(d_out));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  EXPECT_HIP(hipSuccess, hipModuleUnload(surface_module));
  EXPECT_HIP(hipSuccess, hipFreeArray(array));
}

}  // namespace
}  // namespace streamhal::conformance
