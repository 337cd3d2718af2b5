// Memory pools and stream-ordered allocation (cuMemAllocAsync, cuMemFreeAsync,
// cuMemPool*, cuDevice{Get,Set,GetDefault}MemPool and the hip* twins).
//
// A pool hands out blocks: each is one backend allocation, entered in the
// address map (memory.h) when the pool creates it and left there until the
// pool gives it back to the device. A block freed in a stream is marked
// cached at once, so that every lookup (a later use, a second free, pointer
// attributes) passes it by, and waits in the pool's cache, tagged with the
// stream and the stream point after which nothing uses it any more. A later
// allocation takes a cached block of a fitting size, the one freed last
// first, without any backend call or address-map update when the reuse rules
// allow it:
//   - in the stream that freed it, always (stream order covers the free);
//   - in another stream, when that stream has waited for an event recorded
//     after the free (kReuseFollowEventDependencies), when the free has
//     already finished on the device (kReuseAllowOpportunistic), or by making
//     the allocating stream wait for the free (kReuseAllowInternalDependencies).
// At synchronisation points (stream, event and context synchronisation)
// every pool gives cached blocks whose free has finished back to the device
// until what it holds is at most its release threshold. The resource
// generation (handle.h) moves then, not at the free: a cached block's buffer
// lives on, so what an instantiated graph resolved stays valid until then.
#ifndef STREAMHAL_CORE_MEM_POOL_H_
#define STREAMHAL_CORE_MEM_POOL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/memory.h"
#include "core/mutex.h"
#include "core/status.h"

namespace streamhal {

class Context;
class Device;
class PoolArena;
class Stream;

// CUmemPool_attribute (hipMemPoolAttr has the same values).
inline constexpr int kPoolAttrReuseFollowEventDependencies = 1;
inline constexpr int kPoolAttrReuseAllowOpportunistic = 2;
inline constexpr int kPoolAttrReuseAllowInternalDependencies = 3;
inline constexpr int kPoolAttrReleaseThreshold = 4;
inline constexpr int kPoolAttrReservedMemCurrent = 5;
inline constexpr int kPoolAttrReservedMemHigh = 6;
inline constexpr int kPoolAttrUsedMemCurrent = 7;
inline constexpr int kPoolAttrUsedMemHigh = 8;

// CUmemAllocationType, CUmemAllocationHandleType, CUmemLocationType and
// CUmemAccess_flags values (HIP's agree).
inline constexpr int kMemAllocationTypePinned = 1;
inline constexpr int kMemAllocationTypeManaged = 2;  // CUDA 13.0
inline constexpr int kMemHandleTypeNone = 0;
inline constexpr int kMemHandleTypePosixFd = 1;
inline constexpr int kMemHandleTypeWin32 = 2;
inline constexpr int kMemHandleTypeWin32Kmt = 4;
inline constexpr int kMemLocationTypeDevice = 1;
inline constexpr int kMemAccessProtNone = 0;
inline constexpr int kMemAccessProtRead = 1;
inline constexpr int kMemAccessProtReadWrite = 3;

// CUmemPoolProps / hipMemPoolProps, as the bindings read them.
struct MemPoolProps {
  int allocation_type = kMemAllocationTypePinned;
  int handle_types = kMemHandleTypeNone;
  int location_type = kMemLocationTypeDevice;
  int location_id = 0;
  // CUDA 12.2's maxSize (0: no limit besides the device's memory).
  uint64_t max_size = 0;
};

// CUmemPoolProps and hipMemPoolProps (same members) as core reads them.
template <typename Props>
MemPoolProps ToMemPoolProps(const Props& in) {
  MemPoolProps props;
  props.allocation_type = EnumArgument(in.allocType);
  props.handle_types = EnumArgument(in.handleTypes);
  props.location_type = EnumArgument(in.location.type);
  props.location_id = in.location.id;
  props.max_size = in.maxSize;
  return props;
}

// The most entries a cuMemPoolSetAccess map may have: more than any
// machine has devices (the bindings copy the map before the core sees it).
inline constexpr size_t kMaxAccessDescs = 1024;

struct MemAccessDesc {
  int location_type = kMemLocationTypeDevice;
  int location_id = 0;
  int flags = kMemAccessProtReadWrite;
};

// A CUmemAccessDesc / hipMemAccessDesc array (same members) as core reads
// it; kInvalidValue for a null array with entries, or too many entries.
template <typename Desc>
absl::StatusOr<std::vector<MemAccessDesc>> ToMemAccessDescs(const Desc* descs, size_t count) {
  if ((descs == nullptr && count != 0) || count > kMaxAccessDescs) {
    return Error(ErrorCode::kInvalidValue, "the access descriptor array is null or too long");
  }
  std::vector<MemAccessDesc> out(count);
  for (size_t i = 0; i < count; ++i) {
    out[i].location_type = EnumArgument(descs[i].location.type);
    out[i].location_id = descs[i].location.id;
    out[i].flags = EnumArgument(descs[i].flags);
  }
  return out;
}

class MemPool : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kMemPool;

  // `arena`: where the blocks of a pool with a shareable handle type live
  // (core/pool_arena.h); null for other pools. `imported`: a pool imported
  // from another process's descriptor, which maps that process's blocks
  // (cuMemPoolImportPointer) but allocates none.
  MemPool(Device* device, const MemPoolProps& props, bool is_default,
          std::shared_ptr<PoolArena> arena = nullptr, bool imported = false);
  ~MemPool() override;

  Device* device() const { return device_; }
  const MemPoolProps& props() const { return props_; }
  bool is_default() const { return is_default_; }
  bool imported() const { return imported_; }
  PoolArena* arena() const { return arena_.get(); }

  // A block of at least `bytes` for `stream`, cached or new.
  absl::StatusOr<Allocation*> Allocate(Context* context, Stream* stream, uint64_t bytes);
  // Takes back one of its live blocks (it stays in the address map, marked
  // cached): freed in stream `stream` (a handle) before `point`, or finished
  // (stream 0). kInvalidValue when another thread freed it first.
  absl::Status Cache(Allocation* block, uint64_t stream, uint64_t point, const char* api);
  // cuMemFreeAsync's fast path: caches the live block of this pool that
  // starts at `dptr`, found without the address map. False when `dptr` is
  // not the start of a live block of this pool (the caller asks the map).
  bool CacheAt(uint64_t dptr, uint64_t stream, uint64_t point);
  // Context teardown: takes back every live block `context` owns (the
  // context's work has finished). Returns whether it took any.
  bool Reclaim(Context* context);
  // Imported pools: maps the block another process exported, owned by
  // `context`, and enters it in the address map.
  absl::StatusOr<Allocation*> Import(Context* context, uint64_t offset, uint64_t block_size,
                                     uint64_t bytes);
  // Imported pools: a mapped block is being destroyed by the caller.
  void Forget();
  // Gives finished cached blocks back to the device until the pool holds at
  // most `keep` bytes; with `wait`, first waits for unfinished frees.
  void Trim(uint64_t keep, bool wait);
  // Trim to the release threshold (a synchronisation point). Returns
  // whether the pool still caches memory.
  bool ReleaseAboveThreshold();

  absl::Status SetAttribute(int attribute, const void* value);
  absl::Status GetAttribute(int attribute, void* value);

  // Destroyed by the caller but still has blocks allocated.
  bool retired() const { return retired_.load(std::memory_order_acquire); }
  void Retire();
  bool HasLiveBlocks() const;

 private:
  struct CachedBlock {
    Allocation* allocation = nullptr;  // owned by the address map
    uint64_t stream = 0;               // the freeing stream's handle; 0: finished
    uint64_t point = 0;                // the stream point after which the block is unused
  };
  // Cached blocks of one size, the one freed last at the back.
  using Bucket = std::vector<CachedBlock>;
  // Whether a cached block may serve `stream` as is; sets `*needs_wait`
  // when it may after `stream` waits for the free.
  bool Reusable(const CachedBlock& block, Stream* stream, bool* needs_wait) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void AccountReserved(int64_t delta) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void AccountUsed(int64_t delta) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  Allocation* Hand(const CachedBlock& block, Context* context, uint64_t bytes)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void CacheLocked(Allocation* block, uint64_t stream, uint64_t point)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // Moves the block freed last into cache_, for code that walks the cache.
  void SpillLastFreedLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  // A cached block `stream` may use now (making it wait for the free when
  // the reuse policy says so), or null.
  absl::StatusOr<Allocation*> TakeCached(Context* context, Stream* stream, uint64_t size,
                                         uint64_t bytes);
  // A block the device has to provide.
  absl::StatusOr<std::unique_ptr<Allocation>> NewBlock(Context* context, uint64_t size,
                                                       uint64_t bytes);

  Device* const device_;
  // The device's largest allocation, read once (an allocation asks each time).
  const uint64_t max_allocation_size_;
  // Block sizes are multiples of this power of two.
  const uint64_t granularity_;
  const MemPoolProps props_;
  const bool is_default_;
  const std::shared_ptr<PoolArena> arena_;
  const bool imported_;
  // A SpinMutex: every allocation and free takes it once, for a few
  // dozen nanoseconds; only Trim with `wait` and the opportunistic reuse
  // check wait under it, and both are rare.
  mutable SpinMutex mutex_;
  // Cached blocks by block size. A bucket that empties stays (a pair of
  // calls of one size touches only its vector) until Trim.
  absl::btree_map<uint64_t, Bucket> cache_ ABSL_GUARDED_BY(mutex_);
  // The cached block freed last, kept out of cache_ (allocation null when
  // none): the common pair, a free and an allocation of the same size in the
  // same stream, then touches neither the b-tree nor a bucket. Every walk of
  // cache_ spills it there first.
  CachedBlock last_freed_ ABSL_GUARDED_BY(mutex_);
  // Every block the pool made and has not given back, live or cached, by
  // device address: a free of a pool pointer needs no address-map lookup.
  // A b-tree, like the address map, for its locality: frees in address order
  // keep its leaves in cache, where a hash touches a cold slot per free.
  absl::btree_map<uint64_t, Allocation*> blocks_ ABSL_GUARDED_BY(mutex_);
  // The block handed out last, or null: an allocation freed right away (the
  // common pair) is found without hashing.
  Allocation* last_handed_ ABSL_GUARDED_BY(mutex_) = nullptr;
  bool follow_event_dependencies_ ABSL_GUARDED_BY(mutex_) = true;
  bool allow_opportunistic_ ABSL_GUARDED_BY(mutex_) = true;
  bool allow_internal_dependencies_ ABSL_GUARDED_BY(mutex_) = true;
  uint64_t release_threshold_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t reserved_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t reserved_high_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t used_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t used_high_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t live_blocks_ ABSL_GUARDED_BY(mutex_) = 0;
  std::atomic<bool> retired_{false};
};

// --- Validated entry points ---
// cuMemAllocAsync: from the device's current pool, usable by work ordered
// after it in `stream`. kInvalidValue for a null dptr or size 0.
absl::Status MemAllocAsync(uint64_t* dptr, size_t bytes, uint64_t stream);
absl::Status MemAllocFromPoolAsync(uint64_t* dptr, size_t bytes, uint64_t pool, uint64_t stream);
// cuMemFreeAsync: a pool block goes back to its pool in stream order; other
// device memory (cuMemAlloc) is released once the stream reaches the free.
// kInvalidValue for anything that is not the start of a live device
// allocation (so also for a second free).
absl::Status MemFreeAsync(uint64_t dptr, uint64_t stream);

absl::Status MemPoolCreate(HandleOut out, const MemPoolProps& props);
// A pool with blocks still allocated lives on, unnamed, until they are
// freed. The default pool of a device cannot be destroyed; destroying a
// device's current pool makes its default pool current again.
absl::Status MemPoolDestroy(uint64_t pool);
// `value` points to an int (the three reuse attributes) or a uint64_t.
absl::Status MemPoolSetAttribute(uint64_t pool, int attribute, const void* value);
absl::Status MemPoolGetAttribute(uint64_t pool, int attribute, void* value);
// Gives cached blocks whose free has finished back to the device until the
// pool holds at most `min_bytes_to_keep`.
absl::Status MemPoolTrimTo(uint64_t pool, size_t min_bytes_to_keep);
absl::Status MemPoolSetAccess(uint64_t pool, const MemAccessDesc* map, size_t count);
absl::Status MemPoolGetAccess(int* flags, uint64_t pool, const MemAccessDesc* location);
// Shareable handles (POSIX file descriptors) and exported pointers need
// pools created with that handle type, on devices that import host memory
// (elsewhere such pools are refused at creation with kNotSupported). An
// imported pool allocates nothing; its pointers are freed with cuMemFree or
// cuMemFreeAsync like any pool pointer.
absl::Status MemPoolExportToShareableHandle(void* handle_out, uint64_t pool, int handle_type,
                                            unsigned long long flags);
absl::Status MemPoolImportFromShareableHandle(HandleOut out, void* handle, int handle_type,
                                              unsigned long long flags);
absl::Status MemPoolExportPointer(void* export_data, uint64_t dptr);
absl::Status MemPoolImportPointer(uint64_t* dptr, uint64_t pool, const void* export_data);

absl::Status DeviceGetDefaultMemPool(HandleOut out, int device);
absl::Status DeviceGetMemPool(HandleOut out, int device);
absl::Status DeviceSetMemPool(int device, uint64_t pool);

// A CUmemLocation as core reads it.
struct MemLocation {
  int type = 0;
  int id = 0;
};
// cuMemGetDefaultMemPool, cuMemGetMemPool and cuMemSetMemPool (CUDA 13.0):
// the pools of a location and allocation type. A device's pinned pools are
// its cuDevice*MemPool pools; host locations and managed pools, valid
// requests that no pool here serves, are kNotSupported; a null location or
// a combination CUDA does not define is kInvalidValue.
absl::Status MemGetDefaultMemPool(HandleOut out, const MemLocation* location, int type);
absl::Status MemGetMemPool(HandleOut out, const MemLocation* location, int type);
absl::Status MemSetMemPool(const MemLocation* location, int type, uint64_t pool);

// --- Hooks for the rest of core ---
// A synchronisation point: releases finished cached memory above each
// pool's threshold. Cheap when no pool caches anything.
void MemPoolsSynchronized();
// cuMemFree of a pool block: back to its pool, reusable at once (CUDA: the
// caller has made sure nothing uses it; no implicit synchronisation).
// `allocation` is still in the address map.
absl::Status MemPoolFreeNow(Allocation* allocation);
// Context teardown: the context's blocks of imported pools, already out of
// the address map, are unmapped (the context's work has finished).
void MemPoolReclaim(std::unique_ptr<Allocation> block);
// Context teardown: every other pool takes back the blocks `context` owns.
void MemPoolsReclaim(Context* context);
// Deinit, after every context is destroyed: frees every pool and what it
// caches, before the devices go.
void DestroyAllMemPools();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MEM_POOL_H_
