// Kernel launch (cuLaunchKernel, cuLaunchKernelEx).
#include <cuda.h>

#include "absl/container/inlined_vector.h"

#include "core/c_enum.h"
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

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int grid_x, unsigned int grid_y,
                                   unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                   unsigned int block_z, unsigned int shared_mem_bytes,
                                   CUstream stream, void** kernel_params) {
  streamhal::LaunchConfig config;
  config.grid = {grid_x, grid_y, grid_z};
  config.block = {block_x, block_y, block_z};
  config.shared_bytes = shared_mem_bytes;
  config.stream = HandleValue(stream);
  config.kernel_params = kernel_params;
  return ToCUresult(streamhal::LaunchCooperativeKernel(HandleValue(f), config));
}

// Deprecated since CUDA 11.3, and still documented to launch.
CUresult cuLaunchCooperativeKernelMultiDevice(CUDA_LAUNCH_PARAMS* launch_params_list,
                                              unsigned int num_devices, unsigned int flags) {
  static_assert(CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC ==
                streamhal::kMultiDeviceNoPreLaunchSync);
  static_assert(CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC ==
                streamhal::kMultiDeviceNoPostLaunchSync);
  absl::InlinedVector<streamhal::DeviceLaunch, 4> launches;
  if (launch_params_list != nullptr) {
    for (unsigned int i = 0; i < num_devices; ++i) {
      const CUDA_LAUNCH_PARAMS& from = launch_params_list[i];
      streamhal::DeviceLaunch& to = launches.emplace_back();
      to.function = HandleValue(from.function);
      to.config.grid = {from.gridDimX, from.gridDimY, from.gridDimZ};
      to.config.block = {from.blockDimX, from.blockDimY, from.blockDimZ};
      to.config.shared_bytes = from.sharedMemBytes;
      to.config.stream = HandleValue(from.hStream);
      to.config.kernel_params = from.kernelParams;
    }
  }
  return ToCUresult(streamhal::LaunchMultiDevice(
      launch_params_list != nullptr ? launches.data() : nullptr, launches.size(), flags,
      /*cooperative=*/true, "cuLaunchCooperativeKernelMultiDevice"));
}

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernel_params,
                          void** extra) {
  if (config == nullptr) {
    return ToCUresult(streamhal::LaunchKernelEx(HandleValue(f), nullptr, nullptr, 0));
  }
  streamhal::LaunchConfig launch;
  launch.grid = {config->gridDimX, config->gridDimY, config->gridDimZ};
  launch.block = {config->blockDimX, config->blockDimY, config->blockDimZ};
  launch.shared_bytes = config->sharedMemBytes;
  launch.stream = HandleValue(config->hStream);
  launch.kernel_params = kernel_params;
  streamhal::DecodeExtra(extra, CU_LAUNCH_PARAM_END, &launch);
  // Each attribute's union is read by its id (the id as an int: a C caller
  // may pass any number there).
  absl::InlinedVector<streamhal::LaunchAttribute, 4> attributes;
  if (config->attrs != nullptr) {
    attributes.resize(config->numAttrs);
    for (unsigned i = 0; i < config->numAttrs; ++i) {
      const CUlaunchAttribute& from = config->attrs[i];
      streamhal::LaunchAttribute& to = attributes[i];
      to.id = streamhal::EnumArgument(from.id);
      const CUlaunchAttributeValue& value = from.value;
      switch (to.id) {
        case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
          to.window_bytes = value.accessPolicyWindow.num_bytes;
          to.hit_ratio = value.accessPolicyWindow.hitRatio;
          to.hit_property = streamhal::EnumArgument(value.accessPolicyWindow.hitProp);
          to.miss_property = streamhal::EnumArgument(value.accessPolicyWindow.missProp);
          break;
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
          to.cluster_dim = {value.clusterDim.x, value.clusterDim.y, value.clusterDim.z};
          break;
        case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT:
          to.event = HandleValue(value.programmaticEvent.event);
          to.event_flags = value.programmaticEvent.flags;
          to.trigger_at_block_start = value.programmaticEvent.triggerAtBlockStart;
          break;
        case CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY:
        case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
          // Enumerations, int-sized like the int members.
          static_assert(sizeof(CUsynchronizationPolicy) == sizeof(int));
          static_assert(sizeof(CUclusterSchedulingPolicy) == sizeof(int));
          static_assert(sizeof(CUlaunchMemSyncDomain) == sizeof(int));
          to.value = value.priority;
          break;
        default:
          to.value = value.cooperative;  // every other int member shares the first bytes
          break;
      }
    }
  }
  return ToCUresult(streamhal::LaunchKernelEx(
      HandleValue(f), &launch, config->attrs != nullptr ? attributes.data() : nullptr,
      config->numAttrs));
}

}  // extern "C"
