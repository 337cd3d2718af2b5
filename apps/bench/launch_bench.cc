// Launch cost: cuLaunchKernel of a tiny kernel against recording the same
// bind + push + dispatch in raw Vulkan; launch + synchronise against raw
// submit + wait.
#include <benchmark/benchmark.h>

#include "bench_env.h"

namespace bench {
namespace {

// Command buffers are recycled every this many dispatches in the baseline,
// which is also streamhal's batch size order of magnitude.
constexpr int kBatch = 1024;

void BM_RawVulkan_RecordDispatch(benchmark::State& state) {
  RawVulkan& raw = *GetEnv().raw;
  raw.Begin();
  int recorded = 0;
  uint32_t value = 0;
  for (auto _ : state) {
    raw.RecordDispatch(++value);
    if (++recorded == kBatch) {
      raw.End();
      raw.Begin();
      recorded = 0;
    }
  }
  raw.End();
}
BENCHMARK(BM_RawVulkan_RecordDispatch);

void BM_Streamhal_LaunchKernel(benchmark::State& state) {
  Env& env = GetEnv();
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    ++value;
    if (cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("cuLaunchKernel failed");
      break;
    }
  }
  // After the timed loop: drain the queue so the next benchmark starts idle.
  cuCtxSynchronize();
}
BENCHMARK(BM_Streamhal_LaunchKernel);

void BM_RawVulkan_SubmitWait(benchmark::State& state) {
  RawVulkan& raw = *GetEnv().raw;
  uint32_t value = 0;
  for (auto _ : state) {
    raw.Begin();
    raw.RecordDispatch(++value);
    raw.End();
    raw.SubmitAndWait();
  }
}
BENCHMARK(BM_RawVulkan_SubmitWait);

void BM_Streamhal_LaunchSynchronize(benchmark::State& state) {
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
BENCHMARK(BM_Streamhal_LaunchSynchronize);

}  // namespace
}  // namespace bench
