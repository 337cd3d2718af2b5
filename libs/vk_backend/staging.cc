#include "vk_backend/staging.h"

#include <utility>

namespace streamhal::vk {

StagingRing::StagingRing(std::unique_ptr<VulkanAllocation> backing, uint64_t capacity)
    : backing_(std::move(backing)), capacity_(capacity) {}

std::optional<uint64_t> StagingRing::Allocate(uint64_t size, uint64_t alignment, uint64_t point) {
  if (size == 0 || size > capacity_) return std::nullopt;
  if (entries_.empty()) {
    head_ = 0;
    wrapped_ = false;
  }
  const uint64_t tail = entries_.empty() ? 0 : entries_.front().begin;
  uint64_t start = (head_ + alignment - 1) & ~(alignment - 1);
  if (!wrapped_) {
    // Free space: [head_, capacity_) and, by wrapping, [0, tail).
    if (start + size > capacity_) {
      if (entries_.empty()) {
        start = 0;
      } else if (size <= tail) {
        start = 0;
        wrapped_ = true;
      } else {
        return std::nullopt;
      }
    }
  } else if (start + size > tail) {
    // Free space: [head_, tail).
    return std::nullopt;
  }
  head_ = start + size;
  if (!entries_.empty() && entries_.back().point == point && entries_.back().end <= start &&
      (start != 0 || entries_.back().begin == 0)) {
    entries_.back().end = head_;  // same point, same side of the wrap
  } else {
    entries_.push_back(Entry{start, head_, point});
  }
  return start;
}

void StagingRing::Release(uint64_t completed) {
  while (!entries_.empty() && entries_.front().point <= completed) {
    const uint64_t old_begin = entries_.front().begin;
    entries_.pop_front();
    // Entries past the wrap start below the ones before it: once the front
    // is one of them, the live bytes no longer wrap.
    if (wrapped_ && !entries_.empty() && entries_.front().begin < old_begin) wrapped_ = false;
  }
  if (entries_.empty()) {
    head_ = 0;
    wrapped_ = false;
  }
}

}  // namespace streamhal::vk
