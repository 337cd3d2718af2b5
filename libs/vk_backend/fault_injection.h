// Test-only fault injection: makes the Nth call of one kind of Vulkan
// operation fail with a chosen VkResult, so tests can drive every failure
// path (out of memory at allocation, a lost device at submission or wait)
// on a device that never fails by itself. Compiled into every build; when
// nothing is armed a check is one relaxed atomic load.
//
// Arm it from a test with InjectFault(), or for a whole process with the
// environment variable STREAMHAL_VK_FAULT=<site>:<n>:<result>, read when the
// Vulkan backend starts, e.g. STREAMHAL_VK_FAULT=submit:3:VK_ERROR_DEVICE_LOST.
// Sites: submit (vkQueueSubmit), allocate (vkAllocateMemory), begin
// (vkBeginCommandBuffer), pipeline (vkCreateComputePipelines), wait
// (vkWaitSemaphores).
#ifndef STREAMHAL_VK_BACKEND_FAULT_INJECTION_H_
#define STREAMHAL_VK_BACKEND_FAULT_INJECTION_H_

#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace streamhal::vk {

enum class FaultSite : int {
  kQueueSubmit,
  kAllocateMemory,
  kBeginCommandBuffer,
  kCreatePipeline,
  kWait,
  kCount,
};
inline constexpr int kFaultSiteCount = static_cast<int>(FaultSite::kCount);

// The name used by STREAMHAL_VK_FAULT ("submit", ...).
const char* FaultSiteName(FaultSite site);

// From now on, counts the calls at every site, and makes the `nth` call at
// `site` (1-based, counted from this call) fail with `result`, once. `nth`
// 0 only counts.
void InjectFault(FaultSite site, uint64_t nth, VkResult result);
// Disarms and forgets the counts.
void ClearFaults();
// Calls at `site` since the last InjectFault (0 when not armed).
uint64_t FaultSiteCalls(FaultSite site);
// Whether the armed fault has fired.
bool FaultFired();
// Parses a STREAMHAL_VK_FAULT value and arms it; InvalidArgument for a
// malformed one.
absl::Status InjectFaultFromSpec(absl::string_view spec);
// Arms the fault STREAMHAL_VK_FAULT names, if any (once per process).
void InjectFaultFromEnvironment();

namespace fault_internal {
extern std::atomic<bool> armed;
VkResult Next(FaultSite site);
}  // namespace fault_internal

// The result the operation at `site` must fail with, or VK_SUCCESS to go on
// with the real call.
inline VkResult InjectedFault(FaultSite site) {
  if (!fault_internal::armed.load(std::memory_order_relaxed)) return VK_SUCCESS;
  return fault_internal::Next(site);
}

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_FAULT_INJECTION_H_
