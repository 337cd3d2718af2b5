// Per-stream host-visible scratch memory: upload and download staging,
// fill edges and big kernel parameter blocks. One host-coherent allocation
// used as a ring; each range is tagged with the stream point whose work reads
// or writes it and is reused once that point has completed.
#ifndef STREAMHAL_VK_BACKEND_STAGING_H_
#define STREAMHAL_VK_BACKEND_STAGING_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "vk_backend/allocator.h"

namespace streamhal::vk {

class StagingRing {
 public:
  // `backing` is a mapped allocation of at least `capacity` bytes.
  StagingRing(std::unique_ptr<VulkanAllocation> backing, uint64_t capacity);

  // The offset (from the start of the backing allocation) of `size` bytes
  // aligned to `alignment` (a power of two), to be reused after `point`
  // completes; nullopt when the ring is too full (Release, then retry).
  // Points passed here never decrease.
  std::optional<uint64_t> Allocate(uint64_t size, uint64_t alignment, uint64_t point);
  // Makes the ranges of every point <= `completed` reusable.
  void Release(uint64_t completed);

  bool empty() const { return entries_.empty(); }
  // The point of the oldest range still in use (only when !empty()).
  uint64_t oldest_point() const { return entries_.front().point; }
  uint64_t capacity() const { return capacity_; }
  VulkanAllocation* backing() const { return backing_.get(); }
  uint8_t* host(uint64_t offset) const {
    return static_cast<uint8_t*>(backing_->host_pointer()) + offset;
  }

 private:
  struct Entry {
    uint64_t begin;
    uint64_t end;
    uint64_t point;
  };

  const std::unique_ptr<VulkanAllocation> backing_;
  const uint64_t capacity_;
  // Live bytes run from the oldest entry's begin to head_, wrapping to 0
  // once (wrapped_) when the end of the ring is reached.
  std::deque<Entry> entries_;
  uint64_t head_ = 0;
  bool wrapped_ = false;
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_STAGING_H_
