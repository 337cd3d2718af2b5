// Kernel launch (cuLaunchKernel, hipModuleLaunchKernel): validates the
// configuration against the kernel and device, lays out the parameter block
// from reflection, and records the dispatch on the stream.
#ifndef STREAMHAL_CORE_LAUNCH_H_
#define STREAMHAL_CORE_LAUNCH_H_

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "core/launch_params.h"

namespace streamhal {

class Context;
class Function;

absl::Status LaunchKernel(uint64_t function, const LaunchConfig& config);

// cuLaunchCooperativeKernel, hipModuleLaunchCooperativeKernel: a launch whose
// blocks may wait for each other (the prelude's grid_sync()). Only where the
// device's occupancy figures are exact (DeviceProperties::
// resident_blocks_exact; kNotSupported elsewhere), and only grids that fit
// at once: more blocks than blocks-per-multiprocessor times multiprocessors
// is kCooperativeLaunchTooLarge. The runtime zeroes the module's grid
// barrier words before the dispatch and names them to the kernel through
// specialization constants 4 and 5 (docs/kernel-abi.md).
absl::Status LaunchCooperativeKernel(uint64_t function, const LaunchConfig& config);

// The grid barrier's words: count, generation, gave-up flag, one spare.
inline constexpr uint32_t kGridBarrierWords = 4;

// LaunchKernel / LaunchCooperativeKernel in `context`, which must be
// current (the multi-device forms make each stream's context current).
absl::Status LaunchKernelIn(Context* context, uint64_t function, const LaunchConfig& config,
                            bool cooperative);

// One launch of a multi-device launch (cuLaunchCooperativeKernelMultiDevice,
// hipModuleLaunchCooperativeKernelMultiDevice, hipLaunchCooperativeKernel-
// MultiDevice, hipExtLaunchMultiKernelMultiDevice): the stream picks the
// device and context; it must be a created stream (not a null stream).
struct DeviceLaunch {
  uint64_t function = 0;
  // Instead of `function`: a registered kernel's host stub (HIP's host-
  // function forms), resolved in the stream's context.
  const void* host_function = nullptr;
  LaunchConfig config;
};

// Flags of the multi-device launches (CUDA's CUDA_COOPERATIVE_LAUNCH_MULTI_
// DEVICE_NO_*_SYNC, HIP's hipCooperativeLaunchMultiDeviceNo*Sync).
inline constexpr unsigned kMultiDeviceNoPreLaunchSync = 0x1;
inline constexpr unsigned kMultiDeviceNoPostLaunchSync = 0x2;

// Launches `count` kernels, at most one per device, after checking them all
// (nothing is launched when one is wrong). `cooperative`: each is a
// cooperative launch, and all must run the same kernel (same name and SPIR-V) with the
// same grid, block and shared memory, as CUDA requires; then, unless `flags`
// says otherwise, no kernel starts before earlier work in all the streams is
// done, and later work in any of them waits for all the kernels (both by
// waiting on the host). Otherwise (hipExtLaunchMultiKernelMultiDevice) the
// kernels may differ and `flags` may only be hipExtAnyOrderLaunch (0x1).
absl::Status LaunchMultiDevice(const DeviceLaunch* launches, size_t count, unsigned flags,
                               bool cooperative, const char* api);

// The cooperative limits alone (device support, grid size) for `config`.
absl::Status ValidateCooperativeGrid(const Function& function, const LaunchConfig& config);

// What LaunchKernel checks of a configuration before recording it (grid,
// block and shared memory against the kernel and its device), for callers
// that record the launch later (graph kernel nodes).
absl::Status ValidateLaunchDimensions(const Function& function, const LaunchConfig& config);

// One attribute of an extended launch (cuLaunchKernelEx), read by the
// binding from its union according to `id` (CUlaunchAttributeID values of
// CUDA 12.0); fields the id does not use are 0.
enum class LaunchAttributeId : int {
  kIgnore = 0,
  kAccessPolicyWindow = 1,
  kCooperative = 2,
  kSynchronizationPolicy = 3,
  kClusterDimension = 4,
  kClusterSchedulingPolicyPreference = 5,
  kProgrammaticStreamSerialization = 6,
  kProgrammaticEvent = 7,
  kPriority = 8,
  kMemSyncDomainMap = 9,
  kMemSyncDomain = 10,
};
struct LaunchAttribute {
  int id = 0;
  // cooperative, syncPolicy, clusterSchedulingPolicyPreference,
  // programmaticStreamSerializationAllowed, priority or memSyncDomain.
  int value = 0;
  std::array<uint32_t, 3> cluster_dim = {0, 0, 0};
  uint64_t event = 0;  // programmaticEvent
  int event_flags = 0;
  int trigger_at_block_start = 0;
  uint64_t window_bytes = 0;  // accessPolicyWindow
  float hit_ratio = 0.0f;
  int hit_property = 0;
  int miss_property = 0;
};

// cuLaunchKernelEx: `config` (may be null: kInvalidValue) and `count`
// attributes, every one checked before anything is recorded. What each
// attribute does is in docs/kernel-abi.md ("Launch attributes").
absl::Status LaunchKernelEx(uint64_t function, const LaunchConfig* config,
                            const LaunchAttribute* attributes, unsigned count);

// hipExtModuleLaunchKernel: the launch bracketed by two optional events
// (0 for none) recorded in the same stream just before and just after it.
absl::Status LaunchKernelWithEvents(uint64_t function, const LaunchConfig& config,
                                    uint64_t start_event, uint64_t stop_event);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LAUNCH_H_
