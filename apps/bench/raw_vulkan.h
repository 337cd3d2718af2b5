// A minimal raw-Vulkan compute setup: the baseline every benchmark compares
// against. Same device (the first one lavapipe or the driver reports), same
// SPIR-V, same push constants, same dispatch.
#ifndef STREAMHAL_APPS_BENCH_RAW_VULKAN_H_
#define STREAMHAL_APPS_BENCH_RAW_VULKAN_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {

class RawVulkan;

// A command pool and one command buffer recording the tiny kernel's
// launches; one per thread that records.
class RawRecorder {
 public:
  explicit RawRecorder(const RawVulkan& raw);
  ~RawRecorder();
  RawRecorder(const RawRecorder&) = delete;
  RawRecorder& operator=(const RawRecorder&) = delete;

  VkCommandBuffer command_buffer() const { return command_buffer_; }
  // `reusable`: the recording is submitted again and again (a pre-recorded
  // command buffer, the baseline of graph replay).
  void Begin(bool reusable = false);
  void End();
  // Records what one launch of the tiny kernel records: bind, push, dispatch.
  void RecordDispatch(uint32_t value);
  // The same preceded (unless it is the first) by the global memory barrier
  // that orders it after the previous dispatch: the work a stream must
  // record, since CUDA runs every launch of a stream after the one before.
  void RecordOrderedDispatch(uint32_t value, bool first);

 private:
  const RawVulkan& raw_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
};

class RawVulkan {
 public:
  // Loads the SPIR-V at `spirv_path`; aborts with a message on failure (a
  // benchmark cannot run without its baseline).
  explicit RawVulkan(const std::string& spirv_path);
  ~RawVulkan();

  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return family_; }
  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  VkDeviceAddress output_address() const { return output_address_; }
  VkFence fence() const { return fence_; }

  // The main thread's recorder.
  RawRecorder& recorder() { return *recorder_; }
  // Submits the recorder's command buffer and waits for it.
  void SubmitAndWait();
  // The same in two halves.
  void Submit();
  void Wait();
  // Waits by polling the fence (vkGetFenceStatus) instead of sleeping in
  // vkWaitForFences, yielding the processor between polls if `yield`: the
  // baseline of CU_CTX_SCHED_SPIN and CU_CTX_SCHED_YIELD.
  void PollWait(bool yield);

 private:
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  std::unique_ptr<RawRecorder> recorder_;
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
