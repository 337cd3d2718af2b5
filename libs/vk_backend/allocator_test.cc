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
  const uint64_t counted_before = device()->allocated_bytes();
  {
    // 30 MiB requests share 64 MiB blocks, two per block.
    std::vector<std::unique_ptr<BackendAllocation>> big;
    for (int i = 0; i < 5; ++i) big.push_back(Allocate(30 << 20));
    EXPECT_GE(pool.GetStats().blocks, 3u);
    EXPECT_GT(device()->allocated_bytes(), counted_before);
    // A freed range is handed out again.
    const uint64_t address = big[1]->device_address();
    big[1].reset();
    big[1] = Allocate(30 << 20);
    EXPECT_EQ(big[1]->device_address(), address);
  }
  const MemoryPool::Stats stats = pool.GetStats();
  EXPECT_EQ(stats.used_bytes, 0u);
  EXPECT_LE(stats.blocks, 1u);
  EXPECT_LE(device()->allocated_bytes(), counted_before + (64u << 20));
}

TEST_F(AllocatorTest, LargeAllocationsGetTheirOwnMemory) {
  const uint64_t before = device()->allocated_bytes();
  auto allocation = Allocate(100 << 20);
  ASSERT_NE(allocation, nullptr);
  EXPECT_EQ(AsVulkan(allocation.get())->buffer_offset(), 0u);
  EXPECT_EQ(AsVulkan(allocation.get())->block()->size(), uint64_t{100} << 20);
  EXPECT_GE(device()->allocated_bytes(), before + (100u << 20));
  static_cast<uint8_t*>(allocation->host_pointer())[(100 << 20) - 1] = 7;
  allocation.reset();
  EXPECT_EQ(device()->allocated_bytes(), before);
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
