#include "core/event.h"

#include <memory>

#include "core/context.h"
#include "core/ipc.h"
#include "core/mem_pool.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"

namespace streamhal {
namespace {

// Whether the recorded point is reached (the work's results are in memory).
// A stream that has been destroyed finished its work first (CUDA), so its
// events are complete.
absl::StatusOr<bool> IsComplete(const Event::Record& record) {
  Stream* stream = LookupAs<Stream>(record.stream);
  if (stream == nullptr) return true;
  return stream->IsComplete(record.point, Completion::kResults);
}

}  // namespace

absl::StatusOr<uint64_t> Event::TimestampNs() {
  MutexLock lock(&mutex_);
  if (!record_.has_value() || !record_->timestamp_id.has_value()) {
    return Error(ErrorCode::kInvalidHandle, "the event has no timestamp");
  }
  if (!record_->timestamp_ns.has_value()) {
    Stream* stream = LookupAs<Stream>(record_->stream);
    if (stream == nullptr) {
      return Error(ErrorCode::kInvalidHandle,
                   "the event's stream was destroyed before its time was read");
    }
    SH_ASSIGN_OR_RETURN(uint64_t ns, stream->backend()->ReadTimestamp(*record_->timestamp_id));
    record_->timestamp_ns = ns;
  }
  return *record_->timestamp_ns;
}

absl::StatusOr<Event*> ResolveEvent(uint64_t handle) {
  HandleState state;
  Event* event = LookupAs<Event>(handle, &state);
  if (event == nullptr) {
    return Error(ErrorCode::kInvalidHandle, "event 0x", absl::Hex(handle),
                 HandleProblem(state, " is not an event", " has been destroyed"));
  }
  return event;
}

namespace {

struct IpcCompletion {
  std::shared_ptr<IpcEventState> state;
  uint64_t sequence;
};

// A host function after the recorded work: the record has completed.
void CompleteIpcRecord(void* raw) {
  auto* completion = static_cast<IpcCompletion*>(raw);
  completion->state->Complete(completion->sequence);
  delete completion;
}

// An interprocess event's record: a new sequence number, completed by a host
// function that runs once the stream's earlier work is done.
absl::Status RecordIpcEvent(Event* event, Stream* stream, Event::Record record) {
  const std::shared_ptr<IpcEventState>& ipc = event->ipc();
  const uint64_t sequence = ipc->BeginRecord();
  auto* completion = new IpcCompletion{ipc, sequence};
  absl::Status recorded = stream->Record([&](BackendStream* backend) -> absl::Status {
    return backend->RecordHostFunction(&CompleteIpcRecord, completion);
  });
  if (!recorded.ok()) {
    // Nobody may wait forever for a record that never happens.
    ipc->Complete(sequence);
    delete completion;
    return recorded;
  }
  SH_ASSIGN_OR_RETURN(record.point, stream->Flush());
  event->set_record(record);
  event->set_captured(std::nullopt);
  return absl::OkStatus();
}

}  // namespace

absl::Status EventCreate(HandleOut out, unsigned flags, Api api) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuEventCreate: phEvent is null");
  constexpr unsigned kRelease = kEventReleaseToDevice | kEventReleaseToSystem;
  const unsigned known = kEventBlockingSync | kEventDisableTiming | kEventInterprocess |
                         (api == Api::kHip ? kRelease | kEventDisableSystemFence : 0u);
  if ((flags & ~known) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuEventCreate: unknown flags 0x", absl::Hex(flags));
  }
  if ((flags & kRelease) == kRelease) {
    return Error(ErrorCode::kInvalidValue,
                 "hipEventCreateWithFlags: ReleaseToDevice and ReleaseToSystem are exclusive");
  }
  std::shared_ptr<IpcEventState> ipc;
  if ((flags & kEventInterprocess) != 0) {
    // CUDA: an interprocess event must not be timed.
    if ((flags & kEventDisableTiming) == 0) {
      return Error(ErrorCode::kInvalidValue,
                   "cuEventCreate: CU_EVENT_INTERPROCESS needs CU_EVENT_DISABLE_TIMING");
    }
    SH_ASSIGN_OR_RETURN(ipc, IpcEventState::Create());
  }
  auto event = std::make_unique<Event>(context, flags);
  event->set_ipc(std::move(ipc));
  out.Set(event->handle());
  context->Adopt(std::move(event));
  return absl::OkStatus();
}

absl::Status EventDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(handle));
  // CUDA: destroying an event whose work is pending returns at once; the
  // stream keeps going.
  event->context()->Destroy(event);
  return absl::OkStatus();
}

absl::Status EventRecordWithFlags(uint64_t handle, uint64_t stream_handle, unsigned flags) {
  if ((flags & ~kEventRecordExternal) != 0) {
    SH_RETURN_IF_ERROR(CurrentContext().status());
    return Error(ErrorCode::kInvalidValue, "cuEventRecordWithFlags: unknown flags 0x",
                 absl::Hex(flags));
  }
  if (flags == kEventRecordExternal) {
    SH_RETURN_IF_ERROR(CurrentContext().status());
    SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(handle));
    SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
    if (stream->context() != event->context()) {
      return Error(ErrorCode::kInvalidHandle,
                   "cuEventRecordWithFlags: the event and the stream belong to different "
                   "contexts");
    }
    if (stream->capture() != nullptr) {
      if (event->ipc() != nullptr) {
        return Error(ErrorCode::kStreamCaptureUnsupported,
                     "cuEventRecordWithFlags: interprocess events cannot be recorded in a "
                     "capture");
      }
      return CaptureExternalEventRecord(stream, handle);
    }
  }
  return EventRecord(handle, stream_handle);
}

absl::Status EventRecord(uint64_t handle, uint64_t stream_handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(handle));
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (stream->context() != event->context()) {
    return Error(ErrorCode::kInvalidHandle,
                 "cuEventRecord: the event and the stream belong to different contexts");
  }
  if (stream->capture() != nullptr) {
    if (event->ipc() != nullptr) {
      return Error(ErrorCode::kStreamCaptureUnsupported,
                   "cuEventRecord: interprocess events cannot be recorded in a capture");
    }
    return CaptureEventRecord(stream, event);
  }
  Event::Record record;
  record.stream = stream->handle();
  if (event->ipc() != nullptr) return RecordIpcEvent(event, stream, record);
  if (event->timing()) {
    SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) -> absl::Status {
      SH_ASSIGN_OR_RETURN(uint64_t id, backend->RecordTimestamp());
      record.timestamp_id = id;
      return absl::OkStatus();
    }));
  } else {
    // Still take part in the legacy-stream ordering, with no command.
    SH_RETURN_IF_ERROR(stream->Record([](BackendStream*) { return absl::OkStatus(); }));
  }
  // Submitting makes the point exist, so other streams can wait on it.
  SH_ASSIGN_OR_RETURN(record.point, stream->Flush());
  event->set_record(record);
  event->set_captured(std::nullopt);
  return absl::OkStatus();
}

absl::Status EventQuery(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(handle));
  // Records of any process count: the newest one at this call.
  if (const auto& ipc = event->ipc(); ipc != nullptr) {
    if (!ipc->Done(ipc->recorded())) {
      return Error(ErrorCode::kNotReady, "the event has not completed yet");
    }
    return absl::OkStatus();
  }
  if (EventIsCaptured(*event)) {
    return Error(ErrorCode::kCapturedEvent, "cuEventQuery: the event was recorded in a capture");
  }
  std::optional<Event::Record> record = event->last();
  if (!record.has_value()) return absl::OkStatus();
  SH_ASSIGN_OR_RETURN(bool complete, IsComplete(*record));
  if (!complete) return Error(ErrorCode::kNotReady, "the event has not completed yet");
  return absl::OkStatus();
}

absl::Status EventSynchronize(uint64_t handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(handle));
  if (const auto& ipc = event->ipc(); ipc != nullptr) {
    ipc->WaitFor(ipc->recorded());
    return absl::OkStatus();
  }
  if (EventIsCaptured(*event)) {
    return Error(ErrorCode::kCapturedEvent,
                 "cuEventSynchronize: the event was recorded in a capture");
  }
  std::optional<Event::Record> record = event->last();
  if (!record.has_value()) return absl::OkStatus();
  Stream* stream = LookupAs<Stream>(record->stream);
  if (stream == nullptr) return absl::OkStatus();
  // CUDA: a CU_EVENT_BLOCKING_SYNC event makes the waiting thread sleep;
  // other events follow the scheduling flags of the event's context.
  WaitPolicy policy = (event->flags() & kEventBlockingSync) != 0 ? BlockingWaitPolicy()
                                                                 : event->context()->wait_policy();
  policy.completion = Completion::kResults;
  SH_RETURN_IF_ERROR(stream->Wait(record->point, policy));
  MemPoolsSynchronized();
  return absl::OkStatus();
}

absl::Status EventElapsedTime(float* ms, uint64_t start_handle, uint64_t end_handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (ms == nullptr)
    return Error(ErrorCode::kInvalidValue, "cuEventElapsedTime: pMilliseconds is null");
  SH_ASSIGN_OR_RETURN(Event * start, ResolveEvent(start_handle));
  SH_ASSIGN_OR_RETURN(Event * end, ResolveEvent(end_handle));
  if (!start->timing() || !end->timing()) {
    return Error(ErrorCode::kInvalidHandle,
                 "cuEventElapsedTime: an event was created with CU_EVENT_DISABLE_TIMING");
  }
  std::optional<Event::Record> start_record = start->last();
  std::optional<Event::Record> end_record = end->last();
  if (!start_record.has_value() || !end_record.has_value()) {
    return Error(ErrorCode::kInvalidHandle, "cuEventElapsedTime: an event was never recorded");
  }
  SH_ASSIGN_OR_RETURN(bool start_done, IsComplete(*start_record));
  SH_ASSIGN_OR_RETURN(bool end_done, IsComplete(*end_record));
  if (!start_done || !end_done) {
    return Error(ErrorCode::kNotReady, "cuEventElapsedTime: an event has not completed yet");
  }
  SH_ASSIGN_OR_RETURN(uint64_t t0, start->TimestampNs());
  SH_ASSIGN_OR_RETURN(uint64_t t1, end->TimestampNs());
  *ms = static_cast<float>((static_cast<double>(t1) - static_cast<double>(t0)) / 1e6);
  return absl::OkStatus();
}

}  // namespace streamhal
