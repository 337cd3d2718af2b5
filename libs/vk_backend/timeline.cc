#include "vk_backend/timeline.h"

#include <chrono>
#include <thread>

#include "core/status.h"
#include "vk_backend/device.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {

namespace {

// Tells the processor this is a spin loop (frees the core's resources for
// its sibling hyperthread).
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

VkResult WaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo& info) {
  const VkResult injected = InjectedFault(FaultSite::kWait);
  if (injected != VK_SUCCESS) return injected;
  return vkWaitSemaphores(device, &info, UINT64_MAX);
}

}  // namespace

Timeline::Timeline(VulkanDevice* device) : owner_(device), device_(device->device()) {}

absl::StatusOr<std::shared_ptr<Timeline>> Timeline::Create(VulkanDevice* device) {
  std::shared_ptr<Timeline> timeline(new Timeline(device));
  VkSemaphoreTypeCreateInfo type_info = {VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  type_info.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  type_info.initialValue = 0;
  VkSemaphoreCreateInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type_info};
  SH_VK_RETURN_IF_ERROR(vkCreateSemaphore(timeline->device_, &info, nullptr, &timeline->semaphore_),
                        "vkCreateSemaphore");
  return timeline;
}

Timeline::~Timeline() {
  if (semaphore_ != VK_NULL_HANDLE) owner_->RetireSemaphore(semaphore_);
}

absl::StatusOr<uint64_t> Timeline::Value() const {
  uint64_t value = 0;
  SH_VK_RETURN_IF_ERROR(vkGetSemaphoreCounterValue(device_, semaphore_, &value),
                        "vkGetSemaphoreCounterValue");
  return value;
}

absl::Status Timeline::WaitFor(uint64_t value, const WaitPolicy& policy) const {
  // Each wait is one fault-injection site, however it ends.
  const VkResult injected = InjectedFault(FaultSite::kWait);
  if (injected != VK_SUCCESS) return VkResultToStatus(injected, "vkWaitSemaphores");
  if (policy.poll_ns > 0) {
    const bool forever = policy.poll_ns == WaitPolicy::kPollForever;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::nanoseconds(forever ? 0 : policy.poll_ns);
    for (uint32_t polls = 1;; ++polls) {
      uint64_t reached = 0;
      SH_VK_RETURN_IF_ERROR(vkGetSemaphoreCounterValue(device_, semaphore_, &reached),
                            "vkGetSemaphoreCounterValue");
      if (reached >= value) return absl::OkStatus();
      if (policy.yield) {
        std::this_thread::yield();
      } else {
        CpuRelax();
      }
      // Reading the clock costs about as much as a poll; every 16th will do.
      if (!forever && polls % 16 == 0 && std::chrono::steady_clock::now() >= deadline) break;
    }
  }
  VkSemaphoreWaitInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = 1;
  info.pSemaphores = &semaphore_;
  info.pValues = &value;
  return VkResultToStatus(vkWaitSemaphores(device_, &info, UINT64_MAX), "vkWaitSemaphores");
}

absl::Status Timeline::Signal(uint64_t value) const {
  VkSemaphoreSignalInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
  info.semaphore = semaphore_;
  info.value = value;
  SH_RETURN_IF_ERROR(VkResultToStatus(vkSignalSemaphore(device_, &info), "vkSignalSemaphore"));
  MarkSubmitted(value);
  return absl::OkStatus();
}

void Timeline::MarkSubmitted(uint64_t value) const {
  uint64_t seen = submitted_.load(std::memory_order_acquire);
  while (value > seen &&
         !submitted_.compare_exchange_weak(seen, value, std::memory_order_acq_rel)) {
  }
}

absl::Status WaitForAll(VkDevice device, const std::vector<TimelineWait>& waits) {
  if (waits.empty()) return absl::OkStatus();
  std::vector<VkSemaphore> semaphores;
  std::vector<uint64_t> values;
  semaphores.reserve(waits.size());
  values.reserve(waits.size());
  for (const TimelineWait& wait : waits) {
    semaphores.push_back(wait.timeline->handle());
    values.push_back(wait.value);
  }
  VkSemaphoreWaitInfo info = {VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  info.semaphoreCount = static_cast<uint32_t>(semaphores.size());
  info.pSemaphores = semaphores.data();
  info.pValues = values.data();
  return VkResultToStatus(WaitSemaphores(device, info), "vkWaitSemaphores");
}

}  // namespace streamhal::vk
