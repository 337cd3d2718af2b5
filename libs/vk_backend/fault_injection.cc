#include "vk_backend/fault_injection.h"

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/log.h"
#include "core/mutex.h"
#include "core/status.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace fault_internal {
std::atomic<bool> armed{false};
}  // namespace fault_internal

namespace {

struct FaultState {
  Mutex mutex;
  std::array<uint64_t, kFaultSiteCount> calls ABSL_GUARDED_BY(mutex) = {};
  FaultSite site ABSL_GUARDED_BY(mutex) = FaultSite::kQueueSubmit;
  uint64_t nth ABSL_GUARDED_BY(mutex) = 0;
  VkResult result ABSL_GUARDED_BY(mutex) = VK_SUCCESS;
  bool fired ABSL_GUARDED_BY(mutex) = false;
};

FaultState& State() {
  static FaultState* state = new FaultState;  // never destroyed: used at exit
  return *state;
}

// The results a fault may be injected with: the failures the backend's
// callers must handle.
constexpr VkResult kInjectableResults[] = {
    VK_ERROR_OUT_OF_HOST_MEMORY,
    VK_ERROR_OUT_OF_DEVICE_MEMORY,
    VK_ERROR_DEVICE_LOST,
    VK_ERROR_INITIALIZATION_FAILED,
    VK_ERROR_UNKNOWN,
    VK_TIMEOUT,
};

}  // namespace

const char* FaultSiteName(FaultSite site) {
  switch (site) {
    case FaultSite::kQueueSubmit:
      return "submit";
    case FaultSite::kAllocateMemory:
      return "allocate";
    case FaultSite::kBeginCommandBuffer:
      return "begin";
    case FaultSite::kCreatePipeline:
      return "pipeline";
    case FaultSite::kWait:
      return "wait";
    case FaultSite::kCount:
      break;
  }
  return "?";
}

void InjectFault(FaultSite site, uint64_t nth, VkResult result) {
  FaultState& state = State();
  MutexLock lock(&state.mutex);
  state.calls = {};
  state.site = site;
  state.nth = nth;
  state.result = result;
  state.fired = false;
  fault_internal::armed.store(true, std::memory_order_relaxed);
}

void ClearFaults() {
  FaultState& state = State();
  MutexLock lock(&state.mutex);
  fault_internal::armed.store(false, std::memory_order_relaxed);
  state.calls = {};
  state.nth = 0;
  state.fired = false;
}

uint64_t FaultSiteCalls(FaultSite site) {
  FaultState& state = State();
  MutexLock lock(&state.mutex);
  return state.calls[static_cast<int>(site)];
}

bool FaultFired() {
  FaultState& state = State();
  MutexLock lock(&state.mutex);
  return state.fired;
}

VkResult fault_internal::Next(FaultSite site) {
  FaultState& state = State();
  MutexLock lock(&state.mutex);
  const uint64_t call = ++state.calls[static_cast<int>(site)];
  if (state.fired || site != state.site || call != state.nth) return VK_SUCCESS;
  state.fired = true;
  Log(LogLevel::kInfo, "fault injection: failing ", FaultSiteName(site), " call ", call, " with ",
      VkResultName(state.result));
  return state.result;
}

absl::Status InjectFaultFromSpec(absl::string_view spec) {
  const std::vector<absl::string_view> parts = absl::StrSplit(spec, ':');
  if (parts.size() != 3) {
    return Error(ErrorCode::kInvalidValue, "fault spec '", spec, "' is not <site>:<n>:<result>");
  }
  int site = 0;
  while (site < kFaultSiteCount && parts[0] != FaultSiteName(static_cast<FaultSite>(site))) ++site;
  if (site == kFaultSiteCount) {
    return Error(ErrorCode::kInvalidValue, "fault spec: unknown site '", parts[0], "'");
  }
  uint64_t nth = 0;
  if (!absl::SimpleAtoi(parts[1], &nth) || nth == 0) {
    return Error(ErrorCode::kInvalidValue, "fault spec: '", parts[1], "' is not a call number");
  }
  for (VkResult result : kInjectableResults) {
    if (parts[2] == VkResultName(result)) {
      InjectFault(static_cast<FaultSite>(site), nth, result);
      return absl::OkStatus();
    }
  }
  return Error(ErrorCode::kInvalidValue, "fault spec: unknown result '", parts[2], "'");
}

void InjectFaultFromEnvironment() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char* spec = std::getenv("STREAMHAL_VK_FAULT");
    if (spec == nullptr || *spec == '\0') return;
    absl::Status status = InjectFaultFromSpec(spec);
    if (!status.ok()) Log(LogLevel::kError, "STREAMHAL_VK_FAULT: ", status.message());
  });
}

}  // namespace streamhal::vk
