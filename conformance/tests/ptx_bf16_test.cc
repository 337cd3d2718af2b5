// Rows: PTX bfloat16 (part of cuModuleLoadData (PTX)): .bf16/.bf16x2
// conversions from f32 (nearest even and toward zero), arithmetic, min/max,
// neg/abs and comparisons, through nvcc's compute_80 and compute_90 PTX of one
// kernel, checked bit for bit against the host: each result is the exact
// value rounded once to nearest even, NaN results the canonical 0x7fff.
#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "ptx_corpus.h"

namespace streamhal::conformance {
namespace {

using PtxBf16Conformance = ContextTest;

uint32_t BitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float FloatOfBf16(uint16_t bits) {
  const uint32_t u = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint16_t Bf16Nearest(float f) {
  if (std::isnan(f)) return 0x7fff;
  const uint32_t u = BitsOf(f);
  return static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

uint16_t Bf16TowardZero(float f) {
  return std::isnan(f) ? 0x7fff : static_cast<uint16_t>(BitsOf(f) >> 16);
}

// `v` (exact in double for these inputs) rounded once to bf16, nearest even.
uint16_t Bf16OfExact(double v) {
  if (std::isnan(v)) return 0x7fff;
  if (v == 0 || std::isinf(v)) return Bf16TowardZero(static_cast<float>(v));
  int e = 0;
  std::frexp(std::fabs(v), &e);
  const double q = std::ldexp(std::fabs(v), 8 - e);  // in [128, 256)
  double whole = std::floor(q);
  const double frac = q - whole;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2) == 1)) whole += 1;
  const double rounded = std::copysign(std::ldexp(whole, e - 8), v);
  return Bf16TowardZero(static_cast<float>(rounded));  // exact in float
}

uint16_t Bf16Max(uint16_t x, uint16_t y, bool max) {
  const float a = FloatOfBf16(x), b = FloatOfBf16(y);
  if (std::isnan(a) && std::isnan(b)) return 0x7fff;
  if (std::isnan(a)) return y;
  if (std::isnan(b)) return x;
  return (max ? a > b : a < b)
             ? x
             : (a == b ? (max ? (std::signbit(a) ? y : x) : (std::signbit(a) ? x : y)) : y);
}

void RunAndCheck(const char* ptx) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, ptx));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "bf16_ops"));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Crafted cases first: an fma whose exact value lies just above (below) a
  // bf16 tie that an f32 sum alone would round to the tie; NaN; overflow;
  // signed zeros; then values with more bits than bf16 keeps.
  std::vector<float> a = {1.0625f, 1.0625f, nan, 3e38f, -0.0f, 0.0f, 1.5f};
  std::vector<float> b = {1.0625f, 1.0625f, 1.0f, 3e38f, 0.0f, -0.0f, nan};
  std::vector<float> c = {0x1p-40f, -0x1p-40f, 2.0f, 1.0f, -0.0f, 0.0f, 1.0f};
  uint32_t seed = 12345;
  auto next = [&seed]() {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<int32_t>(seed) / 65536) / 3000.0f;
  };
  while (a.size() < 300) {
    a.push_back(next());
    b.push_back(next());
    c.push_back(next());
  }
  const int n = static_cast<int>(a.size());
  CUdeviceptr da = CudaUpload(a), db = CudaUpload(b), dc = CudaUpload(c), dout = 0, dflags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dout, n * 12 * 2));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dflags, n * 4));
  int count = n;
  void* params[] = {&da, &db, &dc, &dout, &dflags, &count};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<uint16_t> out = CudaDownload<uint16_t>(dout, n * 12);
  const std::vector<int32_t> flags = CudaDownload<int32_t>(dflags, n);
  int wrong = 0;
  for (int i = 0; i < n; ++i) {
    const uint16_t x = Bf16Nearest(a[i]), y = Bf16TowardZero(b[i]), z = Bf16Nearest(c[i]);
    const double X = FloatOfBf16(x), Y = FloatOfBf16(y), Z = FloatOfBf16(z);
    const double A2 = FloatOfBf16(Bf16Nearest(a[i])), B2 = FloatOfBf16(Bf16Nearest(b[i]));
    const uint16_t want[12] = {
        x,
        y,
        Bf16OfExact(X + Y),
        Bf16OfExact(X - Y),
        Bf16OfExact(X * Y),
        Bf16OfExact(X * Y + Z),
        Bf16Max(x, y, true),
        Bf16Max(x, y, false),
        static_cast<uint16_t>(x ^ 0x8000),
        static_cast<uint16_t>(y & 0x7fff),
        Bf16OfExact(A2 * A2 + Z),
        Bf16OfExact(B2 * B2 + Z),
    };
    for (int k = 0; k < 12; ++k) {
      // min/max of +0 and -0 may give either zero (PTX does not order them).
      const bool zeros = (k == 6 || k == 7) && X == 0 && Y == 0;
      if (zeros && (out[12 * i + k] & 0x7fff) == 0) continue;
      if (out[12 * i + k] != want[k] && ++wrong <= 10) {
        ADD_FAILURE() << "element " << i << " (" << a[i] << ", " << b[i] << ", " << c[i]
                      << ") result " << k << ": 0x" << std::hex << out[12 * i + k] << ", want 0x"
                      << want[k];
      }
    }
    const int want_flags =
        (X < Y ? 1 : 0) | (X >= Z ? 2 : 0) | (X == Z ? 4 : 0) |
        (std::isnan(X) ? 0 : static_cast<int>(static_cast<float>(X) * 4.0f) << 8);
    if (!std::isnan(X) && std::fabs(X) < 1e6 && flags[i] != want_flags && ++wrong <= 10) {
      ADD_FAILURE() << "element " << i << " flags " << flags[i] << ", want " << want_flags;
    }
  }
  EXPECT_EQ(wrong, 0);
  // The crafted fma cases, by name: 1.0625² = 1.12890625 is the tie between
  // bf16 1.125 and 1.1328125; ±2^-40 decides it.
  EXPECT_EQ(out[12 * 0 + 5], Bf16Nearest(1.1328125f));
  EXPECT_EQ(out[12 * 1 + 5], Bf16Nearest(1.125f));
  for (CUdeviceptr p : {da, db, dc, dout, dflags}) EXPECT_CU(CUDA_SUCCESS, cuMemFree(p));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(PtxBf16Conformance, Compute80Bf16MatchesTheHostBitForBit) { RunAndCheck(PtxBf16Ops()); }

TEST_F(PtxBf16Conformance, Compute90Bf16MatchesTheHostBitForBit) { RunAndCheck(PtxBf16OpsSm90()); }

}  // namespace
}  // namespace streamhal::conformance
