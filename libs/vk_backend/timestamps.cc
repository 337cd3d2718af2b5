#include "vk_backend/timestamps.h"

#include <cmath>
#include <cstring>

#include "core/status.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {

absl::StatusOr<std::unique_ptr<TimestampRing>> TimestampRing::Create(
    VkDevice device, uint32_t valid_bits, double period_ns,
    std::unique_ptr<VulkanAllocation> results) {
  if (valid_bits == 0) {
    return Error(ErrorCode::kNotSupported, "the compute queue has no timestamps");
  }
  std::unique_ptr<TimestampRing> ring(
      new TimestampRing(device, valid_bits, period_ns, std::move(results)));
  VkQueryPoolCreateInfo info = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  info.queryType = VK_QUERY_TYPE_TIMESTAMP;
  info.queryCount = kSlots;
  SH_VK_RETURN_IF_ERROR(vkCreateQueryPool(device, &info, nullptr, &ring->pool_),
                        "vkCreateQueryPool");
  MutexLock lock(&ring->mutex_);
  ring->slot_ids_.assign(kSlots, 0);
  ring->slot_points_.assign(kSlots, 0);
  return ring;
}

TimestampRing::~TimestampRing() {
  if (pool_ != VK_NULL_HANDLE) vkDestroyQueryPool(device_, pool_, nullptr);
}

TimestampRing::Reservation TimestampRing::Reserve(uint64_t point) {
  MutexLock lock(&mutex_);
  const uint64_t id = ++next_;  // ids start at 1
  const uint32_t slot = static_cast<uint32_t>(id % kSlots);
  slot_ids_[slot] = id;
  slot_points_[slot] = point;
  return Reservation{id, slot};
}

void TimestampRing::RecordWrite(VkCommandBuffer command_buffer, uint32_t slot) const {
  // A query is reset before each use; queries of one pool execute in
  // submission order, so the reset precedes the write.
  vkCmdResetQueryPool(command_buffer, pool_, slot, 1);
  // BOTTOM_OF_PIPE: written once all earlier commands have finished.
  vkCmdWriteTimestamp(command_buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, slot);
  // The copy waits for the value; the stream's end-of-batch barrier makes
  // it visible to the host.
  vkCmdCopyQueryPoolResults(command_buffer, pool_, slot, 1, results_->buffer(),
                            results_->buffer_offset() + uint64_t{slot} * sizeof(uint64_t),
                            sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
}

void TimestampRing::Abandon(uint64_t point) {
  MutexLock lock(&mutex_);
  for (uint32_t slot = 0; slot < kSlots; ++slot) {
    if (slot_ids_[slot] != 0 && slot_points_[slot] == point) slot_ids_[slot] = 0;
  }
}

absl::StatusOr<uint64_t> TimestampRing::Read(uint64_t id, uint64_t completed) {
  MutexLock lock(&mutex_);
  const uint32_t slot = static_cast<uint32_t>(id % kSlots);
  if (id == 0 || slot_ids_[slot] != id) {
    return Error(ErrorCode::kInvalidValue, "timestamp ", id, " was already read or overwritten");
  }
  if (completed < slot_points_[slot]) {
    return Error(ErrorCode::kNotReady, "timestamp ", id, " has not been written yet");
  }
  uint64_t ticks = 0;
  std::memcpy(&ticks,
              static_cast<const uint8_t*>(results_->host_pointer()) + slot * sizeof(uint64_t),
              sizeof(ticks));
  slot_ids_[slot] = 0;
  if (valid_bits_ < 64) ticks &= (uint64_t{1} << valid_bits_) - 1;
  return static_cast<uint64_t>(std::llround(static_cast<double>(ticks) * period_ns_));
}

}  // namespace streamhal::vk
