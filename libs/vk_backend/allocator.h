// Device memory for the Vulkan backend: cuMemAlloc, cuMemAllocHost and
// cuMemHostRegister.
//
// Vulkan caps the number of live VkDeviceMemory objects (often at 4096), so
// small requests are sub-allocated from large blocks. Each block carries one
// VkBuffer over all of its memory; an allocation is that buffer plus an
// offset, and its device address (design decision 3) is the buffer's device
// address plus the offset. Large requests get a block of their own.
//
// Out of memory: the allocator keeps the blocks of each memory heap within
// the heap's size (and within VK_EXT_memory_budget's budget where the driver
// has it), whether or not the driver would hand out more: lavapipe allocates
// host memory past its 2 GiB heap without complaint, and cuMemGetInfo must
// agree with what cuMemAlloc does. A heap's bytes are "in use" when they
// belong to a block holding a live allocation; the one empty block a pool
// keeps for reuse is "cached" and counts as free, because it is released as
// soon as a new block needs its room. So cuMemGetInfo's free (FreeBytes) is
// what a dedicated allocation can still take, and it falls by whole blocks
// as a pool opens them. Near the limit a pool opens a smaller block (down to
// the request's size) rather than fail while room remains.
//
// Address spaces: a device address that equals a host address of unrelated
// memory would make direction inference (cuMemcpy, hipMemcpyDefault) pick the
// wrong side. When the device promises unified addressing, every block keeps
// its device range out of reach of host allocations: either the block is
// mapped at exactly its device address (lavapipe does this), so the range is
// the block's own host memory, or the range is reserved in the host address
// space (PROT_NONE, MAP_FIXED_NOREPLACE) for the block's lifetime.
#ifndef STREAMHAL_VK_BACKEND_ALLOCATOR_H_
#define STREAMHAL_VK_BACKEND_ALLOCATOR_H_

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"

namespace streamhal::vk {

// What every block buffer can be used for: kernels reach memory through
// device addresses, copies through the buffer, and the same buffer backs the
// globals (storage), big-parameter (uniform) and linear-texture (uniform
// texel buffer, tex1Dfetch) descriptors.
inline constexpr VkBufferUsageFlags kBlockBufferUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
    VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
    VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

// A range of the host address space held with PROT_NONE so that no host
// allocation can land there (released on destruction).
class HostRangeReservation {
 public:
  HostRangeReservation() = default;
  ~HostRangeReservation();
  HostRangeReservation(HostRangeReservation&& other) noexcept;
  HostRangeReservation& operator=(HostRangeReservation&& other) noexcept;
  HostRangeReservation(const HostRangeReservation&) = delete;
  HostRangeReservation& operator=(const HostRangeReservation&) = delete;

  // Reserves the pages covering [address, address + size). Fails (returns
  // false) when any of them is already mapped or the range is not a valid
  // user-space range; never replaces an existing mapping.
  bool Reserve(uint64_t address, uint64_t size);
  bool reserved() const { return size_ != 0; }

 private:
  void Release();
  uintptr_t begin_ = 0;
  size_t size_ = 0;
};

// How a block's device range is kept apart from host memory.
enum class AddressGuard {
  kNone,        // not required (the device does not claim unified addressing)
  kHostMapped,  // the block's host mapping lies at exactly its device address
  kReserved,    // the device range is reserved in the host address space
};

struct BlockOptions {
  uint32_t memory_type = 0;
  uint64_t size = 0;
  // When the heap has no room for `size` bytes, a block of at least this many
  // bytes (and as many as fit) is made instead; 0: exactly `size`.
  uint64_t min_size = 0;
  bool map = false;  // map persistently (the memory type must be host-visible)
  // VK_EXT_external_memory_host: import this host range (size bytes, both
  // aligned to minImportedHostPointerAlignment) instead of allocating.
  void* import_pointer = nullptr;
  // VK_KHR_external_memory_fd: allocate memory that can be exported as an
  // opaque file descriptor (cuIpcGetMemHandle) ...
  bool exportable = false;
  // ... or import such a descriptor (size: the exporter's allocation size).
  // The block owns the descriptor from the call on, whatever the result.
  int import_fd = -1;
  // The imported memory was allocated for one resource: the import is too
  // (VkMemoryDedicatedAllocateInfo with the block's buffer).
  bool dedicated = false;
};

// One VkDeviceMemory with one VkBuffer over all of it. Sub-allocation state
// belongs to the pool that owns the block and is guarded by the pool's mutex.
class MemoryBlock {
 public:
  // Creates and binds the memory. Out of memory is kOutOfMemory.
  static absl::StatusOr<std::unique_ptr<MemoryBlock>> Create(VkDevice device,
                                                             const BlockOptions& options);
  // Keeps the device range apart from host memory (see AddressGuard); false
  // when neither way works for this block. `import_pointer` is the imported
  // host range, if any.
  bool GuardAddresses(const void* import_pointer);
  ~MemoryBlock();
  MemoryBlock(const MemoryBlock&) = delete;
  MemoryBlock& operator=(const MemoryBlock&) = delete;

  VkBuffer buffer() const { return buffer_; }
  VkDeviceMemory memory() const { return memory_; }
  VkDeviceAddress address() const { return address_; }
  uint8_t* mapped() const { return mapped_; }
  uint64_t size() const { return size_; }
  uint32_t memory_type() const { return memory_type_; }
  AddressGuard guard() const { return guard_; }
  // The VkDeviceMemory's allocationSize (at least size()); an importer must
  // allocate exactly this many bytes.
  uint64_t allocation_size() const { return allocation_size_; }
  bool exportable() const { return exportable_; }

 private:
  friend class MemoryPool;
  friend class MemoryAllocator;
  explicit MemoryBlock(VkDevice device) : device_(device) {}

  const VkDevice device_;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceAddress address_ = 0;
  uint8_t* mapped_ = nullptr;
  uint64_t size_ = 0;
  uint64_t allocation_size_ = 0;
  uint32_t memory_type_ = 0;
  bool exportable_ = false;
  AddressGuard guard_ = AddressGuard::kNone;
  HostRangeReservation reservation_;
  // Bytes counted in the allocator's heap usage (0 for imported host memory),
  // and whether they count as cached rather than in use. Guarded by the
  // allocator's heap mutex.
  uint64_t counted_bytes_ = 0;
  bool cached_ = false;
  // Imported host memory (BlockOptions::import_pointer): the application's
  // or a peer's, never mirrored into peers.
  bool imported_ = false;

  // Pool bookkeeping (under the pool's mutex).
  uint64_t id_ = 0;
  uint64_t used_ = 0;
  absl::btree_map<uint64_t, uint64_t> free_by_offset_;  // offset -> size
};

class MemoryAllocator;
class MemoryPool;

// A BackendAllocation made by MemoryAllocator: a range of a block buffer.
class VulkanAllocation final : public streamhal::BackendAllocation {
 public:
  ~VulkanAllocation() override;
  VulkanAllocation(const VulkanAllocation&) = delete;
  VulkanAllocation& operator=(const VulkanAllocation&) = delete;

  // The block buffer and this allocation's byte offset in it; copies and
  // descriptors use these.
  VkBuffer buffer() const { return block_->buffer(); }
  uint64_t buffer_offset() const { return offset_; }
  const MemoryBlock* block() const { return block_; }
  // Bytes this allocation holds in its block (size() rounded up).
  uint64_t reserved_size() const { return reserved_; }

 private:
  friend class MemoryAllocator;
  friend class MemoryPool;
  VulkanAllocation() = default;

  MemoryAllocator* allocator_ = nullptr;
  MemoryPool* pool_ = nullptr;  // set when sub-allocated from a shared block
  MemoryBlock* block_ = nullptr;
  uint64_t offset_ = 0;
  uint64_t reserved_ = 0;
  std::unique_ptr<MemoryBlock> dedicated_;  // a block of its own
};

// Everything the allocator needs to know about the device.
struct AllocatorConfig {
  VkDevice device = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_properties = {};
  uint64_t alignment = 256;               // every allocation's alignment
  uint64_t max_allocation_size = 0;       // maxMemoryAllocationSize
  uint64_t device_block_size = 64 << 20;  // kDevice blocks
  uint64_t pinned_block_size = 16 << 20;  // kHostPinned blocks
  bool require_disjoint = false;          // see AddressGuard
  // VK_EXT_external_memory_host is enabled; imports are aligned to this.
  bool external_memory_host = false;
  uint64_t min_imported_host_pointer_alignment = 0;
  // VK_KHR_external_memory_fd is enabled and block buffers can be exported
  // and imported as opaque file descriptors: device memory is allocated
  // exportable, so any cuMemAlloc allocation can be shared with another
  // process (cuIpcGetMemHandle).
  bool exportable_device_memory = false;
  // VK_EXT_memory_budget is enabled on the device: blocks also keep within
  // the heap budgets of `physical_device`.
  bool memory_budget = false;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
};

// Sub-allocates one memory type. Thread-safe.
class MemoryPool {
 public:
  MemoryPool(MemoryAllocator* allocator, uint32_t memory_type, bool map, uint64_t block_size,
             bool exportable = false);
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // `size` is already rounded to the allocator's alignment and is at most
  // the block size.
  absl::StatusOr<std::unique_ptr<VulkanAllocation>> Allocate(uint64_t size, uint64_t requested);
  uint32_t memory_type() const { return memory_type_; }
  bool mapped() const { return map_; }
  bool exportable() const { return exportable_; }
  uint64_t block_size() const { return block_size_; }

  struct Stats {
    size_t blocks = 0;
    size_t empty_blocks = 0;
    uint64_t used_bytes = 0;
    uint64_t block_bytes = 0;
  };
  Stats GetStats();

  // Releases every empty block (the allocator needs their room).
  void ReleaseEmptyBlocks();
  // Whether `address` lies in one of the pool's blocks, allocated or not.
  bool HoldsAddress(uint64_t address);

 private:
  friend class VulkanAllocation;
  void Free(MemoryBlock* block, uint64_t offset, uint64_t size);
  // Carves `size` bytes from the best-fitting free range; null when no free
  // range holds them.
  std::unique_ptr<VulkanAllocation> AllocateLocked(uint64_t size, uint64_t requested)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  struct FreeRange {
    uint64_t size;
    uint64_t block_id;
    uint64_t offset;
    bool operator<(const FreeRange& other) const {
      if (size != other.size) return size < other.size;
      if (block_id != other.block_id) return block_id < other.block_id;
      return offset < other.offset;
    }
  };
  // Takes [offset, offset + size) out of a free range of `block`.
  void Carve(MemoryBlock* block, const FreeRange& range, uint64_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  MemoryAllocator* const allocator_;
  const uint32_t memory_type_;
  const bool map_;
  const uint64_t block_size_;
  const bool exportable_;

  Mutex mutex_;
  // Best fit over every block: the smallest free range that holds a request.
  absl::btree_set<FreeRange> free_by_size_ ABSL_GUARDED_BY(mutex_);
  absl::flat_hash_map<uint64_t, std::unique_ptr<MemoryBlock>> blocks_ ABSL_GUARDED_BY(mutex_);
  uint64_t next_block_id_ ABSL_GUARDED_BY(mutex_) = 1;
  size_t empty_blocks_ ABSL_GUARDED_BY(mutex_) = 0;
};

class MemoryAllocator {
 public:
  // Picks the memory types for both kinds. kNotSupported when the device has
  // no usable type for device memory.
  static absl::StatusOr<std::unique_ptr<MemoryAllocator>> Create(const AllocatorConfig& config);
  ~MemoryAllocator();
  MemoryAllocator(const MemoryAllocator&) = delete;
  MemoryAllocator& operator=(const MemoryAllocator&) = delete;

  // `size` > 0. Out of memory, or a request above maxMemoryAllocationSize or
  // the heap, is kOutOfMemory; nothing allocated before is affected.
  // `shareable` false: device memory that is never exported (array images,
  // whose memory would otherwise have to declare the export handle type).
  absl::StatusOr<std::unique_ptr<VulkanAllocation>> Allocate(uint64_t size, MemoryKind kind,
                                                             bool shareable = true);

  // cuMemHostRegister through VK_EXT_external_memory_host: the pages covering
  // [pointer, pointer + size) are imported; the allocation's host pointer is
  // `pointer` and its device address the matching byte. kNotSupported
  // without the extension.
  absl::StatusOr<std::unique_ptr<VulkanAllocation>> ImportHostMemory(void* pointer, uint64_t size);

  // cuIpcGetMemHandle: a new descriptor for the block that holds
  // `allocation` (device memory only; kNotSupported when it was not
  // allocated exportable).
  absl::StatusOr<BackendDevice::ExportedMemory> ExportMemory(const VulkanAllocation& allocation);
  // cuIpcOpenMemHandle: `size` bytes at `exported.offset` of the block
  // another process exported. Takes exported.fd whatever the result. The
  // block is not counted in the heap (the exporter's memory).
  absl::StatusOr<std::unique_ptr<VulkanAllocation>> ImportMemory(
      const BackendDevice::ExportedMemory& exported, uint64_t size);

  const AllocatorConfig& config() const { return config_; }
  uint64_t alignment() const { return config_.alignment; }
  MemoryPool& pool(MemoryKind kind) { return kind == MemoryKind::kDevice ? *device_ : *pinned_; }

  // Creates a block, retrying a few times when its address range cannot be
  // guarded. Unless it imports host memory, its bytes are taken from its
  // heap's room first (kOutOfMemory when there is none, after releasing
  // cached blocks) and count as in use. Must be called without any pool's
  // mutex held.
  absl::StatusOr<std::unique_ptr<MemoryBlock>> CreateBlock(const BlockOptions& options);
  // Destroys a block and uncounts it.
  void DestroyBlock(std::unique_ptr<MemoryBlock> block);
  // A pool's block became empty (its bytes count as cached, i.e. free) or
  // took its first allocation (in use). Called under the pool's mutex.
  void SetBlockCached(MemoryBlock* block, bool cached);

  // --- Peer access (VulkanDevice::EnablePeerAccess) ---
  // Mirrors every block of this allocator, now and later, into `importer`
  // at the same device address: the block's host mapping is imported there
  // (VK_EXT_external_memory_host). That needs blocks mapped at exactly their
  // device address (AddressGuard::kHostMapped, as on lavapipe). Counted:
  // each AddPeer needs one RemovePeer. kPeerAccessUnsupported when a live
  // block cannot be mirrored at its address (nothing changes then).
  absl::Status AddPeer(MemoryAllocator* importer);
  void RemovePeer(MemoryAllocator* importer);
  // Whether AddPeer can work: a one-page probe block of the device memory
  // type, imported into `importer`, gets the same device address there.
  bool CanMirrorInto(MemoryAllocator* importer);

  // What a heap holds, in bytes.
  struct HeapUsage {
    uint64_t limit = 0;   // the heap's size: blocks stay within it
    uint64_t in_use = 0;  // blocks holding live allocations (and dedicated ones)
    uint64_t cached = 0;  // empty pool blocks kept for reuse
  };
  HeapUsage GetHeapUsage(uint32_t heap);
  // The bytes allocations can still take from the heaps in `heap_mask`
  // (limit - in use; with a budget, no more than it allows): cuMemGetInfo's
  // free.
  uint64_t FreeBytes(uint32_t heap_mask);

 private:
  explicit MemoryAllocator(const AllocatorConfig& config);
  uint32_t HeapOfType(uint32_t memory_type) const;
  // CreateBlock's retries for a guarded address range.
  absl::StatusOr<std::unique_ptr<MemoryBlock>> CreateGuardedBlock(const BlockOptions& options);
  // Releases the empty blocks of the pools on `heap`.
  void ReleaseCachedBlocks(uint32_t heap);
  // Takes between `min_size` and `size` bytes (aligned) from the room of
  // `heap` for a new block, releasing cached blocks when that makes room.
  // Returns the bytes taken, which count as in use; kOutOfMemory when not
  // even `min_size` fits.
  absl::StatusOr<uint64_t> ReserveBlockBytes(uint32_t heap, uint64_t min_size, uint64_t size);
  void ReleaseBlockBytes(uint32_t heap, uint64_t bytes, bool cached);
  // Per heap, what VK_EXT_memory_budget lets this process add (budget minus
  // usage; the usage includes our own blocks); UINT64_MAX without a budget.
  std::array<uint64_t, VK_MAX_MEMORY_HEAPS> BudgetRoom() const;

  // `importer`'s view of `block` at the block's own device address.
  static absl::StatusOr<std::unique_ptr<VulkanAllocation>> MirrorBlock(MemoryAllocator* importer,
                                                                       const MemoryBlock& block);
  // A new block enters the peers' views (CreateBlock); kOutOfMemory when a
  // peer cannot take it.
  absl::Status MirrorNewBlock(const MemoryBlock* block);
  struct PeerMirror {
    MemoryAllocator* importer = nullptr;
    int count = 0;
    absl::flat_hash_map<const MemoryBlock*, std::unique_ptr<VulkanAllocation>> imports;
  };

  const AllocatorConfig config_;
  uint32_t buffer_memory_type_bits_ = 0;
  std::unique_ptr<MemoryPool> device_;
  // Device memory that is never exported, where device_ is exportable.
  std::unique_ptr<MemoryPool> device_private_;
  std::unique_ptr<MemoryPool> pinned_;
  PFN_vkGetMemoryHostPointerPropertiesEXT get_host_pointer_properties_ = nullptr;
  PFN_vkGetMemoryFdKHR get_memory_fd_ = nullptr;

  // Taken after a pool's mutex and before the importers' heap mutexes; never
  // two allocators' peer mutexes at once (imports are not mirrored).
  Mutex peer_mutex_;
  absl::flat_hash_set<const MemoryBlock*> own_blocks_ ABSL_GUARDED_BY(peer_mutex_);
  std::vector<std::unique_ptr<PeerMirror>> peers_ ABSL_GUARDED_BY(peer_mutex_);

  Mutex heap_mutex_;  // taken after a pool's mutex, never before
  std::array<HeapUsage, VK_MAX_MEMORY_HEAPS> heaps_ ABSL_GUARDED_BY(heap_mutex_);
};

// The memory type for each kind among `type_bits`: device memory prefers
// DEVICE_LOCAL (the first such type, which Vulkan orders as the plainest);
// pinned memory needs HOST_VISIBLE|HOST_COHERENT and prefers HOST_CACHED and
// types outside device-local heaps. -1 when none fits.
int ChooseDeviceMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits);
int ChoosePinnedMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_ALLOCATOR_H_
