#include "core/occupancy.h"

#include <algorithm>

#include "core/context.h"
#include "core/device.h"
#include "core/module.h"
#include "core/status.h"

namespace streamhal {
namespace {

constexpr unsigned kKnownOccupancyFlags = 0x1;  // CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE

// Blocks per multiprocessor before shared memory is counted: the resident
// block limit, and the threads of the multiprocessor in whole warps.
int BlocksByThreads(const OccupancyLimits& limits, int threads) {
  const int max_blocks = limits.max_blocks_per_multiprocessor > 0
                             ? limits.max_blocks_per_multiprocessor
                             : kDefaultBlocksPerMultiprocessor;
  const int warp = std::max(1, limits.warp_size);
  const int64_t rounded = (static_cast<int64_t>(threads) + warp - 1) / warp * warp;
  const int64_t by_threads = limits.max_threads_per_multiprocessor / rounded;
  return static_cast<int>(std::min<int64_t>(max_blocks, by_threads));
}

absl::Status CheckFlags(unsigned flags, const char* api) {
  if ((flags & ~kKnownOccupancyFlags) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown flags 0x", absl::Hex(flags));
  }
  return absl::OkStatus();
}

absl::Status CheckBlockSize(const OccupancyLimits& limits, int threads, const char* api) {
  if (!IsLaunchableBlockSize(limits, threads)) {
    return Error(ErrorCode::kInvalidValue, api, ": the kernel cannot run blocks of ", threads,
                 " threads (at most ", limits.max_threads_per_block,
                 limits.fixed_block ? ", exactly that many" : "", ", a multiple of ",
                 limits.block_granularity, ")");
  }
  return absl::OkStatus();
}

}  // namespace

OccupancyLimits OccupancyLimitsOf(const Function& function) {
  const DeviceProperties& p = function.module()->context()->device()->properties();
  const KernelInfo& info = function.info();
  OccupancyLimits limits;
  limits.multiprocessor_count = std::max(1, p.multiprocessor_count);
  limits.max_threads_per_multiprocessor =
      std::max(p.max_threads_per_multiprocessor, p.max_threads_per_block);
  limits.max_blocks_per_multiprocessor = p.max_blocks_per_multiprocessor;
  limits.shared_memory_per_multiprocessor =
      std::max(p.shared_memory_per_multiprocessor, p.shared_memory_per_block);
  limits.warp_size = std::max(1, p.warp_size);
  limits.max_threads_per_block = function.max_threads_per_block();
  limits.fixed_block = true;
  for (int i = 0; i < 3; ++i) {
    if (info.block_dim_from_spec[i]) {
      limits.fixed_block = false;
    } else {
      limits.block_granularity *= static_cast<int>(info.literal_block_size[i]);
    }
  }
  limits.static_shared_bytes = info.static_shared_bytes;
  limits.max_dynamic_shared_bytes = function.launch_dynamic_shared_limit();
  return limits;
}

bool IsLaunchableBlockSize(const OccupancyLimits& limits, int threads) {
  if (threads < 1 || threads > limits.max_threads_per_block) return false;
  const int granularity = std::max(1, limits.block_granularity);
  if (limits.fixed_block) return threads == granularity;
  return threads % granularity == 0;
}

int ActiveBlocksPerMultiprocessor(const OccupancyLimits& limits, int threads,
                                  uint64_t dynamic_shared) {
  if (dynamic_shared > limits.max_dynamic_shared_bytes) return 0;  // the launch would fail
  int blocks = BlocksByThreads(limits, threads);
  const uint64_t shared = limits.static_shared_bytes + dynamic_shared;
  if (shared > 0) {
    blocks = static_cast<int>(std::min<uint64_t>(
        blocks, static_cast<uint64_t>(limits.shared_memory_per_multiprocessor) / shared));
  }
  return blocks;
}

PotentialBlockSize MaxPotentialBlockSize(const OccupancyLimits& limits,
                                         absl::FunctionRef<uint64_t(int)> dynamic_shared,
                                         int block_size_limit) {
  int top = limits.max_threads_per_block;
  if (block_size_limit > 0) top = std::min(top, block_size_limit);
  const int granularity = std::max(1, limits.block_granularity);
  const int warp = std::max(1, limits.warp_size);
  PotentialBlockSize best;
  int best_threads = 0;
  // From the largest size down: the largest launchable size, then every
  // launchable multiple of the warp size below it. Going down, only a
  // strictly better size replaces the best, so ties keep the larger block.
  const int first = top - top % granularity;
  for (int threads = first; threads >= 1; threads -= granularity) {
    if (!IsLaunchableBlockSize(limits, threads)) continue;
    if (threads != first && threads % warp != 0) continue;
    const int blocks = ActiveBlocksPerMultiprocessor(limits, threads, dynamic_shared(threads));
    if (blocks * threads > best_threads) {
      best_threads = blocks * threads;
      best.block_size = threads;
      best.min_grid_size = blocks * limits.multiprocessor_count;
    }
    if (best_threads >= limits.max_threads_per_multiprocessor) break;  // cannot do better
  }
  return best;
}

uint64_t AvailableDynamicSharedPerBlock(const OccupancyLimits& limits, int blocks, int threads) {
  if (blocks > BlocksByThreads(limits, threads)) return 0;
  const uint64_t per_block = static_cast<uint64_t>(limits.shared_memory_per_multiprocessor) /
                             static_cast<uint64_t>(blocks);
  if (per_block <= limits.static_shared_bytes) return 0;
  return std::min<uint64_t>(per_block - limits.static_shared_bytes,
                            limits.max_dynamic_shared_bytes);
}

absl::Status OccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, uint64_t handle,
                                                       int block_size, size_t dynamic_shared,
                                                       unsigned flags) {
  constexpr const char* kApi = "cuOccupancyMaxActiveBlocksPerMultiprocessor";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (num_blocks == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": numBlocks is null");
  SH_RETURN_IF_ERROR(CheckFlags(flags, kApi));
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  const OccupancyLimits limits = OccupancyLimitsOf(*function);
  SH_RETURN_IF_ERROR(CheckBlockSize(limits, block_size, kApi));
  *num_blocks = ActiveBlocksPerMultiprocessor(limits, block_size, dynamic_shared);
  return absl::OkStatus();
}

absl::Status OccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size,
                                            uint64_t handle,
                                            size_t (*block_to_dynamic_shared)(int),
                                            size_t dynamic_shared, int block_size_limit,
                                            unsigned flags) {
  constexpr const char* kApi = "cuOccupancyMaxPotentialBlockSize";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (min_grid_size == nullptr || block_size == nullptr) {
    return Error(ErrorCode::kInvalidValue, kApi, ": minGridSize and blockSize must not be null");
  }
  if (block_size_limit < 0) {
    return Error(ErrorCode::kInvalidValue, kApi, ": blockSizeLimit ", block_size_limit,
                 " is negative");
  }
  SH_RETURN_IF_ERROR(CheckFlags(flags, kApi));
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  const OccupancyLimits limits = OccupancyLimitsOf(*function);
  const PotentialBlockSize best = MaxPotentialBlockSize(
      limits,
      [&](int threads) -> uint64_t {
        return block_to_dynamic_shared != nullptr ? block_to_dynamic_shared(threads)
                                                  : dynamic_shared;
      },
      block_size_limit);
  *min_grid_size = best.min_grid_size;
  *block_size = best.block_size;
  return absl::OkStatus();
}

absl::Status OccupancyAvailableDynamicSMemPerBlock(size_t* bytes, uint64_t handle,
                                                   int num_blocks, int block_size) {
  constexpr const char* kApi = "cuOccupancyAvailableDynamicSMemPerBlock";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (bytes == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": dynamicSmemSize is null");
  if (num_blocks < 1) {
    return Error(ErrorCode::kInvalidValue, kApi, ": numBlocks ", num_blocks, " is not positive");
  }
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(handle));
  const OccupancyLimits limits = OccupancyLimitsOf(*function);
  SH_RETURN_IF_ERROR(CheckBlockSize(limits, block_size, kApi));
  *bytes = AvailableDynamicSharedPerBlock(limits, num_blocks, block_size);
  return absl::OkStatus();
}

}  // namespace streamhal
