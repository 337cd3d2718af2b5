// The parameters of a launch (cuLaunchKernel, hipModuleLaunchKernel): the
// configuration a binding passes to core, the decoding of the `extra` array
// and the layout of the parameter block at the offsets the kernel's SPIR-V
// declares. No device, no objects: what a malformed argument can reach is
// here, in one place that the fuzz target launch_params_fuzz.cc drives.
#ifndef STREAMHAL_CORE_LAUNCH_PARAMS_H_
#define STREAMHAL_CORE_LAUNCH_PARAMS_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/spirv_reflect.h"

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

// Lays out the parameter block of a kernel described by `info` into `block`
// (at least info.param_block_size bytes) from kernelParams or the decoded
// `extra` buffer of `config`; kInvalidValue when they are missing, both
// given, malformed or too short.
absl::Status BuildParams(const KernelInfo& info, const LaunchConfig& config, uint8_t* block);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LAUNCH_PARAMS_H_
