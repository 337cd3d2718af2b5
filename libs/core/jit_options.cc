#include "core/jit_options.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/status.h"

namespace streamhal {
namespace {

bool Is(int option, JitOptionId id) { return option == static_cast<int>(id); }

// Size and flag options carry their number in the pointer-sized slot.
size_t SlotNumber(void* value) { return reinterpret_cast<uintptr_t>(value); }
void* AsSlot(size_t number) { return reinterpret_cast<void*>(static_cast<uintptr_t>(number)); }

// CUDA: a log "will be capped at this size (including null terminator)";
// the size slot then holds the amount of the buffer filled.
size_t CopyLog(absl::string_view log, char* buffer, size_t size) {
  if (buffer == nullptr || size == 0) return 0;
  const size_t n = std::min(log.size(), size - 1);
  if (n > 0) std::memcpy(buffer, log.data(), n);
  buffer[n] = '\0';
  return n + 1;
}

}  // namespace

absl::StatusOr<JitOptions> ReadJitOptions(unsigned num_options, const int* options,
                                          void* const* values, int option_count) {
  if (num_options > 0 && (options == nullptr || values == nullptr)) {
    return Error(ErrorCode::kInvalidValue, "cuModuleLoadDataEx: options or optionValues is null");
  }
  // Every id is checked before any value is read, so a rejected array is
  // not read past its first bad id.
  for (unsigned i = 0; i < num_options; ++i) {
    if (options[i] < 0 || options[i] >= option_count) {
      return Error(ErrorCode::kInvalidValue, "cuModuleLoadDataEx: options[", i, "] = ", options[i],
                   " is not a JIT option (0..", option_count - 1, ")");
    }
  }
  JitOptions jit;
  for (unsigned i = 0; i < num_options; ++i) {
    const int option = options[i];
    if (Is(option, JitOptionId::kInfoLogBuffer)) {
      jit.info_log = static_cast<char*>(values[i]);
    } else if (Is(option, JitOptionId::kInfoLogBufferSizeBytes)) {
      jit.info_log_size = SlotNumber(values[i]);
    } else if (Is(option, JitOptionId::kErrorLogBuffer)) {
      jit.error_log = static_cast<char*>(values[i]);
    } else if (Is(option, JitOptionId::kErrorLogBufferSizeBytes)) {
      jit.error_log_size = SlotNumber(values[i]);
    } else if (Is(option, JitOptionId::kLogVerbose)) {
      jit.verbose = SlotNumber(values[i]) != 0;
    }
  }
  return jit;
}

void RecordJitLogs(JitOptions* jit, absl::string_view error_log, absl::string_view info_log,
                   double wall_time_ms) {
  jit->error_log_written = CopyLog(error_log, jit->error_log, jit->error_log_size);
  jit->info_log_written = CopyLog(info_log, jit->info_log, jit->info_log_size);
  jit->wall_time_ms = static_cast<float>(wall_time_ms);
}

void WriteJitOutputs(const JitOptions& jit, unsigned num_options, const int* options,
                     void** values) {
  for (unsigned i = 0; i < num_options; ++i) {
    const int option = options[i];
    if (Is(option, JitOptionId::kWallTime)) {
      // CUDA: the slot is overwritten with the compile time as a float (in
      // its first bytes; the rest of the slot is zeroed).
      values[i] = nullptr;
      std::memcpy(&values[i], &jit.wall_time_ms, sizeof(float));
    } else if (Is(option, JitOptionId::kInfoLogBufferSizeBytes)) {
      values[i] = AsSlot(jit.info_log_written);
    } else if (Is(option, JitOptionId::kErrorLogBufferSizeBytes)) {
      values[i] = AsSlot(jit.error_log_written);
    }
  }
}

}  // namespace streamhal
