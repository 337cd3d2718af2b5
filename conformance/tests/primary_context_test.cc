// Rows: cuDevicePrimaryCtx{Retain,Release,SetFlags,GetState,Reset} and their
// hipDevicePrimaryCtx* equivalents.
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

}  // namespace
}  // namespace streamhal::conformance
