#include "core/launch.h"

#include <cstring>

#include "core/context.h"
#include "core/event.h"
#include "core/module.h"
#include "core/memory.h"
#include "core/status.h"
#include "core/stream.h"

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

// Lays out the parameter block at the offsets the kernel's SPIR-V declares.
absl::Status BuildParams(const Function& function, const LaunchConfig& config, uint8_t* block) {
  const KernelInfo& info = function.info();
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

}  // namespace

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

absl::Status LaunchKernel(uint64_t function_handle, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(function_handle));
  if (function->module()->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidHandle,
                 "launch: the function belongs to a module of another device");
  }
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(config.stream));
  SH_RETURN_IF_ERROR(ValidateDimensions(*function, config, context->device()->properties()));

  alignas(16) uint8_t params[kMaxParamBlockBytes];
  SH_RETURN_IF_ERROR(BuildParams(*function, config, params));

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
