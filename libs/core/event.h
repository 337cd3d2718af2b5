// Events (cuEvent*, hipEvent*): markers in a stream that the host and other
// streams can wait on, timed on the device with timestamp queries.
#ifndef STREAMHAL_CORE_EVENT_H_
#define STREAMHAL_CORE_EVENT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/api.h"
#include "core/handle.h"
#include "core/mutex.h"

namespace streamhal {

class Context;
class IpcEventState;
class Stream;

// Event flags (CUDA's values; HIP uses the same).
inline constexpr unsigned kEventDefault = 0x0;
inline constexpr unsigned kEventBlockingSync = 0x1;
inline constexpr unsigned kEventDisableTiming = 0x2;
inline constexpr unsigned kEventInterprocess = 0x4;
// HIP only (AMD's hipEventCreateWithFlags): memory scopes the event's
// release makes writes visible at. A Vulkan queue submission boundary makes
// device writes visible to the host and every device queue, so each of them
// is met by the ordinary release; at most one of the two Release flags.
inline constexpr unsigned kEventDisableSystemFence = 0x20000000;
inline constexpr unsigned kEventReleaseToDevice = 0x40000000;
inline constexpr unsigned kEventReleaseToSystem = 0x80000000;

class Event : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kEvent;

  Event(Context* context, unsigned flags) : Object(kKind), context_(context), flags_(flags) {}

  Context* context() const { return context_; }
  unsigned flags() const { return flags_; }
  bool timing() const { return (flags_ & kEventDisableTiming) == 0; }

  // Where the event was last recorded: a stream (by handle, so a destroyed
  // stream is detected) and the point that completes it.
  struct Record {
    uint64_t stream = 0;
    uint64_t point = 0;
    std::optional<uint64_t> timestamp_id;
    std::optional<uint64_t> timestamp_ns;  // read once, then kept
  };
  std::optional<Record> last() const {
    MutexLock lock(&mutex_);
    return record_;
  }
  void set_record(Record record) {
    MutexLock lock(&mutex_);
    record_ = record;
  }
  // Set when the event was last recorded in a capturing stream: the capture
  // and the graph nodes a wait on the event follows (stream_capture.h).
  struct Captured {
    uint64_t capture_id = 0;
    std::vector<uint64_t> nodes;
  };
  std::optional<Captured> captured() const {
    MutexLock lock(&mutex_);
    return captured_;
  }
  void set_captured(std::optional<Captured> captured) {
    MutexLock lock(&mutex_);
    captured_ = std::move(captured);
  }
  // The device time of the last record in nanoseconds (reads it once).
  absl::StatusOr<uint64_t> TimestampNs();

  // CU_EVENT_INTERPROCESS: the counters shared with other processes
  // (core/ipc.h); null for other events. Set before the handle is given out.
  const std::shared_ptr<IpcEventState>& ipc() const { return ipc_; }
  void set_ipc(std::shared_ptr<IpcEventState> ipc) { ipc_ = std::move(ipc); }

 private:
  Context* const context_;
  const unsigned flags_;
  mutable Mutex mutex_;
  std::optional<Record> record_ ABSL_GUARDED_BY(mutex_);
  std::optional<Captured> captured_ ABSL_GUARDED_BY(mutex_);
  std::shared_ptr<IpcEventState> ipc_;
};

absl::Status EventCreate(HandleOut out, unsigned flags, Api api = Api::kCuda);
absl::Status EventDestroy(uint64_t event);
// Records the event in `stream` (0: the legacy stream).
absl::Status EventRecord(uint64_t event, uint64_t stream);
// Flags of cuEventRecordWithFlags.
inline constexpr unsigned kEventRecordDefault = 0x0;
inline constexpr unsigned kEventRecordExternal = 0x1;
// cuEventRecordWithFlags: kEventRecordExternal makes the record an event
// record node of the graph when `stream` is capturing (so work outside the
// graph can wait for that point of each launch); outside a capture both
// flags record as EventRecord does. Other flags are kInvalidValue.
absl::Status EventRecordWithFlags(uint64_t event, uint64_t stream, unsigned flags);
// kNotReady while the recorded work is pending; a never-recorded event is
// complete.
absl::Status EventQuery(uint64_t event);
absl::Status EventSynchronize(uint64_t event);
// Milliseconds between two completed events, from device timestamps.
absl::Status EventElapsedTime(float* ms, uint64_t start, uint64_t end);

// Resolves an event handle; kInvalidHandle otherwise.
absl::StatusOr<Event*> ResolveEvent(uint64_t event);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_EVENT_H_
