#include "vk_backend/recording.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <utility>

#include "core/module.h"
#include "core/status.h"
#include "vk_backend/device.h"
#include "vk_backend/encode.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/fill.h"
#include "vk_backend/kernel.h"
#include "vk_backend/resource_view.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {

// --- VulkanRecording ---

VulkanRecording::~VulkanRecording() {
  // No run is pending: every stream that ran it held a reference until its
  // run completed.
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, pool_, nullptr);
  if (descriptor_pool_ != VK_NULL_HANDLE) {
    vkDestroyDescriptorPool(device_, descriptor_pool_, nullptr);
  }
}

// --- VulkanRecorder ---

VulkanRecorder::VulkanRecorder(VulkanDevice* device)
    : device_(device),
      vk_device_(device->device()),
      max_groups_{device->vk_properties().limits.maxComputeWorkGroupCount[0],
                  device->vk_properties().limits.maxComputeWorkGroupCount[1],
                  device->vk_properties().limits.maxComputeWorkGroupCount[2]},
      uniform_alignment_(
          std::max<uint64_t>(16, device->vk_properties().limits.minUniformBufferOffsetAlignment)) {}

absl::StatusOr<std::unique_ptr<VulkanRecorder>> VulkanRecorder::Create(VulkanDevice* device) {
  std::unique_ptr<VulkanRecorder> recorder(new VulkanRecorder(device));
  if (!recorder->cmd_.Load(recorder->vk_device_, device->features().synchronization2,
                           device->api_version() >= VK_API_VERSION_1_3,
                           device->features().push_descriptor)) {
    return Error(ErrorCode::kNotSupported, "the device lacks core command entry points");
  }
  return recorder;
}

uint64_t VulkanRecorder::Reserve(uint64_t size, uint64_t alignment) {
  const uint64_t offset = (scratch_.size() + alignment - 1) & ~(alignment - 1);
  scratch_.resize(offset + size);
  return offset;
}

absl::Status VulkanRecorder::RecordDispatch(const DispatchParams& params) {
  SH_ASSIGN_OR_RETURN(const ResolvedLaunch launch, ResolveLaunch(params, max_groups_));
  const KernelLayout& layout = launch.kernel->layout();
  uint32_t dynamic_offset = 0;
  if (layout.params_in_uniform_buffer) {
    // Dynamic offsets are 32-bit.
    if (scratch_.size() > std::numeric_limits<uint32_t>::max() - 2 * kMaxParamBlockBytes) {
      return Error(ErrorCode::kOutOfMemory, "a recording's parameter blocks exceed 4 GiB in all");
    }
    const uint64_t offset = Reserve(layout.param_block_size, uniform_alignment_);
    std::memcpy(scratch_.data() + offset, params.params, layout.param_block_size);
    dynamic_offset = static_cast<uint32_t>(offset);
    params_in_scratch_ = true;
  }
  // The parameter set is bound at Finish, once it exists.
  const size_t resources = layout.resources.size();
  for (size_t i = 0; i < resources; ++i) {
    const auto* view = static_cast<const VulkanResourceView*>(params.resources[i].get());
    if (view->staged()) EncodeStagingCopy(*view, commands_.Append<ImageCopyCommand>(false));
  }
  uint8_t* push = nullptr;
  DispatchCommand* c = commands_.Append<DispatchCommand>(false, LaunchTrailingBytes(launch), &push);
  EncodeLaunch(launch, params, VK_NULL_HANDLE, dynamic_offset, c, push);
  if (resources > 0)
    views_.insert(views_.end(), std::make_move_iterator(params.resources),
                  std::make_move_iterator(params.resources + resources));
  return absl::OkStatus();
}

absl::Status VulkanRecorder::RecordCopy(BufferRange dst, BufferRange src, uint64_t size) {
  *commands_.Append<CopyCommand>(false) = EncodeCopy(dst, src, size);
  return absl::OkStatus();
}

absl::Status VulkanRecorder::RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                        uint64_t count) {
  auto* to = static_cast<VulkanAllocation*>(dst.allocation);
  const FillPlan plan = PlanFill(to->buffer_offset() + dst.offset, pattern, element_size, count);
  uint64_t edge_offset = 0;
  if (plan.edge_count > 0) {
    edge_offset = Reserve(kFillEdgeBytes, 4);
    WriteFillEdges(plan, scratch_.data() + edge_offset);
  }
  // The edges' buffer is set at Finish, once it exists.
  EncodeFill(to->buffer(), plan, VK_NULL_HANDLE, edge_offset, commands_.Append<FillCommand>(false));
  return absl::OkStatus();
}

absl::Status VulkanRecorder::RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) {
  auto* to = static_cast<VulkanAllocation*>(dst.allocation);
  auto* from = static_cast<VulkanAllocation*>(src.allocation);
  const BoxPieces pieces = PlanBox(box);
  for (uint64_t first = 0; first < pieces.count; first += kMaxRegionsPerCommand) {
    const auto count = static_cast<uint32_t>(std::min(kMaxRegionsPerCommand, pieces.count - first));
    uint8_t* regions = nullptr;
    *commands_.Append<CopyRegionsCommand>(
        false, count * static_cast<uint32_t>(sizeof(VkBufferCopy)), &regions) =
        CopyRegionsCommand{from->buffer(), to->buffer(), count};
    EncodeBoxRegions(box, pieces, from->buffer_offset() + src.offset,
                     to->buffer_offset() + dst.offset, first, count,
                     reinterpret_cast<VkBufferCopy*>(regions));
  }
  return absl::OkStatus();
}

void VulkanRecorder::RecordBarrier() { commands_.Append<BarrierCommand>(false); }

namespace {

// Where the commands' scratch lives: nowhere yet (null buffer and set, base
// 0) while recording, then the recording's allocation.
struct ScratchPlace {
  VkBuffer buffer = VK_NULL_HANDLE;
  uint64_t base = 0;  // the scratch's offset in `buffer`
  VkDescriptorSet params_set = VK_NULL_HANDLE;
};

// Moves the commands that read scratch from `from` to `to`.
void Relocate(CommandList& commands, const ScratchPlace& from, const ScratchPlace& to) {
  commands.ForEachMutable([&](CommandType type, uint8_t* payload) {
    if (type == CommandType::kDispatch) {
      auto* c = reinterpret_cast<DispatchCommand*>(payload);
      // The parameter set is always the last one bound (set 1).
      if (c->dynamic_offset_count > 0) c->sets[c->set_count - 1] = to.params_set;
    } else if (type == CommandType::kFill) {
      auto* c = reinterpret_cast<FillCommand*>(payload);
      if (c->edge_count == 0) return;
      c->edge_src = to.buffer;
      for (uint32_t i = 0; i < c->edge_count; ++i) {
        c->edges[i].srcOffset = c->edges[i].srcOffset - from.base + to.base;
      }
    }
  });
}

}  // namespace

absl::Status VulkanRecorder::Build(VulkanRecording* recording) {
  ScratchPlace place;
  if (!scratch_.empty()) {
    // The tail keeps every parameter descriptor range (kMaxParamBlockBytes
    // from a dynamic offset) within the allocation.
    const uint64_t bytes = scratch_.size() + (params_in_scratch_ ? kMaxParamBlockBytes : 0);
    SH_ASSIGN_OR_RETURN(recording->scratch_,
                        device_->allocator().Allocate(bytes, MemoryKind::kHostPinned));
    // Host-coherent, and written before any submission reads it.
    std::memcpy(recording->scratch_->host_pointer(), scratch_.data(), scratch_.size());
    place.buffer = recording->scratch_->buffer();
    place.base = recording->scratch_->buffer_offset();
    if (params_in_scratch_) {
      SH_ASSIGN_OR_RETURN(place.params_set,
                          CreateParamsSet(vk_device_, device_->kernel_objects().params_layout(),
                                          *recording->scratch_, &recording->descriptor_pool_));
    }
  }

  VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = device_->queue_family_index();
  SH_VK_RETURN_IF_ERROR(vkCreateCommandPool(vk_device_, &pool_info, nullptr, &recording->pool_),
                        "vkCreateCommandPool");
  VkCommandBufferAllocateInfo info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  info.commandPool = recording->pool_;
  info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  info.commandBufferCount = 1;
  SH_VK_RETURN_IF_ERROR(vkAllocateCommandBuffers(vk_device_, &info, &recording->command_buffer_),
                        "vkAllocateCommandBuffers");
  VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  // A graph may be launched again before its previous launch has finished,
  // on the same stream or another.
  begin.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  VkResult begun = InjectedFault(FaultSite::kBeginCommandBuffer);
  if (begun == VK_SUCCESS) begun = vkBeginCommandBuffer(recording->command_buffer_, &begin);
  SH_VK_RETURN_IF_ERROR(begun, "vkBeginCommandBuffer");

  Relocate(commands_, ScratchPlace{}, place);
  commands_.RecordInto(RecordTarget{recording->command_buffer_, &cmd_, max_groups_, nullptr},
                       Ordering::kAtBarriers);
  const VkResult ended = vkEndCommandBuffer(recording->command_buffer_);
  if (ended != VK_SUCCESS) {
    // Keeps the commands as recorded, so that Finish may be retried.
    Relocate(commands_, place, ScratchPlace{});
    return VkResultToStatus(ended, "vkEndCommandBuffer");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<BackendRecording>> VulkanRecorder::Finish() {
  // Destroys whatever was made when building fails.
  std::shared_ptr<VulkanRecording> recording(new VulkanRecording(vk_device_));
  SH_RETURN_IF_ERROR(Build(recording.get()));
  recording->views_ = std::move(views_);
  views_.clear();
  commands_.Clear();
  scratch_.clear();
  params_in_scratch_ = false;
  return std::shared_ptr<BackendRecording>(std::move(recording));
}

}  // namespace streamhal::vk
