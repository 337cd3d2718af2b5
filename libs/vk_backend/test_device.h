// Helpers shared by the Vulkan backend's tests (header-only: every .cc in
// this folder that is not a test is part of the library).
#ifndef STREAMHAL_VK_BACKEND_TEST_DEVICE_H_
#define STREAMHAL_VK_BACKEND_TEST_DEVICE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "core/backend.h"
#include "core/glsl_compiler.h"
#include "core/spirv_reflect.h"
#include "core/spirv_rewrite.h"
#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/instance.h"

namespace streamhal::vk::testing {

// The lavapipe device, or null when it is not installed.
inline std::unique_ptr<VulkanDevice> OpenLavapipe() {
  VulkanBackend backend;
  auto devices = backend.EnumerateDevices();
  if (!devices.ok()) return nullptr;
  for (auto& device : *devices) {
    if (absl::StrContains(device->properties().name, "llvmpipe")) {
      return std::unique_ptr<VulkanDevice>(static_cast<VulkanDevice*>(device.release()));
    }
  }
  return nullptr;
}

// One lavapipe device per test suite (opening one per test is slow).
class LavapipeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    device_ = OpenLavapipe().release();
    if (device_ != nullptr && !device_->EnsureLogicalDevice().ok()) {
      delete device_;
      device_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete device_;
    device_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(device_, nullptr) << "lavapipe (llvmpipe) is not available"; }

  static VulkanDevice* device() { return device_; }

  std::unique_ptr<BackendAllocation> Allocate(uint64_t size,
                                              MemoryKind kind = MemoryKind::kDevice) {
    auto allocation = device_->Allocate(size, kind);
    EXPECT_TRUE(allocation.ok()) << allocation.status();
    return allocation.ok() ? *std::move(allocation) : nullptr;
  }
  std::unique_ptr<BackendStream> NewStream() {
    auto stream = device_->CreateStream();
    EXPECT_TRUE(stream.ok()) << stream.status();
    return stream.ok() ? *std::move(stream) : nullptr;
  }
  // Flush + Wait.
  static absl::Status Synchronize(BackendStream* stream) {
    absl::StatusOr<uint64_t> point = stream->Flush();
    if (!point.ok()) return point.status();
    return stream->Wait(*point);
  }

 private:
  static inline VulkanDevice* device_ = nullptr;
};

// A compiled kernel with the layout core would give it.
struct LoadedKernel {
  std::unique_ptr<BackendModule> module;
  std::unique_ptr<BackendKernel> kernel;
  KernelInfo info;
  KernelLayout layout;
};

// Compiles GLSL (entry point "main"), reflects it like core does and creates
// the backend kernel; `params_in_uniform` moves the parameter block to the
// uniform buffer (core does so above the push-constant limit).
inline absl::StatusOr<LoadedKernel> LoadGlslKernel(VulkanDevice* device, const std::string& source,
                                                   bool params_in_uniform = false) {
  GlslOptions options;
  SH_ASSIGN_OR_RETURN(GlslResult compiled, CompileGlsl(source, options));
  std::vector<uint32_t> words = std::move(compiled.spirv);
  SH_ASSIGN_OR_RETURN(ModuleReflection reflection, ReflectSpirv(words));
  if (reflection.kernels.size() != 1) {
    return absl::InvalidArgumentError("expected one kernel");
  }
  LoadedKernel loaded;
  loaded.info = reflection.kernels[0];
  if (params_in_uniform) {
    SH_ASSIGN_OR_RETURN(words, MovePushConstantsToUniform(words, 1, 0));
  }
  loaded.layout.entry_point = loaded.info.name;
  loaded.layout.param_block_size = loaded.info.param_block_size;
  loaded.layout.params_in_uniform_buffer = params_in_uniform && loaded.info.param_block_size > 0;
  loaded.layout.uses_globals = loaded.info.uses_globals;
  loaded.layout.block_dim_from_spec = loaded.info.block_dim_from_spec;
  loaded.layout.has_dynamic_shared_spec = loaded.info.has_dynamic_shared_spec;
  SH_ASSIGN_OR_RETURN(loaded.module, device->CreateModule(words));
  SH_ASSIGN_OR_RETURN(loaded.kernel, device->CreateKernel(loaded.module.get(), loaded.layout));
  return loaded;
}

}  // namespace streamhal::vk::testing

#endif  // STREAMHAL_VK_BACKEND_TEST_DEVICE_H_
