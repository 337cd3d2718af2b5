#include "core/stream.h"

#include <algorithm>

#include "core/context.h"
#include "core/event.h"
#include "core/log.h"
#include "core/status.h"
#include "core/stream_capture.h"

namespace streamhal {

Stream::Stream(Context* context, std::unique_ptr<BackendStream> backend, StreamRole role,
               unsigned flags, int priority)
    : Object(kKind),
      context_(context),
      role_(role),
      flags_(flags),
      priority_(priority),
      backend_(std::move(backend)) {}

Stream::~Stream() {
  LeaveCapture(this);
  // CUDA: destroying a stream with pending work lets the work complete.
  absl::Status status = Synchronize();
  if (!status.ok()) Log(LogLevel::kWarning, "stream teardown: ", status.message());
}

absl::Status Stream::CollectImplicitWaits(std::vector<std::pair<Stream*, uint64_t>>* waits) {
  if (role_ == StreamRole::kNonBlocking) return absl::OkStatus();
  if (role_ == StreamRole::kBlocking) {
    // Fast path for launches: one atomic load when the legacy stream has no
    // new work.
    Stream* legacy = context_->LegacyStreamIfCreated();
    if (legacy == nullptr) return absl::OkStatus();
    const uint64_t count = legacy->work_count_.load(std::memory_order_acquire);
    MutexLock lock(&seen_mutex_);
    if (count == seen_legacy_count_) return absl::OkStatus();
    SH_ASSIGN_OR_RETURN(uint64_t point, legacy->Flush());
    waits->emplace_back(legacy, point);
    seen_legacy_count_ = count;
    return absl::OkStatus();
  }
  // The legacy stream waits for every blocking stream's new work.
  if (context_->blocking_stream_count() == 0) return absl::OkStatus();
  ReaderMutexLock alive(context_->stream_lifetime_mutex());
  for (Stream* other : context_->BlockingStreams()) {
    if (other->capture() != nullptr) SH_RETURN_IF_ERROR(CaptureImplicitSync(other));
    const uint64_t count = other->work_count_.load(std::memory_order_acquire);
    MutexLock lock(&seen_mutex_);
    uint64_t& seen = seen_counts_[other];
    if (count == seen) continue;
    SH_ASSIGN_OR_RETURN(uint64_t point, other->Flush());
    waits->emplace_back(other, point);
    seen = count;
  }
  return absl::OkStatus();
}

void Stream::CheckedFailure(const absl::Status& error) {
  if (ErrorCodeOf(error) == ErrorCode::kLaunchFailed) context_->MarkLost(error);
}

absl::StatusOr<uint64_t> Stream::Flush() {
  MutexLock lock(&mutex_);
  return Checked(backend_->Flush());
}

absl::Status Stream::Wait(uint64_t point) { return Wait(point, context_->wait_policy()); }

absl::Status Stream::Synchronize() {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return Wait(point);
}

absl::Status Stream::SynchronizeForHostAccess() {
  std::vector<std::pair<Stream*, uint64_t>> waits;
  SH_RETURN_IF_ERROR(CollectImplicitWaits(&waits));
  // CUDA: a synchronous call on the legacy stream starts after the prior
  // work of every blocking stream (and a blocking stream's after the legacy
  // stream's); the host does the access, so the host waits.
  for (const auto& [other, point] : waits) SH_RETURN_IF_ERROR(other->Wait(point));
  return Synchronize();
}

absl::StatusOr<bool> Stream::IsIdle() {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return IsComplete(point);
}

absl::StatusOr<bool> Stream::IsIdleForHost() {
  if (role_ == StreamRole::kLegacy && context_->blocking_stream_count() > 0) {
    // Read-only: the legacy stream's record of what it has waited for stays
    // as it is, since nothing waits here.
    ReaderMutexLock alive(context_->stream_lifetime_mutex());
    for (Stream* other : context_->BlockingStreams()) {
      SH_ASSIGN_OR_RETURN(bool idle, other->IsIdle());
      if (!idle) return false;
    }
  }
  return IsIdle();
}

absl::StatusOr<Stream*> ResolveStream(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (handle == 0 || handle == kStreamLegacy) return context->DefaultStream();
  if (handle == kStreamPerThread) return context->PerThreadStream();
  HandleState state;
  Stream* stream = LookupAs<Stream>(handle, &state);
  if (stream == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "stream 0x", absl::Hex(handle),
                 state == HandleState::kDestroyed ? " has been destroyed" : " is not a stream");
  }
  if (stream->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidHandle, "stream 0x", absl::Hex(handle),
                 " belongs to another device than the current context");
  }
  return stream;
}

absl::Status StreamCreate(HandleOut out, unsigned flags, int priority) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuStreamCreate: phStream is null");
  if ((flags & ~kStreamNonBlocking) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuStreamCreate: unknown flags 0x", absl::Hex(flags));
  }
  int least = 0, greatest = 0;
  SH_RETURN_IF_ERROR(GetStreamPriorityRange(&least, &greatest));
  // CUDA clamps priorities outside the range instead of failing.
  priority = std::clamp(priority, greatest, least);
  SH_ASSIGN_OR_RETURN(Stream * stream, context->CreateStream(flags, priority));
  out.Set(stream->handle());
  return absl::OkStatus();
}

absl::Status StreamCreateWithCuMask(HandleOut out, uint32_t mask_words, const uint32_t* mask) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null() || mask == nullptr || mask_words == 0) {
    return Error(
        ErrorCode::kInvalidValue,
        "hipExtStreamCreateWithCUMask: stream and cuMask must not be null, cuMaskSize not 0");
  }
  if (std::all_of(mask, mask + mask_words, [](uint32_t word) { return word == 0; })) {
    return Error(ErrorCode::kInvalidValue, "hipExtStreamCreateWithCUMask: the mask names no unit");
  }
  SH_ASSIGN_OR_RETURN(Stream * stream, context->CreateStream(0, 0));
  stream->cu_mask_.assign(mask, mask + mask_words);
  out.Set(stream->handle());
  return absl::OkStatus();
}

absl::Status StreamGetCuMask(uint64_t handle, uint32_t mask_words, uint32_t* mask) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (mask == nullptr || mask_words == 0) {
    return Error(ErrorCode::kInvalidValue,
                 "hipExtStreamGetCUMask: cuMask must not be null, cuMaskSize not 0");
  }
  std::fill(mask, mask + mask_words, 0u);
  const std::vector<uint32_t>& given = stream->cu_mask();
  if (!given.empty()) {
    std::copy_n(given.begin(), std::min<size_t>(given.size(), mask_words), mask);
    return absl::OkStatus();
  }
  const int units = stream->context()->device()->properties().multiprocessor_count;
  for (int unit = 0; unit < units && unit / 32 < static_cast<int>(mask_words); ++unit) {
    mask[unit / 32] |= 1u << (unit % 32);
  }
  return absl::OkStatus();
}

namespace {

// A created stream (not a default stream), for calls that need one.
absl::StatusOr<Stream*> ResolveCreatedStream(uint64_t handle, const char* api) {
  if (handle == 0 || handle == kStreamLegacy || handle == kStreamPerThread) {
    return Error(ErrorCode::kInvalidHandle, api, ": a default stream cannot be destroyed");
  }
  return ResolveStream(handle);
}

}  // namespace

absl::Status StreamDestroy(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveCreatedStream(handle, "cuStreamDestroy"));
  stream->context()->Destroy(stream);
  return absl::OkStatus();
}

absl::Status StreamGetPriority(uint64_t handle, int* priority) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (priority == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamGetPriority: null");
  *priority = stream->priority();
  return absl::OkStatus();
}

absl::Status StreamGetFlags(uint64_t handle, unsigned* flags) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (flags == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamGetFlags: null");
  *flags = stream->flags();
  return absl::OkStatus();
}

absl::Status StreamGetContext(uint64_t handle, HandleOut out) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuStreamGetCtx: pctx is null");
  out.Set(stream->context()->handle());
  return absl::OkStatus();
}

absl::Status StreamGetDevice(uint64_t handle, int* device) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (device == nullptr) return Error(ErrorCode::kInvalidValue, "hipStreamGetDevice: null");
  *device = stream->context()->device()->ordinal();
  return absl::OkStatus();
}

absl::Status StreamQuery(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (stream->capture() != nullptr) return CaptureForbidden(stream, "cuStreamQuery");
  SH_ASSIGN_OR_RETURN(bool idle, stream->IsIdleForHost());
  if (!idle) return Error(ErrorCode::kNotReady, "the stream has pending work");
  return absl::OkStatus();
}

absl::Status StreamSynchronize(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (stream->capture() != nullptr) return CaptureForbidden(stream, "cuStreamSynchronize");
  // The null stream covers the blocking streams' earlier work (CUDA's
  // legacy stream, HIP's null stream): the host waits for what a command on
  // it would wait for.
  if (stream->role() == StreamRole::kLegacy) return stream->SynchronizeForHostAccess();
  return stream->Synchronize();
}

absl::Status StreamWaitEvent(uint64_t stream_handle, uint64_t event_handle, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(event_handle));
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuStreamWaitEvent: Flags must be 0");
  if (stream->capture() != nullptr || EventIsCaptured(*event)) {
    return CaptureEventWait(stream, event);
  }
  std::optional<Event::Record> record = event->last();
  if (!record.has_value()) return absl::OkStatus();  // never recorded: nothing to wait for
  Stream* source = LookupAs<Stream>(record->stream);
  if (source == nullptr || source == stream) return absl::OkStatus();  // finished, or in order
  return stream->Record([&](BackendStream* backend) {
    return backend->RecordWait(source->backend(), record->point);
  });
}

absl::Status StreamCopyAttributes(uint64_t dst, uint64_t src) {
  SH_RETURN_IF_ERROR(ResolveStream(dst).status());
  SH_RETURN_IF_ERROR(ResolveStream(src).status());
  // The attributes CUDA copies (access policy window, synchronisation
  // policy) have no Vulkan counterpart; streams carry none to copy.
  return absl::OkStatus();
}

absl::Status LaunchHostFunc(uint64_t handle, void (*fn)(void*), void* data) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (fn == nullptr) return Error(ErrorCode::kInvalidValue, "cuLaunchHostFunc: fn is null");
  if (stream->capture() != nullptr) return CaptureHostFunction(stream, fn, data);
  return stream->Record(
      [&](BackendStream* backend) { return backend->RecordHostFunction(fn, data); });
}

absl::Status StreamAddCallback(uint64_t handle, unsigned flags, StreamCallback callback,
                               void* data) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (callback == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamAddCallback: null");
  // The callback's bookkeeping is freed when it runs once; a graph would run
  // it at every launch. CUDA points capture users to cuLaunchHostFunc.
  if (stream->capture() != nullptr) {
    return CaptureForbidden(stream, "cuStreamAddCallback (use cuLaunchHostFunc)");
  }
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuStreamAddCallback: flags must be 0");
  struct Pending {
    StreamCallback callback;
    uint64_t stream;
    void* data;
  };
  auto* pending = new Pending{callback, handle, data};
  absl::Status status = LaunchHostFunc(
      handle,
      [](void* raw) {
        auto* p = static_cast<Pending*>(raw);
        p->callback(p->stream, p->data);
        delete p;
      },
      pending);
  if (!status.ok()) delete pending;  // never scheduled
  return status;
}

}  // namespace streamhal
