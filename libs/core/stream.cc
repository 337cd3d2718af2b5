#include "core/stream.h"

#include "core/context.h"
#include "core/log.h"
#include "core/status.h"

namespace streamhal {

Stream::Stream(Context* context, std::unique_ptr<BackendStream> backend, unsigned flags,
               int priority)
    : Object(kKind), context_(context), flags_(flags), priority_(priority),
      backend_(std::move(backend)) {}

Stream::~Stream() {
  // CUDA: destroying a stream with pending work lets the work complete.
  absl::Status status = Synchronize();
  if (!status.ok()) Log(LogLevel::kWarning, "stream teardown: ", status.message());
}

absl::StatusOr<uint64_t> Stream::Flush() {
  absl::MutexLock lock(&mutex_);
  return backend_->Flush();
}

absl::Status Stream::Synchronize() {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return backend_->Wait(point);
}

absl::StatusOr<bool> Stream::IsIdle() {
  SH_ASSIGN_OR_RETURN(uint64_t point, Flush());
  return backend_->IsComplete(point);
}

absl::StatusOr<Stream*> ResolveStream(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (handle == 0 || handle == kStreamLegacy || handle == kStreamPerThread) {
    return context->DefaultStream();
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
  return stream;
}

}  // namespace streamhal
