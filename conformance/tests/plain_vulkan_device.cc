#include "plain_vulkan_device.h"

#include <cstring>
#include <vector>

namespace streamhal::conformance {

PlainVulkanDevice::~PlainVulkanDevice() {
  if (device_ != VK_NULL_HANDLE) vkDestroyDevice(device_, nullptr);
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

bool PlainVulkanDevice::Open(const CUuuid& uuid) {
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  if (vkCreateInstance(&instance_info, nullptr, &instance_) != VK_SUCCESS) return false;
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &id;
    vkGetPhysicalDeviceProperties2(candidate, &properties);
    if (std::memcmp(id.deviceUUID, uuid.bytes, VK_UUID_SIZE) == 0) physical_ = candidate;
  }
  if (physical_ == VK_NULL_HANDLE) return false;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueFamilyIndex = 0;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
  VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue;
  device_info.enabledExtensionCount = 1;
  device_info.ppEnabledExtensionNames = extensions;
  if (vkCreateDevice(physical_, &device_info, nullptr, &device_) != VK_SUCCESS) return false;
  vkGetDeviceQueue(device_, 0, 0, &queue_);
  vkGetPhysicalDeviceMemoryProperties(physical_, &memory_properties_);
  return true;
}

int PlainVulkanDevice::MemoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) != 0 &&
        (memory_properties_.memoryTypes[i].propertyFlags & flags) == flags) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

VkDeviceMemory PlainVulkanDevice::AllocateExportable(VkDeviceSize size, uint32_t type) const {
  VkExportMemoryAllocateInfo export_info = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = &export_info;
  allocate.allocationSize = size;
  allocate.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  return vkAllocateMemory(device_, &allocate, nullptr, &memory) == VK_SUCCESS ? memory
                                                                              : VK_NULL_HANDLE;
}

int PlainVulkanDevice::ExportFd(VkDeviceMemory memory) const {
  auto get_fd =
      reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(device_, "vkGetMemoryFdKHR"));
  VkMemoryGetFdInfoKHR info = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = memory;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  return get_fd != nullptr && get_fd(device_, &info, &fd) == VK_SUCCESS ? fd : -1;
}

}  // namespace streamhal::conformance
