#include "core/launch.h"

#include <cstring>

#include "core/context.h"
#include "core/event.h"
#include "core/launch_params.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"

namespace streamhal {
namespace {

absl::Status ValidateDimensions(const Function& function, const LaunchConfig& config,
                                const DeviceProperties& p) {
  static constexpr const char* kAxis[] = {"x", "y", "z"};
  uint64_t threads = 1;
  for (int i = 0; i < 3; ++i) {
    if (config.grid[i] == 0 || config.block[i] == 0) {
      return Error(ErrorCode::kInvalidValue, "launch: grid and block dimensions must be positive");
    }
    if (config.grid[i] > static_cast<uint32_t>(p.max_grid_dim[i])) {
      return Error(ErrorCode::kInvalidValue, "launch: grid ", kAxis[i], " = ", config.grid[i],
                   " exceeds the device limit ", p.max_grid_dim[i]);
    }
    if (config.block[i] > static_cast<uint32_t>(p.max_block_dim[i])) {
      return Error(ErrorCode::kInvalidValue, "launch: block ", kAxis[i], " = ", config.block[i],
                   " exceeds the device limit ", p.max_block_dim[i]);
    }
    const KernelInfo& info = function.info();
    if (!info.block_dim_from_spec[i] && config.block[i] != info.literal_block_size[i]) {
      return Error(ErrorCode::kInvalidValue, "launch: kernel '", info.name,
                   "' has a fixed block size ", info.literal_block_size[i], " in ", kAxis[i],
                   "; the launch asked for ", config.block[i]);
    }
    threads *= config.block[i];
  }
  if (threads > static_cast<uint64_t>(function.max_threads_per_block())) {
    return Error(ErrorCode::kInvalidValue, "launch: ", threads, " threads per block exceeds ",
                 function.max_threads_per_block());
  }
  const uint32_t shared_limit =
      function.info().has_dynamic_shared_spec
          ? function.max_dynamic_shared_bytes()
          : function.device_shared_limit() - function.info().static_shared_bytes;
  if (config.shared_bytes > shared_limit) {
    return Error(ErrorCode::kInvalidValue, "launch: ", config.shared_bytes,
                 " bytes of dynamic shared memory exceeds the kernel's limit of ", shared_limit);
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateLaunchDimensions(const Function& function, const LaunchConfig& config) {
  return ValidateDimensions(function, config, function.module()->context()->device()->properties());
}

absl::Status LaunchKernel(uint64_t function_handle, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(function_handle));
  if (function->module()->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidHandle,
                 "launch: the function belongs to a module of another device");
  }
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(config.stream));
  SH_RETURN_IF_ERROR(ValidateDimensions(*function, config, context->device()->properties()));
  if (stream->capture() != nullptr) return CaptureKernel(stream, function_handle, config);

  alignas(16) uint8_t params[kMaxParamBlockBytes];
  SH_RETURN_IF_ERROR(BuildParams(function->info(), config, params));

  DispatchParams dispatch;
  dispatch.kernel = function->backend();
  dispatch.grid = config.grid;
  dispatch.block = config.block;
  dispatch.dynamic_shared_bytes = config.shared_bytes;
  dispatch.params = params;
  if (function->globals() != nullptr) dispatch.globals = function->globals()->backend.get();
  return stream->Record([&](BackendStream* backend) { return backend->RecordDispatch(dispatch); });
}

absl::Status LaunchKernelWithEvents(uint64_t function, const LaunchConfig& config,
                                    uint64_t start_event, uint64_t stop_event) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  // Validate both events before anything is recorded.
  if (start_event != 0) SH_RETURN_IF_ERROR(ResolveEvent(start_event).status());
  if (stop_event != 0) SH_RETURN_IF_ERROR(ResolveEvent(stop_event).status());
  if (start_event != 0) SH_RETURN_IF_ERROR(EventRecord(start_event, config.stream));
  SH_RETURN_IF_ERROR(LaunchKernel(function, config));
  if (stop_event != 0) SH_RETURN_IF_ERROR(EventRecord(stop_event, config.stream));
  return absl::OkStatus();
}

}  // namespace streamhal
