#include "vk_backend/device.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/log.h"
#include "core/status.h"
#include "vk_backend/allocator.h"
#include "vk_backend/completion_marker.h"
#include "vk_backend/grid_split.h"
#include "vk_backend/image.h"
#include "vk_backend/kernel.h"
#include "vk_backend/recording.h"
#include "vk_backend/resource_view.h"
#include "vk_backend/stream.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// Not in vulkan_core.h (it lives in the beta header), but a device that
// lists it must have it enabled.
constexpr char kPortabilitySubsetExtension[] = "VK_KHR_portability_subset";

// CUDA's grid limits (x: 2^31-1, y and z: 65535). Vulkan devices often
// allow fewer workgroups per dispatch; core splits a larger grid into
// several dispatches, so the CUDA limits are advertised.
constexpr std::array<int, 3> kCudaGridLimits = {2147483647, 65535, 65535};

// What max_threads_per_multiprocessor reports when the device does not say:
// CUDA's figure for compute capability 8.0. Occupancy code divides it by
// the block size, so it must be at least max_threads_per_block.
constexpr int kDefaultThreadsPerMultiprocessor = 2048;

std::string VersionString(uint32_t version) {
  return absl::StrCat(VK_API_VERSION_MAJOR(version), ".", VK_API_VERSION_MINOR(version), ".",
                      VK_API_VERSION_PATCH(version));
}

int ClampToInt(uint64_t value) {
  return value > static_cast<uint64_t>(INT_MAX) ? INT_MAX : static_cast<int>(value);
}

// Appends structures to a pNext chain.
class ChainBuilder {
 public:
  explicit ChainBuilder(void* head) : tail_(static_cast<VkBaseOutStructure*>(head)) {
    tail_->pNext = nullptr;
  }
  void Add(void* next) {
    auto* structure = static_cast<VkBaseOutStructure*>(next);
    structure->pNext = nullptr;
    tail_->pNext = structure;
    tail_ = structure;
  }

 private:
  VkBaseOutStructure* tail_;
};

// Which optional feature structures a chain carries. Vulkan 1.3 devices use
// VkPhysicalDeviceVulkan13Features; older ones the extension structures
// (the two must not both appear in vkCreateDevice).
struct FeatureLayout {
  bool vulkan13 = false;
  bool subgroup_size_control_ext = false;
  bool synchronization2_ext = false;
  bool atomic_float_ext = false;
  bool custom_border_color_ext = false;
};

struct FeatureChain {
  VkPhysicalDeviceFeatures2 core = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  VkPhysicalDeviceVulkan11Features v11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  VkPhysicalDeviceVulkan12Features v12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceVulkan13Features v13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
  VkPhysicalDeviceSynchronization2Features synchronization2 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceCustomBorderColorFeaturesEXT custom_border_color = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT};

  explicit FeatureChain(const FeatureLayout& layout) {
    ChainBuilder chain(&core);
    chain.Add(&v11);
    chain.Add(&v12);
    if (layout.vulkan13) chain.Add(&v13);
    if (layout.subgroup_size_control_ext) chain.Add(&subgroup_size_control);
    if (layout.synchronization2_ext) chain.Add(&synchronization2);
    if (layout.atomic_float_ext) chain.Add(&atomic_float);
    if (layout.custom_border_color_ext) chain.Add(&custom_border_color);
  }
  FeatureChain(const FeatureChain&) = delete;
  FeatureChain& operator=(const FeatureChain&) = delete;
};

struct PropertyChain {
  VkPhysicalDeviceProperties2 core = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceSubgroupSizeControlProperties subgroup_size_control = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
  VkPhysicalDeviceShaderCorePropertiesAMD amd_core = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_PROPERTIES_AMD};
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV nv_sm = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
  VkPhysicalDeviceShaderCoreBuiltinsPropertiesARM arm_core = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CORE_BUILTINS_PROPERTIES_ARM};
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT external_memory_host = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceMaintenance4Properties maintenance4 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
  bool has_subgroup_size_control = false;
  bool has_external_memory_host = false;
  bool has_maintenance4 = false;
  bool has_pci = false;
  bool has_amd_core = false;
  bool has_nv_sm = false;
  bool has_arm_core = false;

  PropertyChain() = default;
  PropertyChain(const PropertyChain&) = delete;
  PropertyChain& operator=(const PropertyChain&) = delete;

  void Link() {
    ChainBuilder chain(&core);
    chain.Add(&id);
    chain.Add(&driver);
    chain.Add(&maintenance3);
    chain.Add(&subgroup);
    if (has_subgroup_size_control) chain.Add(&subgroup_size_control);
    if (has_pci) chain.Add(&pci);
    if (has_amd_core) chain.Add(&amd_core);
    if (has_nv_sm) chain.Add(&nv_sm);
    if (has_arm_core) chain.Add(&arm_core);
    if (has_external_memory_host) chain.Add(&external_memory_host);
    if (has_maintenance4) chain.Add(&maintenance4);
  }
};

// The host CPU's clock in kHz from /proc/cpuinfo (highest "cpu MHz" line,
// since idle cores report a scaled-down clock); 0 when unavailable.
// How many workgroups llvmpipe runs at once: the threads of its compute
// pool. Each thread takes whole workgroups (a workgroup's invocations,
// barriers included, run on one thread), so exactly this many run at once,
// whatever their size and shared memory. Mesa (22.x, lp_screen.c) starts
// one thread per CPU of the process's affinity mask, none when there is only
// one (workgroups then run one at a time on the submitting thread), takes
// LP_NUM_THREADS instead when it is set, and caps the count at
// LP_MAX_THREADS (32). conformance/tests/occupancy_test.cc checks the figure
// against launches whose blocks wait for each other.
int LlvmpipeConcurrentWorkgroups() {
  constexpr long kLpMaxThreads = 32;
  long threads = 0;
  cpu_set_t affinity;
  if (sched_getaffinity(0, sizeof(affinity), &affinity) == 0) threads = CPU_COUNT(&affinity);
  if (threads <= 0) threads = sysconf(_SC_NPROCESSORS_ONLN);
  if (threads <= 1) threads = 0;
  if (const char* value = std::getenv("LP_NUM_THREADS"); value != nullptr) {
    // Mesa's debug_get_num_option: strtol with base 0; no digits keeps the
    // default. A negative count becomes a huge unsigned one, then the cap.
    char* end = nullptr;
    const long parsed = std::strtol(value, &end, 0);
    if (end != value) threads = parsed < 0 ? kLpMaxThreads : parsed;
  }
  threads = std::min(threads, kLpMaxThreads);
  return threads == 0 ? 1 : static_cast<int>(threads);
}

int HostCpuClockRateKhz() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  double best_mhz = 0.0;
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (!absl::StartsWith(line, "cpu MHz")) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    double mhz = 0.0;
    if (absl::SimpleAtod(absl::StripAsciiWhitespace(absl::string_view(line).substr(colon + 1)),
                         &mhz)) {
      best_mhz = std::max(best_mhz, mhz);
    }
  }
  return ClampToInt(static_cast<uint64_t>(std::llround(best_mhz * 1000.0)));
}

// What block buffers can do with memory of `handle_type`
// (VK_EXTERNAL_MEMORY_FEATURE_*_BIT).
VkExternalMemoryFeatureFlags BlockBufferFeatures(VkPhysicalDevice physical_device,
                                                 VkExternalMemoryHandleTypeFlagBits handle_type) {
  VkPhysicalDeviceExternalBufferInfo buffer_info = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO};
  buffer_info.usage = kBlockBufferUsage;
  buffer_info.handleType = handle_type;
  VkExternalBufferProperties external = {VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(physical_device, &buffer_info, &external);
  return external.externalMemoryProperties.externalMemoryFeatures;
}

}  // namespace

VulkanDevice::VulkanDevice(std::shared_ptr<VulkanInstance> instance,
                           VkPhysicalDevice physical_device)
    : instance_(std::move(instance)), physical_device_(physical_device) {}

absl::StatusOr<std::unique_ptr<VulkanDevice>> VulkanDevice::Create(
    std::shared_ptr<VulkanInstance> instance, VkPhysicalDevice physical_device, int index,
    int partition, int partition_count) {
  std::unique_ptr<VulkanDevice> device(new VulkanDevice(std::move(instance), physical_device));
  SH_RETURN_IF_ERROR(device->Probe());
  DeviceProperties& p = device->properties_;
  p.backend_device_index = index;
  p.partition = partition;
  p.partition_count = partition_count;
  // CUDA identifies devices by UUID (CUDA_VISIBLE_DEVICES, cuDeviceGetUuid):
  // partitions must not share one. The last byte changes; partition 0 keeps
  // the driver's UUID.
  p.uuid[15] ^= static_cast<uint8_t>(partition);
  return device;
}

VulkanDevice::~VulkanDevice() {
  if (!created_.load(std::memory_order_acquire)) return;
  {
    MutexLock lock(&queue_mutex_);
    vkDeviceWaitIdle(device_);  // a lost device is no reason not to destroy
  }
  {
    MutexLock lock(&retired_mutex_);
    for (const RetiredSemaphore& retired : retired_semaphores_) {
      vkDestroySemaphore(device_, retired.semaphore, nullptr);
    }
    retired_semaphores_.clear();
    retired_count_.store(0, std::memory_order_release);
  }
  kernel_objects_.reset();
  completion_markers_.reset();
  allocator_.reset();
  vkDestroyDevice(device_, nullptr);
}

bool VulkanDevice::HasExtension(std::string_view name) const {
  auto it = std::lower_bound(extensions_.begin(), extensions_.end(), name,
                             [](const VkExtensionProperties& e, std::string_view n) {
                               return std::string_view(e.extensionName) < n;
                             });
  return it != extensions_.end() && std::string_view(it->extensionName) == name;
}

absl::Status VulkanDevice::Probe() {
  vkGetPhysicalDeviceProperties(physical_device_, &vk_properties_);
  const VkPhysicalDeviceLimits& limits = vk_properties_.limits;
  if (vk_properties_.apiVersion < kMinimumApiVersion) {
    return Error(ErrorCode::kNotSupported, "it supports Vulkan ",
                 VersionString(vk_properties_.apiVersion), "; streamhal needs 1.2");
  }
  api_version_ = std::min(instance_->api_version(), vk_properties_.apiVersion);

  // Extensions, sorted for HasExtension.
  uint32_t count = 0;
  SH_VK_RETURN_IF_ERROR(
      vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &count, nullptr),
      "vkEnumerateDeviceExtensionProperties");
  extensions_.resize(count);
  SH_VK_RETURN_IF_ERROR(
      vkEnumerateDeviceExtensionProperties(physical_device_, nullptr, &count, extensions_.data()),
      "vkEnumerateDeviceExtensionProperties");
  extensions_.resize(count);
  std::sort(extensions_.begin(), extensions_.end(),
            [](const VkExtensionProperties& a, const VkExtensionProperties& b) {
              return std::strcmp(a.extensionName, b.extensionName) < 0;
            });

  // One compute queue; a compute-only family (an async compute engine) is
  // preferred because it does not share hardware with graphics work.
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_device_, &count, families.data());
  families.resize(count);
  int chosen = -1;
  for (uint32_t i = 0; i < families.size(); ++i) {
    const VkQueueFlags flags = families[i].queueFlags;
    if ((flags & VK_QUEUE_COMPUTE_BIT) == 0 || families[i].queueCount == 0) continue;
    if (chosen < 0 || (flags & VK_QUEUE_GRAPHICS_BIT) == 0) chosen = static_cast<int>(i);
    if ((flags & VK_QUEUE_GRAPHICS_BIT) == 0) break;
  }
  if (chosen < 0) return Error(ErrorCode::kNotSupported, "it has no compute-capable queue family");
  queue_family_index_ = static_cast<uint32_t>(chosen);
  timestamp_valid_bits_ = families[queue_family_index_].timestampValidBits;

  // Features: the required ones, then what is optional.
  const bool vulkan13 = api_version_ >= VK_API_VERSION_1_3;
  FeatureLayout layout;
  layout.vulkan13 = vulkan13;
  layout.subgroup_size_control_ext =
      !vulkan13 && HasExtension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  layout.synchronization2_ext = !vulkan13 && HasExtension(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
  layout.atomic_float_ext = HasExtension(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  layout.custom_border_color_ext = HasExtension(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  FeatureChain supported(layout);
  vkGetPhysicalDeviceFeatures2(physical_device_, &supported.core);

  std::string missing;
  if (!supported.v12.bufferDeviceAddress) absl::StrAppend(&missing, " bufferDeviceAddress");
  if (!supported.v12.timelineSemaphore) absl::StrAppend(&missing, " timelineSemaphore");
  if (!supported.core.features.shaderInt64) absl::StrAppend(&missing, " shaderInt64");
  if (!missing.empty()) {
    return Error(ErrorCode::kNotSupported, "it lacks the required feature(s)", missing);
  }

  DeviceFeatures& f = features_;
  f.buffer_device_address = true;
  f.timeline_semaphore = true;
  f.shader_int64 = true;
  f.shader_int16 = supported.core.features.shaderInt16;
  f.shader_float64 = supported.core.features.shaderFloat64;
  f.storage_buffer_16bit_access = supported.v11.storageBuffer16BitAccess;
  f.storage_push_constant16 = supported.v11.storagePushConstant16;
  f.storage_push_constant8 = supported.v12.storagePushConstant8;
  f.shader_int8 = supported.v12.shaderInt8;
  f.shader_float16 = supported.v12.shaderFloat16;
  f.storage_buffer_8bit_access = supported.v12.storageBuffer8BitAccess;
  f.uniform_and_storage_buffer_8bit_access = supported.v12.uniformAndStorageBuffer8BitAccess;
  f.scalar_block_layout = supported.v12.scalarBlockLayout;
  f.host_query_reset = supported.v12.hostQueryReset;
  f.shader_buffer_int64_atomics = supported.v12.shaderBufferInt64Atomics;
  f.shader_shared_int64_atomics = supported.v12.shaderSharedInt64Atomics;
  f.vulkan_memory_model = supported.v12.vulkanMemoryModel;
  f.vulkan_memory_model_device_scope = supported.v12.vulkanMemoryModelDeviceScope;
  if (vulkan13) {
    f.synchronization2 = supported.v13.synchronization2;
    f.subgroup_size_control = supported.v13.subgroupSizeControl;
    f.compute_full_subgroups = supported.v13.computeFullSubgroups;
  } else {
    f.synchronization2 = layout.synchronization2_ext && supported.synchronization2.synchronization2;
    f.subgroup_size_control =
        layout.subgroup_size_control_ext && supported.subgroup_size_control.subgroupSizeControl;
    f.compute_full_subgroups =
        layout.subgroup_size_control_ext && supported.subgroup_size_control.computeFullSubgroups;
  }
  f.shader_buffer_float32_atomic_add =
      layout.atomic_float_ext && supported.atomic_float.shaderBufferFloat32AtomicAdd;
  f.shader_shared_float32_atomic_add =
      layout.atomic_float_ext && supported.atomic_float.shaderSharedFloat32AtomicAdd;
  f.shader_non_semantic_info =
      vulkan13 || HasExtension(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
  f.memory_budget = HasExtension(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  f.uniform_buffer_standard_layout = supported.v12.uniformBufferStandardLayout;
  f.push_descriptor = HasExtension(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  // Samplers name their view's format, so customBorderColorWithoutFormat
  // is not needed.
  f.custom_border_color =
      layout.custom_border_color_ext && supported.custom_border_color.customBorderColors;
  f.storage_image_read_without_format = supported.core.features.shaderStorageImageReadWithoutFormat;
  f.storage_image_write_without_format =
      supported.core.features.shaderStorageImageWriteWithoutFormat;

  // Properties.
  PropertyChain chain;
  chain.has_subgroup_size_control =
      vulkan13 || HasExtension(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
  chain.has_pci = HasExtension(VK_EXT_PCI_BUS_INFO_EXTENSION_NAME);
  chain.has_amd_core = HasExtension(VK_AMD_SHADER_CORE_PROPERTIES_EXTENSION_NAME);
  chain.has_nv_sm = HasExtension(VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
  chain.has_arm_core = HasExtension(VK_ARM_SHADER_CORE_BUILTINS_EXTENSION_NAME);
  chain.has_external_memory_host = HasExtension(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  chain.has_maintenance4 = vulkan13;
  chain.Link();
  vkGetPhysicalDeviceProperties2(physical_device_, &chain.core);
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);

  if (chain.has_maintenance4) max_buffer_size_ = chain.maintenance4.maxBufferSize;
  // cuMemHostRegister imports host memory into block buffers; the extension
  // is used only when such buffers can be imported.
  if (chain.has_external_memory_host &&
      chain.external_memory_host.minImportedHostPointerAlignment > 0) {
    if ((BlockBufferFeatures(physical_device_,
                             VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT) &
         VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) != 0) {
      f.external_memory_host = true;
      min_imported_host_pointer_alignment_ =
          chain.external_memory_host.minImportedHostPointerAlignment;
    }
  }

  // cuIpcGetMemHandle shares device memory as an opaque descriptor: used
  // only when block buffers can be both exported and imported that way.
  if (HasExtension(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME)) {
    constexpr VkExternalMemoryFeatureFlags kBoth =
        VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT;
    f.external_memory_fd =
        (BlockBufferFeatures(physical_device_, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) &
         kBoth) == kBoth;
  }

  const bool is_cpu = vk_properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  const uint32_t warp_size = chain.subgroup.subgroupSize;
  min_subgroup_size_ = warp_size;
  max_subgroup_size_ = warp_size;
  if (chain.has_subgroup_size_control && f.subgroup_size_control) {
    min_subgroup_size_ = chain.subgroup_size_control.minSubgroupSize;
    max_subgroup_size_ = chain.subgroup_size_control.maxSubgroupSize;
  }

  DeviceProperties& p = properties_;
  p.name = vk_properties_.deviceName;
  std::copy(std::begin(chain.id.deviceUUID), std::end(chain.id.deviceUUID), p.uuid.begin());
  p.backend_name = "vulkan";
  p.driver_name = chain.driver.driverName;
  p.driver_info = chain.driver.driverInfo;
  // llvmpipe ends the loops of an invocation after 65,535 iterations in
  // total and runs on with whatever the loop computed so far (no error).
  if (chain.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) p.loop_iteration_limit = 65535;
  p.api_version = vk_properties_.apiVersion;
  p.driver_version = vk_properties_.driverVersion;
  p.vendor_id = vk_properties_.vendorID;
  p.device_id = vk_properties_.deviceID;
  p.integrated = is_cpu || vk_properties_.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
  p.is_cpu = is_cpu;

  // Device memory: the DEVICE_LOCAL heaps. A CPU device with a single heap
  // reports that heap whatever its flags (all its memory is "device" memory).
  for (uint32_t i = 0; i < memory_properties_.memoryHeapCount; ++i) {
    if ((memory_properties_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0 ||
        (is_cpu && memory_properties_.memoryHeapCount == 1)) {
      device_local_heap_mask_ |= 1u << i;
      p.total_memory += memory_properties_.memoryHeaps[i].size;
    }
  }
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((memory_properties_.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) !=
        0) {
      p.can_map_host_memory = true;
    }
  }
  p.max_allocation_size = chain.maintenance3.maxMemoryAllocationSize;
  // cuMemAllocPitch's limit: one allocation holds the whole pitched block.
  p.memory_pitch = static_cast<int64_t>(
      std::min<uint64_t>(p.max_allocation_size, static_cast<uint64_t>(INT64_MAX)));

  p.max_threads_per_block = ClampToInt(limits.maxComputeWorkGroupInvocations);
  for (int i = 0; i < 3; ++i) {
    p.max_block_dim[i] = ClampToInt(limits.maxComputeWorkGroupSize[i]);
    p.max_dispatch_dim[i] = limits.maxComputeWorkGroupCount[i];
    p.max_grid_dim[i] =
        std::max(kCudaGridLimits[i], ClampToInt(limits.maxComputeWorkGroupCount[i]));
  }
  // Vulkan has one shared-memory limit per workgroup; a multiprocessor is
  // not a Vulkan concept, so the per-block figure is all that is known.
  p.shared_memory_per_block = ClampToInt(limits.maxComputeSharedMemorySize);
  p.shared_memory_per_multiprocessor = p.shared_memory_per_block;
  // The last kGridInfoBytes of push constants are kept for the grid info of
  // split launches (grid_split.h); bigger parameter blocks go to a uniform
  // buffer.
  p.max_push_constant_size = ClampToInt(limits.maxPushConstantsSize - kGridInfoBytes);
  // CUDA's warp, not the subgroup: translated PTX kernels see 32-wide warps
  // on every device (emulated where subgroups are narrower, docs/ptx.md),
  // and CUDA code sizes per-warp data by this attribute. GLSL kernels see
  // the native subgroup (gl_SubgroupSize) instead (docs/kernel-abi.md).
  p.warp_size = 32;

  // Vulkan does not expose the number of compute units. The vendor
  // extensions do; without them a GPU reports 1 (a lower bound that keeps
  // "blocks = k * multiprocessor_count" launches valid) and a CPU device its
  // host threads. On llvmpipe a "multiprocessor" is one thread of its
  // compute pool, which runs one workgroup at a time (docs/kernel-abi.md,
  // Occupancy).
  p.multiprocessor_count = 1;
  p.max_threads_per_multiprocessor =
      std::max(p.max_threads_per_block, kDefaultThreadsPerMultiprocessor);
  p.max_blocks_per_multiprocessor = 0;  // not known
  if (chain.driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE) {
    p.multiprocessor_count = LlvmpipeConcurrentWorkgroups();
    p.max_threads_per_multiprocessor = p.max_threads_per_block;
    p.max_blocks_per_multiprocessor = 1;
    p.resident_blocks_exact = true;
  } else if (is_cpu) {
    p.multiprocessor_count = std::max(1u, std::thread::hardware_concurrency());
  } else if (chain.has_nv_sm && chain.nv_sm.shaderSMCount > 0) {
    p.multiprocessor_count = ClampToInt(chain.nv_sm.shaderSMCount);
    p.max_threads_per_multiprocessor =
        std::max(p.max_threads_per_block,
                 ClampToInt(static_cast<uint64_t>(chain.nv_sm.shaderWarpsPerSM) * warp_size));
  } else if (chain.has_amd_core && chain.amd_core.computeUnitsPerShaderArray > 0) {
    const auto& amd = chain.amd_core;
    p.multiprocessor_count =
        ClampToInt(static_cast<uint64_t>(amd.shaderEngineCount) * amd.shaderArraysPerEngineCount *
                   amd.computeUnitsPerShaderArray);
    p.max_threads_per_multiprocessor =
        std::max(p.max_threads_per_block, ClampToInt(static_cast<uint64_t>(amd.simdPerComputeUnit) *
                                                     amd.wavefrontsPerSimd * amd.wavefrontSize));
  } else if (chain.has_arm_core && chain.arm_core.shaderCoreCount > 0) {
    p.multiprocessor_count = ClampToInt(chain.arm_core.shaderCoreCount);
    p.max_threads_per_multiprocessor =
        std::max(p.max_threads_per_block,
                 ClampToInt(static_cast<uint64_t>(chain.arm_core.shaderWarpsPerCore) * warp_size));
  }

  // Vulkan exposes no clock rates; for a CPU device the host clock is the
  // device clock.
  p.clock_rate_khz = is_cpu ? HostCpuClockRateKhz() : 0;
  p.memory_clock_rate_khz = 0;
  p.memory_bus_width = 0;
  p.l2_cache_size = 0;
  p.total_constant_memory = ClampToInt(limits.maxUniformBufferRange);
  // CUDA's texture alignment is the base alignment of linear texture memory;
  // the Vulkan counterpart is a texel buffer's offset alignment. A texture
  // over pitched memory is copied into an image with the pitch as the copy's
  // row length, so any pitch of whole texels works: the pitch alignment is
  // NVIDIA's 32 (a multiple of every texel size), never less than the base
  // alignment. Programs size their frames by it (ffmpeg's are 32-aligned).
  p.texture_alignment = ClampToInt(std::max<VkDeviceSize>(limits.minTexelBufferOffsetAlignment, 1));
  p.max_texel_buffer_elements = limits.maxTexelBufferElements;
  p.texture_pitch_alignment = std::max(p.texture_alignment, 32);
  p.min_storage_buffer_offset_alignment = limits.minStorageBufferOffsetAlignment;

  p.timestamp_period = limits.timestampPeriod;
  p.timestamp_period_ns =
      timestamp_valid_bits_ == 0
          ? 0
          : std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(limits.timestampPeriod)));

  if (chain.has_pci) {
    p.has_pci_info = true;
    p.pci_domain_id = ClampToInt(chain.pci.pciDomain);
    p.pci_bus_id = ClampToInt(chain.pci.pciBus);
    p.pci_device_id = ClampToInt(chain.pci.pciDevice);
    p.pci_function = ClampToInt(chain.pci.pciFunction);
  }

  // CUDA code gates features on the compute capability. 8.0 (Ampere) is
  // what a program needs to see to use everything the backend implements
  // (64-bit atomics, cooperative groups, large shared memory opt-in) and is
  // reported for every device; the real capabilities are the properties
  // above.
  p.compute_capability_major = 8;
  p.compute_capability_minor = 0;
  // Decided below by ProbeUnifiedAddressing().
  p.unified_addressing = false;
  p.concurrent_kernels = true;
  p.async_engine_count = 1;
  p.ecc_enabled = false;

  Log(LogLevel::kDebug, "Vulkan device \"", p.name, "\": API ", VersionString(p.api_version),
      ", queue family ", queue_family_index_, ", warp ", p.warp_size, ", memory ", p.total_memory,
      " bytes");
  ProbeUnifiedAddressing();
  return absl::OkStatus();
}

VulkanDevice::AllocatorLimits VulkanDevice::allocator_limits() const {
  const VkPhysicalDeviceLimits& limits = vk_properties_.limits;
  AllocatorLimits out;
  // CUDA promises 256 bytes; descriptors need their own offset alignments.
  out.alignment = std::max<uint64_t>(
      {256, limits.minStorageBufferOffsetAlignment, limits.minUniformBufferOffsetAlignment});
  out.max_allocation_size = properties_.max_allocation_size;
  if (max_buffer_size_ > 0) {
    out.max_allocation_size = std::min(out.max_allocation_size, max_buffer_size_);
  }
  return out;
}

void VulkanDevice::ProbeUnifiedAddressing() {
  // Properties are immutable once the device is enumerated, so the answer
  // comes from real allocations on a device of its own, made now. A driver
  // answers the same way for the life of the process: later enumerations
  // reuse the first answer.
  static Mutex cache_mutex;
  // Per driver: {unified addressing, managed memory}.
  static auto* cache ABSL_GUARDED_BY(cache_mutex) =
      new absl::flat_hash_map<std::string, std::pair<bool, bool>>;
  const std::string key =
      absl::StrCat(std::string(properties_.uuid.begin(), properties_.uuid.end()), "/",
                   properties_.driver_version, "/", properties_.name);
  {
    MutexLock lock(&cache_mutex);
    auto it = cache->find(key);
    if (it != cache->end()) {
      properties_.unified_addressing = it->second.first;
      properties_.managed_memory = it->second.second;
      return;
    }
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_index_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features features12 = {
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  features12.bufferDeviceAddress = VK_TRUE;
  VkDeviceCreateInfo create_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features12};
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  std::vector<const char*> extensions;
  if (HasExtension(kPortabilitySubsetExtension)) extensions.push_back(kPortabilitySubsetExtension);
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  VkDevice probe = VK_NULL_HANDLE;
  VkResult result = vkCreateDevice(physical_device_, &create_info, nullptr, &probe);
  if (result != VK_SUCCESS) {
    Log(LogLevel::kWarning, "Vulkan device \"", properties_.name,
        "\": no unified addressing (the probe device failed: ", VkResultName(result), ")");
    return;
  }
  absl::Status status;
  bool managed_memory = false;
  {
    AllocatorConfig config;
    config.device = probe;
    config.memory_properties = memory_properties_;
    config.alignment = allocator_limits().alignment;
    config.max_allocation_size = allocator_limits().max_allocation_size;
    config.device_block_size = 1 << 20;
    config.pinned_block_size = 1 << 20;
    config.require_disjoint = true;
    absl::StatusOr<std::unique_ptr<MemoryAllocator>> allocator = MemoryAllocator::Create(config);
    status = allocator.status();
    if (status.ok()) {
      for (MemoryKind kind : {MemoryKind::kDevice, MemoryKind::kHostPinned}) {
        absl::StatusOr<std::unique_ptr<VulkanAllocation>> allocation =
            (*allocator)->Allocate(256, kind);
        if (!allocation.ok()) {
          status = allocation.status();
          break;
        }
        // Managed memory (cuMemAllocManaged) needs one pointer value on
        // both sides: host-visible memory mapped at its own device address.
        if (kind == MemoryKind::kHostPinned) {
          managed_memory = (*allocation)->host_pointer() != nullptr &&
                           (*allocation)->device_address() ==
                               reinterpret_cast<uintptr_t>((*allocation)->host_pointer());
        }
      }
    }
  }
  vkDestroyDevice(probe, nullptr);
  properties_.unified_addressing = status.ok();
  // Without unified addressing a managed pointer could not be told from
  // other memory.
  properties_.managed_memory = status.ok() && managed_memory;
  {
    MutexLock lock(&cache_mutex);
    cache->emplace(key, std::make_pair(properties_.unified_addressing, properties_.managed_memory));
  }
  if (!status.ok()) {
    Log(LogLevel::kWarning, "Vulkan device \"", properties_.name,
        "\": no unified addressing: ", status.message());
  }
}

absl::Status VulkanDevice::EnsureLogicalDevice() {
  if (created_.load(std::memory_order_acquire)) return absl::OkStatus();
  MutexLock lock(&init_mutex_);
  if (created_.load(std::memory_order_relaxed)) return absl::OkStatus();
  SH_RETURN_IF_ERROR(CreateLogicalDevice());
  // Published together with the device: allocations, kernels and streams
  // use them without a lock.
  AllocatorConfig config;
  config.device = device_;
  config.memory_properties = memory_properties_;
  config.alignment = allocator_limits().alignment;
  config.max_allocation_size = allocator_limits().max_allocation_size;
  config.require_disjoint = properties_.unified_addressing;
  config.external_memory_host = features_.external_memory_host;
  config.exportable_device_memory = features_.external_memory_fd;
  config.min_imported_host_pointer_alignment = min_imported_host_pointer_alignment_;
  config.memory_budget = features_.memory_budget;
  config.physical_device = physical_device_;
  absl::StatusOr<std::unique_ptr<MemoryAllocator>> allocator = MemoryAllocator::Create(config);
  absl::StatusOr<std::unique_ptr<KernelObjects>> objects =
      allocator.ok() ? KernelObjects::Create(device_) : allocator.status();
  if (!objects.ok()) {
    allocator = nullptr;
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
    queue_ = VK_NULL_HANDLE;
    return objects.status();
  }
  allocator_ = *std::move(allocator);
  kernel_objects_ = *std::move(objects);
  completion_markers_ = std::make_unique<CompletionMarkers>(device_, memory_properties_);
  created_.store(true, std::memory_order_release);
  return absl::OkStatus();
}

absl::Status VulkanDevice::CreateLogicalDevice() {
  const DeviceFeatures& f = features_;
  const bool vulkan13 = api_version_ >= VK_API_VERSION_1_3;
  std::vector<const char*> extensions;

  FeatureLayout layout;
  layout.vulkan13 = vulkan13;
  if (!vulkan13) {
    layout.subgroup_size_control_ext = f.subgroup_size_control;
    layout.synchronization2_ext = f.synchronization2;
    if (f.subgroup_size_control) extensions.push_back(VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME);
    if (f.synchronization2) extensions.push_back(VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
    if (f.shader_non_semantic_info) {
      extensions.push_back(VK_KHR_SHADER_NON_SEMANTIC_INFO_EXTENSION_NAME);
    }
  }
  layout.atomic_float_ext =
      f.shader_buffer_float32_atomic_add || f.shader_shared_float32_atomic_add;
  if (layout.atomic_float_ext) extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (f.memory_budget) extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
  if (f.external_memory_host) extensions.push_back(VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME);
  if (f.external_memory_fd) extensions.push_back(VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME);
  if (f.push_descriptor) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  layout.custom_border_color_ext = f.custom_border_color;
  if (f.custom_border_color) extensions.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
  if (HasExtension(kPortabilitySubsetExtension)) extensions.push_back(kPortabilitySubsetExtension);

  // Everything starts VK_FALSE; only what features_ chose is turned on.
  FeatureChain enabled(layout);
  auto on = [](bool value) { return value ? VK_TRUE : VK_FALSE; };
  enabled.core.features.shaderInt64 = VK_TRUE;
  enabled.core.features.shaderInt16 = on(f.shader_int16);
  enabled.core.features.shaderFloat64 = on(f.shader_float64);
  enabled.core.features.shaderStorageImageReadWithoutFormat =
      on(f.storage_image_read_without_format);
  enabled.core.features.shaderStorageImageWriteWithoutFormat =
      on(f.storage_image_write_without_format);
  enabled.v11.storageBuffer16BitAccess = on(f.storage_buffer_16bit_access);
  enabled.v11.storagePushConstant16 = on(f.storage_push_constant16);
  enabled.v12.storagePushConstant8 = on(f.storage_push_constant8);
  enabled.v12.bufferDeviceAddress = VK_TRUE;
  enabled.v12.timelineSemaphore = VK_TRUE;
  enabled.v12.shaderInt8 = on(f.shader_int8);
  enabled.v12.shaderFloat16 = on(f.shader_float16);
  enabled.v12.storageBuffer8BitAccess = on(f.storage_buffer_8bit_access);
  enabled.v12.uniformAndStorageBuffer8BitAccess = on(f.uniform_and_storage_buffer_8bit_access);
  enabled.v12.scalarBlockLayout = on(f.scalar_block_layout);
  enabled.v12.uniformBufferStandardLayout = on(f.uniform_buffer_standard_layout);
  enabled.v12.hostQueryReset = on(f.host_query_reset);
  enabled.v12.shaderBufferInt64Atomics = on(f.shader_buffer_int64_atomics);
  enabled.v12.shaderSharedInt64Atomics = on(f.shader_shared_int64_atomics);
  enabled.v12.vulkanMemoryModel = on(f.vulkan_memory_model);
  enabled.v12.vulkanMemoryModelDeviceScope = on(f.vulkan_memory_model_device_scope);
  if (vulkan13) {
    enabled.v13.synchronization2 = on(f.synchronization2);
    enabled.v13.subgroupSizeControl = on(f.subgroup_size_control);
    enabled.v13.computeFullSubgroups = on(f.compute_full_subgroups);
  } else {
    enabled.synchronization2.synchronization2 = on(f.synchronization2);
    enabled.subgroup_size_control.subgroupSizeControl = on(f.subgroup_size_control);
    enabled.subgroup_size_control.computeFullSubgroups = on(f.compute_full_subgroups);
  }
  enabled.atomic_float.shaderBufferFloat32AtomicAdd = on(f.shader_buffer_float32_atomic_add);
  enabled.atomic_float.shaderSharedFloat32AtomicAdd = on(f.shader_shared_float32_atomic_add);
  enabled.custom_border_color.customBorderColors = on(f.custom_border_color);

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_index_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkDeviceCreateInfo create_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create_info.pNext = &enabled.core;  // pEnabledFeatures stays null
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();

  VkDevice device = VK_NULL_HANDLE;
  const VkResult result = vkCreateDevice(physical_device_, &create_info, nullptr, &device);
  if (result != VK_SUCCESS) {
    const ErrorCode code = ErrorCodeForVkResult(result);
    return Error(code == ErrorCode::kUnknown ? ErrorCode::kInvalidDevice : code,
                 "vkCreateDevice for \"", properties_.name, "\" failed: ", VkResultName(result));
  }
  device_ = device;
  vkGetDeviceQueue(device_, queue_family_index_, 0, &queue_);
  Log(LogLevel::kDebug, "Vulkan device \"", properties_.name, "\" opened with ", extensions.size(),
      " extension(s)");
  return absl::OkStatus();
}

bool VulkanDevice::IsDeviceMemory(uint64_t address) {
  // Before the logical device exists there is no device memory.
  if (!created_.load(std::memory_order_acquire)) return false;
  return allocator_->pool(MemoryKind::kDevice).HoldsAddress(address);
}

absl::Status VulkanDevice::GetMemoryInfo(uint64_t* free_bytes, uint64_t* total_bytes) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  // The allocator keeps within the heaps (and the driver's budget), so what
  // it can still allocate is what is free (allocator.h).
  const uint64_t total = properties_.total_memory;
  *free_bytes = std::min(allocator_->FreeBytes(device_local_heap_mask_), total);
  *total_bytes = total;
  return absl::OkStatus();
}

void VulkanDevice::SubmissionCompleted(uint64_t submission) {
  uint64_t seen = completed_submission_.load(std::memory_order_acquire);
  while (submission > seen && !completed_submission_.compare_exchange_weak(
                                  seen, submission, std::memory_order_acq_rel)) {
  }
  DestroyOutrunSemaphores();
}

void VulkanDevice::RetireSemaphore(VkSemaphore semaphore) {
  {
    MutexLock lock(&retired_mutex_);
    retired_semaphores_.push_back(
        RetiredSemaphore{semaphore, submissions_.load(std::memory_order_acquire)});
    retired_count_.store(retired_semaphores_.size(), std::memory_order_release);
  }
  DestroyOutrunSemaphores();
}

void VulkanDevice::DestroyOutrunSemaphores() {
  if (retired_count_.load(std::memory_order_acquire) == 0) return;
  const uint64_t completed = completed_submission_.load(std::memory_order_acquire);
  std::vector<VkSemaphore> doomed;
  {
    MutexLock lock(&retired_mutex_);
    if (retired_semaphores_.empty()) return;
    auto outrun = [completed](const RetiredSemaphore& retired) {
      return retired.submitted_before < completed;
    };
    for (const RetiredSemaphore& retired : retired_semaphores_) {
      if (outrun(retired)) doomed.push_back(retired.semaphore);
    }
    retired_semaphores_.erase(
        std::remove_if(retired_semaphores_.begin(), retired_semaphores_.end(), outrun),
        retired_semaphores_.end());
    retired_count_.store(retired_semaphores_.size(), std::memory_order_release);
  }
  for (VkSemaphore semaphore : doomed) vkDestroySemaphore(device_, semaphore, nullptr);
}

absl::Status VulkanDevice::WaitIdle() {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  // vkDeviceWaitIdle needs every queue of the device externally
  // synchronised; the backend has one queue, guarded by queue_mutex_.
  MutexLock lock(&queue_mutex_);
  return VkResultToStatus(vkDeviceWaitIdle(device_), "vkDeviceWaitIdle");
}

absl::StatusOr<std::unique_ptr<BackendAllocation>> VulkanDevice::Allocate(uint64_t size,
                                                                          MemoryKind kind) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> allocation,
                      allocator_->Allocate(size, kind));
  return std::unique_ptr<BackendAllocation>(std::move(allocation));
}

absl::StatusOr<std::unique_ptr<BackendImage>> VulkanDevice::CreateImage(const ImageDesc& desc) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanImage> image, VulkanImage::Create(this, desc));
  return std::unique_ptr<BackendImage>(std::move(image));
}

absl::StatusOr<std::unique_ptr<BackendImage>> VulkanDevice::ImportImage(
    const ExportedMemory& exported, const ImageDesc& desc) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanImage> image,
                      VulkanImage::Create(this, desc, &exported));
  return std::unique_ptr<BackendImage>(std::move(image));
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> VulkanDevice::CreateResourceView(
    std::shared_ptr<BackendImage> image, const BindingViewDesc& desc) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::shared_ptr<VulkanResourceView> view,
                      VulkanResourceView::Create(this, std::move(image), desc));
  return std::shared_ptr<BackendResourceView>(std::move(view));
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> VulkanDevice::CreateStagedView(
    const ImageDesc& image, const BindingViewDesc& desc) {
  SH_ASSIGN_OR_RETURN(std::shared_ptr<VulkanResourceView> view,
                      VulkanResourceView::CreateStaged(this, image, desc));
  return std::shared_ptr<BackendResourceView>(std::move(view));
}

absl::StatusOr<std::shared_ptr<BackendResourceView>> VulkanDevice::CreateBufferView(
    BackendAllocation* allocation, uint64_t offset, uint64_t size, ArrayFormat format,
    uint32_t channels, bool normalized) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(
      std::shared_ptr<VulkanResourceView> view,
      VulkanResourceView::CreateBuffer(this, *static_cast<VulkanAllocation*>(allocation), offset,
                                       size, format, channels, normalized));
  return std::shared_ptr<BackendResourceView>(std::move(view));
}

absl::StatusOr<std::unique_ptr<BackendAllocation>> VulkanDevice::RegisterHostMemory(void* pointer,
                                                                                    uint64_t size) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> allocation,
                      allocator_->ImportHostMemory(pointer, size));
  return std::unique_ptr<BackendAllocation>(std::move(allocation));
}

absl::StatusOr<BackendDevice::ExportedMemory> VulkanDevice::ExportMemory(
    BackendAllocation* allocation) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  return allocator_->ExportMemory(*static_cast<VulkanAllocation*>(allocation));
}

absl::StatusOr<std::unique_ptr<BackendAllocation>> VulkanDevice::ImportMemory(
    const ExportedMemory& exported, uint64_t size) {
  absl::Status ready = EnsureLogicalDevice();
  if (!ready.ok()) {
    close(exported.fd);
    return ready;
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> allocation,
                      allocator_->ImportMemory(exported, size));
  return std::unique_ptr<BackendAllocation>(std::move(allocation));
}

bool VulkanDevice::CanAccessPeer(BackendDevice* peer) {
  auto* other = dynamic_cast<VulkanDevice*>(peer);
  // Partitions of one physical device share its driver and memory; devices
  // of different drivers or GPUs have no common address space to share.
  if (other == nullptr || other == this || other->physical_device_ != physical_device_) {
    return false;
  }
  if (!features_.external_memory_host) return false;
  {
    MutexLock lock(&peer_mutex_);
    auto it = peer_probes_.find(other);
    if (it != peer_probes_.end()) return it->second;
  }
  const bool can = EnsureLogicalDevice().ok() && other->EnsureLogicalDevice().ok() &&
                   other->allocator().CanMirrorInto(allocator_.get());
  MutexLock lock(&peer_mutex_);
  peer_probes_[other] = can;
  return can;
}

absl::Status VulkanDevice::EnablePeerAccess(BackendDevice* peer) {
  if (!CanAccessPeer(peer)) {
    return Error(ErrorCode::kPeerAccessUnsupported, "device '", properties_.name,
                 "' cannot import the peer's memory at its device addresses");
  }
  return static_cast<VulkanDevice*>(peer)->allocator().AddPeer(allocator_.get());
}

void VulkanDevice::DisablePeerAccess(BackendDevice* peer) {
  static_cast<VulkanDevice*>(peer)->allocator().RemovePeer(allocator_.get());
}

absl::StatusOr<std::unique_ptr<BackendModule>> VulkanDevice::CreateModule(
    const std::vector<uint32_t>& spirv) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanModule> module, VulkanModule::Create(this, spirv));
  return std::unique_ptr<BackendModule>(std::move(module));
}

absl::StatusOr<std::unique_ptr<BackendKernel>> VulkanDevice::CreateKernel(
    BackendModule* module, const KernelLayout& layout) {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanKernel> kernel,
                      VulkanKernel::Create(this, static_cast<VulkanModule*>(module), layout));
  return std::unique_ptr<BackendKernel>(std::move(kernel));
}

absl::StatusOr<std::unique_ptr<BackendStream>> VulkanDevice::CreateStream() {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanStream> stream, VulkanStream::Create(this));
  return std::unique_ptr<BackendStream>(std::move(stream));
}

absl::StatusOr<std::unique_ptr<BackendRecorder>> VulkanDevice::CreateRecorder() {
  SH_RETURN_IF_ERROR(EnsureLogicalDevice());
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanRecorder> recorder, VulkanRecorder::Create(this));
  return std::unique_ptr<BackendRecorder>(std::move(recorder));
}

}  // namespace streamhal::vk
