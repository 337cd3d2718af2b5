// A minimal raw-Vulkan compute setup: the baseline every benchmark compares
// against. Same device (the first one lavapipe or the driver reports), same
// SPIR-V, same push constants, same dispatch.
#ifndef STREAMHAL_APPS_BENCH_RAW_VULKAN_H_
#define STREAMHAL_APPS_BENCH_RAW_VULKAN_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

class RawVulkan {
 public:
  // Loads the SPIR-V at `spirv_path`; aborts with a message on failure (a
  // benchmark cannot run without its baseline).
  explicit RawVulkan(const std::string& spirv_path);
  ~RawVulkan();

  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  VkCommandBuffer command_buffer() const { return command_buffer_; }
  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDeviceAddress output_address() const { return output_address_; }
  VkFence fence() const { return fence_; }

  void Begin();
  void End();
  // Records what one launch of the tiny kernel records: bind, push, dispatch.
  void RecordDispatch(uint32_t value);
  // Submits the command buffer and waits for it.
  void SubmitAndWait();

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  VkShaderModule shader_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceAddress output_address_ = 0;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace bench

#endif  // STREAMHAL_APPS_BENCH_RAW_VULKAN_H_
