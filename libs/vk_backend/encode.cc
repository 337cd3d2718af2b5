#include "vk_backend/encode.h"

#include <cstring>

#include "core/module.h"
#include "core/status.h"
#include "vk_backend/grid_split.h"
#include "vk_backend/kernel.h"
#include "vk_backend/resource_view.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

VulkanAllocation* AsVulkan(BackendAllocation* allocation) {
  return static_cast<VulkanAllocation*>(allocation);
}

}  // namespace

absl::StatusOr<ResolvedLaunch> ResolveLaunch(const DispatchParams& params,
                                             const std::array<uint32_t, 3>& max_groups) {
  auto* kernel = static_cast<VulkanKernel*>(params.kernel);
  const KernelLayout& layout = kernel->layout();
  ResolvedLaunch launch;
  launch.kernel = kernel;
  PipelineKey key = kernel->KeyFor(params.block, params.dynamic_shared_bytes);
  key.grid_barrier = params.grid_barrier_address;
  launch.pipeline = kernel->LastPipeline(key);
  if (launch.pipeline == VK_NULL_HANDLE) {
    SH_ASSIGN_OR_RETURN(launch.pipeline, kernel->GetPipeline(key));
  }
  const std::array<uint32_t, 3>& grid = params.grid;
  const bool split = grid[0] > max_groups[0] || grid[1] > max_groups[1] || grid[2] > max_groups[2];
  if (split && !kernel->can_split()) {
    return Error(ErrorCode::kInvalidValue, "launch: grid (", grid[0], ", ", grid[1], ", ", grid[2],
                 ") exceeds one dispatch (", max_groups[0], ", ", max_groups[1], ", ",
                 max_groups[2], ") and kernel '", layout.entry_point,
                 "' cannot be split (see the log)");
  }
  if (layout.uses_globals) {
    SH_ASSIGN_OR_RETURN(launch.globals_set, kernel->GlobalsSet(*AsVulkan(params.globals)));
  }
  return launch;
}

uint32_t LaunchTrailingBytes(const ResolvedLaunch& launch) {
  const uint32_t resources = static_cast<uint32_t>(launch.kernel->layout().resources.size());
  if (resources == 0) return launch.kernel->push_size();
  return PushedResourcesOffset(launch.kernel->push_size()) +
         resources * static_cast<uint32_t>(sizeof(PushedResource));
}

void EncodeLaunch(const ResolvedLaunch& launch, const DispatchParams& params,
                  VkDescriptorSet params_set, uint32_t dynamic_offset, DispatchCommand* c,
                  uint8_t* push) {
  const VulkanKernel& kernel = *launch.kernel;
  const KernelLayout& layout = kernel.layout();
  const std::array<uint32_t, 3>& grid = params.grid;
  // Set 0 is the globals, set 1 the parameter block; either may be absent.
  uint32_t set_count = 0;
  c->sets[0] = VK_NULL_HANDLE;
  c->sets[1] = VK_NULL_HANDLE;
  c->first_set = 0;
  if (layout.uses_globals) c->sets[set_count++] = launch.globals_set;
  if (layout.params_in_uniform_buffer) {
    if (set_count == 0) c->first_set = 1;
    c->sets[set_count++] = params_set;
  }
  c->pipeline = launch.pipeline;
  c->layout = kernel.pipeline_layout();
  c->grid = grid;
  c->block = params.block;
  c->set_count = set_count;
  c->dynamic_offset_count = layout.params_in_uniform_buffer ? 1 : 0;
  c->dynamic_offset = layout.params_in_uniform_buffer ? dynamic_offset : 0;
  c->push_size = kernel.push_size();
  c->grid_info_offset = kernel.grid_info_offset();
  c->needs_grid_info = kernel.needs_grid_info();
  c->resource_count = static_cast<uint32_t>(layout.resources.size());
  if (c->resource_count > 0) {
    auto* pushed = reinterpret_cast<PushedResource*>(push + PushedResourcesOffset(c->push_size));
    for (uint32_t i = 0; i < c->resource_count; ++i) {
      const auto* view = static_cast<const VulkanResourceView*>(params.resources[i].get());
      pushed[i] = PushedResource{layout.resources[i].binding, view->descriptor_type(), view->view(),
                                 view->sampler(), view->buffer_view()};
    }
  }
  if (c->push_size > 0) {
    const uint32_t param_bytes = kernel.push_param_bytes();
    if (param_bytes > 0) {
      std::memcpy(push, params.params, layout.param_block_size);
      std::memset(push + layout.param_block_size, 0, param_bytes - layout.param_block_size);
    }
    if (c->needs_grid_info) {
      const uint32_t info_offset = c->grid_info_offset;
      if (info_offset > param_bytes) std::memset(push + param_bytes, 0, info_offset - param_bytes);
      // The first piece; the others are pushed when the launch is split.
      const uint32_t info[kGridInfoWords] = {0, 0, 0, grid[0], grid[1], grid[2], 0, 0, 0};
      std::memcpy(push + info_offset, info, sizeof(info));
    }
  }
}

void EncodeStagingCopy(const VulkanResourceView& view, ImageCopyCommand* c) {
  c->kind = ImageCopyCommand::Kind::kBufferToImage;
  c->buffer = view.staging_buffer();
  c->src_image = VK_NULL_HANDLE;
  c->dst_image = view.staged_image();
  c->buffer_region = view.staging_region();
}

CopyCommand EncodeCopy(BufferRange dst, BufferRange src, uint64_t size) {
  VulkanAllocation* to = AsVulkan(dst.allocation);
  VulkanAllocation* from = AsVulkan(src.allocation);
  return CopyCommand{from->buffer(),
                     to->buffer(),
                     {from->buffer_offset() + src.offset, to->buffer_offset() + dst.offset, size}};
}

BoxPieces PlanBox(const CopyBox& box) {
  const bool rows_packed =
      box.height == 1 || (box.src_pitch == box.width && box.dst_pitch == box.width);
  const uint64_t slice = box.width * box.height;
  const bool slices_packed =
      rows_packed &&
      (box.depth == 1 || (box.src_slice_pitch == slice && box.dst_slice_pitch == slice));
  if (slices_packed) return BoxPieces{1, box.bytes(), box.rows()};
  if (rows_packed) return BoxPieces{box.depth, slice, box.height};
  return BoxPieces{box.rows(), box.width, 1};
}

void EncodeBoxRegions(const CopyBox& box, const BoxPieces& pieces, uint64_t src_base,
                      uint64_t dst_base, uint64_t first, uint32_t count, VkBufferCopy* regions) {
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t row = (first + i) * pieces.rows_per_piece;
    regions[i] = VkBufferCopy{src_base + box.SrcRow(row), dst_base + box.DstRow(row), pieces.size};
  }
}

void WriteFillEdges(const FillPlan& plan, uint8_t* host) {
  for (int i = 0; i < plan.edge_count; ++i) {
    std::memcpy(host + 4 * i, plan.edges[i].bytes.data(), plan.edges[i].size);
  }
}

void EncodeFill(VkBuffer dst, const FillPlan& plan, VkBuffer edge_buffer, uint64_t edge_offset,
                FillCommand* c) {
  c->dst = dst;
  c->fill_offset = plan.fill_offset;
  c->fill_size = plan.fill_size;
  c->fill_word = plan.fill_word;
  c->edge_count = static_cast<uint32_t>(plan.edge_count);
  c->edge_src = edge_buffer;
  for (int i = 0; i < plan.edge_count; ++i) {
    c->edges[i] = {edge_offset + 4 * static_cast<uint64_t>(i), plan.edges[i].offset,
                   plan.edges[i].size};
  }
}

absl::StatusOr<VkDescriptorSet> CreateParamsSet(VkDevice device, VkDescriptorSetLayout layout,
                                                const VulkanAllocation& backing,
                                                VkDescriptorPool* pool) {
  VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1};
  VkDescriptorPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = 1;
  pool_info.poolSizeCount = 1;
  pool_info.pPoolSizes = &size;
  SH_VK_RETURN_IF_ERROR(vkCreateDescriptorPool(device, &pool_info, nullptr, pool),
                        "vkCreateDescriptorPool");
  VkDescriptorSetAllocateInfo allocate = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate.descriptorPool = *pool;
  allocate.descriptorSetCount = 1;
  allocate.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  SH_VK_RETURN_IF_ERROR(vkAllocateDescriptorSets(device, &allocate, &set),
                        "vkAllocateDescriptorSets");
  VkDescriptorBufferInfo buffer = {backing.buffer(), backing.buffer_offset(), kMaxParamBlockBytes};
  VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
  write.dstSet = set;
  write.dstBinding = 0;
  write.descriptorCount = 1;
  write.descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  write.pBufferInfo = &buffer;
  vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
  return set;
}

}  // namespace streamhal::vk
