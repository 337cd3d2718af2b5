// Occupancy (cuOccupancy*).
#include <cuda.h>

#include "core/handle.h"
#include "core/occupancy.h"
#include "result.h"

using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* num_blocks, CUfunction func,
                                                     int block_size, size_t dynamic_smem_size) {
  return ToCUresult(streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(
      num_blocks, HandleValue(func), block_size, dynamic_smem_size, CU_OCCUPANCY_DEFAULT));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* num_blocks, CUfunction func,
                                                              int block_size,
                                                              size_t dynamic_smem_size,
                                                              unsigned int flags) {
  return ToCUresult(streamhal::OccupancyMaxActiveBlocksPerMultiprocessor(
      num_blocks, HandleValue(func), block_size, dynamic_smem_size, flags));
}

CUresult cuOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, CUfunction func,
                                          CUoccupancyB2DSize block_size_to_dynamic_smem_size,
                                          size_t dynamic_smem_size, int block_size_limit) {
  return ToCUresult(streamhal::OccupancyMaxPotentialBlockSize(
      min_grid_size, block_size, HandleValue(func), block_size_to_dynamic_smem_size,
      dynamic_smem_size, block_size_limit, CU_OCCUPANCY_DEFAULT));
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(
    int* min_grid_size, int* block_size, CUfunction func,
    CUoccupancyB2DSize block_size_to_dynamic_smem_size, size_t dynamic_smem_size,
    int block_size_limit, unsigned int flags) {
  return ToCUresult(streamhal::OccupancyMaxPotentialBlockSize(
      min_grid_size, block_size, HandleValue(func), block_size_to_dynamic_smem_size,
      dynamic_smem_size, block_size_limit, flags));
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* dynamic_smem_size, CUfunction func,
                                                 int num_blocks, int block_size) {
  return ToCUresult(streamhal::OccupancyAvailableDynamicSMemPerBlock(
      dynamic_smem_size, HandleValue(func), num_blocks, block_size));
}

}  // extern "C"
