// Stream-ordered allocation (issue 11):
//  * cuMemAllocAsync + cuMemFreeAsync of 1 MiB reused from the pool against
//    cuMemAlloc + cuMemFree of 1 MiB, in the same run (target ratio <= 0.1),
//    and both against raw Vulkan creating, binding and freeing a 1 MiB
//    buffer with its own memory;
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

void BM_RawVulkan_BufferAllocFree_1MiB(benchmark::State& state) {
  const VkDevice device = GetEnv().raw->device();
  for (auto _ : state) {
    VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = kMiB;
    buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                        VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (vkCreateBuffer(device, &buffer_info, nullptr, &buffer) != VK_SUCCESS) {
      state.SkipWithError("vkCreateBuffer failed");
      return;
    }
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    memory_info.pNext = &flags;
    memory_info.allocationSize = requirements.size;
    for (uint32_t i = 0; i < 32; ++i) {
      if (requirements.memoryTypeBits & (1u << i)) {
        memory_info.memoryTypeIndex = i;
        break;
      }
    }
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (vkAllocateMemory(device, &memory_info, nullptr, &memory) != VK_SUCCESS ||
        vkBindBufferMemory(device, buffer, memory, 0) != VK_SUCCESS) {
      vkDestroyBuffer(device, buffer, nullptr);
      if (memory != VK_NULL_HANDLE) vkFreeMemory(device, memory, nullptr);
      state.SkipWithError("vkAllocateMemory/vkBindBufferMemory failed");
      return;
    }
    vkDestroyBuffer(device, buffer, nullptr);
    vkFreeMemory(device, memory, nullptr);
  }
}
BENCHMARK(BM_RawVulkan_BufferAllocFree_1MiB);

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
  // Calls per second (wall clock): items_per_second.
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * 2 * static_cast<int64_t>(n));
  CUmemoryPool pool = nullptr;
  if (cuDeviceGetDefaultMemPool(&pool, 0) == CUDA_SUCCESS) cuMemPoolTrimTo(pool, 0);
}
BENCHMARK(BM_Streamhal_PoolAllocFreeWithNLive)
    ->Arg(1000)
    ->Arg(100000)
    ->Iterations(5)
    ->UseRealTime();

}  // namespace
}  // namespace bench
