#include "raw_vulkan.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <thread>

namespace bench {
namespace {

void Check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "raw Vulkan baseline: %s failed (%d)\n", what, static_cast<int>(result));
    std::abort();
  }
}

std::vector<uint32_t> ReadSpirv(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes.size() % 4 != 0) {
    std::fprintf(stderr, "raw Vulkan baseline: cannot read %s\n", path.c_str());
    std::abort();
  }
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

}  // namespace

RawVulkan::RawVulkan(const std::string& spirv_path) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  Check(vkCreateInstance(&instance_info, nullptr, &instance_), "vkCreateInstance");
  uint32_t count = 1;
  VkResult enumerated = vkEnumeratePhysicalDevices(instance_, &count, &physical_);
  if (enumerated != VK_INCOMPLETE) Check(enumerated, "vkEnumeratePhysicalDevices");

  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, nullptr);
  std::vector<VkQueueFamilyProperties> family_props(families);
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, family_props.data());
  for (uint32_t i = 0; i < families; ++i) {
    if (family_props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family_ = i;
      break;
    }
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkPhysicalDeviceVulkan12Features features12{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  features12.bufferDeviceAddress = VK_TRUE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.pNext = &features12;
  features.features.shaderInt64 = VK_TRUE;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.pNext = &features;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  Check(vkCreateDevice(physical_, &device_info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, family_, 0, &queue_);

  const std::vector<uint32_t> words = ReadSpirv(spirv_path);
  VkShaderModuleCreateInfo shader_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  shader_info.codeSize = words.size() * 4;
  shader_info.pCode = words.data();
  Check(vkCreateShaderModule(device_, &shader_info, nullptr, &shader_), "vkCreateShaderModule");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &range;
  Check(vkCreatePipelineLayout(device_, &layout_info, nullptr, &layout_), "vkCreatePipelineLayout");
  const uint32_t block[3] = {1, 1, 1};
  VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
  VkSpecializationInfo spec{3, entries, sizeof(block), block};
  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = shader_;
  pipeline_info.stage.pName = "tiny";
  pipeline_info.stage.pSpecializationInfo = &spec;
  pipeline_info.layout = layout_;
  Check(vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &pipeline_),
        "vkCreateComputePipelines");

  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = 256;
  buffer_info.usage =
      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
  Check(vkCreateBuffer(device_, &buffer_info, nullptr, &buffer_), "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(device_, buffer_, &requirements);
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo memory_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  memory_info.pNext = &flags;
  memory_info.allocationSize = requirements.size;
  for (uint32_t i = 0; i < 32; ++i) {
    if (requirements.memoryTypeBits & (1u << i)) {
      memory_info.memoryTypeIndex = i;
      break;
    }
  }
  Check(vkAllocateMemory(device_, &memory_info, nullptr, &memory_), "vkAllocateMemory");
  Check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
  VkBufferDeviceAddressInfo address_info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
  address_info.buffer = buffer_;
  output_address_ = vkGetBufferDeviceAddress(device_, &address_info);

  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  Check(vkCreateFence(device_, &fence_info, nullptr, &fence_), "vkCreateFence");
  recorder_ = std::make_unique<RawRecorder>(*this);
}

RawVulkan::~RawVulkan() {
  vkDeviceWaitIdle(device_);
  vkDestroyFence(device_, fence_, nullptr);
  vkDestroyBuffer(device_, buffer_, nullptr);
  vkFreeMemory(device_, memory_, nullptr);
  vkDestroyPipeline(device_, pipeline_, nullptr);
  vkDestroyPipelineLayout(device_, layout_, nullptr);
  vkDestroyShaderModule(device_, shader_, nullptr);
  recorder_.reset();
  vkDestroyDevice(device_, nullptr);
  vkDestroyInstance(instance_, nullptr);
}

RawRecorder::RawRecorder(const RawVulkan& raw) : raw_(raw) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = raw.queue_family();
  Check(vkCreateCommandPool(raw.device(), &pool_info, nullptr, &pool_), "vkCreateCommandPool");
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  Check(vkAllocateCommandBuffers(raw.device(), &alloc, &command_buffer_),
        "vkAllocateCommandBuffers");
}

RawRecorder::~RawRecorder() { vkDestroyCommandPool(raw_.device(), pool_, nullptr); }

void RawRecorder::Begin(bool reusable) {
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = reusable ? 0 : VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  Check(vkResetCommandBuffer(command_buffer_, 0), "vkResetCommandBuffer");
  Check(vkBeginCommandBuffer(command_buffer_, &begin), "vkBeginCommandBuffer");
}

void RawRecorder::End() { Check(vkEndCommandBuffer(command_buffer_), "vkEndCommandBuffer"); }

void RawRecorder::RecordDispatch(uint32_t value) {
  struct {
    VkDeviceAddress out;
    uint32_t value;
  } params{raw_.output_address(), value};
  vkCmdBindPipeline(command_buffer_, VK_PIPELINE_BIND_POINT_COMPUTE, raw_.pipeline());
  vkCmdPushConstants(command_buffer_, raw_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 12, &params);
  vkCmdDispatch(command_buffer_, 1, 1, 1);
}

void RawRecorder::RecordOrderedDispatch(uint32_t value, bool first) {
  if (!first) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(command_buffer_, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                         nullptr);
  }
  RecordDispatch(value);
}

void RawVulkan::SubmitAndWait() {
  Submit();
  Wait();
}

void RawVulkan::Submit() {
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  const VkCommandBuffer command_buffer = recorder_->command_buffer();
  submit.pCommandBuffers = &command_buffer;
  Check(vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
}

void RawVulkan::Wait() {
  Check(vkWaitForFences(device_, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  Check(vkResetFences(device_, 1, &fence_), "vkResetFences");
}

void RawVulkan::PollWait(bool yield) {
  while (true) {
    const VkResult status = vkGetFenceStatus(device_, fence_);
    if (status == VK_SUCCESS) break;
    if (status != VK_NOT_READY) Check(status, "vkGetFenceStatus");
    if (yield) std::this_thread::yield();
  }
  Check(vkResetFences(device_, 1, &fence_), "vkResetFences");
}

}  // namespace bench
