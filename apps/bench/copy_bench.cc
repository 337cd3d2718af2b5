// Copy throughput of 64 MiB: cuMemcpyHtoD / cuMemcpyDtoH against host
// memcpy of the same size.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "bench_env.h"

namespace bench {
namespace {

constexpr size_t kBytes = size_t{64} << 20;

struct Buffers {
  std::vector<char> host_a = std::vector<char>(kBytes, 1);
  std::vector<char> host_b = std::vector<char>(kBytes, 2);
  CUdeviceptr device = 0;
  Buffers() { cuMemAlloc(&device, kBytes); }
  ~Buffers() { cuMemFree(device); }
};

void BM_HostMemcpy64MiB(benchmark::State& state) {
  Buffers buffers;
  for (auto _ : state) {
    std::memcpy(buffers.host_b.data(), buffers.host_a.data(), kBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_HostMemcpy64MiB)->UseRealTime();

void BM_Streamhal_MemcpyHtoD64MiB(benchmark::State& state) {
  Buffers buffers;
  for (auto _ : state) {
    if (cuMemcpyHtoD(buffers.device, buffers.host_a.data(), kBytes) != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpyHtoD failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Streamhal_MemcpyHtoD64MiB)->UseRealTime();

void BM_Streamhal_MemcpyDtoH64MiB(benchmark::State& state) {
  Buffers buffers;
  for (auto _ : state) {
    if (cuMemcpyDtoH(buffers.host_b.data(), buffers.device, kBytes) != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpyDtoH failed");
      break;
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Streamhal_MemcpyDtoH64MiB)->UseRealTime();

}  // namespace
}  // namespace bench
