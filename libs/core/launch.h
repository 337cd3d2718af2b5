// Kernel launch (cuLaunchKernel, hipModuleLaunchKernel): validates the
// configuration against the kernel and device, lays out the parameter block
// from reflection, and records the dispatch on the stream.
#ifndef STREAMHAL_CORE_LAUNCH_H_
#define STREAMHAL_CORE_LAUNCH_H_

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

// hipExtModuleLaunchKernel: the launch bracketed by two optional events
// (0 for none) recorded in the same stream just before and just after it.
absl::Status LaunchKernelWithEvents(uint64_t function, const LaunchConfig& config,
                                    uint64_t start_event, uint64_t stop_event);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LAUNCH_H_
