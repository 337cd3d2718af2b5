// The CUDA binding against Vulkan failures (vk_backend/fault_injection.h):
// a small but complete driver-API program runs once per operation it makes
// of each kind, with exactly that operation failing. For every run: the
// failure reaches the caller as the code CUDA documents, work reported as
// failed never runs later, nothing hangs, and the process keeps working.
// After a lost device the context answers every call with the sticky error
// until it is destroyed, while other contexts work.
#include "vk_backend/fault_injection.h"

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace {

using streamhal::vk::FaultSite;

constexpr char kScaleOffsetGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME scale_offset
STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params { float_ptr data; float scale; float offset; uint n; } p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.data.v[i] = p.data.v[i] * p.scale + p.offset;
}
)";

constexpr uint32_t kCount = 4096;

struct Outcome {
  // The first call that failed (empty when none did) and its code.
  std::string failed_call;
  CUresult result = CUDA_SUCCESS;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  CUdeviceptr data = 0;
};

// Launches data = data * scale + offset over kCount elements.
CUresult Launch(const Outcome& o, CUstream stream, float scale, float offset) {
  CUdeviceptr data = o.data;
  uint32_t n = kCount;
  void* params[] = {&data, &scale, &offset, &n};
  return cuLaunchKernel(o.function, kCount / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr);
}

void SetFlag(void* flag) { static_cast<std::atomic<int>*>(flag)->store(1); }

// Set by the program's host function. Not on the program's stack: when a
// later call fails, the program returns while the host function it queued
// may still be waiting to run.
std::atomic<int> program_host_ran{0};

// The program: a context, a module, memory, a stream with two launches, a
// host function and two events between them, an elapsed time and a
// synchronous copy back, checked. Stops at the first failing call; leaves
// the context, module and allocation for the caller to inspect and free.
Outcome RunProgram() {
  Outcome o;
#define STEP(call)              \
  do {                          \
    const CUresult r_ = (call); \
    if (r_ != CUDA_SUCCESS) {   \
      o.failed_call = #call;    \
      o.result = r_;            \
      return o;                 \
    }                           \
  } while (0)
  STEP(cuCtxCreate(&o.context, 0, 0));
  STEP(cuModuleLoadData(&o.module, kScaleOffsetGlsl));
  STEP(cuModuleGetFunction(&o.function, o.module, "scale_offset"));
  STEP(cuMemAlloc(&o.data, kCount * sizeof(float)));
  // Large enough for memory of its own, so every run allocates device memory.
  CUdeviceptr big = 0;
  STEP(cuMemAlloc(&big, size_t{33} << 20));
  STEP(cuMemsetD32(big, 5, 1024));
  std::vector<float> values(kCount);
  for (uint32_t i = 0; i < kCount; ++i) values[i] = static_cast<float>(i);
  STEP(cuMemcpyHtoD(o.data, values.data(), kCount * sizeof(float)));
  CUstream stream = nullptr;
  STEP(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent start = nullptr, stop = nullptr;
  STEP(cuEventCreate(&start, CU_EVENT_DEFAULT));
  STEP(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  std::atomic<int>& host_ran = program_host_ran;
  host_ran.store(0);
  STEP(cuEventRecord(start, stream));
  STEP(Launch(o, stream, 2.0f, 0.0f));
  STEP(cuLaunchHostFunc(stream, SetFlag, &host_ran));
  STEP(Launch(o, stream, 1.0f, 1.0f));
  STEP(cuEventRecord(stop, stream));
  STEP(cuEventSynchronize(stop));
  float ms = -1.0f;
  STEP(cuEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(host_ran.load(), 1);
  std::vector<float> back(kCount);
  STEP(cuMemcpyDtoH(back.data(), o.data, kCount * sizeof(float)));
  for (uint32_t i = 0; i < kCount; ++i) {
    if (back[i] != values[i] * 2.0f + 1.0f) {
      ADD_FAILURE() << "element " << i << " is " << back[i] << " after a successful program";
      break;
    }
  }
  STEP(cuEventDestroy(start));
  STEP(cuEventDestroy(stop));
  STEP(cuStreamDestroy(stream));
  STEP(cuMemFree(big));
#undef STEP
  return o;
}

// The codes CUDA documents for each injected failure.
bool Documented(CUresult result, VkResult injected) {
  switch (injected) {
    case VK_ERROR_DEVICE_LOST:
      return result == CUDA_ERROR_LAUNCH_FAILED;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      // Pipeline creation out of memory: too many resources for the launch.
      return result == CUDA_ERROR_OUT_OF_MEMORY || result == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    default:
      return false;
  }
}

// After a non-sticky failure the context still works, and only new work
// changes memory: whatever the data holds once the context is idle, one more
// launch applies exactly once.
void ExpectContextKeepsWorking(const Outcome& o) {
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  std::vector<float> before(kCount), after(kCount);
  ASSERT_EQ(cuMemcpyDtoH(before.data(), o.data, kCount * sizeof(float)), CUDA_SUCCESS);
  ASSERT_EQ(Launch(o, nullptr, 1.0f, 3.0f), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyDtoH(after.data(), o.data, kCount * sizeof(float)), CUDA_SUCCESS);
  for (uint32_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(after[i], before[i] + 3.0f) << "element " << i << ": work ran that was not launched";
  }
}

// After a lost device: the sticky error from every call of the context,
// other contexts unaffected, and destroying the context ends it.
void ExpectStickyUntilDestroyed(const Outcome& o) {
  CUdeviceptr more = 0;
  EXPECT_EQ(cuMemAlloc(&more, 256), CUDA_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_LAUNCH_FAILED);
  EXPECT_EQ(cuStreamSynchronize(nullptr), CUDA_ERROR_LAUNCH_FAILED);
  if (o.function != nullptr) {
    EXPECT_EQ(Launch(o, nullptr, 1.0f, 1.0f), CUDA_ERROR_LAUNCH_FAILED);
  }
  float host = 0;
  if (o.data != 0) {
    EXPECT_EQ(cuMemcpyDtoH(&host, o.data, sizeof(host)), CUDA_ERROR_LAUNCH_FAILED);
  }
  // Another context on the same device works.
  CUcontext other = nullptr;
  ASSERT_EQ(cuCtxCreate(&other, 0, 0), CUDA_SUCCESS);
  CUdeviceptr memory = 0;
  ASSERT_EQ(cuMemAlloc(&memory, 64), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(memory, 7, 16), CUDA_SUCCESS);
  uint32_t word = 0;
  ASSERT_EQ(cuMemcpyDtoH(&word, memory, 4), CUDA_SUCCESS);
  EXPECT_EQ(word, 7u);
  ASSERT_EQ(cuMemFree(memory), CUDA_SUCCESS);
  // Destroying it makes the lost context current again.
  ASSERT_EQ(cuCtxDestroy(other), CUDA_SUCCESS);
}

struct Sweep {
  FaultSite site;
  VkResult result;
};

class CudaFaultInjectionTest : public ::testing::TestWithParam<Sweep> {
 protected:
  void SetUp() override { ASSERT_EQ(cuInit(0), CUDA_SUCCESS); }
  void TearDown() override {
    streamhal::vk::ClearFaults();
    EXPECT_EQ(cuHALDeinit(), CUDA_SUCCESS);
  }
};

TEST_P(CudaFaultInjectionTest, EveryFailureIsReportedAndRecoverable) {
  const Sweep sweep = GetParam();
  // Count the program's operations at this site, once the first run has
  // filled the allocator's caches as every later run finds them.
  for (int run = 0; run < 2; ++run) {
    if (run == 1) streamhal::vk::InjectFault(sweep.site, 0, sweep.result);
    Outcome clean = RunProgram();
    ASSERT_TRUE(clean.failed_call.empty()) << clean.failed_call << " failed without a fault";
    ASSERT_EQ(cuMemFree(clean.data), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxDestroy(clean.context), CUDA_SUCCESS);
  }
  const uint64_t calls = streamhal::vk::FaultSiteCalls(sweep.site);
  ASSERT_GT(calls, 0u) << "the program makes no " << streamhal::vk::FaultSiteName(sweep.site)
                       << " call";
  int reported = 0;
  for (uint64_t nth = 1; nth <= calls; ++nth) {
    SCOPED_TRACE(testing::Message() << streamhal::vk::FaultSiteName(sweep.site) << " call " << nth);
    streamhal::vk::InjectFault(sweep.site, nth, sweep.result);
    Outcome o = RunProgram();
    const bool fired = streamhal::vk::FaultFired();
    streamhal::vk::ClearFaults();
    if (!o.failed_call.empty()) {
      ++reported;
      EXPECT_TRUE(fired) << o.failed_call << " failed with " << o.result << " without the fault";
      EXPECT_TRUE(Documented(o.result, sweep.result)) << o.failed_call << " returned " << o.result;
    }
    if (o.context == nullptr) continue;
    CUcontext current = nullptr;
    ASSERT_EQ(cuCtxGetCurrent(&current), CUDA_SUCCESS);
    ASSERT_EQ(current, o.context);
    // A lost device in a call that reports nothing (a stream's teardown, the
    // host thread) surfaces as the sticky error of the next call.
    const CUresult next = cuCtxSynchronize();
    if (o.result == CUDA_ERROR_LAUNCH_FAILED || next == CUDA_ERROR_LAUNCH_FAILED) {
      EXPECT_EQ(sweep.result, VK_ERROR_DEVICE_LOST);
      EXPECT_TRUE(fired);
      ExpectStickyUntilDestroyed(o);
    } else if (o.function != nullptr && o.data != 0) {
      ExpectContextKeepsWorking(o);
      EXPECT_EQ(cuMemFree(o.data), CUDA_SUCCESS);
    }
    EXPECT_EQ(cuCtxDestroy(o.context), CUDA_SUCCESS);
  }
  // A fault in the host thread's waits or in teardown reaches no caller of
  // the program itself; the rest must.
  if (sweep.site != FaultSite::kWait) {
    EXPECT_GT(reported, 0);
  }
  // The process keeps working: a fresh program runs clean.
  Outcome after = RunProgram();
  EXPECT_TRUE(after.failed_call.empty()) << after.failed_call << " failed after the sweep";
  if (after.context != nullptr) {
    EXPECT_EQ(cuMemFree(after.data), CUDA_SUCCESS);
    EXPECT_EQ(cuCtxDestroy(after.context), CUDA_SUCCESS);
  }
}

std::string SweepName(const testing::TestParamInfo<Sweep>& info) {
  std::string name = streamhal::vk::FaultSiteName(info.param.site);
  switch (info.param.result) {
    case VK_ERROR_DEVICE_LOST:
      return name + "_DeviceLost";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return name + "_OutOfHostMemory";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return name + "_OutOfDeviceMemory";
    default:
      return name + "_Other";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sites, CudaFaultInjectionTest,
    testing::Values(Sweep{FaultSite::kQueueSubmit, VK_ERROR_DEVICE_LOST},
                    Sweep{FaultSite::kQueueSubmit, VK_ERROR_OUT_OF_HOST_MEMORY},
                    Sweep{FaultSite::kAllocateMemory, VK_ERROR_OUT_OF_DEVICE_MEMORY},
                    Sweep{FaultSite::kBeginCommandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY},
                    Sweep{FaultSite::kCreatePipeline, VK_ERROR_OUT_OF_HOST_MEMORY},
                    Sweep{FaultSite::kWait, VK_ERROR_DEVICE_LOST}),
    SweepName);

TEST(CudaFaultInjectionSpec, ParsesTheEnvironmentForm) {
  EXPECT_TRUE(streamhal::vk::InjectFaultFromSpec("submit:3:VK_ERROR_DEVICE_LOST").ok());
  EXPECT_EQ(streamhal::vk::FaultSiteCalls(FaultSite::kQueueSubmit), 0u);
  EXPECT_FALSE(streamhal::vk::InjectFaultFromSpec("submit:0:VK_ERROR_DEVICE_LOST").ok());
  EXPECT_FALSE(streamhal::vk::InjectFaultFromSpec("nowhere:1:VK_ERROR_DEVICE_LOST").ok());
  EXPECT_FALSE(streamhal::vk::InjectFaultFromSpec("wait:1:VK_SUCCESS").ok());
  EXPECT_FALSE(streamhal::vk::InjectFaultFromSpec("wait:1").ok());
  streamhal::vk::ClearFaults();
  EXPECT_EQ(streamhal::vk::InjectedFault(FaultSite::kQueueSubmit), VK_SUCCESS);
}

}  // namespace

namespace {

class CudaFailedSubmissionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxCreate(&context_, 0, 0), CUDA_SUCCESS);
  }
  void TearDown() override {
    streamhal::vk::ClearFaults();
    EXPECT_EQ(cuCtxDestroy(context_), CUDA_SUCCESS);
    EXPECT_EQ(cuHALDeinit(), CUDA_SUCCESS);
  }
  CUcontext context_ = nullptr;
};

TEST_F(CudaFailedSubmissionTest, TimestampsOfAFailedSubmissionAreNeverRead) {
  CUstream stream = nullptr;
  ASSERT_EQ(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUevent start = nullptr, stop = nullptr;
  ASSERT_EQ(cuEventCreate(&start, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&stop, CU_EVENT_DEFAULT), CUDA_SUCCESS);
  CUdeviceptr memory = 0;
  ASSERT_EQ(cuMemAlloc(&memory, 4096), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(start, stream), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  // The batch holding the stop timestamp is never submitted: the record
  // reports it.
  streamhal::vk::InjectFault(FaultSite::kQueueSubmit, 1, VK_ERROR_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(cuEventRecord(stop, stream), CUDA_ERROR_OUT_OF_MEMORY);
  streamhal::vk::ClearFaults();
  float ms = -1.0f;
  EXPECT_NE(cuEventElapsedTime(&ms, start, stop), CUDA_SUCCESS);
  // Later work takes the failed batch's place and completes.
  ASSERT_EQ(cuMemsetD32Async(memory, 9, 1024, stream), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  uint32_t word = 0;
  ASSERT_EQ(cuMemcpyDtoH(&word, memory + 4092, 4), CUDA_SUCCESS);
  EXPECT_EQ(word, 9u);
  // The stop timestamp was never written: no time is reported from it.
  EXPECT_NE(cuEventElapsedTime(&ms, start, stop), CUDA_SUCCESS);
  EXPECT_EQ(ms, -1.0f);
  // Recorded again, it works.
  ASSERT_EQ(cuEventRecord(stop, stream), CUDA_SUCCESS);
  ASSERT_EQ(cuEventSynchronize(stop), CUDA_SUCCESS);
  EXPECT_EQ(cuEventElapsedTime(&ms, start, stop), CUDA_SUCCESS);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(cuMemFree(memory), CUDA_SUCCESS);
  EXPECT_EQ(cuEventDestroy(start), CUDA_SUCCESS);
  EXPECT_EQ(cuEventDestroy(stop), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(stream), CUDA_SUCCESS);
}

TEST_F(CudaFailedSubmissionTest, SynchronizeReportsAFailureButWaitsForEveryStream) {
  CUstream first = nullptr, second = nullptr;
  ASSERT_EQ(cuStreamCreate(&first, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&second, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUdeviceptr memory = 0;
  ASSERT_EQ(cuMemAlloc(&memory, 4096), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32Async(memory, 1, 1024, first), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(first), CUDA_SUCCESS);
  // The second stream is held by a host function until another thread
  // opens it.
  struct Gate {
    std::atomic<bool> entered{false};
    std::atomic<bool> open{false};
  } gate;
  auto hold = [](void* raw) {
    auto* g = static_cast<Gate*>(raw);
    g->entered.store(true);
    while (!g->open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  ASSERT_EQ(cuLaunchHostFunc(second, hold, &gate), CUDA_SUCCESS);
  while (!gate.entered.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  // The context's first wait (for the first stream) fails.
  streamhal::vk::InjectFault(FaultSite::kWait, 1, VK_TIMEOUT);
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gate.open.store(true);
  });
  EXPECT_NE(cuCtxSynchronize(), CUDA_SUCCESS);
  const bool waited_for_second = gate.open.load();
  opener.join();
  streamhal::vk::ClearFaults();
  EXPECT_TRUE(waited_for_second) << "cuCtxSynchronize returned before the second stream finished";
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(memory), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(first), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(second), CUDA_SUCCESS);
}

}  // namespace
