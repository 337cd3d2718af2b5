#include "core/context.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/handle_retirement.h"
#include "core/log.h"
#include "core/mem_pool.h"
#include "core/memory.h"
#include "core/peer_access.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

// Default limits, as CUDA documents them for a fresh context.
constexpr size_t kDefaultLimits[static_cast<int>(Limit::kCount)] = {
    1024,     // stack size per thread
    1 << 20,  // printf FIFO
    8 << 20,  // device malloc heap
    2,        // device-runtime sync depth
    2048,     // device-runtime pending launches
    32,       // max L2 fetch granularity
    0,        // persisting L2 cache size
};

// Per-thread context stack (CUDA: "each host thread has a stack of current
// contexts"). Tagged with the init epoch so a stack from before a deinit is
// dropped instead of naming contexts of a previous initialisation.
struct ThreadState {
  uint64_t epoch = 0;
  std::vector<uint64_t> stack;
  int runtime_device = 0;
};

thread_local ThreadState t_state;

// CurrentContext's answer for this thread, valid while no handle has been
// retired since (core/handle_retirement.h) and this thread's stack has not
// been touched (State() clears it): a launch or pool call then costs one
// atomic load instead of a handle lookup. Trivially constructible, so a
// thread_local without an initialisation guard.
struct CurrentCache {
  uint64_t generation;
  Context* context;
};
thread_local CurrentCache t_current;

ThreadState& State() {
  t_current.context = nullptr;
  const uint64_t epoch = InitEpoch();
  if (t_state.epoch != epoch) {
    t_state.stack.clear();
    t_state.runtime_device = 0;
    t_state.epoch = epoch;
  }
  return t_state;
}

// Every live context, so that Deinit can destroy them all.
struct LiveContexts {
  Mutex mutex;
  absl::flat_hash_set<Context*> set ABSL_GUARDED_BY(mutex);
};

LiveContexts& Live() {
  static LiveContexts* live = new LiveContexts;  // leaked: no static destructor
  return *live;
}

// Live contexts, for CU_CTX_SCHED_AUTO's heuristic (read on every wait, so
// an atomic beside the set).
std::atomic<int> g_active_contexts{0};

Context* NewContext(Device* device, unsigned flags, bool is_primary) {
  auto* context = new Context(device, flags, is_primary);
  LiveContexts& live = Live();
  MutexLock lock(&live.mutex);
  live.set.insert(context);
  g_active_contexts.fetch_add(1, std::memory_order_relaxed);
  return context;
}

void DeleteContext(Context* context) {
  {
    LiveContexts& live = Live();
    MutexLock lock(&live.mutex);
    live.set.erase(context);
    g_active_contexts.fetch_sub(1, std::memory_order_relaxed);
  }
  delete context;
}

absl::Status ValidateFlags(unsigned flags, const char* api) {
  if ((flags & ~kCtxFlagsMask) != 0) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown flag bits 0x", absl::Hex(flags));
  }
  const unsigned sched = flags & kCtxSchedMask;
  if (sched != kCtxSchedAuto && sched != kCtxSchedSpin && sched != kCtxSchedYield &&
      sched != kCtxSchedBlockingSync) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": at most one scheduling flag may be given, got 0x", absl::Hex(sched));
  }
  return absl::OkStatus();
}

// Resolves a handle on a thread's stack. A handle that was valid once and has
// been destroyed gives kContextIsDestroyed (CUDA's rule for contexts left on
// other threads' stacks).
absl::StatusOr<Context*> ResolveStackEntry(uint64_t handle) {
  HandleState state;
  Context* context = LookupAs<Context>(handle, &state);
  if (context != nullptr) return context;
  if (state == HandleState::kDestroyed) {
    return Error(ErrorCode::kContextIsDestroyed, "the current context has been destroyed");
  }
  return Error(ErrorCode::kInvalidContext, "the current context is not valid");
}

}  // namespace

Context::Context(Device* device, unsigned flags, bool is_primary)
    : Object(kKind), device_(device), is_primary_(is_primary), flags_(flags) {
  std::copy(std::begin(kDefaultLimits), std::end(kDefaultLimits), limits_);
}

WaitPolicy Context::wait_policy() const {
  static const int processors = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  WaitEnvironment environment;
  environment.active_contexts = std::max(1, g_active_contexts.load(std::memory_order_relaxed));
  environment.logical_processors = processors;
  environment.device_on_host = device_->properties().is_cpu;
  return WaitPolicyForFlags(flags(), environment);
}

Context::~Context() {
  // Work still in flight must finish before its context goes away (CUDA:
  // cuCtxDestroy waits for outstanding work). Objects go in reverse order of
  // creation (streams finish their work as they go), then the memory.
  absl::Status status = Synchronize();
  if (!status.ok()) Log(LogLevel::kWarning, "context teardown: ", status.message());
  std::vector<std::unique_ptr<Object>> objects;
  {
    MutexLock lock(&objects_mutex_);
    objects.swap(objects_);
    default_stream_ = nullptr;
    default_stream_fast_.store(nullptr, std::memory_order_release);
  }
  while (!objects.empty()) objects.pop_back();
  // Peers stop importing this context's memory before it is freed.
  ForgetPeerAccess(this);
  FreeContextAllocations(this);
}

absl::StatusOr<Stream*> Context::DefaultStream() {
  if (Stream* stream = default_stream_fast_.load(std::memory_order_acquire)) return stream;
  MutexLock lock(&objects_mutex_);
  if (default_stream_ == nullptr) {
    SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendStream> backend, device_->backend()->CreateStream());
    auto stream =
        std::make_unique<Stream>(this, std::move(backend), StreamRole::kLegacy, kStreamDefault, 0);
    default_stream_ = stream.get();
    default_stream_fast_.store(default_stream_, std::memory_order_release);
    objects_.push_back(std::move(stream));
  }
  return default_stream_;
}

Stream* Context::LegacyStreamIfCreated() {
  // Lock-free: every launch on a blocking stream asks. The legacy stream
  // lives as long as the context.
  return default_stream_fast_.load(std::memory_order_acquire);
}

absl::StatusOr<Stream*> Context::CreateStream(unsigned flags, int priority) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendStream> backend, device_->backend()->CreateStream());
  const StreamRole role =
      (flags & kStreamNonBlocking) != 0 ? StreamRole::kNonBlocking : StreamRole::kBlocking;
  auto stream = std::make_unique<Stream>(this, std::move(backend), role, flags, priority);
  Stream* raw = stream.get();
  if (role == StreamRole::kBlocking) blocking_stream_count_.fetch_add(1, std::memory_order_acq_rel);
  Adopt(std::move(stream));
  return raw;
}

absl::StatusOr<Stream*> Context::PerThreadStream() {
  // Keyed by handles, so entries of destroyed contexts or streams are
  // detected instead of dereferenced.
  thread_local absl::flat_hash_map<uint64_t, uint64_t> per_thread;
  auto it = per_thread.find(handle());
  if (it != per_thread.end()) {
    if (Stream* stream = LookupAs<Stream>(it->second);
        stream != nullptr && stream->context() == this) {
      return stream;
    }
  }
  SH_ASSIGN_OR_RETURN(Stream * stream, CreateStream(kStreamDefault, 0));
  per_thread[handle()] = stream->handle();
  return stream;
}

std::vector<Stream*> Context::BlockingStreams() {
  std::vector<Stream*> streams;
  MutexLock lock(&objects_mutex_);
  for (const auto& object : objects_) {
    if (object->kind() != ObjectKind::kStream) continue;
    auto* stream = static_cast<Stream*>(object.get());
    if (stream->role() == StreamRole::kBlocking) streams.push_back(stream);
  }
  return streams;
}

void Context::Adopt(std::unique_ptr<Object> object) {
  MutexLock lock(&objects_mutex_);
  objects_.push_back(std::move(object));
}

bool Context::Destroy(Object* object) {
  std::unique_ptr<Object> doomed;
  {
    MutexLock lock(&objects_mutex_);
    for (auto it = objects_.begin(); it != objects_.end(); ++it) {
      if (it->get() == object) {
        if (object->kind() == ObjectKind::kStream &&
            static_cast<Stream*>(object)->role() == StreamRole::kBlocking) {
          blocking_stream_count_.fetch_sub(1, std::memory_order_acq_rel);
        }
        doomed = std::move(*it);
        objects_.erase(it);
        break;
      }
    }
  }
  if (doomed == nullptr) return false;
  // Destroyed outside the object lock: teardown may wait for the device.
  if (doomed->kind() == ObjectKind::kStream) {
    // Finish the stream's work first, so that nobody waits for it while
    // holding the lifetime lock; then wait out whoever still uses it.
    absl::Status status = static_cast<Stream*>(doomed.get())->Synchronize();
    if (!status.ok()) Log(LogLevel::kWarning, "stream teardown: ", status.message());
    MutexLock lock(&stream_lifetime_mutex_);
    doomed.reset();
  }
  return true;
}

size_t Context::limit(Limit which) const {
  MutexLock lock(&limits_mutex_);
  return limits_[static_cast<int>(which)];
}

void Context::set_limit(Limit which, size_t value) {
  MutexLock lock(&limits_mutex_);
  limits_[static_cast<int>(which)] = value;
}

void Context::MarkLost(const absl::Status& error) {
  MutexLock lock(&lost_mutex_);
  if (lost_.load(std::memory_order_relaxed)) return;  // the first error stays
  lost_error_ = Error(ErrorCodeOf(error), "the context is unusable after an earlier error (",
                      error.message(), "); destroy it");
  lost_.store(true, std::memory_order_release);
}

absl::Status Context::lost_error() const {
  MutexLock lock(&lost_mutex_);
  return lost_error_;
}

absl::Status Context::Synchronize(Completion completion) {
  // Submit what every stream of this context has recorded, then wait for it
  // (no lock is held while waiting). All device work goes through streams,
  // and a destroyed stream finished its work before it went, so this covers
  // everything; waiting for the whole device would also wait for other
  // contexts' work.
  ReaderMutexLock alive(&stream_lifetime_mutex_);
  std::vector<Stream*> streams;
  {
    MutexLock lock(&objects_mutex_);
    for (const auto& object : objects_) {
      if (object->kind() == ObjectKind::kStream)
        streams.push_back(static_cast<Stream*>(object.get()));
    }
  }
  // Every stream is waited for even after one fails: returning early would
  // leave work running that the caller believes finished. The first error
  // is reported.
  absl::Status first_error;
  for (Stream* stream : streams) first_error.Update(stream->Synchronize(completion));
  return first_error;
}

absl::Status CreateContext(HandleOut out, unsigned flags, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuCtxCreate: pctx is null");
  SH_RETURN_IF_ERROR(ValidateFlags(flags, "cuCtxCreate"));
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  Context* context = NewContext(device, flags, /*is_primary=*/false);
  State().stack.push_back(context->handle());
  out.Set(context->handle());
  return absl::OkStatus();
}

absl::StatusOr<Context*> ResolveContext(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  HandleState state;
  Context* context = LookupAs<Context>(handle, &state);
  if (context != nullptr) return context;
  switch (state) {
    case HandleState::kNull:
      return Error(ErrorCode::kInvalidContext, "context handle is null");
    case HandleState::kDestroyed:
      return Error(ErrorCode::kInvalidContext, "context 0x", absl::Hex(handle),
                   " has been destroyed");
    default:
      return Error(ErrorCode::kInvalidContext, "0x", absl::Hex(handle), " is not a context");
  }
}

absl::Status DestroyContext(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (handle == 0) return Error(ErrorCode::kInvalidValue, "cuCtxDestroy: ctx is null");
  SH_ASSIGN_OR_RETURN(Context * context, ResolveContext(handle));
  if (context->is_primary()) {
    return Error(ErrorCode::kInvalidContext,
                 "cuCtxDestroy: a primary context is released with cuDevicePrimaryCtxRelease");
  }
  ThreadState& state = State();
  if (!state.stack.empty() && state.stack.back() == handle) state.stack.pop_back();
  DeleteContext(context);
  return absl::OkStatus();
}

absl::Status PushContext(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, ResolveContext(handle));
  State().stack.push_back(context->handle());
  return absl::OkStatus();
}

absl::Status PopContext(HandleOut out) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  ThreadState& state = State();
  if (state.stack.empty()) {
    return Error(ErrorCode::kInvalidContext, "cuCtxPopCurrent: no context is current");
  }
  const uint64_t handle = state.stack.back();
  state.stack.pop_back();
  if (!out.is_null()) out.Set(handle);
  return absl::OkStatus();
}

absl::Status SetCurrentContext(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  ThreadState& state = State();
  if (handle == 0) {
    if (!state.stack.empty()) state.stack.pop_back();
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(Context * context, ResolveContext(handle));
  if (state.stack.empty()) {
    state.stack.push_back(context->handle());
  } else {
    state.stack.back() = context->handle();
  }
  return absl::OkStatus();
}

absl::Status GetCurrentContext(HandleOut out) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuCtxGetCurrent: pctx is null");
  ThreadState& state = State();
  out.Set(state.stack.empty() ? 0 : state.stack.back());
  return absl::OkStatus();
}

absl::StatusOr<Context*> CurrentContext() {
  if (Context* cached = t_current.context;
      cached != nullptr && t_current.generation == HandleRetirements() && !cached->is_lost()) {
    return cached;
  }
  SH_RETURN_IF_ERROR(CheckInitialized());
  const uint64_t generation = HandleRetirements();
  ThreadState& state = State();
  if (state.stack.empty()) {
    return Error(ErrorCode::kInvalidContext, "no context is current on this thread");
  }
  SH_ASSIGN_OR_RETURN(Context * context, ResolveStackEntry(state.stack.back()));
  if (context->is_lost()) return context->lost_error();
  t_current = CurrentCache{generation, context};
  return context;
}

absl::Status GetContextDevice(int* device) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (device == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetDevice: device is null");
  *device = context->device()->ordinal();
  return absl::OkStatus();
}

absl::Status GetContextFlags(unsigned* flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (flags == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetFlags: flags is null");
  *flags = context->flags();
  return absl::OkStatus();
}

absl::Status SetContextFlags(unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_RETURN_IF_ERROR(ValidateFlags(flags, "cuCtxSetFlags"));
  context->set_flags(flags);
  return absl::OkStatus();
}

absl::Status GetContextApiVersion(uint64_t handle, unsigned* version) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (handle == 0) {
    SH_RETURN_IF_ERROR(CurrentContext().status());
  } else {
    SH_RETURN_IF_ERROR(ResolveContext(handle).status());
  }
  if (version == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuCtxGetApiVersion: version is null");
  }
  *version = kContextApiVersion;
  return absl::OkStatus();
}

absl::Status GetContextId(uint64_t handle, unsigned long long* id) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  Context* context = nullptr;
  if (handle == 0) {
    SH_ASSIGN_OR_RETURN(context, CurrentContext());
  } else {
    SH_ASSIGN_OR_RETURN(context, ResolveContext(handle));
  }
  if (id == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetId: ctxId is null");
  *id = context->unique_id();
  return absl::OkStatus();
}

absl::Status ResetPersistingL2Cache() { return CurrentContext().status(); }

absl::Status GetStreamPriorityRange(int* least, int* greatest) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  // Two levels: 0 (normal) and -1 (high). Both outputs are optional.
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = -1;
  return absl::OkStatus();
}

absl::Status SynchronizeCurrentContext() {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  absl::Status status = context->Synchronize(Completion::kResults);
  MemPoolsSynchronized();
  return status;
}

absl::Status GetContextLimit(size_t* value, int limit) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetLimit: pvalue is null");
  if (limit < 0 || limit >= static_cast<int>(Limit::kCount)) {
    return Error(ErrorCode::kUnsupportedLimit, "cuCtxGetLimit: unknown limit ", limit);
  }
  *value = context->limit(static_cast<Limit>(limit));
  return absl::OkStatus();
}

absl::Status SetContextLimit(int limit, size_t value) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (limit < 0 || limit >= static_cast<int>(Limit::kCount)) {
    return Error(ErrorCode::kUnsupportedLimit, "cuCtxSetLimit: unknown limit ", limit);
  }
  const Limit which = static_cast<Limit>(limit);
  // Kernels have no stack on Vulkan; the value is kept and reported back, up
  // to a bound that rejects absurd sizes as HIP does (CUDA's driver may
  // refuse what it cannot provide).
  constexpr size_t kMaxStackSize = size_t{1} << 20;
  if (which == Limit::kStackSize && value > kMaxStackSize) {
    return Error(ErrorCode::kInvalidValue, "cuCtxSetLimit: stack size ", value, " exceeds ",
                 kMaxStackSize, " bytes");
  }
  if (which == Limit::kMaxL2FetchGranularity && value > 128) {
    return Error(ErrorCode::kInvalidValue, "cuCtxSetLimit: L2 fetch granularity ", value,
                 " exceeds 128 bytes");
  }
  if (which == Limit::kPersistingL2CacheSize && value != 0 &&
      context->device()->properties().l2_cache_size == 0) {
    return Error(ErrorCode::kUnsupportedLimit,
                 "cuCtxSetLimit: this device has no persisting L2 cache");
  }
  context->set_limit(which, value);
  return absl::OkStatus();
}

// Vulkan has no knob for the split between L1 cache and shared memory, nor
// for the width of shared-memory banks: every device is one with a fixed
// split and 4-byte banks. CUDA documents for such devices that the setters
// are accepted and do nothing, and that the getters report
// CU_FUNC_CACHE_PREFER_NONE and the fixed bank size (AMD's HIP does the
// same).
constexpr int kCachePreferNone = 0;         // CU_FUNC_CACHE_PREFER_NONE
constexpr int kCacheConfigCount = 4;        // ... CU_FUNC_CACHE_PREFER_EQUAL
constexpr int kSharedBankSizeFourByte = 1;  // CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE
constexpr int kSharedMemConfigCount = 3;    // ... EIGHT_BYTE_BANK_SIZE

absl::Status ValidateCacheConfig(int config, const char* api) {
  if (config < 0 || config >= kCacheConfigCount) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown cache config ", config);
  }
  return absl::OkStatus();
}

absl::Status ValidateSharedMemConfig(int config, const char* api) {
  if (config < 0 || config >= kSharedMemConfigCount) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown shared memory config ", config);
  }
  return absl::OkStatus();
}

absl::Status GetContextCacheConfig(int* config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (config == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetCacheConfig: null");
  *config = kCachePreferNone;
  return absl::OkStatus();
}

absl::Status SetContextCacheConfig(int config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  return ValidateCacheConfig(config, "cuCtxSetCacheConfig");
}

absl::Status GetContextSharedMemConfig(int* config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (config == nullptr) return Error(ErrorCode::kInvalidValue, "cuCtxGetSharedMemConfig: null");
  *config = kSharedBankSizeFourByte;
  return absl::OkStatus();
}

absl::Status SetContextSharedMemConfig(int config) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  return ValidateSharedMemConfig(config, "cuCtxSetSharedMemConfig");
}

absl::Status AttachContext(HandleOut out, unsigned flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuCtxAttach: pctx is null");
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuCtxAttach: flags must be 0");
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  context->AddUsage();
  out.Set(context->handle());
  return absl::OkStatus();
}

absl::Status DetachContext(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Context * context, ResolveContext(handle));
  ThreadState& state = State();
  if (state.stack.empty() || state.stack.back() != handle) {
    return Error(ErrorCode::kInvalidContext, "cuCtxDetach: ctx is not the current context");
  }
  if (context->DropUsage() > 0) return absl::OkStatus();
  if (context->is_primary()) {
    // The usage count of a primary context is its retain count; detach
    // never destroys it behind cuDevicePrimaryCtxRelease's back.
    context->AddUsage();
    return Error(ErrorCode::kInvalidContext, "cuCtxDetach: ctx is a primary context");
  }
  state.stack.pop_back();
  DeleteContext(context);
  return absl::OkStatus();
}

absl::Status RetainPrimaryContext(HandleOut out, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) {
    return Error(ErrorCode::kInvalidValue, "cuDevicePrimaryCtxRetain: pctx is null");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  Device::PrimaryState& primary = device->primary();
  MutexLock lock(&primary.mutex);
  if (primary.context == nullptr) {
    primary.context = NewContext(device, primary.flags, /*is_primary=*/true);
  }
  ++primary.refcount;
  out.Set(primary.context->handle());
  return absl::OkStatus();
}

absl::Status ReleasePrimaryContext(int device_ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  Context* to_delete = nullptr;
  {
    Device::PrimaryState& primary = device->primary();
    MutexLock lock(&primary.mutex);
    if (primary.refcount == 0) {
      return Error(ErrorCode::kInvalidContext,
                   "cuDevicePrimaryCtxRelease: the primary context of "
                   "device ",
                   device_ordinal, " is not retained");
    }
    if (--primary.refcount == 0) {
      to_delete = primary.context;  // null after a reset
      primary.context = nullptr;
      primary.runtime_retained = false;
    }
  }
  // Released outside the lock: teardown waits for the device.
  if (to_delete != nullptr) DeleteContext(to_delete);
  return absl::OkStatus();
}

namespace {

absl::Status SetPrimaryFlags(int device_ordinal, unsigned flags, const char* api) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  SH_RETURN_IF_ERROR(ValidateFlags(flags, api));
  Device::PrimaryState& primary = device->primary();
  MutexLock lock(&primary.mutex);
  // CUDA 11+: flags may change while the primary context is active.
  primary.flags = flags;
  if (primary.context != nullptr) primary.context->set_flags(flags);
  return absl::OkStatus();
}

}  // namespace

absl::Status SetPrimaryContextFlags(int device_ordinal, unsigned flags) {
  return SetPrimaryFlags(device_ordinal, flags, "cuDevicePrimaryCtxSetFlags");
}

absl::Status GetPrimaryContextState(int device_ordinal, unsigned* flags, int* active) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  if (flags == nullptr || active == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuDevicePrimaryCtxGetState: flags and active must "
                 "not be null");
  }
  Device::PrimaryState& primary = device->primary();
  MutexLock lock(&primary.mutex);
  *flags = primary.flags;
  *active = primary.context != nullptr ? 1 : 0;
  return absl::OkStatus();
}

absl::Status ResetPrimaryContext(int device_ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  Context* to_delete = nullptr;
  {
    Device::PrimaryState& primary = device->primary();
    MutexLock lock(&primary.mutex);
    // CUDA: reset destroys the context's resources and state but releases
    // nothing; retainers still release their references, and the next use
    // brings up a fresh context.
    to_delete = primary.context;
    primary.context = nullptr;
    primary.flags = 0;
  }
  if (to_delete != nullptr) DeleteContext(to_delete);
  return absl::OkStatus();
}

absl::Status RuntimeGetDevice(int* device) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (device == nullptr) return Error(ErrorCode::kInvalidValue, "hipGetDevice: device is null");
  ThreadState& state = State();
  if (!state.stack.empty()) {
    if (Context* context = LookupAs<Context>(state.stack.back())) {
      *device = context->device()->ordinal();
      return absl::OkStatus();
    }
  }
  *device = state.runtime_device;
  return absl::OkStatus();
}

// AMD: hipSetDeviceFlags sets the flags of the current device's primary
// context, and hipGetDeviceFlags reads them back.
absl::Status RuntimeSetDeviceFlags(unsigned flags) {
  int device = 0;
  SH_RETURN_IF_ERROR(RuntimeGetDevice(&device));
  return SetPrimaryFlags(device, flags, "hipSetDeviceFlags");
}

absl::Status RuntimeGetDeviceFlags(unsigned* flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (flags == nullptr) return Error(ErrorCode::kInvalidValue, "hipGetDeviceFlags: flags is null");
  int device_ordinal = 0;
  SH_RETURN_IF_ERROR(RuntimeGetDevice(&device_ordinal));
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  Device::PrimaryState& primary = device->primary();
  MutexLock lock(&primary.mutex);
  *flags = primary.flags;
  return absl::OkStatus();
}

namespace {

// Retains the primary context once on behalf of the runtime API.
absl::StatusOr<Context*> RuntimePrimary(Device* device) {
  Device::PrimaryState& primary = device->primary();
  MutexLock lock(&primary.mutex);
  if (primary.context == nullptr) {
    primary.context = NewContext(device, primary.flags, /*is_primary=*/true);
  }
  if (!primary.runtime_retained) {
    primary.runtime_retained = true;
    ++primary.refcount;
  }
  return primary.context;
}

}  // namespace

absl::StatusOr<Context*> RuntimePrimaryContext(int device_ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  return RuntimePrimary(device);
}

absl::Status RuntimeSetDevice(int device_ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  SH_ASSIGN_OR_RETURN(Context * context, RuntimePrimary(device));
  ThreadState& state = State();
  state.runtime_device = device_ordinal;
  if (state.stack.empty()) {
    state.stack.push_back(context->handle());
  } else {
    state.stack.back() = context->handle();
  }
  return absl::OkStatus();
}

absl::StatusOr<Context*> RuntimeCurrentContext() {
  SH_RETURN_IF_ERROR(CheckInitialized());
  ThreadState& state = State();
  if (!state.stack.empty()) return ResolveStackEntry(state.stack.back());
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(state.runtime_device));
  SH_ASSIGN_OR_RETURN(Context * context, RuntimePrimary(device));
  state.stack.push_back(context->handle());
  return context;
}

absl::Status RuntimeResetDevice() {
  int device = 0;
  SH_RETURN_IF_ERROR(RuntimeGetDevice(&device));
  ThreadState& state = State();
  SH_RETURN_IF_ERROR(ResetPrimaryContext(device));
  // The primary context is gone; unbind it from this thread's stack so the
  // next runtime call creates a fresh one.
  if (!state.stack.empty() && LookupAs<Context>(state.stack.back()) == nullptr) {
    state.stack.pop_back();
  }
  return absl::OkStatus();
}

void DestroyAllContexts() {
  std::vector<Context*> contexts;
  {
    LiveContexts& live = Live();
    MutexLock lock(&live.mutex);
    contexts.assign(live.set.begin(), live.set.end());
  }
  for (Context* context : contexts) {
    Device::PrimaryState& primary = context->device()->primary();
    {
      MutexLock lock(&primary.mutex);
      if (primary.context == context) {
        primary.context = nullptr;
        primary.refcount = 0;
        primary.runtime_retained = false;
        primary.flags = 0;
      }
    }
    DeleteContext(context);
  }
}

}  // namespace streamhal
