// Kernel launch (hipModuleLaunchKernel).
#include "core/launch.h"

#include <hip/hip_ext.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "call.h"
#include "core/handle.h"

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

hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int grid_x,
                                            unsigned int grid_y, unsigned int grid_z,
                                            unsigned int block_x, unsigned int block_y,
                                            unsigned int block_z, unsigned int shared_mem_bytes,
                                            hipStream_t stream, void** kernel_params) {
  streamhal::LaunchConfig config;
  config.grid = {grid_x, grid_y, grid_z};
  config.block = {block_x, block_y, block_z};
  config.shared_bytes = shared_mem_bytes;
  config.stream = HandleValue(stream);
  config.kernel_params = kernel_params;
  return RuntimeCall([&] { return streamhal::LaunchCooperativeKernel(HandleValue(f), config); });
}

hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams* list,
                                                       unsigned int num_devices,
                                                       unsigned int flags) {
  static_assert(hipCooperativeLaunchMultiDeviceNoPreSync == streamhal::kMultiDeviceNoPreLaunchSync);
  static_assert(hipCooperativeLaunchMultiDeviceNoPostSync ==
                streamhal::kMultiDeviceNoPostLaunchSync);
  std::vector<streamhal::DeviceLaunch> launches;
  if (list != nullptr) {
    for (unsigned int i = 0; i < num_devices; ++i) {
      streamhal::DeviceLaunch& to = launches.emplace_back();
      to.function = HandleValue(list[i].function);
      to.config.grid = {list[i].gridDimX, list[i].gridDimY, list[i].gridDimZ};
      to.config.block = {list[i].blockDimX, list[i].blockDimY, list[i].blockDimZ};
      to.config.shared_bytes = list[i].sharedMemBytes;
      to.config.stream = HandleValue(list[i].hStream);
      to.config.kernel_params = list[i].kernelParams;
    }
  }
  return RuntimeCall([&] {
    return streamhal::LaunchMultiDevice(list != nullptr ? launches.data() : nullptr,
                                        launches.size(), flags, /*cooperative=*/true,
                                        "hipModuleLaunchCooperativeKernelMultiDevice");
  });
}

// Sizes are global work sizes in work-items. Vulkan has no partial
// workgroups, so the grid is rounded up: kernels bounds-check their index.
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t global_x, uint32_t global_y,
                                    uint32_t global_z, uint32_t local_x, uint32_t local_y,
                                    uint32_t local_z, size_t shared_mem_bytes, hipStream_t stream,
                                    void** kernel_params, void** extra, hipEvent_t start_event,
                                    hipEvent_t stop_event, uint32_t /*flags: ordering hints*/) {
  auto blocks = [](uint32_t global, uint32_t local) {
    return local == 0 ? 0u : static_cast<uint32_t>((uint64_t{global} + local - 1) / local);
  };
  streamhal::LaunchConfig config;
  config.grid = {blocks(global_x, local_x), blocks(global_y, local_y), blocks(global_z, local_z)};
  config.block = {local_x, local_y, local_z};
  config.shared_bytes = static_cast<uint32_t>(shared_mem_bytes);
  config.stream = HandleValue(stream);
  config.kernel_params = kernel_params;
  streamhal::DecodeExtra(extra, HIP_LAUNCH_PARAM_END, &config);
  return RuntimeCall([&] {
    return streamhal::LaunchKernelWithEvents(HandleValue(f), config, HandleValue(start_event),
                                             HandleValue(stop_event));
  });
}

// The kernel is named by `function_address`, which in streamhal is a
// hipFunction_t from hipModuleGetFunction; sizes are in blocks, as for
// hipModuleLaunchKernel, with events recorded around the kernel.
hipError_t hipExtLaunchKernel(const void* function_address, dim3 num_blocks, dim3 dim_blocks,
                              void** args, size_t shared_mem_bytes, hipStream_t stream,
                              hipEvent_t start_event, hipEvent_t stop_event, int /*flags*/) {
  streamhal::LaunchConfig config;
  config.grid = {num_blocks.x, num_blocks.y, num_blocks.z};
  config.block = {dim_blocks.x, dim_blocks.y, dim_blocks.z};
  // Past 4 GiB the size stays too large for any device.
  config.shared_bytes = static_cast<uint32_t>(std::min<size_t>(shared_mem_bytes, UINT32_MAX));
  config.stream = HandleValue(stream);
  config.kernel_params = args;
  return RuntimeCall([&] {
    return streamhal::LaunchKernelWithEvents(HandleValue(function_address), config,
                                             HandleValue(start_event), HandleValue(stop_event));
  });
}

hipError_t hipHccModuleLaunchKernel(hipFunction_t f, uint32_t global_x, uint32_t global_y,
                                    uint32_t global_z, uint32_t local_x, uint32_t local_y,
                                    uint32_t local_z, size_t shared_mem_bytes, hipStream_t stream,
                                    void** kernel_params, void** extra, hipEvent_t start_event,
                                    hipEvent_t stop_event) {
  return hipExtModuleLaunchKernel(f, global_x, global_y, global_z, local_x, local_y, local_z,
                                  shared_mem_bytes, stream, kernel_params, extra, start_event,
                                  stop_event, 0);
}

}  // extern "C"
