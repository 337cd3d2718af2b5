#include <cuda.h>

#include <string>

#include "gtest/gtest.h"

namespace {

// Leaves the driver uninitialised before and after each test.
class CudaInitTest : public ::testing::Test {
 protected:
  void SetUp() override { cuHALDeinit(); }
  void TearDown() override { cuHALDeinit(); }
};

TEST_F(CudaInitTest, CallsBeforeInitReturnNotInitialized) {
  int count = -1;
  EXPECT_EQ(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
  CUdevice device;
  EXPECT_EQ(cuDeviceGet(&device, 0), CUDA_ERROR_NOT_INITIALIZED);
  CUcontext ctx;
  EXPECT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(cuCtxGetCurrent(&ctx), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(cuDevicePrimaryCtxRetain(&ctx, 0), CUDA_ERROR_NOT_INITIALIZED);
  EXPECT_EQ(cuHALDeinit(), CUDA_ERROR_NOT_INITIALIZED);
}

TEST_F(CudaInitTest, InitWithNonZeroFlagsIsInvalidValue) {
  EXPECT_EQ(cuInit(1), CUDA_ERROR_INVALID_VALUE);
  int count = 0;
  EXPECT_EQ(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
}

TEST_F(CudaInitTest, InitFindsLavapipeAndIsIdempotent) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  int count = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  ASSERT_GE(count, 1);
  bool found_llvmpipe = false;
  for (int i = 0; i < count; ++i) {
    char name[256];
    ASSERT_EQ(cuDeviceGetName(name, sizeof(name), i), CUDA_SUCCESS);
    found_llvmpipe |= std::string(name).find("llvmpipe") != std::string::npos;
  }
  EXPECT_TRUE(found_llvmpipe);
}

TEST_F(CudaInitTest, DeinitAllowsInitAgainAndInvalidatesHandles) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuHALDeinit(), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_ERROR_NOT_INITIALIZED);
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
  CUcontext current = reinterpret_cast<CUcontext>(1);
  ASSERT_EQ(cuCtxGetCurrent(&current), CUDA_SUCCESS);
  EXPECT_EQ(current, nullptr);
}

TEST_F(CudaInitTest, DriverVersionWorksWithoutInit) {
  int version = 0;
  ASSERT_EQ(cuDriverGetVersion(&version), CUDA_SUCCESS);
  EXPECT_EQ(version, 13000);  // CUDA 13.0, which serves the 12.x forms too
  EXPECT_GE(version, CUDA_VERSION);
  EXPECT_EQ(cuDriverGetVersion(nullptr), CUDA_ERROR_INVALID_VALUE);
}

TEST(CudaErrorTest, NamesAndStrings) {
  const char* text = nullptr;
  ASSERT_EQ(cuGetErrorName(CUDA_ERROR_INVALID_CONTEXT, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "CUDA_ERROR_INVALID_CONTEXT");
  ASSERT_EQ(cuGetErrorName(CUDA_SUCCESS, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "CUDA_SUCCESS");
  ASSERT_EQ(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &text), CUDA_SUCCESS);
  EXPECT_STREQ(text, "out of memory");
  text = reinterpret_cast<const char*>(1);
  EXPECT_EQ(cuGetErrorName(static_cast<CUresult>(12345), &text), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(text, nullptr);
  EXPECT_EQ(cuGetErrorString(static_cast<CUresult>(12345), &text), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGetErrorName(CUDA_SUCCESS, nullptr), CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
