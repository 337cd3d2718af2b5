// Stream-ordered allocation (issue 11):
//  * cuMemAllocAsync + cuMemFreeAsync of 1 MiB reused from the pool against
//    cuMemAlloc + cuMemFree of 1 MiB, in the same run (target ratio <= 0.1);
//  * with N blocks live, the cost of one allocation or free, for N = 1,000
//    and 100,000 (target: flat in N).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "bench_env.h"

namespace bench {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

void BM_Streamhal_MemAllocFree_1MiB(benchmark::State& state) {
  for (auto _ : state) {
    CUdeviceptr data = 0;
    if (cuMemAlloc(&data, kMiB) != CUDA_SUCCESS || cuMemFree(data) != CUDA_SUCCESS) {
      state.SkipWithError("cuMemAlloc/cuMemFree failed");
      return;
    }
  }
}
BENCHMARK(BM_Streamhal_MemAllocFree_1MiB);

// The pool keeps what is freed (release threshold: everything), so every
// allocation after the first takes the block the last free gave back.
CUstream PoolStream() {
  static CUstream stream = [] {
    CUstream s = nullptr;
    CUmemoryPool pool = nullptr;
    uint64_t keep = ~uint64_t{0};
    if (cuStreamCreate(&s, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS ||
        cuDeviceGetDefaultMemPool(&pool, 0) != CUDA_SUCCESS ||
        cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep) != CUDA_SUCCESS) {
      return static_cast<CUstream>(nullptr);
    }
    return s;
  }();
  return stream;
}

void BM_Streamhal_MemAllocAsyncFreeAsync_1MiB_Reused(benchmark::State& state) {
  CUstream stream = PoolStream();
  if (stream == nullptr) {
    state.SkipWithError("pool set-up failed");
    return;
  }
  for (auto _ : state) {
    CUdeviceptr data = 0;
    if (cuMemAllocAsync(&data, kMiB, stream) != CUDA_SUCCESS ||
        cuMemFreeAsync(data, stream) != CUDA_SUCCESS) {
      state.SkipWithError("cuMemAllocAsync/cuMemFreeAsync failed");
      return;
    }
  }
}
BENCHMARK(BM_Streamhal_MemAllocAsyncFreeAsync_1MiB_Reused);

// Allocates N 256-byte blocks and frees them all, in one stream: after the
// first (untimed) round every allocation is served from N cached blocks and
// every free happens with up to N blocks live. Reported per call.
void BM_Streamhal_PoolAllocFreeWithNLive(benchmark::State& state) {
  CUstream stream = PoolStream();
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<CUdeviceptr> blocks(n);
  auto round = [&]() -> bool {
    for (size_t i = 0; i < n; ++i) {
      if (cuMemAllocAsync(&blocks[i], 256, stream) != CUDA_SUCCESS) return false;
    }
    for (size_t i = 0; i < n; ++i) {
      if (cuMemFreeAsync(blocks[i], stream) != CUDA_SUCCESS) return false;
    }
    return true;
  };
  if (stream == nullptr || !round()) {
    state.SkipWithError("pool set-up failed");
    return;
  }
  for (auto _ : state) {
    if (!round()) {
      state.SkipWithError("cuMemAllocAsync/cuMemFreeAsync failed");
      return;
    }
  }
  state.counters["seconds_per_call"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * 2.0 * static_cast<double>(n),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::OneK::kIs1000);
  CUmemoryPool pool = nullptr;
  if (cuDeviceGetDefaultMemPool(&pool, 0) == CUDA_SUCCESS) cuMemPoolTrimTo(pool, 0);
}
BENCHMARK(BM_Streamhal_PoolAllocFreeWithNLive)->Arg(1000)->Arg(100000)->Iterations(5);

}  // namespace
}  // namespace bench
