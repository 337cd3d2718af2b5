#include "vk_backend/instance.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "core/diagnostics.h"
#include "core/log.h"
#include "core/status.h"
#include "vk_backend/device.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

constexpr char kValidationLayerName[] = "VK_LAYER_KHRONOS_validation";

constexpr VkDebugUtilsMessageSeverityFlagsEXT kForwardedSeverities =
    VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
constexpr VkDebugUtilsMessageTypeFlagsEXT kForwardedTypes =
    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;

std::string VersionString(uint32_t version) {
  return absl::StrCat(VK_API_VERSION_MAJOR(version), ".", VK_API_VERSION_MINOR(version), ".",
                      VK_API_VERSION_PATCH(version));
}

VKAPI_ATTR VkBool32 VKAPI_CALL DebugMessengerCallback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* /*user_data*/) {
  if (ShouldForwardDebugMessage(severity, types) && data != nullptr) {
    const char* kind = (types & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) != 0
                           ? "validation"
                           : "performance";
    const char* level =
        (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
    RecordValidationMessage(absl::StrCat("vulkan ", kind, " ", level, ": ",
                                         data->pMessage != nullptr ? data->pMessage : "(no text)"));
  }
  // VK_FALSE: the call that triggered the message proceeds, so turning
  // validation on never changes what the program does.
  return VK_FALSE;
}

bool LayerInstalled(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < 0) return false;
  layers.resize(count);
  return std::any_of(layers.begin(), layers.end(), [name](const VkLayerProperties& layer) {
    return std::strcmp(layer.layerName, name) == 0;
  });
}

// Instance extensions of the implementation, or of `layer` when not null.
std::vector<VkExtensionProperties> InstanceExtensions(const char* layer) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()) < 0) return {};
  extensions.resize(count);
  return extensions;
}

bool Contains(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(), [name](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

// Logs `message` at warning level the first time `flag` is seen unset.
void WarnOnce(std::atomic<bool>& flag, absl::string_view message) {
  if (!flag.exchange(true)) Log(LogLevel::kWarning, message);
}

std::atomic<bool> g_warned_no_layer{false};
std::atomic<bool> g_warned_no_debug_utils{false};

int DeviceTypeRank(VkPhysicalDeviceType type) {
  // A real GPU becomes device 0 whenever one is present.
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 3;
    default:
      return 4;
  }
}

}  // namespace

bool ShouldForwardDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                               VkDebugUtilsMessageTypeFlagsEXT types) {
  return (severity & kForwardedSeverities) != 0 && (types & kForwardedTypes) != 0;
}

bool ValidationRequested() {
  const char* value = std::getenv("STREAMHAL_VALIDATION");
  return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
}

absl::StatusOr<std::shared_ptr<VulkanInstance>> VulkanInstance::Create() {
  // vkEnumerateInstanceVersion is looked up rather than called so a Vulkan
  // 1.0 loader, which lacks it, is reported instead of failing to link.
  auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (enumerate_version != nullptr && enumerate_version(&loader_version) != VK_SUCCESS) {
    loader_version = VK_API_VERSION_1_0;
  }
  if (loader_version < kMinimumApiVersion) {
    return Error(ErrorCode::kNoDevice, "the Vulkan loader supports Vulkan ",
                 VersionString(loader_version), "; streamhal needs Vulkan 1.2 or newer");
  }
  // Ask for the newest version this code knows the structures of; a device
  // may still be older (each device checks its own apiVersion).
  const uint32_t api_version =
      loader_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  VkInstanceCreateFlags flags = 0;

  const std::vector<VkExtensionProperties> available = InstanceExtensions(nullptr);
  // Lets the loader report portability (e.g. MoltenVK) drivers too.
  if (Contains(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  bool validation = false;
  bool debug_utils = false;
  if (ValidationRequested()) {
    if (LayerInstalled(kValidationLayerName)) {
      validation = true;
      layers.push_back(kValidationLayerName);
      debug_utils =
          Contains(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) ||
          Contains(InstanceExtensions(kValidationLayerName), VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      if (debug_utils) {
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      } else {
        WarnOnce(g_warned_no_debug_utils,
                 "STREAMHAL_VALIDATION is set but VK_EXT_debug_utils is unavailable; validation "
                 "messages go to the layer's default output and are not counted");
      }
    } else {
      WarnOnce(g_warned_no_layer,
               absl::StrCat("STREAMHAL_VALIDATION is set but ", kValidationLayerName,
                            " is not installed; running without validation"));
    }
  }

  VkDebugUtilsMessengerCreateInfoEXT messenger_info = {
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = kForwardedSeverities;
  messenger_info.messageType = kForwardedTypes;
  messenger_info.pfnUserCallback = &DebugMessengerCallback;

  VkApplicationInfo app_info = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app_info.pApplicationName = "streamhal";
  app_info.pEngineName = "streamhal";
  app_info.apiVersion = api_version;

  VkInstanceCreateInfo create_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  // Chained here, the messenger also covers vkCreateInstance and
  // vkDestroyInstance themselves.
  create_info.pNext = debug_utils ? &messenger_info : nullptr;
  create_info.flags = flags;
  create_info.pApplicationInfo = &app_info;
  create_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  create_info.ppEnabledLayerNames = layers.data();
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();

  std::shared_ptr<VulkanInstance> instance(new VulkanInstance);
  const VkResult result = vkCreateInstance(&create_info, nullptr, &instance->instance_);
  if (result != VK_SUCCESS) {
    instance->instance_ = VK_NULL_HANDLE;
    return Error(ErrorCode::kNoDevice, "vkCreateInstance (Vulkan ", VersionString(api_version),
                 ") failed: ", VkResultName(result),
                 result == VK_ERROR_INCOMPATIBLE_DRIVER ? " (no Vulkan driver is installed)" : "");
  }
  instance->api_version_ = api_version;
  instance->validation_enabled_ = validation;

  if (debug_utils) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance->instance_, "vkCreateDebugUtilsMessengerEXT"));
    instance->destroy_messenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance->instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (create_messenger == nullptr || instance->destroy_messenger_ == nullptr ||
        create_messenger(instance->instance_, &messenger_info, nullptr, &instance->messenger_) !=
            VK_SUCCESS) {
      instance->messenger_ = VK_NULL_HANDLE;
      WarnOnce(g_warned_no_debug_utils,
               "could not create a Vulkan debug messenger; validation messages are not counted");
    }
  }
  Log(LogLevel::kDebug, "Vulkan instance created: API ", VersionString(api_version), ", loader ",
      VersionString(loader_version), validation ? ", validation on" : "");
  return instance;
}

VulkanInstance::~VulkanInstance() {
  if (instance_ == VK_NULL_HANDLE) return;
  if (messenger_ != VK_NULL_HANDLE) destroy_messenger_(instance_, messenger_, nullptr);
  vkDestroyInstance(instance_, nullptr);
}

absl::StatusOr<std::shared_ptr<VulkanInstance>> VulkanBackend::GetInstance() {
  MutexLock lock(&mutex_);
  if (instance_ == nullptr) {
    SH_ASSIGN_OR_RETURN(instance_, VulkanInstance::Create());
  }
  return instance_;
}

namespace {

// STREAMHAL_VK_DEVICES_PER_GPU=N presents each physical device as N devices,
// each its own VkDevice (for multi-device tests on one GPU, and for
// partitioning a GPU between workloads). Read per enumeration.
int DevicesPerPhysicalDevice() {
  constexpr int kMaxPartitions = 16;
  const char* value = std::getenv("STREAMHAL_VK_DEVICES_PER_GPU");
  if (value == nullptr || *value == '\0') return 1;
  int partitions = 0;
  if (!absl::SimpleAtoi(value, &partitions) || partitions < 1 || partitions > kMaxPartitions) {
    Log(LogLevel::kWarning, "STREAMHAL_VK_DEVICES_PER_GPU=", value, " is not a number from 1 to ",
        kMaxPartitions, "; presenting each device once");
    return 1;
  }
  return partitions;
}

}  // namespace

absl::StatusOr<std::vector<std::unique_ptr<streamhal::BackendDevice>>>
VulkanBackend::EnumerateDevices() {
  SH_ASSIGN_OR_RETURN(std::shared_ptr<VulkanInstance> instance, GetInstance());
  InjectFaultFromEnvironment();  // a test setting; see fault_injection.h

  std::vector<VkPhysicalDevice> physical_devices;
  VkResult result;
  do {
    uint32_t count = 0;
    result = vkEnumeratePhysicalDevices(instance->handle(), &count, nullptr);
    if (result != VK_SUCCESS) break;
    physical_devices.resize(count);
    result = vkEnumeratePhysicalDevices(instance->handle(), &count, physical_devices.data());
    physical_devices.resize(count);
  } while (result == VK_INCOMPLETE);  // a device appeared between the calls
  if (result != VK_SUCCESS) {
    return Error(ErrorCode::kNoDevice, "vkEnumeratePhysicalDevices failed: ", VkResultName(result));
  }

  // Read per call, not cached, so a test (or a long-lived process) can
  // change it between enumerations.
  const char* filter_env = std::getenv("STREAMHAL_VK_DEVICE_FILTER");
  const absl::string_view filter = filter_env != nullptr ? filter_env : "";

  std::vector<std::unique_ptr<VulkanDevice>> devices;
  const int partitions = DevicesPerPhysicalDevice();
  for (size_t index = 0; index < physical_devices.size(); ++index) {
    VkPhysicalDevice physical_device = physical_devices[index];
    VkPhysicalDeviceProperties basic;
    vkGetPhysicalDeviceProperties(physical_device, &basic);
    if (!filter.empty() && !absl::StrContains(basic.deviceName, filter)) {
      Log(LogLevel::kInfo, "Vulkan device \"", basic.deviceName,
          "\" excluded by STREAMHAL_VK_DEVICE_FILTER=", filter);
      continue;
    }
    absl::StatusOr<std::unique_ptr<VulkanDevice>> device =
        VulkanDevice::Create(instance, physical_device, static_cast<int>(index), 0, partitions);
    if (!device.ok()) {
      // Skipping a real GPU surprises the user; skipping a software device
      // is routine.
      const bool gpu = basic.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                       basic.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
      Log(gpu ? LogLevel::kWarning : LogLevel::kInfo, "skipping Vulkan device \"", basic.deviceName,
          "\": ", device.status().message());
      continue;
    }
    devices.push_back(*std::move(device));
    for (int partition = 1; partition < partitions; ++partition) {
      SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanDevice> part,
                          VulkanDevice::Create(instance, physical_device, static_cast<int>(index),
                                               partition, partitions));
      devices.push_back(std::move(part));
    }
  }

  std::stable_sort(
      devices.begin(), devices.end(),
      [](const std::unique_ptr<VulkanDevice>& a, const std::unique_ptr<VulkanDevice>& b) {
        return DeviceTypeRank(a->device_type()) < DeviceTypeRank(b->device_type());
      });

  std::vector<std::unique_ptr<streamhal::BackendDevice>> out;
  out.reserve(devices.size());
  for (auto& device : devices) out.push_back(std::move(device));
  return out;
}

std::unique_ptr<streamhal::Backend> CreateVulkanBackend() {
  return std::make_unique<VulkanBackend>();
}

}  // namespace streamhal::vk
