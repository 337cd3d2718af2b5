// The Vulkan backend: one VkInstance, shared by every device enumerated from
// it, and the debug-utils messenger that turns validation-layer messages into
// streamhal diagnostics.
#ifndef STREAMHAL_VK_BACKEND_INSTANCE_H_
#define STREAMHAL_VK_BACKEND_INSTANCE_H_

#include <vulkan/vulkan.h>

#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"

namespace streamhal::vk {

// Lowest Vulkan version the backend runs on: buffer device addresses,
// timeline semaphores and the Vulkan11/12 feature structs are core there.
inline constexpr uint32_t kMinimumApiVersion = VK_API_VERSION_1_2;

// Owns a VkInstance (and its debug messenger). Shared through shared_ptr so
// the instance outlives every device created from it.
class VulkanInstance {
 public:
  // Creates the instance. The loader must support Vulkan 1.2; otherwise, or
  // when no driver accepts the instance, the error is kNoDevice. The
  // validation layer is enabled when STREAMHAL_VALIDATION is set to a
  // non-empty value other than "0" and the layer is installed.
  static absl::StatusOr<std::shared_ptr<VulkanInstance>> Create();

  ~VulkanInstance();
  VulkanInstance(const VulkanInstance&) = delete;
  VulkanInstance& operator=(const VulkanInstance&) = delete;

  VkInstance handle() const { return instance_; }
  // The apiVersion the instance was created with; a device may use
  // min(api_version(), its own apiVersion).
  uint32_t api_version() const { return api_version_; }
  bool validation_enabled() const { return validation_enabled_; }
  bool debug_messenger_installed() const { return messenger_ != VK_NULL_HANDLE; }

 private:
  VulkanInstance() = default;

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger_ = nullptr;
  uint32_t api_version_ = 0;
  bool validation_enabled_ = false;
};

// The messenger's filter: true for a WARNING or ERROR message of the
// validation or performance type, which are forwarded to
// streamhal::RecordValidationMessage(). INFO/VERBOSE messages and general
// (loader) chatter are dropped.
bool ShouldForwardDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                               VkDebugUtilsMessageTypeFlagsEXT types);

// True when STREAMHAL_VALIDATION asks for the validation layer.
bool ValidationRequested();

// The "vulkan" backend. The instance is created on the first
// EnumerateDevices() call, not at construction, so constructing the backend
// (at registration) does no work and cannot fail.
class VulkanBackend : public streamhal::Backend {
 public:
  VulkanBackend() = default;
  ~VulkanBackend() override = default;

  const char* name() const override { return "vulkan"; }

  // One VulkanDevice per physical device that meets the requirements (see
  // VulkanDevice::Create), discrete GPUs first, then integrated, virtual and
  // CPU devices. STREAMHAL_VK_DEVICE_FILTER, when set, keeps only devices
  // whose name contains it.
  absl::StatusOr<std::vector<std::unique_ptr<streamhal::BackendDevice>>> EnumerateDevices()
      override;

  // The instance, creating it if needed.
  absl::StatusOr<std::shared_ptr<VulkanInstance>> GetInstance();

 private:
  Mutex mutex_;
  std::shared_ptr<VulkanInstance> instance_ ABSL_GUARDED_BY(mutex_);
};

// The factory handed to streamhal::RegisterBackend (see register.cc).
std::unique_ptr<streamhal::Backend> CreateVulkanBackend();

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_INSTANCE_H_
