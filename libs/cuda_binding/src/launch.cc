// Kernel launch (cuLaunchKernel).
#include <cuda.h>

#include "core/handle.h"
#include "core/launch.h"
#include "result.h"

using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuLaunchKernel(CUfunction f, unsigned int grid_x, unsigned int grid_y,
                        unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                        unsigned int block_z, unsigned int shared_mem_bytes, CUstream stream,
                        void** kernel_params, void** extra) {
  streamhal::LaunchConfig config;
  config.grid = {grid_x, grid_y, grid_z};
  config.block = {block_x, block_y, block_z};
  config.shared_bytes = shared_mem_bytes;
  config.stream = HandleValue(stream);
  config.kernel_params = kernel_params;
  streamhal::DecodeExtra(extra, CU_LAUNCH_PARAM_END, &config);
  return ToCUresult(streamhal::LaunchKernel(HandleValue(f), config));
}

}  // extern "C"
