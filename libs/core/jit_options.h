// The JIT options of cuModuleLoadDataEx / hipModuleLoadDataEx: reading the
// caller's option ids and values, filling the log buffers they name, and
// writing the outputs back into the value slots. No device, no objects: what
// a malformed options array can reach is here, in one place that the fuzz
// target jit_options_fuzz.cc drives.
#ifndef STREAMHAL_CORE_JIT_OPTIONS_H_
#define STREAMHAL_CORE_JIT_OPTIONS_H_

#include <cstddef>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace streamhal {

// The option ids that apply to GLSL compiled at load time (the PTX-JIT
// analogue). CUjit_option and hipJitOption number them the same way.
enum class JitOptionId : int {
  kWallTime = 2,
  kInfoLogBuffer = 3,
  kInfoLogBufferSizeBytes = 4,
  kErrorLogBuffer = 5,
  kErrorLogBufferSizeBytes = 6,
  kLogVerbose = 12,
};

// The options a load honours, and what it reports back. Logs are
// NUL-terminated and truncated to fit; the *_written outputs give the bytes
// written including the NUL.
struct JitOptions {
  char* info_log = nullptr;
  size_t info_log_size = 0;
  char* error_log = nullptr;
  size_t error_log_size = 0;
  bool verbose = false;
  // Outputs.
  float wall_time_ms = 0;
  size_t info_log_written = 0;
  size_t error_log_written = 0;
};

// Reads `num_options` (id, value) pairs. `option_count` is the number of ids
// the caller's API defines (CU_JIT_NUM_OPTIONS, hipJitOptionNumOptions).
// CUDA: an id outside [0, option_count) is CUDA_ERROR_INVALID_VALUE, as are
// arrays that are null while `num_options` is not 0; then kInvalidValue,
// and no value is read. Ids that do not apply to GLSL are accepted and
// ignored; an option given twice takes its last value. Values are read,
// never dereferenced: a log buffer is only written by RecordJitLogs.
absl::StatusOr<JitOptions> ReadJitOptions(unsigned num_options, const int* options,
                                          void* const* values, int option_count);

// Copies the compiler's logs into the buffers `jit` names (a null buffer or
// a size of 0 gets nothing and reports 0 bytes written) and records the
// compile time.
void RecordJitLogs(JitOptions* jit, absl::string_view error_log, absl::string_view info_log,
                   double wall_time_ms);

// Writes the outputs into the caller's value slots, as CUDA specifies: the
// wall time as a float in the slot of CU_JIT_WALL_TIME, the bytes written
// (NUL included) in the slots of the log size options. Other slots are left
// as they are. `options` and `values` are the arrays ReadJitOptions
// accepted.
void WriteJitOutputs(const JitOptions& jit, unsigned num_options, const int* options,
                     void** values);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_JIT_OPTIONS_H_
