// Rows: device allocation and memory info at the device's memory limit.
// CUDA: cuMemAlloc returns CUDA_ERROR_OUT_OF_MEMORY when the device has no
// room, which is not a sticky error: earlier allocations and the context stay
// usable, and allocation works again after cuMemFree. cuMemGetInfo's free
// follows what allocations take, so a program can size its work by it.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using MemoryLimitsConformance = ContextTest;

constexpr size_t kMiB = size_t{1} << 20;

size_t FreeBytes() {
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

// scale_offset (data[i] = data[i] * 2 + 1) on the first `count` floats of
// `data`, then the values read back.
std::vector<float> ScaleAndRead(CUfunction function, CUdeviceptr data, uint32_t count) {
  const std::vector<float> values = Iota(count, 0.25f);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(data, values.data(), count * sizeof(float)));
  float scale = 2.0f, offset = 1.0f;
  void* params[] = {&data, &scale, &offset, &count};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (count + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                         params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  return CudaDownload<float>(data, count);
}

std::vector<float> Scaled(uint32_t count) {
  std::vector<float> expected = Iota(count, 0.25f);
  for (float& value : expected) value = value * 2.0f + 1.0f;
  return expected;
}

TEST_F(MemoryLimitsConformance, AllocUntilOutOfMemoryKeepsEarlierAllocationsAndRecovers) {
  CUmodule module = nullptr;
  CUfunction scale = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(scale, nullptr);
  constexpr uint32_t kCount = 4096;
  CUdeviceptr probe = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&probe, kCount * sizeof(float)));
  ASSERT_EQ(ScaleAndRead(scale, probe, kCount), Scaled(kCount));

  size_t start_free = 0, total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&start_free, &total));
  ASSERT_GT(start_free, 0u);
  // Large chunks, at most about 64 of them for the whole device. The memory
  // is never touched beyond a few bytes, so lavapipe (whose device memory is
  // host memory) commits almost none of it.
  const size_t chunk = std::max<size_t>(64 * kMiB, (total / 64 + kMiB - 1) / kMiB * kMiB);
  const size_t max_chunks = total / chunk + 1;

  // Chunks through CUDA until the device is full; free falls by at least
  // what each one holds.
  std::vector<CUdeviceptr> chunks;
  CUresult result = CUDA_SUCCESS;
  size_t free_before = start_free;
  while (true) {
    CUdeviceptr pointer = 0;
    result = cuMemAlloc(&pointer, chunk);
    if (result != CUDA_SUCCESS) {
      EXPECT_EQ(pointer, 0u);
      break;
    }
    chunks.push_back(pointer);
    const size_t free_after = FreeBytes();
    ASSERT_LE(free_after + chunk, free_before) << "chunk " << chunks.size();
    free_before = free_after;
    ASSERT_LE(chunks.size(), max_chunks)
        << "allocations go on past the device's " << total << " bytes";
  }
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, result);
  ASSERT_FALSE(chunks.empty());
  // Free is what a single allocation can still get, so it is below a chunk.
  EXPECT_LT(FreeBytes(), chunk);

  // The rest in 1 MiB pieces through HIP, to hipErrorOutOfMemory. Some may
  // fit in room that allocations already took from the device (a
  // sub-allocator's block), so there can be more than free / 1 MiB of them.
  std::vector<void*> pieces;
  hipError_t hip_result = hipSuccess;
  while (true) {
    void* pointer = nullptr;
    hip_result = hipMalloc(&pointer, kMiB);
    if (hip_result != hipSuccess) break;
    pieces.push_back(pointer);
    ASSERT_LE(pieces.size(), 2 * chunk / kMiB) << "allocations go on past the device's memory";
  }
  EXPECT_HIP(hipErrorOutOfMemory, hip_result);
  const size_t full_free = FreeBytes();
  EXPECT_LT(full_free, kMiB);
  size_t hip_free = 0, hip_total = 0;
  ASSERT_HIP(hipSuccess, hipMemGetInfo(&hip_free, &hip_total));
  EXPECT_EQ(hip_free, full_free);
  EXPECT_EQ(hip_total, total);
  CUdeviceptr refused = 0;
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&refused, kMiB));

  // Nothing was lost: kernels and copies work on memory allocated before the
  // failures, and a device-to-device copy between two of them.
  EXPECT_EQ(ScaleAndRead(scale, chunks.front(), kCount), Scaled(kCount));
  EXPECT_EQ(ScaleAndRead(scale, chunks.back(), kCount), Scaled(kCount));
  EXPECT_EQ(ScaleAndRead(scale, probe, kCount), Scaled(kCount));
  if (!pieces.empty()) {
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoD(AsCudaPointer(pieces.back()), chunks.front(),
                                         kCount * sizeof(float)));
    EXPECT_EQ(CudaDownload<float>(AsCudaPointer(pieces.back()), kCount), Scaled(kCount));
  }

  // A freed chunk's room is allocatable again.
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(chunks.back()));
  EXPECT_GE(FreeBytes(), full_free + chunk);
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&chunks.back(), chunk));
  EXPECT_EQ(ScaleAndRead(scale, chunks.back(), kCount), Scaled(kCount));

  // Freeing everything gives back exactly what was free at the start.
  for (CUdeviceptr pointer : chunks) ASSERT_CU(CUDA_SUCCESS, cuMemFree(pointer));
  for (void* pointer : pieces) ASSERT_HIP(hipSuccess, hipFree(pointer));
  EXPECT_EQ(FreeBytes(), start_free);
  CUdeviceptr again = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&again, chunk));
  EXPECT_EQ(ScaleAndRead(scale, again, kCount), Scaled(kCount));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(again));
  EXPECT_EQ(FreeBytes(), start_free);

  ASSERT_CU(CUDA_SUCCESS, cuMemFree(probe));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

}  // namespace
}  // namespace streamhal::conformance
