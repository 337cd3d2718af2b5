// Streams: ordered queues of work in a context. This file holds the core
// object and handle resolution; the backend records and submits.
#ifndef STREAMHAL_CORE_STREAM_H_
#define STREAMHAL_CORE_STREAM_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/handle.h"
#include "core/mutex.h"
#include "core/status.h"
#include "core/stream_attributes.h"

namespace streamhal {

class Context;
class Device;
class GraphNode;
struct CaptureSession;

// The special stream handles (CUDA's values; HIP uses 0 and 2 as well).
inline constexpr uint64_t kStreamLegacy = 0x1;
inline constexpr uint64_t kStreamPerThread = 0x2;

// Stream creation flags.
inline constexpr unsigned kStreamDefault = 0x0;
inline constexpr unsigned kStreamNonBlocking = 0x1;

// How a stream orders itself against the legacy default stream (CUDA
// programming guide, "Default Stream"): the legacy stream waits for all prior
// work of every blocking stream of its context and they wait for its prior
// work; non-blocking streams do neither.
enum class StreamRole { kLegacy, kBlocking, kNonBlocking };

class Stream : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kStream;

  Stream(Context* context, std::unique_ptr<BackendStream> backend, StreamRole role, unsigned flags,
         int priority);
  ~Stream() override;

  Context* context() const { return context_; }
  // The context's device, kept here: the pool calls read it on every call.
  Device* device() const { return device_; }
  StreamRole role() const { return role_; }
  unsigned flags() const { return flags_; }
  int priority() const { return priority_.load(std::memory_order_relaxed); }
  // cuStreamSetAttribute(CU_LAUNCH_ATTRIBUTE_PRIORITY): already clamped to
  // the device's range. A hint only: the device has one queue.
  void set_priority(int priority) { priority_.store(priority, std::memory_order_relaxed); }
  // The attributes of cuStreamSetAttribute other than the priority
  // (core/stream_attributes.h), under their lock.
  Mutex& attributes_mutex() const { return attributes_mutex_; }
  StreamAttributes& attributes() ABSL_EXCLUSIVE_LOCKS_REQUIRED(attributes_mutex_) {
    return attributes_;
  }
  // hipExtStreamCreateWithCUMask: the compute-unit mask given at creation
  // (empty: every unit). A Vulkan queue cannot be restricted to some compute
  // units, so the mask is kept and reported, not enforced.
  const std::vector<uint32_t>& cu_mask() const { return cu_mask_; }

  // Records work with the stream's lock held, so several host threads may
  // use one stream. First records the implicit waits of the legacy stream
  // rules; those flushes happen before this stream's lock is taken, so two
  // streams never hold each other's locks.
  template <typename Fn>
  absl::Status Record(Fn&& record) {
    std::vector<std::pair<Stream*, uint64_t>> waits;
    SH_RETURN_IF_ERROR(CollectImplicitWaits(&waits));
    MutexLock lock(&mutex_);
    settled_point_.store(kUnsettled, std::memory_order_relaxed);
    for (const auto& [other, point] : waits) {
      SH_RETURN_IF_ERROR(backend_->RecordWait(other->backend_.get(), point));
    }
    SH_RETURN_IF_ERROR(Checked(record(backend_.get())));
    work_count_.fetch_add(1, std::memory_order_release);
    return absl::OkStatus();
  }
  // Submits recorded work; returns the point that completes it.
  absl::StatusOr<uint64_t> Flush();
  // The point the last Flush returned (0 before any), when nothing has been
  // recorded since; kUnsettled when a Flush is needed. One load, no lock:
  // cuMemFreeAsync's point. Unlike Flush it does not report a host
  // function's failure, which the next Flush still does.
  static constexpr uint64_t kUnsettled = UINT64_MAX;
  uint64_t SettledPoint() const { return settled_point_.load(std::memory_order_acquire); }
  // Flushes, then waits for everything submitted so far (without holding the
  // stream lock while waiting), in the sense of `completion`.
  absl::Status Synchronize(Completion completion = Completion::kRetired);
  // Waits for what work issued now on this stream would wait for: the
  // implicit waits of the legacy stream rules, then everything submitted so
  // far. Synchronous calls that touch memory from the host (cuMemcpyDtoH of
  // a host-visible allocation) call it instead of recording work. The host
  // only needs the results (Completion::kResults).
  absl::Status SynchronizeForHostAccess();
  // Flushes, then reports whether everything submitted has finished
  // (its results are in memory).
  absl::StatusOr<bool> IsIdle();
  // cuStreamQuery: IsIdle, and for the legacy stream also whether the
  // blocking streams it covers are idle.
  absl::StatusOr<bool> IsIdleForHost();
  // Waits for `point` as the context's scheduling flags say, or as
  // `policy` says.
  absl::Status Wait(uint64_t point, Completion completion = Completion::kRetired);
  absl::Status Wait(uint64_t point, const WaitPolicy& policy) {
    return Checked(backend_->Wait(point, policy));
  }
  absl::StatusOr<bool> IsComplete(uint64_t point, Completion completion = Completion::kRetired) {
    return Checked(backend_->IsComplete(point, completion));
  }
  BackendStream* backend() { return backend_.get(); }

  // The capture this stream takes part in (stream_capture.h), or null. One
  // load on every launch; set and cleared under the capture lock.
  CaptureSession* capture() const { return capture_.load(std::memory_order_acquire); }
  void set_capture(CaptureSession* session) { capture_.store(session, std::memory_order_release); }
  // Guarded by the capture lock in stream_capture.cc: the nodes the next
  // captured node depends on, and their handles for cuStreamGetCaptureInfo.
  struct CaptureState {
    std::vector<GraphNode*> tail;
    std::vector<uint64_t> tail_handles;
  };
  CaptureState& capture_state() { return capture_state_; }

  // The points of other streams (by handle) this stream has waited for
  // through cuStreamWaitEvent; memory pools reuse a block freed in another
  // stream once this stream has waited past the free.
  void NoteWaited(uint64_t stream, uint64_t point);
  uint64_t WaitedPoint(uint64_t stream) const;

 private:
  // Passes `result` through; an unrecoverable error (kLaunchFailed: a lost
  // device) also makes the context unusable (Context::MarkLost).
  template <typename T>
  T Checked(T result) {
    if (!result.ok()) CheckedFailure(StatusOf(result));
    return result;
  }
  static const absl::Status& StatusOf(const absl::Status& status) { return status; }
  template <typename T>
  static const absl::Status& StatusOf(const absl::StatusOr<T>& result) {
    return result.status();
  }
  void CheckedFailure(const absl::Status& error);
  absl::Status CollectImplicitWaits(std::vector<std::pair<Stream*, uint64_t>>* waits);

  Context* const context_;
  Device* const device_;
  const StreamRole role_;
  const unsigned flags_;
  std::atomic<int> priority_;
  mutable Mutex attributes_mutex_;
  StreamAttributes attributes_ ABSL_GUARDED_BY(attributes_mutex_);
  // Serialises recording and Flush; Wait and IsComplete are thread-safe in
  // the backend and run without it. What every launch writes (this lock,
  // work_count_, seen_mutex_) starts a cache line of its own, and the
  // object's size rounds up to whole lines, so threads launching on streams
  // that lie next to each other in memory do not share a line.
  alignas(64) Mutex mutex_;
  const std::unique_ptr<BackendStream> backend_;
  // Commands recorded so far; compared across streams for implicit waits.
  std::atomic<uint64_t> work_count_{0};
  // See SettledPoint. Cleared by every Record, set by every Flush, both
  // under mutex_.
  std::atomic<uint64_t> settled_point_{0};  // nothing recorded yet
  // Blocking streams: how much of the legacy stream's work is already waited
  // for. The legacy stream: the same per blocking stream.
  Mutex seen_mutex_;
  uint64_t seen_legacy_count_ ABSL_GUARDED_BY(seen_mutex_) = 0;
  absl::flat_hash_map<const Stream*, uint64_t> seen_counts_ ABSL_GUARDED_BY(seen_mutex_);
  // Written once, before the stream's handle is returned.
  std::vector<uint32_t> cu_mask_;
  std::atomic<CaptureSession*> capture_{nullptr};
  mutable Mutex waited_mutex_;
  absl::flat_hash_map<uint64_t, uint64_t> waited_points_ ABSL_GUARDED_BY(waited_mutex_);
  CaptureState capture_state_;
  friend absl::Status StreamCreateWithCuMask(HandleOut, uint32_t, const uint32_t*);
};

// Resolves a stream argument: 0 and kStreamLegacy name the current
// context's legacy default stream, kStreamPerThread this thread's default
// stream of the current context; anything else must be a live stream of the
// current context's device.
absl::StatusOr<Stream*> ResolveStream(uint64_t handle);
// The same for a caller that has resolved the current context already.
absl::StatusOr<Stream*> ResolveStream(Context* context, uint64_t handle);

// --- Validated entry points (cuStream*, hipStream*) ---
// `priority` is clamped to the range cuCtxGetStreamPriorityRange reports.
absl::Status StreamCreate(HandleOut out, unsigned flags, int priority);
// hipExtStreamCreateWithCUMask / hipExtStreamGetCUMask. A mask is
// `mask_words` 32-bit words, bit i of word w naming compute unit 32*w+i; it
// must name at least one unit. Get writes `mask_words` words: the creation
// mask, or every unit of the device for a stream created without one.
absl::Status StreamCreateWithCuMask(HandleOut out, uint32_t mask_words, const uint32_t* mask);
absl::Status StreamGetCuMask(uint64_t stream, uint32_t mask_words, uint32_t* mask);
absl::Status StreamDestroy(uint64_t stream);
absl::Status StreamGetPriority(uint64_t stream, int* priority);
absl::Status StreamGetFlags(uint64_t stream, unsigned* flags);
absl::Status StreamGetContext(uint64_t stream, HandleOut out);
absl::Status StreamGetDevice(uint64_t stream, int* device);
// cuStreamGetId: a number unique to the stream for the life of the process
// (the null streams have theirs too).
absl::Status StreamGetId(uint64_t stream, unsigned long long* id);
absl::Status StreamQuery(uint64_t stream);  // kNotReady while work is pending
absl::Status StreamSynchronize(uint64_t stream);
absl::Status StreamWaitEvent(uint64_t stream, uint64_t event, unsigned flags);
// cuLaunchHostFunc: `fn(data)` runs after all earlier work of the stream;
// later work waits for it.
absl::Status LaunchHostFunc(uint64_t stream, void (*fn)(void*), void* data);
// cuStreamAddCallback: like LaunchHostFunc, but the callback also receives
// the stream handle the caller passed. `flags` must be 0.
using StreamCallback = void (*)(uint64_t stream, void* data);
absl::Status StreamAddCallback(uint64_t stream, unsigned flags, StreamCallback callback,
                               void* data);

// --- Stream memory operations (cuStreamWaitValue32/64, cuStreamWriteValue32/64,
// cuStreamBatchMemOp and their hip* twins) ---
//
// A wait holds every later piece of work of its stream until a condition on a
// 32- or 64-bit word in memory holds; the host or another stream may write
// the word at any time. A write stores a value in stream order. Waits are
// host functions that poll the word through the allocation's host mapping
// (docs/architecture.md says why not a shader), so a wait needs memory the
// host can map: pinned or registered host memory always, device memory where
// the device's memory is host-visible (lavapipe, integrated GPUs); elsewhere
// kNotSupported.

// Whose rules an operation follows. They differ in the greater-or-equal
// condition (CUDA's is cyclic, HIP's plain), in the flags each accepts, in
// HIP's mask and in the largest batch.
enum class MemOpApi { kCuda, kHip };

// Operation numbers (CUstreamBatchMemOpType and hipStreamBatchMemOpType
// agree).
inline constexpr int kMemOpWaitValue32 = 1;
inline constexpr int kMemOpWriteValue32 = 2;
inline constexpr int kMemOpFlushRemoteWrites = 3;
inline constexpr int kMemOpWaitValue64 = 4;
inline constexpr int kMemOpWriteValue64 = 5;
inline constexpr int kMemOpBarrier = 6;

// Wait flags: the condition in the low bits (CUstreamWaitValue_flags and
// hipStreamWaitValue* agree) and CUDA's flush bit.
inline constexpr unsigned kWaitValueGeq = 0x0;
inline constexpr unsigned kWaitValueEq = 0x1;
inline constexpr unsigned kWaitValueAnd = 0x2;
inline constexpr unsigned kWaitValueNor = 0x3;
inline constexpr unsigned kWaitValueFlush = 0x40000000;
// CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER.
inline constexpr unsigned kWriteValueNoMemoryBarrier = 0x1;
// CUstreamMemoryBarrier_flags.
inline constexpr unsigned kMemoryBarrierSystem = 0x0;
inline constexpr unsigned kMemoryBarrierDevice = 0x1;

// One operation as the caller gave it: an element of a batch, or the
// arguments of cuStreamWaitValue32 and the like. Fields an operation does
// not use are ignored.
struct StreamMemOp {
  int operation = 0;             // kMemOp*
  uint64_t address = 0;          // device address (or host address of page-locked memory)
  uint64_t value = 0;            // 32-bit operations use the low 32 bits
  uint64_t mask = ~uint64_t{0};  // HIP waits: the bits of the word compared
  unsigned flags = 0;
};

// Whether the condition of wait `op` holds for the memory word `word`.
//   CUDA: GEQ (intN_t)(word - value) >= 0 (cyclic), EQ word == value,
//         AND (word & value) != 0, NOR ~(word | value) != 0;
//   HIP (m = mask): Gte (word & m) >= value, Eq (word & m) == value,
//         And (word & m & value) != 0, Nor (~(word | value) & m) != 0
//         (AMD's runtime; its documentation's formula ignores the mask).
// N is the operation's width; bits above it are ignored.
bool MemOpWaitHolds(const StreamMemOp& op, uint64_t word, MemOpApi api);

// cuStreamWaitValue32/64 (`width` 4 or 8 bytes; `mask` all ones for CUDA).
// Errors: kInvalidHandle for an unknown stream; kInvalidValue for an address
// outside any allocation or not aligned to `width`, or unknown flags;
// kNotSupported for memory the host cannot map.
absl::Status StreamWaitValue(uint64_t stream, uint64_t address, uint64_t value, uint64_t mask,
                             unsigned flags, unsigned width, MemOpApi api);
// cuStreamWriteValue32/64: the errors of StreamWaitValue but kNotSupported.
absl::Status StreamWriteValue(uint64_t stream, uint64_t address, uint64_t value, unsigned flags,
                              unsigned width, MemOpApi api);
// cuStreamBatchMemOp: `count` operations, read one at a time through
// `read(index)` from the caller's array `params` (only tested for null), in
// order. Every operation is validated before any is recorded. Errors: those
// of the single operations, and kInvalidValue for a null array, a count of 0
// or above the limit (CUDA: less than 256; HIP: at most 256), nonzero
// `flags`, or an unknown operation.
absl::Status StreamBatchMemOp(uint64_t stream, unsigned count, const void* params,
                              absl::FunctionRef<StreamMemOp(unsigned index)> read, unsigned flags,
                              MemOpApi api);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_STREAM_H_
