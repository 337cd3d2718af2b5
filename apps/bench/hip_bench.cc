// HIP's own overhead (issue 18): the launch and copy figures of launch_bench.cc
// and copy_bench.cc through the HIP binding, on the same context, kernel and
// sizes, so each HIP figure divides by its CUDA twin (target <= 1.05) as well
// as by the raw-Vulkan baseline. A CUfunction and a hipFunction_t name the
// same core object.
#include <benchmark/benchmark.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <vector>

#include "bench_env.h"

namespace bench {
namespace {

// As in launch_bench.cc.
constexpr int kBatch = 256;
constexpr double kBatchMinTime = 0.02;
constexpr size_t kBytes = size_t{64} << 20;

hipFunction_t Tiny() { return reinterpret_cast<hipFunction_t>(GetEnv().tiny); }

void BM_Hip_ModuleLaunchKernel(benchmark::State& state) {
  Env& env = GetEnv();
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) {
      ++value;
      if (hipModuleLaunchKernel(Tiny(), 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) !=
          hipSuccess) {
        state.SkipWithError("hipModuleLaunchKernel failed");
        return;
      }
    }
    state.PauseTiming();
    (void)hipDeviceSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_Hip_ModuleLaunchKernel)->MinTime(kBatchMinTime);

void BM_Hip_LaunchStreamSynchronize(benchmark::State& state) {
  Env& env = GetEnv();
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    ++value;
    if (hipModuleLaunchKernel(Tiny(), 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) !=
            hipSuccess ||
        hipStreamSynchronize(nullptr) != hipSuccess) {
      state.SkipWithError("launch or synchronize failed");
      break;
    }
  }
}
BENCHMARK(BM_Hip_LaunchStreamSynchronize);

struct HipBuffers {
  std::vector<char> host = std::vector<char>(kBytes, 1);
  hipDeviceptr_t device = nullptr;
  HipBuffers() { (void)hipMalloc(&device, kBytes); }
  ~HipBuffers() { (void)hipFree(device); }
};

void BM_Hip_MemcpyHtoD64MiB(benchmark::State& state) {
  HipBuffers buffers;
  for (auto _ : state) {
    if (hipMemcpyHtoD(buffers.device, buffers.host.data(), kBytes) != hipSuccess) {
      state.SkipWithError("hipMemcpyHtoD failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Hip_MemcpyHtoD64MiB)->UseRealTime();

void BM_Hip_MemcpyDtoH64MiB(benchmark::State& state) {
  HipBuffers buffers;
  for (auto _ : state) {
    if (hipMemcpyDtoH(buffers.host.data(), buffers.device, kBytes) != hipSuccess) {
      state.SkipWithError("hipMemcpyDtoH failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Hip_MemcpyDtoH64MiB)->UseRealTime();

}  // namespace
}  // namespace bench
