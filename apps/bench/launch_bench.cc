// Launch cost: cuLaunchKernel of a tiny kernel against recording the same
// bind + push + dispatch in raw Vulkan (and against the same with the
// barrier stream order needs); launches + their submission against raw
// recording + submission, which counts the Vulkan recording that streamhal
// defers to the submission; launch + synchronise against raw submit + wait.
#include <benchmark/benchmark.h>

#include "bench_env.h"

namespace bench {
namespace {

// Both sides enqueue this many launches per iteration; the streamhal side
// then drains its queue with timing paused, so the figure is the host cost of
// enqueueing, not the device's execution rate (lavapipe runs kernels on the
// same two cores).
constexpr int kBatch = 256;
// Draining a batch on lavapipe (~15 ms) dwarfs enqueueing it (~40 us), so
// the batch benchmarks run a bounded time instead of the default 0.5 s of
// timed work.
constexpr double kBatchMinTime = 0.02;

void BM_RawVulkan_RecordDispatch(benchmark::State& state) {
  RawRecorder& raw = GetEnv().raw->recorder();
  uint32_t value = 0;
  for (auto _ : state) {
    raw.Begin();
    for (int i = 0; i < kBatch; ++i) raw.RecordDispatch(++value);
    raw.End();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_RawVulkan_RecordDispatch);

void BM_RawVulkan_RecordOrderedDispatch(benchmark::State& state) {
  RawRecorder& raw = GetEnv().raw->recorder();
  uint32_t value = 0;
  for (auto _ : state) {
    raw.Begin();
    for (int i = 0; i < kBatch; ++i) raw.RecordOrderedDispatch(++value, i == 0);
    raw.End();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_RawVulkan_RecordOrderedDispatch);

// Recording and submitting the ordered batch; the device's execution is
// waited for with timing paused.
void BM_RawVulkan_RecordOrderedSubmit(benchmark::State& state) {
  RawVulkan& vulkan = *GetEnv().raw;
  uint32_t value = 0;
  for (auto _ : state) {
    vulkan.recorder().Begin();
    for (int i = 0; i < kBatch; ++i) vulkan.recorder().RecordOrderedDispatch(++value, i == 0);
    vulkan.recorder().End();
    vulkan.Submit();
    state.PauseTiming();
    vulkan.Wait();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_RawVulkan_RecordOrderedSubmit)->MinTime(kBatchMinTime);

// Launches the tiny kernel kBatch times on the legacy stream.
bool LaunchBatch(uint32_t* value) {
  Env& env = GetEnv();
  void* args[] = {&env.output, value};
  for (int i = 0; i < kBatch; ++i) {
    ++*value;
    if (cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS) {
      return false;
    }
  }
  return true;
}

void BM_Streamhal_LaunchKernel(benchmark::State& state) {
  uint32_t value = 0;
  for (auto _ : state) {
    if (!LaunchBatch(&value)) {
      state.SkipWithError("cuLaunchKernel failed");
      return;
    }
    state.PauseTiming();
    cuCtxSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Streamhal_LaunchKernel)->MinTime(kBatchMinTime);

// The launches and their submission (cuStreamQuery submits what the stream
// holds), which includes recording the Vulkan commands.
void BM_Streamhal_LaunchKernelSubmit(benchmark::State& state) {
  uint32_t value = 0;
  for (auto _ : state) {
    if (!LaunchBatch(&value)) {
      state.SkipWithError("cuLaunchKernel failed");
      return;
    }
    const CUresult queried = cuStreamQuery(nullptr);
    if (queried != CUDA_SUCCESS && queried != CUDA_ERROR_NOT_READY) {
      state.SkipWithError("cuStreamQuery failed");
      return;
    }
    state.PauseTiming();
    cuCtxSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Streamhal_LaunchKernelSubmit)->MinTime(kBatchMinTime);

void BM_RawVulkan_SubmitWait(benchmark::State& state) {
  RawRecorder& raw = GetEnv().raw->recorder();
  uint32_t value = 0;
  for (auto _ : state) {
    raw.Begin();
    raw.RecordDispatch(++value);
    raw.End();
    GetEnv().raw->SubmitAndWait();
  }
}
BENCHMARK(BM_RawVulkan_SubmitWait);

void BM_Streamhal_LaunchStreamSynchronize(benchmark::State& state) {
  Env& env = GetEnv();
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
BENCHMARK(BM_Streamhal_LaunchStreamSynchronize);

// cuCtxSynchronize waits for every stream of the context.
void BM_Streamhal_LaunchCtxSynchronize(benchmark::State& state) {
  Env& env = GetEnv();
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    ++value;
    if (cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS ||
        cuCtxSynchronize() != CUDA_SUCCESS) {
      state.SkipWithError("launch or synchronize failed");
      break;
    }
  }
}
BENCHMARK(BM_Streamhal_LaunchCtxSynchronize);

}  // namespace
}  // namespace bench
