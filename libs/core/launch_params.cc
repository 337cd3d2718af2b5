#include "core/launch_params.h"

#include <cstring>

#include "core/status.h"

namespace streamhal {

void DecodeExtra(void** extra, const void* end_marker, LaunchConfig* config) {
  static const void* const kBufferPointer = reinterpret_cast<void*>(0x1);
  static const void* const kBufferSize = reinterpret_cast<void*>(0x2);
  if (extra == nullptr) return;
  config->extra_given = true;
  config->extra_valid = false;
  bool have_size = false;
  // Bounded: a well-formed array is a few entries long.
  for (int i = 0; i < 64; i += 2) {
    if (extra[i] == end_marker) {
      config->extra_valid = config->packed_params != nullptr && have_size;
      return;
    }
    if (extra[i] == kBufferPointer) {
      config->packed_params = extra[i + 1];
    } else if (extra[i] == kBufferSize && extra[i + 1] != nullptr) {
      config->packed_size = *static_cast<size_t*>(extra[i + 1]);
      have_size = true;
    } else {
      return;
    }
  }
}

absl::Status BuildParams(const KernelInfo& info, const LaunchConfig& config, uint8_t* block) {
  if (config.kernel_params != nullptr && config.extra_given) {
    return Error(ErrorCode::kInvalidValue, "launch: kernelParams and extra are both given");
  }
  if (config.extra_given) {
    if (!config.extra_valid || config.packed_params == nullptr) {
      return Error(ErrorCode::kInvalidValue,
                   "launch: extra must hold BUFFER_POINTER, BUFFER_SIZE and END");
    }
    if (config.packed_size < info.param_block_size) {
      return Error(ErrorCode::kInvalidValue, "launch: the packed parameter buffer has ",
                   config.packed_size, " bytes; kernel '", info.name, "' needs ",
                   info.param_block_size);
    }
    std::memcpy(block, config.packed_params, info.param_block_size);
    return absl::OkStatus();
  }
  if (info.params.empty()) return absl::OkStatus();
  if (config.kernel_params == nullptr) {
    return Error(ErrorCode::kInvalidValue, "launch: kernel '", info.name, "' takes ",
                 info.params.size(), " parameters but neither kernelParams nor extra is given");
  }
  std::memset(block, 0, info.param_block_size);
  for (size_t i = 0; i < info.params.size(); ++i) {
    const ParamInfo& param = info.params[i];
    if (config.kernel_params[i] == nullptr) {
      return Error(ErrorCode::kInvalidValue, "launch: kernelParams[", i, "] is null");
    }
    std::memcpy(block + param.offset, config.kernel_params[i], param.size);
  }
  return absl::OkStatus();
}

}  // namespace streamhal
