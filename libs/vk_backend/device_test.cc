#include "vk_backend/device.h"

#include <sched.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "vk_backend/grid_split.h"
#include "vk_backend/instance.h"

namespace streamhal::vk {
namespace {

// Enumerates the Vulkan backend and keeps the lavapipe device.
class LavapipeDeviceTest : public testing::Test {
 protected:
  void SetUp() override {
    VulkanBackend backend;
    auto devices = backend.EnumerateDevices();
    ASSERT_TRUE(devices.ok()) << devices.status();
    for (auto& device : *devices) {
      if (absl::StrContains(device->properties().name, "llvmpipe")) {
        owned_ = std::move(device);
        break;
      }
    }
    ASSERT_NE(owned_, nullptr) << "lavapipe (llvmpipe) was not enumerated";
    device_ = dynamic_cast<VulkanDevice*>(owned_.get());
    ASSERT_NE(device_, nullptr);
  }

  std::unique_ptr<BackendDevice> owned_;
  VulkanDevice* device_ = nullptr;
};

TEST_F(LavapipeDeviceTest, IdentityComesFromTheDevice) {
  const DeviceProperties& p = device_->properties();
  VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
                                             &id};
  VkPhysicalDeviceProperties2 props = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
  vkGetPhysicalDeviceProperties2(device_->physical_device(), &props);

  EXPECT_TRUE(absl::StrContains(p.name, "llvmpipe"));
  EXPECT_EQ(p.name, props.properties.deviceName);
  EXPECT_EQ(p.backend_name, "vulkan");
  EXPECT_EQ(p.driver_name, driver.driverName);
  EXPECT_EQ(p.driver_info, driver.driverInfo);
  EXPECT_FALSE(p.driver_info.empty());
  EXPECT_NE(p.uuid, (std::array<uint8_t, 16>{}));
  EXPECT_EQ(std::memcmp(p.uuid.data(), id.deviceUUID, VK_UUID_SIZE), 0);
  EXPECT_EQ(p.api_version, props.properties.apiVersion);
  EXPECT_EQ(p.driver_version, props.properties.driverVersion);
  EXPECT_EQ(p.vendor_id, props.properties.vendorID);
  EXPECT_EQ(p.device_id, props.properties.deviceID);
  EXPECT_TRUE(p.is_cpu);
  EXPECT_TRUE(p.integrated);
  EXPECT_EQ(p.compute_capability_major, 8);
  EXPECT_EQ(p.compute_capability_minor, 0);
}

TEST_F(LavapipeDeviceTest, LimitsMatchTheVulkanLimits) {
  const DeviceProperties& p = device_->properties();
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(device_->physical_device(), &props);
  const VkPhysicalDeviceLimits& limits = props.limits;

  EXPECT_EQ(p.max_threads_per_block, static_cast<int>(limits.maxComputeWorkGroupInvocations));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p.max_block_dim[i], static_cast<int>(limits.maxComputeWorkGroupSize[i])) << i;
    EXPECT_EQ(p.max_dispatch_dim[i], limits.maxComputeWorkGroupCount[i]) << i;
    // CUDA's grid limits are advertised (core splits large grids), and never
    // less than one dispatch covers.
    EXPECT_GE(static_cast<uint32_t>(p.max_grid_dim[i]), limits.maxComputeWorkGroupCount[i]) << i;
  }
  EXPECT_EQ(p.max_grid_dim[0], 2147483647);
  EXPECT_GE(p.max_grid_dim[1], 65535);
  EXPECT_GE(p.max_grid_dim[2], 65535);
  EXPECT_EQ(p.shared_memory_per_block, static_cast<int>(limits.maxComputeSharedMemorySize));
  EXPECT_EQ(p.shared_memory_per_multiprocessor, p.shared_memory_per_block);
  // The grid info of split launches takes the last push-constant bytes.
  EXPECT_EQ(p.max_push_constant_size,
            static_cast<int>(limits.maxPushConstantsSize - kGridInfoBytes));
  EXPECT_GE(p.max_push_constant_size, 128 - static_cast<int>(kGridInfoBytes));
  EXPECT_EQ(p.total_constant_memory, static_cast<int>(limits.maxUniformBufferRange));
  EXPECT_EQ(p.min_storage_buffer_offset_alignment, limits.minStorageBufferOffsetAlignment);
  EXPECT_EQ(p.texture_alignment, static_cast<int>(limits.minTexelBufferOffsetAlignment));
  EXPECT_GE(p.texture_pitch_alignment, p.texture_alignment);
  EXPECT_DOUBLE_EQ(p.timestamp_period, limits.timestampPeriod);
}

// The warp size is CUDA's 32 whatever the subgroup (lavapipe's is 8): what
// translated PTX kernels see; the subgroup sizes stay the device's.
TEST_F(LavapipeDeviceTest, WarpSizeIsCudasWarpNotTheSubgroupSize) {
  VkPhysicalDeviceSubgroupProperties subgroup = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(device_->physical_device(), &props);
  EXPECT_EQ(device_->properties().warp_size, 32);
  EXPECT_LE(device_->min_subgroup_size(), subgroup.subgroupSize);
  EXPECT_GE(device_->max_subgroup_size(), subgroup.subgroupSize);
}

TEST_F(LavapipeDeviceTest, MemoryPropertiesAreReal) {
  const DeviceProperties& p = device_->properties();
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(device_->physical_device(), &memory);
  uint64_t device_local = 0;
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) {
      device_local += memory.memoryHeaps[i].size;
    }
  }
  EXPECT_GT(p.total_memory, 0u);
  EXPECT_EQ(p.total_memory, device_local);  // lavapipe's one heap is DEVICE_LOCAL
  EXPECT_NE(device_->device_local_heap_mask(), 0u);

  VkPhysicalDeviceMaintenance3Properties maintenance3 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                       &maintenance3};
  vkGetPhysicalDeviceProperties2(device_->physical_device(), &props);
  EXPECT_EQ(p.max_allocation_size, maintenance3.maxMemoryAllocationSize);
  EXPECT_EQ(static_cast<uint64_t>(p.memory_pitch), p.max_allocation_size);
  EXPECT_TRUE(p.can_map_host_memory);  // lavapipe memory is host-visible
}

// A "multiprocessor" of llvmpipe is a thread of its compute pool, which
// runs one workgroup at a time: as many as Mesa starts, one per CPU the
// process may run on (none, so workgroups run one at a time, on one CPU),
// at most 32 (conformance/tests/occupancy_test.cc runs that many blocks at
// once, and sees one more wait).
TEST_F(LavapipeDeviceTest, CpuDeviceReportsWorkerThreadsAndClock) {
  const DeviceProperties& p = device_->properties();
  if (std::getenv("LP_NUM_THREADS") == nullptr) {
    cpu_set_t affinity;
    ASSERT_EQ(sched_getaffinity(0, sizeof(affinity), &affinity), 0);
    EXPECT_EQ(p.multiprocessor_count, std::min(32, CPU_COUNT(&affinity)));
  }
  EXPECT_EQ(p.max_blocks_per_multiprocessor, 1);
  EXPECT_EQ(p.max_threads_per_multiprocessor, p.max_threads_per_block);
  EXPECT_TRUE(p.resident_blocks_exact);
  // Read from the host's cpuinfo; containers without "cpu MHz" lines give 0.
  EXPECT_GE(p.clock_rate_khz, 0);
}

TEST_F(LavapipeDeviceTest, TimestampsAreAvailable) {
  // lavapipe's queues have 64 valid timestamp bits and a 1 ns period.
  EXPECT_GT(device_->timestamp_valid_bits(), 0u);
  EXPECT_GE(device_->properties().timestamp_period_ns, 1u);
}

TEST_F(LavapipeDeviceTest, RequiredFeaturesAreChosen) {
  const DeviceFeatures& f = device_->features();
  EXPECT_TRUE(f.buffer_device_address);
  EXPECT_TRUE(f.timeline_semaphore);
  EXPECT_TRUE(f.shader_int64);
  // lavapipe (Mesa 22.3) supports these; they are enabled when supported.
  EXPECT_TRUE(f.shader_int16);
  EXPECT_TRUE(f.shader_float64);
  EXPECT_TRUE(f.scalar_block_layout);
  EXPECT_TRUE(f.host_query_reset);
  EXPECT_TRUE(f.synchronization2);
  EXPECT_TRUE(f.subgroup_size_control);
}

TEST_F(LavapipeDeviceTest, LogicalDeviceIsCreatedByWaitIdle) {
  EXPECT_EQ(device_->device(), VK_NULL_HANDLE);
  EXPECT_EQ(device_->queue(), VK_NULL_HANDLE);
  ASSERT_TRUE(device_->WaitIdle().ok());
  EXPECT_NE(device_->device(), VK_NULL_HANDLE);
  EXPECT_NE(device_->queue(), VK_NULL_HANDLE);
  // A second wait reuses the device.
  const VkDevice first = device_->device();
  ASSERT_TRUE(device_->WaitIdle().ok());
  EXPECT_EQ(device_->device(), first);
}

TEST_F(LavapipeDeviceTest, LogicalDeviceIsCreatedByGetMemoryInfo) {
  uint64_t free_bytes = 0;
  uint64_t total_bytes = 0;
  ASSERT_TRUE(device_->GetMemoryInfo(&free_bytes, &total_bytes).ok());
  EXPECT_NE(device_->device(), VK_NULL_HANDLE);
  EXPECT_EQ(total_bytes, device_->properties().total_memory);
  EXPECT_GT(free_bytes, 0u);
  EXPECT_LE(free_bytes, total_bytes);
}

TEST_F(LavapipeDeviceTest, FreeMemoryFallsByWhatAnAllocationHolds) {
  if (device_->features().memory_budget) GTEST_SKIP() << "the driver reports a budget";
  uint64_t free_before = 0;
  uint64_t total = 0;
  ASSERT_TRUE(device_->GetMemoryInfo(&free_before, &total).ok());
  // Larger than half a 64 MiB pool block: a block of its own, exactly this
  // size.
  constexpr uint64_t kBytes = 64 << 20;
  auto allocation = device_->Allocate(kBytes, MemoryKind::kDevice);
  ASSERT_TRUE(allocation.ok()) << allocation.status();
  uint64_t free_after = 0;
  ASSERT_TRUE(device_->GetMemoryInfo(&free_after, &total).ok());
  EXPECT_EQ(free_after, free_before - kBytes);
  allocation->reset();
  ASSERT_TRUE(device_->GetMemoryInfo(&free_after, &total).ok());
  EXPECT_EQ(free_after, free_before);
}

TEST_F(LavapipeDeviceTest, ConcurrentFirstUseCreatesOneDevice) {
  constexpr int kThreads = 8;
  std::vector<VkDevice> seen(kThreads, VK_NULL_HANDLE);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([this, &seen, i] {
      if (device_->EnsureLogicalDevice().ok()) seen[i] = device_->device();
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_NE(seen[0], VK_NULL_HANDLE);
  for (VkDevice device : seen) EXPECT_EQ(device, seen[0]);
}

TEST_F(LavapipeDeviceTest, QueueFamilyCanCompute) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &count, families.data());
  ASSERT_LT(device_->queue_family_index(), count);
  EXPECT_NE(families[device_->queue_family_index()].queueFlags & VK_QUEUE_COMPUTE_BIT, 0u);
}

TEST_F(LavapipeDeviceTest, MemoryFeaturesAreEnabledWhenSupported) {
  const DeviceFeatures& f = device_->features();
  // lavapipe (Mesa 22.3) has both: big parameter blocks read std430
  // uniform buffers, and cuMemHostRegister imports host memory.
  EXPECT_TRUE(f.uniform_buffer_standard_layout);
  EXPECT_TRUE(f.external_memory_host);
  EXPECT_EQ(device_->min_imported_host_pointer_alignment(), 4096u);
}

TEST_F(LavapipeDeviceTest, UnifiedAddressingIsProvenBeforeTheDeviceIsOpened) {
  // Decided at enumeration (properties never change afterwards) with real
  // allocations on a short-lived device: lavapipe maps memory at its device
  // address, so device ranges cannot alias other host memory.
  EXPECT_TRUE(device_->properties().unified_addressing);
  EXPECT_EQ(device_->device(), VK_NULL_HANDLE);
}

TEST_F(LavapipeDeviceTest, ReportsExtensionsItHas) {
  EXPECT_TRUE(device_->HasExtension(VK_KHR_TIMELINE_SEMAPHORE_EXTENSION_NAME));
  EXPECT_FALSE(device_->HasExtension("VK_STREAMHAL_no_such_extension"));
  EXPECT_FALSE(device_->HasExtension(""));
}

// Two partitions of one physical device are peers: the accessing device
// imports the owner's blocks (present, and opened later, pooled or of their
// own) at their own addresses; enabling is counted; a device is not its own
// peer. Freeing and disabling in any order leaves nothing behind (the
// sanitizers and the validation layers check).
TEST_F(LavapipeDeviceTest, PartitionsImportEachOthersMemoryAtTheSameAddresses) {
  absl::StatusOr<std::unique_ptr<VulkanDevice>> created =
      VulkanDevice::Create(device_->instance(), device_->physical_device(), 0, 1, 2);
  ASSERT_TRUE(created.ok()) << created.status();
  std::unique_ptr<VulkanDevice> other = *std::move(created);
  EXPECT_FALSE(device_->CanAccessPeer(device_));
  ASSERT_TRUE(other->CanAccessPeer(device_));
  EXPECT_TRUE(device_->CanAccessPeer(other.get()));

  auto before = device_->Allocate(4096, MemoryKind::kDevice);
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_TRUE(other->EnablePeerAccess(device_).ok());
  ASSERT_TRUE(other->EnablePeerAccess(device_).ok());
  // Three 30 MiB pieces need a second 64 MiB pool block; 48 MiB gets a
  // block of its own.
  std::vector<std::unique_ptr<BackendAllocation>> pooled;
  for (int i = 0; i < 3; ++i) {
    auto piece = device_->Allocate(uint64_t{30} << 20, MemoryKind::kDevice);
    ASSERT_TRUE(piece.ok()) << piece.status();
    pooled.push_back(*std::move(piece));
  }
  auto own = device_->Allocate(uint64_t{48} << 20, MemoryKind::kDevice);
  ASSERT_TRUE(own.ok()) << own.status();
  own->reset();  // its import goes first
  other->DisablePeerAccess(device_);
  pooled.clear();
  other->DisablePeerAccess(device_);
  // Enabled again and left so: the owner's blocks go, then the devices.
  ASSERT_TRUE(other->EnablePeerAccess(device_).ok());
  before->reset();
  other->DisablePeerAccess(device_);
}

}  // namespace
}  // namespace streamhal::vk
