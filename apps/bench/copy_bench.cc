// Copy throughput of 64 MiB: cuMemcpyHtoD / cuMemcpyDtoH against host
// memcpy of the same size, cuMemcpyPeer against cuMemcpyDtoD, and cuMemcpy2D of a 4096 x 4096 float
// region with a pitch wider than its rows against a 1-D copy of the same bytes.
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

// 4096 x 4096 floats in rows padded to cuMemAllocPitch's pitch for a row 4
// bytes wider, so each row is a copy of its own (pitch > width).
constexpr size_t kRowBytes = 4096 * sizeof(float);
constexpr size_t kRows = 4096;
static_assert(kRowBytes * kRows == kBytes);

struct Pitched {
  CUdeviceptr src = 0, dst = 0;
  size_t pitch = 0;
  Pitched() {
    size_t other = 0;
    cuMemAllocPitch(&src, &pitch, kRowBytes + 4, kRows, 4);
    cuMemAllocPitch(&dst, &other, kRowBytes + 4, kRows, 4);
  }
  ~Pitched() {
    cuMemFree(src);
    cuMemFree(dst);
  }
  CUDA_MEMCPY2D Copy(CUmemorytype src_type, const void* host) const {
    CUDA_MEMCPY2D copy = {};
    copy.srcMemoryType = src_type;
    copy.srcHost = host;
    copy.srcDevice = src;
    copy.srcPitch = host != nullptr ? kRowBytes : pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = dst;
    copy.dstPitch = pitch;
    copy.WidthInBytes = kRowBytes;
    copy.Height = kRows;
    return copy;
  }
};

// Device-to-device copies return before they complete (CUDA): each
// iteration waits for its copy.
void BM_Streamhal_MemcpyDtoD64MiB(benchmark::State& state) {
  Buffers a, b;
  for (auto _ : state) {
    if (cuMemcpyDtoD(b.device, a.device, kBytes) != CUDA_SUCCESS ||
        cuCtxSynchronize() != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpyDtoD failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Streamhal_MemcpyDtoD64MiB)->UseRealTime();

// cuMemcpyPeer of 64 MiB from device 1 to device 0, against
// BM_Streamhal_MemcpyDtoD64MiB (issue 14's figure). Needs two devices: run
// with STREAMHAL_VK_DEVICES_PER_GPU=2. The copy is complete on return.
void BM_Streamhal_MemcpyPeer64MiB(benchmark::State& state) {
  int count = 0;
  if (cuDeviceGetCount(&count) != CUDA_SUCCESS || count < 2) {
    state.SkipWithError("needs two devices (STREAMHAL_VK_DEVICES_PER_GPU=2)");
    return;
  }
  CUcontext here = nullptr;
  CUcontext peer = nullptr;
  cuCtxGetCurrent(&here);
  if (cuCtxCreate(&peer, 0, 1) != CUDA_SUCCESS) {
    state.SkipWithError("cuCtxCreate on device 1 failed");
    return;
  }
  CUdeviceptr source = 0;
  const bool allocated =
      cuMemAlloc(&source, kBytes) == CUDA_SUCCESS && cuMemsetD8(source, 3, kBytes) == CUDA_SUCCESS;
  cuCtxPopCurrent(nullptr);
  {
    Buffers destination;
    for (auto _ : state) {
      if (!allocated ||
          cuMemcpyPeer(destination.device, here, source, peer, kBytes) != CUDA_SUCCESS) {
        state.SkipWithError("cuMemcpyPeer failed");
        break;
      }
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  cuCtxDestroy(peer);
}
BENCHMARK(BM_Streamhal_MemcpyPeer64MiB)->UseRealTime();

void BM_Streamhal_Memcpy2DDtoD4096x4096Float(benchmark::State& state) {
  Pitched region;
  const CUDA_MEMCPY2D copy = region.Copy(CU_MEMORYTYPE_DEVICE, nullptr);
  for (auto _ : state) {
    if (cuMemcpy2D(&copy) != CUDA_SUCCESS || cuCtxSynchronize() != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpy2D failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Streamhal_Memcpy2DDtoD4096x4096Float)->UseRealTime();

void BM_Streamhal_Memcpy2DHtoD4096x4096Float(benchmark::State& state) {
  Pitched region;
  const std::vector<char> host(kBytes, 3);
  const CUDA_MEMCPY2D copy = region.Copy(CU_MEMORYTYPE_HOST, host.data());
  for (auto _ : state) {
    if (cuMemcpy2D(&copy) != CUDA_SUCCESS) {
      state.SkipWithError("cuMemcpy2D failed");
      break;
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
}
BENCHMARK(BM_Streamhal_Memcpy2DHtoD4096x4096Float)->UseRealTime();

}  // namespace
}  // namespace bench
