// Rows: PTX half precision (part of cuModuleLoadData (PTX)): .f16 and
// .f16x2 arithmetic and conversions (SPIR-V Float16, the device's
// shaderFloat16), checked against the host's _Float16. Inputs are small
// multiples of 1/8 so every result is exact in half precision and the
// comparison does not depend on how an implementation rounds f16 fma.
#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using PtxHalfConformance = ContextTest;

uint16_t HalfBitsOf(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

float FloatOfHalfBits(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

TEST_F(PtxHalfConformance, HalfAndHalf2ArithmeticAndConversionsMatchTheHost) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, PtxHalfOps()));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "half_ops"));
  int n = 300;
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i % 37 - 18) / 4;
    b[i] = static_cast<float>(i % 23 - 11) / 8;
  }
  CUdeviceptr da = CudaUpload(a), db = CudaUpload(b),
              dout = CudaUpload(std::vector<float>(n * 10, -999.0f));
  void* params[] = {&da, &db, &dout, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> out = CudaDownload<float>(dout, n * 10);
  for (int i = 0; i < n; ++i) {
    const double x = a[i], y = b[i];
    const double s = x + y, d = x - y, m = x * y;
    const double expected[10] = {s,
                                 d,
                                 m,
                                 x * y + s,
                                 x * y + (x + y),  // fma2 low: p.x * q.x + (p.x + q.x)
                                 y * s + (y + s),  // high: p.y * q.y + (p.y + q.y)
                                 (x - y) * -y,     // (p - q) * -q, low
                                 (y - s) * -s,     // high
                                 std::fabs(d) + (x < y ? 100 : 0),
                                 std::nearbyint(-m)};
    for (int k = 0; k < 10; ++k) {
      EXPECT_EQ(out[i * 10 + k], static_cast<float>(expected[k]))
          << "element " << i << ", result " << k << " (a " << x << ", b " << y << ")";
    }
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(da));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(db));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// __half arrays in memory: 16-bit loads and stores (two halves per word,
// written by different threads) around a half-precision multiply.
TEST_F(PtxHalfConformance, HalvesInMemoryLoadScaleAndStore) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, PtxHalfOps()));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "half_scale"));
  int n = 257;
  std::vector<uint16_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = HalfBitsOf(static_cast<float>(i - 128) / 16);
  CUdeviceptr din = CudaUpload(in), dout = CudaUpload(std::vector<uint16_t>(n + 1, 0xabcd));
  float scale = -2.5f;
  void* params[] = {&din, &dout, &scale, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<uint16_t> out = CudaDownload<uint16_t>(dout, n + 1);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(FloatOfHalfBits(out[i]), static_cast<float>(i - 128) / 16 * -2.5f) << "element " << i;
  }
  EXPECT_EQ(out[n], 0xabcd) << "the half past the end is untouched";
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(din));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dout));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

}  // namespace
}  // namespace streamhal::conformance
