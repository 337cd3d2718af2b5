#include "core/legacy_launch.h"

#include <cstring>
#include <memory>

#include "core/context.h"
#include "core/launch.h"
#include "core/launch_params.h"
#include "core/module.h"
#include "core/status.h"

namespace streamhal {

Function::LegacyLaunchState& Function::legacy_state() {
  if (legacy_ == nullptr) legacy_ = std::make_unique<LegacyLaunchState>();
  return *legacy_;
}

namespace {

// The function of a legacy call, which CUDA documents to need a current
// context (kInvalidContext otherwise).
absl::StatusOr<Function*> LegacyFunction(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  return ResolveFunction(handle);
}

}  // namespace

absl::Status FuncSetBlockShape(uint64_t handle, int x, int y, int z) {
  SH_ASSIGN_OR_RETURN(Function * function, LegacyFunction(handle));
  if (x < 1 || y < 1 || z < 1) {
    return Error(ErrorCode::kInvalidValue, "cuFuncSetBlockShape: block (", x, ", ", y, ", ", z,
                 ") has a dimension below 1");
  }
  MutexLock lock(&function->legacy_mutex());
  function->legacy_state().block = {static_cast<uint32_t>(x), static_cast<uint32_t>(y),
                                    static_cast<uint32_t>(z)};
  return absl::OkStatus();
}

absl::Status FuncSetSharedSize(uint64_t handle, unsigned bytes) {
  SH_ASSIGN_OR_RETURN(Function * function, LegacyFunction(handle));
  MutexLock lock(&function->legacy_mutex());
  function->legacy_state().shared_bytes = bytes;
  return absl::OkStatus();
}

absl::Status ParamSetSize(uint64_t handle, unsigned bytes) {
  SH_ASSIGN_OR_RETURN(Function * function, LegacyFunction(handle));
  if (bytes > kMaxParamBlockBytes) {
    return Error(ErrorCode::kInvalidValue, "cuParamSetSize: ", bytes,
                 " bytes of parameters; kernels take at most ", kMaxParamBlockBytes);
  }
  MutexLock lock(&function->legacy_mutex());
  function->legacy_state().param_size = bytes;
  return absl::OkStatus();
}

absl::Status ParamSet(uint64_t handle, int offset, const void* data, size_t bytes,
                      const char* api) {
  SH_ASSIGN_OR_RETURN(Function * function, LegacyFunction(handle));
  if (data == nullptr) return Error(ErrorCode::kInvalidValue, api, ": the value pointer is null");
  if (offset < 0 || bytes > kMaxParamBlockBytes ||
      static_cast<size_t>(offset) > kMaxParamBlockBytes - bytes) {
    return Error(ErrorCode::kInvalidValue, api, ": ", bytes, " bytes at offset ", offset,
                 " reach past the ", kMaxParamBlockBytes, "-byte parameter block");
  }
  MutexLock lock(&function->legacy_mutex());
  std::memcpy(function->legacy_state().params + offset, data, bytes);
  return absl::OkStatus();
}

absl::Status LaunchGrid(uint64_t handle, int width, int height, uint64_t stream, const char* api) {
  SH_ASSIGN_OR_RETURN(Function * function, LegacyFunction(handle));
  if (width < 1 || height < 1) {
    return Error(ErrorCode::kInvalidValue, api, ": grid (", width, ", ", height,
                 ") has a dimension below 1");
  }
  // A copy of the state: another thread may change it while this launch is
  // recorded, and the recorded launch keeps its own parameter bytes.
  Function::LegacyLaunchState state;
  {
    MutexLock lock(&function->legacy_mutex());
    state = function->legacy_state();
  }
  LaunchConfig config;
  config.grid = {static_cast<uint32_t>(width), static_cast<uint32_t>(height), 1};
  config.block = state.block;
  config.shared_bytes = state.shared_bytes;
  config.stream = stream;
  config.extra_given = true;
  config.packed_params = state.params;
  config.packed_size = state.param_size;
  return LaunchKernel(handle, config);
}

}  // namespace streamhal
