// Rows: context management through both APIs (create, destroy, the
// per-thread stack, current-context queries, flags, limits, API version,
// stream priority range, cache and shared-memory preferences, peer access,
// synchronize, attach/detach).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <thread>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

// Not a handle of any object.
CUcontext ForeignCuda() { return reinterpret_cast<CUcontext>(0x12345678); }
hipCtx_t ForeignHip() { return reinterpret_cast<hipCtx_t>(0x12345678); }
hipCtx_t AsHip(CUcontext context) { return reinterpret_cast<hipCtx_t>(context); }
CUcontext AsCuda(hipCtx_t context) { return reinterpret_cast<CUcontext>(context); }

using ContextConformance = DriverTest;

TEST_F(ContextConformance, CudaCreatedContextIsWhatHipSees) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(Object(HipCurrent()), Object(context));
  EXPECT_EQ(Object(CudaCurrent()), Object(context));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, HipCreatedContextIsWhatCudaSees) {
  hipCtx_t context = nullptr;
  ASSERT_HIP(hipSuccess, hipCtxCreate(&context, 0, device_count() - 1));
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(Object(CudaCurrent()), Object(context));
  CUdevice device = -1;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
  EXPECT_EQ(device, device_count() - 1);
  ASSERT_HIP(hipSuccess, hipCtxDestroy(context));
}

TEST_F(ContextConformance, CreateRejectsBadArguments) {
  CUcontext cuda_context;
  hipCtx_t hip_context;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(nullptr, 0, 0), hipCtxCreate(nullptr, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&cuda_context, 0, device_count()),
              hipCtxCreate(&hip_context, 0, device_count()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate(&cuda_context, 0, -1),
              hipCtxCreate(&hip_context, 0, -1));
  // At most one scheduling flag; no unknown bits.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuCtxCreate(&cuda_context, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, 0),
              hipCtxCreate(&hip_context, hipDeviceScheduleSpin | hipDeviceScheduleYield, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&cuda_context, 0x10000, 0),
              hipCtxCreate(&hip_context, 0x10000, 0));
  // Nothing was created.
  EXPECT_EQ(CudaCurrent(), nullptr);
}

TEST_F(ContextConformance, DestroyThroughTheOtherApi) {
  CUcontext first = nullptr;
  hipCtx_t second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&first, 0, 0));
  ASSERT_HIP(hipSuccess, hipCtxCreate(&second, 0, 0));
  // Destroying the current context pops it.
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(AsCuda(second)));
  EXPECT_EQ(Object(HipCurrent()), Object(first));
  ASSERT_HIP(hipSuccess, hipCtxDestroy(AsHip(first)));
  EXPECT_EQ(CudaCurrent(), nullptr);
}

TEST_F(ContextConformance, DestroyRejectsNullDestroyedAndForeignHandles) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(context), hipCtxDestroy(AsHip(context)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDestroy(ForeignCuda()), hipCtxDestroy(ForeignHip()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxDestroy(nullptr), hipCtxDestroy(nullptr));
}

TEST_F(ContextConformance, PushAndPopAcrossApis) {
  CUcontext a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&a, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&b, 0, 0));
  hipCtx_t popped = nullptr;
  ASSERT_HIP(hipSuccess, hipCtxPopCurrent(&popped));
  EXPECT_EQ(Object(popped), Object(b));
  EXPECT_EQ(Object(CudaCurrent()), Object(a));
  ASSERT_HIP(hipSuccess, hipCtxPushCurrent(AsHip(b)));
  EXPECT_EQ(Object(CudaCurrent()), Object(b));
  CUcontext cuda_popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&cuda_popped));
  EXPECT_EQ(cuda_popped, b);
  // The output of pop is optional.
  ASSERT_HIP(hipSuccess, hipCtxPopCurrent(nullptr));
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(a));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(b));
}

TEST_F(ContextConformance, PopOnAnEmptyStackIsInvalidContext) {
  CUcontext cuda_context;
  hipCtx_t hip_context;
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPopCurrent(&cuda_context),
              hipCtxPopCurrent(&hip_context));
}

TEST_F(ContextConformance, PushRejectsNullDestroyedAndForeignHandles) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(nullptr), hipCtxPushCurrent(nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(context),
              hipCtxPushCurrent(AsHip(context)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(ForeignCuda()),
              hipCtxPushCurrent(ForeignHip()));
}

TEST_F(ContextConformance, StacksArePerThreadAndContextsMigrate) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  // A floating context moves to another thread with push, back with pop.
  std::thread worker([context] {
    EXPECT_EQ(CudaCurrent(), nullptr);
    ASSERT_HIP(hipSuccess, hipCtxPushCurrent(AsHip(context)));
    EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    CUcontext popped = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
    EXPECT_EQ(popped, context);
  });
  worker.join();
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, SetCurrentReplacesTheTopOfTheStack) {
  CUcontext a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&a, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&b, 0, 0));
  ASSERT_HIP(hipSuccess, hipCtxSetCurrent(AsHip(a)));
  EXPECT_EQ(Object(CudaCurrent()), Object(a));
  // Replaced, not pushed: popping leaves the context below, which is a.
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_EQ(popped, a);
  EXPECT_EQ(Object(HipCurrent()), Object(a));
  // Null unbinds the top context.
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(nullptr));
  EXPECT_EQ(CudaCurrent(), nullptr);
  // On an empty stack, set pushes.
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(b));
  EXPECT_EQ(Object(HipCurrent()), Object(b));
  ASSERT_HIP(hipSuccess, hipCtxSetCurrent(nullptr));
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(a));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(b));
}

TEST_F(ContextConformance, SetCurrentRejectsDestroyedAndForeignHandles) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent(context),
              hipCtxSetCurrent(AsHip(context)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCurrent(ForeignCuda()),
              hipCtxSetCurrent(ForeignHip()));
}

// HIP answers with the current device's primary context instead
// (HipImplicitContextConformance).
TEST_F(ContextConformance, GetCurrentIsNullWithoutAContext) { EXPECT_EQ(CudaCurrent(), nullptr); }

TEST_F(ContextConformance, GetCurrentRejectsNull) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetCurrent(nullptr), hipCtxGetCurrent(nullptr));
}

TEST_F(ContextConformance, GetDeviceIsTheSameThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    CUcontext context = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, ordinal));
    CUdevice cuda_device = -1;
    hipDevice_t hip_device = -1;
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&cuda_device));
    ASSERT_HIP(hipSuccess, hipCtxGetDevice(&hip_device));
    EXPECT_EQ(cuda_device, ordinal);
    EXPECT_EQ(hip_device, ordinal);
    ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  }
}

TEST_F(ContextConformance, GetDeviceNeedsAContextAndAnOutput) {
  CUdevice cuda_device;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice(&cuda_device));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice(nullptr), hipCtxGetDevice(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, FlagsAreTheCreationFlagsThroughBothApis) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST, 0));
  unsigned cuda_flags = 0, hip_flags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&cuda_flags));
  ASSERT_HIP(hipSuccess, hipCtxGetFlags(&hip_flags));
  EXPECT_EQ(cuda_flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST));
  EXPECT_EQ(hip_flags, cuda_flags);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, GetFlagsNeedsAContextAndAnOutput) {
  unsigned flags;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetFlags(&flags));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetFlags(nullptr), hipCtxGetFlags(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, SetFlagsChangesTheCurrentContext) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetFlags(CU_CTX_SCHED_SPIN));
  unsigned flags = 0;
  ASSERT_HIP(hipSuccess, hipCtxGetFlags(&flags));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_SPIN));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetFlags(0));
}

TEST_F(ContextConformance, SynchronizeWorksThroughBothApis) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_HIP(hipSuccess, hipCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, SynchronizeNeedsALiveCurrentContext) {
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize());
  // A context destroyed while below the top of the stack stays there,
  // unusable (CUDA: CUDA_ERROR_CONTEXT_IS_DESTROYED).
  CUcontext below = nullptr, top = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&below, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&top, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(below));
  EXPECT_EQ(Object(HipCurrent()), Object(top));
  ASSERT_HIP(hipSuccess, hipCtxPopCurrent(nullptr));
  EXPECT_BOTH(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize(), hipCtxSynchronize());
  hipCtx_t popped = nullptr;
  ASSERT_HIP(hipSuccess, hipCtxPopCurrent(&popped));
  EXPECT_EQ(Object(popped), Object(below));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(top));
}

TEST_F(ContextConformance, LimitsSetThroughOneApiAreSeenByTheOther) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, size_t{1} << 22));
  size_t value = 0;
  ASSERT_HIP(hipSuccess, hipDeviceGetLimit(&value, hipLimitPrintfFifoSize));
  EXPECT_EQ(value, size_t{1} << 22);
  ASSERT_HIP(hipSuccess, hipDeviceSetLimit(hipLimitMallocHeapSize, size_t{32} << 20));
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetLimit(&value, CU_LIMIT_MALLOC_HEAP_SIZE));
  EXPECT_EQ(value, size_t{32} << 20);
  ASSERT_HIP(hipSuccess, hipDeviceSetLimit(hipLimitStackSize, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetLimit(&value, CU_LIMIT_STACK_SIZE));
  EXPECT_EQ(value, 4096u);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, LimitsRejectUnknownLimitsAndNull) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  size_t value = 0;
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxGetLimit(&value, CU_LIMIT_MAX));
  EXPECT_CU(CUDA_ERROR_UNSUPPORTED_LIMIT, cuCtxSetLimit(CU_LIMIT_MAX, 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(nullptr, CU_LIMIT_STACK_SIZE),
              hipDeviceGetLimit(nullptr, hipLimitStackSize));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  // The driver API needs a current context.
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetLimit(&value, CU_LIMIT_STACK_SIZE));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 1024));
}

TEST_F(ContextConformance, HipLimitsRejectTheRangeMarker) {
  // hipLimitRange counts HIP's limits; it is not one.
  size_t value = 0;
  EXPECT_HIP(hipErrorUnsupportedLimit, hipDeviceGetLimit(&value, hipLimitRange));
  EXPECT_HIP(hipErrorUnsupportedLimit, hipDeviceSetLimit(hipLimitRange, 1));
}

TEST_F(ContextConformance, HipLimitsUseThePrimaryContextWhenNoneIsCurrent) {
  size_t value = 0;
  ASSERT_HIP(hipSuccess, hipDeviceGetLimit(&value, hipLimitStackSize));
  EXPECT_GT(value, 0u);
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  EXPECT_EQ(Object(HipCurrent()), Object(primary));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

TEST_F(ContextConformance, ApiVersionIsTheSameThroughBothApis) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  unsigned cuda_version = 0;
  int hip_version = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(context, &cuda_version));
  ASSERT_HIP(hipSuccess, hipCtxGetApiVersion(AsHip(context), &hip_version));
  // Every context of a 3.2-or-later driver reports 3020.
  EXPECT_EQ(cuda_version, 3020u);
  EXPECT_EQ(static_cast<unsigned>(hip_version), cuda_version);
  // A null context means the current one.
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetApiVersion(nullptr, &cuda_version));
  EXPECT_EQ(cuda_version, 3020u);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, ApiVersionRejectsBadArguments) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  unsigned cuda_version;
  int hip_version;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetApiVersion(context, nullptr),
              hipCtxGetApiVersion(AsHip(context), nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  // No context given and none current (HIP: the primary context,
  // HipImplicitContextConformance).
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetApiVersion(nullptr, &cuda_version));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetApiVersion(context, &cuda_version),
              hipCtxGetApiVersion(AsHip(context), &hip_version));
}

TEST_F(ContextConformance, StreamPriorityRangeIsTheSameThroughBothApis) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  int cuda_least = 1, cuda_greatest = 1, hip_least = 2, hip_greatest = 2;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&cuda_least, &cuda_greatest));
  ASSERT_HIP(hipSuccess, hipDeviceGetStreamPriorityRange(&hip_least, &hip_greatest));
  // Lower numbers are higher priorities; 0 is the default.
  EXPECT_EQ(cuda_least, 0);
  EXPECT_LE(cuda_greatest, cuda_least);
  EXPECT_EQ(hip_least, cuda_least);
  EXPECT_EQ(hip_greatest, cuda_greatest);
  // Either output may be null.
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(nullptr, &cuda_greatest));
  EXPECT_HIP(hipSuccess, hipDeviceGetStreamPriorityRange(&hip_least, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, StreamPriorityRangeNeedsAContextInTheDriverApi) {
  int least, greatest;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetStreamPriorityRange(&least, &greatest));
  // The runtime-style HIP call brings up the primary context instead.
  EXPECT_HIP(hipSuccess, hipDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_NE(HipCurrent(), nullptr);
}

// Every device has a fixed split between L1 and shared memory: CUDA
// documents that such a device accepts any preference and reports
// CU_FUNC_CACHE_PREFER_NONE.
TEST_F(ContextConformance, CacheConfigIsAcceptedThroughBothApisAndPreferNoneReported) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED));
  hipFuncCache_t hip_config = hipFuncCachePreferShared;
  ASSERT_HIP(hipSuccess, hipCtxGetCacheConfig(&hip_config));
  EXPECT_EQ(hip_config, hipFuncCachePreferNone);
  ASSERT_HIP(hipSuccess, hipCtxSetCacheConfig(hipFuncCachePreferL1));
  CUfunc_cache cuda_config = CU_FUNC_CACHE_PREFER_L1;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCacheConfig(&cuda_config));
  EXPECT_EQ(cuda_config, CU_FUNC_CACHE_PREFER_NONE);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, CacheConfigRejectsBadArguments) {
  CUfunc_cache cuda_config;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetCacheConfig(&cuda_config));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_L1));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetCacheConfig(nullptr),
              hipCtxGetCacheConfig(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

// Banks are 4 bytes wide on every device; a requested width is accepted and
// the fixed one reported.
TEST_F(ContextConformance, SharedMemConfigIsAcceptedThroughBothApisAndFourByteBanksReported) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
  hipSharedMemConfig hip_config = hipSharedMemBankSizeEightByte;
  ASSERT_HIP(hipSuccess, hipCtxGetSharedMemConfig(&hip_config));
  EXPECT_EQ(hip_config, hipSharedMemBankSizeFourByte);
  ASSERT_HIP(hipSuccess, hipCtxSetSharedMemConfig(hipSharedMemBankSizeDefault));
  CUsharedconfig cuda_config = CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&cuda_config));
  EXPECT_EQ(cuda_config, CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, SharedMemConfigRejectsBadArguments) {
  CUsharedconfig cuda_config;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetSharedMemConfig(&cuda_config));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  // 3 lies in the range of both enumerations but names no bank size.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig(static_cast<CUsharedconfig>(3)),
              hipCtxSetSharedMemConfig(static_cast<hipSharedMemConfig>(3)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxGetSharedMemConfig(nullptr),
              hipCtxGetSharedMemConfig(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, PeerAccessIsRefusedBetweenContextsOfOneDevice) {
  // A device is not its own peer (cuDeviceCanAccessPeer says 0), so
  // enabling is CUDA_ERROR_PEER_ACCESS_UNSUPPORTED and disabling finds
  // nothing enabled. Peer access between devices: multi_device_test.cc.
  CUcontext peer = nullptr, current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&peer, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&current, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cuCtxEnablePeerAccess(peer, 0),
              hipCtxEnablePeerAccess(AsHip(peer), 0));
  EXPECT_BOTH(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(peer),
              hipCtxDisablePeerAccess(AsHip(peer)));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(current));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(peer));
}

TEST_F(ContextConformance, PeerAccessRejectsBadArguments) {
  CUcontext peer = nullptr, current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&peer, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  // No current context (HIP would use the primary context instead).
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(peer, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxDisablePeerAccess(peer));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&current, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(peer, 1),
              hipCtxEnablePeerAccess(AsHip(peer), 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(nullptr, 0),
              hipCtxEnablePeerAccess(nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDisablePeerAccess(ForeignCuda()),
              hipCtxDisablePeerAccess(ForeignHip()));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(current));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(peer));
}

TEST_F(ContextConformance, AttachCountsUsesAndDetachDestroysAtZero) {
  CUcontext context = nullptr, attached = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxAttach(&attached, 0));
  EXPECT_EQ(attached, context);
  // Usage count 2: the first detach keeps the context.
  ASSERT_HIP(hipSuccess, hipCtxDetach(AsHip(context)));
  EXPECT_EQ(Object(CudaCurrent()), Object(context));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  // The second destroys it and pops it.
  ASSERT_CU(CUDA_SUCCESS, cuCtxDetach(context));
  EXPECT_EQ(CudaCurrent(), nullptr);
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(context),
              hipCtxPushCurrent(AsHip(context)));
}

TEST_F(ContextConformance, AttachRejectsBadArguments) {
  CUcontext attached;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxAttach(&attached, 0));
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(&attached, 3));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxAttach(nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ContextConformance, DetachNeedsTheCurrentContext) {
  CUcontext a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&a, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&b, 0, 0));
  // `a` is not current.
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(a), hipCtxDetach(AsHip(a)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(ForeignCuda()), hipCtxDetach(ForeignHip()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxDetach(nullptr), hipCtxDetach(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(b));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(a));
}

}  // namespace
}  // namespace streamhal::conformance
