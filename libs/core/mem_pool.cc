#include "core/mem_pool.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/context.h"
#include "core/device.h"
#include "core/managed_location.h"
#include "core/pool_arena.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/stream_capture.h"

namespace streamhal {
namespace {

// Blocks are whole multiples of this (CUDA aligns allocations to 256 bytes
// at least); a cached block serves a request of up to a quarter less.
constexpr uint64_t kBlockGranularity = 512;
// How many cached blocks of fitting size an allocation looks at before it
// asks the device for a new one: keeps a call's cost flat however many
// blocks other streams have cached.
constexpr int kMaxCandidates = 32;
// Emptied buckets stay while the cache has at most this many sizes, so that
// a pair of calls of one size costs no b-tree update; beyond, they go.
constexpr size_t kKeptBuckets = 64;

uint64_t PageSize() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }

// Whether some pool may cache memory or a free of cuMemAlloc memory may wait
// (DeferredFree): synchronisation points have work only then. Set after a
// block is cached or a free deferred, without a read-modify-write when it is
// set already (a pair of pool calls costs no shared write). Synchronized
// clears it before it looks at the pools, each under its lock, and sets it
// again when something stays; a block cached meanwhile is either seen there
// or sets the flag after the clear.
std::atomic<bool> g_maybe_cached{false};

void NoteMaybeCached() {
  if (!g_maybe_cached.load(std::memory_order_acquire)) {
    g_maybe_cached.store(true, std::memory_order_release);
  }
}

// A non-pool allocation freed in a stream: released once the stream passes
// `point`.
struct DeferredFree {
  std::unique_ptr<Allocation> allocation;
  uint64_t stream = 0;
  uint64_t point = 0;
};

// Whether a stream (by handle) has passed `point`. A destroyed stream
// finished its work when it was destroyed.
bool StreamPassed(uint64_t stream_handle, uint64_t point) {
  if (stream_handle == 0) return true;
  Stream* stream = LookupAs<Stream>(stream_handle);
  if (stream == nullptr) return true;
  absl::StatusOr<bool> retired = stream->IsComplete(point);
  // A failed stream runs nothing more: nothing still uses the block.
  if (!retired.ok() || *retired) return true;
  // A user's synchronize returns once the work is done, which can be just
  // before the driver retires it; the driver needs microseconds more, and
  // memory released at that synchronisation point must not wait for the
  // next one.
  absl::StatusOr<bool> done = stream->IsComplete(point, Completion::kResults);
  if (!done.ok()) return true;
  if (!*done) return false;
  (void)stream->Wait(point, BlockingWaitPolicy());  // failed: runs nothing more
  return true;
}

// Every pool (default, created, destroyed with blocks still out), each
// device's default and current pool, and the deferred frees.
class Pools {
 public:
  MemPool* DefaultPool(Device* device) {
    MutexLock lock(&mutex_);
    return DefaultPoolLocked(device);
  }
  // Every cuMemAllocAsync asks this: one atomic load from the device once
  // its current pool is known.
  MemPool* CurrentPool(Device* device) {
    if (MemPool* pool = device->current_pool_hint().load(std::memory_order_acquire)) return pool;
    MutexLock lock(&mutex_);
    auto it = current_.find(device->ordinal());
    MemPool* pool = it != current_.end() ? it->second : DefaultPoolLocked(device);
    device->current_pool_hint().store(pool, std::memory_order_release);
    if (std::find(hinted_.begin(), hinted_.end(), device) == hinted_.end()) {
      hinted_.push_back(device);
    }
    return pool;
  }
  void SetCurrentPool(Device* device, MemPool* pool) {
    MutexLock lock(&mutex_);
    current_[device->ordinal()] = pool;
    ForgetCurrentLocked();
  }
  MemPool* Add(std::unique_ptr<MemPool> pool) {
    MutexLock lock(&mutex_);
    MemPool* raw = pool.get();
    pools_.push_back(std::move(pool));
    return raw;
  }
  // cuMemPoolDestroy: the pool stops being current; it is deleted now when
  // no block is out, else when its last block comes back (Collect).
  void Destroy(MemPool* pool) {
    std::unique_ptr<MemPool> doomed;
    {
      MutexLock lock(&mutex_);
      for (auto it = current_.begin(); it != current_.end();) {
        if (it->second == pool) {
          current_.erase(it++);
        } else {
          ++it;
        }
      }
      ForgetCurrentLocked();
      pool->Retire();
      if (!pool->HasLiveBlocks()) doomed = TakeLocked(pool);
    }
    if (doomed != nullptr) doomed->Trim(0, /*wait=*/true);
  }
  // Deletes `pool` if it was destroyed and its last block has come back.
  void Collect(MemPool* pool) {
    if (!pool->retired()) return;  // the common case: no lock
    std::unique_ptr<MemPool> doomed;
    {
      MutexLock lock(&mutex_);
      if (pool->retired() && !pool->HasLiveBlocks()) doomed = TakeLocked(pool);
    }
    if (doomed != nullptr) doomed->Trim(0, /*wait=*/true);
  }
  void Defer(DeferredFree free) {
    MutexLock lock(&mutex_);
    deferred_.push_back(std::move(free));
    NoteMaybeCached();
  }
  // Deinit: every context is gone, so every block is back and no work runs.
  void Clear() {
    std::vector<std::unique_ptr<MemPool>> pools;
    std::vector<DeferredFree> deferred;
    {
      MutexLock lock(&mutex_);
      pools.swap(pools_);
      deferred.swap(deferred_);
      defaults_.clear();
      current_.clear();
      ForgetCurrentLocked();
      hinted_.clear();
    }
    for (auto& pool : pools) pool->Trim(0, /*wait=*/true);
  }
  // Context teardown: each pool takes back the context's blocks; a pool
  // destroyed earlier goes when that was its last block out.
  void Reclaim(Context* context) {
    std::vector<std::unique_ptr<MemPool>> doomed;
    {
      MutexLock lock(&mutex_);
      std::vector<MemPool*> emptied;
      for (const auto& pool : pools_) {
        if (pool->imported() || !pool->Reclaim(context)) continue;
        if (pool->retired() && !pool->HasLiveBlocks()) emptied.push_back(pool.get());
      }
      for (MemPool* pool : emptied) doomed.push_back(TakeLocked(pool));
    }
    for (auto& pool : doomed) pool->Trim(0, /*wait=*/true);
  }
  void Synchronized() {
    std::vector<DeferredFree> finished;
    g_maybe_cached.store(false, std::memory_order_release);
    bool left = false;
    {
      MutexLock lock(&mutex_);
      // Under the lock, so that no pool is deleted meanwhile.
      for (const auto& pool : pools_) left |= pool->ReleaseAboveThreshold();
      for (auto it = deferred_.begin(); it != deferred_.end();) {
        if (StreamPassed(it->stream, it->point)) {
          finished.push_back(std::move(*it));
          it = deferred_.erase(it);
        } else {
          ++it;
        }
      }
      left |= !deferred_.empty();
    }
    if (left) NoteMaybeCached();
    finished.clear();  // the backend frees outside the lock
  }

 private:
  MemPool* DefaultPoolLocked(Device* device) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    MemPool*& pool = defaults_[device->ordinal()];
    if (pool == nullptr) {
      MemPoolProps props;
      props.location_id = device->ordinal();
      pools_.push_back(std::make_unique<MemPool>(device, props, /*is_default=*/true));
      pool = pools_.back().get();
    }
    return pool;
  }
  // The next CurrentPool of every device asks under the lock again.
  void ForgetCurrentLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    for (Device* device : hinted_) {
      device->current_pool_hint().store(nullptr, std::memory_order_release);
    }
  }
  std::unique_ptr<MemPool> TakeLocked(MemPool* pool) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    for (auto it = pools_.begin(); it != pools_.end(); ++it) {
      if (it->get() == pool) {
        std::unique_ptr<MemPool> taken = std::move(*it);
        pools_.erase(it);
        return taken;
      }
    }
    return nullptr;
  }

  Mutex mutex_;
  std::vector<std::unique_ptr<MemPool>> pools_ ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<int, MemPool*> defaults_ ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<int, MemPool*> current_ ABSL_GUARDED_BY(mutex_);
  std::vector<DeferredFree> deferred_ ABSL_GUARDED_BY(mutex_);
  // The devices whose current_pool_hint CurrentPool has set: the ones to
  // clear when a current pool changes. Devices outlive the pools (Deinit
  // destroys the pools first).
  std::vector<Device*> hinted_ ABSL_GUARDED_BY(mutex_);
};

Pools& GetPools() {
  static Pools* pools = new Pools;  // leaked: no static destructor
  return *pools;
}

absl::StatusOr<MemPool*> ResolvePool(uint64_t handle, const char* api) {
  HandleState state = HandleState::kLive;
  MemPool* pool = LookupAs<MemPool>(handle, &state);
  if (pool == nullptr || pool->retired()) {
    return Error(ErrorCode::kInvalidValue, api, ": ",
                 handle == 0 ? "the pool is null" : "not a live memory pool");
  }
  return pool;
}

absl::StatusOr<Device*> ResolveDeviceOrdinal(int ordinal, const char* api) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  absl::StatusOr<Device*> device = GetDevice(ordinal);
  if (!device.ok()) return Error(ErrorCode::kInvalidDevice, api, ": no device ", ordinal);
  return device;
}

absl::Status AllocFrom(Context* context, MemPool* pool, uint64_t* dptr, size_t bytes,
                       uint64_t stream_handle, const char* api) {
  if (dptr == nullptr) return Error(ErrorCode::kInvalidValue, api, ": dptr is null");
  if (bytes == 0) return Error(ErrorCode::kInvalidValue, api, ": bytesize is 0");
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(context, stream_handle));
  if (pool == nullptr) pool = GetPools().CurrentPool(stream->device());
  if (pool->imported()) {
    return Error(ErrorCode::kInvalidValue, api,
                 ": a pool imported from another process allocates nothing");
  }
  if (pool->device() != stream->device()) {
    return Error(ErrorCode::kInvalidValue, api, ": the pool belongs to device ",
                 pool->device()->ordinal(), ", the stream to device ",
                 stream->context()->device()->ordinal());
  }
  // Captured: an allocation node of the capture's graph (core/graph_memory.h).
  if (stream->capture() != nullptr) return CaptureMemAlloc(stream, bytes, dptr);
  SH_ASSIGN_OR_RETURN(Allocation * block, pool->Allocate(stream->context(), stream, bytes));
  *dptr = block->device_address();
  return absl::OkStatus();
}

}  // namespace

// ---- MemPool ----------------------------------------------------------------

MemPool::MemPool(Device* device, const MemPoolProps& props, bool is_default,
                 std::shared_ptr<PoolArena> arena, bool imported)
    : Object(kKind),
      device_(device),
      max_allocation_size_(device->properties().max_allocation_size),
      // Blocks in a shared file are mapped, so they are whole pages.
      granularity_(arena != nullptr ? std::max(PageSize(), kBlockGranularity) : kBlockGranularity),
      props_(props),
      is_default_(is_default),
      arena_(std::move(arena)),
      imported_(imported) {}

MemPool::~MemPool() {
  // Trim(0, /*wait=*/true) ran before (cuMemPoolDestroy, Deinit); whatever
  // is still cached leaves the address map with the pool.
  std::vector<Allocation*> left;
  {
    MutexLock lock(&mutex_);
    SpillLastFreedLocked();
    for (auto& [size, bucket] : cache_) {
      for (const CachedBlock& cached : bucket) left.push_back(cached.allocation);
    }
    cache_.clear();
  }
  RemoveAllocations(left);
  if (!left.empty()) BumpResourceGeneration();
}

void MemPool::Retire() { retired_.store(true, std::memory_order_release); }

bool MemPool::HasLiveBlocks() const {
  MutexLock lock(&mutex_);
  return live_blocks_ > 0;
}

void MemPool::AccountReserved(int64_t delta) {
  reserved_ += static_cast<uint64_t>(delta);
  reserved_high_ = std::max(reserved_high_, reserved_);
}

void MemPool::AccountUsed(int64_t delta) {
  used_ += static_cast<uint64_t>(delta);
  used_high_ = std::max(used_high_, used_);
}

bool MemPool::Reusable(const CachedBlock& block, Stream* stream, bool* needs_wait) const {
  *needs_wait = false;
  if (block.stream == 0 || block.stream == stream->handle()) return true;
  if (follow_event_dependencies_ && stream->WaitedPoint(block.stream) >= block.point) return true;
  if (allow_opportunistic_ && StreamPassed(block.stream, block.point)) return true;
  if (allow_internal_dependencies_) {
    *needs_wait = true;
    return true;
  }
  return false;
}

Allocation* MemPool::Hand(const CachedBlock& block, Context* context, uint64_t bytes) {
  Allocation* allocation = block.allocation;
  allocation->context = context;
  allocation->size = bytes;
  ++live_blocks_;
  AccountUsed(static_cast<int64_t>(allocation->block_size));
  last_handed_ = allocation;
  // Last: a lookup that finds the block live sees its new owner and size.
  allocation->cached.store(false, std::memory_order_release);
  return allocation;
}

absl::StatusOr<Allocation*> MemPool::Allocate(Context* context, Stream* stream, uint64_t bytes) {
  if (bytes > max_allocation_size_ || bytes > UINT64_MAX - (granularity_ - 1)) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAllocAsync: ", bytes,
                 " bytes exceeds the largest allocation");
  }
  // A mask, not a division: this runs on every allocation.
  const uint64_t size = (bytes + granularity_ - 1) & ~(granularity_ - 1);
  SH_ASSIGN_OR_RETURN(Allocation * cached, TakeCached(context, stream, size, bytes));
  if (cached != nullptr) return cached;  // already in the address map
  SH_ASSIGN_OR_RETURN(std::unique_ptr<Allocation> block, NewBlock(context, size, bytes));
  Allocation* raw = block.get();
  InsertAllocation(std::move(block));
  return raw;
}

absl::StatusOr<Allocation*> MemPool::TakeCached(Context* context, Stream* stream, uint64_t size,
                                                uint64_t bytes) {
  const uint64_t largest_fit = size + size / 4;
  Allocation* block = nullptr;
  uint64_t wait_stream = 0, wait_point = 0;
  {
    MutexLock lock(&mutex_);
    // The block freed last, of this very size, in this stream: what the
    // walk below would find first.
    if (const CachedBlock& last = last_freed_;
        last.allocation != nullptr && last.allocation->block_size == size &&
        (last.stream == 0 || last.stream == stream->handle())) {
      block = Hand(last, context, bytes);
      last_freed_ = CachedBlock{};
      return block;
    }
    SpillLastFreedLocked();
    // Blocks that need no wait first, the smallest size and the last freed
    // first; one that does only when none is free.
    Bucket* waiting_bucket = nullptr;
    size_t waiting_index = 0;
    int looked = 0;
    for (auto it = cache_.lower_bound(size);
         it != cache_.end() && it->first <= largest_fit && looked < kMaxCandidates; ++it) {
      Bucket& bucket = it->second;
      if (bucket.empty()) ++looked;  // an empty bucket costs a look too
      for (size_t i = bucket.size(); i > 0 && looked < kMaxCandidates; --i, ++looked) {
        bool needs_wait = false;
        if (!Reusable(bucket[i - 1], stream, &needs_wait)) continue;
        if (!needs_wait) {
          block = Hand(bucket[i - 1], context, bytes);
          bucket.erase(bucket.begin() + static_cast<ptrdiff_t>(i - 1));
          if (bucket.empty() && cache_.size() > kKeptBuckets) cache_.erase(it);
          return block;
        }
        if (waiting_bucket == nullptr) {
          waiting_bucket = &bucket;
          waiting_index = i - 1;
        }
      }
    }
    if (waiting_bucket == nullptr) return nullptr;
    const CachedBlock waiting = (*waiting_bucket)[waiting_index];
    waiting_bucket->erase(waiting_bucket->begin() + static_cast<ptrdiff_t>(waiting_index));
    if (waiting_bucket->empty() && cache_.size() > kKeptBuckets) {
      cache_.erase(waiting.allocation->block_size);
    }
    wait_stream = waiting.stream;
    wait_point = waiting.point;
    block = Hand(waiting, context, bytes);
  }
  // kReuseAllowInternalDependencies: the allocating stream waits for the
  // free. A source stream destroyed meanwhile finished its work.
  Stream* source = LookupAs<Stream>(wait_stream);
  if (source == nullptr) return block;
  absl::Status waited = stream->Record(
      [&](BackendStream* backend) { return backend->RecordWait(source->backend(), wait_point); });
  if (!waited.ok()) {
    MutexLock lock(&mutex_);
    --live_blocks_;
    used_ -= block->block_size;
    CacheLocked(block, wait_stream, wait_point);
    return waited;
  }
  stream->NoteWaited(wait_stream, wait_point);
  return block;
}

absl::StatusOr<std::unique_ptr<Allocation>> MemPool::NewBlock(Context* context, uint64_t size,
                                                              uint64_t bytes) {
  if (props_.max_size != 0) {
    // Over the pool's limit, finished cached blocks make room first.
    auto over_limit = [&] {
      MutexLock lock(&mutex_);
      return size > props_.max_size - std::min(props_.max_size, reserved_);
    };
    if (over_limit()) Trim(props_.max_size > size ? props_.max_size - size : 0, /*wait=*/false);
    if (over_limit()) {
      return Error(ErrorCode::kOutOfMemory, "cuMemAllocAsync: ", size,
                   " more bytes would take the pool past its maxSize of ", props_.max_size);
    }
  }
  auto allocate = [&]() -> absl::StatusOr<std::unique_ptr<Allocation>> {
    if (arena_ != nullptr) return arena_->NewBlock(device_, size);
    SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> backend,
                        device_->backend()->Allocate(size, MemoryKind::kDevice));
    auto fresh = std::make_unique<Allocation>();
    fresh->backend = std::move(backend);
    fresh->kind = AllocationKind::kDevice;
    fresh->block_size = size;
    return fresh;
  };
  absl::StatusOr<std::unique_ptr<Allocation>> block = allocate();
  if (!block.ok() && ErrorCodeOf(block.status()) == ErrorCode::kOutOfMemory) {
    // Give this pool's finished cached memory back and try once more.
    Trim(0, /*wait=*/false);
    block = allocate();
  }
  if (!block.ok()) return block.status();
  (*block)->context = context;
  (*block)->size = bytes;
  (*block)->pool = this;
  MutexLock lock(&mutex_);
  AccountReserved(static_cast<int64_t>(size));
  AccountUsed(static_cast<int64_t>(size));
  ++live_blocks_;
  // The backend gave the address, so it is new to this pool.
  blocks_[(*block)->device_address()] = block->get();
  last_handed_ = block->get();
  return block;
}

absl::StatusOr<Allocation*> MemPool::Import(Context* context, uint64_t offset, uint64_t block_size,
                                            uint64_t bytes) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<Allocation> block,
                      arena_->MapBlock(device_, offset, block_size));
  block->context = context;
  block->size = bytes;
  block->pool = this;
  {
    MutexLock lock(&mutex_);
    ++live_blocks_;
  }
  Allocation* raw = block.get();
  InsertAllocation(std::move(block));
  return raw;
}

void MemPool::Forget() {
  MutexLock lock(&mutex_);
  --live_blocks_;
}

absl::Status MemPool::Cache(Allocation* block, uint64_t stream, uint64_t point, const char* api) {
  MutexLock lock(&mutex_);
  // Two threads freeing one block: the lookup let both through, the lock
  // lets one.
  if (block->cached.load(std::memory_order_relaxed)) {
    return Error(ErrorCode::kInvalidValue, api, ": 0x", absl::Hex(block->device_address()),
                 " is not the start of a live device allocation");
  }
  --live_blocks_;
  used_ -= block->block_size;
  CacheLocked(block, stream, point);
  return absl::OkStatus();
}

bool MemPool::CacheAt(uint64_t dptr, uint64_t stream, uint64_t point) {
  MutexLock lock(&mutex_);
  Allocation* block = last_handed_;
  if (block == nullptr || block->device_address() != dptr) {
    auto it = blocks_.find(dptr);
    if (it == blocks_.end()) return false;
    block = it->second;
  }
  // A cached block is not live: the caller's lookup reports the error.
  if (block->cached.load(std::memory_order_relaxed)) return false;
  --live_blocks_;
  used_ -= block->block_size;
  CacheLocked(block, stream, point);
  return true;
}

void MemPool::CacheLocked(Allocation* block, uint64_t stream, uint64_t point) {
  // First: from here on every lookup passes the block by.
  block->cached.store(true, std::memory_order_release);
  SpillLastFreedLocked();
  last_freed_ = CachedBlock{block, stream, point};
  NoteMaybeCached();
}

void MemPool::SpillLastFreedLocked() {
  if (last_freed_.allocation == nullptr) return;
  cache_[last_freed_.allocation->block_size].push_back(last_freed_);
  last_freed_ = CachedBlock{};
}

bool MemPool::Reclaim(Context* context) {
  MutexLock lock(&mutex_);
  bool any = false;
  for (const auto& [address, block] : blocks_) {
    if (block->cached.load(std::memory_order_relaxed) || block->context != context) continue;
    --live_blocks_;
    used_ -= block->block_size;
    CacheLocked(block, /*stream=*/0, /*point=*/0);
    any = true;
  }
  return any;
}

void MemPool::Trim(uint64_t keep, bool wait) {
  std::vector<Allocation*> released;
  {
    MutexLock lock(&mutex_);
    SpillLastFreedLocked();
    // Largest blocks first: the fewest releases reach the target.
    for (auto it = cache_.end(); it != cache_.begin() && reserved_ > keep;) {
      --it;
      const uint64_t size = it->first;
      Bucket& bucket = it->second;
      // The oldest frees first: the likeliest to have finished.
      size_t kept = 0;
      for (size_t i = 0; i < bucket.size(); ++i) {
        const CachedBlock& cached = bucket[i];
        bool release = reserved_ > keep;
        if (release && !StreamPassed(cached.stream, cached.point)) {
          if (wait) {
            if (Stream* stream = LookupAs<Stream>(cached.stream)) {
              (void)stream->Wait(cached.point);  // a failed stream runs nothing more
            }
          } else {
            release = false;
          }
        }
        if (!release) {
          bucket[kept++] = cached;
          continue;
        }
        reserved_ -= size;
        blocks_.erase(cached.allocation->device_address());
        if (last_handed_ == cached.allocation) last_handed_ = nullptr;
        released.push_back(cached.allocation);
      }
      bucket.resize(kept);
      if (bucket.empty()) it = cache_.erase(it);
    }
  }
  // Out of the address map and destroyed outside the pool's lock; nothing
  // on the device uses them any more.
  if (released.empty()) return;
  RemoveAllocations(released);
  BumpResourceGeneration();
}

bool MemPool::ReleaseAboveThreshold() {
  uint64_t threshold = 0;
  {
    MutexLock lock(&mutex_);
    if (reserved_ == used_) return false;  // nothing cached
    if (reserved_ <= release_threshold_) return true;
    threshold = release_threshold_;
  }
  Trim(threshold, /*wait=*/false);
  MutexLock lock(&mutex_);
  return reserved_ != used_;
}

absl::Status MemPool::SetAttribute(int attribute, const void* value) {
  if (value == nullptr)
    return Error(ErrorCode::kInvalidValue, "cuMemPoolSetAttribute: value is null");
  MutexLock lock(&mutex_);
  int flag = 0;
  uint64_t bytes = 0;
  switch (attribute) {
    case kPoolAttrReuseFollowEventDependencies:
    case kPoolAttrReuseAllowOpportunistic:
    case kPoolAttrReuseAllowInternalDependencies:
      std::memcpy(&flag, value, sizeof(flag));
      (attribute == kPoolAttrReuseFollowEventDependencies ? follow_event_dependencies_
       : attribute == kPoolAttrReuseAllowOpportunistic    ? allow_opportunistic_
                                                       : allow_internal_dependencies_) = flag != 0;
      return absl::OkStatus();
    case kPoolAttrReleaseThreshold:
      std::memcpy(&release_threshold_, value, sizeof(release_threshold_));
      return absl::OkStatus();
    case kPoolAttrReservedMemHigh:
    case kPoolAttrUsedMemHigh:
      // The high watermarks can only be reset (to the current value).
      std::memcpy(&bytes, value, sizeof(bytes));
      if (bytes != 0) {
        return Error(ErrorCode::kInvalidValue,
                     "cuMemPoolSetAttribute: a high watermark can only be reset, with 0");
      }
      if (attribute == kPoolAttrReservedMemHigh) {
        reserved_high_ = reserved_;
      } else {
        used_high_ = used_;
      }
      return absl::OkStatus();
    case kPoolAttrReservedMemCurrent:
    case kPoolAttrUsedMemCurrent:
      return Error(ErrorCode::kInvalidValue, "cuMemPoolSetAttribute: attribute ", attribute,
                   " is read-only");
    default:
      return Error(ErrorCode::kInvalidValue, "cuMemPoolSetAttribute: unknown attribute ",
                   attribute);
  }
}

absl::Status MemPool::GetAttribute(int attribute, void* value) {
  if (value == nullptr)
    return Error(ErrorCode::kInvalidValue, "cuMemPoolGetAttribute: value is null");
  MutexLock lock(&mutex_);
  auto put_flag = [&](bool flag) {
    const int v = flag ? 1 : 0;
    std::memcpy(value, &v, sizeof(v));
    return absl::OkStatus();
  };
  auto put_bytes = [&](uint64_t bytes) {
    std::memcpy(value, &bytes, sizeof(bytes));
    return absl::OkStatus();
  };
  switch (attribute) {
    case kPoolAttrReuseFollowEventDependencies:
      return put_flag(follow_event_dependencies_);
    case kPoolAttrReuseAllowOpportunistic:
      return put_flag(allow_opportunistic_);
    case kPoolAttrReuseAllowInternalDependencies:
      return put_flag(allow_internal_dependencies_);
    case kPoolAttrReleaseThreshold:
      return put_bytes(release_threshold_);
    case kPoolAttrReservedMemCurrent:
      return put_bytes(reserved_);
    case kPoolAttrReservedMemHigh:
      return put_bytes(reserved_high_);
    case kPoolAttrUsedMemCurrent:
      return put_bytes(used_);
    case kPoolAttrUsedMemHigh:
      return put_bytes(used_high_);
    default:
      return Error(ErrorCode::kInvalidValue, "cuMemPoolGetAttribute: unknown attribute ",
                   attribute);
  }
}

// ---- entry points -----------------------------------------------------------

absl::Status MemAllocAsync(uint64_t* dptr, size_t bytes, uint64_t stream) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  return AllocFrom(context, nullptr, dptr, bytes, stream, "cuMemAllocAsync");
}

absl::Status MemAllocFromPoolAsync(uint64_t* dptr, size_t bytes, uint64_t pool_handle,
                                   uint64_t stream) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(pool_handle, "cuMemAllocFromPoolAsync"));
  return AllocFrom(context, pool, dptr, bytes, stream, "cuMemAllocFromPoolAsync");
}

absl::Status MemFreeAsync(uint64_t dptr, uint64_t stream_handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(context, stream_handle));
  // Captured: a free node for memory an allocation node of the capture made.
  if (stream->capture() != nullptr) return CaptureMemFree(stream, dptr);
  // The common case, a block of the device's current pool freed in a
  // created or per-thread stream: the pool knows its blocks by address, so
  // the address map is not asked. Anything else (and a failed flush, which
  // the full path reports after validating) takes the full path.
  if (stream->role() != StreamRole::kLegacy && dptr != 0) {
    MemPool* pool = GetPools().CurrentPool(stream->device());
    // Nothing recorded since the last flush: that flush's point covers
    // every use of the block in this stream, and the stream's lock is not
    // needed.
    const uint64_t settled = stream->SettledPoint();
    absl::StatusOr<uint64_t> point = settled != Stream::kUnsettled ? settled : stream->Flush();
    if (point.ok() && pool->CacheAt(dptr, stream->handle(), *point)) {
      GetPools().Collect(pool);
      return absl::OkStatus();
    }
  }
  Allocation* allocation = FindDeviceAllocationAt(dptr);
  if (allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemFreeAsync: 0x", absl::Hex(dptr),
                 " is not the start of a live device allocation");
  }
  if (allocation->context->device() != stream->context()->device()) {
    return Error(ErrorCode::kInvalidValue, "cuMemFreeAsync: the memory belongs to device ",
                 allocation->context->device()->ordinal(), ", the stream to device ",
                 stream->context()->device()->ordinal());
  }
  // The legacy stream's free follows the earlier work of the blocking
  // streams as any command on it would: an empty command collects those
  // waits.
  if (stream->role() == StreamRole::kLegacy) {
    SH_RETURN_IF_ERROR(stream->Record([](BackendStream*) { return absl::OkStatus(); }));
  }
  SH_ASSIGN_OR_RETURN(const uint64_t point, stream->Flush());
  if (MemPool* pool = allocation->pool; pool != nullptr && !pool->imported()) {
    // The block stays in the address map, passed by from now on.
    SH_RETURN_IF_ERROR(pool->Cache(allocation, stream->handle(), point, "cuMemFreeAsync"));
    GetPools().Collect(pool);
    return absl::OkStatus();
  }
  std::unique_ptr<Allocation> owned = RemoveAllocation(allocation);
  BumpResourceGeneration();
  if (MemPool* pool = owned->pool; pool != nullptr) {
    // An imported block is unmapped once the stream passes the free.
    pool->Forget();
    GetPools().Defer(DeferredFree{std::move(owned), stream->handle(), point});
    GetPools().Collect(pool);
  } else {
    GetPools().Defer(DeferredFree{std::move(owned), stream->handle(), point});
  }
  return absl::OkStatus();
}

absl::Status MemPoolFreeNow(Allocation* allocation) {
  if (MemPool* pool = allocation->pool; pool->imported()) {
    // An imported block is a mapping: unmapped once the work that may use
    // it has finished, like cuMemFree of any other device memory.
    absl::Status freed = FreeAllocation(allocation);
    pool->Forget();
    GetPools().Collect(pool);
    return freed;
  }
  MemPool* pool = allocation->pool;
  SH_RETURN_IF_ERROR(pool->Cache(allocation, /*stream=*/0, /*point=*/0, "cuMemFree"));
  GetPools().Collect(pool);
  return absl::OkStatus();
}

void MemPoolReclaim(std::unique_ptr<Allocation> block) {
  MemPool* pool = block->pool;
  block.reset();  // the context's work has finished: unmapped now
  pool->Forget();
  GetPools().Collect(pool);
}

void MemPoolsReclaim(Context* context) { GetPools().Reclaim(context); }

void DestroyAllMemPools() { GetPools().Clear(); }

void MemPoolsSynchronized() {
  if (!g_maybe_cached.load(std::memory_order_acquire)) return;
  GetPools().Synchronized();
}

absl::Status MemPoolCreate(HandleOut out, const MemPoolProps& props) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuMemPoolCreate: pool is null");
  if (props.allocation_type != kMemAllocationTypePinned) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolCreate: allocType must be "
                 "CU_MEM_ALLOCATION_TYPE_PINNED");
  }
  if (props.location_type != kMemLocationTypeDevice) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolCreate: location.type must be CU_MEM_LOCATION_TYPE_DEVICE");
  }
  SH_ASSIGN_OR_RETURN(Device * device, ResolveDeviceOrdinal(props.location_id, "cuMemPoolCreate"));
  constexpr int kKnownHandleTypes =
      kMemHandleTypePosixFd | kMemHandleTypeWin32 | kMemHandleTypeWin32Kmt;
  if ((props.handle_types & ~kKnownHandleTypes) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolCreate: unknown handle types 0x",
                 absl::Hex(props.handle_types));
  }
  std::shared_ptr<PoolArena> arena;
  if (props.handle_types != kMemHandleTypeNone) {
    if (props.handle_types != kMemHandleTypePosixFd) {
      return Error(ErrorCode::kNotSupported,
                   "cuMemPoolCreate: only POSIX file descriptors are shareable handles here");
    }
    if (!PoolArena::Supported(device)) {
      return Error(ErrorCode::kNotSupported, "cuMemPoolCreate: device ", device->ordinal(),
                   " cannot import host memory, which shareable pools are made of "
                   "(CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES is 0)");
    }
    SH_ASSIGN_OR_RETURN(arena, PoolArena::Create(device->ordinal()));
  }
  MemPool* pool = GetPools().Add(
      std::make_unique<MemPool>(device, props, /*is_default=*/false, std::move(arena)));
  out.Set(pool->handle());
  return absl::OkStatus();
}

absl::Status MemPoolDestroy(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolDestroy"));
  if (pool->is_default()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolDestroy: a device's default pool cannot be "
                 "destroyed");
  }
  GetPools().Destroy(pool);
  return absl::OkStatus();
}

absl::Status MemPoolSetAttribute(uint64_t handle, int attribute, const void* value) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolSetAttribute"));
  return pool->SetAttribute(attribute, value);
}

absl::Status MemPoolGetAttribute(uint64_t handle, int attribute, void* value) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolGetAttribute"));
  return pool->GetAttribute(attribute, value);
}

absl::Status MemPoolTrimTo(uint64_t handle, size_t min_bytes_to_keep) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolTrimTo"));
  pool->Trim(min_bytes_to_keep, /*wait=*/false);
  return absl::OkStatus();
}

namespace {

// The access `desc` asks for, checked: the pool's own device always has
// read-write access; other devices would need peer access, which streamhal
// does not provide yet.
absl::Status CheckAccess(const MemPool& pool, const MemAccessDesc& desc, const char* api) {
  if (desc.location_type != kMemLocationTypeDevice) {
    return Error(ErrorCode::kInvalidValue, api, ": location.type must be a device");
  }
  SH_RETURN_IF_ERROR(ResolveDeviceOrdinal(desc.location_id, api).status());
  if (desc.flags != kMemAccessProtNone && desc.flags != kMemAccessProtRead &&
      desc.flags != kMemAccessProtReadWrite) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown access flags ", desc.flags);
  }
  if (desc.location_id == pool.device()->ordinal()) {
    if (desc.flags != kMemAccessProtReadWrite) {
      return Error(ErrorCode::kInvalidValue, api,
                   ": the pool's own device always has read-write access");
    }
    return absl::OkStatus();
  }
  if (desc.flags != kMemAccessProtNone) {
    return Error(ErrorCode::kNotSupported, api, ": device ", desc.location_id,
                 " cannot access memory of device ", pool.device()->ordinal(), " (no peer access)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MemPoolSetAccess(uint64_t handle, const MemAccessDesc* map, size_t count) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolSetAccess"));
  if (map == nullptr && count != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolSetAccess: map is null");
  }
  // All or nothing: every entry is checked before any takes effect (none
  // changes anything today).
  for (size_t i = 0; i < count; ++i) {
    SH_RETURN_IF_ERROR(CheckAccess(*pool, map[i], "cuMemPoolSetAccess"));
  }
  return absl::OkStatus();
}

absl::Status MemPoolGetAccess(int* flags, uint64_t handle, const MemAccessDesc* location) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolGetAccess"));
  if (flags == nullptr || location == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolGetAccess: flags and location must not be null");
  }
  if (location->location_type != kMemLocationTypeDevice) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolGetAccess: location.type must be a device");
  }
  SH_RETURN_IF_ERROR(ResolveDeviceOrdinal(location->location_id, "cuMemPoolGetAccess").status());
  *flags = location->location_id == pool->device()->ordinal() ? kMemAccessProtReadWrite
                                                              : kMemAccessProtNone;
  return absl::OkStatus();
}

absl::Status MemPoolExportToShareableHandle(void* handle_out, uint64_t handle, int handle_type,
                                            unsigned long long flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolExportToShareableHandle"));
  if (handle_out == nullptr || flags != 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolExportToShareableHandle: handle_out is null or flags are not 0");
  }
  if ((pool->props().handle_types & handle_type) == 0 || handle_type == kMemHandleTypeNone ||
      pool->imported()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolExportToShareableHandle: the pool was not created with handle type ",
                 handle_type);
  }
  SH_ASSIGN_OR_RETURN(const int fd, pool->arena()->Export());
  std::memcpy(handle_out, &fd, sizeof(fd));
  return absl::OkStatus();
}

absl::Status MemPoolImportFromShareableHandle(HandleOut out, void* handle, int handle_type,
                                              unsigned long long flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (out.is_null() || flags != 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolImportFromShareableHandle: pool_out is null or flags are not 0");
  }
  if (handle_type != kMemHandleTypePosixFd) {
    return Error(handle_type == kMemHandleTypeWin32 || handle_type == kMemHandleTypeWin32Kmt
                     ? ErrorCode::kNotSupported
                     : ErrorCode::kInvalidValue,
                 "cuMemPoolImportFromShareableHandle: handle type ", handle_type,
                 " is not a POSIX file descriptor");
  }
  // CUDA passes the descriptor itself, cast to a pointer.
  const int fd = static_cast<int>(reinterpret_cast<intptr_t>(handle));
  SH_ASSIGN_OR_RETURN(std::shared_ptr<PoolArena> arena, PoolArena::Import(fd));
  absl::StatusOr<Device*> device = GetDevice(arena->location_id());
  if (!device.ok()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolImportFromShareableHandle: the pool is on "
                 "device ",
                 arena->location_id(), ", which this process does not have");
  }
  if (!PoolArena::Supported(*device)) {
    return Error(ErrorCode::kNotSupported, "cuMemPoolImportFromShareableHandle: device ",
                 arena->location_id(), " cannot import host memory");
  }
  MemPoolProps props;
  props.handle_types = kMemHandleTypePosixFd;
  props.location_id = arena->location_id();
  MemPool* pool = GetPools().Add(std::make_unique<MemPool>(*device, props, /*is_default=*/false,
                                                           std::move(arena), /*imported=*/true));
  out.Set(pool->handle());
  return absl::OkStatus();
}

absl::Status MemPoolExportPointer(void* export_data, uint64_t dptr) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (export_data == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolExportPointer: shareData_out is null");
  }
  Allocation* allocation = FindDeviceAllocationAt(dptr);
  if (allocation == nullptr || allocation->pool == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolExportPointer: 0x", absl::Hex(dptr),
                 " is not the start of a live pool allocation");
  }
  const MemPool* pool = allocation->pool;
  if (pool->arena() == nullptr || pool->imported()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolExportPointer: the pool was created without a shareable handle type");
  }
  PoolPointerExport data;
  data.magic = kPoolPointerExportMagic;
  data.pool_id = pool->arena()->id();
  data.offset = allocation->pool_offset;
  data.block_size = allocation->block_size;
  data.bytes = allocation->size;
  std::memset(export_data, 0, kPoolPointerExportSize);
  std::memcpy(export_data, &data, sizeof(data));
  return absl::OkStatus();
}

absl::Status MemPoolImportPointer(uint64_t* dptr, uint64_t handle, const void* export_data) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuMemPoolImportPointer"));
  if (dptr == nullptr || export_data == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolImportPointer: ptr_out or shareData is null");
  }
  if (!pool->imported()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolImportPointer: the pool was not imported from a shareable handle");
  }
  PoolPointerExport data;
  std::memcpy(&data, export_data, sizeof(data));
  if (data.magic != kPoolPointerExportMagic || data.pool_id != pool->arena()->id() ||
      data.bytes == 0 || data.bytes > data.block_size) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemPoolImportPointer: the export data is not from this pool");
  }
  if (context->device() != pool->device()) {
    return Error(ErrorCode::kInvalidValue, "cuMemPoolImportPointer: the pool is on device ",
                 pool->device()->ordinal(), ", the current context on device ",
                 context->device()->ordinal());
  }
  SH_ASSIGN_OR_RETURN(Allocation * block,
                      pool->Import(context, data.offset, data.block_size, data.bytes));
  *dptr = block->device_address();
  return absl::OkStatus();
}

absl::Status DeviceGetDefaultMemPool(HandleOut out, int ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, ResolveDeviceOrdinal(ordinal, "cuDeviceGetDefaultMemPool"));
  if (out.is_null()) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetDefaultMemPool: pool_out is null");
  }
  out.Set(GetPools().DefaultPool(device)->handle());
  return absl::OkStatus();
}

absl::Status DeviceGetMemPool(HandleOut out, int ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, ResolveDeviceOrdinal(ordinal, "cuDeviceGetMemPool"));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuDeviceGetMemPool: pool is null");
  out.Set(GetPools().CurrentPool(device)->handle());
  return absl::OkStatus();
}

absl::Status DeviceSetMemPool(int ordinal, uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Device * device, ResolveDeviceOrdinal(ordinal, "cuDeviceSetMemPool"));
  SH_ASSIGN_OR_RETURN(MemPool * pool, ResolvePool(handle, "cuDeviceSetMemPool"));
  if (pool->device() != device) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceSetMemPool: the pool belongs to device ",
                 pool->device()->ordinal());
  }
  if (pool->imported()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuDeviceSetMemPool: a pool imported from another process allocates nothing");
  }
  GetPools().SetCurrentPool(device, pool);
  return absl::OkStatus();
}

namespace {

// The device whose pinned pools a location and allocation type name.
absl::StatusOr<Device*> ResolvePoolLocation(const MemLocation* location, int type,
                                            const char* api) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (location == nullptr) return Error(ErrorCode::kInvalidValue, api, ": location is null");
  const bool managed = type == kMemAllocationTypeManaged;
  if (type != kMemAllocationTypePinned && !managed) {
    return Error(ErrorCode::kInvalidValue, api, ": allocation type ", type,
                 " is neither pinned nor managed");
  }
  switch (location->type) {
    case kMemLocationDevice:
      break;
    case kMemLocationHost:
    case kMemLocationHostNuma:
      return Error(ErrorCode::kNotSupported, api,
                   ": pools of host memory are not implemented; device pools are");
    case kMemLocationNone:
      // No preferred location is a form of managed pools only.
      if (managed) break;
      [[fallthrough]];
    default:
      return Error(ErrorCode::kInvalidValue, api, ": location type ", location->type,
                   " does not name a pool of allocation type ", type);
  }
  if (managed) {
    return Error(ErrorCode::kNotSupported, api,
                 ": pools of managed memory are not implemented; cuMemAllocManaged is");
  }
  return ResolveDeviceOrdinal(location->id, api);
}

}  // namespace

absl::Status MemGetDefaultMemPool(HandleOut out, const MemLocation* location, int type) {
  SH_ASSIGN_OR_RETURN(Device * device,
                      ResolvePoolLocation(location, type, "cuMemGetDefaultMemPool"));
  if (out.is_null()) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetDefaultMemPool: pool_out is null");
  }
  out.Set(GetPools().DefaultPool(device)->handle());
  return absl::OkStatus();
}

absl::Status MemGetMemPool(HandleOut out, const MemLocation* location, int type) {
  SH_ASSIGN_OR_RETURN(Device * device, ResolvePoolLocation(location, type, "cuMemGetMemPool"));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuMemGetMemPool: pool is null");
  out.Set(GetPools().CurrentPool(device)->handle());
  return absl::OkStatus();
}

absl::Status MemSetMemPool(const MemLocation* location, int type, uint64_t pool) {
  SH_ASSIGN_OR_RETURN(Device * device, ResolvePoolLocation(location, type, "cuMemSetMemPool"));
  // Every pool here is a pinned device pool: the device check is the
  // location and type check CUDA asks for.
  return DeviceSetMemPool(device->ordinal(), pool);
}

}  // namespace streamhal
