#include <cuda.h>

#include <thread>

#include "gtest/gtest.h"

namespace {

class CudaContextTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cuInit(0), CUDA_SUCCESS); }
  void TearDown() override { ASSERT_EQ(cuHALDeinit(), CUDA_SUCCESS); }

  CUcontext Current() {
    CUcontext ctx = reinterpret_cast<CUcontext>(1);
    EXPECT_EQ(cuCtxGetCurrent(&ctx), CUDA_SUCCESS);
    return ctx;
  }
};

TEST_F(CudaContextTest, CreateDestroy) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, CU_CTX_SCHED_BLOCKING_SYNC, 0), CUDA_SUCCESS);
  EXPECT_EQ(Current(), ctx);
  CUdevice device = -1;
  ASSERT_EQ(cuCtxGetDevice(&device), CUDA_SUCCESS);
  EXPECT_EQ(device, 0);
  unsigned flags = 0;
  ASSERT_EQ(cuCtxGetFlags(&flags), CUDA_SUCCESS);
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
  EXPECT_EQ(Current(), nullptr);
}

TEST_F(CudaContextTest, BadArguments) {
  CUcontext ctx = nullptr;
  EXPECT_EQ(cuCtxCreate(nullptr, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxCreate(&ctx, 0, 99), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuCtxCreate(&ctx, CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxDestroy(nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxPushCurrent(nullptr), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(reinterpret_cast<CUcontext>(0x12345678)),
            CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxGetCurrent(nullptr), CUDA_ERROR_INVALID_VALUE);
  CUdevice device;
  EXPECT_EQ(cuCtxGetDevice(&device), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(CudaContextTest, PopOnEmptyStackIsInvalidContext) {
  CUcontext ctx;
  EXPECT_EQ(cuCtxPopCurrent(&ctx), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(CudaContextTest, UseAfterDestroyAndDoubleDestroy) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxSetCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
  unsigned version = 0;
  EXPECT_EQ(cuCtxGetApiVersion(ctx, &version), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(CudaContextTest, DestroyedBelowTopIsContextIsDestroyed) {
  CUcontext below = nullptr, top = nullptr;
  ASSERT_EQ(cuCtxCreate(&below, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxCreate(&top, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(below), CUDA_SUCCESS);
  EXPECT_EQ(Current(), top);
  CUcontext popped = nullptr;
  ASSERT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  EXPECT_EQ(popped, top);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_CONTEXT_IS_DESTROYED);
  ASSERT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  EXPECT_EQ(popped, below);
  ASSERT_EQ(cuCtxDestroy(top), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, StackPushPopSetCurrent) {
  CUcontext a = nullptr, b = nullptr;
  ASSERT_EQ(cuCtxCreate(&a, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxCreate(&b, 0, 0), CUDA_SUCCESS);
  CUcontext popped = nullptr;
  ASSERT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  EXPECT_EQ(popped, b);
  EXPECT_EQ(Current(), a);
  ASSERT_EQ(cuCtxSetCurrent(b), CUDA_SUCCESS);
  EXPECT_EQ(Current(), b);
  ASSERT_EQ(cuCtxSetCurrent(nullptr), CUDA_SUCCESS);
  EXPECT_EQ(Current(), nullptr);
  ASSERT_EQ(cuCtxPushCurrent(a), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxPopCurrent(nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(a), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(b), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, PerThreadStacksAndMigration) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxPopCurrent(nullptr), CUDA_SUCCESS);
  std::thread worker([&] {
    CUcontext seen = reinterpret_cast<CUcontext>(1);
    ASSERT_EQ(cuCtxGetCurrent(&seen), CUDA_SUCCESS);
    EXPECT_EQ(seen, nullptr);
    ASSERT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
    EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxPopCurrent(&seen), CUDA_SUCCESS);
    EXPECT_EQ(seen, ctx);
  });
  worker.join();
  EXPECT_EQ(Current(), nullptr);
  ASSERT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
  EXPECT_EQ(Current(), ctx);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, ContextsOnManyThreads) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 5; ++i) {
        CUcontext ctx = nullptr;
        ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
        CUcontext seen = nullptr;
        ASSERT_EQ(cuCtxGetCurrent(&seen), CUDA_SUCCESS);
        EXPECT_EQ(seen, ctx);
        ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
      }
    });
  }
  for (auto& thread : threads) thread.join();
}

TEST_F(CudaContextTest, LimitsVersionPriorities) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  size_t value = 0;
  ASSERT_EQ(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 22), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxGetLimit(&value, CU_LIMIT_PRINTF_FIFO_SIZE), CUDA_SUCCESS);
  EXPECT_EQ(value, size_t{1} << 22);
  EXPECT_EQ(cuCtxGetLimit(&value, static_cast<CUlimit>(0x7f)), CUDA_ERROR_UNSUPPORTED_LIMIT);
  unsigned version = 0;
  ASSERT_EQ(cuCtxGetApiVersion(ctx, &version), CUDA_SUCCESS);
  EXPECT_EQ(version, 3020u);
  int least = 1, greatest = 1;
  ASSERT_EQ(cuCtxGetStreamPriorityRange(&least, &greatest), CUDA_SUCCESS);
  EXPECT_EQ(least, 0);
  EXPECT_LT(greatest, 0);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, CacheConfigIsAcceptedAndTheFixedSplitReported) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_SHARED), CUDA_SUCCESS);
  CUfunc_cache cache = CU_FUNC_CACHE_PREFER_L1;
  ASSERT_EQ(cuCtxGetCacheConfig(&cache), CUDA_SUCCESS);
  EXPECT_EQ(cache, CU_FUNC_CACHE_PREFER_NONE);
  EXPECT_EQ(cuCtxSetCacheConfig(static_cast<CUfunc_cache>(9)), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, AttachDetach) {
  CUcontext ctx = nullptr, attached = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxAttach(&attached, 0), CUDA_SUCCESS);
  EXPECT_EQ(attached, ctx);
  EXPECT_EQ(cuCtxAttach(&attached, 3), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuCtxDetach(ctx), CUDA_SUCCESS);
  EXPECT_EQ(Current(), ctx);
  ASSERT_EQ(cuCtxDetach(ctx), CUDA_SUCCESS);
  EXPECT_EQ(Current(), nullptr);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(CudaContextTest, PeerAccessIsUnsupported) {
  CUcontext a = nullptr, b = nullptr;
  ASSERT_EQ(cuCtxCreate(&a, 0, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxCreate(&b, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxEnablePeerAccess(a, 0), CUDA_ERROR_PEER_ACCESS_UNSUPPORTED);
  EXPECT_EQ(cuCtxEnablePeerAccess(a, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxEnablePeerAccess(nullptr, 0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxDisablePeerAccess(a), CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
  ASSERT_EQ(cuCtxDestroy(b), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(a), CUDA_SUCCESS);
}

TEST_F(CudaContextTest, PrimaryContextLifecycle) {
  unsigned flags = 99;
  int active = 99;
  ASSERT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 0);
  ASSERT_EQ(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_YIELD), CUDA_SUCCESS);
  CUcontext p1 = nullptr, p2 = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&p1, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&p2, 0), CUDA_SUCCESS);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(Current(), nullptr);
  ASSERT_EQ(cuCtxPushCurrent(p1), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxGetFlags(&flags), CUDA_SUCCESS);
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_YIELD));
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxDestroy(p1), CUDA_ERROR_INVALID_CONTEXT);
  ASSERT_EQ(cuCtxPopCurrent(nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 1);
  ASSERT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 0);
  EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuDevicePrimaryCtxRetain(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDevicePrimaryCtxRetain(&p1, 5), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDevicePrimaryCtxGetState(0, nullptr, &active), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDevicePrimaryCtxSetFlags(0, 0x1000), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaContextTest, PrimaryContextReset) {
  CUcontext primary = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&primary, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxReset(0), CUDA_SUCCESS);
  unsigned flags = 0;
  int active = 1;
  ASSERT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 0);
  EXPECT_EQ(cuCtxPushCurrent(primary), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuDevicePrimaryCtxReset(3), CUDA_ERROR_INVALID_DEVICE);
}

}  // namespace
