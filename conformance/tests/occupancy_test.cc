// Rows: Occupancy through both APIs (cuOccupancy*, hipModuleOccupancy*,
// hipOccupancy*). The figures are checked against what the device really
// does: a grid of exactly maxActiveBlocks * multiprocessorCount blocks whose
// blocks wait for each other all arrive, one block more does not (so the
// figure is neither too small nor too large); the block size and dynamic
// shared memory the calculator suggests are launched, and the first value
// past them fails.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using OccupancyConformance = ContextTest;

hipFunction_t AsHip(CUfunction function) { return reinterpret_cast<hipFunction_t>(function); }

// Thread 0 of every block counts itself in, then waits until `expected`
// blocks have arrived or its budget runs out, and records how many it saw.
// The wait is bounded: `budget` iterations of 128 atomic reads each, under
// llvmpipe's 65,535-iteration loop limit, so the kernel ends whatever the
// device does; the budget is long enough (about half a second with two
// worker threads) for every worker thread of a loaded machine to be
// scheduled. Other threads of the
// block do nothing. SHARED_BYTES of static shared memory (0: none) show
// that shared memory does not change what runs at once where the
// calculator says it does not.
#define SH_ARRIVE_KERNEL(NAME, SHARED_DECL, SHARED_TOUCH)                         \
  "#version 460\n"                                                               \
  "#extension GL_GOOGLE_include_directive : require\n"                           \
  "#include \"streamhal/kernel.glsl\"\n"                                         \
  "#define STREAMHAL_KERNEL_NAME " NAME "\n"                                     \
  "STREAMHAL_DECLARE_PTR(uint);\n" SHARED_DECL                                   \
  "layout(push_constant) uniform Params {\n"                                     \
  "  uint_ptr counter; uint_ptr seen; uint expected; uint budget;\n"             \
  "} p;\n"                                                                       \
  "#define SH_READ4 seen_now = max(seen_now, atomicAdd(p.counter.v[0], 0u)); "  \
  "seen_now = max(seen_now, atomicAdd(p.counter.v[0], 0u)); "                    \
  "seen_now = max(seen_now, atomicAdd(p.counter.v[0], 0u)); "                    \
  "seen_now = max(seen_now, atomicAdd(p.counter.v[0], 0u));\n"                   \
  "#define SH_READ16 SH_READ4 SH_READ4 SH_READ4 SH_READ4\n"                       \
  "void main() {\n"                                                              \
  "  if (gl_LocalInvocationIndex != 0) return;\n" SHARED_TOUCH                   \
  "  uint seen_now = atomicAdd(p.counter.v[0], 1u) + 1u;\n"                      \
  "  for (uint i = 0; i < p.budget && seen_now < p.expected; ++i) {\n"           \
  "    SH_READ16 SH_READ16 SH_READ16 SH_READ16 SH_READ16 SH_READ16 SH_READ16 SH_READ16\n" \
  "  }\n"                                                                        \
  "  p.seen.v[gl_WorkGroupID.x] = seen_now;\n"                                   \
  "}\n"

const char kArriveGlsl[] = SH_ARRIVE_KERNEL("arrive", "", "");
// 32 KiB of static shared memory: lavapipe's whole per-block limit.
const char kArriveSharedGlsl[] = SH_ARRIVE_KERNEL(
    "arrive_shared", "shared uint scratch[8192];\n", "  scratch[0] = 1u; scratch[8191] = 2u;\n");

constexpr uint32_t kWaitBudget = 50000;  // iterations; llvmpipe stops loops at 65,535

// Launches `blocks` blocks of `threads` threads of an arrive kernel, each
// waiting for `expected` arrivals; returns what each block saw.
std::vector<uint32_t> Arrive(CUfunction function, uint32_t blocks, uint32_t threads,
                             uint32_t expected) {
  CUdeviceptr counter = 0, seen = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&counter, sizeof(uint32_t)));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&seen, blocks * sizeof(uint32_t)));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(counter, 0, 1));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(seen, 0, blocks));
  uint32_t budget = kWaitBudget;
  void* params[] = {&counter, &seen, &expected, &budget};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::vector<uint32_t> result = CudaDownload<uint32_t>(seen, blocks);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(counter));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(seen));
  return result;
}

// The grid that runs at once according to the calculator.
int ResidentGrid(CUfunction function, int threads, size_t dynamic_shared) {
  int per_multiprocessor = -1, hip_per_multiprocessor = -1;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor,
                                                                      function, threads,
                                                                      dynamic_shared));
  EXPECT_HIP(hipSuccess, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
                             &hip_per_multiprocessor, AsHip(function), threads, dynamic_shared));
  EXPECT_EQ(per_multiprocessor, hip_per_multiprocessor);
  return per_multiprocessor * DeviceAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

bool AllSaw(const std::vector<uint32_t>& seen, uint32_t expected) {
  return std::all_of(seen.begin(), seen.end(), [&](uint32_t v) { return v >= expected; });
}

// Only on llvmpipe are the figures exact (docs/kernel-abi.md, Occupancy):
// elsewhere they are estimates, and these tests check only the calculator's
// arithmetic against launches that run. llvmpipe is the device with its
// loop limit.
bool FiguresAreExact() {
  int loop_limit = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&loop_limit, CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT, 0));
  return loop_limit == 65535;
}

TEST_F(OccupancyConformance, ExactlyTheResidentGridRunsAtOnce) {
  if (!FiguresAreExact()) GTEST_SKIP() << "occupancy figures are estimates on this device";
  CUmodule module = nullptr;
  CUfunction arrive = LoadCudaKernel(kArriveGlsl, "arrive", &module);
  ASSERT_NE(arrive, nullptr);
  for (int threads : {1, 64, 1024}) {
    SCOPED_TRACE(threads);
    const int grid = ResidentGrid(arrive, threads, 0);
    ASSERT_GE(grid, 1);
    const std::vector<uint32_t> seen = Arrive(arrive, grid, threads, grid);
    EXPECT_TRUE(AllSaw(seen, grid)) << "a block of the resident grid waited in vain";
  }
}

TEST_F(OccupancyConformance, OneBlockMoreThanTheResidentGridDoesNotRunAtOnce) {
  if (!FiguresAreExact()) GTEST_SKIP() << "occupancy figures are estimates on this device";
  CUmodule module = nullptr;
  CUfunction arrive = LoadCudaKernel(kArriveGlsl, "arrive", &module);
  ASSERT_NE(arrive, nullptr);
  const int grid = ResidentGrid(arrive, 64, 0) + 1;
  const std::vector<uint32_t> seen = Arrive(arrive, grid, 64, grid);
  // The resident blocks give up before the extra block starts, which then
  // finds everyone counted in.
  EXPECT_FALSE(AllSaw(seen, grid));
  EXPECT_EQ(*std::max_element(seen.begin(), seen.end()), static_cast<uint32_t>(grid));
}

TEST_F(OccupancyConformance, SharedMemoryThatDoesNotLimitResidencyLeavesTheFigure) {
  if (!FiguresAreExact()) GTEST_SKIP() << "occupancy figures are estimates on this device";
  CUmodule plain_module = nullptr, shared_module = nullptr;
  CUfunction plain = LoadCudaKernel(kArriveGlsl, "arrive", &plain_module);
  CUfunction shared = LoadCudaKernel(kArriveSharedGlsl, "arrive_shared", &shared_module);
  ASSERT_NE(shared, nullptr);
  int static_shared = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, shared));
  EXPECT_EQ(static_shared, DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  // On llvmpipe each worker thread holds one block's shared memory, however
  // much: the whole per-block limit leaves the figure as it is, and the
  // launch shows it.
  const int grid = ResidentGrid(shared, 64, 0);
  EXPECT_EQ(grid, ResidentGrid(plain, 64, 0));
  EXPECT_TRUE(AllSaw(Arrive(shared, grid, 64, grid), grid));
  EXPECT_FALSE(AllSaw(Arrive(shared, grid + 1, 64, grid + 1), grid + 1));
}

TEST_F(OccupancyConformance, DynamicSharedMemoryBeyondTheLaunchLimitGivesZeroBlocks) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  int limit = 0;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             block_sum));
  int blocks = -1, hip_blocks = -1;
  EXPECT_CU(CUDA_SUCCESS,
            cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sum, 64, limit));
  EXPECT_GE(blocks, 1);
  EXPECT_CU(CUDA_SUCCESS,
            cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sum, 64, limit + 1));
  EXPECT_HIP(hipSuccess, hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(
                             &hip_blocks, AsHip(block_sum), 64, limit + 1));
  EXPECT_EQ(blocks, 0);
  EXPECT_EQ(hip_blocks, 0);
  // As the launches say.
  CUdeviceptr buffer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&buffer, 64 * sizeof(float)));
  uint32_t n = 64;
  void* params[] = {&buffer, &buffer, &n};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(block_sum, 1, 1, 1, 64, 1, 1, limit, nullptr, params, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(block_sum, 1, 1, 1, 64, 1, 1, limit + 1, nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
}

TEST_F(OccupancyConformance, FlagsFormsGiveTheSameFigures) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  for (unsigned flags : {CU_OCCUPANCY_DEFAULT, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE}) {
    int plain = -1, with_flags = -1, hip_with_flags = -1, hip_runtime = -2;
    EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&plain, block_sum, 128, 512));
    EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                                &with_flags, block_sum, 128, 512, flags));
    EXPECT_HIP(hipSuccess, hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                               &hip_with_flags, AsHip(block_sum), 128, 512, flags));
    EXPECT_HIP(hipSuccess, hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                               &hip_runtime, block_sum, 128, 512, flags));
    EXPECT_GE(plain, 1);
    EXPECT_EQ(with_flags, plain);
    EXPECT_EQ(hip_with_flags, plain);
    EXPECT_EQ(hip_runtime, plain);
    int min_grid = -1, block = -1, hip_grid = -1, hip_block = -1;
    EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSizeWithFlags(&min_grid, &block, block_sum,
                                                                      nullptr, 512, 0, flags));
    EXPECT_HIP(hipSuccess, hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
                               &hip_grid, &hip_block, AsHip(block_sum), 512, 0, flags));
    EXPECT_EQ(hip_grid, min_grid);
    EXPECT_EQ(hip_block, block);
  }
}

size_t FourBytesPerThread(int block_size) { return static_cast<size_t>(block_size) * 4; }
size_t SixtyFourBytesPerThread(int block_size) { return static_cast<size_t>(block_size) * 64; }

// block_sum reduces in blockDim.x * 4 bytes of dynamic shared memory: the
// suggested configuration, launched, sums correctly.
TEST_F(OccupancyConformance, SuggestedBlockSizeRunsAndFillsTheDevice) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  int min_grid = 0, block = 0;
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&min_grid, &block, block_sum,
                                                           FourBytesPerThread, 0, 0));
  int max_threads = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, block_sum));
  ASSERT_GE(block, 1);
  EXPECT_LE(block, max_threads);
  EXPECT_EQ(min_grid, ResidentGrid(block_sum, block, FourBytesPerThread(block)));
  // HIP's module form takes one dynamic size for every block size: the one
  // for the suggested block gives the same suggestion.
  int hip_grid = 0, hip_block = 0;
  EXPECT_HIP(hipSuccess, hipModuleOccupancyMaxPotentialBlockSize(
                             &hip_grid, &hip_block, AsHip(block_sum), FourBytesPerThread(block), 0));
  EXPECT_EQ(hip_grid, min_grid);
  EXPECT_EQ(hip_block, block);
  EXPECT_HIP(hipSuccess, hipOccupancyMaxPotentialBlockSize(&hip_grid, &hip_block, block_sum,
                                                           FourBytesPerThread(block), 0));
  EXPECT_EQ(hip_block, block);

  if ((block & (block - 1)) != 0) GTEST_SKIP() << "block_sum needs a power-of-two block";
  const uint32_t n = static_cast<uint32_t>(min_grid * block);
  const std::vector<float> input = Iota(n);
  CUdeviceptr src = CudaUpload(input), dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, min_grid * sizeof(float)));
  uint32_t count = n;
  void* params[] = {&src, &dst, &count};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(block_sum, min_grid, 1, 1, block, 1, 1,
                           static_cast<unsigned>(FourBytesPerThread(block)), nullptr, params,
                           nullptr));
  const std::vector<float> sums = CudaDownload<float>(dst, min_grid);
  for (int b = 0; b < min_grid; ++b) {
    double expected = 0;
    for (int t = 0; t < block; ++t) expected += input[b * block + t];
    EXPECT_FLOAT_EQ(sums[b], static_cast<float>(expected)) << "block " << b;
  }
}

// 64 bytes per thread: the largest blocks would need more dynamic shared
// memory than a launch may use, so the calculator picks a smaller block,
// which launches, while the next block size up does not.
TEST_F(OccupancyConformance, BlockSizeCallbackShapesTheSuggestion) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  int limit = 0, max_threads = 0;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             block_sum));
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, block_sum));
  if (SixtyFourBytesPerThread(max_threads) <= static_cast<size_t>(limit)) {
    GTEST_SKIP() << "the device's shared memory holds 64 bytes for every thread of a block";
  }
  int min_grid = 0, block = 0;
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&min_grid, &block, block_sum,
                                                           SixtyFourBytesPerThread, 0, 0));
  ASSERT_GE(block, 1);
  EXPECT_LE(SixtyFourBytesPerThread(block), static_cast<size_t>(limit));
  EXPECT_GT(SixtyFourBytesPerThread(block + DeviceAttribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE)),
            static_cast<size_t>(limit));
  CUdeviceptr buffer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&buffer, sizeof(float) * max_threads));
  uint32_t n = 1;
  void* params[] = {&buffer, &buffer, &n};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(block_sum, 1, 1, 1, block, 1, 1,
                           static_cast<unsigned>(SixtyFourBytesPerThread(block)), nullptr, params,
                           nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(block_sum, 1, 1, 1, max_threads, 1, 1,
                           static_cast<unsigned>(SixtyFourBytesPerThread(max_threads)), nullptr,
                           params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  // A block size limit caps the suggestion.
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&min_grid, &block, block_sum,
                                                           FourBytesPerThread, 0, 96));
  EXPECT_LE(block, 96);
  EXPECT_GE(block, 1);
}

TEST_F(OccupancyConformance, AvailableDynamicSharedMemoryIsWhatALaunchMayUse) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  size_t available = 0;
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&available, block_sum, 1, 64));
  int limit = 0;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             block_sum));
  EXPECT_EQ(available, static_cast<size_t>(limit));
  CUdeviceptr buffer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&buffer, 64 * sizeof(float)));
  uint32_t n = 64;
  void* params[] = {&buffer, &buffer, &n};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(block_sum, 1, 1, 1, 64, 1, 1,
                                         static_cast<unsigned>(available), nullptr, params, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchKernel(block_sum, 1, 1, 1, 64, 1, 1, static_cast<unsigned>(available + 1),
                           nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  // More blocks per multiprocessor than ever run at once leave no room.
  int per_multiprocessor = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, block_sum, 64, 0));
  ASSERT_CU(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&available, block_sum,
                                                                  per_multiprocessor + 1, 64));
  EXPECT_EQ(available, 0u);
}

TEST_F(OccupancyConformance, BadArgumentsAreInvalid) {
  CUmodule module = nullptr;
  CUfunction block_sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(block_sum, nullptr);
  int max_threads = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, block_sum));
  int blocks = 0, grid = 0, block = 0;
  size_t bytes = 0;
  for (int bad_block : {0, -1, max_threads + 1}) {
    SCOPED_TRACE(bad_block);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sum, bad_block, 0),
                hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, AsHip(block_sum),
                                                                   bad_block, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyAvailableDynamicSMemPerBlock(&bytes, block_sum, 1, bad_block));
  }
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, block_sum, 64, 0),
              hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, AsHip(block_sum), 64, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyMaxPotentialBlockSize(nullptr, &block, block_sum, nullptr, 0, 0),
              hipModuleOccupancyMaxPotentialBlockSize(nullptr, &block, AsHip(block_sum), 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyMaxPotentialBlockSize(&grid, nullptr, block_sum, nullptr, 0, 0),
              hipModuleOccupancyMaxPotentialBlockSize(&grid, nullptr, AsHip(block_sum), 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyMaxPotentialBlockSize(&grid, &block, block_sum, nullptr, 0, -1),
              hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, AsHip(block_sum), 0, -1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, block_sum, 64, 0, 2),
              hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
                  &blocks, AsHip(block_sum), 64, 0, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, block_sum, nullptr, 0, 0, 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyAvailableDynamicSMemPerBlock(nullptr, block_sum, 1, 64));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyAvailableDynamicSMemPerBlock(&bytes, block_sum, 0, 64));
  // Unloaded and null functions are invalid handles.
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, block_sum, 64, 0),
              hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, AsHip(block_sum), 64,
                                                                 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuOccupancyMaxPotentialBlockSize(&grid, &block, block_sum, nullptr, 0, 0),
              hipOccupancyMaxPotentialBlockSize(&grid, &block, block_sum, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuOccupancyAvailableDynamicSMemPerBlock(&bytes, block_sum, 1, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, nullptr, 64, 0),
              hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, nullptr, 64, 0));
}

// A kernel with a literal workgroup size takes only that block size.
TEST_F(OccupancyConformance, FixedBlockKernelsTakeOnlyTheirBlockSize) {
  CUmodule module = nullptr;
  CUfunction reverse = LoadCudaKernel(kReverse64Glsl, "reverse64", &module);
  ASSERT_NE(reverse, nullptr);
  int blocks = 0, grid = 0, block = 0;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reverse, 64, 0));
  EXPECT_GE(blocks, 1);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reverse, 32, 0));
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, reverse, nullptr, 0, 0));
  EXPECT_EQ(block, 64);
  EXPECT_EQ(grid, blocks * DeviceAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
}

}  // namespace
}  // namespace streamhal::conformance
