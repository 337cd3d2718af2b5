// Rows: cuDevicePrimaryCtx{Retain,Release,SetFlags,GetState,Reset} and their
// hipDevicePrimaryCtx* equivalents; HIP's implicit use of the current
// device's primary context by every hipCtx* query (AMD's runtime).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using PrimaryContextConformance = DriverTest;

TEST_F(PrimaryContextConformance, RetainGivesOneContextToBothApis) {
  CUcontext cuda_primary = nullptr;
  hipCtx_t hip_primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&cuda_primary, 0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&hip_primary, 0));
  ASSERT_NE(cuda_primary, nullptr);
  EXPECT_EQ(Object(cuda_primary), Object(hip_primary));
  // Retaining does not make it current (CUDA: "retain ... does not push").
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(cuda_primary));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(Object(HipCurrent()), Object(cuda_primary));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(0));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

TEST_F(PrimaryContextConformance, EveryDeviceHasItsOwnPrimaryContext) {
  if (device_count() < 2) {
    CUcontext primary = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
    CUdevice device = -1;
    ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(primary));
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
    EXPECT_EQ(device, 0);
    ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
    return;
  }
  CUcontext first = nullptr;
  hipCtx_t second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&first, 0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&second, 1));
  EXPECT_NE(Object(first), Object(second));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(1));
}

TEST_F(PrimaryContextConformance, RetainRejectsBadArguments) {
  CUcontext cuda_primary;
  hipCtx_t hip_primary;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxRetain(nullptr, 0),
              hipDevicePrimaryCtxRetain(nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&cuda_primary, device_count()),
              hipDevicePrimaryCtxRetain(&hip_primary, device_count()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRetain(&cuda_primary, -1),
              hipDevicePrimaryCtxRetain(&hip_primary, -1));
}

TEST_F(PrimaryContextConformance, ReleaseCountsRetainsOfBothApis) {
  CUcontext cuda_primary = nullptr;
  hipCtx_t hip_primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&cuda_primary, 0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&hip_primary, 0));
  unsigned flags = 0;
  int active = -1;
  // Two retains: the first release keeps it alive, the second ends it.
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(0));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 1);
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 0);
  // The released context is gone for both APIs.
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(cuda_primary),
              hipCtxPushCurrent(hip_primary));
}

TEST_F(PrimaryContextConformance, ReleaseWithoutRetainIsAnError) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuDevicePrimaryCtxRelease(0),
              hipDevicePrimaryCtxRelease(0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxRelease(device_count()),
              hipDevicePrimaryCtxRelease(device_count()));
}

TEST_F(PrimaryContextConformance, ThePrimaryContextIsNotDestroyedByCtxDestroy) {
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(primary),
              hipCtxDestroy(reinterpret_cast<hipCtx_t>(primary)));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(primary));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

TEST_F(PrimaryContextConformance, FlagsSetThroughOneApiAreSeenByTheOther) {
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleYield));
  unsigned flags = 0;
  int active = -1;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_YIELD));
  EXPECT_EQ(active, 0);
  // The context is created with the flags set before it existed.
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(primary));
  ASSERT_HIP(hipSuccess, hipCtxGetFlags(&flags));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_YIELD));
  // CUDA 11 and later let the flags change while the context is active,
  // and the context reports them.
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
  EXPECT_EQ(active, 1);
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&flags));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

TEST_F(PrimaryContextConformance, SetFlagsRejectsBadArguments) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, 0x1000),
              hipDevicePrimaryCtxSetFlags(0, 0x1000));
  // At most one scheduling flag.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD),
              hipDevicePrimaryCtxSetFlags(0, hipDeviceScheduleSpin | hipDeviceScheduleYield));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxSetFlags(device_count(), 0),
              hipDevicePrimaryCtxSetFlags(device_count(), 0));
}

TEST_F(PrimaryContextConformance, GetStateIsTheSameThroughBothApis) {
  unsigned cuda_flags = 1, hip_flags = 2;
  int cuda_active = -1, hip_active = -2;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &cuda_flags, &cuda_active));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxGetState(0, &hip_flags, &hip_active));
  EXPECT_EQ(cuda_flags, 0u);
  EXPECT_EQ(cuda_active, 0);
  EXPECT_EQ(hip_flags, cuda_flags);
  EXPECT_EQ(hip_active, cuda_active);
}

TEST_F(PrimaryContextConformance, GetStateRejectsBadArguments) {
  unsigned flags;
  int active;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(0, nullptr, &active),
              hipDevicePrimaryCtxGetState(0, nullptr, &active));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxGetState(0, &flags, nullptr),
              hipDevicePrimaryCtxGetState(0, &flags, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
              cuDevicePrimaryCtxGetState(device_count(), &flags, &active),
              hipDevicePrimaryCtxGetState(device_count(), &flags, &active));
}

TEST_F(PrimaryContextConformance, ResetDestroysTheContext) {
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxReset(0));
  unsigned flags = 0;
  int active = 1;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 0);
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(primary),
              hipCtxPushCurrent(reinterpret_cast<hipCtx_t>(primary)));
  // A reset of an inactive primary context is allowed too.
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
  // A later retain gives a new, working context.
  CUcontext fresh = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&fresh, 0));
  EXPECT_NE(fresh, primary);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(fresh));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
}

TEST_F(PrimaryContextConformance, ReleaseAfterResetIsAllowed) {
  // CUDA: "Resetting the primary context does not release it"; a module
  // that retained it may still release it after someone else reset it.
  CUcontext cuda_primary = nullptr;
  hipCtx_t hip_primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&cuda_primary, 0));
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&hip_primary, 0));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
  EXPECT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(0));
}

TEST_F(PrimaryContextConformance, ResetRejectsBadDevices) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxReset(device_count()),
              hipDevicePrimaryCtxReset(device_count()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDevicePrimaryCtxReset(-1), hipDevicePrimaryCtxReset(-1));
}

// --- HIP: the current device's primary context stands in for a current one ---

// Each test starts as a fresh process does: nothing initialised, no context.
using HipImplicitContextConformance = UninitializedTest;

TEST_F(HipImplicitContextConformance, ContextQueriesUseThePrimaryContextOfDeviceZero) {
  hipDevice_t device = -1;
  ASSERT_HIP(hipSuccess, hipCtxGetDevice(&device));
  EXPECT_EQ(device, 0);
  hipCtx_t current = nullptr;
  ASSERT_HIP(hipSuccess, hipCtxGetCurrent(&current));
  ASSERT_NE(current, nullptr);
  hipCtx_t primary = nullptr;
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxRetain(&primary, 0));
  EXPECT_EQ(current, primary);
  unsigned flags = ~0u;
  EXPECT_HIP(hipSuccess, hipCtxGetFlags(&flags));
  unsigned primary_flags = ~0u;
  int active = 0;
  ASSERT_HIP(hipSuccess, hipDevicePrimaryCtxGetState(0, &primary_flags, &active));
  EXPECT_EQ(flags, primary_flags);
  EXPECT_EQ(active, 1);
  EXPECT_HIP(hipSuccess, hipDevicePrimaryCtxRelease(0));
  // The driver API sees the same context once HIP made it current.
  CUcontext cuda_current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&cuda_current));
  EXPECT_EQ(Object(cuda_current), Object(current));
}

TEST_F(HipImplicitContextConformance, EachQueryAloneBringsUpThePrimaryContext) {
  // Every query, as the first call of a process, succeeds.
  const auto fresh = [] {
    (void)cuHALDeinit();
    (void)hipGetLastError();
  };
  int version = 0;
  EXPECT_HIP(hipSuccess, hipCtxGetApiVersion(nullptr, &version));
  EXPECT_GT(version, 0);
  fresh();
  EXPECT_HIP(hipSuccess, hipCtxSynchronize());
  fresh();
  unsigned flags = 0;
  EXPECT_HIP(hipSuccess, hipCtxGetFlags(&flags));
  fresh();
  hipFuncCache_t cache = hipFuncCachePreferEqual;
  EXPECT_HIP(hipSuccess, hipCtxGetCacheConfig(&cache));
  EXPECT_EQ(cache, hipFuncCachePreferNone);
  fresh();
  EXPECT_HIP(hipSuccess, hipCtxSetCacheConfig(hipFuncCachePreferShared));
  ASSERT_HIP(hipSuccess, hipCtxGetCacheConfig(&cache));
  EXPECT_EQ(cache, hipFuncCachePreferNone);  // a fixed split
  fresh();
  hipSharedMemConfig bank = hipSharedMemBankSizeEightByte;
  EXPECT_HIP(hipSuccess, hipCtxGetSharedMemConfig(&bank));
  EXPECT_EQ(bank, hipSharedMemBankSizeFourByte);  // fixed 4-byte banks
  fresh();
  EXPECT_HIP(hipSuccess, hipCtxSetSharedMemConfig(hipSharedMemBankSizeFourByte));
  ASSERT_HIP(hipSuccess, hipCtxGetSharedMemConfig(&bank));
  EXPECT_EQ(bank, hipSharedMemBankSizeFourByte);
  fresh();
  hipDevice_t device = -1;
  EXPECT_HIP(hipSuccess, hipCtxGetDevice(&device));
  EXPECT_EQ(device, 0);
}

TEST_F(HipImplicitContextConformance, DeviceConfigCallsActOnThePrimaryContext) {
  ASSERT_HIP(hipSuccess, hipDeviceSetCacheConfig(hipFuncCachePreferL1));
  hipFuncCache_t cache = hipFuncCachePreferNone;
  // A fixed split: the preference is accepted, PreferNone reported.
  ASSERT_HIP(hipSuccess, hipDeviceGetCacheConfig(&cache));
  EXPECT_EQ(cache, hipFuncCachePreferNone);
  ASSERT_HIP(hipSuccess, hipCtxGetCacheConfig(&cache));
  EXPECT_EQ(cache, hipFuncCachePreferNone);
  // The primary context is the driver API's too.
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(primary));
  CUfunc_cache cuda_cache = CU_FUNC_CACHE_PREFER_NONE;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&cuda_cache));
  EXPECT_EQ(cuda_cache, CU_FUNC_CACHE_PREFER_NONE);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
  ASSERT_HIP(hipSuccess, hipDeviceSetSharedMemConfig(hipSharedMemBankSizeEightByte));
  hipSharedMemConfig bank = hipSharedMemBankSizeDefault;
  ASSERT_HIP(hipSuccess, hipDeviceGetSharedMemConfig(&bank));
  EXPECT_EQ(bank, hipSharedMemBankSizeFourByte);
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetCacheConfig(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGetSharedMemConfig(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceSetSharedMemConfig(static_cast<hipSharedMemConfig>(3)));
}

TEST_F(HipImplicitContextConformance, TheDeviceChosenBySetDeviceIsUsed) {
  int count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&count));
  const int last = count - 1;
  ASSERT_HIP(hipSuccess, hipSetDevice(last));
  hipDevice_t device = -1;
  ASSERT_HIP(hipSuccess, hipCtxGetDevice(&device));
  EXPECT_EQ(device, last);
}

TEST_F(HipImplicitContextConformance, TheDriverApiStillNeedsACurrentContext) {
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  CUdevice device = -1;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&device));
  unsigned flags = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&flags));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
  CUcontext current = reinterpret_cast<CUcontext>(0x1);
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&current));
  EXPECT_EQ(current, nullptr);
}

}  // namespace
}  // namespace streamhal::conformance
