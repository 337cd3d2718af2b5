// Memory: device allocations (cuMemAlloc), pinned and registered host memory
// (cuMemAllocHost, cuMemHostRegister), and the address map that resolves any
// pointer inside an allocation (design decision 3).
#ifndef STREAMHAL_CORE_MEMORY_H_
#define STREAMHAL_CORE_MEMORY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/backend.h"

namespace streamhal {

class Context;
class Device;
class MemPool;
struct ManagedState;  // core/managed_memory.h

// cuMemHostAlloc flags (HIP's hipHostMalloc flags use the same low bits).
inline constexpr unsigned kHostAllocPortable = 0x01;
inline constexpr unsigned kHostAllocDeviceMap = 0x02;
inline constexpr unsigned kHostAllocWriteCombined = 0x04;
// cuMemHostRegister flags.
inline constexpr unsigned kHostRegisterPortable = 0x01;
inline constexpr unsigned kHostRegisterDeviceMap = 0x02;
inline constexpr unsigned kHostRegisterIoMemory = 0x04;
inline constexpr unsigned kHostRegisterReadOnly = 0x08;

enum class AllocationKind {
  kDevice,          // cuMemAlloc, cuMemAllocPitch
  kHostAllocated,   // cuMemAllocHost, cuMemHostAlloc
  kHostRegistered,  // cuMemHostRegister
  kManaged,         // cuMemAllocManaged: one address on the host and the device
};

// A fresh CU_POINTER_ATTRIBUTE_BUFFER_ID: unique in the process, never reused.
uint64_t NextBufferId();

// One live allocation. Owned by the memory registry; its context frees it
// when the context is destroyed.
struct Allocation {
  // What `backend` imported and must outlive it (a shareable pool block's
  // file mapping, core/pool_arena.h); null for most allocations. Declared
  // first so that it is destroyed last.
  std::shared_ptr<void> mapping;
  std::unique_ptr<BackendAllocation> backend;
  Context* context = nullptr;
  AllocationKind kind = AllocationKind::kDevice;
  uint64_t size = 0;          // bytes the caller asked for
  void* host = nullptr;       // host address (host kinds), else null
  unsigned host_flags = 0;
  // cuMemAllocAsync/cuMemAllocFromPoolAsync: the pool the block belongs to
  // (kind is kDevice); null for every other allocation.
  MemPool* pool = nullptr;
  // Pool blocks: the size of the backend allocation (at least `size`).
  uint64_t block_size = 0;
  // Blocks of pools that allocate (not imported ones): true while the block
  // waits in its pool's cache. Such a block stays in the address map, where
  // every lookup passes it by as if it were not there, so that handing it out
  // again and taking it back cost its pool no map update. Changed only under
  // the pool's lock; `context` and `size` are written before it turns false.
  std::atomic<bool> cached{false};
  // Blocks of pools with shareable handles: the offset in the pool's file.
  uint64_t pool_offset = 0;
  // A device import of mapped virtual memory (virtual_memory.h): freed by
  // cuMemUnmap and cuMemSetAccess, never by cuMemFree.
  bool virtual_mapping = false;
  // The memory of a graph's allocation node (core/graph_memory.h): freed
  // with the graph, never by cuMemFree or cuMemFreeAsync.
  bool graph_memory = false;
  // Memory of another process (cuIpcOpenMemHandle, core/ipc.h): freed by
  // cuIpcCloseMemHandle, never by cuMemFree.
  bool ipc_import = false;
  // IPC bookkeeping (core/ipc.cc), or null: an exported allocation's slot in
  // the process's IPC table, an imported one's entry among the opened
  // handles. Dropping it withdraws the export (a handle of freed memory no
  // longer opens) or forgets the import.
  std::shared_ptr<void> ipc_entry;
  // CU_POINTER_ATTRIBUTE_BUFFER_ID.
  const uint64_t buffer_id = NextBufferId();
  // CU_POINTER_ATTRIBUTE_SYNC_MEMOPS (cuPointerSetAttribute).
  std::atomic<bool> sync_memops{false};
  // kManaged: attachment, advice and prefetch requests; null otherwise.
  std::shared_ptr<ManagedState> managed;

  uint64_t device_address() const { return backend->device_address(); }
};

// Where one end of a copy lies.
struct ResolvedPointer {
  Allocation* allocation = nullptr;  // null for pageable host memory
  uint64_t offset = 0;               // into the allocation
  bool is_device() const {
    // Managed memory is device memory to copies (CUDA: cuMemcpy treats it
    // as such), even though the host may touch it directly too.
    return allocation != nullptr && (allocation->kind == AllocationKind::kDevice ||
                                     allocation->kind == AllocationKind::kManaged);
  }
};

// --- Lookups used by copies, launches and pointer queries ---

// The device allocation containing [address, address + size), or an error
// naming `what` (e.g. "cuMemcpyHtoD: destination").
absl::StatusOr<ResolvedPointer> ResolveDeviceRange(uint64_t address, uint64_t size,
                                                   const char* what);
// The pinned/registered host allocation containing [host, host + size), or
// a ResolvedPointer with no allocation (pageable memory).
ResolvedPointer ResolveHostRange(const void* host, uint64_t size);
// Classifies `address` for direction inference (cuMemcpy,
// hipMemcpyDefault): a device allocation, pinned host memory, or pageable
// host memory.
ResolvedPointer ResolveAnyRange(uint64_t address, uint64_t size);

// Device memory that core itself needs (a module's globals block), owned by
// `context` and resolvable like any cuMemAlloc allocation.
absl::StatusOr<Allocation*> AllocateDeviceMemory(Context* context, uint64_t size);
// Memory with one address on the host and the device (cuMemAllocManaged),
// owned by `context`, registered with its attach `flags` and hint state;
// kNotSupported where the device cannot give it.
absl::StatusOr<Allocation*> AllocateManagedMemory(Context* context, uint64_t size, unsigned flags,
                                                  std::shared_ptr<ManagedState> managed);
// Frees an allocation after the context's work has finished.
absl::Status FreeAllocation(Allocation* allocation);

// Memory pools (mem_pool.cc) and other owners of device memory: enters an
// allocation in the address map, or takes it out for destruction. A block of
// a pool that allocates enters the map when its pool creates it and leaves it
// when the pool gives it back to the device; while cached it is passed by
// (Allocation::cached).
void InsertAllocation(std::unique_ptr<Allocation> allocation);
std::unique_ptr<Allocation> RemoveAllocation(Allocation* allocation);
// Several at once, under one lock (a pool trimming its cache).
std::vector<std::unique_ptr<Allocation>> RemoveAllocations(
    const std::vector<Allocation*>& allocations);
// The live device allocation that starts at `dptr`, or null.
Allocation* FindDeviceAllocationAt(uint64_t dptr);

// Frees every allocation owned by `context` (context teardown).
void FreeContextAllocations(Context* context);

// --- Validated entry points ---
// `allow_zero`: HIP's hipMalloc(ptr, 0) succeeds with a null pointer; CUDA's
// cuMemAlloc(ptr, 0) is CUDA_ERROR_INVALID_VALUE.
absl::Status MemAlloc(uint64_t* dptr, size_t bytes, bool allow_zero);
// `allow_null`: hipFree(0) is a no-op; cuMemFree(0) is invalid.
absl::Status MemFree(uint64_t dptr, bool allow_null);
absl::Status MemGetInfo(size_t* free_bytes, size_t* total_bytes);
absl::Status MemGetAddressRange(uint64_t* base, size_t* size, uint64_t dptr);
absl::Status MemAllocPitch(uint64_t* dptr, size_t* pitch, size_t width_bytes, size_t height,
                           unsigned element_size);
absl::Status MemHostAlloc(void** pointer, size_t bytes, unsigned flags, bool allow_zero);
absl::Status MemFreeHost(void* pointer, bool allow_null);
absl::Status MemHostGetDevicePointer(uint64_t* dptr, void* host, unsigned flags);
absl::Status MemHostGetFlags(unsigned* flags, void* host);
absl::Status MemHostRegister(void* host, size_t bytes, unsigned flags);
absl::Status MemHostUnregister(void* host);

// Number of live allocations of every kind (tests).
size_t LiveAllocationCount();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MEMORY_H_
