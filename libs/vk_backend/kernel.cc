#include "vk_backend/kernel.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "core/log.h"
#include "core/status.h"
#include "vk_backend/command_list.h"
#include "vk_backend/device.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/grid_split.h"
#include "vk_backend/resource_view.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// Each globals descriptor pool holds this many sets; a kernel normally needs
// one (its module's globals block).
constexpr uint32_t kGlobalsSetsPerPool = 4;

absl::StatusOr<VkDescriptorSetLayout> CreateSetLayout(VkDevice device, VkDescriptorType type,
                                                      bool empty) {
  VkDescriptorSetLayoutBinding binding = {};
  binding.binding = 0;
  binding.descriptorType = type;
  binding.descriptorCount = 1;
  binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  VkDescriptorSetLayoutCreateInfo info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.bindingCount = empty ? 0 : 1;
  info.pBindings = empty ? nullptr : &binding;
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  SH_VK_RETURN_IF_ERROR(vkCreateDescriptorSetLayout(device, &info, nullptr, &layout),
                        "vkCreateDescriptorSetLayout");
  return layout;
}

// Set 2 of a kernel with texture or surface parameters: one binding per
// parameter, pushed at each launch.
absl::StatusOr<VkDescriptorSetLayout> CreateResourceLayout(VulkanDevice* device,
                                                           const KernelLayout& layout) {
  if (!device->features().push_descriptor) {
    return Error(ErrorCode::kNotSupported, "kernel '", layout.entry_point,
                 "' has texture or surface parameters, which need VK_KHR_push_descriptor");
  }
  if (layout.resources.size() > kMaxPushedResources) {
    return Error(ErrorCode::kNotSupported, "kernel '", layout.entry_point, "' has ",
                 layout.resources.size(), " texture and surface parameters; at most ",
                 kMaxPushedResources, " are supported");
  }
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (const ResourceBinding& resource : layout.resources) {
    VkDescriptorSetLayoutBinding binding = {};
    binding.binding = resource.binding;
    binding.descriptorType = DescriptorTypeOf(resource.kind);
    binding.descriptorCount = 1;
    binding.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    bindings.push_back(binding);
  }
  VkDescriptorSetLayoutCreateInfo info = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  info.bindingCount = static_cast<uint32_t>(bindings.size());
  info.pBindings = bindings.data();
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  SH_VK_RETURN_IF_ERROR(vkCreateDescriptorSetLayout(device->device(), &info, nullptr, &set_layout),
                        "vkCreateDescriptorSetLayout");
  return set_layout;
}

}  // namespace

// --- KernelObjects ---

absl::StatusOr<std::unique_ptr<KernelObjects>> KernelObjects::Create(VkDevice device) {
  std::unique_ptr<KernelObjects> objects(new KernelObjects(device));
  VkPipelineCacheCreateInfo cache_info = {VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  SH_VK_RETURN_IF_ERROR(
      vkCreatePipelineCache(device, &cache_info, nullptr, &objects->pipeline_cache_),
      "vkCreatePipelineCache");
  SH_ASSIGN_OR_RETURN(objects->globals_layout_,
                      CreateSetLayout(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, false));
  SH_ASSIGN_OR_RETURN(objects->empty_layout_,
                      CreateSetLayout(device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, true));
  SH_ASSIGN_OR_RETURN(objects->params_layout_,
                      CreateSetLayout(device, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, false));
  return objects;
}

KernelObjects::~KernelObjects() {
  vkDestroyDescriptorSetLayout(device_, params_layout_, nullptr);
  vkDestroyDescriptorSetLayout(device_, empty_layout_, nullptr);
  vkDestroyDescriptorSetLayout(device_, globals_layout_, nullptr);
  vkDestroyPipelineCache(device_, pipeline_cache_, nullptr);
}

// --- ShaderModule / VulkanModule ---

absl::StatusOr<std::shared_ptr<ShaderModule>> ShaderModule::Create(
    VkDevice device, const std::vector<uint32_t>& spirv) {
  std::shared_ptr<ShaderModule> shader(new ShaderModule(device));
  VkShaderModuleCreateInfo info = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = spirv.size() * sizeof(uint32_t);
  info.pCode = spirv.data();
  const VkResult result = vkCreateShaderModule(device, &info, nullptr, &shader->module_);
  if (result != VK_SUCCESS) {
    const ErrorCode code = ErrorCodeForVkResult(result);
    return Error(code == ErrorCode::kOutOfMemory ? code : ErrorCode::kInvalidImage,
                 "vkCreateShaderModule failed: ", VkResultName(result));
  }
  return shader;
}

ShaderModule::~ShaderModule() {
  if (module_ != VK_NULL_HANDLE) vkDestroyShaderModule(device_, module_, nullptr);
}

absl::StatusOr<std::unique_ptr<VulkanModule>> VulkanModule::Create(
    VulkanDevice* device, const std::vector<uint32_t>& spirv) {
  std::unique_ptr<VulkanModule> module(new VulkanModule(device->device()));
  module->spirv_ = spirv;
  return module;
}

absl::StatusOr<std::shared_ptr<ShaderModule>> VulkanModule::Shader() {
  MutexLock lock(&mutex_);
  if (shader_ == nullptr) {
    SH_ASSIGN_OR_RETURN(shader_, ShaderModule::Create(device_, spirv_));
  }
  return shader_;
}

absl::StatusOr<const EntryPointIndex*> VulkanModule::Index() {
  MutexLock lock(&mutex_);
  if (index_ == nullptr) {
    SH_ASSIGN_OR_RETURN(index_, EntryPointIndex::Create(spirv_));
  }
  return index_.get();
}

// --- VulkanKernel ---

VulkanKernel::VulkanKernel(VulkanDevice* device, const KernelLayout& layout)
    : device_(device), vk_device_(device->device()), layout_(layout) {}

absl::StatusOr<std::unique_ptr<VulkanKernel>> VulkanKernel::Create(VulkanDevice* device,
                                                                   VulkanModule* module,
                                                                   const KernelLayout& layout) {
  std::unique_ptr<VulkanKernel> kernel(new VulkanKernel(device, layout));
  const VkPhysicalDeviceLimits& limits = device->vk_properties().limits;
  kernel->max_threads_per_block_ =
      static_cast<int>(std::min<uint32_t>(limits.maxComputeWorkGroupInvocations, INT32_MAX));

  const bool params_in_push = layout.param_block_size > 0 && !layout.params_in_uniform_buffer;
  // vkCmdPushConstants and push-constant ranges count in whole words.
  kernel->push_param_bytes_ = params_in_push ? (layout.param_block_size + 3) & ~3u : 0;
  // The kernel's own part of the module, so that the rewrite, the shader
  // module and its pipelines cost what the kernel does, not the module.
  SH_ASSIGN_OR_RETURN(const EntryPointIndex* index, module->Index());
  SH_ASSIGN_OR_RETURN(std::optional<std::vector<uint32_t>> extracted,
                      index->Extract(layout.entry_point));
  absl::StatusOr<GridSplitRewrite> rewritten =
      extracted.has_value()
          ? RewriteForGridSplit(*extracted, layout.entry_point, limits.maxPushConstantsSize)
          : RewriteForGridSplit(index->parsed(), layout.entry_point, limits.maxPushConstantsSize);
  SH_ASSIGN_OR_RETURN(GridSplitRewrite rewrite, std::move(rewritten));
  if (rewrite.needs_grid_info()) {
    SH_ASSIGN_OR_RETURN(kernel->shader_, ShaderModule::Create(kernel->vk_device_, rewrite.spirv));
    kernel->needs_grid_info_ = true;
    kernel->grid_info_offset_ = rewrite.grid_info_offset;
  } else {
    if (extracted.has_value()) {
      SH_ASSIGN_OR_RETURN(kernel->shader_, ShaderModule::Create(kernel->vk_device_, *extracted));
    } else {
      SH_ASSIGN_OR_RETURN(kernel->shader_, module->Shader());
    }
    if (rewrite.reads_position) {
      kernel->can_split_ = false;
      Log(LogLevel::kInfo, "kernel '", layout.entry_point,
          "': grids larger than one dispatch are not supported: ", rewrite.unsupported_reason);
    }
  }
  kernel->push_size_ = kernel->push_param_bytes_;
  if (kernel->needs_grid_info_) {
    kernel->push_size_ = std::max(kernel->push_size_, kernel->grid_info_offset_ + kGridInfoBytes);
  }

  const KernelObjects& objects = device->kernel_objects();
  VkDescriptorSetLayout set_layouts[3];
  uint32_t set_count = 0;
  const bool resources = !layout.resources.empty();
  if (resources) {
    SH_ASSIGN_OR_RETURN(kernel->resource_layout_, CreateResourceLayout(device, layout));
  }
  if (layout.uses_globals || layout.params_in_uniform_buffer || resources) {
    set_layouts[set_count++] =
        layout.uses_globals ? objects.globals_layout() : objects.empty_layout();
  }
  if (layout.params_in_uniform_buffer || resources) {
    set_layouts[set_count++] =
        layout.params_in_uniform_buffer ? objects.params_layout() : objects.empty_layout();
  }
  if (resources) set_layouts[set_count++] = kernel->resource_layout_;
  VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, kernel->push_size_};
  VkPipelineLayoutCreateInfo info = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  info.setLayoutCount = set_count;
  info.pSetLayouts = set_layouts;
  info.pushConstantRangeCount = kernel->push_size_ > 0 ? 1 : 0;
  info.pPushConstantRanges = &range;
  SH_VK_RETURN_IF_ERROR(
      vkCreatePipelineLayout(kernel->vk_device_, &info, nullptr, &kernel->pipeline_layout_),
      "vkCreatePipelineLayout");
  return kernel;
}

VulkanKernel::~VulkanKernel() {
  MutexLock lock(&mutex_);
  for (auto& [key, entry] : pipelines_) vkDestroyPipeline(vk_device_, entry->pipeline, nullptr);
  for (VkDescriptorPool pool : descriptor_pools_) {
    vkDestroyDescriptorPool(vk_device_, pool, nullptr);
  }
  if (pipeline_layout_ != VK_NULL_HANDLE) {
    vkDestroyPipelineLayout(vk_device_, pipeline_layout_, nullptr);
  }
  if (resource_layout_ != VK_NULL_HANDLE) {
    vkDestroyDescriptorSetLayout(vk_device_, resource_layout_, nullptr);
  }
}

absl::StatusOr<VkPipeline> VulkanKernel::GetPipeline(const PipelineKey& key) {
  MutexLock lock(&mutex_);
  auto it = pipelines_.find(key);
  if (it == pipelines_.end()) {
    // SpecId 0..2: the block dimensions the kernel takes from the launch;
    // SpecId 3: dynamic shared memory bytes; SpecId 4, 5: the grid barrier
    // of a cooperative launch (an entry for an id the shader lacks is
    // ignored, as Vulkan specifies).
    VkSpecializationMapEntry entries[6];
    uint32_t values[6];
    uint32_t count = 0;
    for (uint32_t i = 0; i < 3; ++i) {
      if (!layout_.block_dim_from_spec[i]) continue;
      entries[count] = {i, count * 4, 4};
      values[count++] = key.block[i];
    }
    if (layout_.has_dynamic_shared_spec) {
      entries[count] = {3, count * 4, 4};
      values[count++] = key.shared_bytes;
    }
    if (key.grid_barrier != 0) {
      entries[count] = {4, count * 4, 4};
      values[count++] = static_cast<uint32_t>(key.grid_barrier);
      entries[count] = {5, count * 4, 4};
      values[count++] = static_cast<uint32_t>(key.grid_barrier >> 32);
    }
    VkSpecializationInfo specialization = {count, entries, count * 4, values};
    VkComputePipelineCreateInfo info = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = shader_->handle();
    info.stage.pName = layout_.entry_point.c_str();
    info.stage.pSpecializationInfo = count > 0 ? &specialization : nullptr;
    info.layout = pipeline_layout_;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult result = InjectedFault(FaultSite::kCreatePipeline);
    if (result == VK_SUCCESS) {
      result = vkCreateComputePipelines(vk_device_, device_->kernel_objects().pipeline_cache(), 1,
                                        &info, nullptr, &pipeline);
    }
    if (result != VK_SUCCESS) {
      const ErrorCode code = ErrorCodeForVkResult(result);
      return Error(code == ErrorCode::kOutOfMemory ? ErrorCode::kLaunchOutOfResources : code,
                   "creating the pipeline of kernel '", layout_.entry_point, "' for block (",
                   key.block[0], ", ", key.block[1], ", ", key.block[2],
                   ") failed: ", VkResultName(result));
    }
    auto entry = std::make_unique<PipelineEntry>();
    entry->key = key;
    entry->pipeline = pipeline;
    it = pipelines_.emplace(key, std::move(entry)).first;
  }
  last_pipeline_.store(it->second.get(), std::memory_order_release);
  return it->second->pipeline;
}

size_t VulkanKernel::pipeline_count() {
  MutexLock lock(&mutex_);
  return pipelines_.size();
}

absl::StatusOr<VkDescriptorSet> VulkanKernel::GlobalsSetSlow(const VulkanAllocation& globals) {
  MutexLock lock(&mutex_);
  // Keyed by what the descriptor holds, not by the allocation's address: a
  // freed allocation's address may come back for different memory.
  for (const auto& entry : globals_sets_) {
    if (entry->buffer == globals.buffer() && entry->offset == globals.buffer_offset() &&
        entry->size == globals.size()) {
      last_globals_.store(entry.get(), std::memory_order_release);
      return entry->set;
    }
  }
  VkDescriptorSetLayout set_layout = device_->kernel_objects().globals_layout();
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkResult result = VK_ERROR_OUT_OF_POOL_MEMORY;
  if (!descriptor_pools_.empty()) {
    VkDescriptorSetAllocateInfo allocate = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = descriptor_pools_.back();
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout;
    result = vkAllocateDescriptorSets(vk_device_, &allocate, &set);
  }
  if (result == VK_ERROR_OUT_OF_POOL_MEMORY || result == VK_ERROR_FRAGMENTED_POOL) {
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kGlobalsSetsPerPool};
    VkDescriptorPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool_info.maxSets = kGlobalsSetsPerPool;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &size;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    SH_VK_RETURN_IF_ERROR(vkCreateDescriptorPool(vk_device_, &pool_info, nullptr, &pool),
                          "vkCreateDescriptorPool");
    descriptor_pools_.push_back(pool);
    VkDescriptorSetAllocateInfo allocate = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &set_layout;
    result = vkAllocateDescriptorSets(vk_device_, &allocate, &set);
  }
  SH_VK_RETURN_IF_ERROR(result, "vkAllocateDescriptorSets");

  VkDescriptorBufferInfo buffer_info = {globals.buffer(), globals.buffer_offset(), globals.size()};
  VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  write.pBufferInfo = &buffer_info;
  vkUpdateDescriptorSets(vk_device_, 1, &write, 0, nullptr);

  auto entry = std::make_unique<GlobalsEntry>();
  entry->buffer = globals.buffer();
  entry->offset = globals.buffer_offset();
  entry->size = globals.size();
  entry->set = set;
  last_globals_.store(entry.get(), std::memory_order_release);
  globals_sets_.push_back(std::move(entry));
  return set;
}

}  // namespace streamhal::vk
