// The legacy execution-control calls of CUDA 2.0 (deprecated, still
// documented): a kernel's block shape, dynamic shared memory and parameter
// bytes are set one call at a time on the function (cuFuncSetBlockShape,
// cuFuncSetSharedSize, cuParamSetSize, cuParamSeti/f/v) and a launch
// (cuLaunch, cuLaunchGrid, cuLaunchGridAsync) uses what was set. The state
// persists across launches, as in CUDA. A launch goes through LaunchKernel
// with the parameter bytes as a packed buffer (CU_LAUNCH_PARAM_BUFFER_POINTER),
// so it is validated and recorded like any other.
#ifndef STREAMHAL_CORE_LEGACY_LAUNCH_H_
#define STREAMHAL_CORE_LEGACY_LAUNCH_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

// Each dimension at least 1 (kInvalidValue otherwise); checked against the
// kernel and the device at launch.
absl::Status FuncSetBlockShape(uint64_t function, int x, int y, int z);
// Checked against the kernel's limit at launch.
absl::Status FuncSetSharedSize(uint64_t function, unsigned bytes);
// The size of the parameter block a launch passes: at most 4 KiB (CUDA's
// limit for kernel parameters); kInvalidValue beyond.
absl::Status ParamSetSize(uint64_t function, unsigned bytes);
// Copies `bytes` bytes to `offset` in the function's parameter bytes; the
// range must lie within 4 KiB (kInvalidValue otherwise, as for a negative
// offset or a null `data`).
absl::Status ParamSet(uint64_t function, int offset, const void* data, size_t bytes,
                      const char* api);
// Launches a grid of width x height blocks in `stream` (cuLaunch: 1 x 1 in
// the null stream).
absl::Status LaunchGrid(uint64_t function, int width, int height, uint64_t stream, const char* api);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_LEGACY_LAUNCH_H_
