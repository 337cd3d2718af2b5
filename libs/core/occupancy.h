// Occupancy (cuOccupancy*, hipModuleOccupancy*, hipOccupancy*): how many
// blocks of a kernel run at once on one multiprocessor, from the kernel's
// reflected needs (block size limits, static and dynamic shared memory) and
// the device's limits. docs/kernel-abi.md ("Occupancy") states the formula;
// where the device's figures are exact (DeviceProperties::
// resident_blocks_exact, lavapipe) multiprocessor_count times the answer is
// the number of blocks that really run at once.
//
// The arithmetic is pure (OccupancyLimits in, numbers out) so that it is
// tested against device models other than the one the tests run on; the
// entry points below only resolve the function and check the arguments.
#ifndef STREAMHAL_CORE_OCCUPANCY_H_
#define STREAMHAL_CORE_OCCUPANCY_H_

#include <cstddef>
#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "core/backend.h"

namespace streamhal {

class Function;

// A multiprocessor's limit on resident blocks when the device does not say:
// CUDA's figure for compute capability 8.0, which streamhal reports.
inline constexpr int kDefaultBlocksPerMultiprocessor = 32;

struct OccupancyLimits {
  // The device.
  int multiprocessor_count = 1;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;  // 0: kDefaultBlocksPerMultiprocessor
  int shared_memory_per_multiprocessor = 0;
  int warp_size = 1;
  // The kernel.
  int max_threads_per_block = 0;  // the function's (cuFuncGetAttribute)
  // Product of the block dimensions the kernel fixes (literal workgroup
  // sizes): a block's thread count is a multiple of it; all of it when
  // every dimension is fixed (`fixed_block`).
  int block_granularity = 1;
  bool fixed_block = false;
  uint32_t static_shared_bytes = 0;
  uint32_t max_dynamic_shared_bytes = 0;  // what a launch may pass
};

OccupancyLimits OccupancyLimitsOf(const Function& function);

// Whether a launch of `function` may use blocks of `threads` threads: 1 to
// max_threads_per_block, a multiple of block_granularity, all of it for a
// fixed block.
bool IsLaunchableBlockSize(const OccupancyLimits& limits, int threads);

// Blocks of `threads` threads (launchable) and `dynamic_shared` bytes each
// that run at once on one multiprocessor; 0 when no such launch can run
// (too much shared memory).
int ActiveBlocksPerMultiprocessor(const OccupancyLimits& limits, int threads,
                                  uint64_t dynamic_shared);

// CUDA's suggestion: the launchable block size, up to `block_size_limit`
// (0: the kernel's limit), that keeps the most threads of a multiprocessor
// busy (the largest such size on a tie), and the grid that fills every
// multiprocessor with it. Both 0 when no block size can run.
struct PotentialBlockSize {
  int min_grid_size = 0;
  int block_size = 0;
};
PotentialBlockSize MaxPotentialBlockSize(const OccupancyLimits& limits,
                                         absl::FunctionRef<uint64_t(int)> dynamic_shared,
                                         int block_size_limit);

// The most dynamic shared memory per block that still lets `blocks` blocks
// of `threads` threads run at once on a multiprocessor (0 when `blocks`
// cannot run at once whatever the shared memory).
uint64_t AvailableDynamicSharedPerBlock(const OccupancyLimits& limits, int blocks, int threads);

// --- Entry points. The function must belong to a live module; flags are
// CU_OCCUPANCY_DEFAULT (0) or CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE (1),
// which changes nothing (no device caches global loads in shared memory's
// room). A block size outside [1, the kernel's limit], or one the kernel's
// fixed dimensions forbid, is kInvalidValue; so are null outputs.

absl::Status OccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, uint64_t function,
                                                       int block_size, size_t dynamic_shared,
                                                       unsigned flags);
// `block_to_dynamic_shared` may be empty: then every block size uses
// `dynamic_shared`. A negative `block_size_limit` is kInvalidValue.
absl::Status OccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size,
                                            uint64_t function,
                                            size_t (*block_to_dynamic_shared)(int),
                                            size_t dynamic_shared, int block_size_limit,
                                            unsigned flags);
absl::Status OccupancyAvailableDynamicSMemPerBlock(size_t* bytes, uint64_t function,
                                                   int num_blocks, int block_size);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_OCCUPANCY_H_
