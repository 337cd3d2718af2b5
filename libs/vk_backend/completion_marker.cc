#include "vk_backend/completion_marker.h"

#include <new>

#include "core/status.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {

namespace {

// Host-visible and host-coherent (the host reads the word with plain loads,
// no invalidation); cached where the device offers it, since the host reads
// far more often than the device writes.
int32_t PickMemoryType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t allowed) {
  constexpr VkMemoryPropertyFlags kNeeded =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int32_t best = -1;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags flags = memory.memoryTypes[i].propertyFlags;
    if ((allowed & (1u << i)) == 0 || (flags & kNeeded) != kNeeded) continue;
    if (best < 0) best = static_cast<int32_t>(i);
    if ((flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0) return static_cast<int32_t>(i);
  }
  return best;
}

}  // namespace

CompletionMarkers::CompletionMarkers(VkDevice device,
                                     const VkPhysicalDeviceMemoryProperties& memory)
    : device_(device) {
  // Every buffer gets the same memory types whatever its size; a probe
  // buffer tells which.
  VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kPageBytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer probe = VK_NULL_HANDLE;
  if (vkCreateBuffer(device_, &info, nullptr, &probe) != VK_SUCCESS) return;
  VkMemoryRequirements requirements = {};
  vkGetBufferMemoryRequirements(device_, probe, &requirements);
  vkDestroyBuffer(device_, probe, nullptr);
  memory_type_ = PickMemoryType(memory, requirements.memoryTypeBits);
}

CompletionMarkers::~CompletionMarkers() {
  MutexLock lock(&mutex_);
  for (const Page& page : pages_) {
    vkDestroyBuffer(device_, page.buffer, nullptr);
    vkFreeMemory(device_, page.memory, nullptr);  // unmaps it
  }
}

absl::Status CompletionMarkers::AddPage() {
  if (memory_type_ < 0) {
    return Error(ErrorCode::kNotSupported, "the device has no host-visible coherent memory");
  }
  Page page;
  VkBufferCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = kPageBytes;
  info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  SH_VK_RETURN_IF_ERROR(vkCreateBuffer(device_, &info, nullptr, &page.buffer), "vkCreateBuffer");
  VkMemoryRequirements requirements = {};
  vkGetBufferMemoryRequirements(device_, page.buffer, &requirements);
  VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = static_cast<uint32_t>(memory_type_);
  void* host = nullptr;
  VkResult result = vkAllocateMemory(device_, &allocate, nullptr, &page.memory);
  if (result == VK_SUCCESS) result = vkBindBufferMemory(device_, page.buffer, page.memory, 0);
  if (result == VK_SUCCESS) result = vkMapMemory(device_, page.memory, 0, VK_WHOLE_SIZE, 0, &host);
  if (result != VK_SUCCESS) {
    vkDestroyBuffer(device_, page.buffer, nullptr);
    if (page.memory != VK_NULL_HANDLE) vkFreeMemory(device_, page.memory, nullptr);
    return VkResultToStatus(result, "allocating completion markers");
  }
  page.host = static_cast<uint8_t*>(host);
  pages_.push_back(page);
  // Handed out from the front of the page first.
  for (VkDeviceSize offset = kPageBytes; offset > 0;) {
    offset -= kSlotBytes;
    auto* word = new (page.host + offset) std::atomic<uint32_t>(0);
    free_.push_back(CompletionMarker{page.buffer, offset, word});
  }
  return absl::OkStatus();
}

absl::StatusOr<CompletionMarker> CompletionMarkers::Acquire() {
  MutexLock lock(&mutex_);
  if (free_.empty()) SH_RETURN_IF_ERROR(AddPage());
  CompletionMarker marker = free_.back();
  free_.pop_back();
  marker.word->store(0, std::memory_order_relaxed);
  return marker;
}

void CompletionMarkers::Release(const CompletionMarker& marker) {
  if (!marker.valid()) return;
  MutexLock lock(&mutex_);
  free_.push_back(marker);
}

}  // namespace streamhal::vk
