// Rows: streams (cuStream*/hipStream*), the per-thread and legacy default
// streams, host functions and callbacks, events (cuEvent*/hipEvent*) and
// hipExtModuleLaunchKernel. Ordering is proven with a gate: a host function
// that blocks its stream until the test opens it, so work that must wait is
// observably still pending while the gate is closed.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

// A host function that holds its stream until Open().
class Gate {
 public:
  static void Wait(void* raw) {
    auto* gate = static_cast<Gate*>(raw);
    gate->entered_.store(true);
    while (!gate->open_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  void Open() { open_.store(true); }
  bool entered() const { return entered_.load(); }

 private:
  std::atomic<bool> open_{false};
  std::atomic<bool> entered_{false};
};

class StreamConformance : public DriverTest {
 protected:
  void SetUp() override {
    DriverTest::SetUp();
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&ctx_, 0, 0));
  }
  void TearDown() override {
    cuCtxDestroy(ctx_);
    DriverTest::TearDown();
  }
  CUcontext ctx_ = nullptr;
};

TEST_F(StreamConformance, CreateQueryAndDestroyThroughBothApis) {
  CUstream cu = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreateWithPriority(&cu, CU_STREAM_NON_BLOCKING, -1));
  hipStream_t hip = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&hip, hipStreamNonBlocking));
  hipStream_t hip_prio = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreateWithPriority(&hip_prio, 0, 0));
  hipStream_t hip_plain = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&hip_plain));
  unsigned flags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetFlags(cu, &flags));
  EXPECT_EQ(flags, static_cast<unsigned>(CU_STREAM_NON_BLOCKING));
  ASSERT_HIP(hipSuccess, hipStreamGetFlags(reinterpret_cast<hipStream_t>(cu), &flags));
  EXPECT_EQ(flags, static_cast<unsigned>(hipStreamNonBlocking));
  int priority = 5;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetPriority(cu, &priority));
  EXPECT_EQ(priority, -1);
  ASSERT_HIP(hipSuccess, hipStreamGetPriority(hip_prio, &priority));
  EXPECT_EQ(priority, 0);
  CUcontext owner = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCtx(reinterpret_cast<CUstream>(hip), &owner));
  EXPECT_EQ(owner, ctx_);
  hipDevice_t device = -1;
  ASSERT_HIP(hipSuccess, hipStreamGetDevice(reinterpret_cast<hipStream_t>(cu), &device));
  EXPECT_EQ(device, 0);
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(cu));
  EXPECT_HIP(hipSuccess, hipStreamQuery(hip));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(reinterpret_cast<CUstream>(hip)));
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(reinterpret_cast<hipStream_t>(cu)));
  EXPECT_CU(CUDA_SUCCESS, cuStreamCopyAttributes(cu, reinterpret_cast<CUstream>(hip)));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(cu));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(hip));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(hip_prio));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(hip_plain));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(cu), hipStreamQuery(hip));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(cu), hipStreamDestroy(hip));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamCopyAttributes(cu, nullptr));
}

TEST_F(StreamConformance, BadArgumentsAndDefaultStreams) {
  CUstream stream = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&stream, 0x10));
  EXPECT_HIP(hipErrorInvalidValue, hipStreamCreateWithFlags(nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(nullptr), hipStreamDestroy(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(CU_STREAM_LEGACY));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(CU_STREAM_PER_THREAD),
              hipStreamDestroy(hipStreamPerThread));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetFlags(nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuStreamQuery(reinterpret_cast<CUstream>(uintptr_t{0x12345678})));
  // The default streams work.
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(CU_STREAM_LEGACY));
  EXPECT_HIP(hipSuccess, hipStreamSynchronize(hipStreamPerThread));
}

TEST_F(StreamConformance, HostFunctionsRunInOrderAndSeePriorResults) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 4096));
  uint32_t* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(reinterpret_cast<void**>(&pinned), 4096));
  std::memset(pinned, 0, 4096);
  struct Seen {
    uint32_t* pinned;
    uint32_t first = 0;
    std::vector<int> order;
  } seen{pinned};
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(device, 0xC0FFEE, 1024, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(pinned, device, 4096, stream));
  // Sees the copy's result, then changes the pinned buffer that the next
  // copy (which must wait for this function) reads.
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(
                              stream,
                              [](void* raw) {
                                auto* s = static_cast<Seen*>(raw);
                                s->first = s->pinned[0];
                                s->order.push_back(1);
                                for (int i = 0; i < 1024; ++i) s->pinned[i] = 7;
                              },
                              &seen));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(device, pinned, 4096, stream));
  ASSERT_HIP(hipSuccess,
             hipLaunchHostFunc(
                 reinterpret_cast<hipStream_t>(stream),
                 [](void* raw) { static_cast<Seen*>(raw)->order.push_back(2); }, &seen));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(seen.first, 0xC0FFEEu);
  EXPECT_EQ(seen.order, (std::vector<int>{1, 2}));
  std::vector<uint32_t> back(1024);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), device, 4096));
  EXPECT_EQ(back[0], 7u);
  EXPECT_EQ(back[1023], 7u);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(stream, nullptr, nullptr),
              hipLaunchHostFunc(reinterpret_cast<hipStream_t>(stream), nullptr, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(StreamConformance, CallbacksGetTheStreamAndSuccess) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  struct Seen {
    CUstream cu_stream = nullptr;
    CUresult cu_status = CUDA_ERROR_UNKNOWN;
    hipStream_t hip_stream = nullptr;
    hipError_t hip_status = hipErrorUnknown;
  } seen;
  ASSERT_CU(CUDA_SUCCESS, cuStreamAddCallback(
                              stream,
                              [](CUstream s, CUresult status, void* raw) {
                                static_cast<Seen*>(raw)->cu_stream = s;
                                static_cast<Seen*>(raw)->cu_status = status;
                              },
                              &seen, 0));
  ASSERT_HIP(hipSuccess, hipStreamAddCallback(
                             reinterpret_cast<hipStream_t>(stream),
                             [](hipStream_t s, hipError_t status, void* raw) {
                               static_cast<Seen*>(raw)->hip_stream = s;
                               static_cast<Seen*>(raw)->hip_status = status;
                             },
                             &seen, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(seen.cu_stream, stream);
  EXPECT_EQ(seen.cu_status, CUDA_SUCCESS);
  EXPECT_EQ(seen.hip_stream, reinterpret_cast<hipStream_t>(stream));
  EXPECT_EQ(seen.hip_status, hipSuccess);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuStreamAddCallback(
                  stream, [](CUstream, CUresult, void*) {}, nullptr, 1),
              hipStreamAddCallback(
                  reinterpret_cast<hipStream_t>(stream), [](hipStream_t, hipError_t, void*) {},
                  nullptr, 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(stream, nullptr, nullptr, 0),
              hipStreamAddCallback(reinterpret_cast<hipStream_t>(stream), nullptr, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(StreamConformance, EventsOrderWorkAcrossStreams) {
  CUstream producer = nullptr, consumer = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&producer, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&consumer, CU_STREAM_NON_BLOCKING));
  CUevent ready = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&ready, CU_EVENT_DISABLE_TIMING));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(device, 0, 1024));
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(producer, &Gate::Wait, &gate));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(device, 5, 1024, producer));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(ready, producer));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(consumer, ready, 0));
  std::atomic<bool> consumer_ran{false};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchHostFunc(
                consumer, [](void* raw) { static_cast<std::atomic<bool>*>(raw)->store(true); },
                &consumer_ran));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(consumer_ran.load()) << "the consumer ran before the producer's event";
  EXPECT_BOTH(CUDA_ERROR_NOT_READY, cuEventQuery(ready),
              hipEventQuery(reinterpret_cast<hipEvent_t>(ready)));
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(consumer));
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(consumer));
  EXPECT_TRUE(consumer_ran.load());
  EXPECT_CU(CUDA_SUCCESS, cuEventQuery(ready));
  std::vector<uint32_t> back(1024);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), device, 4096));
  EXPECT_EQ(back[1023], 5u);
  ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(ready));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(consumer, ready, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(producer));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(consumer));
}

TEST_F(StreamConformance, LegacyStreamWaitsForBlockingStreamsOnly) {
  CUstream blocking = nullptr, non_blocking = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&non_blocking, CU_STREAM_NON_BLOCKING));
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(blocking, &Gate::Wait, &gate));
  std::atomic<int> legacy_ran{0}, non_blocking_ran{0};
  auto mark = [](void* raw) { static_cast<std::atomic<int>*>(raw)->store(1); };
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(CU_STREAM_LEGACY, mark, &legacy_ran));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(non_blocking, mark, &non_blocking_ran));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(non_blocking));
  EXPECT_EQ(non_blocking_ran.load(), 1) << "a non-blocking stream does not wait";
  EXPECT_EQ(legacy_ran.load(), 0) << "the legacy stream waits for the blocking stream";
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(nullptr));
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_EQ(legacy_ran.load(), 1);
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(blocking));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(non_blocking));
}

TEST_F(StreamConformance, PerThreadDefaultStreamIsPerThread) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(device, 3, 256, CU_STREAM_PER_THREAD));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(CU_STREAM_PER_THREAD, &Gate::Wait, &gate));
  // Another thread's per-thread stream is a different stream: not gated.
  std::thread other([&] {
    ASSERT_CU(CUDA_SUCCESS, cuCtxSetCurrent(ctx_));
    EXPECT_HIP(hipSuccess,
               hipMemsetAsync(reinterpret_cast<void*>(device), 4, 256, hipStreamPerThread));
    EXPECT_HIP(hipSuccess, hipStreamSynchronize(hipStreamPerThread));
  });
  other.join();
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(CU_STREAM_PER_THREAD));
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
  uint8_t back[256];
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back, device, 256));
  EXPECT_EQ(back[255], 4);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(StreamConformance, DestroyingAStreamFinishesItsWork) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  std::atomic<int> ran{0};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(
                              stream,
                              [](void* raw) {
                                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                                static_cast<std::atomic<int>*>(raw)->store(1);
                              },
                              &ran));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_EQ(ran.load(), 1);
}

TEST_F(StreamConformance, ElapsedTimeIsMeasuredOnTheDevice) {
  CUevent start = nullptr, stop = nullptr, untimed = nullptr, never = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&start, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
  hipEvent_t hip_never = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&hip_never));
  never = reinterpret_cast<CUevent>(hip_never);
  EXPECT_BOTH(CUDA_SUCCESS, cuEventQuery(never), hipEventQuery(hip_never));
  CUdeviceptr device = 0;
  constexpr size_t kBytes = size_t{32} << 20;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(start, nullptr));
  for (int i = 0; i < 4; ++i)
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(device, i, kBytes / 4, nullptr));
  ASSERT_HIP(hipSuccess, hipEventRecord(reinterpret_cast<hipEvent_t>(stop), nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(untimed, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(stop));
  ASSERT_HIP(hipSuccess, hipEventSynchronize(reinterpret_cast<hipEvent_t>(untimed)));
  float cu_ms = -1, hip_ms = -1;
  ASSERT_CU(CUDA_SUCCESS, cuEventElapsedTime(&cu_ms, start, stop));
  ASSERT_HIP(hipSuccess, hipEventElapsedTime(&hip_ms, reinterpret_cast<hipEvent_t>(start),
                                             reinterpret_cast<hipEvent_t>(stop)));
  EXPECT_GT(cu_ms, 0.0f) << "filling 128 MiB takes measurable device time";
  EXPECT_LT(cu_ms, 60000.0f);
  EXPECT_EQ(cu_ms, hip_ms);
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&cu_ms, start, untimed),
              hipEventElapsedTime(&hip_ms, reinterpret_cast<hipEvent_t>(start),
                                  reinterpret_cast<hipEvent_t>(untimed)));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&cu_ms, start, never));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventElapsedTime(nullptr, start, stop));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&never, 0x40),
              hipEventCreateWithFlags(&hip_never, 0x40));
  // CUDA: an interprocess event must be untimed.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&never, CU_EVENT_INTERPROCESS));
  for (CUevent event : {start, stop, untimed}) ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(event));
  ASSERT_HIP(hipSuccess, hipEventDestroy(hip_never));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuEventSynchronize(start),
              hipEventSynchronize(reinterpret_cast<hipEvent_t>(start)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuEventRecord(start, nullptr),
              hipEventRecord(reinterpret_cast<hipEvent_t>(start), nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuEventDestroy(start),
              hipEventDestroy(reinterpret_cast<hipEvent_t>(start)));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

// AMD's hipEventCreateWithFlags takes memory-scope flags CUDA lacks: at most
// one of ReleaseToDevice/ReleaseToSystem, and DisableSystemFence. On Vulkan a
// submission boundary releases to every scope, so each is honoured by the
// ordinary event; the events order and time work like any other.
TEST_F(StreamConformance, HipEventsAcceptAmdsReleaseFlags) {
  const unsigned accepted[] = {
      hipEventReleaseToDevice,
      hipEventReleaseToSystem,
      hipEventDisableSystemFence,
      hipEventReleaseToSystem | hipEventDisableSystemFence,
      hipEventReleaseToDevice | hipEventDisableTiming | hipEventBlockingSync,
  };
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 1 << 20));
  for (unsigned flags : accepted) {
    SCOPED_TRACE(flags);
    hipEvent_t start = nullptr, stop = nullptr;
    ASSERT_HIP(hipSuccess, hipEventCreateWithFlags(&start, flags));
    ASSERT_HIP(hipSuccess, hipEventCreateWithFlags(&stop, flags));
    ASSERT_HIP(hipSuccess, hipEventRecord(start, nullptr));
    ASSERT_HIP(hipSuccess, hipMemsetD32Async(AsHipPointer(device), static_cast<int>(flags),
                                             (1 << 20) / 4, nullptr));
    ASSERT_HIP(hipSuccess, hipEventRecord(stop, nullptr));
    ASSERT_HIP(hipSuccess, hipEventSynchronize(stop));
    EXPECT_HIP(hipSuccess, hipEventQuery(stop));
    // The fill is complete and visible once the event is.
    uint32_t last = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&last, device + (1 << 20) - 4, 4));
    EXPECT_EQ(last, flags);
    float ms = -1;
    EXPECT_HIP((flags & hipEventDisableTiming) ? hipErrorInvalidHandle : hipSuccess,
               hipEventElapsedTime(&ms, start, stop));
    ASSERT_HIP(hipSuccess, hipEventDestroy(start));
    ASSERT_HIP(hipSuccess, hipEventDestroy(stop));
  }
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(StreamConformance, HipReleaseFlagsAreExclusiveAndNotCudaFlags) {
  hipEvent_t event = nullptr;
  EXPECT_HIP(hipErrorInvalidValue,
             hipEventCreateWithFlags(&event, hipEventReleaseToDevice | hipEventReleaseToSystem));
  EXPECT_EQ(event, nullptr);
  // CUDA has no such flags.
  CUevent cuda_event = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&cuda_event, 0x40000000));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&cuda_event, 0x80000000));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&cuda_event, 0x20000000));
  EXPECT_EQ(cuda_event, nullptr);
}

TEST_F(StreamConformance, ThousandsOfLaunchesRunInOrder) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kScaleOffsetGlsl));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "scale_offset"));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 64 * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 0, 64, stream));
  // x -> 2x + 1 applied 10,000 times from 0 saturates nowhere if we alternate
  // with x -> x/2 - 0.5, which undoes it: the result is 0 only in order.
  float two = 2.0f, one = 1.0f, half = 0.5f, minus_half = -0.5f;
  unsigned n = 64;
  void* forward[] = {&data, &two, &one, &n};
  void* backward[] = {&data, &half, &minus_half, &n};
  for (int i = 0; i < 5000; ++i) {
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, forward, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, backward, nullptr));
  }
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, forward, nullptr));
  float back[64];
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(back, data, sizeof(back), stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (float value : back) ASSERT_EQ(value, 1.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(data));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// While a host function holds one stream (and the device work queued behind
// it), creating and destroying streams and events elsewhere never waits for
// that stream: destroying them must not wait for the queue to drain.
TEST_F(StreamConformance, DestroyingObjectsDoesNotWaitForAHeldStream) {
  CUstream held = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&held, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 256));
  Gate gate;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(held, &Gate::Wait, &gate));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 5, 64, held));
  // The query submits the fill, so the queue holds work that waits for the
  // host function.
  EXPECT_CU(CUDA_ERROR_NOT_READY, cuStreamQuery(held));
  for (int i = 0; i < 80; ++i) {
    CUstream stream = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    CUevent event = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, 0));
    ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(event));
    ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  }
  gate.Open();
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(held));
  uint32_t back[64] = {};
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back, data, sizeof(back)));
  EXPECT_EQ(back[63], 5u);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(data));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(held));
}

// Threads launching on streams of their own, each checking its stream's
// order, while the main thread synchronises the context now and then. Run
// under ThreadSanitizer by the tsan preset (docs/architecture.md).
TEST_F(StreamConformance, ThreadsLaunchOnTheirOwnStreams) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kScaleOffsetGlsl));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "scale_offset"));
  constexpr int kThreads = 4;
  constexpr int kRounds = 100;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto check = [&](CUresult result) {
        if (result != CUDA_SUCCESS) failures.fetch_add(1);
      };
      check(cuCtxSetCurrent(ctx_));
      CUstream stream = nullptr;
      check(cuStreamCreate(&stream, t % 2 == 0 ? CU_STREAM_DEFAULT : CU_STREAM_NON_BLOCKING));
      CUevent event = nullptr;
      check(cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
      CUdeviceptr data = 0;
      check(cuMemAlloc(&data, 64 * sizeof(float)));
      check(cuMemsetD32Async(data, 0, 64, stream));
      // x -> 2x + 1 then x -> x/2 - 0.5 gives back x only in order.
      float two = 2.0f, one = 1.0f, half = 0.5f, minus_half = -0.5f;
      unsigned n = 64;
      void* forward[] = {&data, &two, &one, &n};
      void* backward[] = {&data, &half, &minus_half, &n};
      for (int i = 0; i < kRounds; ++i) {
        check(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, forward, nullptr));
        check(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, backward, nullptr));
        if (i % 10 == 0) {
          check(cuEventRecord(event, stream));
          const CUresult query = cuEventQuery(event);
          if (query != CUDA_SUCCESS && query != CUDA_ERROR_NOT_READY) failures.fetch_add(1);
        }
      }
      check(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, forward, nullptr));
      float back[64];
      check(cuMemcpyDtoHAsync(back, data, sizeof(back), stream));
      check(cuStreamSynchronize(stream));
      for (float value : back) {
        if (value != 1.0f) failures.fetch_add(1);
      }
      check(cuMemFree(data));
      check(cuEventDestroy(event));
      check(cuStreamDestroy(stream));
    });
  }
  for (int i = 0; i < 5; ++i) EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// Several threads launching on one stream, querying it and recording events
// on it: every launch runs exactly once (x -> x + 1 commutes, so the order
// between threads does not matter, only that none is lost or doubled).
TEST_F(StreamConformance, SeveralThreadsShareOneStream) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kScaleOffsetGlsl));
  CUfunction f = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&f, module, "scale_offset"));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, 64 * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 0, 64, stream));
  constexpr int kThreads = 4;
  constexpr int kLaunches = 150;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      auto check = [&](CUresult result) {
        if (result != CUDA_SUCCESS) failures.fetch_add(1);
      };
      check(cuCtxSetCurrent(ctx_));
      CUevent event = nullptr;
      check(cuEventCreate(&event, 0));
      float scale = 1.0f, offset = 1.0f;
      unsigned n = 64;
      void* args[] = {&data, &scale, &offset, &n};
      for (int i = 0; i < kLaunches; ++i) {
        check(cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, stream, args, nullptr));
        if (i % 25 == 0) {
          const CUresult query = cuStreamQuery(stream);
          if (query != CUDA_SUCCESS && query != CUDA_ERROR_NOT_READY) failures.fetch_add(1);
          check(cuEventRecord(event, stream));
        }
      }
      check(cuEventSynchronize(event));
      check(cuEventDestroy(event));
    });
  }
  for (std::thread& thread : threads) thread.join();
  // A non-blocking stream: the legacy stream's copy does not wait for it.
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  float back[64];
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back, data, sizeof(back)));
  for (float value : back) ASSERT_EQ(value, static_cast<float>(kThreads * kLaunches));
  EXPECT_EQ(failures.load(), 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(data));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(StreamConformance, HipExtModuleLaunchKernelRecordsItsEvents) {
  hipModule_t module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&module, kScaleOffsetGlsl));
  hipFunction_t f = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, "scale_offset"));
  void* data = nullptr;
  constexpr unsigned kN = 1000;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemsetD32(data, 0, kN));
  hipEvent_t start = nullptr, stop = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&start));
  ASSERT_HIP(hipSuccess, hipEventCreate(&stop));
  float scale = 1.0f, offset = 3.0f;
  unsigned n = kN;
  void* args[] = {&data, &scale, &offset, &n};
  // Global sizes are work-items: 1000 items in blocks of 64 -> 16 blocks.
  ASSERT_HIP(hipSuccess, hipExtModuleLaunchKernel(f, kN, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr,
                                                  start, stop, 0));
  ASSERT_HIP(hipSuccess, hipHccModuleLaunchKernel(f, kN, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr,
                                                  nullptr, nullptr));
  ASSERT_HIP(hipSuccess, hipEventSynchronize(stop));
  float ms = -1;
  ASSERT_HIP(hipSuccess, hipEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.0f);
  std::vector<float> back(kN);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), data, kN * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_EQ(back[0], 6.0f);
  EXPECT_EQ(back[kN - 1], 6.0f);
  EXPECT_HIP(hipErrorInvalidValue, hipExtModuleLaunchKernel(f, kN, 1, 1, 0, 1, 1, 0, nullptr, args,
                                                            nullptr, start, stop, 0));
  ASSERT_HIP(hipSuccess, hipEventDestroy(stop));
  EXPECT_HIP(hipErrorInvalidHandle, hipExtModuleLaunchKernel(f, kN, 1, 1, 64, 1, 1, 0, nullptr,
                                                             args, nullptr, start, stop, 0));
  ASSERT_HIP(hipSuccess, hipEventDestroy(start));
  ASSERT_HIP(hipSuccess, hipFree(data));
  ASSERT_HIP(hipSuccess, hipModuleUnload(module));
}

}  // namespace
}  // namespace streamhal::conformance
