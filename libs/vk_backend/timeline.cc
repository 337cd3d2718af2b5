#include "vk_backend/timeline.h"

#include "core/status.h"
#include "vk_backend/device.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {

namespace {

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
  VkResult polled = VK_SUCCESS;
  const bool reached = PollFor(policy, [&] {
    uint64_t counter = 0;
    polled = vkGetSemaphoreCounterValue(device_, semaphore_, &counter);
    return polled != VK_SUCCESS || counter >= value;
  });
  SH_VK_RETURN_IF_ERROR(polled, "vkGetSemaphoreCounterValue");
  if (reached) return absl::OkStatus();
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
