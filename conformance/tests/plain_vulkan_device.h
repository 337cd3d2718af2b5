// The exporter side of the Vulkan interop tests: a plain Vulkan program's
// device beside streamhal, on the physical device streamhal reports by UUID,
// with VK_KHR_external_memory_fd and one queue (family 0).
#ifndef STREAMHAL_CONFORMANCE_TESTS_PLAIN_VULKAN_DEVICE_H_
#define STREAMHAL_CONFORMANCE_TESTS_PLAIN_VULKAN_DEVICE_H_

#include <cuda.h>
#include <vulkan/vulkan.h>

#include <cstdint>

namespace streamhal::conformance {

class PlainVulkanDevice {
 public:
  PlainVulkanDevice() = default;
  // Destroys the device and the instance: whoever made objects on the device
  // destroys them first.
  ~PlainVulkanDevice();
  PlainVulkanDevice(const PlainVulkanDevice&) = delete;
  PlainVulkanDevice& operator=(const PlainVulkanDevice&) = delete;

  // False when no physical device has `uuid` or the device cannot be made.
  bool Open(const CUuuid& uuid);

  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  const VkPhysicalDeviceMemoryProperties& memory_properties() const { return memory_properties_; }

  // The first memory type allowed by `bits` that has every one of `flags`,
  // or -1.
  int MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) const;
  // Memory of `type` exportable as an opaque descriptor, or VK_NULL_HANDLE.
  VkDeviceMemory AllocateExportable(VkDeviceSize size, uint32_t type) const;
  // A new descriptor of `memory` (the caller owns it), or -1.
  int ExportFd(VkDeviceMemory memory) const;

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_properties_ = {};
};

}  // namespace streamhal::conformance

#endif  // STREAMHAL_CONFORMANCE_TESTS_PLAIN_VULKAN_DEVICE_H_
