// A timeline semaphore: the points of a stream (stream.h). It is shared by
// its stream and by whatever waits on it (other streams' submissions, host
// tasks), so it outlives a stream that is destroyed while others still wait.
#ifndef STREAMHAL_VK_BACKEND_TIMELINE_H_
#define STREAMHAL_VK_BACKEND_TIMELINE_H_

#include <vulkan/vulkan.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"

namespace streamhal::vk {

class VulkanDevice;

// Calls `reached` until it returns true (then true) or `policy.poll_ns` have
// passed (then false), spinning or yielding between calls as the policy
// says (spinning for the first spin_ns when it yields). With poll_ns 0,
// returns false at once.
template <typename Reached>
bool PollFor(const WaitPolicy& policy, Reached&& reached) {
  if (policy.poll_ns == 0) return false;
  const bool forever = policy.poll_ns == WaitPolicy::kPollForever;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::nanoseconds(forever ? 0 : policy.poll_ns);
  const auto spin_until = start + std::chrono::nanoseconds(policy.yield ? policy.spin_ns : 0);
  bool spin = !policy.yield || policy.spin_ns > 0;
  for (uint32_t polls = 1;; ++polls) {
    if (reached()) return true;
    if (spin) {
      CpuRelax();
    } else {
      std::this_thread::yield();
    }
    // Reading the clock costs about as much as a poll of a semaphore; every
    // 16th will do.
    const bool spinning_first = policy.yield && spin;
    if (polls % 16 == 0 && (!forever || spinning_first)) {
      const auto now = std::chrono::steady_clock::now();
      if (!forever && now >= deadline) return false;
      if (spinning_first && now >= spin_until) spin = false;
    }
  }
}

class Timeline {
 public:
  static absl::StatusOr<std::shared_ptr<Timeline>> Create(VulkanDevice* device);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  VkSemaphore handle() const { return semaphore_; }
  // The value reached so far. Thread-safe, like the two below.
  absl::StatusOr<uint64_t> Value() const;
  // Returns once the value reaches `value`: polls the value as `policy`
  // says, then sleeps in vkWaitSemaphores.
  absl::Status WaitFor(uint64_t value, const WaitPolicy& policy = WaitPolicy{}) const;
  // Sets the value from the host (it must grow, and stay below any pending
  // device signal).
  absl::Status Signal(uint64_t value) const;

  // The highest value whose signal is on its way: in a submission already
  // queued, or set from the host. A queue that meets a wait for more than
  // this stalls until someone signals it, and with it every submission
  // queued after (lavapipe runs its queue in order), so submissions that
  // would wait for more go through their stream's host thread instead
  // (VulkanStream::Flush). Thread-safe.
  uint64_t submitted() const { return submitted_.load(std::memory_order_acquire); }
  // Records that a signal of `value` has been queued or made.
  void MarkSubmitted(uint64_t value) const;

 private:
  explicit Timeline(VulkanDevice* device);
  VulkanDevice* const owner_;  // retires the semaphore (device.h)
  const VkDevice device_;
  VkSemaphore semaphore_ = VK_NULL_HANDLE;
  mutable std::atomic<uint64_t> submitted_{0};
};

// A point of some timeline that later work must wait for.
struct TimelineWait {
  std::shared_ptr<Timeline> timeline;
  uint64_t value = 0;
};

// Blocks until every wait is reached.
absl::Status WaitForAll(VkDevice device, const std::vector<TimelineWait>& waits);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_TIMELINE_H_
