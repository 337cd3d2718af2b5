#include "vk_backend/instance.h"

#include <vulkan/vulkan.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "core/diagnostics.h"
#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"

namespace streamhal::vk {
namespace {

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_old_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::string old_;
  bool had_old_ = false;
};

std::vector<std::unique_ptr<BackendDevice>> Enumerate(VulkanBackend& backend) {
  auto devices = backend.EnumerateDevices();
  EXPECT_TRUE(devices.ok()) << devices.status();
  if (!devices.ok()) return {};
  return *std::move(devices);
}

VulkanDevice* FindLlvmpipe(const std::vector<std::unique_ptr<BackendDevice>>& devices) {
  for (const auto& device : devices) {
    if (absl::StrContains(device->properties().name, "llvmpipe")) {
      return dynamic_cast<VulkanDevice*>(device.get());
    }
  }
  return nullptr;
}

TEST(VulkanBackendTest, IsNamedVulkan) { EXPECT_STREQ(CreateVulkanBackend()->name(), "vulkan"); }

TEST(VulkanBackendTest, EnumeratesLavapipe) {
  VulkanBackend backend;
  auto devices = Enumerate(backend);
  VulkanDevice* llvmpipe = FindLlvmpipe(devices);
  ASSERT_NE(llvmpipe, nullptr) << "lavapipe (llvmpipe) was not enumerated";
  EXPECT_EQ(llvmpipe->device_type(), VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_EQ(llvmpipe->properties().backend_name, "vulkan");
}

TEST(VulkanBackendTest, InstanceIsVulkan12OrNewer) {
  VulkanBackend backend;
  auto instance = backend.GetInstance();
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_GE((*instance)->api_version(), VK_API_VERSION_1_2);
  EXPECT_NE((*instance)->handle(), VK_NULL_HANDLE);
}

TEST(VulkanBackendTest, InstanceIsCreatedOnceAndShared) {
  VulkanBackend backend;
  auto first = backend.GetInstance();
  auto second = backend.GetInstance();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->get(), second->get());
  auto devices = Enumerate(backend);
  ASSERT_FALSE(devices.empty());
  EXPECT_EQ(static_cast<VulkanDevice*>(devices[0].get())->instance().get(), first->get());
}

TEST(VulkanBackendTest, ValidationFollowsEnvironment) {
  // The validation layer is part of the test environment.
  ScopedEnv env("STREAMHAL_VALIDATION", "1");
  ASSERT_TRUE(ValidationRequested());
  VulkanBackend backend;
  auto instance = backend.GetInstance();
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_TRUE((*instance)->validation_enabled());
  EXPECT_TRUE((*instance)->debug_messenger_installed());
}

TEST(VulkanBackendTest, ValidationOffWhenVariableIsZero) {
  ScopedEnv env("STREAMHAL_VALIDATION", "0");
  EXPECT_FALSE(ValidationRequested());
  VulkanBackend backend;
  auto instance = backend.GetInstance();
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_FALSE((*instance)->validation_enabled());
  EXPECT_FALSE((*instance)->debug_messenger_installed());
}

TEST(VulkanBackendTest, ValidationOffWhenVariableIsEmpty) {
  ScopedEnv env("STREAMHAL_VALIDATION", "");
  EXPECT_FALSE(ValidationRequested());
}

TEST(VulkanBackendTest, MissingValidationLayerIsNotAnError) {
  // VK_LAYER_PATH replaces the loader's search path for explicit layers, so
  // an empty directory hides the installed validation layer.
  const std::filesystem::path empty_dir =
      std::filesystem::path(testing::TempDir()) / "streamhal_no_layers";
  std::filesystem::create_directories(empty_dir);
  ScopedEnv env("VK_LAYER_PATH", empty_dir.c_str());
  VulkanBackend backend;
  auto instance = backend.GetInstance();
  ASSERT_TRUE(instance.ok()) << instance.status();
  EXPECT_FALSE((*instance)->validation_enabled());
  auto devices = Enumerate(backend);
  EXPECT_NE(FindLlvmpipe(devices), nullptr);
}

TEST(VulkanBackendTest, NoDriverIsReportedAsNoDevice) {
  // The loader reads the driver list from this variable; a manifest that
  // does not exist leaves it with no driver at all.
  const std::filesystem::path missing =
      std::filesystem::path(testing::TempDir()) / "streamhal_no_such_driver.json";
  ScopedEnv env("VK_DRIVER_FILES", missing.c_str());
  ScopedEnv legacy_env("VK_ICD_FILENAMES", missing.c_str());
  VulkanBackend backend;
  auto devices = backend.EnumerateDevices();
  ASSERT_FALSE(devices.ok());
  EXPECT_EQ(ErrorCodeOf(devices.status()), ErrorCode::kNoDevice) << devices.status();
}

TEST(VulkanBackendTest, DeviceFilterKeepsMatchingDevices) {
  ScopedEnv env("STREAMHAL_VK_DEVICE_FILTER", "llvmpipe");
  VulkanBackend backend;
  auto devices = Enumerate(backend);
  ASSERT_FALSE(devices.empty());
  for (const auto& device : devices) {
    EXPECT_TRUE(absl::StrContains(device->properties().name, "llvmpipe"))
        << device->properties().name;
  }
}

TEST(VulkanBackendTest, DeviceFilterDropsOtherDevices) {
  ScopedEnv env("STREAMHAL_VK_DEVICE_FILTER", "no device is called this");
  VulkanBackend backend;
  auto devices = backend.EnumerateDevices();
  ASSERT_TRUE(devices.ok()) << devices.status();
  EXPECT_TRUE(devices->empty());
}

TEST(VulkanBackendTest, EmptyDeviceFilterKeepsEverything) {
  std::size_t unfiltered = 0;
  {
    ScopedEnv env("STREAMHAL_VK_DEVICE_FILTER", nullptr);
    VulkanBackend backend;
    unfiltered = Enumerate(backend).size();
  }
  ScopedEnv env("STREAMHAL_VK_DEVICE_FILTER", "");
  VulkanBackend backend;
  EXPECT_EQ(Enumerate(backend).size(), unfiltered);
}

TEST(VulkanBackendTest, RealGpusComeBeforeCpuDevices) {
  VulkanBackend backend;
  auto devices = Enumerate(backend);
  auto rank = [](VkPhysicalDeviceType type) {
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
  };
  for (std::size_t i = 1; i < devices.size(); ++i) {
    EXPECT_LE(rank(static_cast<VulkanDevice*>(devices[i - 1].get())->device_type()),
              rank(static_cast<VulkanDevice*>(devices[i].get())->device_type()));
  }
}

TEST(VulkanBackendTest, DevicesOutliveTheBackend) {
  std::vector<std::unique_ptr<BackendDevice>> devices;
  {
    VulkanBackend backend;
    devices = Enumerate(backend);
  }
  VulkanDevice* llvmpipe = FindLlvmpipe(devices);
  ASSERT_NE(llvmpipe, nullptr);
  // The device keeps the instance alive: creating the VkDevice still works.
  EXPECT_TRUE(llvmpipe->WaitIdle().ok());
}

TEST(VulkanBackendTest, EnumeratingTwiceGivesTheSameDevices) {
  VulkanBackend backend;
  auto first = Enumerate(backend);
  auto second = Enumerate(backend);
  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i]->properties().uuid, second[i]->properties().uuid);
  }
}

TEST(DebugMessageFilterTest, ForwardsWarningsAndErrorsOfValidationAndPerformance) {
  const VkDebugUtilsMessageTypeFlagsEXT validation = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  const VkDebugUtilsMessageTypeFlagsEXT performance =
      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  const VkDebugUtilsMessageTypeFlagsEXT general = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  EXPECT_TRUE(ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, validation));
  EXPECT_TRUE(
      ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, validation));
  EXPECT_TRUE(
      ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, performance));
  EXPECT_TRUE(ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                                        general | validation));
}

TEST(DebugMessageFilterTest, DropsInfoVerboseAndGeneralMessages) {
  const VkDebugUtilsMessageTypeFlagsEXT validation = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  const VkDebugUtilsMessageTypeFlagsEXT general = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  EXPECT_FALSE(ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, validation));
  EXPECT_FALSE(
      ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT, validation));
  EXPECT_FALSE(ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, general));
  EXPECT_FALSE(ShouldForwardDebugMessage(VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, general));
}

// Exit codes of the child below, so a failure says which check failed.
enum ChildResult : int {
  kChildOk = 0,
  kChildNoDevice = 10,
  kChildNoMessenger,
  kChildMisuseNotCounted,
  kChildWrongMessage,
  kChildInfoCounted,
  kChildGeneralCounted,
  kChildWarningNotCounted,
};

// Runs in a child process: deliberately misuses Vulkan and checks that the
// validation layer's message reaches RecordValidationMessage() through the
// messenger. The messages counted here stay in the child, so the shared
// listener of the parent (which fails any test during which the counter
// moves) is not tripped and nothing needs resetting.
[[noreturn]] void MisuseVulkanAndCheckCounter() {
  VulkanBackend backend;
  auto devices = backend.EnumerateDevices();
  VulkanDevice* device = devices.ok() ? FindLlvmpipe(*devices) : nullptr;
  if (device == nullptr || !device->EnsureLogicalDevice().ok()) std::_Exit(kChildNoDevice);
  if (!device->instance()->debug_messenger_installed()) std::_Exit(kChildNoMessenger);

  // A buffer with no usage bits: VUID-VkBufferCreateInfo-usage-requiredbitmask.
  const uint64_t before = ValidationMessageCount();
  VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = 256;
  info.usage = 0;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  if (vkCreateBuffer(device->device(), &info, nullptr, &buffer) == VK_SUCCESS) {
    vkDestroyBuffer(device->device(), buffer, nullptr);
  }
  if (ValidationMessageCount() <= before) std::_Exit(kChildMisuseNotCounted);
  if (!absl::StrContains(LastValidationMessage(), "VUID-VkBufferCreateInfo-usage")) {
    std::_Exit(kChildWrongMessage);
  }

  // Messages injected through the same messenger: only a validation warning
  // is counted, INFO and general chatter are not.
  auto submit = reinterpret_cast<PFN_vkSubmitDebugUtilsMessageEXT>(
      vkGetInstanceProcAddr(device->instance()->handle(), "vkSubmitDebugUtilsMessageEXT"));
  if (submit == nullptr) std::_Exit(kChildNoMessenger);
  VkDebugUtilsMessengerCallbackDataEXT data = {
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT};
  data.pMessageIdName = "streamhal-test";
  data.pMessage = "synthetic message from instance_test";
  uint64_t count = ValidationMessageCount();
  submit(device->instance()->handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
         VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data);
  if (ValidationMessageCount() != count) std::_Exit(kChildInfoCounted);
  submit(device->instance()->handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
         VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, &data);
  if (ValidationMessageCount() != count) std::_Exit(kChildGeneralCounted);
  submit(device->instance()->handle(), VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
         VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &data);
  if (ValidationMessageCount() <= count) std::_Exit(kChildWarningNotCounted);
  // _Exit: no leak check or static destructors in the child; its verdict is
  // the exit code alone.
  std::_Exit(kChildOk);
}

TEST(VulkanValidationDeathTest, ValidationMessagesReachTheCounter) {
  ScopedEnv env("STREAMHAL_VALIDATION", "1");  // inherited by the child
  // A fresh process (not a fork of this multi-threaded one) runs the child.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(MisuseVulkanAndCheckCounter(), testing::ExitedWithCode(kChildOk), "");
}

}  // namespace
}  // namespace streamhal::vk
