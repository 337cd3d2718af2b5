// Device timestamps for event timing (cuEventElapsedTime). Each stream owns
// a ring of timestamp queries; a recorded timestamp is read at most once, and
// one that is never read is overwritten kSlots records later (an event that
// is recorded again abandons its previous timestamp).
//
// Each timestamp is copied, in the command buffer that writes it, into
// host-visible memory, which Read then loads. vkGetQueryPoolResults is never
// called: lavapipe's waits for the whole queue to go idle, which would tie a
// read to every other stream's work.
#ifndef STREAMHAL_VK_BACKEND_TIMESTAMPS_H_
#define STREAMHAL_VK_BACKEND_TIMESTAMPS_H_

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"
#include "vk_backend/allocator.h"

namespace streamhal::vk {

class TimestampRing {
 public:
  static constexpr uint32_t kSlots = 1024;

  // `valid_bits` and `period_ns` are the queue family's and the device's;
  // `results` is mapped memory of at least kSlots * 8 bytes.
  static absl::StatusOr<std::unique_ptr<TimestampRing>> Create(
      VkDevice device, uint32_t valid_bits, double period_ns,
      std::unique_ptr<VulkanAllocation> results);
  ~TimestampRing();
  TimestampRing(const TimestampRing&) = delete;
  TimestampRing& operator=(const TimestampRing&) = delete;

  struct Reservation {
    uint64_t id = 0;
    uint32_t slot = 0;
  };
  // Takes the next slot for a timestamp that the batch completing at stream
  // point `point` will write; RecordWrite records that write.
  Reservation Reserve(uint64_t point);
  // Records, into `command_buffer`, the write of `slot`: a timestamp taken
  // once every earlier command has finished.
  void RecordWrite(VkCommandBuffer command_buffer, uint32_t slot) const;
  // Forgets the timestamps reserved for `point`: their batch was dropped, so
  // no query writes them and the point number will be reused.
  void Abandon(uint64_t point);
  // The timestamp in nanoseconds, given the stream's completed point:
  // kNotReady before its point, kInvalidValue when the id was overwritten or
  // read already. Thread-safe.
  absl::StatusOr<uint64_t> Read(uint64_t id, uint64_t completed);

 private:
  TimestampRing(VkDevice device, uint32_t valid_bits, double period_ns,
                std::unique_ptr<VulkanAllocation> results)
      : device_(device),
        valid_bits_(valid_bits),
        period_ns_(period_ns),
        results_(std::move(results)) {}

  const VkDevice device_;
  const uint32_t valid_bits_;
  const double period_ns_;
  const std::unique_ptr<VulkanAllocation> results_;
  VkQueryPool pool_ = VK_NULL_HANDLE;

  Mutex mutex_;
  uint64_t next_ ABSL_GUARDED_BY(mutex_) = 0;
  // The id each slot holds now (0 once read) and the point that writes it.
  std::vector<uint64_t> slot_ids_ ABSL_GUARDED_BY(mutex_);
  std::vector<uint64_t> slot_points_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_TIMESTAMPS_H_
