#include "vk_backend/allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

using AllocatorTest = testing::LavapipeTest;

VulkanAllocation* AsVulkan(BackendAllocation* allocation) {
  return static_cast<VulkanAllocation*>(allocation);
}

// Bytes of the device pool's heap held by blocks with live allocations.
uint64_t DeviceHeapInUse(VulkanDevice* device) {
  MemoryAllocator& allocator = device->allocator();
  const uint32_t type = allocator.pool(MemoryKind::kDevice).memory_type();
  return allocator.GetHeapUsage(device->memory_properties().memoryTypes[type].heapIndex).in_use;
}

TEST_F(AllocatorTest, DeviceMemoryIsAlignedAndMappedOnLavapipe) {
  auto allocation = Allocate(100);
  ASSERT_NE(allocation, nullptr);
  EXPECT_NE(allocation->device_address(), 0u);
  EXPECT_EQ(allocation->device_address() % 256, 0u);
  EXPECT_EQ(allocation->size(), 100u);
  // lavapipe's only memory type is device-local and coherent host memory,
  // so the allocator maps it and core can memcpy directly.
  ASSERT_NE(allocation->host_pointer(), nullptr);
  std::memset(allocation->host_pointer(), 0xAB, 100);
  EXPECT_EQ(static_cast<uint8_t*>(allocation->host_pointer())[99], 0xAB);
}

TEST_F(AllocatorTest, LavapipeMapsBlocksAtTheirDeviceAddress) {
  // What lavapipe showed: a mapped block's host address is its device
  // address, so device ranges are disjoint from other host memory by
  // construction and unified addressing holds.
  auto allocation = Allocate(4096);
  ASSERT_NE(allocation, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(allocation->host_pointer()), allocation->device_address());
  EXPECT_EQ(AsVulkan(allocation.get())->block()->guard(), AddressGuard::kHostMapped);
  EXPECT_TRUE(device()->properties().unified_addressing);
}

TEST_F(AllocatorTest, ManagedMemoryIsReportedWherePinnedMemoryHasOneAddress) {
  // Managed memory needs one pointer value on both sides; the device
  // reports it exactly when its host-visible memory is mapped at its device
  // address, which lavapipe's is.
  auto allocation = device()->Allocate(4096, MemoryKind::kHostPinned);
  ASSERT_TRUE(allocation.ok()) << allocation.status();
  const bool one_address =
      reinterpret_cast<uintptr_t>((*allocation)->host_pointer()) == (*allocation)->device_address();
  EXPECT_EQ(device()->properties().managed_memory, one_address);
  EXPECT_TRUE(device()->properties().managed_memory);
}

TEST_F(AllocatorTest, HundredThousandSmallAllocationsAreDistinct) {
  constexpr int kCount = 100000;
  std::vector<std::unique_ptr<BackendAllocation>> allocations;
  allocations.reserve(kCount);
  for (int i = 0; i < kCount; ++i) {
    auto allocation = device()->Allocate(64, MemoryKind::kDevice);
    ASSERT_TRUE(allocation.ok()) << i << ": " << allocation.status();
    allocations.push_back(*std::move(allocation));
  }
  std::vector<uint64_t> addresses;
  addresses.reserve(kCount);
  for (const auto& allocation : allocations) addresses.push_back(allocation->device_address());
  std::sort(addresses.begin(), addresses.end());
  for (int i = 1; i < kCount; ++i) {
    ASSERT_GE(addresses[i], addresses[i - 1] + 64) << "allocations " << i - 1 << " and " << i;
  }
  // Sub-allocated: 100,000 x 256 bytes fit in a few 64 MiB blocks, far below
  // Vulkan's allocation-count limit.
  MemoryPool& pool = device()->allocator().pool(MemoryKind::kDevice);
  EXPECT_LE(pool.GetStats().blocks, 2u);

  // Free every other one, reuse the holes, then free everything.
  for (int i = 0; i < kCount; i += 2) allocations[i].reset();
  for (int i = 0; i < kCount; i += 2) {
    auto allocation = device()->Allocate(64, MemoryKind::kDevice);
    ASSERT_TRUE(allocation.ok()) << allocation.status();
    allocations[i] = *std::move(allocation);
  }
  EXPECT_LE(pool.GetStats().blocks, 2u);
  allocations.clear();
  const MemoryPool::Stats stats = pool.GetStats();
  EXPECT_EQ(stats.used_bytes, 0u);
  EXPECT_LE(stats.blocks, 1u);  // the spare
}

TEST_F(AllocatorTest, FreedSpaceIsReusedAndEmptyBlocksAreReleased) {
  MemoryPool& pool = device()->allocator().pool(MemoryKind::kDevice);
  const uint64_t in_use_before = DeviceHeapInUse(device());
  {
    // 30 MiB requests share 64 MiB blocks, two per block.
    std::vector<std::unique_ptr<BackendAllocation>> big;
    for (int i = 0; i < 5; ++i) big.push_back(Allocate(30 << 20));
    EXPECT_GE(pool.GetStats().blocks, 3u);
    EXPECT_GT(DeviceHeapInUse(device()), in_use_before);
    // A freed range is handed out again.
    const uint64_t address = big[1]->device_address();
    big[1].reset();
    big[1] = Allocate(30 << 20);
    EXPECT_EQ(big[1]->device_address(), address);
  }
  const MemoryPool::Stats stats = pool.GetStats();
  EXPECT_EQ(stats.used_bytes, 0u);
  EXPECT_LE(stats.blocks, 1u);
  // The spare block that stays counts as free.
  EXPECT_EQ(DeviceHeapInUse(device()), in_use_before);
}

TEST_F(AllocatorTest, LargeAllocationsGetTheirOwnMemory) {
  const uint64_t before = DeviceHeapInUse(device());
  auto allocation = Allocate(100 << 20);
  ASSERT_NE(allocation, nullptr);
  EXPECT_EQ(AsVulkan(allocation.get())->buffer_offset(), 0u);
  EXPECT_EQ(AsVulkan(allocation.get())->block()->size(), uint64_t{100} << 20);
  EXPECT_EQ(DeviceHeapInUse(device()), before + (100u << 20));
  static_cast<uint8_t*>(allocation->host_pointer())[(100 << 20) - 1] = 7;
  allocation.reset();
  EXPECT_EQ(DeviceHeapInUse(device()), before);
}

TEST_F(AllocatorTest, PinnedHostMemoryIsMappedAndAddressable) {
  auto pinned = Allocate(1000, MemoryKind::kHostPinned);
  ASSERT_NE(pinned, nullptr);
  ASSERT_NE(pinned->host_pointer(), nullptr);
  EXPECT_NE(pinned->device_address(), 0u);
  EXPECT_EQ(pinned->device_address() % 256, 0u);
  std::memset(pinned->host_pointer(), 1, 1000);
  const uint32_t type = AsVulkan(pinned.get())->block()->memory_type();
  const VkMemoryPropertyFlags flags = device()->memory_properties().memoryTypes[type].propertyFlags;
  EXPECT_NE(flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, 0u);
  EXPECT_NE(flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0u);
}

TEST_F(AllocatorTest, RequestsAboveTheDeviceLimitAreOutOfMemory) {
  const uint64_t limit = device()->properties().max_allocation_size;
  auto too_big = device()->Allocate(limit + 1, MemoryKind::kDevice);
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(ErrorCodeOf(too_big.status()), ErrorCode::kOutOfMemory);
  auto huge = device()->Allocate(UINT64_MAX, MemoryKind::kDevice);
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(ErrorCodeOf(huge.status()), ErrorCode::kOutOfMemory);
  auto huge_pinned = device()->Allocate(UINT64_MAX - 100, MemoryKind::kHostPinned);
  ASSERT_FALSE(huge_pinned.ok());
  EXPECT_EQ(ErrorCodeOf(huge_pinned.status()), ErrorCode::kOutOfMemory);
}

TEST_F(AllocatorTest, HostMemoryCanBeRegistered) {
  // lavapipe has VK_EXT_external_memory_host.
  ASSERT_TRUE(device()->features().external_memory_host);
  EXPECT_GT(device()->min_imported_host_pointer_alignment(), 0u);
  std::vector<uint8_t> host(3 * 4096 + 100, 0);
  void* start = host.data() + 3;  // not aligned: the enclosing pages are imported
  auto registered = device()->RegisterHostMemory(start, 2 * 4096 + 50);
  ASSERT_TRUE(registered.ok()) << registered.status();
  EXPECT_EQ((*registered)->host_pointer(), start);
  EXPECT_EQ((*registered)->size(), 2u * 4096 + 50);
  EXPECT_NE((*registered)->device_address(), 0u);
  // lavapipe imports at the host address itself.
  EXPECT_EQ((*registered)->device_address(), reinterpret_cast<uintptr_t>(start));
}

TEST_F(AllocatorTest, ConcurrentAllocationIsSafe) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      std::mt19937 random(t);
      std::vector<std::unique_ptr<BackendAllocation>> live;
      for (int i = 0; i < 3000; ++i) {
        if (!live.empty() && random() % 3 == 0) {
          live.erase(live.begin() + random() % live.size());
          continue;
        }
        const MemoryKind kind = random() % 4 == 0 ? MemoryKind::kHostPinned : MemoryKind::kDevice;
        auto allocation = device()->Allocate(1 + random() % 100000, kind);
        ASSERT_TRUE(allocation.ok()) << allocation.status();
        live.push_back(*std::move(allocation));
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(device()->allocator().pool(MemoryKind::kDevice).GetStats().used_bytes, 0u);
  EXPECT_EQ(device()->allocator().pool(MemoryKind::kHostPinned).GetStats().used_bytes, 0u);
}

// An allocator on the lavapipe device that believes its heap holds 256 MiB,
// so the limit is reached quickly and with little memory. lavapipe has one
// heap and one memory type: device and pinned pools share the heap.
class HeapLimitTest : public AllocatorTest {
 protected:
  static constexpr uint64_t kHeapBytes = 256 << 20;
  static constexpr uint64_t kBlockBytes = 64 << 20;  // device pool blocks

  void SetUp() override {
    AllocatorTest::SetUp();
    AllocatorConfig config = device()->allocator().config();
    ASSERT_EQ(config.memory_properties.memoryHeapCount, 1u);
    config.memory_properties.memoryHeaps[0].size = kHeapBytes;
    config.device_block_size = kBlockBytes;
    config.memory_budget = false;
    auto allocator = MemoryAllocator::Create(config);
    ASSERT_TRUE(allocator.ok()) << allocator.status();
    allocator_ = *std::move(allocator);
  }
  void TearDown() override {
    live_.clear();
    allocator_.reset();
  }

  uint64_t Free() { return allocator_->FreeBytes(1u); }
  absl::Status Add(uint64_t size, MemoryKind kind = MemoryKind::kDevice) {
    auto allocation = allocator_->Allocate(size, kind);
    if (!allocation.ok()) return allocation.status();
    live_.push_back(*std::move(allocation));
    return absl::OkStatus();
  }

  std::unique_ptr<MemoryAllocator> allocator_;
  std::vector<std::unique_ptr<VulkanAllocation>> live_;
};

TEST_F(HeapLimitTest, FreeFallsByWholeBlocksAndDedicatedSizes) {
  EXPECT_EQ(Free(), kHeapBytes);
  // The first small allocation opens a pool block; later ones share it.
  ASSERT_TRUE(Add(1 << 20).ok());
  EXPECT_EQ(Free(), kHeapBytes - kBlockBytes);
  ASSERT_TRUE(Add(1 << 20).ok());
  EXPECT_EQ(Free(), kHeapBytes - kBlockBytes);
  // More than half a block: memory of its own, exactly the rounded size.
  ASSERT_TRUE(Add((40 << 20) + 1).ok());
  EXPECT_EQ(Free(), kHeapBytes - kBlockBytes - (40 << 20) - allocator_->alignment());
  // Pinned memory comes from the same (only) heap on lavapipe.
  ASSERT_TRUE(Add(1000, MemoryKind::kHostPinned).ok());
  EXPECT_EQ(Free(), kHeapBytes - kBlockBytes - (40 << 20) - allocator_->alignment() -
                        allocator_->config().pinned_block_size);
}

TEST_F(HeapLimitTest, AllocationPastTheHeapFailsAndLosesNothing) {
  // Dedicated allocations until the heap is full.
  constexpr uint64_t kChunk = 40 << 20;
  int chunks = 0;
  absl::Status status;
  while ((status = Add(kChunk)).ok()) {
    std::memset(live_.back()->host_pointer(), chunks + 1, 64);
    ++chunks;
    ASSERT_LE(chunks, 7) << "the heap limit is not enforced";
  }
  EXPECT_EQ(ErrorCodeOf(status), ErrorCode::kOutOfMemory) << status;
  EXPECT_EQ(chunks, static_cast<int>(kHeapBytes / kChunk));
  EXPECT_EQ(Free(), kHeapBytes % kChunk);
  // Small allocations take the rest: a pool block as large as still fits.
  int small = 0;
  while ((status = Add(1 << 20)).ok()) ++small;
  EXPECT_EQ(ErrorCodeOf(status), ErrorCode::kOutOfMemory) << status;
  EXPECT_EQ(small, static_cast<int>((kHeapBytes % kChunk) >> 20));
  EXPECT_EQ(Free(), 0u);
  EXPECT_FALSE(Add(allocator_->alignment(), MemoryKind::kHostPinned).ok());
  // Every allocation made before the failures is intact.
  for (int i = 0; i < chunks; ++i) {
    EXPECT_EQ(static_cast<uint8_t*>(live_[i]->host_pointer())[63], i + 1) << "chunk " << i;
  }
  // Freeing gives the room back, for any kind of allocation.
  live_.erase(live_.begin());
  EXPECT_EQ(Free(), kChunk);
  ASSERT_TRUE(Add(kChunk).ok());
  EXPECT_EQ(Free(), 0u);
  live_.clear();
  EXPECT_EQ(Free(), kHeapBytes);
}

TEST_F(HeapLimitTest, CachedEmptyBlocksMakeRoomForTheWholeHeap) {
  // A freed small allocation leaves its pool block behind as the spare; it
  // counts as free and is released when a request needs its room.
  ASSERT_TRUE(Add(4096).ok());
  ASSERT_TRUE(Add(4096, MemoryKind::kHostPinned).ok());
  live_.clear();
  EXPECT_EQ(allocator_->pool(MemoryKind::kDevice).GetStats().blocks, 1u);
  EXPECT_EQ(allocator_->pool(MemoryKind::kHostPinned).GetStats().blocks, 1u);
  EXPECT_EQ(Free(), kHeapBytes);
  EXPECT_EQ(allocator_->GetHeapUsage(0).cached,
            kBlockBytes + allocator_->config().pinned_block_size);
  EXPECT_FALSE(Add(kHeapBytes + 1).ok());
  ASSERT_TRUE(Add(kHeapBytes).ok());
  EXPECT_EQ(Free(), 0u);
  EXPECT_EQ(allocator_->GetHeapUsage(0).cached, 0u);
  EXPECT_EQ(allocator_->pool(MemoryKind::kDevice).GetStats().blocks, 0u);
  live_.clear();
  EXPECT_EQ(Free(), kHeapBytes);
}

TEST_F(HeapLimitTest, ConcurrentAllocationNeverPassesTheHeap) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, &failures, t] {
      std::mt19937 random(t);
      std::vector<std::unique_ptr<VulkanAllocation>> mine;
      for (int i = 0; i < 400; ++i) {
        if (!mine.empty() && random() % 3 == 0) {
          mine.erase(mine.begin() + random() % mine.size());
          continue;
        }
        const uint64_t size = random() % 2 == 0 ? 1 + random() % (1 << 20) : (33 << 20);
        const MemoryKind kind = random() % 4 == 0 ? MemoryKind::kHostPinned : MemoryKind::kDevice;
        auto allocation = allocator_->Allocate(size, kind);
        if (allocation.ok()) {
          mine.push_back(*std::move(allocation));
        } else {
          EXPECT_EQ(ErrorCodeOf(allocation.status()), ErrorCode::kOutOfMemory);
          ++failures[t];
        }
        const MemoryAllocator::HeapUsage usage = allocator_->GetHeapUsage(0);
        EXPECT_LE(usage.in_use + usage.cached, kHeapBytes);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  int total_failures = 0;
  for (int f : failures) total_failures += f;
  EXPECT_GT(total_failures, 0) << "the heap was never full";
  EXPECT_EQ(allocator_->GetHeapUsage(0).in_use, 0u);
  EXPECT_EQ(Free(), kHeapBytes);
}

TEST(HostRangeReservationTest, RefusesMappedMemoryAndHoldsFreeRanges) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  // Mapped memory cannot be reserved (it is host memory already).
  void* mapped =
      mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  HostRangeReservation reservation;
  EXPECT_FALSE(reservation.Reserve(reinterpret_cast<uintptr_t>(mapped) + 100, page));
  EXPECT_FALSE(reservation.reserved());

  // A free range is held until the reservation goes.
  ASSERT_EQ(munmap(mapped, 4 * page), 0);
  ASSERT_TRUE(reservation.Reserve(reinterpret_cast<uintptr_t>(mapped) + 100, 2 * page));
  EXPECT_TRUE(reservation.reserved());
  void* again = mmap(mapped, page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  EXPECT_EQ(again, MAP_FAILED);
  HostRangeReservation moved = std::move(reservation);
  EXPECT_FALSE(reservation.reserved());  // NOLINT(bugprone-use-after-move)
  EXPECT_TRUE(moved.reserved());
  moved = HostRangeReservation();
  again = mmap(mapped, page, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  EXPECT_EQ(again, mapped);
  if (again != MAP_FAILED) munmap(again, page);
}

TEST(MemoryTypeChoiceTest, PrefersDeviceLocalAndCachedCoherentHostMemory) {
  VkPhysicalDeviceMemoryProperties properties = {};
  properties.memoryTypeCount = 4;
  properties.memoryHeapCount = 2;
  properties.memoryHeaps[0].flags = VK_MEMORY_HEAP_DEVICE_LOCAL_BIT;
  properties.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
  properties.memoryTypes[1] = {
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1};
  properties.memoryTypes[2] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                   VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                               1};
  properties.memoryTypes[3] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT |
                                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               0};
  EXPECT_EQ(ChooseDeviceMemoryType(properties, 0xF), 0);
  EXPECT_EQ(ChooseDeviceMemoryType(properties, 0xE), 3);
  EXPECT_EQ(ChooseDeviceMemoryType(properties, 0x6), 1);  // no device-local type allowed
  EXPECT_EQ(ChoosePinnedMemoryType(properties, 0xF), 2);
  EXPECT_EQ(ChoosePinnedMemoryType(properties, 0xB), 1);  // system memory beats the BAR
  EXPECT_EQ(ChoosePinnedMemoryType(properties, 0x9), 3);
  EXPECT_EQ(ChoosePinnedMemoryType(properties, 0x1), -1);
}

}  // namespace
}  // namespace streamhal::vk
