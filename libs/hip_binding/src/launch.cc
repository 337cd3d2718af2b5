// Kernel launch (hipModuleLaunchKernel).
#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/handle.h"
#include "core/launch.h"

using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int grid_x, unsigned int grid_y,
                                 unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                 unsigned int block_z, unsigned int shared_mem_bytes,
                                 hipStream_t stream, void** kernel_params, void** extra) {
  streamhal::LaunchConfig config;
  config.grid = {grid_x, grid_y, grid_z};
  config.block = {block_x, block_y, block_z};
  config.shared_bytes = shared_mem_bytes;
  config.stream = HandleValue(stream);
  config.kernel_params = kernel_params;
  streamhal::DecodeExtra(extra, HIP_LAUNCH_PARAM_END, &config);
  return RuntimeCall([&] { return streamhal::LaunchKernel(HandleValue(f), config); });
}

}  // extern "C"
