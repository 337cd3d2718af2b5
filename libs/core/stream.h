// Streams: ordered queues of work in a context. This file holds the core
// object and handle resolution; the backend records and submits.
#ifndef STREAMHAL_CORE_STREAM_H_
#define STREAMHAL_CORE_STREAM_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "core/backend.h"
#include "core/handle.h"

namespace streamhal {

class Context;

// The special stream handles (CUDA's values; HIP uses 0 and 2 as well).
inline constexpr uint64_t kStreamLegacy = 0x1;
inline constexpr uint64_t kStreamPerThread = 0x2;

// Stream creation flags.
inline constexpr unsigned kStreamDefault = 0x0;
inline constexpr unsigned kStreamNonBlocking = 0x1;

class Stream : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kStream;

  Stream(Context* context, std::unique_ptr<BackendStream> backend, unsigned flags, int priority);
  ~Stream() override;

  Context* context() const { return context_; }
  unsigned flags() const { return flags_; }
  int priority() const { return priority_; }

  // Runs `record` on the backend stream with the stream's lock held, so
  // several host threads may use one stream.
  template <typename Fn>
  absl::Status Record(Fn&& record) {
    absl::MutexLock lock(&mutex_);
    return record(backend_.get());
  }
  // Submits recorded work; returns the point that completes it.
  absl::StatusOr<uint64_t> Flush();
  // Flushes, then waits for everything submitted so far (without holding the
  // stream lock while waiting).
  absl::Status Synchronize();
  // Flushes, then reports whether everything submitted has finished
  // (cuStreamQuery).
  absl::StatusOr<bool> IsIdle();

 private:
  Context* const context_;
  const unsigned flags_;
  const int priority_;
  // Serialises recording and Flush; Wait and IsComplete are thread-safe in
  // the backend and run without it.
  absl::Mutex mutex_;
  const std::unique_ptr<BackendStream> backend_;
};

// Resolves a stream argument: 0, kStreamLegacy and kStreamPerThread name the
// current context's default stream; anything else must be a live stream of
// the current context's device.
absl::StatusOr<Stream*> ResolveStream(uint64_t handle);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_STREAM_H_
