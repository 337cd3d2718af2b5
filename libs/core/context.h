// Contexts and the per-thread context stack (CUDA programming guide, "Context"
// in the driver API chapter). A CUcontext and a hipCtx_t are the same object.
#ifndef STREAMHAL_CORE_CONTEXT_H_
#define STREAMHAL_CORE_CONTEXT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device.h"
#include "core/handle.h"
#include "core/mutex.h"
#include "core/wait_policy.h"

namespace streamhal {

// Context creation flags; the numeric values are CUDA's (HIP uses the same).
inline constexpr unsigned kCtxSchedAuto = 0x00;
inline constexpr unsigned kCtxSchedSpin = 0x01;
inline constexpr unsigned kCtxSchedYield = 0x02;
inline constexpr unsigned kCtxSchedBlockingSync = 0x04;
inline constexpr unsigned kCtxSchedMask = 0x07;
inline constexpr unsigned kCtxMapHost = 0x08;
inline constexpr unsigned kCtxLmemResizeToMax = 0x10;
inline constexpr unsigned kCtxFlagsMask = 0xFF;

// Per-context limits (CUlimit order; HIP's hipLimit_t uses the same values
// for the ones it has).
enum class Limit : int {
  kStackSize = 0,
  kPrintfFifoSize = 1,
  kMallocHeapSize = 2,
  kDevRuntimeSyncDepth = 3,
  kDevRuntimePendingLaunchCount = 4,
  kMaxL2FetchGranularity = 5,
  kPersistingL2CacheSize = 6,
  kCount,
};

// The API version a context reports (cuCtxGetApiVersion): CUDA reports 3020
// for every context created by a 3.2-or-later driver.
inline constexpr unsigned kContextApiVersion = 3020;

class Stream;

class Context : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kContext;

  Context(Device* device, unsigned flags, bool is_primary);
  ~Context() override;

  Device* device() const { return device_; }
  bool is_primary() const { return is_primary_; }
  unsigned flags() const { return flags_.load(std::memory_order_relaxed); }
  void set_flags(unsigned flags) { flags_.store(flags, std::memory_order_relaxed); }

  // How this context's host threads wait for its work (the scheduling
  // flags; see wait_policy.h).
  WaitPolicy wait_policy() const;

  size_t limit(Limit limit) const;
  void set_limit(Limit limit, size_t value);

  // Attach/detach usage count (cuCtxAttach/cuCtxDetach). Starts at 1.
  int AddUsage() { return usage_count_.fetch_add(1) + 1; }
  int DropUsage() { return usage_count_.fetch_sub(1) - 1; }

  // Waits until all work submitted in this context has finished, in the
  // sense of `completion` (cuCtxSynchronize needs only the results).
  absl::Status Synchronize(Completion completion = Completion::kRetired);

  // CUDA: after an unrecoverable error (a lost device, a faulting kernel)
  // every later call in the context returns that error until the context is
  // destroyed. Recorded by the streams when the backend reports kLaunchFailed;
  // CurrentContext() returns it from then on.
  void MarkLost(const absl::Status& error);
  // OK while the context is usable, else the error that ended it.
  absl::Status lost_error() const;
  bool is_lost() const { return lost_.load(std::memory_order_acquire); }

  // The context's default stream (CUDA's legacy stream), created on first
  // use.
  absl::StatusOr<Stream*> DefaultStream();
  // The legacy stream if it exists already, else null (never creates it).
  Stream* LegacyStreamIfCreated();
  // The calling thread's per-thread default stream of this context
  // (CU_STREAM_PER_THREAD), created on first use. It is a blocking stream.
  absl::StatusOr<Stream*> PerThreadStream();
  // Creates a stream owned by this context.
  absl::StatusOr<Stream*> CreateStream(unsigned flags, int priority);
  // The blocking streams of this context, for the legacy stream's implicit
  // waits. The caller holds stream_lifetime_mutex() shared while it uses
  // them.
  std::vector<Stream*> BlockingStreams();
  // Held shared by whoever uses streams found through the context outside
  // its object lock (synchronising the context, the legacy stream's implicit
  // waits), and exclusively to delete a stream, so none is freed under them.
  SharedMutex* stream_lifetime_mutex() ABSL_LOCK_RETURNED(stream_lifetime_mutex_) {
    return &stream_lifetime_mutex_;
  }
  // How many blocking streams exist: lets legacy-stream launches skip the
  // implicit-wait scan (and its lock) when there are none.
  int blocking_stream_count() const {
    return blocking_stream_count_.load(std::memory_order_acquire);
  }

  // Objects created in this context (modules, streams, events) are owned by
  // it and destroyed with it. Adopt takes ownership; Destroy destroys one
  // owned object (false if it is not owned by this context).
  void Adopt(std::unique_ptr<Object> object);
  bool Destroy(Object* object);

 private:
  Device* const device_;
  const bool is_primary_;
  std::atomic<unsigned> flags_;
  std::atomic<int> usage_count_{1};
  Mutex objects_mutex_;
  Stream* default_stream_ ABSL_GUARDED_BY(objects_mutex_) = nullptr;
  // Lock-free copy of default_stream_ for the launch path.
  std::atomic<Stream*> default_stream_fast_{nullptr};
  std::atomic<int> blocking_stream_count_{0};
  std::atomic<bool> lost_{false};
  mutable Mutex lost_mutex_;
  absl::Status lost_error_ ABSL_GUARDED_BY(lost_mutex_);
  std::vector<std::unique_ptr<Object>> objects_ ABSL_GUARDED_BY(objects_mutex_);
  SharedMutex stream_lifetime_mutex_ ABSL_ACQUIRED_BEFORE(objects_mutex_);
  mutable Mutex limits_mutex_;
  size_t limits_[static_cast<int>(Limit::kCount)] ABSL_GUARDED_BY(limits_mutex_);
};

// --- Validated entry points (both bindings call these) ---

// cuCtxCreate: creates a context on `device` and pushes it on this thread's
// stack.
absl::Status CreateContext(HandleOut out, unsigned flags, int device);
// cuCtxDestroy: destroys a non-primary context; if it is current on this
// thread it is popped. On other threads' stacks it stays, unusable.
absl::Status DestroyContext(uint64_t context);
absl::Status PushContext(uint64_t context);
// Pops this thread's current context; `out` may be null.
absl::Status PopContext(HandleOut out);
// Replaces the top of this thread's stack; 0 pops it (CUDA: "If ctx is NULL,
// the context at the top of the stack is unbound").
absl::Status SetCurrentContext(uint64_t context);
// The handle on top of this thread's stack, 0 if none.
absl::Status GetCurrentContext(HandleOut out);
absl::Status GetContextDevice(int* device);
absl::Status GetContextFlags(unsigned* flags);
absl::Status SetContextFlags(unsigned flags);
// `context` 0 means the current context.
absl::Status GetContextApiVersion(uint64_t context, unsigned* version);
// cuCtxGetId: a number unique to the context for the life of the process;
// `context` 0 means the current context.
absl::Status GetContextId(uint64_t context, unsigned long long* id);
absl::Status GetStreamPriorityRange(int* least, int* greatest);
// cuCtxResetPersistingL2Cache: no device here has a persisting L2 cache
// (CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE is 0), so there is
// nothing to reset; needs a current context.
absl::Status ResetPersistingL2Cache();
absl::Status SynchronizeCurrentContext();
absl::Status GetContextLimit(size_t* value, int limit);
absl::Status SetContextLimit(int limit, size_t value);

// Cache preference: CU_FUNC_CACHE_PREFER_NONE (0) .. PREFER_EQUAL (3).
// Shared memory bank size: DEFAULT (0), FOUR_BYTE (1), EIGHT_BYTE (2).
// Every device has a fixed split and 4-byte banks: a valid value is accepted
// and changes nothing, and the getters report PREFER_NONE and FOUR_BYTE, as
// CUDA documents for such devices.
absl::Status GetContextCacheConfig(int* config);
absl::Status SetContextCacheConfig(int config);
absl::Status GetContextSharedMemConfig(int* config);
absl::Status SetContextSharedMemConfig(int config);
// The checks of the setters, shared with cuFuncSetCacheConfig and
// cuFuncSetSharedMemConfig: kInvalidValue outside the enumeration.
absl::Status ValidateCacheConfig(int config, const char* api);
absl::Status ValidateSharedMemConfig(int config, const char* api);
// Peer access from the current context to `peer` (core/peer_access.cc):
// kPeerAccessUnsupported where cuDeviceCanAccessPeer says 0,
// kPeerAccessAlreadyEnabled / kPeerAccessNotEnabled as CUDA documents.
absl::Status EnablePeerAccess(uint64_t peer, unsigned flags);
absl::Status DisablePeerAccess(uint64_t peer);

// The live current context: kInvalidContext with none, kContextIsDestroyed
// when the top of the stack was destroyed.
absl::StatusOr<Context*> CurrentContext();
// Resolves a handle passed as an argument; 0 is kInvalidContext.
absl::StatusOr<Context*> ResolveContext(uint64_t context);

// cuCtxAttach / cuCtxDetach (deprecated CUDA API kept for old programs).
absl::Status AttachContext(HandleOut out, unsigned flags);
absl::Status DetachContext(uint64_t context);

// --- Primary contexts ---
absl::Status RetainPrimaryContext(HandleOut out, int device);
absl::Status ReleasePrimaryContext(int device);
absl::Status SetPrimaryContextFlags(int device, unsigned flags);
absl::Status GetPrimaryContextState(int device, unsigned* flags, int* active);
absl::Status ResetPrimaryContext(int device);

// --- The runtime-API view (hipSetDevice and friends) ---
// The device of the current context, else this thread's chosen device.
absl::Status RuntimeGetDevice(int* device);
// hipSetDeviceFlags / hipGetDeviceFlags: the flags of the primary context of
// the device RuntimeGetDevice reports.
absl::Status RuntimeSetDeviceFlags(unsigned flags);
absl::Status RuntimeGetDeviceFlags(unsigned* flags);
// Makes the primary context of `device` current on this thread (retaining it
// once for the runtime, as the CUDA runtime does).
absl::Status RuntimeSetDevice(int device);
// The current context, or, when none is current, the primary context of this
// thread's device, made current (lazy runtime initialisation).
absl::StatusOr<Context*> RuntimeCurrentContext();
// The primary context of `device`, created and retained once for the
// runtime if needed (hipDeviceEnablePeerAccess names a peer by device).
absl::StatusOr<Context*> RuntimePrimaryContext(int device);
// hipDeviceReset: destroys the primary context of the current device.
absl::Status RuntimeResetDevice();

// Destroys every context (used by Deinit).
void DestroyAllContexts();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_CONTEXT_H_
