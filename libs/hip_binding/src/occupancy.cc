// Occupancy (hipModuleOccupancy*, and the runtime forms hipOccupancy*, whose
// `const void*` kernel is a hipFunction_t from hipModuleGetFunction).
#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/handle.h"
#include "core/occupancy.h"

using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size,
                                                   hipFunction_t f, size_t dyn_shared_mem_per_blk,
                                                   int block_size_limit) {
  return RuntimeCall([&] {
    return streamhal::OccupancyMaxPotentialBlockSize(grid_size, block_size, HandleValue(f),
                                                     nullptr, dyn_shared_mem_per_blk,
                                                     block_size_limit, hipOccupancyDefault);
  });
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int* grid_size, int* block_size,
                                                            hipFunction_t f,
                                                            size_t dyn_shared_mem_per_blk,
                                                            int block_size_limit,
                                                            unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::OccupancyMaxPotentialBlockSize(grid_size, block_size, HandleValue(f),
                                                     nullptr, dyn_shared_mem_per_blk,
                                                     block_size_limit, flags);
  });
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, hipFunction_t f,
                                                              int block_size,
                                                              size_t dyn_shared_mem_per_blk) {
  return RuntimeCall([&] {
    return streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(
        num_blocks, HandleValue(f), block_size, dyn_shared_mem_per_blk, hipOccupancyDefault);
  });
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int* num_blocks, hipFunction_t f, int block_size, size_t dyn_shared_mem_per_blk,
    unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(
        num_blocks, HandleValue(f), block_size, dyn_shared_mem_per_blk, flags);
  });
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, const void* f,
                                                        int block_size,
                                                        size_t dyn_shared_mem_per_blk) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t kernel, streamhal::hip::KernelOf(f));
    return streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(
        num_blocks, kernel, block_size, dyn_shared_mem_per_blk, hipOccupancyDefault);
  });
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* num_blocks, const void* f,
                                                                 int block_size,
                                                                 size_t dyn_shared_mem_per_blk,
                                                                 unsigned int flags) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t kernel, streamhal::hip::KernelOf(f));
    return streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(num_blocks, kernel, block_size,
                                                                dyn_shared_mem_per_blk, flags);
  });
}

hipError_t hipOccupancyMaxPotentialBlockSize(int* grid_size, int* block_size, const void* f,
                                             size_t dyn_shared_mem_per_blk, int block_size_limit) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(const uint64_t kernel, streamhal::hip::KernelOf(f));
    return streamhal::OccupancyMaxPotentialBlockSize(grid_size, block_size, kernel, nullptr,
                                                     dyn_shared_mem_per_blk, block_size_limit,
                                                     hipOccupancyDefault);
  });
}

}  // extern "C"
