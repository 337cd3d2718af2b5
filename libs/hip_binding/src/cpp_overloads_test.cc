// The C++ side of the public HIP headers on a device: AMD's template
// overloads of hip/hip_runtime_api.h reach the C entry points, and the vector
// types have the layout kernels expect.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "gtest/gtest.h"

namespace {

// Layouts: AMD's sizes and alignments, and plain bytes to copy.
static_assert(sizeof(char3) == 3 && alignof(char3) == 1);
static_assert(sizeof(short2) == 4 && alignof(short2) == 4);
static_assert(sizeof(int4) == 16 && alignof(int4) == 16);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(double4) == 32 && alignof(double4) == 32);
static_assert(sizeof(ulonglong1) == 8 && alignof(ulonglong1) == 8);
static_assert(std::is_trivially_copyable_v<float4> && std::is_standard_layout_v<float4>);
static_assert(std::is_trivially_default_constructible_v<uint3>);

class HipCppOverloadsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(hipInit(0), hipSuccess);
    ASSERT_EQ(hipSetDevice(0), hipSuccess);
  }
  void TearDown() override { ASSERT_EQ(hipHALDeinit(), hipSuccess); }
};

TEST_F(HipCppOverloadsTest, TypedMallocHoldsWhatIsCopiedIn) {
  const std::vector<float> values = {1.5f, -2.0f, 3.25f, 1e6f};
  float* device = nullptr;
  ASSERT_EQ(hipMalloc(&device, values.size() * sizeof(float)), hipSuccess);
  ASSERT_NE(device, nullptr);
  ASSERT_EQ(hipMemcpy(device, values.data(), values.size() * sizeof(float), hipMemcpyHostToDevice),
            hipSuccess);
  std::vector<float> back(values.size());
  ASSERT_EQ(hipMemcpy(back.data(), device, back.size() * sizeof(float), hipMemcpyDeviceToHost),
            hipSuccess);
  EXPECT_EQ(back, values);
  EXPECT_EQ(hipFree(device), hipSuccess);
}

TEST_F(HipCppOverloadsTest, TypedMallocOfAVectorType) {
  float4* device = nullptr;
  ASSERT_EQ(hipMalloc(&device, 2 * sizeof(float4)), hipSuccess);
  const float4 in[2] = {make_float4(1, 2, 3, 4), float4(5.0f)};
  ASSERT_EQ(hipMemcpy(device, in, sizeof(in), hipMemcpyHostToDevice), hipSuccess);
  float4 out[2] = {};
  ASSERT_EQ(hipMemcpy(out, device, sizeof(out), hipMemcpyDeviceToHost), hipSuccess);
  EXPECT_EQ(out[0].w, 4.0f);
  EXPECT_EQ(out[1].x, 5.0f);
  EXPECT_EQ(out[1].w, 5.0f);
  EXPECT_EQ(hipFree(device), hipSuccess);
}

TEST_F(HipCppOverloadsTest, TwoArgumentHostMallocUsesTheDefaultFlags) {
  int* typed = nullptr;
  void* untyped = nullptr;
  void* explicit_default = nullptr;
  ASSERT_EQ(hipHostMalloc(&typed, 64 * sizeof(int)), hipSuccess);
  ASSERT_EQ(hipHostMalloc(&untyped, 64), hipSuccess);
  ASSERT_EQ(hipHostMalloc(&explicit_default, 64, hipHostMallocDefault), hipSuccess);
  typed[63] = 7;  // host memory the program can use
  unsigned typed_flags = 0xffffffffu;
  unsigned untyped_flags = 0xffffffffu;
  unsigned default_flags = 0;
  ASSERT_EQ(hipHostGetFlags(&typed_flags, typed), hipSuccess);
  ASSERT_EQ(hipHostGetFlags(&untyped_flags, untyped), hipSuccess);
  ASSERT_EQ(hipHostGetFlags(&default_flags, explicit_default), hipSuccess);
  EXPECT_EQ(typed_flags, default_flags);
  EXPECT_EQ(untyped_flags, default_flags);
  EXPECT_EQ(hipHostFree(typed), hipSuccess);
  EXPECT_EQ(hipHostFree(untyped), hipSuccess);
  EXPECT_EQ(hipHostFree(explicit_default), hipSuccess);
}

TEST_F(HipCppOverloadsTest, TypedHostAllocAndPitchedMalloc) {
  double* host = nullptr;
  ASSERT_EQ(hipHostAlloc(&host, 16 * sizeof(double)), hipSuccess);
  host[15] = 1.0;
  EXPECT_EQ(hipHostFree(host), hipSuccess);

  float* rows = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(hipMallocPitch(&rows, &pitch, 10 * sizeof(float), 4), hipSuccess);
  EXPECT_GE(pitch, 10 * sizeof(float));
  EXPECT_EQ(hipFree(rows), hipSuccess);
}

// The overloads whose C entry points are not implemented yet (or take
// arguments a test cannot make valid here) give the C entry point's result.
TEST_F(HipCppOverloadsTest, AllocationOverloadsGiveTheCResult) {
  auto release = [](hipError_t result, void* pointer, bool host) {
    if (result == hipSuccess) (void)(host ? hipHostFree(pointer) : hipFree(pointer));
  };
  int* typed = nullptr;
  void* untyped = nullptr;

  hipError_t t = hipMallocManaged(&typed, 64);
  hipError_t c = hipMallocManaged(&untyped, 64, hipMemAttachGlobal);
  EXPECT_EQ(t, c);
  release(t, typed, false);
  release(c, untyped, false);

  t = hipExtHostAlloc(&typed, 64);
  c = hipExtHostAlloc(&untyped, 64, hipHostAllocDefault);
  EXPECT_EQ(t, c);
  release(t, typed, true);
  release(c, untyped, true);

  // A null pool is not a pool.
  EXPECT_EQ(hipMallocFromPoolAsync(&typed, 64, nullptr, nullptr),
            hipMallocFromPoolAsync(&untyped, 64, nullptr, nullptr));
  EXPECT_EQ(hipMallocAsync(&typed, 64, hipMemPool_t{}, nullptr),
            hipMallocFromPoolAsync(&untyped, 64, nullptr, nullptr));
  EXPECT_EQ(hipMallocAsync(&untyped, 64, hipMemPool_t{}, nullptr),
            hipMallocFromPoolAsync(&untyped, 64, nullptr, nullptr));

  t = hipMallocAsync(&typed, 64, nullptr);
  if (t == hipSuccess) (void)hipFreeAsync(typed, nullptr);
  c = hipMallocAsync(&untyped, 64, nullptr);
  if (c == hipSuccess) (void)hipFreeAsync(untyped, nullptr);
  EXPECT_EQ(t, c);
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
}

// A host variable that no code object registered: both forms reject it alike.
TEST_F(HipCppOverloadsTest, SymbolOverloadsGiveTheCResult) {
  static std::int64_t variable = 0;
  const void* symbol = &variable;
  std::int64_t value = 5;
  void* address = nullptr;
  size_t size = 0;
  EXPECT_EQ(hipGetSymbolAddress(&address, variable), hipGetSymbolAddress(&address, symbol));
  EXPECT_EQ(hipGetSymbolSize(&size, variable), hipGetSymbolSize(&size, symbol));
  EXPECT_EQ(hipMemcpyToSymbol(variable, &value, sizeof(value)),
            hipMemcpyToSymbol(symbol, &value, sizeof(value), 0, hipMemcpyHostToDevice));
  EXPECT_EQ(
      hipMemcpyToSymbolAsync(variable, &value, sizeof(value), 0, hipMemcpyHostToDevice),
      hipMemcpyToSymbolAsync(symbol, &value, sizeof(value), 0, hipMemcpyHostToDevice, nullptr));
  EXPECT_EQ(hipMemcpyFromSymbol(&value, variable, sizeof(value)),
            hipMemcpyFromSymbol(&value, symbol, sizeof(value), 0, hipMemcpyDeviceToHost));
  EXPECT_EQ(
      hipMemcpyFromSymbolAsync(&value, variable, sizeof(value), 0, hipMemcpyDeviceToHost),
      hipMemcpyFromSymbolAsync(&value, symbol, sizeof(value), 0, hipMemcpyDeviceToHost, nullptr));
  EXPECT_EQ(hipDeviceSynchronize(), hipSuccess);
  (void)hipGetLastError();
}

TEST(HipVectorTypes, ConstructorsAndMakeFunctionsSetEveryComponent) {
  constexpr int3 broadcast(7);
  static_assert(broadcast.x == 7 && broadcast.y == 7 && broadcast.z == 7);
  constexpr uchar4 each(1, 2, 3, 4);
  static_assert(each.x == 1 && each.w == 4);
  const char2 made = make_char2(-1, 2);
  EXPECT_EQ(made.x, -1);
  EXPECT_EQ(made.y, 2);
  const ulonglong3 big = make_ulonglong3(1, 2, 1ull << 40);
  EXPECT_EQ(big.z, 1ull << 40);
  const dim3 shape(8);
  EXPECT_EQ(shape.x, 8u);
  EXPECT_EQ(shape.y, 1u);
  EXPECT_EQ(shape.z, 1u);
}

}  // namespace
