// Rows: cuInit/hipInit, cuDriverGetVersion/hipDriverGetVersion,
// hipRuntimeGetVersion, cuHALDeinit/hipHALDeinit.
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using InitConformance = UninitializedTest;

TEST_F(InitConformance, CudaInitFindsDevicesAndIsIdempotent) {
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  int count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&count));
  EXPECT_GE(count, 1);
}

TEST_F(InitConformance, HipInitFindsTheSameDevices) {
  ASSERT_HIP(hipSuccess, hipInit(0));
  ASSERT_HIP(hipSuccess, hipInit(0));
  int hip_count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&hip_count));
  // One initialisation serves both APIs.
  int cuda_count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&cuda_count));
  EXPECT_EQ(hip_count, cuda_count);
  EXPECT_GE(hip_count, 1);
}

TEST_F(InitConformance, NonZeroFlagsAreInvalidAndLeaveTheDriverUninitialized) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuInit(1), hipInit(1));
  int count = 0;
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
}

TEST_F(InitConformance, CudaCallsBeforeInitReturnNotInitialized) {
  int count = 0;
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
  CUdevice device;
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGet(&device, 0));
  CUcontext context;
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuCtxCreate(&context, 0, 0));
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetCurrent(&context));
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDevicePrimaryCtxRetain(&context, 0));
}

TEST_F(InitConformance, HipInitializesLazily) {
  // HIP has no mandatory init call: the first call initialises.
  int count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&count));
  EXPECT_GE(count, 1);
  int cuda_count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&cuda_count));
  EXPECT_EQ(cuda_count, count);
}

// hip_impl::hip_init, the initialiser AMD's header declares for C++: it
// initialises the driver for both APIs, as hipInit(0) does, and may repeat.
TEST_F(InitConformance, HipImplHipInitInitializesTheDriver) {
  int count = 0;
  ASSERT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
  ASSERT_HIP(hipSuccess, hip_impl::hip_init());
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&count));
  EXPECT_GE(count, 1);
  EXPECT_HIP(hipSuccess, hip_impl::hip_init());
  int hip_count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&hip_count));
  EXPECT_EQ(hip_count, count);
}

TEST_F(InitConformance, DriverVersionsWorkBeforeInit) {
  int cuda_version = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDriverGetVersion(&cuda_version));
  // The driver is CUDA 13.0's, serving the 12.x forms cuda.h presents by
  // default (CUDA_VERSION 12000) and the 13.0 ones.
  EXPECT_EQ(cuda_version, 13000);
  EXPECT_GE(cuda_version, CUDA_VERSION);
  int hip_version = 0;
  ASSERT_HIP(hipSuccess, hipDriverGetVersion(&hip_version));
  EXPECT_EQ(hip_version, HIP_VERSION);
  // Asking for the version does not initialise the driver.
  int count = 0;
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
}

TEST_F(InitConformance, DriverVersionRejectsNull) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(nullptr), hipDriverGetVersion(nullptr));
}

TEST_F(InitConformance, RuntimeVersionIsTheHipVersion) {
  int version = 0;
  ASSERT_HIP(hipSuccess, hipRuntimeGetVersion(&version));
  EXPECT_EQ(version, HIP_VERSION);
  EXPECT_EQ(version, HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH);
  EXPECT_HIP(hipErrorInvalidValue, hipRuntimeGetVersion(nullptr));
}

TEST_F(InitConformance, DeinitReleasesEverythingAndInitWorksAgain) {
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  // Deinit through HIP ends the CUDA view too: one driver underneath.
  ASSERT_HIP(hipSuccess, hipHALDeinit());
  EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuCtxPushCurrent(context));
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  // Handles from before the deinit stay detectably invalid.
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(context));
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuHALDeinit());
  ASSERT_HIP(hipSuccess, hipInit(0));
  EXPECT_EQ(CudaCurrent(), nullptr);
}

TEST_F(InitConformance, DeinitWithoutInitIsNotInitialized) {
  EXPECT_BOTH(CUDA_ERROR_NOT_INITIALIZED, cuHALDeinit(), hipHALDeinit());
}

}  // namespace
}  // namespace streamhal::conformance
