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

class Function;

absl::Status LaunchKernel(uint64_t function, const LaunchConfig& config);

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
