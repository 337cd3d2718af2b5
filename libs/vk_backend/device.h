// One Vulkan physical device as a streamhal BackendDevice. Properties are
// read from the device when it is enumerated; the VkDevice and its compute
// queue are created on first use.
#ifndef STREAMHAL_VK_BACKEND_DEVICE_H_
#define STREAMHAL_VK_BACKEND_DEVICE_H_

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"
#include "vk_backend/instance.h"

namespace streamhal::vk {

class CompletionMarkers;
class KernelObjects;
class MemoryAllocator;

// Device features the backend enables on the VkDevice: the three required
// ones are true on every VulkanDevice, the others where the device supports
// them. Later code (kernel loading, streams) asks here instead of querying
// Vulkan again.
struct DeviceFeatures {
  // Required.
  bool buffer_device_address = false;
  bool timeline_semaphore = false;
  bool shader_int64 = false;
  // Optional shader arithmetic and storage types.
  bool shader_int8 = false;
  bool shader_int16 = false;
  bool shader_float16 = false;
  bool shader_float64 = false;
  bool storage_buffer_8bit_access = false;
  bool uniform_and_storage_buffer_8bit_access = false;
  bool storage_buffer_16bit_access = false;
  // 8- and 16-bit kernel parameters (PTX .u8/.u16 parameters).
  bool storage_push_constant8 = false;
  bool storage_push_constant16 = false;
  bool scalar_block_layout = false;
  // 64-bit and float atomics (CUDA atomicAdd on unsigned long long / float).
  bool shader_buffer_int64_atomics = false;
  bool shader_shared_int64_atomics = false;
  bool shader_buffer_float32_atomic_add = false;  // VK_EXT_shader_atomic_float
  bool shader_shared_float32_atomic_add = false;
  bool vulkan_memory_model = false;
  bool vulkan_memory_model_device_scope = false;
  // Synchronisation and queries.
  bool synchronization2 = false;
  bool host_query_reset = false;
  // Subgroup size control (pin a kernel's subgroup size to warp_size).
  bool subgroup_size_control = false;
  bool compute_full_subgroups = false;
  // NonSemantic SPIR-V instructions (debug printf) are accepted.
  bool shader_non_semantic_info = false;
  // VK_EXT_memory_budget is enabled: allocation and GetMemoryInfo keep within
  // the driver's budget.
  bool memory_budget = false;
  // Uniform buffers may use the std430-like layout of push constants (big
  // parameter blocks moved to a uniform buffer need it).
  bool uniform_buffer_standard_layout = false;
  // VK_EXT_external_memory_host is enabled and block buffers can import host
  // allocations (cuMemHostRegister).
  bool external_memory_host = false;
  // VK_KHR_external_memory_fd is enabled and block buffers can be exported
  // and imported as opaque descriptors (cuIpcGetMemHandle).
  bool external_memory_fd = false;
  // VK_KHR_push_descriptor is enabled: kernels bind texture and surface
  // objects at set 2 (resource_view.h).
  bool push_descriptor = false;
  // VK_EXT_custom_border_color is enabled: samplers take border colours
  // other than Vulkan's three (CUDA_TEXTURE_DESC::borderColor).
  bool custom_border_color = false;
  // Surfaces read and write images whose kernels name no texel format.
  bool storage_image_read_without_format = false;
  bool storage_image_write_without_format = false;
};

class VulkanDevice : public streamhal::BackendDevice {
 public:
  // Reads the properties of `physical_device`. A device that cannot run
  // streamhal kernels (Vulkan < 1.2, no bufferDeviceAddress,
  // timelineSemaphore or shaderInt64, no compute queue) yields kNotSupported
  // whose message gives the reason.
  // `index` is the physical device's place in the instance's enumeration;
  // `partition` of `partition_count` says which of the devices presented for
  // it this is (each its own VkDevice with its own queues and memory; all
  // but partition 0 get a UUID of their own).
  static absl::StatusOr<std::unique_ptr<VulkanDevice>> Create(
      std::shared_ptr<VulkanInstance> instance, VkPhysicalDevice physical_device, int index = 0,
      int partition = 0, int partition_count = 1);

  ~VulkanDevice() override;
  VulkanDevice(const VulkanDevice&) = delete;
  VulkanDevice& operator=(const VulkanDevice&) = delete;

  // streamhal::BackendDevice.
  const DeviceProperties& properties() const override { return properties_; }
  // Creates the VkDevice if needed. Free is what allocations can still take
  // from the device-local heaps: the allocator keeps its blocks within each
  // heap's size and, with VK_EXT_memory_budget, within the budget (see
  // allocator.h).
  absl::Status GetMemoryInfo(uint64_t* free_bytes, uint64_t* total_bytes) override;
  bool IsDeviceMemory(uint64_t address) override;
  // Creates the VkDevice if needed, then vkDeviceWaitIdle.
  absl::Status WaitIdle() override;

  // Memory (allocator.h), kernels (kernel.h) and streams (stream.h). Each
  // creates the VkDevice if needed.
  absl::StatusOr<std::unique_ptr<BackendAllocation>> Allocate(uint64_t size,
                                                              MemoryKind kind) override;
  absl::StatusOr<std::unique_ptr<BackendAllocation>> RegisterHostMemory(void* pointer,
                                                                        uint64_t size) override;
  absl::StatusOr<ExportedMemory> ExportMemory(BackendAllocation* allocation) override;
  absl::StatusOr<std::unique_ptr<BackendAllocation>> ImportMemory(const ExportedMemory& exported,
                                                                  uint64_t size) override;
  // Peer access between devices presented from one physical device
  // (STREAMHAL_VK_DEVICES_PER_GPU): the peer's memory blocks are imported
  // here at their own device addresses (MemoryAllocator::AddPeer). Only
  // where a probe shows the addresses survive the import (lavapipe maps
  // memory at its device address).
  bool CanAccessPeer(BackendDevice* peer) override;
  absl::Status EnablePeerAccess(BackendDevice* peer) override;
  void DisablePeerAccess(BackendDevice* peer) override;
  absl::StatusOr<std::unique_ptr<BackendModule>> CreateModule(
      const std::vector<uint32_t>& spirv) override;
  absl::StatusOr<std::unique_ptr<BackendKernel>> CreateKernel(BackendModule* module,
                                                              const KernelLayout& layout) override;
  absl::StatusOr<std::unique_ptr<BackendStream>> CreateStream() override;
  // Arrays (image.h).
  absl::StatusOr<std::unique_ptr<BackendImage>> CreateImage(const ImageDesc& desc) override;
  absl::StatusOr<std::unique_ptr<BackendImage>> ImportImage(const ExportedMemory& exported,
                                                            const ImageDesc& desc) override;
  absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateResourceView(
      std::shared_ptr<BackendImage> image, const BindingViewDesc& desc) override;
  absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateStagedView(
      const ImageDesc& image, const BindingViewDesc& desc) override;
  absl::StatusOr<std::shared_ptr<BackendResourceView>> CreateBufferView(
      BackendAllocation* allocation, uint64_t offset, uint64_t size, ArrayFormat format,
      uint32_t channels, bool normalized) override;
  // Recorded work for graphs (recording.h).
  absl::StatusOr<std::unique_ptr<BackendRecorder>> CreateRecorder() override;

  // Valid once EnsureLogicalDevice() succeeded.
  MemoryAllocator& allocator() const { return *allocator_; }
  const KernelObjects& kernel_objects() const { return *kernel_objects_; }
  // The streams' completion markers (completion_marker.h).
  CompletionMarkers& completion_markers() const { return *completion_markers_; }

  // Creates the VkDevice and its compute queue on first call (thread-safe);
  // later calls return the first call's result cheaply.
  absl::Status EnsureLogicalDevice();
  // VK_NULL_HANDLE until EnsureLogicalDevice() succeeded.
  VkDevice device() const {
    return created_.load(std::memory_order_acquire) ? device_ : VK_NULL_HANDLE;
  }
  VkQueue queue() const {
    return created_.load(std::memory_order_acquire) ? queue_ : VK_NULL_HANDLE;
  }
  // Vulkan requires external synchronisation of a queue (vkQueueSubmit,
  // vkQueueWaitIdle) and of every queue for vkDeviceWaitIdle: hold this.
  Mutex* queue_mutex() ABSL_LOCK_RETURNED(queue_mutex_) { return &queue_mutex_; }

  // Submissions are numbered in queue order. Call NextSubmission with
  // queue_mutex() held, for each vkQueueSubmit; report completions (any
  // order) with SubmissionCompleted.
  uint64_t NextSubmission() ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue_mutex_) {
    return submissions_.fetch_add(1, std::memory_order_acq_rel) + 1;
  }
  void SubmissionCompleted(uint64_t submission);

  // Destroys a semaphore whose last user is gone, once a submission made
  // after this call has completed. A wait can return while the driver's
  // queue thread is still inside the signal that released it (lavapipe
  // unlocks the semaphore's mutex after the waiter may have seen the value),
  // so destroying it at once can free memory the driver still touches; the
  // queue thread works in submission order, so a later completed submission
  // shows it is done with this one. Never blocks: whatever is left goes with
  // the device.
  void RetireSemaphore(VkSemaphore semaphore);

  // What the device was, or will be, created with.
  const DeviceFeatures& features() const { return features_; }

  const std::shared_ptr<VulkanInstance>& instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkPhysicalDeviceType device_type() const { return vk_properties_.deviceType; }
  const VkPhysicalDeviceProperties& vk_properties() const { return vk_properties_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }
  // min(instance API version, device API version): what may be used.
  uint32_t api_version() const { return api_version_; }
  uint32_t queue_family_index() const { return queue_family_index_; }
  uint32_t timestamp_valid_bits() const { return timestamp_valid_bits_; }
  // Subgroup sizes a pipeline may request (both equal warp_size without
  // subgroup size control).
  uint32_t min_subgroup_size() const { return min_subgroup_size_; }
  uint32_t max_subgroup_size() const { return max_subgroup_size_; }
  // Bit i set: memory heap i counts towards total_memory.
  uint32_t device_local_heap_mask() const { return device_local_heap_mask_; }
  // VK_EXT_external_memory_host's import alignment (0 without it).
  uint64_t min_imported_host_pointer_alignment() const {
    return min_imported_host_pointer_alignment_;
  }
  bool HasExtension(std::string_view name) const;

 private:
  VulkanDevice(std::shared_ptr<VulkanInstance> instance, VkPhysicalDevice physical_device);

  // Fills everything above from the physical device; the error explains why
  // the device is unusable.
  absl::Status Probe();
  absl::Status CreateLogicalDevice() ABSL_EXCLUSIVE_LOCKS_REQUIRED(init_mutex_);
  // Decides DeviceProperties::unified_addressing with a short-lived device:
  // true when memory of the types the allocator uses gets device ranges that
  // can be kept apart from host memory (see allocator.h).
  void ProbeUnifiedAddressing();
  // What the allocator is created with.
  struct AllocatorLimits {
    uint64_t alignment = 256;
    uint64_t max_allocation_size = 0;
  };
  AllocatorLimits allocator_limits() const;

  const std::shared_ptr<VulkanInstance> instance_;
  const VkPhysicalDevice physical_device_;

  // Immutable after Create().
  DeviceProperties properties_;
  DeviceFeatures features_;
  VkPhysicalDeviceProperties vk_properties_ = {};
  VkPhysicalDeviceMemoryProperties memory_properties_ = {};
  std::vector<VkExtensionProperties> extensions_;  // sorted by name
  uint32_t api_version_ = 0;
  uint32_t queue_family_index_ = 0;
  uint32_t timestamp_valid_bits_ = 0;
  uint32_t min_subgroup_size_ = 0;
  uint32_t max_subgroup_size_ = 0;
  uint32_t device_local_heap_mask_ = 0;
  uint64_t min_imported_host_pointer_alignment_ = 0;
  uint64_t max_buffer_size_ = 0;  // Vulkan 1.3; 0 when unknown

  // Written once under init_mutex_, then published by created_ (release), so
  // device() and queue() need no lock.
  Mutex init_mutex_;
  std::atomic<bool> created_{false};
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::unique_ptr<MemoryAllocator> allocator_;
  std::unique_ptr<KernelObjects> kernel_objects_;
  std::unique_ptr<CompletionMarkers> completion_markers_;

  // CanAccessPeer's probe results, per peer device.
  Mutex peer_mutex_;
  absl::flat_hash_map<const VulkanDevice*, bool> peer_probes_ ABSL_GUARDED_BY(peer_mutex_);

  Mutex queue_mutex_;
  std::atomic<uint64_t> submissions_{0};
  std::atomic<uint64_t> completed_submission_{0};
  struct RetiredSemaphore {
    VkSemaphore semaphore;
    uint64_t submitted_before;  // submissions made when it was retired
  };
  Mutex retired_mutex_;
  std::vector<RetiredSemaphore> retired_semaphores_ ABSL_GUARDED_BY(retired_mutex_);
  // retired_semaphores_.size(), so that reclaiming a batch (every
  // synchronisation) skips the lock when nothing is retired.
  std::atomic<size_t> retired_count_{0};
  // Destroys the retired semaphores a completed submission has outrun.
  void DestroyOutrunSemaphores();
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_DEVICE_H_
