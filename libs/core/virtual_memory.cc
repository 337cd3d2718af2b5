#include "core/virtual_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "core/context.h"
#include "core/device.h"
#include "core/handle.h"
#include "core/memory.h"
#include "core/mutex.h"
#include "core/runtime.h"
#include "core/status.h"

namespace streamhal {
namespace {

// Mappings and imports are whole pages; the recommended granularity is what
// CUDA recommends on most devices.
uint64_t PageSize() { return static_cast<uint64_t>(sysconf(_SC_PAGESIZE)); }
constexpr uint64_t kRecommendedGranularity = uint64_t{2} << 20;

// A physical allocation (CUmemGenericAllocationHandle): a memory file. It
// lives while the caller holds a reference (the creator's, until
// cuMemRelease, and one per cuMemRetainAllocationHandle) or it is mapped.
class PhysicalMemory : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kMemHandle;
  PhysicalMemory(int fd, uint64_t size, const MemAllocationProps& props)
      : Object(kKind), fd_(fd), size_(size), props_(props) {}
  ~PhysicalMemory() override { close(fd_); }

  int fd() const { return fd_; }
  uint64_t size() const { return size_; }
  const MemAllocationProps& props() const { return props_; }
  // Guarded by the manager's lock.
  int user_references = 1;
  int mappings = 0;

 private:
  const int fd_;
  const uint64_t size_;
  const MemAllocationProps props_;
};

struct Mapping {
  uint64_t size = 0;
  PhysicalMemory* memory = nullptr;
  uint64_t offset = 0;
  bool accessible = false;
};

struct Reservation {
  uint64_t size = 0;
  absl::btree_map<uint64_t, Mapping> mappings;  // by address
};

class Manager {
 public:
  Mutex mutex;
  absl::btree_map<uint64_t, Reservation> reservations ABSL_GUARDED_BY(mutex);
  // Live physical allocations (the handle table does not own objects).
  absl::flat_hash_map<PhysicalMemory*, std::unique_ptr<PhysicalMemory>> memories
      ABSL_GUARDED_BY(mutex);
  // Device imports of accessible runs, by start address (owned by the
  // address map).
  absl::btree_map<uint64_t, Allocation*> imports ABSL_GUARDED_BY(mutex);
  absl::flat_hash_map<int, bool> supported ABSL_GUARDED_BY(mutex);
};

Manager& GetManager() {
  static Manager* manager = new Manager;  // leaked: no static destructor
  return *manager;
}

// The memory goes when nobody holds or maps it.
void CollectIfUnused(Manager& m, PhysicalMemory* memory) ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  if (memory->user_references == 0 && memory->mappings == 0) m.memories.erase(memory);
}

absl::StatusOr<PhysicalMemory*> ResolveMemory(Manager& m, uint64_t handle, const char* api)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  PhysicalMemory* memory = LookupAs<PhysicalMemory>(handle);
  if (memory == nullptr || !m.memories.contains(memory) || memory->user_references == 0) {
    return Error(ErrorCode::kInvalidValue, api, ": not a live allocation handle");
  }
  return memory;
}

// The reservation holding [ptr, ptr + size), or end().
absl::btree_map<uint64_t, Reservation>::iterator FindReservation(Manager& m, uint64_t ptr,
                                                                 uint64_t size)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  auto it = m.reservations.upper_bound(ptr);
  if (it == m.reservations.begin()) return m.reservations.end();
  --it;
  const uint64_t offset = ptr - it->first;
  if (offset >= it->second.size || size > it->second.size - offset) return m.reservations.end();
  return it;
}

// Whether [ptr, ptr + size) is exactly a run of adjacent whole mappings.
bool CoversWholeMappings(const Reservation& reservation, uint64_t ptr, uint64_t size) {
  uint64_t at = ptr;
  const uint64_t end = ptr + size;
  while (at < end) {
    auto it = reservation.mappings.find(at);
    if (it == reservation.mappings.end()) return false;
    at += it->second.size;
  }
  return at == end;
}

absl::Status CheckSupported(Device* device, const char* api) {
  if (VirtualMemorySupported(device)) return absl::OkStatus();
  return Error(ErrorCode::kNotSupported, api, ": device ", device->ordinal(),
               " cannot place memory at addresses the runtime chooses (its device addresses "
               "are not host addresses and it has no sparse binding)");
}

absl::StatusOr<Device*> PropsDevice(const MemAllocationProps* prop, const char* api) {
  if (prop == nullptr) return Error(ErrorCode::kInvalidValue, api, ": prop is null");
  if (prop->location_type != kMemLocationTypeDevice) {
    return Error(ErrorCode::kInvalidValue, api, ": location.type must be a device");
  }
  absl::StatusOr<Device*> device = GetDevice(prop->location_id);
  if (!device.ok()) {
    return Error(ErrorCode::kInvalidDevice, api, ": no device ", prop->location_id);
  }
  if (prop->type != kMemAllocationTypePinned) {
    return Error(ErrorCode::kInvalidValue, api, ": type must be CU_MEM_ALLOCATION_TYPE_PINNED");
  }
  return *device;
}

// Waits for the device, then removes the imports overlapping [begin, end).
void DropImports(Manager& m, Device* device, uint64_t begin, uint64_t end)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  std::vector<std::unique_ptr<Allocation>> dropped;
  auto it = m.imports.upper_bound(begin);
  if (it != m.imports.begin()) --it;
  bool waited = false;
  while (it != m.imports.end() && it->first < end) {
    Allocation* import = it->second;
    if (it->first + import->size <= begin) {
      ++it;
      continue;
    }
    if (!waited) {
      // Work already queued may still use the import.
      (void)device->backend()->WaitIdle();
      waited = true;
    }
    dropped.push_back(RemoveAllocation(import));
    it = m.imports.erase(it);
  }
  if (!dropped.empty()) BumpResourceGeneration();
}

// Rebuilds the device imports around [begin, end) of `reservation` after its
// mappings or their access changed: every maximal run of adjacent accessible
// mappings that touches the range becomes one import.
absl::Status Reimport(Manager& m, Reservation& reservation, Device* device, Context* context,
                      uint64_t begin, uint64_t end) ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  // Widen to the runs the neighbours belong to.
  auto first = reservation.mappings.lower_bound(begin);
  while (first != reservation.mappings.begin()) {
    auto previous = std::prev(first);
    if (!previous->second.accessible || previous->first + previous->second.size != begin) break;
    begin = previous->first;
    first = previous;
  }
  auto last = reservation.mappings.lower_bound(end);
  while (last != reservation.mappings.end() && last->first == end && last->second.accessible) {
    end += last->second.size;
    ++last;
  }
  DropImports(m, device, begin, end);
  uint64_t run_start = 0, run_end = 0;
  auto flush = [&]() -> absl::Status {
    if (run_end == run_start) return absl::OkStatus();
    void* host = reinterpret_cast<void*>(static_cast<uintptr_t>(run_start));
    SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendAllocation> backend,
                        device->backend()->RegisterHostMemory(host, run_end - run_start));
    if (backend->device_address() != run_start) {
      return Error(ErrorCode::kNotSupported,
                   "cuMemSetAccess: the device placed the memory at "
                   "another address");
    }
    auto import = std::make_unique<Allocation>();
    import->backend = std::move(backend);
    import->context = context;
    import->kind = AllocationKind::kDevice;
    import->size = run_end - run_start;
    import->virtual_mapping = true;
    m.imports[run_start] = import.get();
    InsertAllocation(std::move(import));
    run_start = run_end = 0;
    return absl::OkStatus();
  };
  for (auto it = reservation.mappings.lower_bound(begin);
       it != reservation.mappings.end() && it->first < end; ++it) {
    if (!it->second.accessible) {
      SH_RETURN_IF_ERROR(flush());
      continue;
    }
    if (run_end != it->first) {
      SH_RETURN_IF_ERROR(flush());
      run_start = it->first;
    }
    run_end = it->first + it->second.size;
  }
  return flush();
}

// Puts `size` bytes at `address` back to reserved, inaccessible address
// space.
void Unreserve(uint64_t address, uint64_t size) {
  void* at = reinterpret_cast<void*>(static_cast<uintptr_t>(address));
  (void)mmap(at, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

// Unmaps every mapping of `reservation` in [begin, end) (whole mappings).
void UnmapRange(Manager& m, Reservation& reservation, Device* device, uint64_t begin, uint64_t end)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(m.mutex) {
  DropImports(m, device, begin, end);
  for (auto it = reservation.mappings.lower_bound(begin);
       it != reservation.mappings.end() && it->first < end;) {
    Unreserve(it->first, it->second.size);
    --it->second.memory->mappings;
    CollectIfUnused(m, it->second.memory);
    it = reservation.mappings.erase(it);
  }
}

}  // namespace

bool VirtualMemorySupported(Device* device) {
  Manager& m = GetManager();
  {
    MutexLock lock(&m.mutex);
    auto it = m.supported.find(device->ordinal());
    if (it != m.supported.end()) return it->second;
  }
  // Probe: import one page of host memory and see where the device puts it.
  bool supported = false;
  const uint64_t page = PageSize();
  void* host = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (host != MAP_FAILED) {
    absl::StatusOr<std::unique_ptr<BackendAllocation>> import =
        device->backend()->RegisterHostMemory(host, page);
    supported = import.ok() && (*import)->device_address() == reinterpret_cast<uintptr_t>(host);
    import = absl::StatusOr<std::unique_ptr<BackendAllocation>>();  // release before unmapping
    munmap(host, page);
  }
  MutexLock lock(&m.mutex);
  m.supported[device->ordinal()] = supported;
  return supported;
}

absl::Status MemGetAllocationGranularity(size_t* granularity, const MemAllocationProps* prop,
                                         int option) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (granularity == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetAllocationGranularity: granularity is null");
  }
  SH_ASSIGN_OR_RETURN(Device * device, PropsDevice(prop, "cuMemGetAllocationGranularity"));
  if (option != kGranularityMinimum && option != kGranularityRecommended) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetAllocationGranularity: unknown option ",
                 option);
  }
  SH_RETURN_IF_ERROR(CheckSupported(device, "cuMemGetAllocationGranularity"));
  *granularity = option == kGranularityMinimum ? PageSize() : kRecommendedGranularity;
  return absl::OkStatus();
}

absl::Status MemCreate(uint64_t* handle, size_t size, const MemAllocationProps* prop,
                       unsigned long long flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (handle == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemCreate: handle is null");
  SH_ASSIGN_OR_RETURN(Device * device, PropsDevice(prop, "cuMemCreate"));
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuMemCreate: flags must be 0");
  if (prop->requested_handle_types != kMemHandleTypeNone &&
      prop->requested_handle_types != kMemHandleTypePosixFd) {
    if ((prop->requested_handle_types &
         ~(kMemHandleTypePosixFd | kMemHandleTypeWin32 | kMemHandleTypeWin32Kmt)) != 0) {
      return Error(ErrorCode::kInvalidValue, "cuMemCreate: unknown handle types");
    }
    return Error(ErrorCode::kNotSupported, "cuMemCreate: Windows handles are not available");
  }
  if (size == 0 || size % PageSize() != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemCreate: size ", size,
                 " is not a positive multiple of the granularity, ", PageSize());
  }
  SH_RETURN_IF_ERROR(CheckSupported(device, "cuMemCreate"));
  if (size > device->properties().max_allocation_size) {
    return Error(ErrorCode::kOutOfMemory, "cuMemCreate: ", size,
                 " bytes exceeds the largest allocation");
  }
  const int fd = memfd_create("streamhal-vmm", MFD_CLOEXEC);
  if (fd < 0) return Error(ErrorCode::kOutOfMemory, "cuMemCreate: memfd_create failed");
  if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
    close(fd);
    return Error(ErrorCode::kOutOfMemory, "cuMemCreate: cannot size the memory to ", size);
  }
  auto memory = std::make_unique<PhysicalMemory>(fd, size, *prop);
  *handle = memory->handle();
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  PhysicalMemory* raw = memory.get();
  m.memories[raw] = std::move(memory);
  return absl::OkStatus();
}

absl::Status MemRelease(uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  SH_ASSIGN_OR_RETURN(PhysicalMemory * memory, ResolveMemory(m, handle, "cuMemRelease"));
  --memory->user_references;
  CollectIfUnused(m, memory);
  return absl::OkStatus();
}

absl::Status MemAddressReserve(uint64_t* ptr, size_t size, size_t alignment, uint64_t addr,
                               unsigned long long flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (ptr == nullptr) return Error(ErrorCode::kInvalidValue, "cuMemAddressReserve: ptr is null");
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuMemAddressReserve: flags must be 0");
  const uint64_t page = PageSize();
  if (size == 0 || size % page != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemAddressReserve: size ", size,
                 " is not a positive multiple of the granularity, ", page);
  }
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemAddressReserve: alignment ", alignment,
                 " is not a power of two");
  }
  SH_RETURN_IF_ERROR(CheckSupported(context->device(), "cuMemAddressReserve"));
  const uint64_t align = std::max<uint64_t>(alignment, page);
  if (size > (uint64_t{1} << 47) || align > (uint64_t{1} << 40)) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAddressReserve: ", size,
                 " bytes cannot be reserved");
  }
  // Over-reserve, then keep the aligned part.
  const uint64_t span = size + align - page;
  void* hint = reinterpret_cast<void*>(static_cast<uintptr_t>(addr));
  void* base = mmap(hint, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAddressReserve: no address range of ", size,
                 " bytes is free");
  }
  const uint64_t start = reinterpret_cast<uintptr_t>(base);
  const uint64_t aligned = (start + align - 1) / align * align;
  if (aligned > start) munmap(base, aligned - start);
  if (start + span > aligned + size) {
    munmap(reinterpret_cast<void*>(static_cast<uintptr_t>(aligned + size)),
           start + span - aligned - size);
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  m.reservations[aligned].size = size;
  *ptr = aligned;
  return absl::OkStatus();
}

absl::Status MemAddressFree(uint64_t ptr, size_t size) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  auto it = m.reservations.find(ptr);
  if (it == m.reservations.end() || it->second.size != size) {
    return Error(ErrorCode::kInvalidValue, "cuMemAddressFree: [0x", absl::Hex(ptr), ", +", size,
                 ") is not a reserved range");
  }
  UnmapRange(m, it->second, context->device(), ptr, ptr + size);
  munmap(reinterpret_cast<void*>(static_cast<uintptr_t>(ptr)), size);
  m.reservations.erase(it);
  return absl::OkStatus();
}

absl::Status MemMap(uint64_t ptr, size_t size, size_t offset, uint64_t handle,
                    unsigned long long flags) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuMemMap: flags must be 0");
  const uint64_t page = PageSize();
  if (size == 0 || size % page != 0 || offset % page != 0 || ptr % page != 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemMap: ptr, size and offset must be multiples of the granularity");
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  SH_ASSIGN_OR_RETURN(PhysicalMemory * memory, ResolveMemory(m, handle, "cuMemMap"));
  if (offset > memory->size() || size > memory->size() - offset) {
    return Error(ErrorCode::kInvalidValue, "cuMemMap: [", offset, ", +", size, ") is outside the ",
                 memory->size(), "-byte allocation");
  }
  auto reservation = FindReservation(m, ptr, size);
  if (reservation == m.reservations.end()) {
    return Error(ErrorCode::kInvalidValue, "cuMemMap: [0x", absl::Hex(ptr), ", +", size,
                 ") is not inside one reserved range");
  }
  auto& mappings = reservation->second.mappings;
  auto next = mappings.lower_bound(ptr);
  if ((next != mappings.end() && next->first < ptr + size) ||
      (next != mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > ptr)) {
    return Error(ErrorCode::kInvalidValue, "cuMemMap: [0x", absl::Hex(ptr), ", +", size,
                 ") overlaps a mapping");
  }
  void* at = reinterpret_cast<void*>(static_cast<uintptr_t>(ptr));
  // No access until cuMemSetAccess, as in CUDA.
  if (mmap(at, size, PROT_NONE, MAP_SHARED | MAP_FIXED, memory->fd(), static_cast<off_t>(offset)) ==
      MAP_FAILED) {
    Unreserve(ptr, size);
    return Error(ErrorCode::kOutOfMemory, "cuMemMap: mapping failed: ", std::strerror(errno));
  }
  ++memory->mappings;
  mappings[ptr] = Mapping{size, memory, offset, /*accessible=*/false};
  return absl::OkStatus();
}

absl::Status MemUnmap(uint64_t ptr, size_t size) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  auto reservation = FindReservation(m, ptr, size);
  if (size == 0 || reservation == m.reservations.end() ||
      !CoversWholeMappings(reservation->second, ptr, size)) {
    return Error(ErrorCode::kInvalidValue, "cuMemUnmap: [0x", absl::Hex(ptr), ", +", size,
                 ") is not a run of whole mappings");
  }
  UnmapRange(m, reservation->second, context->device(), ptr, ptr + size);
  // Accessible neighbours that shared an import with the range get their own.
  return Reimport(m, reservation->second, context->device(), context, ptr, ptr + size);
}

absl::Status MemSetAccess(uint64_t ptr, size_t size, const MemAccessDesc* desc, size_t count) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (desc == nullptr || count == 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemSetAccess: desc is null or count is 0");
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  auto reservation = FindReservation(m, ptr, size);
  if (size == 0 || reservation == m.reservations.end() ||
      !CoversWholeMappings(reservation->second, ptr, size)) {
    return Error(ErrorCode::kInvalidValue, "cuMemSetAccess: [0x", absl::Hex(ptr), ", +", size,
                 ") is not a run of whole mappings");
  }
  Device* device = context->device();
  bool accessible = false;
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location_type != kMemLocationTypeDevice) {
      return Error(ErrorCode::kInvalidValue, "cuMemSetAccess: location.type must be a device");
    }
    if (!GetDevice(desc[i].location_id).ok()) {
      return Error(ErrorCode::kInvalidDevice, "cuMemSetAccess: no device ", desc[i].location_id);
    }
    if (desc[i].location_id != device->ordinal()) {
      return Error(ErrorCode::kNotSupported, "cuMemSetAccess: access from device ",
                   desc[i].location_id, " would need peer access");
    }
    switch (desc[i].flags) {
      case kMemAccessProtNone:
        accessible = false;
        break;
      case kMemAccessProtReadWrite:
        accessible = true;
        break;
      case kMemAccessProtRead:
        return Error(ErrorCode::kNotSupported,
                     "cuMemSetAccess: read-only access is not available (imports are writable)");
      default:
        return Error(ErrorCode::kInvalidValue, "cuMemSetAccess: unknown flags ", desc[i].flags);
    }
  }
  auto& mappings = reservation->second.mappings;
  for (auto it = mappings.find(ptr); it != mappings.end() && it->first < ptr + size; ++it) {
    if (it->second.memory->props().location_id != device->ordinal()) {
      return Error(ErrorCode::kInvalidValue,
                   "cuMemSetAccess: the memory belongs to another device than the context's");
    }
  }
  void* at = reinterpret_cast<void*>(static_cast<uintptr_t>(ptr));
  if (!accessible) DropImports(m, device, ptr, ptr + size);
  if (mprotect(at, size, accessible ? PROT_READ | PROT_WRITE : PROT_NONE) != 0) {
    return Error(ErrorCode::kOutOfMemory, "cuMemSetAccess: mprotect failed");
  }
  for (auto it = mappings.find(ptr); it != mappings.end() && it->first < ptr + size; ++it) {
    it->second.accessible = accessible;
  }
  return Reimport(m, reservation->second, device, context, ptr, ptr + size);
}

absl::Status MemGetAccess(unsigned long long* flags, const MemAccessDesc* location, uint64_t ptr) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (flags == nullptr || location == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetAccess: flags and location must not be null");
  }
  if (location->location_type != kMemLocationTypeDevice) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetAccess: location.type must be a device");
  }
  if (!GetDevice(location->location_id).ok()) {
    return Error(ErrorCode::kInvalidDevice, "cuMemGetAccess: no device ", location->location_id);
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  auto reservation = FindReservation(m, ptr, 1);
  if (reservation != m.reservations.end()) {
    auto& mappings = reservation->second.mappings;
    auto it = mappings.upper_bound(ptr);
    if (it != mappings.begin()) {
      --it;
      if (ptr - it->first < it->second.size) {
        const bool own = it->second.memory->props().location_id == location->location_id;
        *flags = own && it->second.accessible ? kMemAccessProtReadWrite : kMemAccessProtNone;
        return absl::OkStatus();
      }
    }
  }
  return Error(ErrorCode::kInvalidValue, "cuMemGetAccess: 0x", absl::Hex(ptr), " is not mapped");
}

absl::Status MemExportToShareableHandle(void* shareable_handle, uint64_t handle, int handle_type,
                                        unsigned long long flags) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (shareable_handle == nullptr || flags != 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemExportToShareableHandle: shareableHandle is null or flags are not 0");
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  SH_ASSIGN_OR_RETURN(PhysicalMemory * memory,
                      ResolveMemory(m, handle, "cuMemExportToShareableHandle"));
  if (handle_type != kMemHandleTypePosixFd ||
      (memory->props().requested_handle_types & kMemHandleTypePosixFd) == 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuMemExportToShareableHandle: the allocation was not "
                 "created with handle type ",
                 handle_type);
  }
  const int fd = fcntl(memory->fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return Error(ErrorCode::kOutOfMemory, "cuMemExportToShareableHandle: dup failed");
  std::memcpy(shareable_handle, &fd, sizeof(fd));
  return absl::OkStatus();
}

absl::Status MemImportFromShareableHandle(uint64_t* handle, void* os_handle, int handle_type) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemImportFromShareableHandle: handle is null");
  }
  if (handle_type != kMemHandleTypePosixFd) {
    return Error(handle_type == kMemHandleTypeWin32 || handle_type == kMemHandleTypeWin32Kmt
                     ? ErrorCode::kNotSupported
                     : ErrorCode::kInvalidValue,
                 "cuMemImportFromShareableHandle: handle type ", handle_type,
                 " is not a POSIX file descriptor");
  }
  // CUDA passes the descriptor itself, cast to a pointer.
  const int source = static_cast<int>(reinterpret_cast<intptr_t>(os_handle));
  struct stat info;
  if (source < 0 || fstat(source, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0 ||
      static_cast<uint64_t>(info.st_size) % PageSize() != 0) {
    return Error(ErrorCode::kInvalidValue, "cuMemImportFromShareableHandle: ", source,
                 " is not a descriptor of exported memory");
  }
  SH_RETURN_IF_ERROR(CheckSupported(context->device(), "cuMemImportFromShareableHandle"));
  const int fd = fcntl(source, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return Error(ErrorCode::kOutOfMemory, "cuMemImportFromShareableHandle: dup failed");
  MemAllocationProps props;
  props.requested_handle_types = kMemHandleTypePosixFd;
  props.location_id = context->device()->ordinal();
  auto memory = std::make_unique<PhysicalMemory>(fd, static_cast<uint64_t>(info.st_size), props);
  *handle = memory->handle();
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  PhysicalMemory* raw = memory.get();
  m.memories[raw] = std::move(memory);
  return absl::OkStatus();
}

absl::Status MemGetAllocationPropertiesFromHandle(MemAllocationProps* prop, uint64_t handle) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (prop == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemGetAllocationPropertiesFromHandle: prop is null");
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  SH_ASSIGN_OR_RETURN(PhysicalMemory * memory,
                      ResolveMemory(m, handle, "cuMemGetAllocationPropertiesFromHandle"));
  *prop = memory->props();
  return absl::OkStatus();
}

absl::Status MemRetainAllocationHandle(uint64_t* handle, uint64_t addr) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuMemRetainAllocationHandle: handle is null");
  }
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  auto reservation = FindReservation(m, addr, 1);
  if (reservation != m.reservations.end()) {
    auto& mappings = reservation->second.mappings;
    auto it = mappings.upper_bound(addr);
    if (it != mappings.begin()) {
      --it;
      if (addr - it->first < it->second.size) {
        ++it->second.memory->user_references;
        *handle = it->second.memory->handle();
        return absl::OkStatus();
      }
    }
  }
  return Error(ErrorCode::kInvalidValue, "cuMemRetainAllocationHandle: 0x", absl::Hex(addr),
               " is not mapped");
}

void VirtualMemoryForget(Allocation* import) {
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  for (auto it = m.imports.begin(); it != m.imports.end(); ++it) {
    if (it->second == import) {
      m.imports.erase(it);
      return;
    }
  }
}

void ReleaseAllVirtualMemory() {
  Manager& m = GetManager();
  MutexLock lock(&m.mutex);
  // Every context is gone, and with them every import.
  m.imports.clear();
  for (auto& [address, reservation] : m.reservations) {
    munmap(reinterpret_cast<void*>(static_cast<uintptr_t>(address)), reservation.size);
  }
  m.reservations.clear();
  m.memories.clear();
  m.supported.clear();
}

}  // namespace streamhal
