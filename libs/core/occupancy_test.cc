// The occupancy arithmetic on device models other than the test device:
// a GPU-like multiprocessor whose shared memory and threads limit resident
// blocks, and llvmpipe's, where one block runs per worker thread.
#include "core/occupancy.h"

#include "gtest/gtest.h"

namespace streamhal {
namespace {

// Compute capability 8.0's multiprocessor: 2048 threads, 32 blocks, 64 KiB
// of shared memory (48 KiB per block), 32-wide warps.
OccupancyLimits GpuLike() {
  OccupancyLimits limits;
  limits.multiprocessor_count = 10;
  limits.max_threads_per_multiprocessor = 2048;
  limits.max_blocks_per_multiprocessor = 32;
  limits.shared_memory_per_multiprocessor = 65536;
  limits.warp_size = 32;
  limits.max_threads_per_block = 1024;
  limits.max_dynamic_shared_bytes = 49152;
  return limits;
}

// llvmpipe with 4 worker threads: one block per "multiprocessor".
OccupancyLimits LlvmpipeLike() {
  OccupancyLimits limits;
  limits.multiprocessor_count = 4;
  limits.max_threads_per_multiprocessor = 1024;
  limits.max_blocks_per_multiprocessor = 1;
  limits.shared_memory_per_multiprocessor = 32768;
  limits.warp_size = 8;
  limits.max_threads_per_block = 1024;
  limits.max_dynamic_shared_bytes = 32768;
  return limits;
}

TEST(OccupancyTest, ThreadsLimitResidentBlocks) {
  const OccupancyLimits gpu = GpuLike();
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 1024, 0), 2);
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 256, 0), 8);
  // A partial warp takes a whole one: 33 threads count as 64.
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 33, 0), 32);
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 96, 0), 21);
}

TEST(OccupancyTest, SharedMemoryHalvesTheAnswer) {
  OccupancyLimits gpu = GpuLike();
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 128, 8192), 8);
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 128, 16384), 4);
  // Static shared memory counts with the dynamic part.
  gpu.static_shared_bytes = 16384;
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 128, 16384), 2);
}

TEST(OccupancyTest, MoreDynamicSharedMemoryThanALaunchMayUseGivesZero) {
  const OccupancyLimits gpu = GpuLike();
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 128, 49152), 1);
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(gpu, 128, 49153), 0);
}

TEST(OccupancyTest, LlvmpipeRunsOneBlockPerWorkerWhateverItsNeeds) {
  const OccupancyLimits cpu = LlvmpipeLike();
  for (int threads : {1, 8, 64, 1024}) {
    EXPECT_EQ(ActiveBlocksPerMultiprocessor(cpu, threads, 0), 1);
    EXPECT_EQ(ActiveBlocksPerMultiprocessor(cpu, threads, 32768), 1);
  }
  EXPECT_EQ(ActiveBlocksPerMultiprocessor(cpu, 64, 32769), 0);
}

TEST(OccupancyTest, FixedDimensionsDecideTheLaunchableBlockSizes) {
  OccupancyLimits limits = GpuLike();
  EXPECT_FALSE(IsLaunchableBlockSize(limits, 0));
  EXPECT_TRUE(IsLaunchableBlockSize(limits, 1));
  EXPECT_TRUE(IsLaunchableBlockSize(limits, 1024));
  EXPECT_FALSE(IsLaunchableBlockSize(limits, 1025));
  limits.block_granularity = 4;  // e.g. a literal y size of 4
  EXPECT_TRUE(IsLaunchableBlockSize(limits, 64));
  EXPECT_FALSE(IsLaunchableBlockSize(limits, 66));
  limits.fixed_block = true;  // every dimension literal: 4 threads
  limits.max_threads_per_block = 4;
  EXPECT_TRUE(IsLaunchableBlockSize(limits, 4));
  EXPECT_FALSE(IsLaunchableBlockSize(limits, 8));
}

TEST(OccupancyTest, PotentialBlockSizeKeepsTheMostThreadsBusy) {
  const OccupancyLimits gpu = GpuLike();
  auto none = [](int) -> uint64_t { return 0; };
  PotentialBlockSize best = MaxPotentialBlockSize(gpu, none, 0);
  EXPECT_EQ(best.block_size, 1024);  // 2 blocks: all 2048 threads
  EXPECT_EQ(best.min_grid_size, 20);
  // A limit that is not a warp multiple is tried itself (16 blocks of 100
  // threads), then the warp multiples below it: 96 threads run 21 blocks
  // (2016 threads), 64 threads 32 blocks (all 2048).
  best = MaxPotentialBlockSize(gpu, none, 100);
  EXPECT_EQ(best.block_size, 64);
  EXPECT_EQ(best.min_grid_size, 320);
  // 48 KiB for every block: one block per multiprocessor, so the largest.
  best = MaxPotentialBlockSize(gpu, [](int) -> uint64_t { return 49152; }, 0);
  EXPECT_EQ(best.block_size, 1024);
  EXPECT_EQ(best.min_grid_size, 10);
  // 64 bytes per thread: above 768 threads a block needs more than a launch
  // may use; 768 threads run 1 block; 512 threads (32 KiB) 2 blocks, 1024
  // threads; 256 threads (16 KiB) 4 blocks, also 1024: the larger wins.
  best = MaxPotentialBlockSize(gpu, [](int threads) -> uint64_t { return 64u * threads; }, 0);
  EXPECT_EQ(best.block_size, 512);
  EXPECT_EQ(best.min_grid_size, 20);
}

TEST(OccupancyTest, PotentialBlockSizeOnLlvmpipeIsTheLargestBlock) {
  const PotentialBlockSize best =
      MaxPotentialBlockSize(LlvmpipeLike(), [](int) -> uint64_t { return 0; }, 0);
  EXPECT_EQ(best.block_size, 1024);
  EXPECT_EQ(best.min_grid_size, 4);
}

TEST(OccupancyTest, PotentialBlockSizeIsZeroWhenNothingCanRun) {
  const PotentialBlockSize best =
      MaxPotentialBlockSize(GpuLike(), [](int) -> uint64_t { return 1u << 20; }, 0);
  EXPECT_EQ(best.block_size, 0);
  EXPECT_EQ(best.min_grid_size, 0);
}

TEST(OccupancyTest, PotentialBlockSizeOfAFixedBlockIsThatBlock) {
  OccupancyLimits limits = GpuLike();
  limits.fixed_block = true;
  limits.block_granularity = 64;
  limits.max_threads_per_block = 64;
  const PotentialBlockSize best = MaxPotentialBlockSize(limits, [](int) -> uint64_t { return 0; }, 0);
  EXPECT_EQ(best.block_size, 64);
  EXPECT_EQ(best.min_grid_size, 320);  // 32 blocks (the block limit) * 10
}

TEST(OccupancyTest, AvailableDynamicSharedMemoryShrinksWithTheBlocks) {
  OccupancyLimits gpu = GpuLike();
  EXPECT_EQ(AvailableDynamicSharedPerBlock(gpu, 1, 128), 49152u);  // the launch limit
  EXPECT_EQ(AvailableDynamicSharedPerBlock(gpu, 2, 128), 32768u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(gpu, 4, 128), 16384u);
  gpu.static_shared_bytes = 1024;
  EXPECT_EQ(AvailableDynamicSharedPerBlock(gpu, 4, 128), 15360u);
  // 3 blocks of 1024 threads never run at once.
  EXPECT_EQ(AvailableDynamicSharedPerBlock(gpu, 3, 1024), 0u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(LlvmpipeLike(), 1, 64), 32768u);
  EXPECT_EQ(AvailableDynamicSharedPerBlock(LlvmpipeLike(), 2, 64), 0u);
}

}  // namespace
}  // namespace streamhal
