#include <algorithm>

#include "core/backend_registry.h"
#include "gtest/gtest.h"
#include "vk_backend/instance.h"

namespace streamhal::vk {
namespace {

TEST(RegisterTest, BuiltinRegistrationAddsTheVulkanBackend) {
  ClearBackendsForTesting();
  EXPECT_TRUE(RegisteredBackends().empty());  // nothing registered itself at load time
  streamhal_register_builtin_backends();
  streamhal_register_builtin_backends();  // idempotent
  const std::vector<BackendFactory> factories = RegisteredBackends();
  ASSERT_EQ(factories.size(), 1u);
  EXPECT_EQ(factories[0], &CreateVulkanBackend);
  EXPECT_STREQ(factories[0]()->name(), "vulkan");
}

}  // namespace
}  // namespace streamhal::vk
