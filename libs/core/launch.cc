#include "core/launch.h"

#include <cstring>
#include <vector>

#include "core/context.h"
#include "core/event.h"
#include "core/handle.h"
#include "core/launch_params.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/occupancy.h"
#include "core/registered_code.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"
#include "core/texture.h"

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
  const uint32_t shared_limit = function.launch_dynamic_shared_limit();
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

absl::Status ValidateCooperativeGrid(const Function& function, const LaunchConfig& config) {
  const DeviceProperties& p = function.module()->context()->device()->properties();
  // Blocks may wait for each other only where the occupancy figures are the
  // blocks that really run at once (CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH).
  if (!p.resident_blocks_exact) {
    return Error(ErrorCode::kNotSupported,
                 "cooperative launch: the device cannot prove that a grid's blocks are resident "
                 "together (CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0)");
  }
  const OccupancyLimits limits = OccupancyLimitsOf(function);
  const int threads = static_cast<int>(config.block[0] * config.block[1] * config.block[2]);
  const uint64_t resident =
      static_cast<uint64_t>(ActiveBlocksPerMultiprocessor(limits, threads, config.shared_bytes)) *
      static_cast<uint64_t>(limits.multiprocessor_count);
  const uint64_t blocks = uint64_t{config.grid[0]} * config.grid[1] * config.grid[2];
  if (blocks > resident) {
    return Error(ErrorCode::kCooperativeLaunchTooLarge, "cooperative launch: a grid of ", blocks,
                 " blocks exceeds the ", resident,
                 " blocks of this size and shared memory that run at once on the device");
  }
  return absl::OkStatus();
}

absl::Status LaunchKernel(uint64_t function_handle, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  return LaunchKernelIn(context, function_handle, config, /*cooperative=*/false);
}

absl::Status LaunchCooperativeKernel(uint64_t function_handle, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  return LaunchKernelIn(context, function_handle, config, /*cooperative=*/true);
}

absl::Status LaunchKernelIn(Context* context, uint64_t function_handle, const LaunchConfig& config,
                            bool cooperative) {
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(function_handle));
  if (function->module()->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidHandle,
                 "launch: the function belongs to a module of another device");
  }
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(config.stream));
  SH_RETURN_IF_ERROR(ValidateDimensions(*function, config, context->device()->properties()));
  if (cooperative) SH_RETURN_IF_ERROR(ValidateCooperativeGrid(*function, config));
  if (stream->capture() != nullptr) {
    if (cooperative) {
      return Error(ErrorCode::kStreamCaptureUnsupported,
                   "cooperative launch: not supported inside a stream capture");
    }
    return CaptureKernel(stream, function_handle, config);
  }

  alignas(16) uint8_t params[kMaxParamBlockBytes];
  SH_RETURN_IF_ERROR(BuildParams(function->info(), config, params));

  DispatchParams dispatch;
  dispatch.kernel = function->backend();
  dispatch.grid = config.grid;
  dispatch.block = config.block;
  dispatch.dynamic_shared_bytes = config.shared_bytes;
  dispatch.params = params;
  if (function->globals() != nullptr) dispatch.globals = function->globals()->backend.get();
  LaunchResources resources;
  if (!function->info().resources.empty()) {
    SH_RETURN_IF_ERROR(ResolveLaunchResources(*function, params, &resources));
    dispatch.resources = resources.data();
  }
  if (!cooperative) {
    return stream->Record(
        [&](BackendStream* backend) { return backend->RecordDispatch(dispatch); });
  }
  // The grid barrier's words start at zero for every cooperative launch, so
  // a launch whose barrier gave up (a bounded wait ran out) leaves nothing
  // behind for the next one (docs/kernel-abi.md, "Cooperative launches").
  SH_ASSIGN_OR_RETURN(Allocation * scratch, function->module()->GridBarrierScratch());
  dispatch.grid_barrier_address = scratch->backend->device_address();
  return stream->Record([&](BackendStream* backend) -> absl::Status {
    SH_RETURN_IF_ERROR(
        backend->RecordFill(BufferRange{scratch->backend.get(), 0}, 0, 4, kGridBarrierWords));
    return backend->RecordDispatch(dispatch);
  });
}

namespace {

// Makes `context` current for the scope (the multi-device launches resolve
// each launch's stream and function in that launch's context).
class ScopedCurrentContext {
 public:
  explicit ScopedCurrentContext(Context* context) : pushed_(PushContext(context->handle()).ok()) {}
  ~ScopedCurrentContext() {
    if (pushed_) PopContext(HandleOut(static_cast<void**>(nullptr))).IgnoreError();
  }
  bool ok() const { return pushed_; }

 private:
  bool pushed_;
};

}  // namespace

absl::Status LaunchMultiDevice(const DeviceLaunch* launches, size_t count, unsigned flags,
                               bool cooperative, const char* api) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (launches == nullptr || count == 0) {
    return Error(ErrorCode::kInvalidValue, api, ": the launch list is null or empty");
  }
  const unsigned known = cooperative ? kMultiDeviceNoPreLaunchSync | kMultiDeviceNoPostLaunchSync
                                     : 0x1u;  // hipExtAnyOrderLaunch: no order is promised anyway
  if ((flags & ~known) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown flags 0x", absl::Hex(flags));
  }
  std::vector<Stream*> streams(count);
  std::vector<Context*> contexts(count);
  std::vector<uint64_t> functions(count);
  // Everything is checked before anything is launched.
  for (size_t i = 0; i < count; ++i) {
    const LaunchConfig& config = launches[i].config;
    const uint64_t handle = config.stream;
    if (handle == 0 || handle == kStreamLegacy || handle == kStreamPerThread) {
      return Error(ErrorCode::kInvalidValue, api, ": launch ", i,
                   " uses a null stream; each launch needs a created stream of its device");
    }
    HandleState state;
    Stream* stream = LookupAs<Stream>(handle, &state);
    if (stream == nullptr) {
      return Error(ErrorCode::kInvalidHandle, api, ": launch ", i, ": stream 0x", absl::Hex(handle),
                   state == HandleState::kDestroyed ? " has been destroyed" : " is not a stream");
    }
    for (size_t j = 0; j < i; ++j) {
      if (contexts[j]->device() == stream->context()->device()) {
        return Error(ErrorCode::kInvalidValue, api, ": launches ", j, " and ", i,
                     " are on the same device");
      }
    }
    streams[i] = stream;
    contexts[i] = stream->context();
    ScopedCurrentContext current(contexts[i]);
    if (!current.ok()) return Error(ErrorCode::kInvalidContext, api, ": launch ", i, ": context");
    functions[i] = launches[i].function;
    if (launches[i].host_function != nullptr) {
      SH_ASSIGN_OR_RETURN(functions[i], ResolveRegisteredFunction(launches[i].host_function));
    }
    SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(functions[i]));
    if (function->module()->context()->device() != contexts[i]->device()) {
      return Error(ErrorCode::kInvalidHandle, api, ": launch ", i,
                   ": the function belongs to a module of another device than its stream");
    }
    SH_RETURN_IF_ERROR(ValidateLaunchDimensions(*function, config));
    alignas(16) uint8_t params[kMaxParamBlockBytes];
    SH_RETURN_IF_ERROR(BuildParams(function->info(), config, params));
    if (!cooperative) continue;
    SH_RETURN_IF_ERROR(ValidateCooperativeGrid(*function, config));
    if (i > 0) {
      const LaunchConfig& first = launches[0].config;
      SH_ASSIGN_OR_RETURN(Function * first_function, ResolveFunction(functions[0]));
      if (first_function->info().name != function->info().name ||
          first_function->code_hash() != function->code_hash() || first.grid != config.grid ||
          first.block != config.block || first.shared_bytes != config.shared_bytes) {
        return Error(ErrorCode::kInvalidValue, api, ": launch ", i,
                     " differs from launch 0 in kernel, grid, block or shared memory");
      }
    }
  }
  const bool pre_sync = cooperative && (flags & kMultiDeviceNoPreLaunchSync) == 0;
  const bool post_sync = cooperative && (flags & kMultiDeviceNoPostLaunchSync) == 0;
  if (pre_sync) {
    for (Stream* stream : streams) SH_RETURN_IF_ERROR(stream->Synchronize());
  }
  for (size_t i = 0; i < count; ++i) {
    ScopedCurrentContext current(contexts[i]);
    SH_RETURN_IF_ERROR(LaunchKernelIn(contexts[i], functions[i], launches[i].config, cooperative));
  }
  if (post_sync) {
    for (Stream* stream : streams) SH_RETURN_IF_ERROR(stream->Synchronize());
  }
  return absl::OkStatus();
}

absl::Status LaunchKernelEx(uint64_t function, const LaunchConfig* config,
                            const LaunchAttribute* attributes, unsigned count) {
  constexpr const char* kApi = "cuLaunchKernelEx";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (config == nullptr) return Error(ErrorCode::kInvalidValue, kApi, ": config is null");
  if (count > 0 && attributes == nullptr) {
    return Error(ErrorCode::kInvalidValue, kApi, ": attrs is null but numAttrs is ", count);
  }
  bool cooperative = false;
  uint64_t completion_event = 0;
  for (unsigned i = 0; i < count; ++i) {
    const LaunchAttribute& attribute = attributes[i];
    switch (static_cast<LaunchAttributeId>(attribute.id)) {
      case LaunchAttributeId::kIgnore:
      case LaunchAttributeId::kProgrammaticStreamSerialization:  // permits overlap; none happens
      case LaunchAttributeId::kPriority:          // a scheduling hint; one queue per device
      case LaunchAttributeId::kMemSyncDomainMap:  // every domain is one: fences cover all
        break;
      case LaunchAttributeId::kAccessPolicyWindow: {
        const auto valid_property = [](int property) { return property >= 0 && property <= 2; };
        if (!(attribute.hit_ratio >= 0.0f && attribute.hit_ratio <= 1.0f) ||
            !valid_property(attribute.hit_property) || !valid_property(attribute.miss_property)) {
          return Error(ErrorCode::kInvalidValue, kApi,
                       ": access policy window with an invalid hit ratio or property");
        }
        // CUDA: num_bytes may not exceed
        // CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, which is 0 here
        // (no persisting L2 cache).
        if (attribute.window_bytes > 0) {
          return Error(ErrorCode::kInvalidValue, kApi, ": an access policy window of ",
                       attribute.window_bytes,
                       " bytes exceeds the device's maximum window size of 0");
        }
        break;
      }
      case LaunchAttributeId::kCooperative:
        cooperative = attribute.value != 0;
        break;
      case LaunchAttributeId::kSynchronizationPolicy:
        return Error(ErrorCode::kInvalidValue, kApi,
                     ": CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY applies to streams, not launches");
      case LaunchAttributeId::kClusterDimension: {
        const auto& dim = attribute.cluster_dim;
        if (dim[0] == 0 || dim[1] == 0 || dim[2] == 0) {
          return Error(ErrorCode::kInvalidValue, kApi, ": a cluster dimension is 0");
        }
        // A cluster of one block is every block; larger clusters need
        // CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, which no device has here.
        if (uint64_t{dim[0]} * dim[1] * dim[2] != 1) {
          return Error(ErrorCode::kNotSupported, kApi, ": thread block clusters of ", dim[0], "x",
                       dim[1], "x", dim[2], " blocks are not supported");
        }
        break;
      }
      case LaunchAttributeId::kClusterSchedulingPolicyPreference:
        if (attribute.value < 0 || attribute.value > 2) {
          return Error(ErrorCode::kInvalidValue, kApi, ": unknown cluster scheduling policy ",
                       attribute.value);
        }
        break;
      case LaunchAttributeId::kProgrammaticEvent:
        // CUDA: the event triggers only after every block has triggered it;
        // it is recorded after the kernel, which is later, never earlier.
        // CU_EVENT_RECORD_EXTERNAL is not accepted here.
        if (attribute.event_flags != 0) {
          return Error(ErrorCode::kInvalidValue, kApi, ": programmatic event flags 0x",
                       absl::Hex(attribute.event_flags), " (only 0 is accepted)");
        }
        SH_RETURN_IF_ERROR(ResolveEvent(attribute.event).status());
        completion_event = attribute.event;
        break;
      case LaunchAttributeId::kMemSyncDomain:
        if (attribute.value < 0 || attribute.value > 1) {
          return Error(ErrorCode::kInvalidValue, kApi, ": unknown memory synchronization domain ",
                       attribute.value);
        }
        break;
      default:
        return Error(ErrorCode::kInvalidValue, kApi, ": unknown launch attribute ", attribute.id);
    }
  }
  SH_RETURN_IF_ERROR(cooperative ? LaunchCooperativeKernel(function, *config)
                                 : LaunchKernel(function, *config));
  if (completion_event != 0) SH_RETURN_IF_ERROR(EventRecord(completion_event, config->stream));
  return absl::OkStatus();
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
