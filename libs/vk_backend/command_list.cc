#include "vk_backend/command_list.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "vk_backend/grid_split.h"
#include "vk_backend/timestamps.h"

namespace streamhal::vk {
namespace {

constexpr VkPipelineStageFlags kWorkStages =
    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
constexpr VkAccessFlags kWorkWrites = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags kWorkAccesses = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                        VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                                        VK_ACCESS_UNIFORM_READ_BIT;

constexpr VkPipelineStageFlags2 kWorkStages2 =
    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT;
constexpr VkAccessFlags2 kWorkWrites2 =
    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT;
constexpr VkAccessFlags2 kWorkAccesses2 =
    VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_TRANSFER_READ_BIT |
    VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_UNIFORM_READ_BIT;

template <typename Fn>
Fn DeviceFunction(VkDevice device, const char* name) {
  return reinterpret_cast<Fn>(vkGetDeviceProcAddr(device, name));
}

// Orders the next command after everything before it: execution and memory,
// compute and transfer, writes before reads and writes.
void RecordOrderingBarrier(const RecordTarget& t) {
  const CommandFunctions& f = *t.functions;
  if (f.pipeline_barrier2 != nullptr) {
    VkMemoryBarrier2 barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = kWorkStages2;
    barrier.srcAccessMask = kWorkWrites2;
    barrier.dstStageMask = kWorkStages2;
    barrier.dstAccessMask = kWorkAccesses2;
    VkDependencyInfo dependency = {VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    f.pipeline_barrier2(t.command_buffer, &dependency);
    return;
  }
  VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = kWorkWrites;
  barrier.dstAccessMask = kWorkAccesses;
  f.pipeline_barrier(t.command_buffer, kWorkStages, kWorkStages, 0, 1, &barrier, 0, nullptr, 0,
                     nullptr);
}

// A semaphore signalled from the host orders the host's writes before the
// wait but does not make them visible to the device.
void RecordHostImportBarrier(const RecordTarget& t) {
  VkMemoryBarrier from_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  from_host.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
  from_host.dstAccessMask = kWorkAccesses;
  t.functions->pipeline_barrier(t.command_buffer, VK_PIPELINE_STAGE_HOST_BIT, kWorkStages, 0, 1,
                                &from_host, 0, nullptr, 0, nullptr);
}

// The start of a recording, which runs long after it was recorded: makes
// what the host wrote (a host function before the run) visible, and orders
// the recording after earlier work on the queue. The submission's semaphore
// wait already orders it after the stream's earlier work; the second half
// keeps a recording correct wherever its command buffer is submitted. One
// call for both halves.
void RecordEntryBarrier(const RecordTarget& t) {
  VkMemoryBarrier entry = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  entry.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | kWorkWrites;
  entry.dstAccessMask = kWorkAccesses;
  t.functions->pipeline_barrier(t.command_buffer, VK_PIPELINE_STAGE_HOST_BIT | kWorkStages,
                                kWorkStages, 0, 1, &entry, 0, nullptr, 0, nullptr);
}

// The host reads mapped memory once the batch's point is reached.
void RecordHostExportBarrier(const RecordTarget& t) {
  VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  to_host.srcAccessMask = kWorkWrites;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
  t.functions->pipeline_barrier(t.command_buffer, kWorkStages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                                &to_host, 0, nullptr, 0, nullptr);
}

class Translator {
 public:
  explicit Translator(const RecordTarget& target) : t_(target), f_(*target.functions) {}

  void Dispatch(const DispatchCommand& c, const uint8_t* push) {
    const VkCommandBuffer cb = t_.command_buffer;
    if (c.pipeline != bound_pipeline_) {
      f_.bind_pipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c.pipeline);
      bound_pipeline_ = c.pipeline;
    }
    if (c.set_count > 0) {
      f_.bind_descriptor_sets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c.layout, c.first_set,
                              c.set_count, c.sets, c.dynamic_offset_count, &c.dynamic_offset);
    }
    if (c.push_size > 0) {
      f_.push_constants(cb, c.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, c.push_size, push);
    }
    if (c.resource_count > 0) {
      PushResources(
          c, reinterpret_cast<const PushedResource*>(push + PushedResourcesOffset(c.push_size)));
    }
    const std::array<uint32_t, 3>& grid = c.grid;
    const std::array<uint32_t, 3>& max = t_.max_groups;
    if (grid[0] <= max[0] && grid[1] <= max[1] && grid[2] <= max[2]) {
      f_.dispatch(cb, grid[0], grid[1], grid[2]);
      return;
    }
    // Each piece is a plain dispatch; the grid info tells it where it lies.
    for (uint32_t z = 0; z < grid[2]; z += std::min(max[2], grid[2] - z)) {
      for (uint32_t y = 0; y < grid[1]; y += std::min(max[1], grid[1] - y)) {
        for (uint32_t x = 0; x < grid[0]; x += std::min(max[0], grid[0] - x)) {
          if (c.needs_grid_info && (x | y | z) != 0) {
            const uint32_t info[kGridInfoWords] = {
                x, y, z, grid[0], grid[1], grid[2], x * c.block[0], y * c.block[1], z * c.block[2]};
            f_.push_constants(cb, c.layout, VK_SHADER_STAGE_COMPUTE_BIT, c.grid_info_offset,
                              sizeof(info), info);
          }
          f_.dispatch(cb, std::min(max[0], grid[0] - x), std::min(max[1], grid[1] - y),
                      std::min(max[2], grid[2] - z));
        }
      }
    }
  }

  // Textures and surfaces at set 2: a push per launch, as the handles in
  // the parameters may change from launch to launch.
  void PushResources(const DispatchCommand& c, const PushedResource* resources) {
    VkDescriptorImageInfo images[kMaxPushedResources];
    VkWriteDescriptorSet writes[kMaxPushedResources];
    const uint32_t count = std::min(c.resource_count, kMaxPushedResources);
    for (uint32_t i = 0; i < count; ++i) {
      const PushedResource& r = resources[i];
      images[i] = {r.sampler, r.view, VK_IMAGE_LAYOUT_GENERAL};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstBinding = r.binding;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = r.type;
      if (r.type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER) {
        writes[i].pTexelBufferView = &r.buffer_view;
      } else {
        writes[i].pImageInfo = &images[i];
      }
    }
    f_.push_descriptor_set(t_.command_buffer, VK_PIPELINE_BIND_POINT_COMPUTE, c.layout,
                           kResourceDescriptorSet, count, writes);
  }

  void Copy(const CopyCommand& c) { f_.copy_buffer(t_.command_buffer, c.src, c.dst, 1, &c.region); }

  void CopyRegions(const CopyRegionsCommand& c, const uint8_t* regions) {
    f_.copy_buffer(t_.command_buffer, c.src, c.dst, c.region_count,
                   reinterpret_cast<const VkBufferCopy*>(regions));
  }

  void Fill(const FillCommand& c) {
    if (c.fill_size > 0) {
      f_.fill_buffer(t_.command_buffer, c.dst, c.fill_offset, c.fill_size, c.fill_word);
    }
    if (c.edge_count > 0) {
      f_.copy_buffer(t_.command_buffer, c.edge_src, c.dst, c.edge_count, c.edges);
    }
  }

  void ImageCopy(const ImageCopyCommand& c) {
    // Images rest in GENERAL (image.h); a copy moves the subresources it
    // touches (one mip level, some layers) to the transfer layout for itself
    // and back, so every other command still finds GENERAL. A copy whose
    // source and destination share subresources of one image stays in
    // GENERAL (Vulkan requires it); between two levels of one image (a
    // mipmapped array) each level takes its own layout.
    constexpr VkImageLayout kRest = VK_IMAGE_LAYOUT_GENERAL;
    const bool to_image = c.kind != ImageCopyCommand::Kind::kImageToBuffer;
    const bool from_image = c.kind != ImageCopyCommand::Kind::kBufferToImage;
    const bool image_to_image = c.kind == ImageCopyCommand::Kind::kImageToImage;
    const VkImageSubresourceLayers& src_sub =
        image_to_image ? c.image_region.srcSubresource : c.buffer_region.imageSubresource;
    const VkImageSubresourceLayers& dst_sub =
        image_to_image ? c.image_region.dstSubresource : c.buffer_region.imageSubresource;
    const bool same = image_to_image && c.src_image == c.dst_image &&
                      src_sub.mipLevel == dst_sub.mipLevel &&
                      src_sub.baseArrayLayer < dst_sub.baseArrayLayer + dst_sub.layerCount &&
                      dst_sub.baseArrayLayer < src_sub.baseArrayLayer + src_sub.layerCount;
    const VkImageLayout src_layout = same ? kRest : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkImageLayout dst_layout = same ? kRest : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    VkImageMemoryBarrier barriers[2];
    uint32_t count = 0;
    auto add = [&](VkImage image, const VkImageSubresourceLayers& sub, VkImageLayout layout,
                   VkAccessFlags access) {
      if (same) return;
      VkImageMemoryBarrier& b = barriers[count++];
      b = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
      b.srcAccessMask = kWorkWrites;
      b.dstAccessMask = access;
      b.oldLayout = kRest;
      b.newLayout = layout;
      b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image;
      b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, sub.mipLevel, 1, sub.baseArrayLayer,
                            sub.layerCount};
    };
    if (from_image) add(c.src_image, src_sub, src_layout, VK_ACCESS_TRANSFER_READ_BIT);
    if (to_image) add(c.dst_image, dst_sub, dst_layout, VK_ACCESS_TRANSFER_WRITE_BIT);
    if (count > 0) {
      f_.pipeline_barrier(t_.command_buffer, kWorkStages, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                          nullptr, 0, nullptr, count, barriers);
    }
    switch (c.kind) {
      case ImageCopyCommand::Kind::kBufferToImage:
        f_.copy_buffer_to_image(t_.command_buffer, c.buffer, c.dst_image, dst_layout, 1,
                                &c.buffer_region);
        break;
      case ImageCopyCommand::Kind::kImageToBuffer:
        f_.copy_image_to_buffer(t_.command_buffer, c.src_image, src_layout, c.buffer, 1,
                                &c.buffer_region);
        break;
      case ImageCopyCommand::Kind::kImageToImage:
        f_.copy_image(t_.command_buffer, c.src_image, src_layout, c.dst_image, dst_layout, 1,
                      &c.image_region);
        break;
    }
    if (count == 0) return;
    // Back to GENERAL; the copy's writes are made available here, and the
    // next command's ordering barrier makes them visible.
    for (uint32_t i = 0; i < count; ++i) {
      barriers[i].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
      barriers[i].dstAccessMask = kWorkAccesses;
      std::swap(barriers[i].oldLayout, barriers[i].newLayout);
    }
    f_.pipeline_barrier(t_.command_buffer, VK_PIPELINE_STAGE_TRANSFER_BIT, kWorkStages, 0, 0,
                        nullptr, 0, nullptr, count, barriers);
  }

  void Timestamp(const TimestampCommand& c) {
    t_.timestamps->RecordWrite(t_.command_buffer, c.slot);
  }

 private:
  const RecordTarget& t_;
  const CommandFunctions& f_;
  VkPipeline bound_pipeline_ = VK_NULL_HANDLE;
};

}  // namespace

bool CommandFunctions::Load(VkDevice device, bool synchronization2, bool vulkan13,
                            bool push_descriptor) {
  bind_pipeline = DeviceFunction<PFN_vkCmdBindPipeline>(device, "vkCmdBindPipeline");
  bind_descriptor_sets =
      DeviceFunction<PFN_vkCmdBindDescriptorSets>(device, "vkCmdBindDescriptorSets");
  push_constants = DeviceFunction<PFN_vkCmdPushConstants>(device, "vkCmdPushConstants");
  dispatch = DeviceFunction<PFN_vkCmdDispatch>(device, "vkCmdDispatch");
  copy_buffer = DeviceFunction<PFN_vkCmdCopyBuffer>(device, "vkCmdCopyBuffer");
  fill_buffer = DeviceFunction<PFN_vkCmdFillBuffer>(device, "vkCmdFillBuffer");
  copy_buffer_to_image =
      DeviceFunction<PFN_vkCmdCopyBufferToImage>(device, "vkCmdCopyBufferToImage");
  copy_image_to_buffer =
      DeviceFunction<PFN_vkCmdCopyImageToBuffer>(device, "vkCmdCopyImageToBuffer");
  copy_image = DeviceFunction<PFN_vkCmdCopyImage>(device, "vkCmdCopyImage");
  pipeline_barrier = DeviceFunction<PFN_vkCmdPipelineBarrier>(device, "vkCmdPipelineBarrier");
  if (synchronization2) {
    // Drivers (lavapipe among them) implement vkCmdPipelineBarrier by
    // converting to the synchronization2 form; calling it directly is
    // cheaper on every command.
    pipeline_barrier2 = DeviceFunction<PFN_vkCmdPipelineBarrier2>(
        device, vulkan13 ? "vkCmdPipelineBarrier2" : "vkCmdPipelineBarrier2KHR");
  }
  if (push_descriptor) {
    push_descriptor_set =
        DeviceFunction<PFN_vkCmdPushDescriptorSetKHR>(device, "vkCmdPushDescriptorSetKHR");
    if (push_descriptor_set == nullptr) return false;
  }
  return bind_pipeline != nullptr && bind_descriptor_sets != nullptr && push_constants != nullptr &&
         dispatch != nullptr && copy_buffer != nullptr && fill_buffer != nullptr &&
         copy_buffer_to_image != nullptr && copy_image_to_buffer != nullptr &&
         copy_image != nullptr && pipeline_barrier != nullptr;
}

void CommandList::Grow(size_t needed) {
  const size_t capacity = std::max<size_t>({needed, 2 * capacity_, 16 * 1024});
  std::unique_ptr<uint8_t[]> storage(new uint8_t[capacity]);
  if (used_ > 0) std::memcpy(storage.get(), storage_.get(), used_);
  storage_ = std::move(storage);
  capacity_ = capacity;
}

void CommandList::RecordInto(const RecordTarget& target, Ordering ordering) const {
  Translator translator(target);
  const bool sequential = ordering == Ordering::kSequential;
  if (!sequential) RecordEntryBarrier(target);
  bool translated_any = false;  // a command was recorded
  bool barrier_owed = false;    // the next command must wait for those before it
  for (size_t at = 0; at < used_;) {
    const auto* header = reinterpret_cast<const Header*>(storage_.get() + at);
    const uint8_t* payload = storage_.get() + at + RoundUp(sizeof(Header));
    at += header->size;
    if (header->type == CommandType::kBarrier) {
      // Owed only if it orders something: barriers before the first command
      // (the entry barrier covers them) and runs of barriers cost one.
      if (translated_any) barrier_owed = true;
      continue;
    }
    if (header->import_host_writes) RecordHostImportBarrier(target);
    if (barrier_owed || (sequential && translated_any)) RecordOrderingBarrier(target);
    barrier_owed = false;
    translated_any = true;
    switch (header->type) {
      case CommandType::kDispatch: {
        const auto* c = reinterpret_cast<const DispatchCommand*>(payload);
        translator.Dispatch(*c, payload + RoundUp(sizeof(DispatchCommand)));
        break;
      }
      case CommandType::kCopy:
        translator.Copy(*reinterpret_cast<const CopyCommand*>(payload));
        break;
      case CommandType::kCopyRegions: {
        const auto* c = reinterpret_cast<const CopyRegionsCommand*>(payload);
        translator.CopyRegions(*c, payload + RoundUp(sizeof(CopyRegionsCommand)));
        break;
      }
      case CommandType::kFill:
        translator.Fill(*reinterpret_cast<const FillCommand*>(payload));
        break;
      case CommandType::kTimestamp:
        translator.Timestamp(*reinterpret_cast<const TimestampCommand*>(payload));
        break;
      case CommandType::kImageCopy:
        translator.ImageCopy(*reinterpret_cast<const ImageCopyCommand*>(payload));
        break;
      case CommandType::kBarrier:
        break;  // handled above
    }
  }
  // The completion marker follows all of the work; the export barrier then
  // makes it visible to the host with the work's results.
  if (target.marker_buffer != VK_NULL_HANDLE) {
    if (translated_any) RecordOrderingBarrier(target);
    target.functions->fill_buffer(target.command_buffer, target.marker_buffer, target.marker_offset,
                                  sizeof(uint32_t), target.marker_value);
  }
  // Otherwise a barrier owed at the end orders nothing in this command
  // buffer; the next submission waits on this one's semaphore signal, which
  // covers all of its work.
  RecordHostExportBarrier(target);
}

}  // namespace streamhal::vk
