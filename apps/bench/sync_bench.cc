// Waiting for the device under each scheduling flag (CU_CTX_SCHED_*):
//  * the round trip of an empty kernel, cuLaunchKernel + cuStreamSynchronize,
//    against raw Vulkan submitting the same dispatch and waiting for its
//    fence by sleeping in vkWaitForFences (the baseline of BLOCKING_SYNC) or
//    by polling vkGetFenceStatus (the baseline of SPIN, and with yields of
//    YIELD). Real time decides how long they run: a sleeping waiter uses
//    little processor time;
//  * a compute-bound kernel (65,536 threads x 20,000 LCG steps, ~0.3 s on
//    two cores), where waiting must not take processor time from the device
//    when the device is the host's processors (lavapipe).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

#include "bench_env.h"

namespace bench {
namespace {

constexpr unsigned kLcgThreads = 65536;
constexpr unsigned kLcgBlock = 256;
constexpr unsigned kLcgIterations = 20000;

// Sets the bench context's scheduling flag for one benchmark.
class ScopedSchedFlag {
 public:
  explicit ScopedSchedFlag(unsigned flag) { ok_ = cuCtxSetFlags(flag) == CUDA_SUCCESS; }
  ~ScopedSchedFlag() { cuCtxSetFlags(CU_CTX_SCHED_AUTO); }
  bool ok() const { return ok_; }

 private:
  bool ok_ = false;
};

void BM_RawVulkan_RoundTripBlock(benchmark::State& state) {
  RawVulkan& raw = *GetEnv().raw;
  uint32_t value = 0;
  for (auto _ : state) {
    raw.recorder().Begin();
    raw.recorder().RecordDispatch(++value);
    raw.recorder().End();
    raw.Submit();
    raw.Wait();
  }
}
BENCHMARK(BM_RawVulkan_RoundTripBlock)->UseRealTime();

void BM_RawVulkan_RoundTripPoll(benchmark::State& state, bool yield) {
  RawVulkan& raw = *GetEnv().raw;
  uint32_t value = 0;
  for (auto _ : state) {
    raw.recorder().Begin();
    raw.recorder().RecordDispatch(++value);
    raw.recorder().End();
    raw.Submit();
    raw.PollWait(yield);
  }
}
BENCHMARK_CAPTURE(BM_RawVulkan_RoundTripPoll, spin, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_RawVulkan_RoundTripPoll, yield, true)->UseRealTime();

void BM_Streamhal_RoundTrip(benchmark::State& state, unsigned flag) {
  Env& env = GetEnv();
  ScopedSchedFlag sched(flag);
  if (!sched.ok()) {
    state.SkipWithError("cuCtxSetFlags failed");
    return;
  }
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    ++value;
    if (cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS ||
        cuStreamSynchronize(nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("launch or synchronize failed");
      break;
    }
  }
}
BENCHMARK_CAPTURE(BM_Streamhal_RoundTrip, AUTO, CU_CTX_SCHED_AUTO)->UseRealTime();
BENCHMARK_CAPTURE(BM_Streamhal_RoundTrip, SPIN, CU_CTX_SCHED_SPIN)->UseRealTime();
BENCHMARK_CAPTURE(BM_Streamhal_RoundTrip, YIELD, CU_CTX_SCHED_YIELD)->UseRealTime();
BENCHMARK_CAPTURE(BM_Streamhal_RoundTrip, BLOCKING_SYNC, CU_CTX_SCHED_BLOCKING_SYNC)->UseRealTime();

// The round trip in phases, for the trace in docs/architecture.md: the
// launch (appending the command), the submission (cuStreamQuery records the
// Vulkan commands and calls vkQueueSubmit) and the wait, as counters in
// microseconds per round trip.
void BM_Streamhal_RoundTripPhases(benchmark::State& state, unsigned flag) {
  using Clock = std::chrono::steady_clock;
  Env& env = GetEnv();
  ScopedSchedFlag sched(flag);
  if (!sched.ok()) {
    state.SkipWithError("cuCtxSetFlags failed");
    return;
  }
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  Clock::duration launch{}, submit{}, wait{};
  for (auto _ : state) {
    ++value;
    const Clock::time_point t0 = Clock::now();
    const CUresult launched = cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr);
    const Clock::time_point t1 = Clock::now();
    const CUresult queried = cuStreamQuery(nullptr);
    const Clock::time_point t2 = Clock::now();
    const CUresult synchronized = cuStreamSynchronize(nullptr);
    const Clock::time_point t3 = Clock::now();
    if (launched != CUDA_SUCCESS || (queried != CUDA_SUCCESS && queried != CUDA_ERROR_NOT_READY) ||
        synchronized != CUDA_SUCCESS) {
      state.SkipWithError("launch, query or synchronize failed");
      break;
    }
    launch += t1 - t0;
    submit += t2 - t1;
    wait += t3 - t2;
  }
  const double n = static_cast<double>(state.iterations());
  auto us = [n](Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count() / n;
  };
  state.counters["launch_us"] = us(launch);
  state.counters["submit_us"] = us(submit);
  state.counters["wait_us"] = us(wait);
}
BENCHMARK_CAPTURE(BM_Streamhal_RoundTripPhases, AUTO, CU_CTX_SCHED_AUTO)->UseRealTime();
BENCHMARK_CAPTURE(BM_Streamhal_RoundTripPhases, BLOCKING_SYNC, CU_CTX_SCHED_BLOCKING_SYNC)
    ->UseRealTime();

// The same phases in raw Vulkan: recording, vkQueueSubmit, the fence wait.
void BM_RawVulkan_RoundTripPhases(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  RawVulkan& raw = *GetEnv().raw;
  uint32_t value = 0;
  Clock::duration record{}, submit{}, wait{};
  for (auto _ : state) {
    const Clock::time_point t0 = Clock::now();
    raw.recorder().Begin();
    raw.recorder().RecordDispatch(++value);
    raw.recorder().End();
    const Clock::time_point t1 = Clock::now();
    raw.Submit();
    const Clock::time_point t2 = Clock::now();
    raw.Wait();
    const Clock::time_point t3 = Clock::now();
    record += t1 - t0;
    submit += t2 - t1;
    wait += t3 - t2;
  }
  const double n = static_cast<double>(state.iterations());
  auto us = [n](Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count() / n;
  };
  state.counters["record_us"] = us(record);
  state.counters["submit_us"] = us(submit);
  state.counters["wait_us"] = us(wait);
}
BENCHMARK(BM_RawVulkan_RoundTripPhases)->UseRealTime();

void BM_Streamhal_Lcg(benchmark::State& state, unsigned flag) {
  Env& env = GetEnv();
  ScopedSchedFlag sched(flag);
  if (!sched.ok()) {
    state.SkipWithError("cuCtxSetFlags failed");
    return;
  }
  unsigned iterations = kLcgIterations;
  void* args[] = {&env.lcg_output, &iterations};
  for (auto _ : state) {
    if (cuLaunchKernel(env.lcg, kLcgThreads / kLcgBlock, 1, 1, kLcgBlock, 1, 1, 0, nullptr, args,
                       nullptr) != CUDA_SUCCESS ||
        cuStreamSynchronize(nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("launch or synchronize failed");
      break;
    }
  }
  // Thread 1's value after kLcgIterations steps, as a check that it ran.
  uint32_t first[2] = {};
  cuMemcpyDtoH(first, env.lcg_output, sizeof(first));
  uint32_t expected = 1;
  for (unsigned i = 0; i < kLcgIterations; ++i) expected = expected * 1664525u + 1013904223u;
  if (first[1] != expected) state.SkipWithError("the LCG kernel computed a wrong value");
}
// One iteration takes ~0.3 s on two idle cores (so the smoke test stays
// short); --benchmark_repetitions gives medians.
BENCHMARK_CAPTURE(BM_Streamhal_Lcg, AUTO, CU_CTX_SCHED_AUTO)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Streamhal_Lcg, SPIN, CU_CTX_SCHED_SPIN)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Streamhal_Lcg, YIELD, CU_CTX_SCHED_YIELD)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Streamhal_Lcg, BLOCKING_SYNC, CU_CTX_SCHED_BLOCKING_SYNC)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bench
