// Kernel launch (cuLaunchKernel, hipModuleLaunchKernel): validates the
// configuration against the kernel and device, lays out the parameter block
// from reflection, and records the dispatch on the stream.
#ifndef STREAMHAL_CORE_LAUNCH_H_
#define STREAMHAL_CORE_LAUNCH_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

struct LaunchConfig {
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t shared_bytes = 0;
  uint64_t stream = 0;
  // One pointer per parameter, in declaration order (kernelParams).
  void** kernel_params = nullptr;
  // The packed buffer of `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE),
  // already decoded by the binding. `extra_given` says `extra` was not null;
  // `extra_valid` that it was well formed.
  bool extra_given = false;
  bool extra_valid = true;
  const void* packed_params = nullptr;
  size_t packed_size = 0;
};

// Decodes a launch's `extra` array: (BUFFER_POINTER, void*) and
// (BUFFER_SIZE, size_t*) pairs closed by `end_marker`. CUDA and HIP agree on
// BUFFER_POINTER (0x1) and BUFFER_SIZE (0x2) but not on the end marker
// (CUDA 0x0, HIP 0x3).
void DecodeExtra(void** extra, const void* end_marker, LaunchConfig* config);

absl::Status LaunchKernel(uint64_t function, const LaunchConfig& config);

// hipExtModuleLaunchKernel: the launch bracketed by two optional events
// (0 for none) recorded in the same stream just before and just after it.
absl::Status LaunchKernelWithEvents(uint64_t function, const LaunchConfig& config,
                                    uint64_t start_event, uint64_t stop_event);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LAUNCH_H_
