#include "core/ipc.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/backend.h"
#include "core/context.h"
#include "core/device.h"
#include "core/event.h"
#include "core/memory.h"
#include "core/mutex.h"
#include "core/status.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

namespace streamhal {
namespace {

constexpr uint32_t kHandleMagic = 0x31435049;          // "IPC1"
constexpr uint32_t kEventHandleMagic = 0x31455049;     // "IPE1"
constexpr uint64_t kTableMagic = 0x32425443504948ULL;  // "HIPCTB2"
constexpr uint32_t kSlotCount = 4096;
constexpr uint32_t kEventSlotCount = 4096;
constexpr size_t kSlotsOffset = 4096;  // the header has a page of its own

// What cuIpcGetMemHandle writes: 64 plain bytes.
struct HandleBytes {
  uint32_t magic;
  uint32_t pid;  // the exporting process
  uint64_t table_id;
  int32_t table_fd;  // the exporter's descriptor of its IPC table
  uint32_t slot;
  uint64_t nonce;
  uint64_t size;     // bytes of the allocation
  uint8_t uuid[16];  // of the exporting device
  uint64_t reserved;
};
static_assert(sizeof(HandleBytes) == kIpcHandleSize);

struct TableHeader {
  uint64_t magic;
  uint64_t id;
  uint32_t slot_count;
  uint32_t event_slot_count;
};

// One export, in the shared table. `nonce` is 0 while the slot is free and
// is written last (and cleared first), with release/acquire order, since
// other processes read the slot while this one may change it.
struct Slot {
  uint64_t nonce;
  int32_t fd;  // in the exporting process
  uint32_t memory_type;
  uint64_t memory_size;
  uint64_t offset;
  uint64_t size;
  uint8_t uuid[16];
  uint64_t reserved;
};
static_assert(sizeof(Slot) == 64);

constexpr size_t kEventSlotsOffset = kSlotsOffset + size_t{kSlotCount} * sizeof(Slot);

}  // namespace

// An interprocess event's counters: a cache line of the exporter's table.
struct IpcEventState::Words {
  uint64_t nonce;  // 0 while the slot is free
  uint64_t recorded;
  uint64_t completed;
  uint64_t reserved[5];
};
static_assert(sizeof(IpcEventState::Words) == 64);

namespace {

constexpr size_t kTableBytes =
    kEventSlotsOffset + size_t{kEventSlotCount} * sizeof(IpcEventState::Words);

uint64_t RandomNonZero() {
  uint64_t value = 0;
  while (value == 0) {
    if (getrandom(&value, sizeof(value), 0) != static_cast<ssize_t>(sizeof(value))) {
      // No entropy source: still unique enough within a process's life.
      static std::atomic<uint64_t> counter{0x9e3779b97f4a7c15ULL};
      value = counter.fetch_add(0x9e3779b97f4a7c15ULL) ^ static_cast<uint64_t>(getpid());
    }
  }
  return value;
}

// This process's IPC table (see ipc.h).
class ExportTable {
 public:
  // The table of this process, made on first use. A child made by fork()
  // shares its parent's mapping, so it makes one of its own.
  static absl::StatusOr<ExportTable*> Get() {
    static Mutex* mutex = new Mutex;
    static ExportTable* table = nullptr;
    MutexLock lock(mutex);
    if (table != nullptr && table->pid_ == getpid()) return table;
    const int fd = memfd_create("streamhal-ipc", MFD_CLOEXEC);
    if (fd < 0) return Error(ErrorCode::kOutOfMemory, "IPC table: memfd_create failed");
    void* map = MAP_FAILED;
    if (ftruncate(fd, kTableBytes) == 0) {
      map = mmap(nullptr, kTableBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    }
    if (map == MAP_FAILED) {
      close(fd);
      return Error(ErrorCode::kOutOfMemory, "IPC table: cannot map ", kTableBytes, " bytes");
    }
    auto* header = static_cast<TableHeader*>(map);
    header->magic = kTableMagic;
    header->id = RandomNonZero();
    header->slot_count = kSlotCount;
    header->event_slot_count = kEventSlotCount;
    // The old table (a parent's) stays as it is: it is not ours to change.
    table = new ExportTable(fd, static_cast<uint8_t*>(map), header->id);
    return table;
  }

  int fd() const { return fd_; }
  uint64_t id() const { return id_; }

  // Takes `exported.fd`. Returns the slot and writes its nonce.
  absl::StatusOr<uint32_t> Add(const BackendDevice::ExportedMemory& exported, uint64_t size,
                               const std::array<uint8_t, 16>& uuid, uint64_t* nonce) {
    MutexLock lock(&mutex_);
    if (free_.empty() && next_ == kSlotCount) {
      close(exported.fd);
      return Error(ErrorCode::kOutOfMemory, "cuIpcGetMemHandle: ", kSlotCount,
                   " allocations are exported already");
    }
    uint32_t index = 0;
    if (!free_.empty()) {
      index = free_.back();
      free_.pop_back();
    } else {
      index = next_++;
    }
    Slot* slot = SlotAt(index);
    slot->fd = exported.fd;
    slot->memory_type = exported.memory_type;
    slot->memory_size = exported.memory_size;
    slot->offset = exported.offset;
    slot->size = size;
    std::memcpy(slot->uuid, uuid.data(), sizeof(slot->uuid));
    *nonce = RandomNonZero();
    __atomic_store_n(&slot->nonce, *nonce, __ATOMIC_RELEASE);
    return index;
  }

  // A fresh event slot with zeroed counters, and its words.
  absl::StatusOr<uint32_t> AddEvent(IpcEventState::Words** words) {
    MutexLock lock(&mutex_);
    if (free_events_.empty() && next_event_ == kEventSlotCount) {
      return Error(ErrorCode::kOutOfMemory, "cuEventCreate: ", kEventSlotCount,
                   " interprocess events exist already");
    }
    uint32_t index = 0;
    if (!free_events_.empty()) {
      index = free_events_.back();
      free_events_.pop_back();
    } else {
      index = next_event_++;
    }
    IpcEventState::Words* w = EventSlotAt(index);
    __atomic_store_n(&w->recorded, uint64_t{0}, __ATOMIC_RELAXED);
    __atomic_store_n(&w->completed, uint64_t{0}, __ATOMIC_RELAXED);
    __atomic_store_n(&w->nonce, RandomNonZero(), __ATOMIC_RELEASE);
    *words = w;
    return index;
  }
  void RemoveEvent(uint32_t index) {
    MutexLock lock(&mutex_);
    __atomic_store_n(&EventSlotAt(index)->nonce, uint64_t{0}, __ATOMIC_RELEASE);
    free_events_.push_back(index);
  }

  // The export ends: importers stop finding it before its descriptor goes.
  void Remove(uint32_t index) {
    MutexLock lock(&mutex_);
    Slot* slot = SlotAt(index);
    __atomic_store_n(&slot->nonce, uint64_t{0}, __ATOMIC_RELEASE);
    close(slot->fd);
    slot->fd = -1;
    free_.push_back(index);
  }

 private:
  ExportTable(int fd, uint8_t* map, uint64_t id) : fd_(fd), map_(map), id_(id), pid_(getpid()) {}
  Slot* SlotAt(uint32_t index) { return reinterpret_cast<Slot*>(map_ + kSlotsOffset) + index; }
  IpcEventState::Words* EventSlotAt(uint32_t index) {
    return reinterpret_cast<IpcEventState::Words*>(map_ + kEventSlotsOffset) + index;
  }

  const int fd_;
  uint8_t* const map_;
  const uint64_t id_;
  const pid_t pid_;
  Mutex mutex_;
  std::vector<uint32_t> free_ ABSL_GUARDED_BY(mutex_);
  uint32_t next_ ABSL_GUARDED_BY(mutex_) = 0;
  std::vector<uint32_t> free_events_ ABSL_GUARDED_BY(mutex_);
  uint32_t next_event_ ABSL_GUARDED_BY(mutex_) = 0;
};

// What an exported allocation keeps (Allocation::ipc_entry).
struct ExportEntry {
  ExportEntry(ExportTable* t, uint32_t s) : table(t), slot(s) {}
  ExportEntry(const ExportEntry&) = delete;
  ExportEntry& operator=(const ExportEntry&) = delete;
  ~ExportEntry() { table->Remove(slot); }
  ExportTable* const table;
  const uint32_t slot;
  HandleBytes handle = {};
};

// --- The importing side ---

struct OpenKey {
  Context* context;
  uint32_t pid;
  uint64_t table_id;
  uint32_t slot;
  uint64_t nonce;
  bool operator==(const OpenKey& o) const {
    return std::tie(context, pid, table_id, slot, nonce) ==
           std::tie(o.context, o.pid, o.table_id, o.slot, o.nonce);
  }
  template <typename H>
  friend H AbslHashValue(H h, const OpenKey& k) {
    return H::combine(std::move(h), k.context, k.pid, k.table_id, k.slot, k.nonce);
  }
};
struct OpenEntry {
  Allocation* allocation = nullptr;
  int count = 0;
};

Mutex& OpenMutex() {
  static Mutex* mutex = new Mutex;
  return *mutex;
}
absl::flat_hash_map<OpenKey, OpenEntry>& Opened() ABSL_EXCLUSIVE_LOCKS_REQUIRED(OpenMutex()) {
  static auto* opened = new absl::flat_hash_map<OpenKey, OpenEntry>;
  return *opened;
}

// What an imported allocation keeps: forgets the import whichever way the
// allocation goes (cuIpcCloseMemHandle, context teardown).
struct ImportEntry {
  ImportEntry(const OpenKey& k, Allocation* a) : key(k), allocation(a) {}
  ImportEntry(const ImportEntry&) = delete;
  ImportEntry& operator=(const ImportEntry&) = delete;
  const OpenKey key;
  Allocation* const allocation;
  ~ImportEntry() {
    MutexLock lock(&OpenMutex());
    auto it = Opened().find(key);
    if (it != Opened().end() && it->second.allocation == allocation) Opened().erase(it);
  }
};

// Owns a descriptor for a scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) close(fd_);
      fd_ = other.release();
    }
    return *this;
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

absl::Status Invalid(const char* what) {
  return Error(ErrorCode::kInvalidHandle, "cuIpcOpen*Handle: ", what);
}

// The exporter's slot as it is now, and a descriptor of its memory.
struct Found {
  Slot slot;
  int memory_fd = -1;
};

// The exporter's IPC table, mapped here (`writable` for event counters),
// once the handle is known to name it. `pidfd` gets the exporter's.
absl::StatusOr<void*> MapTable(const HandleBytes& handle, bool writable, Fd* pidfd) {
  *pidfd = Fd(static_cast<int>(syscall(SYS_pidfd_open, static_cast<pid_t>(handle.pid), 0)));
  if (pidfd->get() < 0) return Invalid("the exporting process is gone");
  Fd table(static_cast<int>(syscall(SYS_pidfd_getfd, pidfd->get(), handle.table_fd, 0)));
  if (table.get() < 0) return Invalid("the exporting process holds no such IPC table");
  struct stat st;
  if (fstat(table.get(), &st) != 0 || !S_ISREG(st.st_mode) ||
      static_cast<uint64_t>(st.st_size) != kTableBytes) {
    return Invalid("the handle names no IPC table");
  }
  void* map = mmap(nullptr, kTableBytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED,
                   table.get(), 0);
  if (map == MAP_FAILED) return Invalid("the IPC table cannot be mapped");
  const auto* header = static_cast<const TableHeader*>(map);
  if (header->magic != kTableMagic || header->id != handle.table_id ||
      header->slot_count != kSlotCount || header->event_slot_count != kEventSlotCount) {
    munmap(map, kTableBytes);
    return Invalid("the handle names no IPC table");
  }
  return map;
}

absl::StatusOr<Found> FindExport(const HandleBytes& handle) {
  if (handle.slot >= kSlotCount) return Invalid("the handle names no IPC table slot");
  Fd pidfd(-1);
  SH_ASSIGN_OR_RETURN(void* map, MapTable(handle, /*writable=*/false, &pidfd));
  struct Unmap {
    void* map;
    ~Unmap() { munmap(map, kTableBytes); }
  } unmap{map};
  const Slot* shared =
      reinterpret_cast<const Slot*>(static_cast<const uint8_t*>(map) + kSlotsOffset) + handle.slot;
  Found found;
  if (__atomic_load_n(&shared->nonce, __ATOMIC_ACQUIRE) != handle.nonce) {
    return Invalid("the exported memory was freed");
  }
  std::memcpy(&found.slot, shared, sizeof(Slot));
  Fd memory(static_cast<int>(syscall(SYS_pidfd_getfd, pidfd.get(), found.slot.fd, 0)));
  // Checked again: the slot's descriptor is closed only after its nonce is
  // cleared, so an unchanged nonce means the descriptor was the export's.
  if (memory.get() < 0 || __atomic_load_n(&shared->nonce, __ATOMIC_ACQUIRE) != handle.nonce) {
    return Invalid("the exported memory was freed");
  }
  found.memory_fd = memory.release();
  return found;
}

}  // namespace

absl::Status IpcGetMemHandle(void* handle, uint64_t dptr) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuIpcGetMemHandle: pHandle must not be null");
  }
  static Mutex* mutex = new Mutex;  // one export per allocation
  MutexLock lock(mutex);
  Allocation* allocation = FindDeviceAllocationAt(dptr);
  if (allocation == nullptr || allocation->pool != nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuIpcGetMemHandle: 0x", absl::Hex(dptr),
                 " is not the start of a cuMemAlloc allocation");
  }
  if (allocation->ipc_entry == nullptr) {
    SH_ASSIGN_OR_RETURN(ExportTable * table, ExportTable::Get());
    Device* device = allocation->context->device();
    SH_ASSIGN_OR_RETURN(const BackendDevice::ExportedMemory exported,
                        device->backend()->ExportMemory(allocation->backend.get()));
    uint64_t nonce = 0;
    SH_ASSIGN_OR_RETURN(const uint32_t slot,
                        table->Add(exported, allocation->size, device->properties().uuid, &nonce));
    auto entry = std::make_shared<ExportEntry>(table, slot);
    HandleBytes& bytes = entry->handle;
    bytes.magic = kHandleMagic;
    bytes.pid = static_cast<uint32_t>(getpid());
    bytes.table_id = table->id();
    bytes.table_fd = table->fd();
    bytes.slot = slot;
    bytes.nonce = nonce;
    bytes.size = allocation->size;
    std::memcpy(bytes.uuid, device->properties().uuid.data(), sizeof(bytes.uuid));
    allocation->ipc_entry = std::move(entry);
  }
  std::memcpy(handle, &static_cast<ExportEntry*>(allocation->ipc_entry.get())->handle,
              kIpcHandleSize);
  return absl::OkStatus();
}

absl::Status IpcOpenMemHandle(uint64_t* dptr, const void* handle, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (dptr == nullptr || handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuIpcOpenMemHandle: pdptr must not be null");
  }
  if (flags != kIpcMemLazyEnablePeerAccess) {
    return Error(ErrorCode::kInvalidValue, "cuIpcOpenMemHandle: Flags must be ",
                 "CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS, got 0x", absl::Hex(flags));
  }
  HandleBytes bytes;
  std::memcpy(&bytes, handle, sizeof(bytes));
  if (bytes.magic != kHandleMagic || bytes.pid == 0 || bytes.nonce == 0 || bytes.size == 0) {
    return Invalid("the handle was not made by cuIpcGetMemHandle");
  }
  if (bytes.pid == static_cast<uint32_t>(getpid())) {
    return Error(ErrorCode::kInvalidContext,
                 "cuIpcOpenMemHandle: the handle was exported by this process; use the pointer "
                 "itself");
  }
  const OpenKey key{context, bytes.pid, bytes.table_id, bytes.slot, bytes.nonce};
  MutexLock lock(&OpenMutex());
  if (auto it = Opened().find(key); it != Opened().end()) {
    // CUDA: opened again by the same context, the same pointer, counted.
    ++it->second.count;
    *dptr = it->second.allocation->device_address();
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(Found found, FindExport(bytes));
  if (std::memcmp(found.slot.uuid, context->device()->properties().uuid.data(), 16) != 0) {
    close(found.memory_fd);
    return Error(ErrorCode::kPeerAccessUnsupported,
                 "cuIpcOpenMemHandle: the memory belongs to another device than the context's");
  }
  BackendDevice::ExportedMemory exported;
  exported.fd = found.memory_fd;
  exported.memory_size = found.slot.memory_size;
  exported.offset = found.slot.offset;
  exported.memory_type = found.slot.memory_type;
  absl::StatusOr<std::unique_ptr<BackendAllocation>> imported =
      context->device()->backend()->ImportMemory(exported, found.slot.size);
  if (!imported.ok()) {
    // A slot whose sizes or type do not fit this device is forged.
    if (ErrorCodeOf(imported.status()) == ErrorCode::kInvalidValue) {
      return Invalid(std::string(imported.status().message()).c_str());
    }
    return imported.status();
  }
  auto allocation = std::make_unique<Allocation>();
  allocation->backend = *std::move(imported);
  allocation->context = context;
  allocation->kind = AllocationKind::kDevice;
  allocation->size = found.slot.size;
  allocation->ipc_import = true;
  allocation->ipc_entry = std::make_shared<ImportEntry>(key, allocation.get());
  Allocation* raw = allocation.get();
  *dptr = raw->device_address();
  Opened()[key] = OpenEntry{raw, 1};
  InsertAllocation(std::move(allocation));
  return absl::OkStatus();
}

absl::Status IpcCloseMemHandle(uint64_t dptr) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  ResolvedPointer resolved;
  {
    absl::StatusOr<ResolvedPointer> found = ResolveDeviceRange(dptr, 0, "cuIpcCloseMemHandle");
    if (found.ok()) resolved = *found;
  }
  Allocation* allocation = resolved.allocation;
  if (allocation == nullptr || resolved.offset != 0 || !allocation->ipc_import) {
    return Error(ErrorCode::kInvalidValue, "cuIpcCloseMemHandle: 0x", absl::Hex(dptr),
                 " was not returned by cuIpcOpenMemHandle");
  }
  {
    MutexLock lock(&OpenMutex());
    auto* entry = static_cast<ImportEntry*>(allocation->ipc_entry.get());
    auto it = Opened().find(entry->key);
    if (it == Opened().end() || it->second.allocation != allocation) {
      return Error(ErrorCode::kInvalidValue, "cuIpcCloseMemHandle: 0x", absl::Hex(dptr),
                   " is closed already");
    }
    if (--it->second.count > 0) return absl::OkStatus();
    Opened().erase(it);
  }
  // The last close unmaps, once the context's work on the memory is done.
  return FreeAllocation(allocation);
}

// --- Interprocess events ---

absl::StatusOr<std::shared_ptr<IpcEventState>> IpcEventState::Create() {
  SH_ASSIGN_OR_RETURN(ExportTable * table, ExportTable::Get());
  std::shared_ptr<IpcEventState> state(new IpcEventState);
  SH_ASSIGN_OR_RETURN(state->slot_, table->AddEvent(&state->words_));
  state->exported_ = true;
  return state;
}

IpcEventState::~IpcEventState() {
  if (exported_) {
    // The table outlives every event (it is never destroyed); Get() gives
    // this process's table, the one the slot was taken from.
    absl::StatusOr<ExportTable*> table = ExportTable::Get();
    if (table.ok()) (*table)->RemoveEvent(slot_);
  }
  if (mapping_ != nullptr) munmap(mapping_, kTableBytes);
}

uint64_t IpcEventState::BeginRecord() {
  return __atomic_add_fetch(&words_->recorded, 1, __ATOMIC_ACQ_REL);
}

void IpcEventState::Complete(uint64_t sequence) {
  uint64_t seen = __atomic_load_n(&words_->completed, __ATOMIC_ACQUIRE);
  while (seen < sequence &&
         !__atomic_compare_exchange_n(&words_->completed, &seen, sequence,
                                      /*weak=*/true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
  }
}

uint64_t IpcEventState::recorded() const {
  return __atomic_load_n(&words_->recorded, __ATOMIC_ACQUIRE);
}

bool IpcEventState::Done(uint64_t sequence) const {
  return __atomic_load_n(&words_->completed, __ATOMIC_ACQUIRE) >= sequence;
}

void IpcEventState::WaitFor(uint64_t sequence) const {
  int polls = 0;
  auto pause = std::chrono::microseconds(10);
  while (!Done(sequence)) {
    if (++polls < 64) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

absl::Status IpcGetEventHandle(void* handle, uint64_t event_handle) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuIpcGetEventHandle: pHandle must not be null");
  }
  SH_ASSIGN_OR_RETURN(Event * event, ResolveEvent(event_handle));
  const std::shared_ptr<IpcEventState>& state = event->ipc();
  if (state == nullptr || !state->exported_) {
    return Error(ErrorCode::kInvalidValue,
                 "cuIpcGetEventHandle: the event was not created with CU_EVENT_INTERPROCESS in "
                 "this process");
  }
  SH_ASSIGN_OR_RETURN(ExportTable * table, ExportTable::Get());
  HandleBytes bytes = {};
  bytes.magic = kEventHandleMagic;
  bytes.pid = static_cast<uint32_t>(getpid());
  bytes.table_id = table->id();
  bytes.table_fd = table->fd();
  bytes.slot = state->slot_;
  bytes.nonce = __atomic_load_n(&state->words_->nonce, __ATOMIC_ACQUIRE);
  std::memcpy(handle, &bytes, sizeof(bytes));
  return absl::OkStatus();
}

absl::Status IpcOpenEventHandle(HandleOut out, const void* handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null() || handle == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuIpcOpenEventHandle: phEvent must not be null");
  }
  HandleBytes bytes;
  std::memcpy(&bytes, handle, sizeof(bytes));
  if (bytes.magic != kEventHandleMagic || bytes.pid == 0 || bytes.nonce == 0 ||
      bytes.slot >= kEventSlotCount) {
    return Invalid("the handle was not made by cuIpcGetEventHandle");
  }
  if (bytes.pid == static_cast<uint32_t>(getpid())) {
    return Error(ErrorCode::kInvalidContext,
                 "cuIpcOpenEventHandle: the handle was exported by this process; use the event "
                 "itself");
  }
  Fd pidfd(-1);
  SH_ASSIGN_OR_RETURN(void* map, MapTable(bytes, /*writable=*/true, &pidfd));
  std::shared_ptr<IpcEventState> state(new IpcEventState);
  state->mapping_ = map;  // unmapped with the state from here on
  state->words_ =
      reinterpret_cast<IpcEventState::Words*>(static_cast<uint8_t*>(map) + kEventSlotsOffset) +
      bytes.slot;
  if (__atomic_load_n(&state->words_->nonce, __ATOMIC_ACQUIRE) != bytes.nonce) {
    return Invalid("the exported event was destroyed");
  }
  auto event = std::make_unique<Event>(context, kEventInterprocess | kEventDisableTiming);
  event->set_ipc(std::move(state));
  out.Set(event->handle());
  context->Adopt(std::move(event));
  return absl::OkStatus();
}

}  // namespace streamhal
