// Rows: stream-ordered allocation and memory pools (cuMemAllocAsync,
// cuMemAllocFromPoolAsync, cuMemFreeAsync, cuMemPool*, cuDevice*MemPool and
// the hip* twins).
//
// Reuse across streams is proven with a stream held by a host function: a
// block freed there is not finished, so another stream may take it only
// through an event dependency or by waiting for the free, never before.
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "core/diagnostics.h"

namespace streamhal::conformance {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

// A host function that holds its stream until Open().
class Gate {
 public:
  static void Hold(void* raw) {
    auto* gate = static_cast<Gate*>(raw);
    while (!gate->open_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void Open() { open_.store(true); }

 private:
  std::atomic<bool> open_{false};
};

uint64_t PoolBytes(CUmemoryPool pool, CUmemPool_attribute attribute) {
  uint64_t value = ~uint64_t{0};
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolGetAttribute(pool, attribute, &value));
  return value;
}

void SetReuse(CUmemoryPool pool, int follow_events, int opportunistic, int internal) {
  ASSERT_CU(
      CUDA_SUCCESS,
      cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &follow_events));
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &opportunistic));
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolSetAttribute(
                              pool, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &internal));
}

void KeepEverything(CUmemoryPool pool) {
  uint64_t threshold = ~uint64_t{0};
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
}

class MemPoolConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    scale_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(scale_, nullptr);
  }

  CUmemoryPool NewPool(size_t max_size = 0) {
    CUmemPoolProps props{};
    props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
    props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;
    props.maxSize = max_size;
    CUmemoryPool pool = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuMemPoolCreate(&pool, &props));
    return pool;
  }

  // data[i] = data[i] * scale + offset in `stream`.
  void Scale(CUdeviceptr data, uint32_t n, float scale, float offset, CUstream stream) {
    void* params[] = {&data, &scale, &offset, &n};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(scale_, (n + 63) / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  }

  // Sets `n` floats at `data` to `value` with a kernel, reads the last one
  // back, frees the block, all in `stream`; returns what was read once the
  // stream is done.
  float WriteReadBackAndFree(CUdeviceptr data, uint32_t n, float value, CUstream stream) {
    Scale(data, n, 0.0f, value, stream);
    float read = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(&read, data + (n - 1) * 4, 4, stream));
    EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
    EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
    return read;
  }

  CUmodule module_ = nullptr;
  CUfunction scale_ = nullptr;
};

TEST_F(MemPoolConformance, AllocAsyncMemoryRunsKernelsInStreamOrder) {
  constexpr uint32_t kN = 10000;
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  std::vector<float> host = Iota(kN, 1.0f), out(kN, 0.0f);
  for (CUstream s : {stream, static_cast<CUstream>(nullptr)}) {
    CUdeviceptr data = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&data, kN * sizeof(float), s));
    ASSERT_NE(data, 0u);
    EXPECT_EQ(data % 256, 0u);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(data, host.data(), kN * sizeof(float), s));
    Scale(data, kN, 2.0f, 1.0f, s);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(out.data(), data, kN * sizeof(float), s));
    ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, s));
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(s));
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], host[i] * 2.0f + 1.0f) << i;
    // Freed: no longer an allocation.
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, data));
  }
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(MemPoolConformance, AllocFromPoolAsyncUsesThatPool) {
  constexpr uint32_t kN = 4096;
  CUmemoryPool pool = NewPool();
  ASSERT_NE(pool, nullptr);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, kN * sizeof(float), pool, stream));
  EXPECT_GE(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), kN * sizeof(float));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 0x3f800000, kN, stream));  // 1.0f
  Scale(data, kN, 3.0f, 0.5f, stream);
  std::vector<float> out(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(out.data(), data, kN * sizeof(float), stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], 3.5f) << i;
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, PoolPointersNameTheirPoolInTheirAttributes) {
  CUmemoryPool pool = NewPool();
  CUdeviceptr data = 0, plain = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, 10000, pool, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&plain, 64));
  CUmemoryPool named = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, data + 100));
  EXPECT_EQ(named, pool);
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, plain));
  EXPECT_EQ(named, nullptr);
  CUdeviceptr start = 0;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, data + 100));
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, data));
  EXPECT_EQ(start, data);
  EXPECT_EQ(size, 10000u);
  hipMemPool_t hip_named = nullptr;
  ASSERT_HIP(hipSuccess, hipPointerGetAttribute(&hip_named, HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                                reinterpret_cast<hipDeviceptr_t>(data)));
  EXPECT_EQ(reinterpret_cast<void*>(hip_named), reinterpret_cast<void*>(pool));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  // Freed: no longer a pointer CUDA knows.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, data));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(plain));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, AFreedBlockIsReusedInItsStreamWithoutNewMemory) {
  CUmemoryPool pool = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&pool, 0));
  KeepEverything(pool);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr first = 0, second = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&first, kMiB, stream));
  const uint64_t reserved = PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT);
  EXPECT_GE(reserved, kMiB);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(first, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&second, kMiB, stream));
  EXPECT_EQ(second, first);
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), reserved);
  // A request a little smaller is served by the same block.
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(second, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&second, kMiB - 4096, stream));
  EXPECT_EQ(second, first);
  EXPECT_EQ(WriteReadBackAndFree(second, 1000, 7.0f, stream), 7.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(MemPoolConformance, AnotherStreamGetsAFreedBlockOnlyAfterTheEventDependency) {
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  SetReuse(pool, /*follow_events=*/1, /*opportunistic=*/0, /*internal=*/0);
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(a, &Gate::Hold, &gate));
  CUdeviceptr x = 0, y = 0, z = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&x, kMiB, pool, a));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(x, a));
  // Stream a is held: its free has not happened, and b has no dependency.
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&y, kMiB, pool, b));
  EXPECT_NE(y, x);
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(event, a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(b, event, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&z, kMiB, pool, b));
  EXPECT_EQ(z, x);
  // Work on the reused block in b runs after a's free: not before the gate.
  Scale(z, 256, 0.0f, 5.0f, b);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(b));
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(b));
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, z + 255 * 4, 4));
  EXPECT_EQ(value, 5.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(y, b));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(z, b));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(event));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(b));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, OpportunisticAndInternalDependencyReuse) {
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
  // Opportunistic: a finished free serves another stream.
  SetReuse(pool, 0, /*opportunistic=*/1, 0);
  CUdeviceptr x = 0, y = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&x, kMiB, pool, a));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(x, a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(a));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&y, kMiB, pool, b));
  EXPECT_EQ(y, x);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(y, b));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(b));

  // Internal dependencies: an unfinished free serves another stream, which
  // then waits for it.
  SetReuse(pool, 0, 0, /*internal=*/1);
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&x, kMiB, pool, a));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(a, &Gate::Hold, &gate));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(x, a));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&y, kMiB, pool, b));
  EXPECT_EQ(y, x);
  Scale(y, 64, 0.0f, 9.0f, b);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(b));
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(b));
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, y + 63 * 4, 4));
  EXPECT_EQ(value, 9.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(y, b));

  // Every policy off: a finished free in another stream is not reused.
  SetReuse(pool, 0, 0, 0);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(b));
  CUdeviceptr z = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&z, kMiB, pool, a));
  EXPECT_NE(z, y);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(z, a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(b));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

// cuMemFreeAsync takes its point without the stream's lock when nothing
// was recorded since the last flush. Work recorded after a flush is still
// covered, and so is flushed work that has not run: either way the block
// is not handed to another stream before that work has run.
TEST_F(MemPoolConformance, AFreeCoversTheWorkBeforeItFlushedOrNot) {
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  SetReuse(pool, 0, /*opportunistic=*/1, 0);
  // The device's current pool: its frees take the short path.
  ASSERT_CU(CUDA_SUCCESS, cuDeviceSetMemPool(0, pool));
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
  CUdeviceptr x = 0, again = 0, y = 0, w = 0, z = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&x, kMiB, a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(a));  // flushed, and finished
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(a, &Gate::Hold, &gate));
  Scale(x, 128, 0.0f, 2.0f, a);
  // Recorded after the flush: the free's point is past the held launch.
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(x, a));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&y, kMiB, b));
  EXPECT_NE(y, x) << "the free waits for the held launch before it";
  // The same stream takes the block back at once.
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&again, kMiB, a));
  ASSERT_EQ(again, x);
  Scale(again, 128, 1.0f, 3.0f, a);
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(a));  // flushes the launch
  // Flushed but held: the free's point is the flushed one, still ahead.
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(again, a));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&w, kMiB, b));
  EXPECT_NE(w, x) << "the free waits for the flushed launch before it";
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(a));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&z, kMiB, b));
  EXPECT_EQ(z, x) << "finished now: opportunistic reuse";
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(&value, z + 127 * 4, 4, b));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(b));
  EXPECT_EQ(value, 5.0f) << "both held launches ran before the block was reused";
  for (CUdeviceptr block : {y, w, z}) EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(block, b));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(b));
  // Destroying the current pool makes the default pool current again.
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, AttributesReportAndResetWatermarks) {
  CUmemoryPool pool = NewPool();
  int flag = -1;
  for (CUmemPool_attribute attribute :
       {CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC,
        CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES}) {
    ASSERT_CU(CUDA_SUCCESS, cuMemPoolGetAttribute(pool, attribute, &flag));
    EXPECT_EQ(flag, 1);  // every policy is on in a new pool
    int off = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemPoolSetAttribute(pool, attribute, &off));
    ASSERT_CU(CUDA_SUCCESS, cuMemPoolGetAttribute(pool, attribute, &flag));
    EXPECT_EQ(flag, 0);
  }
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD), 0u);
  uint64_t threshold = 3 * kMiB;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD), threshold);

  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 2 * kMiB, pool, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 2 * kMiB, pool, stream));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 4 * kMiB);
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 4 * kMiB);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(a, stream));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 2 * kMiB);
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH), 4 * kMiB);
  // The synchronisation gives back what lies above the 3 MiB threshold.
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * kMiB);
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), 4 * kMiB);
  // High watermarks reset to the current value, and only with 0.
  uint64_t zero = 0, one = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &zero));
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &zero));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH), 2 * kMiB);
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH), 2 * kMiB);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &one));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &zero));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &zero));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolGetAttribute(pool, static_cast<CUmemPool_attribute>(99), &zero));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_HIGH, nullptr));
  // TrimTo gives back finished cached memory down to what it is told to keep.
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(b, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 2 * kMiB);
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, APoolOverItsMaxSizeIsOutOfMemoryUntilMemoryIsFreed) {
  CUmemoryPool pool = NewPool(/*max_size=*/2 * kMiB);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 3 * kMiB / 2, pool, stream));
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&b, kMiB, pool, stream));
  EXPECT_EQ(b, 0u);
  // a is still good.
  Scale(a, 128, 0.0f, 2.0f, stream);
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(&value, a + 127 * 4, 4, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(a, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(value, 2.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, kMiB, pool, stream));
  EXPECT_NE(b, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(b, stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, DefaultAndCurrentPoolsOfADevice) {
  CUmemoryPool default_pool = nullptr, current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&default_pool, 0));
  ASSERT_NE(default_pool, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, default_pool);
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED), 1);

  CUmemoryPool pool = NewPool();
  ASSERT_CU(CUDA_SUCCESS, cuDeviceSetMemPool(0, pool));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, pool);
  // cuMemAllocAsync takes from the current pool.
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&data, kMiB, nullptr));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), kMiB);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, nullptr));
  // Destroying the current pool makes the default current again.
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, default_pool);

  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(default_pool));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetDefaultMemPool(&current, 99));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetMemPool(&current, -1));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceSetMemPool(99, default_pool));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, pool));  // destroyed
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetDefaultMemPool(nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetMemPool(nullptr, 0));
}

// CUDA 13.0's location forms: a device location with the pinned type names
// the device's default and current pools; host locations and managed pools
// are valid requests this implementation does not serve.
TEST_F(MemPoolConformance, LocationFormsNameTheDevicesPools) {
  CUmemLocation device{};
  device.type = CU_MEM_LOCATION_TYPE_DEVICE;
  device.id = 0;
  const auto pinned = CU_MEM_ALLOCATION_TYPE_PINNED;
  CUmemoryPool default_pool = nullptr, found = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&default_pool, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetDefaultMemPool(&found, &device, pinned));
  EXPECT_EQ(found, default_pool);
  ASSERT_CU(CUDA_SUCCESS, cuMemGetMemPool(&found, &device, pinned));
  EXPECT_EQ(found, default_pool);

  CUmemoryPool pool = NewPool();
  ASSERT_CU(CUDA_SUCCESS, cuMemSetMemPool(&device, pinned, pool));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetMemPool(&found, &device, pinned));
  EXPECT_EQ(found, pool);
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetMemPool(&found, 0));
  EXPECT_EQ(found, pool);
  // cuMemAllocAsync takes from the pool set, and a kernel uses the memory.
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&data, kMiB, stream));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), kMiB);
  EXPECT_EQ(WriteReadBackAndFree(data, 256, 4.0f, stream), 4.0f);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemSetMemPool(&device, pinned, default_pool));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetMemPool(&found, &device, pinned));
  EXPECT_EQ(found, default_pool);
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));

  // Bad input: nothing changes.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(nullptr, &device, pinned));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetMemPool(nullptr, &device, pinned));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&found, nullptr, pinned));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(nullptr, pinned, default_pool));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&device, pinned, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetMemPool(&device, pinned, pool));  // destroyed
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetMemPool(&found, &device, CU_MEM_ALLOCATION_TYPE_INVALID));
  CUmemLocation odd = device;
  odd.type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&found, &odd, pinned));
  // CUDA 13.0's CU_MEM_LOCATION_TYPE_NONE (no preferred location), 0 like
  // INVALID: a form of managed pools only.
  odd.type = CU_MEM_LOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemGetDefaultMemPool(&found, &odd, pinned));
  odd = device;
  odd.id = 99;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemGetDefaultMemPool(&found, &odd, pinned));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemSetMemPool(&odd, pinned, default_pool));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetMemPool(&found, &device, pinned));
  EXPECT_EQ(found, default_pool);
}

// Valid requests no pool here serves: pools of host memory, and managed
// pools (CUDA 13.0's CU_MEM_ALLOCATION_TYPE_MANAGED is 2).
TEST_F(MemPoolConformance, LocationFormsOfHostAndManagedPoolsAreNotSupported) {
  ProvesLimitation();
  const auto pinned = CU_MEM_ALLOCATION_TYPE_PINNED;
  CUmemLocation device{};
  device.type = CU_MEM_LOCATION_TYPE_DEVICE;
  CUmemoryPool default_pool = nullptr, found = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&default_pool, 0));
  CUmemLocation host{};
  host.type = CU_MEM_LOCATION_TYPE_HOST;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&found, &host, pinned));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemGetMemPool(&found, &host, pinned));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemSetMemPool(&host, pinned, default_pool));
  const auto managed = static_cast<CUmemAllocationType>(2);
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&found, &device, managed));
  CUmemLocation anywhere{};
  anywhere.type = CU_MEM_LOCATION_TYPE_INVALID;  // NONE
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&found, &anywhere, managed));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetMemPool(&found, &device, pinned));
  EXPECT_EQ(found, default_pool);
}

TEST_F(MemPoolConformance, ThePoolsDeviceHasReadWriteAccess) {
  CUmemoryPool pool = NewPool();
  CUmemLocation location{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolGetAccess(&flags, pool, &location));
  EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CUmemAccessDesc desc{location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolSetAccess(pool, &desc, 1));
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, &desc, 1));
  desc.flags = static_cast<CUmemAccess_flags>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, &desc, 1));
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  desc.location.id = 99;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPoolSetAccess(pool, &desc, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(pool, nullptr, 1));
  location.type = CU_MEM_LOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(&flags, pool, &location));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolGetAccess(nullptr, pool, &location));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

// A pool created with a POSIX file descriptor handle type exports itself as
// a descriptor and its blocks as export data; importing both maps the same
// memory at another address (here in the same process, as AMD's tests do),
// where kernels see what the exporter's kernels wrote.
TEST_F(MemPoolConformance, AnExportedPoolSharesItsBlocksThroughADescriptor) {
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES),
            CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  props.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemoryPool pool = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&pool, &props));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));

  constexpr uint32_t kN = 10000;
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, kN * sizeof(float), pool, stream));
  Scale(data, kN, 0.0f, 3.0f, stream);  // every element 3
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));

  int fd = -1;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolExportToShareableHandle(
                              &fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  ASSERT_GE(fd, 0);
  CUmemPoolPtrExportData export_data{};
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolExportPointer(&export_data, data));

  CUmemoryPool imported = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolImportFromShareableHandle(
                              &imported, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  close(fd);  // the pool keeps its own descriptor
  ASSERT_NE(imported, nullptr);
  EXPECT_NE(imported, pool);
  CUdeviceptr shared = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolImportPointer(&shared, imported, &export_data));
  EXPECT_NE(shared, data);
  CUmemoryPool named = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, shared + 64));
  EXPECT_EQ(named, imported);

  // x * 2 + 1 through the imported address, then + 10 through the original.
  Scale(shared, kN, 2.0f, 1.0f, stream);
  Scale(data, kN, 1.0f, 10.0f, stream);
  std::vector<float> through_import(kN), through_export(kN);
  ASSERT_CU(CUDA_SUCCESS,
            cuMemcpyDtoHAsync(through_import.data(), shared, kN * sizeof(float), stream));
  ASSERT_CU(CUDA_SUCCESS,
            cuMemcpyDtoHAsync(through_export.data(), data, kN * sizeof(float), stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (uint32_t i = 0; i < kN; ++i) {
    ASSERT_EQ(through_import[i], 17.0f) << i;
    ASSERT_EQ(through_export[i], 17.0f) << i;
  }

  // An imported pool maps; it does not allocate, export or become current.
  CUdeviceptr more = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&more, 64, imported, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceSetMemPool(0, imported));
  int again = -1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolExportToShareableHandle(&again, imported,
                                             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  // Export data goes to an imported pool, and only to the one it came from.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&more, pool, &export_data));
  CUmemPoolPtrExportData forged = export_data;
  forged.reserved[9] ^= 0x5a;  // the pool's id
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&more, imported, &forged));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(nullptr, imported, &export_data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&more, imported, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolImportPointer(&more, nullptr, &export_data));

  // A second mapping of the same block, freed synchronously; the first in
  // stream order; then the exporter frees and both pools go.
  CUdeviceptr second = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolImportPointer(&second, imported, &export_data));
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, second + 4 * (kN - 1), sizeof(value)));
  EXPECT_EQ(value, 17.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(second));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(second));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(shared, stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(imported));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

// The other process of the test below: imports the pool from descriptor
// argv[0] and the block from the hex export data argv[1], checks that its n
// (argv[2]) floats are 3, and makes them x * 2 + 1 with a kernel.
int ImportingChild(int argc, char** argv) {
  if (argc != 3) return 2;
  const int fd = std::atoi(argv[0]);
  CUmemPoolPtrExportData export_data{};
  const std::string hex = argv[1];
  if (hex.size() != 2 * sizeof(export_data.reserved)) return 3;
  for (size_t i = 0; i < sizeof(export_data.reserved); ++i) {
    export_data.reserved[i] =
        static_cast<unsigned char>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  }
  const uint32_t n = static_cast<uint32_t>(std::atoi(argv[2]));
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmemoryPool pool = nullptr;
  CUdeviceptr data = 0;
  CUmodule module = nullptr;
  CUfunction scale = nullptr;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS ||
      cuCtxCreate(&context, 0, device) != CUDA_SUCCESS ||
      cuMemPoolImportFromShareableHandle(&pool, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                         CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
                                         0) != CUDA_SUCCESS ||
      cuMemPoolImportPointer(&data, pool, &export_data) != CUDA_SUCCESS ||
      cuModuleLoadData(&module, kScaleOffsetGlsl) != CUDA_SUCCESS ||
      cuModuleGetFunction(&scale, module, "scale_offset") != CUDA_SUCCESS) {
    return 4;
  }
  std::vector<float> seen(n);
  if (cuMemcpyDtoH(seen.data(), data, n * sizeof(float)) != CUDA_SUCCESS) return 5;
  for (float value : seen) {
    if (value != 3.0f) return 6;
  }
  float factor = 2.0f, offset = 1.0f;
  uint32_t count = n;
  void* params[] = {&data, &factor, &offset, &count};
  if (cuLaunchKernel(scale, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr) !=
          CUDA_SUCCESS ||
      cuMemFreeAsync(data, nullptr) != CUDA_SUCCESS || cuCtxSynchronize() != CUDA_SUCCESS ||
      cuMemPoolDestroy(pool) != CUDA_SUCCESS || cuModuleUnload(module) != CUDA_SUCCESS ||
      cuCtxDestroy(context) != CUDA_SUCCESS) {
    return 7;
  }
  return ValidationMessageCount() == 0 ? 0 : 8;
}
const ChildRegistration kImportingChild("mem-pool-import", ImportingChild);

// A second process imports the pool and the block; its kernel's writes are
// what this process reads afterwards.
TEST_F(MemPoolConformance, AnotherProcessImportsAndWritesAnExportedBlock) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  props.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemoryPool pool = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&pool, &props));
  constexpr uint32_t kN = 4096;
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, kN * sizeof(float), pool, nullptr));
  Scale(data, kN, 0.0f, 3.0f, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  int fd = -1;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolExportToShareableHandle(
                              &fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemPoolPtrExportData export_data{};
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolExportPointer(&export_data, data));
  std::string hex;
  for (unsigned char byte : export_data.reserved) {
    static const char kDigits[] = "0123456789abcdef";
    hex += kDigits[byte >> 4];
    hex += kDigits[byte & 15];
  }
  EXPECT_EQ(SpawnChild("mem-pool-import", {std::to_string(fd), hex, std::to_string(kN)}, {fd},
                       /*timeout_s=*/120),
            0);
  close(fd);
  std::vector<float> back(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), data, kN * sizeof(float)));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(back[i], 7.0f) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, ShareableHandleCallsRefuseBadArguments) {
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  // Windows handles do not exist on this platform.
  props.handleTypes = CU_MEM_HANDLE_TYPE_WIN32;
  CUmemoryPool pool = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemPoolCreate(&pool, &props));
  props.handleTypes = static_cast<CUmemAllocationHandleType>(0x40);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&pool, &props));

  // A pool without a handle type exports neither itself nor its pointers.
  pool = NewPool();
  int fd = -1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportToShareableHandle(
                                          &fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, 4096, pool, nullptr));
  CUmemPoolPtrExportData export_data{};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&export_data, data));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));

  props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&pool, &props));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPoolExportToShareableHandle(nullptr, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportToShareableHandle(
                                          &fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPoolExportToShareableHandle(&fd, nullptr, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(nullptr, data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolExportPointer(&export_data, 0));
  // Descriptors that are not an exported pool's.
  CUmemoryPool imported = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t{-1}),
                                               CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  int pipe_ends[2] = {-1, -1};
  ASSERT_EQ(pipe(pipe_ends), 0);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolImportFromShareableHandle(
                &imported, reinterpret_cast<void*>(static_cast<intptr_t>(pipe_ends[0])),
                CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolExportToShareableHandle(
                              &fd, pool, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  void* as_handle = reinterpret_cast<void*>(static_cast<intptr_t>(fd));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolImportFromShareableHandle(nullptr, as_handle,
                                               CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPoolImportFromShareableHandle(&imported, as_handle,
                                               CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuMemPoolImportFromShareableHandle(&imported, as_handle, CU_MEM_HANDLE_TYPE_WIN32, 0));
  close(fd);
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

TEST_F(MemPoolConformance, BadInputIsRefusedAndLosesNothing) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr data = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(nullptr, 64, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(&data, 0, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&data, 64, nullptr, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(nullptr, nullptr));
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.location = {CU_MEM_LOCATION_TYPE_DEVICE, 7};
  CUmemoryPool pool = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemPoolCreate(&pool, &props));
  props.location.id = 0;
  props.allocType = CU_MEM_ALLOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolCreate(&pool, &props));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolTrimTo(nullptr, 0));

  // Double and interior frees.
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&data, 4096, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(data + 16, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(data, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(0, stream));

  // cuMemFree of a pool pointer returns it to the pool (the caller has
  // ordered its work before); cuMemFreeAsync of cuMemAlloc memory frees it
  // once the stream gets there.
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&data, 4096, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(data));
  CUdeviceptr plain = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&plain, 4096));
  Scale(plain, 16, 0.0f, 1.0f, stream);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(plain, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(plain));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));

  // A destroyed pool with a block still out: the block stays usable and
  // can be freed; the handle is dead at once.
  pool = nullptr;
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolCreate(&pool, &props));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, 4096, pool, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocFromPoolAsync(&plain, 64, pool, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPoolDestroy(pool));
  Scale(data, 16, 0.0f, 4.0f, stream);
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(&value, data + 60, 4, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(value, 4.0f);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

// The pool keeps a freed block (here: everything) in the address map, marked
// cached; to every call it is freed memory until it is handed out again.
TEST_F(MemPoolConformance, ACachedBlockIsFreedMemoryUntilItIsHandedOutAgain) {
  constexpr uint32_t kN = 2048;
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, kN * sizeof(float), pool, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(data, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_GE(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), kN * sizeof(float));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0u);

  CUmemoryPool named = nullptr;
  unsigned type = 77;
  for (CUdeviceptr pointer : {data, data + 100}) {
    SCOPED_TRACE(pointer);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer),
                hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                       reinterpret_cast<hipDeviceptr_t>(pointer)));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, pointer));
    EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, pointer));
  }
  EXPECT_EQ(type, 77u);
  std::vector<float> host = Iota(kN, 1.0f), out(kN, 0.0f);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(data, host.data(), sizeof(float)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(data, 0, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(data, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(data));
  EXPECT_HIP(hipErrorInvalidValue, hipFreeAsync(reinterpret_cast<void*>(data), nullptr));

  // Handed out again, smaller: live memory of the new size.
  constexpr uint32_t kM = kN - 64;
  CUdeviceptr again = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&again, kM * sizeof(float), pool, stream));
  EXPECT_EQ(again, data);
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, again));
  EXPECT_EQ(size, kM * sizeof(float));
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerGetAttribute(&named, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, again + 100));
  EXPECT_EQ(named, pool);
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, again + kM * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(again, host.data(), kM * sizeof(float), stream));
  Scale(again, kM, 2.0f, 1.0f, stream);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(out.data(), again, kM * sizeof(float), stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(again, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (uint32_t i = 0; i < kM; ++i) ASSERT_EQ(out[i], host[i] * 2.0f + 1.0f) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolTrimTo(pool, 0));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT), 0u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

// Two threads freeing one block at once (a caller error): one free counts,
// the other is refused, and the block is cached once.
TEST_F(MemPoolConformance, ABlockFreedByTwoThreadsAtOnceIsFreedOnce) {
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&context));
  CUstream streams[2] = {nullptr, nullptr};
  for (CUstream& stream : streams) {
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  }
  for (int round = 0; round < 50; ++round) {
    CUdeviceptr data = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, 4096, pool, streams[0]));
    std::atomic<int> freed{0}, refused{0};
    auto free_in = [&](CUstream stream) {
      if (cuCtxSetCurrent(context) != CUDA_SUCCESS) return;
      const CUresult result = stream == streams[0] ? cuMemFreeAsync(data, stream) : cuMemFree(data);
      (result == CUDA_SUCCESS ? freed : refused).fetch_add(1);
    };
    std::thread first(free_in, streams[0]), second(free_in, streams[1]);
    first.join();
    second.join();
    ASSERT_EQ(freed.load(), 1);
    ASSERT_EQ(refused.load(), 1);
    ASSERT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0u);
  }
  // Cached once: two allocations get two blocks.
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&a, 4096, pool, streams[0]));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&b, 4096, pool, streams[0]));
  EXPECT_NE(a, b);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(a, streams[0]));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(b, streams[0]));
  for (CUstream stream : streams) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

// A context destroyed with pool blocks out gives them back to their pool,
// which hands them to the next context.
TEST_F(MemPoolConformance, ADestroyedContextsBlocksGoBackToTheirPool) {
  CUmemoryPool pool = NewPool();
  KeepEverything(pool);
  CUcontext mine = nullptr, other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&mine));
  CUdevice device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&other, 0, device));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&data, 8192, pool, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_GE(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 8192u);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(other));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(mine));
  EXPECT_EQ(PoolBytes(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT), 0u);
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, data));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(data, nullptr));
  CUdeviceptr again = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocFromPoolAsync(&again, 8192, pool, nullptr));
  EXPECT_EQ(again, data);
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(again, 0x3f800000, 2048));  // 1.0f
  Scale(again, 2048, 5.0f, 0.0f, nullptr);
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, again + 4 * 2047, sizeof(value)));
  EXPECT_EQ(value, 5.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeAsync(again, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_CU(CUDA_SUCCESS, cuMemPoolDestroy(pool));
}

// ---- HIP --------------------------------------------------------------------

class HipMemPoolConformance : public MemPoolConformance {
 protected:
  hipMemPool_t NewHipPool(size_t max_size = 0) {
    hipMemPoolProps props{};
    props.allocType = hipMemAllocationTypePinned;
    props.handleTypes = hipMemHandleTypeNone;
    props.location.type = hipMemLocationTypeDevice;
    props.location.id = 0;
    props.maxSize = max_size;
    hipMemPool_t pool = nullptr;
    EXPECT_HIP(hipSuccess, hipMemPoolCreate(&pool, &props));
    return pool;
  }
  uint64_t HipPoolBytes(hipMemPool_t pool, hipMemPoolAttr attribute) {
    uint64_t value = ~uint64_t{0};
    EXPECT_HIP(hipSuccess, hipMemPoolGetAttribute(pool, attribute, &value));
    return value;
  }
};

TEST_F(HipMemPoolConformance, MallocAsyncAndFromPoolRunKernels) {
  constexpr uint32_t kN = 2048;
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  hipMemPool_t pool = NewHipPool();
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocAsync(&a, kN * sizeof(float), stream));
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&b, kN * sizeof(float), pool, stream));
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrUsedMemCurrent), kN * sizeof(float));
  std::vector<float> host = Iota(kN, 1.0f), out(kN);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoDAsync(a, host.data(), kN * sizeof(float), stream));
  Scale(reinterpret_cast<CUdeviceptr>(a), kN, 2.0f, 0.0f, reinterpret_cast<CUstream>(stream));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoDAsync(b, a, kN * sizeof(float), stream));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoHAsync(out.data(), b, kN * sizeof(float), stream));
  ASSERT_HIP(hipSuccess, hipFreeAsync(a, stream));
  ASSERT_HIP(hipSuccess, hipFreeAsync(b, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], host[i] * 2.0f) << i;
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrUsedMemCurrent), 0u);
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrReservedMemCurrent), 0u);  // threshold 0
  EXPECT_HIP(hipErrorInvalidValue, hipFreeAsync(a, stream));
  EXPECT_HIP(hipErrorInvalidValue, hipMallocAsync(nullptr, 64, stream));
  EXPECT_HIP(hipSuccess, hipMemPoolDestroy(pool));
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolDestroy(pool));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
}

TEST_F(HipMemPoolConformance, PoolAttributesTrimAndReuse) {
  hipMemPool_t pool = NewHipPool();
  uint64_t keep = ~uint64_t{0};
  ASSERT_HIP(hipSuccess, hipMemPoolSetAttribute(pool, hipMemPoolAttrReleaseThreshold, &keep));
  int flag = 0;
  ASSERT_HIP(hipSuccess, hipMemPoolGetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &flag));
  EXPECT_EQ(flag, 1);
  ASSERT_HIP(hipSuccess, hipMemPoolSetAttribute(pool, hipMemPoolReuseAllowOpportunistic, &flag));
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&first, kMiB, pool, stream));
  ASSERT_HIP(hipSuccess, hipFreeAsync(first, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrReservedMemCurrent), kMiB);
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&second, kMiB, pool, stream));
  EXPECT_EQ(second, first);
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrUsedMemHigh), kMiB);
  ASSERT_HIP(hipSuccess, hipFree(second));  // back to the pool, no synchronisation
  ASSERT_HIP(hipSuccess, hipMemPoolTrimTo(pool, 0));
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrReservedMemCurrent), 0u);
  uint64_t zero = 0;
  ASSERT_HIP(hipSuccess, hipMemPoolSetAttribute(pool, hipMemPoolAttrUsedMemHigh, &zero));
  EXPECT_EQ(HipPoolBytes(pool, hipMemPoolAttrUsedMemHigh), 0u);
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemPoolSetAttribute(pool, hipMemPoolAttrReservedMemCurrent, &zero));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
  EXPECT_HIP(hipSuccess, hipMemPoolDestroy(pool));
}

TEST_F(HipMemPoolConformance, MaxSizeOutOfMemoryThenRoomAfterFree) {
  hipMemPool_t pool = NewHipPool(/*max_size=*/kMiB);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&a, kMiB, pool, nullptr));
  EXPECT_HIP(hipErrorOutOfMemory, hipMallocFromPoolAsync(&b, 4096, pool, nullptr));
  ASSERT_HIP(hipSuccess, hipFreeAsync(a, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(nullptr));
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&b, 4096, pool, nullptr));
  EXPECT_HIP(hipSuccess, hipFreeAsync(b, nullptr));
  EXPECT_HIP(hipSuccess, hipMemPoolDestroy(pool));
}

TEST_F(HipMemPoolConformance, DevicePoolsAndAccess) {
  hipMemPool_t default_pool = nullptr, current = nullptr;
  ASSERT_HIP(hipSuccess, hipDeviceGetDefaultMemPool(&default_pool, 0));
  ASSERT_HIP(hipSuccess, hipDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, default_pool);
  hipMemPool_t pool = NewHipPool();
  ASSERT_HIP(hipSuccess, hipDeviceSetMemPool(0, pool));
  ASSERT_HIP(hipSuccess, hipDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, pool);
  hipMemLocation location{hipMemLocationTypeDevice, 0};
  hipMemAccessFlags flags = hipMemAccessFlagsProtNone;
  ASSERT_HIP(hipSuccess, hipMemPoolGetAccess(&flags, pool, &location));
  EXPECT_EQ(flags, hipMemAccessFlagsProtReadWrite);
  hipMemAccessDesc desc{location, hipMemAccessFlagsProtReadWrite};
  EXPECT_HIP(hipSuccess, hipMemPoolSetAccess(pool, &desc, 1));
  desc.flags = hipMemAccessFlagsProtNone;
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolSetAccess(pool, &desc, 1));
  ASSERT_HIP(hipSuccess, hipMemPoolDestroy(pool));
  ASSERT_HIP(hipSuccess, hipDeviceGetMemPool(&current, 0));
  EXPECT_EQ(current, default_pool);
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGetDefaultMemPool(&current, 42));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceSetMemPool(0, nullptr));
}

// AMD passes the descriptor by address where CUDA passes it by value.
TEST_F(HipMemPoolConformance, AnExportedPoolSharesItsBlocks) {
  int handle_types = 0;
  ASSERT_HIP(hipSuccess, hipDeviceGetAttribute(
                             &handle_types, hipDeviceAttributeMemoryPoolSupportedHandleTypes, 0));
  EXPECT_EQ(handle_types, hipMemHandleTypePosixFileDescriptor);
  hipMemPoolProps props{};
  props.allocType = hipMemAllocationTypePinned;
  props.handleTypes = hipMemHandleTypePosixFileDescriptor;
  props.location = {hipMemLocationTypeDevice, 0};
  hipMemPool_t pool = nullptr;
  ASSERT_HIP(hipSuccess, hipMemPoolCreate(&pool, &props));
  constexpr size_t kN = 8 * 1024;
  std::vector<float> host(kN), back(kN, 0.0f);
  for (size_t i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocFromPoolAsync(&data, kN * sizeof(float), pool, nullptr));
  ASSERT_HIP(hipSuccess, hipMemcpy(data, host.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  int fd = -1;
  ASSERT_HIP(hipSuccess,
             hipMemPoolExportToShareableHandle(&fd, pool, hipMemHandleTypePosixFileDescriptor, 0));
  hipMemPoolPtrExportData export_data{};
  ASSERT_HIP(hipSuccess, hipMemPoolExportPointer(&export_data, data));
  hipMemPool_t imported = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolImportFromShareableHandle(
                                       &imported, nullptr, hipMemHandleTypePosixFileDescriptor, 0));
  ASSERT_HIP(hipSuccess, hipMemPoolImportFromShareableHandle(
                             &imported, &fd, hipMemHandleTypePosixFileDescriptor, 0));
  close(fd);
  void* shared = nullptr;
  ASSERT_HIP(hipSuccess, hipMemPoolImportPointer(&shared, imported, &export_data));
  EXPECT_NE(shared, data);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), shared, kN * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_EQ(back, host);
  void* more = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipMallocFromPoolAsync(&more, 64, imported, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceSetMemPool(0, imported));
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolImportPointer(&more, nullptr, &export_data));
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolImportPointer(&more, imported, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipMemPoolExportPointer(nullptr, data));
  EXPECT_HIP(hipSuccess, hipFreeAsync(shared, nullptr));
  EXPECT_HIP(hipSuccess, hipFreeAsync(data, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(nullptr));
  EXPECT_HIP(hipSuccess, hipMemPoolDestroy(imported));
  EXPECT_HIP(hipSuccess, hipMemPoolDestroy(pool));
}

}  // namespace
}  // namespace streamhal::conformance
