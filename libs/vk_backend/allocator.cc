#include "vk_backend/allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <utility>
#include <vector>

#include "core/log.h"
#include "core/status.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// A block whose range cannot be guarded is kept while the next one is made,
// so the driver hands out a different range; this many tries, then the
// allocation fails rather than break the unified-addressing promise.
constexpr int kGuardAttempts = 4;

uint64_t AlignDown(uint64_t value, uint64_t alignment) { return value & ~(alignment - 1); }

bool AlignUp(uint64_t value, uint64_t alignment, uint64_t* out) {
  const uint64_t mask = alignment - 1;
  if (value > UINT64_MAX - mask) return false;
  *out = (value + mask) & ~mask;
  return true;
}

uint64_t PageSize() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

absl::Status VkError(VkResult result, absl::string_view what) {
  if (result == VK_ERROR_INVALID_EXTERNAL_HANDLE) {
    return Error(ErrorCode::kInvalidValue, what, " failed: the host memory cannot be imported (",
                 VkResultName(result), ")");
  }
  return VkResultToStatus(result, what);
}

uint32_t HeapOf(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type) {
  return properties.memoryTypes[type].heapIndex;
}

}  // namespace

// --- HostRangeReservation ---

HostRangeReservation::~HostRangeReservation() { Release(); }

HostRangeReservation::HostRangeReservation(HostRangeReservation&& other) noexcept
    : begin_(std::exchange(other.begin_, 0)), size_(std::exchange(other.size_, 0)) {}

HostRangeReservation& HostRangeReservation::operator=(HostRangeReservation&& other) noexcept {
  if (this != &other) {
    Release();
    begin_ = std::exchange(other.begin_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

bool HostRangeReservation::Reserve(uint64_t address, uint64_t size) {
  Release();
  const uint64_t page = PageSize();
  const uint64_t begin = address & ~(page - 1);
  uint64_t end = 0;
  if (size == 0 || address > UINT64_MAX - size || !AlignUp(address + size, page, &end)) {
    return false;
  }
  if (begin == 0 || end > static_cast<uint64_t>(UINTPTR_MAX)) return false;
  void* hint = reinterpret_cast<void*>(static_cast<uintptr_t>(begin));
  const size_t length = static_cast<size_t>(end - begin);
  // MAP_FIXED_NOREPLACE fails with EEXIST instead of replacing a mapping.
  // Kernels older than 4.17 ignore the flag and treat the address as a hint,
  // which the address check below catches.
  void* result = mmap(hint, length, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (result == MAP_FAILED) return false;
  if (result != hint) {
    munmap(result, length);
    return false;
  }
  begin_ = static_cast<uintptr_t>(begin);
  size_ = length;
  return true;
}

void HostRangeReservation::Release() {
  if (size_ == 0) return;
  munmap(reinterpret_cast<void*>(begin_), size_);
  begin_ = 0;
  size_ = 0;
}

// --- MemoryBlock ---

absl::StatusOr<std::unique_ptr<MemoryBlock>> MemoryBlock::Create(VkDevice device,
                                                                 const BlockOptions& options) {
  // An imported descriptor belongs to the block from here on: closed below
  // unless Vulkan takes it.
  int import_fd = options.import_fd;
  struct FdCloser {
    int* fd;
    ~FdCloser() {
      if (*fd >= 0) close(*fd);
    }
  } fd_closer{&import_fd};
  std::unique_ptr<MemoryBlock> block(new MemoryBlock(device));
  block->size_ = options.size;
  block->memory_type_ = options.memory_type;
  block->imported_ = options.import_pointer != nullptr || options.import_fd >= 0;
  block->exportable_ = options.exportable;
  const bool opaque_fd = options.exportable || options.import_fd >= 0;

  VkExternalMemoryBufferCreateInfo external_buffer = {
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external_buffer.handleTypes = opaque_fd ? VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT
                                          : VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.pNext = options.import_pointer != nullptr || opaque_fd ? &external_buffer : nullptr;
  buffer_info.size = options.size;
  buffer_info.usage = kBlockBufferUsage;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  SH_RETURN_IF_ERROR(
      VkError(vkCreateBuffer(device, &buffer_info, nullptr, &block->buffer_), "vkCreateBuffer"));

  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device, block->buffer_, &requirements);
  if ((requirements.memoryTypeBits & (1u << options.memory_type)) == 0) {
    return Error(ErrorCode::kOutOfMemory, "memory type ", options.memory_type,
                 " cannot back a buffer with the required usage");
  }

  VkMemoryAllocateFlagsInfo flags_info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags_info.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkImportMemoryHostPointerInfoEXT import_info = {
      VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT};
  import_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  import_info.pHostPointer = options.import_pointer;
  import_info.pNext = &flags_info;
  VkExportMemoryAllocateInfo export_info = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  export_info.pNext = &flags_info;
  VkMemoryDedicatedAllocateInfo dedicated_info = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated_info.buffer = block->buffer_;
  dedicated_info.pNext = &flags_info;
  VkImportMemoryFdInfoKHR import_fd_info = {VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
  import_fd_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  import_fd_info.fd = import_fd;
  import_fd_info.pNext =
      options.dedicated ? static_cast<const void*>(&dedicated_info) : &flags_info;
  VkMemoryAllocateInfo allocate_info = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate_info.pNext = &flags_info;
  if (options.import_pointer != nullptr) allocate_info.pNext = &import_info;
  if (options.exportable) allocate_info.pNext = &export_info;
  if (options.import_fd >= 0) allocate_info.pNext = &import_fd_info;
  // An import covers exactly the host range, or the exporter's allocation;
  // an allocation what the buffer needs.
  allocate_info.allocationSize = options.import_pointer != nullptr || options.import_fd >= 0
                                     ? options.size
                                     : requirements.size;
  if (allocate_info.allocationSize < requirements.size) {
    return Error(ErrorCode::kInvalidValue, "imported memory of ", allocate_info.allocationSize,
                 " bytes is smaller than its buffer needs (", requirements.size, ")");
  }
  block->allocation_size_ = allocate_info.allocationSize;
  allocate_info.memoryTypeIndex = options.memory_type;
  VkResult allocated = InjectedFault(FaultSite::kAllocateMemory);
  if (allocated == VK_SUCCESS) {
    allocated = vkAllocateMemory(device, &allocate_info, nullptr, &block->memory_);
  }
  SH_RETURN_IF_ERROR(VkError(allocated, "vkAllocateMemory"));
  // Vulkan owns an imported descriptor once the import succeeded.
  import_fd = -1;
  SH_RETURN_IF_ERROR(
      VkError(vkBindBufferMemory(device, block->buffer_, block->memory_, 0), "vkBindBufferMemory"));
  if (options.map) {
    void* mapped = nullptr;
    SH_RETURN_IF_ERROR(
        VkError(vkMapMemory(device, block->memory_, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory"));
    block->mapped_ = static_cast<uint8_t*>(mapped);
  }
  VkBufferDeviceAddressInfo address_info = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address_info.buffer = block->buffer_;
  block->address_ = vkGetBufferDeviceAddress(device, &address_info);
  if (block->address_ == 0) {
    return Error(ErrorCode::kOutOfMemory, "vkGetBufferDeviceAddress returned 0");
  }

  return block;
}

bool MemoryBlock::GuardAddresses(const void* import_pointer) {
  const uintptr_t host_at =
      reinterpret_cast<uintptr_t>(import_pointer != nullptr ? import_pointer : mapped_);
  if (host_at != 0 && host_at == address_) {
    // The device range is this block's own host memory.
    guard_ = AddressGuard::kHostMapped;
    return true;
  }
  if (reservation_.Reserve(address_, size_)) {
    guard_ = AddressGuard::kReserved;
    return true;
  }
  return false;
}

MemoryBlock::~MemoryBlock() {
  // The memory goes before the reservation: while the range is still a
  // device range, no host allocation may take it.
  if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(device_, buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) vkFreeMemory(device_, memory_, nullptr);  // unmaps too
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

// --- VulkanAllocation ---

VulkanAllocation::~VulkanAllocation() {
  if (pool_ != nullptr) {
    pool_->Free(block_, offset_, reserved_);
  } else if (dedicated_ != nullptr) {
    allocator_->DestroyBlock(std::move(dedicated_));
  }
}

// --- MemoryPool ---

MemoryPool::MemoryPool(MemoryAllocator* allocator, uint32_t memory_type, bool map,
                       uint64_t block_size, bool exportable)
    : allocator_(allocator),
      memory_type_(memory_type),
      map_(map),
      block_size_(block_size),
      exportable_(exportable) {}

MemoryPool::~MemoryPool() {
  MutexLock lock(&mutex_);
  for (auto& [id, block] : blocks_) {
    if (block->used_ != 0) {
      Log(LogLevel::kWarning, "Vulkan memory pool destroyed with ", block->used_,
          " bytes still allocated");
    }
    allocator_->DestroyBlock(std::move(block));
  }
  blocks_.clear();
}

void MemoryPool::Carve(MemoryBlock* block, const FreeRange& range, uint64_t size) {
  free_by_size_.erase(range);
  block->free_by_offset_.erase(range.offset);
  if (range.size > size) {
    const FreeRange rest{range.size - size, range.block_id, range.offset + size};
    free_by_size_.insert(rest);
    block->free_by_offset_.emplace(rest.offset, rest.size);
  }
  if (block->used_ == 0) {
    --empty_blocks_;
    allocator_->SetBlockCached(block, false);
  }
  block->used_ += size;
}

std::unique_ptr<VulkanAllocation> MemoryPool::AllocateLocked(uint64_t size, uint64_t requested) {
  auto it = free_by_size_.lower_bound(FreeRange{size, 0, 0});
  if (it == free_by_size_.end()) return nullptr;
  const FreeRange range = *it;
  MemoryBlock* block = blocks_.at(range.block_id).get();
  Carve(block, range, size);

  std::unique_ptr<VulkanAllocation> allocation(new VulkanAllocation);
  allocation->allocator_ = allocator_;
  allocation->pool_ = this;
  allocation->block_ = block;
  allocation->offset_ = range.offset;
  allocation->reserved_ = size;
  allocation->device_address_ = block->address() + range.offset;
  allocation->size_ = requested;
  allocation->host_pointer_ = block->mapped() != nullptr ? block->mapped() + range.offset : nullptr;
  return allocation;
}

bool MemoryPool::HoldsAddress(uint64_t address) {
  MutexLock lock(&mutex_);
  for (const auto& [id, block] : blocks_) {
    if (address >= block->address() && address - block->address() < block->size()) return true;
  }
  return false;
}

absl::StatusOr<std::unique_ptr<VulkanAllocation>> MemoryPool::Allocate(uint64_t size,
                                                                       uint64_t requested) {
  {
    MutexLock lock(&mutex_);
    if (std::unique_ptr<VulkanAllocation> allocation = AllocateLocked(size, requested)) {
      return allocation;
    }
  }
  // No free range holds the request: open a block, outside the lock (making
  // room may release this pool's or another pool's empty blocks). Near the
  // heap's limit the block may be smaller than block_size_, but it holds the
  // request.
  BlockOptions options;
  options.memory_type = memory_type_;
  options.size = block_size_;
  options.min_size = size;
  options.map = map_;
  options.exportable = exportable_;
  SH_ASSIGN_OR_RETURN(std::unique_ptr<MemoryBlock> block, allocator_->CreateBlock(options));
  MutexLock lock(&mutex_);
  MemoryBlock* raw = block.get();
  raw->id_ = next_block_id_++;
  raw->free_by_offset_.emplace(0, raw->size());
  free_by_size_.insert(FreeRange{raw->size(), raw->id_, 0});
  ++empty_blocks_;
  allocator_->SetBlockCached(raw, true);
  blocks_.emplace(raw->id_, std::move(block));
  // Best fit again: another thread may have freed a range meanwhile, and
  // then the new block stays empty for later requests.
  std::unique_ptr<VulkanAllocation> allocation = AllocateLocked(size, requested);
  if (allocation == nullptr) {
    return Error(ErrorCode::kOutOfMemory, "a new block of ", raw->size(), " bytes cannot hold ",
                 size, " bytes");
  }
  return allocation;
}

void MemoryPool::Free(MemoryBlock* block, uint64_t offset, uint64_t size) {
  std::unique_ptr<MemoryBlock> released;
  {
    MutexLock lock(&mutex_);
    block->used_ -= size;
    // Coalesce with the free neighbours so the block can become whole again.
    auto next = block->free_by_offset_.find(offset + size);
    if (next != block->free_by_offset_.end()) {
      free_by_size_.erase(FreeRange{next->second, block->id_, next->first});
      size += next->second;
      block->free_by_offset_.erase(next);
    }
    auto prev = block->free_by_offset_.lower_bound(offset);
    if (prev != block->free_by_offset_.begin()) {
      --prev;
      if (prev->first + prev->second == offset) {
        free_by_size_.erase(FreeRange{prev->second, block->id_, prev->first});
        offset = prev->first;
        size += prev->second;
        block->free_by_offset_.erase(prev);
      }
    }
    block->free_by_offset_.emplace(offset, size);
    free_by_size_.insert(FreeRange{size, block->id_, offset});
    if (block->used_ == 0) {
      ++empty_blocks_;
      // One empty block stays as a spare so alloc/free cycles do not churn
      // vkAllocateMemory; its bytes count as free (the allocator releases it
      // when another block needs the room).
      if (empty_blocks_ > 1) {
        free_by_size_.erase(FreeRange{block->size(), block->id_, 0});
        block->free_by_offset_.clear();
        auto owned = blocks_.find(block->id_);
        released = std::move(owned->second);
        blocks_.erase(owned);
        --empty_blocks_;
      } else {
        allocator_->SetBlockCached(block, true);
      }
    }
  }
  if (released != nullptr) allocator_->DestroyBlock(std::move(released));
}

void MemoryPool::ReleaseEmptyBlocks() {
  std::vector<std::unique_ptr<MemoryBlock>> released;
  {
    MutexLock lock(&mutex_);
    for (auto it = blocks_.begin(); it != blocks_.end();) {
      MemoryBlock* block = it->second.get();
      if (block->used_ != 0) {
        ++it;
        continue;
      }
      free_by_size_.erase(FreeRange{block->size(), block->id_, 0});
      block->free_by_offset_.clear();
      released.push_back(std::move(it->second));
      blocks_.erase(it++);
      --empty_blocks_;
    }
  }
  for (std::unique_ptr<MemoryBlock>& block : released) allocator_->DestroyBlock(std::move(block));
}

MemoryPool::Stats MemoryPool::GetStats() {
  MutexLock lock(&mutex_);
  Stats stats;
  stats.blocks = blocks_.size();
  stats.empty_blocks = empty_blocks_;
  for (const auto& [id, block] : blocks_) {
    stats.used_bytes += block->used_;
    stats.block_bytes += block->size();
  }
  return stats;
}

// --- MemoryAllocator ---

int ChooseDeviceMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits) {
  int any = -1;
  for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    if ((properties.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0) {
      return static_cast<int>(i);
    }
    if (any < 0) any = static_cast<int>(i);
  }
  return any;
}

int ChoosePinnedMemoryType(const VkPhysicalDeviceMemoryProperties& properties, uint32_t type_bits) {
  constexpr VkMemoryPropertyFlags kRequired =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int best = -1;
  int best_score = -1;
  for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags flags = properties.memoryTypes[i].propertyFlags;
    if ((flags & kRequired) != kRequired) continue;
    // Cached memory makes host reads fast; system memory keeps the small
    // BAR heap of a discrete GPU for device allocations.
    int score = 0;
    if ((flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0) score += 2;
    if ((flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) == 0) score += 1;
    if (score > best_score) {
      best = static_cast<int>(i);
      best_score = score;
    }
  }
  return best;
}

absl::StatusOr<std::unique_ptr<MemoryAllocator>> MemoryAllocator::Create(
    const AllocatorConfig& config) {
  std::unique_ptr<MemoryAllocator> allocator(new MemoryAllocator(config));
  // Buffers with the same usage accept the same memory types (Vulkan), so
  // one small buffer tells what every block buffer accepts.
  VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = config.alignment;
  buffer_info.usage = kBlockBufferUsage;
  VkBuffer probe = VK_NULL_HANDLE;
  SH_VK_RETURN_IF_ERROR(vkCreateBuffer(config.device, &buffer_info, nullptr, &probe),
                        "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(config.device, probe, &requirements);
  vkDestroyBuffer(config.device, probe, nullptr);
  allocator->buffer_memory_type_bits_ = requirements.memoryTypeBits;

  const int device_type =
      ChooseDeviceMemoryType(config.memory_properties, requirements.memoryTypeBits);
  const int pinned_type =
      ChoosePinnedMemoryType(config.memory_properties, requirements.memoryTypeBits);
  if (device_type < 0) {
    return Error(ErrorCode::kNotSupported, "no memory type can back a storage buffer");
  }
  // Device memory that is also coherent host memory (lavapipe, integrated
  // GPUs, resizable BAR) is mapped so core can memcpy directly.
  const VkMemoryPropertyFlags device_flags =
      config.memory_properties.memoryTypes[device_type].propertyFlags;
  constexpr VkMemoryPropertyFlags kCoherentHost =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const bool map_device = (device_flags & kCoherentHost) == kCoherentHost;
  allocator->device_ =
      std::make_unique<MemoryPool>(allocator.get(), static_cast<uint32_t>(device_type), map_device,
                                   std::min(config.device_block_size, config.max_allocation_size),
                                   config.exportable_device_memory);
  if (config.exportable_device_memory) {
    allocator->device_private_ = std::make_unique<MemoryPool>(
        allocator.get(), static_cast<uint32_t>(device_type), map_device,
        std::min(config.device_block_size, config.max_allocation_size));
  }
  if (pinned_type >= 0) {
    allocator->pinned_ = std::make_unique<MemoryPool>(
        allocator.get(), static_cast<uint32_t>(pinned_type), /*map=*/true,
        std::min(config.pinned_block_size, config.max_allocation_size));
  }
  if (config.exportable_device_memory) {
    allocator->get_memory_fd_ = reinterpret_cast<PFN_vkGetMemoryFdKHR>(
        vkGetDeviceProcAddr(config.device, "vkGetMemoryFdKHR"));
  }
  if (config.external_memory_host) {
    allocator->get_host_pointer_properties_ =
        reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
            vkGetDeviceProcAddr(config.device, "vkGetMemoryHostPointerPropertiesEXT"));
  }
  Log(LogLevel::kDebug, "Vulkan allocator: device memory type ", device_type,
      map_device ? " (mapped)" : "", ", pinned memory type ", pinned_type);
  return allocator;
}

MemoryAllocator::MemoryAllocator(const AllocatorConfig& config) : config_(config) {
  for (uint32_t i = 0; i < config.memory_properties.memoryHeapCount; ++i) {
    heaps_[i].limit = config.memory_properties.memoryHeaps[i].size;
  }
}

MemoryAllocator::~MemoryAllocator() {
  device_.reset();
  device_private_.reset();
  pinned_.reset();
}

uint32_t MemoryAllocator::HeapOfType(uint32_t memory_type) const {
  return HeapOf(config_.memory_properties, memory_type);
}

std::array<uint64_t, VK_MAX_MEMORY_HEAPS> MemoryAllocator::BudgetRoom() const {
  std::array<uint64_t, VK_MAX_MEMORY_HEAPS> room;
  room.fill(UINT64_MAX);
  if (!config_.memory_budget || config_.physical_device == VK_NULL_HANDLE) return room;
  VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
  VkPhysicalDeviceMemoryProperties2 memory = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2,
                                              &budget};
  vkGetPhysicalDeviceMemoryProperties2(config_.physical_device, &memory);
  for (uint32_t i = 0; i < memory.memoryProperties.memoryHeapCount; ++i) {
    room[i] =
        budget.heapBudget[i] > budget.heapUsage[i] ? budget.heapBudget[i] - budget.heapUsage[i] : 0;
  }
  return room;
}

namespace {

// The bytes a heap can still give to new blocks. `budget_room` is what the
// driver's budget allows beyond its usage, which includes our cached blocks;
// with `release_cached`, those blocks are counted as released.
uint64_t HeapRoom(const MemoryAllocator::HeapUsage& heap, uint64_t budget_room,
                  bool release_cached) {
  const uint64_t held = release_cached ? heap.in_use : heap.in_use + heap.cached;
  uint64_t room = held < heap.limit ? heap.limit - held : 0;
  if (budget_room != UINT64_MAX) {
    const uint64_t released = release_cached ? heap.cached : 0;
    room =
        std::min(room, budget_room > UINT64_MAX - released ? UINT64_MAX : budget_room + released);
  }
  return room;
}

}  // namespace

absl::StatusOr<uint64_t> MemoryAllocator::ReserveBlockBytes(uint32_t heap, uint64_t min_size,
                                                            uint64_t size) {
  for (int attempt = 0;; ++attempt) {
    const std::array<uint64_t, VK_MAX_MEMORY_HEAPS> budget = BudgetRoom();
    HeapUsage seen;
    bool release_cached = false;
    {
      MutexLock lock(&heap_mutex_);
      HeapUsage& use = heaps_[heap];
      const uint64_t room = HeapRoom(use, budget[heap], /*release_cached=*/false);
      if (room >= min_size) {
        // min_size is aligned, so the aligned room still holds it.
        const uint64_t bytes =
            std::min(size, std::max(min_size, AlignDown(room, config_.alignment)));
        use.in_use += bytes;
        return bytes;
      }
      seen = use;
      release_cached = attempt == 0 && use.cached > 0 &&
                       HeapRoom(use, budget[heap], /*release_cached=*/true) >= min_size;
    }
    if (!release_cached) {
      return Error(ErrorCode::kOutOfMemory, "memory heap ", heap, " has ",
                   HeapRoom(seen, budget[heap], /*release_cached=*/true), " of ", seen.limit,
                   " bytes free; ", min_size, " more are needed");
    }
    ReleaseCachedBlocks(heap);
  }
}

void MemoryAllocator::ReleaseBlockBytes(uint32_t heap, uint64_t bytes, bool cached) {
  MutexLock lock(&heap_mutex_);
  (cached ? heaps_[heap].cached : heaps_[heap].in_use) -= bytes;
}

void MemoryAllocator::ReleaseCachedBlocks(uint32_t heap) {
  for (MemoryPool* pool : {device_.get(), device_private_.get(), pinned_.get()}) {
    if (pool != nullptr && HeapOfType(pool->memory_type()) == heap) pool->ReleaseEmptyBlocks();
  }
}

void MemoryAllocator::SetBlockCached(MemoryBlock* block, bool cached) {
  if (block->counted_bytes_ == 0) return;
  MutexLock lock(&heap_mutex_);
  if (block->cached_ == cached) return;
  HeapUsage& use = heaps_[HeapOfType(block->memory_type())];
  if (cached) {
    use.in_use -= block->counted_bytes_;
    use.cached += block->counted_bytes_;
  } else {
    use.cached -= block->counted_bytes_;
    use.in_use += block->counted_bytes_;
  }
  block->cached_ = cached;
}

MemoryAllocator::HeapUsage MemoryAllocator::GetHeapUsage(uint32_t heap) {
  MutexLock lock(&heap_mutex_);
  return heaps_[heap];
}

uint64_t MemoryAllocator::FreeBytes(uint32_t heap_mask) {
  const std::array<uint64_t, VK_MAX_MEMORY_HEAPS> budget = BudgetRoom();
  MutexLock lock(&heap_mutex_);
  uint64_t free = 0;
  for (uint32_t i = 0; i < config_.memory_properties.memoryHeapCount; ++i) {
    if ((heap_mask & (1u << i)) != 0) free += HeapRoom(heaps_[i], budget[i], true);
  }
  return free;
}

absl::StatusOr<std::unique_ptr<MemoryBlock>> MemoryAllocator::CreateBlock(
    const BlockOptions& requested) {
  // Imported host memory is the application's, not the heap's: not counted.
  if (requested.import_pointer != nullptr) return CreateGuardedBlock(requested);
  BlockOptions options = requested;
  const uint32_t heap = HeapOfType(options.memory_type);
  SH_ASSIGN_OR_RETURN(
      options.size, ReserveBlockBytes(heap, options.min_size != 0 ? options.min_size : options.size,
                                      options.size));
  absl::StatusOr<std::unique_ptr<MemoryBlock>> block = CreateGuardedBlock(options);
  if (!block.ok()) {
    ReleaseBlockBytes(heap, options.size, /*cached=*/false);
    return block.status();
  }
  (*block)->counted_bytes_ = options.size;
  // Peers that may access this memory see the block before anyone can
  // allocate from it.
  absl::Status mirrored = MirrorNewBlock(block->get());
  if (!mirrored.ok()) {
    DestroyBlock(std::move(*block));
    return mirrored;
  }
  return block;
}

absl::StatusOr<std::unique_ptr<MemoryBlock>> MemoryAllocator::CreateGuardedBlock(
    const BlockOptions& options) {
  std::vector<std::unique_ptr<MemoryBlock>> rejected;
  for (int attempt = 0; attempt < kGuardAttempts; ++attempt) {
    SH_ASSIGN_OR_RETURN(std::unique_ptr<MemoryBlock> block,
                        MemoryBlock::Create(config_.device, options));
    if (config_.require_disjoint && !block->GuardAddresses(options.import_pointer)) {
      Log(LogLevel::kInfo, "device range [0x", absl::Hex(block->address()), ", +", block->size(),
          ") overlaps host memory");
      rejected.push_back(std::move(block));
      // An import always gets the same range (and a descriptor is used up
      // by the first try): no point retrying.
      if (options.import_pointer != nullptr || options.import_fd >= 0) break;
      continue;
    }
    return block;
  }
  Log(LogLevel::kError, "no Vulkan memory with device addresses disjoint from host memory after ",
      rejected.size(), " tries; failing the allocation to keep unified addressing");
  return Error(ErrorCode::kOutOfMemory,
               "the device addresses of this memory overlap host memory and cannot be reserved "
               "(unified addressing would break)");
}

void MemoryAllocator::DestroyBlock(std::unique_ptr<MemoryBlock> block) {
  if (block == nullptr) return;
  if (!block->imported_) {
    // The peers' views go before the memory they import.
    std::vector<std::unique_ptr<VulkanAllocation>> views;
    {
      MutexLock lock(&peer_mutex_);
      own_blocks_.erase(block.get());
      for (auto& peer : peers_) {
        auto it = peer->imports.find(block.get());
        if (it == peer->imports.end()) continue;
        views.push_back(std::move(it->second));
        peer->imports.erase(it);
      }
    }
    views.clear();
  }
  const uint32_t heap = HeapOfType(block->memory_type());
  const uint64_t counted = block->counted_bytes_;
  bool cached = false;
  {
    MutexLock lock(&heap_mutex_);
    cached = block->cached_;
  }
  // Uncounted once the memory is gone, so the heap never holds more than
  // its limit.
  block.reset();
  if (counted != 0) ReleaseBlockBytes(heap, counted, cached);
}

absl::StatusOr<std::unique_ptr<VulkanAllocation>> MemoryAllocator::Allocate(uint64_t size,
                                                                            MemoryKind kind,
                                                                            bool shareable) {
  if (size == 0) return Error(ErrorCode::kInvalidValue, "allocation of 0 bytes");
  if (kind == MemoryKind::kHostPinned && pinned_ == nullptr) {
    return Error(ErrorCode::kNotSupported, "the device has no host-visible coherent memory");
  }
  MemoryPool& pool = kind == MemoryKind::kDevice && !shareable && device_private_ != nullptr
                         ? *device_private_
                         : this->pool(kind);
  uint64_t rounded = 0;
  if (!AlignUp(size, config_.alignment, &rounded) || rounded > config_.max_allocation_size) {
    return Error(ErrorCode::kOutOfMemory, "allocation of ", size,
                 " bytes exceeds the device's largest allocation (", config_.max_allocation_size,
                 " bytes)");
  }
  const uint64_t heap_size =
      config_.memory_properties.memoryHeaps[HeapOf(config_.memory_properties, pool.memory_type())]
          .size;
  if (rounded > heap_size) {
    return Error(ErrorCode::kOutOfMemory, "allocation of ", size, " bytes exceeds the heap (",
                 heap_size, " bytes)");
  }
  if (rounded <= pool.block_size() / 2) return pool.Allocate(rounded, size);

  // Large requests get their own memory: no fragmentation of shared blocks.
  BlockOptions options;
  options.memory_type = pool.memory_type();
  options.size = rounded;
  options.map = pool.mapped();
  options.exportable = pool.exportable();
  SH_ASSIGN_OR_RETURN(std::unique_ptr<MemoryBlock> block, CreateBlock(options));
  std::unique_ptr<VulkanAllocation> allocation(new VulkanAllocation);
  allocation->allocator_ = this;
  allocation->block_ = block.get();
  allocation->offset_ = 0;
  allocation->reserved_ = rounded;
  allocation->device_address_ = block->address();
  allocation->size_ = size;
  allocation->host_pointer_ = block->mapped();
  allocation->dedicated_ = std::move(block);
  return allocation;
}

absl::StatusOr<std::unique_ptr<VulkanAllocation>> MemoryAllocator::ImportHostMemory(void* pointer,
                                                                                    uint64_t size) {
  if (!config_.external_memory_host || get_host_pointer_properties_ == nullptr) {
    return Error(ErrorCode::kNotSupported,
                 "the device cannot import host memory (no VK_EXT_external_memory_host)");
  }
  const uint64_t alignment = config_.min_imported_host_pointer_alignment;
  const uint64_t address = reinterpret_cast<uintptr_t>(pointer);
  const uint64_t begin = address & ~(alignment - 1);
  uint64_t end = 0;
  if (address > UINT64_MAX - size || !AlignUp(address + size, alignment, &end)) {
    return Error(ErrorCode::kInvalidValue, "host range [", Ptr(pointer), ", +", size,
                 ") wraps around");
  }
  if (end - begin > config_.max_allocation_size) {
    return Error(ErrorCode::kOutOfMemory, "host range of ", end - begin,
                 " bytes exceeds the device's largest allocation");
  }
  void* aligned = reinterpret_cast<void*>(static_cast<uintptr_t>(begin));
  VkMemoryHostPointerPropertiesEXT host_properties = {
      VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  SH_RETURN_IF_ERROR(
      VkError(get_host_pointer_properties_(config_.device,
                                           VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
                                           aligned, &host_properties),
              "vkGetMemoryHostPointerPropertiesEXT"));
  const uint32_t type_bits = host_properties.memoryTypeBits & buffer_memory_type_bits_;
  int type = ChoosePinnedMemoryType(config_.memory_properties, type_bits);
  if (type < 0) type = ChooseDeviceMemoryType(config_.memory_properties, type_bits);
  if (type < 0) {
    return Error(ErrorCode::kNotSupported, "host memory at ", Ptr(pointer),
                 " cannot back a device buffer");
  }
  BlockOptions options;
  options.memory_type = static_cast<uint32_t>(type);
  options.size = end - begin;
  options.import_pointer = aligned;
  SH_ASSIGN_OR_RETURN(std::unique_ptr<MemoryBlock> block, CreateBlock(options));
  std::unique_ptr<VulkanAllocation> allocation(new VulkanAllocation);
  allocation->allocator_ = this;
  allocation->block_ = block.get();
  allocation->offset_ = address - begin;
  allocation->reserved_ = size;
  allocation->device_address_ = block->address() + (address - begin);
  allocation->size_ = size;
  allocation->host_pointer_ = pointer;
  allocation->dedicated_ = std::move(block);
  return allocation;
}

absl::StatusOr<BackendDevice::ExportedMemory> MemoryAllocator::ExportMemory(
    const VulkanAllocation& allocation) {
  const MemoryBlock* block = allocation.block();
  if (get_memory_fd_ == nullptr || block == nullptr || !block->exportable()) {
    return Error(ErrorCode::kNotSupported,
                 "this memory cannot be shared with another process (the device cannot export "
                 "it as a file descriptor)");
  }
  VkMemoryGetFdInfoKHR info = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = block->memory();
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  SH_RETURN_IF_ERROR(VkError(get_memory_fd_(config_.device, &info, &fd), "vkGetMemoryFdKHR"));
  BackendDevice::ExportedMemory exported;
  exported.fd = fd;
  exported.memory_size = block->allocation_size();
  exported.offset = allocation.buffer_offset();
  exported.memory_type = block->memory_type();
  return exported;
}

absl::StatusOr<std::unique_ptr<VulkanAllocation>> MemoryAllocator::ImportMemory(
    const BackendDevice::ExportedMemory& exported, uint64_t size) {
  BlockOptions options;
  options.import_fd = exported.fd;  // the block owns it from here
  if (get_memory_fd_ == nullptr) {
    close(exported.fd);
    return Error(ErrorCode::kNotSupported,
                 "the device cannot import memory of another process (no opaque descriptors)");
  }
  // Another API's memory: allocated, we assume, from the type this device
  // uses for device memory (docs/architecture.md, "Vulkan interop").
  const uint32_t memory_type = exported.external ? device_->memory_type() : exported.memory_type;
  if (memory_type >= config_.memory_properties.memoryTypeCount ||
      memory_type != device_->memory_type() || exported.memory_size > config_.max_allocation_size ||
      exported.offset > exported.memory_size || size > exported.memory_size - exported.offset ||
      size == 0) {
    close(exported.fd);
    return Error(ErrorCode::kInvalidValue, "the exported memory (", exported.memory_size,
                 " bytes of type ", memory_type, ", ", size, " at offset ", exported.offset,
                 ") does not fit this device");
  }
  options.memory_type = memory_type;
  options.size = exported.memory_size;
  options.map = device_->mapped();
  options.dedicated = exported.dedicated;
  SH_ASSIGN_OR_RETURN(std::unique_ptr<MemoryBlock> block, CreateGuardedBlock(options));
  std::unique_ptr<VulkanAllocation> allocation(new VulkanAllocation);
  allocation->allocator_ = this;
  allocation->block_ = block.get();
  allocation->offset_ = exported.offset;
  allocation->reserved_ = size;
  allocation->device_address_ = block->address() + exported.offset;
  allocation->size_ = size;
  allocation->host_pointer_ =
      block->mapped() != nullptr ? block->mapped() + exported.offset : nullptr;
  allocation->dedicated_ = std::move(block);
  return allocation;
}

// --- Peer access ---

absl::StatusOr<std::unique_ptr<VulkanAllocation>> MemoryAllocator::MirrorBlock(
    MemoryAllocator* importer, const MemoryBlock& block) {
  if (block.mapped() == nullptr || block.guard() != AddressGuard::kHostMapped ||
      reinterpret_cast<uintptr_t>(block.mapped()) != block.address()) {
    return Error(ErrorCode::kPeerAccessUnsupported,
                 "the device's memory is not mapped at its device address, so another device "
                 "cannot import it at the same address");
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> view,
                      importer->ImportHostMemory(block.mapped(), block.size()));
  if (view->device_address() != block.address()) {
    return Error(ErrorCode::kPeerAccessUnsupported, "memory at device address 0x",
                 absl::Hex(block.address()), " gets address 0x", absl::Hex(view->device_address()),
                 " on the peer device");
  }
  return view;
}

absl::Status MemoryAllocator::MirrorNewBlock(const MemoryBlock* block) {
  MutexLock lock(&peer_mutex_);
  own_blocks_.insert(block);
  for (auto& peer : peers_) {
    absl::StatusOr<std::unique_ptr<VulkanAllocation>> view = MirrorBlock(peer->importer, *block);
    if (!view.ok()) {
      // DestroyBlock takes back the views made so far.
      return Error(ErrorCode::kOutOfMemory,
                   "a device with peer access cannot import new memory: ", view.status().message());
    }
    peer->imports.emplace(block, *std::move(view));
  }
  return absl::OkStatus();
}

absl::Status MemoryAllocator::AddPeer(MemoryAllocator* importer) {
  MutexLock lock(&peer_mutex_);
  for (auto& peer : peers_) {
    if (peer->importer == importer) {
      ++peer->count;
      return absl::OkStatus();
    }
  }
  auto mirror = std::make_unique<PeerMirror>();
  mirror->importer = importer;
  mirror->count = 1;
  for (const MemoryBlock* block : own_blocks_) {
    // On failure `mirror` and the views made so far go away.
    SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> view, MirrorBlock(importer, *block));
    mirror->imports.emplace(block, std::move(view));
  }
  peers_.push_back(std::move(mirror));
  return absl::OkStatus();
}

void MemoryAllocator::RemovePeer(MemoryAllocator* importer) {
  std::unique_ptr<PeerMirror> removed;
  {
    MutexLock lock(&peer_mutex_);
    for (auto it = peers_.begin(); it != peers_.end(); ++it) {
      if ((*it)->importer != importer) continue;
      if (--(*it)->count == 0) {
        removed = std::move(*it);
        peers_.erase(it);
      }
      break;
    }
  }
  // The views are released outside the lock (they take the importer's heap
  // mutex).
}

bool MemoryAllocator::CanMirrorInto(MemoryAllocator* importer) {
  if (!importer->config_.external_memory_host || !device_->mapped()) return false;
  BlockOptions options;
  options.memory_type = device_->memory_type();
  options.size = PageSize();
  options.map = true;
  absl::StatusOr<std::unique_ptr<MemoryBlock>> probe = MemoryBlock::Create(config_.device, options);
  if (!probe.ok()) return false;
  if (!(*probe)->GuardAddresses(nullptr) || (*probe)->guard() != AddressGuard::kHostMapped) {
    return false;
  }
  return MirrorBlock(importer, **probe).ok();
}

}  // namespace streamhal::vk
