#include "core/memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/context.h"
#include "core/handle.h"
#include "core/mem_pool.h"
#include "core/mutex.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/virtual_memory.h"

namespace streamhal {
namespace {

// CUDA guarantees at least 256-byte alignment for cuMemAlloc.
constexpr uint64_t kPitchAlignment = 256;

// Blocks of pools that allocate stay in the maps while their pool caches
// them (Allocation::cached); everything else is in the maps exactly while it
// is live.
bool StaysMapped(const Allocation* allocation) {
  return allocation->pool != nullptr && !allocation->pool->imported();
}

bool Passed(const Allocation* allocation) {
  return allocation->cached.load(std::memory_order_acquire);
}

// Every allocation, by device address and (for host kinds) by host address.
// The maps hold ranges that never overlap, so the allocation containing an
// address is the last one starting at or below it.
class Registry {
 public:
  void Insert(std::unique_ptr<Allocation> allocation) {
    MutexLock lock(&mutex_);
    Allocation* raw = allocation.get();
    by_device_[raw->device_address()] = raw;
    if (raw->host != nullptr) by_host_[reinterpret_cast<uintptr_t>(raw->host)] = raw;
    owned_[raw] = std::move(allocation);
  }

  // Removes and returns the allocation for destruction outside the lock.
  std::unique_ptr<Allocation> Remove(Allocation* allocation) {
    MutexLock lock(&mutex_);
    return RemoveLocked(allocation);
  }

  std::vector<std::unique_ptr<Allocation>> RemoveMany(const std::vector<Allocation*>& allocations) {
    std::vector<std::unique_ptr<Allocation>> removed;
    removed.reserve(allocations.size());
    MutexLock lock(&mutex_);
    for (Allocation* raw : allocations) removed.push_back(RemoveLocked(raw));
    return removed;
  }

  // The live allocation that starts at device address `address`: an exact
  // b-tree find, which frees in address order (the common order) keep in
  // cache.
  Allocation* FindStart(uint64_t address) const {
    ReaderMutexLock lock(&mutex_);
    auto it = by_device_.find(address);
    if (it == by_device_.end() || Passed(it->second)) return nullptr;
    return it->second;
  }

  // The allocation containing [address, address + size) in the device map.
  Allocation* FindDevice(uint64_t address, uint64_t size) const {
    ReaderMutexLock lock(&mutex_);
    return FindIn(by_device_, address, size, [](const Allocation* a) {
      return std::pair<uint64_t, uint64_t>(a->device_address(), a->size);
    });
  }

  Allocation* FindHost(uintptr_t address, uint64_t size) const {
    ReaderMutexLock lock(&mutex_);
    return FindIn(by_host_, address, size, [](const Allocation* a) {
      return std::pair<uint64_t, uint64_t>(reinterpret_cast<uintptr_t>(a->host), a->size);
    });
  }

  // True when any host allocation overlaps [address, address + size).
  bool HostOverlaps(uintptr_t address, uint64_t size) const {
    ReaderMutexLock lock(&mutex_);
    auto it = by_host_.lower_bound(address + size);
    if (it == by_host_.begin()) return false;
    --it;
    if (Passed(it->second)) return false;
    const uintptr_t start = reinterpret_cast<uintptr_t>(it->second->host);
    return start + it->second->size > address;
  }

  // Every allocation `context` owns except pool blocks that stay mapped:
  // their pools take those back themselves (MemPoolsReclaim), under the
  // lock that guards their `context`.
  std::vector<std::unique_ptr<Allocation>> RemoveAllOf(Context* context) {
    MutexLock lock(&mutex_);
    std::vector<Allocation*> doomed;
    for (const auto& [raw, owned] : owned_) {
      if (!StaysMapped(raw) && raw->context == context) doomed.push_back(raw);
    }
    std::vector<std::unique_ptr<Allocation>> removed;
    for (Allocation* raw : doomed) removed.push_back(RemoveLocked(raw));
    return removed;
  }

  size_t live_count() const {
    ReaderMutexLock lock(&mutex_);
    size_t live = 0;
    for (const auto& [raw, owned] : owned_) live += Passed(raw) ? 0 : 1;
    return live;
  }

 private:
  template <typename Map, typename RangeOf>
  static Allocation* FindIn(const Map& map, uint64_t address, uint64_t size, RangeOf range_of) {
    auto it = map.upper_bound(address);
    if (it == map.begin()) return nullptr;
    --it;
    // A cached pool block is not there; no other range overlaps it.
    if (Passed(it->second)) return nullptr;
    const auto [start, length] = range_of(it->second);
    // Overflow-safe: address >= start here.
    if (address - start > length || size > length - (address - start)) return nullptr;
    if (size == 0 && address - start == length) return nullptr;
    return it->second;
  }

  std::unique_ptr<Allocation> RemoveLocked(Allocation* allocation)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_) {
    by_device_.erase(allocation->device_address());
    if (allocation->host != nullptr) by_host_.erase(reinterpret_cast<uintptr_t>(allocation->host));
    auto it = owned_.find(allocation);
    std::unique_ptr<Allocation> owned = std::move(it->second);
    owned_.erase(it);
    return owned;
  }

  mutable SharedMutex mutex_;
  absl::btree_map<uint64_t, Allocation*> by_device_ ABSL_GUARDED_BY(mutex_);
  absl::btree_map<uintptr_t, Allocation*> by_host_ ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<Allocation*, std::unique_ptr<Allocation>> owned_ ABSL_GUARDED_BY(mutex_);
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // leaked: no static destructor
  return *registry;
}

absl::StatusOr<Allocation*> NewAllocation(Context* context, uint64_t size, MemoryKind memory_kind,
                                          AllocationKind kind, unsigned host_flags) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> backend,
                      context->device()->backend()->Allocate(size, memory_kind));
  auto allocation = std::make_unique<Allocation>();
  allocation->backend = std::move(backend);
  allocation->context = context;
  allocation->kind = kind;
  allocation->size = size;
  allocation->host_flags = host_flags;
  if (kind != AllocationKind::kDevice) {
    allocation->host = allocation->backend->host_pointer();
    if (allocation->host == nullptr) {
      return Error(ErrorCode::kOutOfMemory, "the device returned unmapped host memory");
    }
  }
  Allocation* raw = allocation.get();
  GetRegistry().Insert(std::move(allocation));
  return raw;
}

// ---- host ranges -------------------------------------------------------------

// The whole of /proc/self/maps, or nothing when it cannot be read (no /proc).
std::optional<std::string> ReadOwnMappings() {
  const int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char buffer[16384];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  return text;
}

// Checks that every page of [begin, end) is mapped, readable and, unless
// `writable` is false, writable, from the process's own mapping list: lines
// "start-end perms ..." in ascending address order.
absl::Status CheckMappings(const std::string& maps, uintptr_t begin, uintptr_t end, bool writable,
                           const char* what) {
  uintptr_t covered = begin;  // [begin, covered) is known to be accessible
  for (absl::string_view line : absl::StrSplit(maps, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> fields =
        absl::StrSplit(line, absl::MaxSplits(' ', 2), absl::SkipEmpty());
    if (fields.size() < 2) continue;
    const std::pair<absl::string_view, absl::string_view> range =
        absl::StrSplit(fields[0], absl::MaxSplits('-', 1));
    uint64_t start = 0, stop = 0;
    if (!absl::SimpleHexAtoi(range.first, &start) || !absl::SimpleHexAtoi(range.second, &stop)) {
      continue;
    }
    if (stop <= covered) continue;
    if (start > covered) break;  // a hole: the page at `covered` is not mapped
    const absl::string_view perms = fields[1];
    if (perms.size() < 2 || perms[0] != 'r' || (writable && perms[1] != 'w')) {
      return Error(ErrorCode::kInvalidValue, what, ": host page at ",
                   Ptr(reinterpret_cast<void*>(covered)), " is mapped ", perms,
                   writable ? "; registering it needs read and write access (or "
                              "CU_MEMHOSTREGISTER_READ_ONLY)"
                            : "; registering it needs read access");
    }
    covered = stop;
    if (covered >= end) return absl::OkStatus();
  }
  return Error(ErrorCode::kInvalidValue, what, ": host address ",
               Ptr(reinterpret_cast<void*>(covered)), " is not mapped");
}

// Without /proc: mincore fails with ENOMEM when any page of the range is
// unmapped (it cannot see protections).
absl::Status CheckMapped(uintptr_t begin, uintptr_t end, const char* what) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = begin & ~(page - 1);
  constexpr size_t kPagesPerCall = 4096;
  std::vector<unsigned char> residency(kPagesPerCall);
  for (uintptr_t at = first; at < end; at += kPagesPerCall * page) {
    const uintptr_t length = std::min<uintptr_t>(end - at, kPagesPerCall * page);
    if (mincore(reinterpret_cast<void*>(at), length, residency.data()) != 0) {
      if (errno != ENOMEM) break;  // mincore itself unavailable: nothing more to learn
      return Error(ErrorCode::kInvalidValue, what, ": host range [",
                   Ptr(reinterpret_cast<void*>(at)), ", +", length, ") has unmapped pages");
    }
  }
  return absl::OkStatus();
}

// CUDA page-locks a registered range, which fails for pages the process
// cannot access; without this check the import would succeed (lavapipe
// does not look) and a later copy into the range would crash the process.
absl::Status CheckHostRangeAccessible(const void* host, uint64_t bytes, bool writable,
                                      const char* what) {
  const uintptr_t begin = reinterpret_cast<uintptr_t>(host);
  if (bytes > UINTPTR_MAX - begin) {
    return Error(ErrorCode::kInvalidValue, what, ": host range [", Ptr(host), ", +", bytes,
                 ") wraps around the address space");
  }
  const uintptr_t end = begin + bytes;
  if (std::optional<std::string> maps = ReadOwnMappings()) {
    return CheckMappings(*maps, begin, end, writable, what);
  }
  return CheckMapped(begin, end, what);
}

// Frees after waiting for the device: CUDA's cuMemFree synchronises, so work
// still reading the memory finishes first.
absl::Status Release(Allocation* allocation) {
  absl::Status status = allocation->context->Synchronize();
  std::unique_ptr<Allocation> owned = GetRegistry().Remove(allocation);
  BumpResourceGeneration();
  return status;
}

}  // namespace

absl::StatusOr<ResolvedPointer> ResolveDeviceRange(uint64_t address, uint64_t size,
                                                   const char* what) {
  Allocation* allocation = GetRegistry().FindDevice(address, size);
  if (allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, what, " range [0x", absl::Hex(address), ", +", size,
                 ") is not inside any live allocation");
  }
  return ResolvedPointer{allocation, address - allocation->device_address()};
}

ResolvedPointer ResolveHostRange(const void* host, uint64_t size) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(host);
  Allocation* allocation = GetRegistry().FindHost(address, size);
  if (allocation == nullptr) return ResolvedPointer{};
  return ResolvedPointer{allocation, address - reinterpret_cast<uintptr_t>(allocation->host)};
}

ResolvedPointer ResolveAnyRange(uint64_t address, uint64_t size) {
  if (Allocation* device = GetRegistry().FindDevice(address, size)) {
    return ResolvedPointer{device, address - device->device_address()};
  }
  return ResolveHostRange(reinterpret_cast<const void*>(static_cast<uintptr_t>(address)), size);
}

absl::StatusOr<Allocation*> AllocateDeviceMemory(Context* context, uint64_t size) {
  return NewAllocation(context, size, MemoryKind::kDevice, AllocationKind::kDevice, 0);
}

absl::StatusOr<Allocation*> AllocateManagedMemory(Context* context, uint64_t size, unsigned flags,
                                                  std::shared_ptr<ManagedState> managed) {
  if (!context->device()->properties().managed_memory) {
    return Error(ErrorCode::kNotSupported, "cuMemAllocManaged: device ",
                 context->device()->ordinal(),
                 " cannot give memory with one address on the host and the device");
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> backend,
                      context->device()->backend()->Allocate(size, MemoryKind::kHostPinned));
  // The device promised this at creation (its probe allocation); a single
  // allocation that breaks the promise is refused, never half-managed.
  if (backend->device_address() != reinterpret_cast<uintptr_t>(backend->host_pointer())) {
    return Error(ErrorCode::kNotSupported,
                 "cuMemAllocManaged: the device mapped the memory at a host address that is "
                 "not its device address");
  }
  auto allocation = std::make_unique<Allocation>();
  allocation->backend = std::move(backend);
  allocation->context = context;
  allocation->kind = AllocationKind::kManaged;
  allocation->size = size;
  allocation->host = allocation->backend->host_pointer();
  allocation->host_flags = flags;
  // Complete before it is registered: a lookup never sees it half made.
  allocation->managed = std::move(managed);
  Allocation* raw = allocation.get();
  GetRegistry().Insert(std::move(allocation));
  return raw;
}

absl::Status FreeAllocation(Allocation* allocation) { return Release(allocation); }

void InsertAllocation(std::unique_ptr<Allocation> allocation) {
  GetRegistry().Insert(std::move(allocation));
}

std::unique_ptr<Allocation> RemoveAllocation(Allocation* allocation) {
  return GetRegistry().Remove(allocation);
}

std::vector<std::unique_ptr<Allocation>> RemoveAllocations(
    const std::vector<Allocation*>& allocations) {
  return GetRegistry().RemoveMany(allocations);
}

Allocation* FindDeviceAllocationAt(uint64_t dptr) {
  Allocation* allocation = GetRegistry().FindStart(dptr);
  if (allocation == nullptr || allocation->kind != AllocationKind::kDevice ||
      allocation->virtual_mapping || allocation->graph_memory || allocation->ipc_import) {
    return nullptr;
  }
  return allocation;
}

uint64_t NextBufferId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void FreeContextAllocations(Context* context) {
  // The context has synchronised already; destruction happens here, outside
  // the registry lock. Pool blocks go back to their pools.
  MemPoolsReclaim(context);
  std::vector<std::unique_ptr<Allocation>> removed = GetRegistry().RemoveAllOf(context);
  for (std::unique_ptr<Allocation>& allocation : removed) {
    if (allocation->pool != nullptr) MemPoolReclaim(std::move(allocation));
    if (allocation != nullptr && allocation->virtual_mapping) VirtualMemoryForget(allocation.get());
  }
  removed.clear();
}

absl::Status MemAlloc(uint64_t* dptr, size_t bytes, bool allow_zero) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (dptr == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemAlloc: dptr is null");
  if (bytes == 0) {
    if (!allow_zero) return Error(ErrorCode::kInvalidValue, "cuMemAlloc: bytesize is 0");
    *dptr = 0;
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(Allocation * allocation, NewAllocation(context, bytes, MemoryKind::kDevice,
                                                             AllocationKind::kDevice, 0));
  *dptr = allocation->device_address();
  return absl::OkStatus();
}

absl::Status MemFree(uint64_t dptr, bool allow_null) {
  // NVIDIA's driver finds the allocation's context from the address and
  // frees it with any context current, or none (ffmpeg's thumbnail_cuda
  // frees its buffer that way).
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (dptr == 0) {
    if (allow_null) return absl::OkStatus();
    return Error(ErrorCode::kInvalidValue, "cuMemFree: dptr is 0");
  }
  Allocation* allocation = GetRegistry().FindStart(dptr);
  if (allocation == nullptr ||
      (allocation->kind != AllocationKind::kDevice &&
       allocation->kind != AllocationKind::kManaged) ||
      allocation->virtual_mapping || allocation->graph_memory) {
    return Error(ErrorCode::kInvalidValue, "cuMemFree: 0x", absl::Hex(dptr),
                 " is not the start of a live device allocation");
  }
  if (allocation->ipc_import) {
    return Error(ErrorCode::kInvalidValue, "cuMemFree: 0x", absl::Hex(dptr),
                 " is another process's memory: close it with cuIpcCloseMemHandle");
  }
  // A stream-ordered block goes back to its pool without synchronising.
  if (allocation->pool != nullptr) return MemPoolFreeNow(allocation);
  return Release(allocation);
}

absl::Status MemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (free_bytes == nullptr || total_bytes == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetInfo: free and total must not be null");
  }
  uint64_t free64 = 0, total64 = 0;
  SH_RETURN_IF_ERROR(context->device()->backend()->GetMemoryInfo(&free64, &total64));
  *free_bytes = static_cast<size_t>(free64);
  *total_bytes = static_cast<size_t>(total64);
  return absl::OkStatus();
}

absl::Status MemGetAddressRange(uint64_t* base, size_t* size, uint64_t dptr) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  Allocation* allocation = GetRegistry().FindDevice(dptr, 0);
  if (allocation == nullptr) {
    return Error(ErrorCode::kNotFound, "cuMemGetAddressRange: 0x", absl::Hex(dptr),
                 " is not inside any allocation");
  }
  // Both outputs are optional (CUDA: "parameters are optional").
  if (base != nullptr) *base = allocation->device_address();
  if (size != nullptr) *size = static_cast<size_t>(allocation->size);
  return absl::OkStatus();
}

absl::Status MemAllocPitch(uint64_t* dptr, size_t* pitch, size_t width_bytes, size_t height,
                           unsigned element_size) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (dptr == nullptr || pitch == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemAllocPitch: dptr and pitch must not be null");
  }
  if (width_bytes == 0 || height == 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemAllocPitch: width and height must be positive");
  }
  if (element_size != 4 && element_size != 8 && element_size != 16) {
    return Error(ErrorCode::kInvalidValue, "cuMemAllocPitch: ElementSizeBytes must be 4, 8 or 16");
  }
  const DeviceProperties& properties = context->device()->properties();
  const uint64_t alignment =
      std::max<uint64_t>(kPitchAlignment, properties.texture_pitch_alignment);
  // A row wider than the largest pitch (CU_DEVICE_ATTRIBUTE_MAX_PITCH; where
  // a device reports none, what 64-bit arithmetic can round) has no pitch.
  // The bound also keeps the rounding below from wrapping to 0.
  uint64_t max_pitch = UINT64_MAX - (alignment - 1);
  if (properties.memory_pitch > 0) {
    max_pitch = std::min(max_pitch, static_cast<uint64_t>(properties.memory_pitch));
  }
  if (width_bytes > max_pitch) {
    return Error(ErrorCode::kInvalidValue, "cuMemAllocPitch: WidthInBytes ", width_bytes,
                 " exceeds the largest pitch, ", max_pitch);
  }
  const uint64_t row = (width_bytes + alignment - 1) / alignment * alignment;
  if (height > properties.max_allocation_size / row) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAllocPitch: ", row, " x ", height,
                 " bytes exceeds the largest allocation");
  }
  SH_ASSIGN_OR_RETURN(
      Allocation * allocation,
      NewAllocation(context, row * height, MemoryKind::kDevice, AllocationKind::kDevice, 0));
  *dptr = allocation->device_address();
  *pitch = static_cast<size_t>(row);
  return absl::OkStatus();
}

absl::Status MemHostAlloc(void** pointer, size_t bytes, unsigned flags, bool allow_zero) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (pointer == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemHostAlloc: pp is null");
  constexpr unsigned kKnown = kHostAllocPortable | kHostAllocDeviceMap | kHostAllocWriteCombined;
  if ((flags & ~kKnown) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostAlloc: unknown flags 0x", absl::Hex(flags));
  }
  if (bytes == 0) {
    if (!allow_zero) return Error(ErrorCode::kInvalidValue, "cuMemHostAlloc: bytesize is 0");
    *pointer = nullptr;
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(Allocation * allocation,
                      NewAllocation(context, bytes, MemoryKind::kHostPinned,
                                    AllocationKind::kHostAllocated, flags));
  *pointer = allocation->host;
  return absl::OkStatus();
}

absl::Status MemFreeHost(void* pointer, bool allow_null) {
  // As MemFree: the memory names its context.
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (pointer == nullptr) {
    if (allow_null) return absl::OkStatus();
    return Error(ErrorCode::kInvalidValue, "cuMemFreeHost: p is null");
  }
  ResolvedPointer resolved = ResolveHostRange(pointer, 0);
  if (resolved.allocation == nullptr ||
      resolved.allocation->kind != AllocationKind::kHostAllocated || resolved.offset != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemFreeHost: ", Ptr(pointer),
                 " was not returned by cuMemAllocHost/cuMemHostAlloc");
  }
  return Release(resolved.allocation);
}

absl::Status MemHostGetDevicePointer(uint64_t* dptr, void* host, unsigned flags) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (dptr == nullptr || host == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostGetDevicePointer: null argument");
  }
  if (flags != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostGetDevicePointer: Flags must be 0");
  }
  ResolvedPointer resolved = ResolveHostRange(host, 0);
  if (resolved.allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostGetDevicePointer: ", Ptr(host),
                 " is not page-locked host memory");
  }
  *dptr = resolved.allocation->device_address() + resolved.offset;
  return absl::OkStatus();
}

absl::Status MemHostGetFlags(unsigned* flags, void* host) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (flags == nullptr || host == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostGetFlags: null argument");
  }
  ResolvedPointer resolved = ResolveHostRange(host, 0);
  if (resolved.allocation == nullptr ||
      resolved.allocation->kind != AllocationKind::kHostAllocated) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostGetFlags: ", Ptr(host),
                 " was not allocated by cuMemHostAlloc");
  }
  *flags = resolved.allocation->host_flags;
  return absl::OkStatus();
}

absl::Status MemHostRegister(void* host, size_t bytes, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (host == nullptr || bytes == 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostRegister: p is null or bytesize is 0");
  }
  constexpr unsigned kKnown = kHostRegisterPortable | kHostRegisterDeviceMap |
                              kHostRegisterIoMemory | kHostRegisterReadOnly;
  if ((flags & ~kKnown) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostRegister: unknown flags 0x", absl::Hex(flags));
  }
  if (flags & kHostRegisterIoMemory) {
    return Error(ErrorCode::kNotSupported, "cuMemHostRegister: I/O memory cannot be registered");
  }
  if (GetRegistry().HostOverlaps(reinterpret_cast<uintptr_t>(host), bytes)) {
    return Error(ErrorCode::kHostMemoryAlreadyRegistered, "cuMemHostRegister: [", Ptr(host), ", +",
                 bytes, ") overlaps page-locked memory");
  }
  // Device memory is not host memory to register, even where the host can
  // read it (a device that maps its memory at the device address).
  const uint64_t address = reinterpret_cast<uintptr_t>(host);
  if (ResolveAnyRange(address, 1).is_device() ||
      context->device()->backend()->IsDeviceMemory(address)) {
    return Error(ErrorCode::kInvalidValue, "cuMemHostRegister: ", Ptr(host),
                 " is device memory, not host memory");
  }
  SH_RETURN_IF_ERROR(CheckHostRangeAccessible(
      host, bytes, /*writable=*/(flags & kHostRegisterReadOnly) == 0, "cuMemHostRegister"));
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> backend,
                      context->device()->backend()->RegisterHostMemory(host, bytes));
  auto allocation = std::make_unique<Allocation>();
  allocation->backend = std::move(backend);
  allocation->context = context;
  allocation->kind = AllocationKind::kHostRegistered;
  allocation->size = bytes;
  allocation->host = host;
  allocation->host_flags = flags;
  GetRegistry().Insert(std::move(allocation));
  return absl::OkStatus();
}

absl::Status MemHostUnregister(void* host) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (host == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemHostUnregister: p is null");
  ResolvedPointer resolved = ResolveHostRange(host, 0);
  if (resolved.allocation == nullptr ||
      resolved.allocation->kind != AllocationKind::kHostRegistered || resolved.offset != 0) {
    return Error(ErrorCode::kHostMemoryNotRegistered, "cuMemHostUnregister: ", Ptr(host),
                 " is not the start of a registered range");
  }
  return Release(resolved.allocation);
}

size_t LiveAllocationCount() { return GetRegistry().live_count(); }

}  // namespace streamhal
