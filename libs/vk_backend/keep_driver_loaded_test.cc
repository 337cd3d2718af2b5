// Keeps the Vulkan drivers and layers loaded for the whole test binary.
//
// The loader dlopens lavapipe (which pulls in libLLVM) and the validation
// layer for every VkInstance and dlcloses them at vkDestroyInstance. Each
// load of libLLVM-15 makes a small allocation that its unload never frees
// (a realloc'ed static table), so under LeakSanitizer every test that
// creates an instance reports ~128 bytes leaked from an "<unknown module>".
// Holding one instance for the life of the process keeps those libraries
// mapped, their statics stay reachable, and only leaks of our own making are
// reported. A real program creates its instance once, so it is unaffected.
#include <memory>

#include "gtest/gtest.h"
#include "vk_backend/instance.h"

namespace streamhal::vk {
namespace {

class KeepDriverLoaded : public testing::Environment {
 public:
  void SetUp() override {
    // Intentionally never destroyed (see above); reachable from a static.
    static auto* pinned = new std::shared_ptr<VulkanInstance>;
    auto instance = VulkanInstance::Create();
    if (instance.ok()) *pinned = *std::move(instance);
  }
};

[[maybe_unused]] testing::Environment* const kKeepDriverLoaded =
    testing::AddGlobalTestEnvironment(new KeepDriverLoaded);

}  // namespace
}  // namespace streamhal::vk
