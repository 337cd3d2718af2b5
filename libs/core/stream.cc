#include "core/stream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "core/context.h"
#include "core/event.h"
#include "core/handle_retirement.h"
#include "core/ipc.h"
#include "core/log.h"
#include "core/mem_pool.h"
#include "core/memory.h"
#include "core/status.h"
#include "core/stream_capture.h"

namespace streamhal {

Stream::Stream(Context* context, std::unique_ptr<BackendStream> backend, StreamRole role,
               unsigned flags, int priority)
    : Object(kKind),
      context_(context),
      device_(context->device()),
      role_(role),
      flags_(flags),
      priority_(priority),
      backend_(std::move(backend)) {}

namespace {

// The created stream this thread resolved last, for the context it was
// resolved in: valid while no handle has been retired since
// (core/handle_retirement.h), as neither the stream nor that context can
// have gone. A launch or pool call on the same stream as the thread's last
// then skips the handle lookup and the device check.
struct ResolvedStream {
  uint64_t generation;
  const Context* context;
  uint64_t handle;
  Stream* stream;
};
thread_local ResolvedStream t_resolved;

}  // namespace

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
  absl::StatusOr<uint64_t> point = Checked(backend_->Flush());
  settled_point_.store(point.ok() ? *point : kUnsettled, std::memory_order_release);
  return point;
}

absl::Status Stream::Wait(uint64_t point, Completion completion) {
  WaitPolicy policy = context_->wait_policy();
  policy.completion = completion;
  return Wait(point, policy);
}

absl::Status Stream::Synchronize(Completion completion) {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return Wait(point, completion);
}

absl::Status Stream::SynchronizeForHostAccess() {
  std::vector<std::pair<Stream*, uint64_t>> waits;
  SH_RETURN_IF_ERROR(CollectImplicitWaits(&waits));
  // CUDA: a synchronous call on the legacy stream starts after the prior
  // work of every blocking stream (and a blocking stream's after the legacy
  // stream's); the host does the access, so the host waits.
  for (const auto& [other, point] : waits) {
    SH_RETURN_IF_ERROR(other->Wait(point, Completion::kResults));
  }
  return Synchronize(Completion::kResults);
}

absl::StatusOr<bool> Stream::IsIdle() {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return IsComplete(point, Completion::kResults);
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

void Stream::NoteWaited(uint64_t stream, uint64_t point) {
  MutexLock lock(&waited_mutex_);
  uint64_t& waited = waited_points_[stream];
  waited = std::max(waited, point);
}

uint64_t Stream::WaitedPoint(uint64_t stream) const {
  MutexLock lock(&waited_mutex_);
  auto it = waited_points_.find(stream);
  return it == waited_points_.end() ? 0 : it->second;
}

absl::StatusOr<Stream*> ResolveStream(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  return ResolveStream(context, handle);
}

absl::StatusOr<Stream*> ResolveStream(Context* context, uint64_t handle) {
  if (handle == 0 || handle == kStreamLegacy) return context->DefaultStream();
  if (handle == kStreamPerThread) return context->PerThreadStream();
  const uint64_t generation = HandleRetirements();
  if (t_resolved.handle == handle && t_resolved.context == context &&
      t_resolved.generation == generation) {
    return t_resolved.stream;
  }
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
  t_resolved = ResolvedStream{generation, context, handle, stream};
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
  if (device == nullptr)
    return Error(ErrorCode::kInvalidValue,
                 "cuStreamGetDevice / hipStreamGetDevice: device is null");
  *device = stream->context()->device()->ordinal();
  return absl::OkStatus();
}

absl::Status StreamGetId(uint64_t handle, unsigned long long* id) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (id == nullptr) return Error(ErrorCode::kInvalidValue, "cuStreamGetId: streamId is null");
  *id = stream->unique_id();
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
  absl::Status status = stream->role() == StreamRole::kLegacy
                            ? stream->SynchronizeForHostAccess()
                            : stream->Synchronize(Completion::kResults);
  MemPoolsSynchronized();
  return status;
}

namespace {

struct IpcWait {
  std::shared_ptr<IpcEventState> state;
  uint64_t sequence;
};

// An interprocess event's newest record at the call, whichever process made
// it: the stream's later work starts once it completes. Like
// cuStreamWaitValue64, a host function of the stream polls the shared
// counter (design decision 16).
absl::Status WaitIpcEvent(Stream* stream, const std::shared_ptr<IpcEventState>& ipc) {
  const uint64_t sequence = ipc->recorded();
  if (ipc->Done(sequence)) return absl::OkStatus();
  auto* wait = new IpcWait{ipc, sequence};
  absl::Status recorded = stream->Record([&](BackendStream* backend) {
    return backend->RecordHostFunction(
        [](void* raw) {
          auto* w = static_cast<IpcWait*>(raw);
          w->state->WaitFor(w->sequence);
          delete w;
        },
        wait);
  });
  if (!recorded.ok()) delete wait;
  return recorded;
}

}  // namespace

absl::Status StreamWaitEvent(uint64_t stream_handle, uint64_t event_handle, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(event_handle));
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuStreamWaitEvent: Flags must be 0");
  if (stream->capture() != nullptr || EventIsCaptured(*event)) {
    return CaptureEventWait(stream, event);
  }
  if (const auto& ipc = event->ipc(); ipc != nullptr) return WaitIpcEvent(stream, ipc);
  std::optional<Event::Record> record = event->last();
  if (!record.has_value()) return absl::OkStatus();  // never recorded: nothing to wait for
  Stream* source = LookupAs<Stream>(record->stream);
  if (source == nullptr || source == stream) return absl::OkStatus();  // finished, or in order
  SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
    return backend->RecordWait(source->backend(), record->point);
  }));
  stream->NoteWaited(record->stream, record->point);
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

// --- Stream memory operations ---

bool MemOpWaitHolds(const StreamMemOp& op, uint64_t word, MemOpApi api) {
  const bool wide = op.operation == kMemOpWaitValue64;
  const uint64_t bits = wide ? ~uint64_t{0} : uint64_t{0xFFFFFFFF};
  const uint64_t mask = (api == MemOpApi::kHip ? op.mask : ~uint64_t{0}) & bits;
  const uint64_t value = op.value & bits;
  word &= bits;
  switch (op.flags & ~kWaitValueFlush) {
    case kWaitValueGeq:
      if (api == MemOpApi::kHip) return (word & mask) >= value;
      // CUDA: (int32_t)(*addr - value) >= 0, a greater-or-equal that
      // survives wraparound.
      return wide ? static_cast<int64_t>(word - value) >= 0
                  : static_cast<int32_t>(static_cast<uint32_t>(word - value)) >= 0;
    case kWaitValueEq:
      return (word & mask) == value;
    case kWaitValueAnd:
      return (word & mask & value) != 0;
    case kWaitValueNor:
      return (~(word | value) & mask) != 0;
    default:
      return false;
  }
}

namespace {

// The entry point an operation came through, for messages.
const char* MemOpName(int operation, MemOpApi api) {
  const bool cuda = api == MemOpApi::kCuda;
  switch (operation) {
    case kMemOpWaitValue32:
      return cuda ? "cuStreamWaitValue32" : "hipStreamWaitValue32";
    case kMemOpWaitValue64:
      return cuda ? "cuStreamWaitValue64" : "hipStreamWaitValue64";
    case kMemOpWriteValue32:
      return cuda ? "cuStreamWriteValue32" : "hipStreamWriteValue32";
    case kMemOpWriteValue64:
      return cuda ? "cuStreamWriteValue64" : "hipStreamWriteValue64";
    default:
      return cuda ? "cuStreamBatchMemOp" : "hipStreamBatchMemOp";
  }
}

// A validated operation, ready to record.
struct PreparedMemOp {
  StreamMemOp op;
  BufferRange range;           // the word (waits and writes)
  const void* word = nullptr;  // the word's host mapping (waits)
};

bool IsWait(int operation) {
  return operation == kMemOpWaitValue32 || operation == kMemOpWaitValue64;
}
unsigned WidthOf(int operation) {
  return operation == kMemOpWaitValue64 || operation == kMemOpWriteValue64 ? 8 : 4;
}

absl::StatusOr<PreparedMemOp> PrepareMemOp(const Stream& stream, const StreamMemOp& op,
                                           MemOpApi api, const char* where) {
  const bool cuda = api == MemOpApi::kCuda;
  PreparedMemOp prepared{op, {}, nullptr};
  switch (op.operation) {
    case kMemOpWaitValue32:
    case kMemOpWaitValue64: {
      // CUDA_ERROR_INVALID_VALUE / hipErrorInvalidValue for an unknown
      // condition; only CUDA has the flush bit.
      const unsigned condition = op.flags & (cuda ? ~kWaitValueFlush : ~0u);
      if (condition > kWaitValueNor) {
        return Error(ErrorCode::kInvalidValue, where, ": unknown wait flags 0x",
                     absl::Hex(op.flags));
      }
      break;
    }
    case kMemOpWriteValue32:
    case kMemOpWriteValue64: {
      // CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER only allows the write to
      // pass earlier writes; every write here is ordered, which honours it.
      // HIP defines no write flags.
      const unsigned known = cuda ? kWriteValueNoMemoryBarrier : 0u;
      if ((op.flags & ~known) != 0) {
        return Error(ErrorCode::kInvalidValue, where, ": unknown write flags 0x",
                     absl::Hex(op.flags));
      }
      break;
    }
    case kMemOpBarrier:
      if (op.flags != kMemoryBarrierSystem && op.flags != kMemoryBarrierDevice) {
        return Error(ErrorCode::kInvalidValue, where, ": unknown memory barrier flags 0x",
                     absl::Hex(op.flags));
      }
      return prepared;
    case kMemOpFlushRemoteWrites:
      if (op.flags != 0) {
        return Error(ErrorCode::kInvalidValue, where, ": flush flags must be 0");
      }
      return prepared;
    default:
      return Error(ErrorCode::kInvalidValue, where, ": unknown operation ", op.operation);
  }
  const unsigned width = WidthOf(op.operation);
  if (op.address % width != 0) {
    return Error(ErrorCode::kInvalidValue, where, ": address 0x", absl::Hex(op.address),
                 " is not aligned to ", width, " bytes");
  }
  // A device address, or (as under unified addressing) the host address of
  // page-locked memory.
  ResolvedPointer resolved = ResolveAnyRange(op.address, width);
  if (resolved.allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, where, ": [0x", absl::Hex(op.address), ", +", width,
                 ") is not inside any live allocation");
  }
  if (resolved.allocation->context->device() != stream.context()->device()) {
    return Error(ErrorCode::kInvalidValue, where, ": 0x", absl::Hex(op.address),
                 " is memory of another device than the stream's");
  }
  BackendAllocation* backend = resolved.allocation->backend.get();
  prepared.range = BufferRange{backend, resolved.offset};
  if (IsWait(op.operation)) {
    if (backend->host_pointer() == nullptr) {
      return Error(ErrorCode::kNotSupported, where, ": the memory at 0x", absl::Hex(op.address),
                   " is device memory the host cannot map; wait on page-locked host memory");
    }
    prepared.word = static_cast<const uint8_t*>(backend->host_pointer()) + resolved.offset;
  }
  return prepared;
}

// What a wait's host function needs; it owns itself and is deleted when the
// condition holds.
struct PendingWait {
  StreamMemOp op;
  const void* word;
  MemOpApi api;
};

uint64_t LoadWord(const void* word, bool wide) {
  // The word is written by the host or by the device through coherent
  // memory; acquire orders what later work reads after it.
  if (wide) {
    return std::atomic_ref<const uint64_t>(*static_cast<const uint64_t*>(word))
        .load(std::memory_order_acquire);
  }
  return std::atomic_ref<const uint32_t>(*static_cast<const uint32_t*>(word))
      .load(std::memory_order_acquire);
}

// Runs on the stream's host-function thread: returns once the condition
// holds, so the stream's later work starts then. Polls briefly, then sleeps
// between polls (at most 1 ms late), so a long wait costs no processor.
void PollUntilHolds(void* raw) {
  auto* wait = static_cast<PendingWait*>(raw);
  const bool wide = wait->op.operation == kMemOpWaitValue64;
  int polls = 0;
  auto pause = std::chrono::microseconds(10);
  while (!MemOpWaitHolds(wait->op, LoadWord(wait->word, wide), wait->api)) {
    if (++polls < 64) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
  delete wait;
}

void FlushPoint(void* /*unused*/) {}

// Records validated operations in order, under one hold of the stream's
// lock, and submits them.
absl::Status RecordMemOps(Stream* stream, const std::vector<PreparedMemOp>& ops, MemOpApi api) {
  absl::Status recorded = stream->Record([&](BackendStream* backend) -> absl::Status {
    for (const PreparedMemOp& prepared : ops) {
      const StreamMemOp& op = prepared.op;
      if (op.operation == kMemOpWriteValue32) {
        SH_RETURN_IF_ERROR(
            backend->RecordFill(prepared.range, static_cast<uint32_t>(op.value), 4, 1));
      } else if (op.operation == kMemOpWriteValue64) {
        // The value is known now, so an upload reads it at once.
        const uint64_t value = op.value;
        SH_RETURN_IF_ERROR(backend->RecordUpload(prepared.range, &value, sizeof(value)));
      } else if (IsWait(op.operation)) {
        // CUDA's flush bit needs nothing more: work after a host function
        // sees every write the host saw before it returned.
        auto* wait = new PendingWait{op, prepared.word, api};
        absl::Status scheduled = backend->RecordHostFunction(&PollUntilHolds, wait);
        if (!scheduled.ok()) {
          delete wait;
          return scheduled;
        }
      } else if (op.operation == kMemOpFlushRemoteWrites) {
        // Likewise: a host point makes what reached memory visible to the
        // work after it.
        SH_RETURN_IF_ERROR(backend->RecordHostFunction(&FlushPoint, nullptr));
      }
      // kMemOpBarrier: work on a stream is ordered with full memory
      // dependencies already.
    }
    return absl::OkStatus();
  });
  if (!recorded.ok()) return recorded;
  // Submitted now, so that a waiter on another stream or the host sees a
  // write without anyone synchronising this stream.
  return stream->Flush().status();
}

absl::Status RunMemOps(uint64_t stream_handle, const StreamMemOp* ops, unsigned count, MemOpApi api,
                       const char* where) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  std::vector<PreparedMemOp> prepared;
  prepared.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(PreparedMemOp op, PrepareMemOp(*stream, ops[i], api, where));
    prepared.push_back(op);
  }
  return RecordMemOps(stream, prepared, api);
}

}  // namespace

absl::Status StreamWaitValue(uint64_t stream, uint64_t address, uint64_t value, uint64_t mask,
                             unsigned flags, unsigned width, MemOpApi api) {
  const StreamMemOp op{width == 8 ? kMemOpWaitValue64 : kMemOpWaitValue32, address, value, mask,
                       flags};
  return RunMemOps(stream, &op, 1, api, MemOpName(op.operation, api));
}

absl::Status StreamWriteValue(uint64_t stream, uint64_t address, uint64_t value, unsigned flags,
                              unsigned width, MemOpApi api) {
  const StreamMemOp op{width == 8 ? kMemOpWriteValue64 : kMemOpWriteValue32, address, value,
                       ~uint64_t{0}, flags};
  return RunMemOps(stream, &op, 1, api, MemOpName(op.operation, api));
}

absl::Status StreamBatchMemOp(uint64_t stream, unsigned count, const void* params,
                              absl::FunctionRef<StreamMemOp(unsigned index)> read, unsigned flags,
                              MemOpApi api) {
  const char* where = MemOpName(0, api);
  SH_RETURN_IF_ERROR(ResolveStream(stream).status());
  // CUDA documents "less than 256" operations; AMD's runtime takes 256.
  const unsigned limit = api == MemOpApi::kCuda ? 255 : 256;
  if (count == 0 || count > limit) {
    return Error(ErrorCode::kInvalidValue, where, ": count ", count, " is not in [1, ", limit, "]");
  }
  if (params == nullptr) return Error(ErrorCode::kInvalidValue, where, ": paramArray is null");
  if (flags != 0) return Error(ErrorCode::kInvalidValue, where, ": flags must be 0");
  std::vector<StreamMemOp> ops;
  ops.reserve(count);
  for (unsigned i = 0; i < count; ++i) ops.push_back(read(i));
  return RunMemOps(stream, ops.data(), count, api, where);
}

}  // namespace streamhal
