#include "core/graph_memory.h"

#include "absl/container/flat_hash_map.h"
#include "core/context.h"
#include "core/device.h"
#include "core/memory.h"
#include "core/mutex.h"
#include "core/runtime.h"
#include "core/status.h"

namespace streamhal {
namespace {

// Graph memory per device ordinal: bytes held now, and the most held since
// the watermark was last reset.
struct Usage {
  uint64_t current = 0;
  uint64_t high = 0;
};

Mutex& UsageMutex() {
  static Mutex* mutex = new Mutex;
  return *mutex;
}

// Read and written under UsageMutex().
absl::flat_hash_map<int, Usage>& UsageByDevice() {
  static auto* usage = new absl::flat_hash_map<int, Usage>;
  return *usage;
}

void CountGraphMemory(int device, uint64_t bytes, bool add) {
  MutexLock lock(&UsageMutex());
  Usage& usage = UsageByDevice()[device];
  if (add) {
    usage.current += bytes;
    if (usage.current > usage.high) usage.high = usage.current;
  } else {
    usage.current -= bytes < usage.current ? bytes : usage.current;
  }
}

absl::Status CheckAttribute(int device, int attribute, const void* value, const char* api) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_RETURN_IF_ERROR(GetDevice(device).status());
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, api, ": value is null");
  if (attribute < 0 || attribute > static_cast<int>(GraphMemAttribute::kReservedMemHigh)) {
    return Error(ErrorCode::kInvalidValue, api, ": unknown attribute ", attribute);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<GraphMemory>> GraphMemory::Create(Context* context, uint64_t bytes) {
  SH_ASSIGN_OR_RETURN(Allocation * allocation, AllocateDeviceMemory(context, bytes));
  allocation->graph_memory = true;
  const int device = context->device()->ordinal();
  CountGraphMemory(device, bytes, /*add=*/true);
  return std::shared_ptr<GraphMemory>(
      new GraphMemory(allocation->device_address(), bytes, allocation->buffer_id, device));
}

GraphMemory::~GraphMemory() {
  // The memory goes now, or went with its context: either way the device
  // no longer holds it for graphs.
  CountGraphMemory(device_ordinal_, bytes_, /*add=*/false);
  absl::StatusOr<ResolvedPointer> resolved = ResolveDeviceRange(address_, 1, "graph memory");
  if (!resolved.ok() || resolved->offset != 0 || resolved->allocation->buffer_id != buffer_id_) {
    return;  // freed with its context
  }
  (void)FreeAllocation(resolved->allocation);
}

absl::Status DeviceGetGraphMemAttribute(int device, int attribute, uint64_t* value) {
  SH_RETURN_IF_ERROR(CheckAttribute(device, attribute, value, "cuDeviceGetGraphMemAttribute"));
  MutexLock lock(&UsageMutex());
  const Usage& usage = UsageByDevice()[device];
  switch (static_cast<GraphMemAttribute>(attribute)) {
    case GraphMemAttribute::kUsedMemCurrent:
    case GraphMemAttribute::kReservedMemCurrent:
      *value = usage.current;
      break;
    case GraphMemAttribute::kUsedMemHigh:
    case GraphMemAttribute::kReservedMemHigh:
      *value = usage.high;
      break;
  }
  return absl::OkStatus();
}

absl::Status DeviceSetGraphMemAttribute(int device, int attribute, const uint64_t* value) {
  SH_RETURN_IF_ERROR(CheckAttribute(device, attribute, value, "cuDeviceSetGraphMemAttribute"));
  const auto which = static_cast<GraphMemAttribute>(attribute);
  if (which != GraphMemAttribute::kUsedMemHigh && which != GraphMemAttribute::kReservedMemHigh) {
    return Error(ErrorCode::kInvalidValue,
                 "cuDeviceSetGraphMemAttribute: only the high watermarks can be reset");
  }
  if (*value != 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuDeviceSetGraphMemAttribute: a high watermark can only be reset to 0");
  }
  // Used and reserved memory are the same here, so both watermarks reset.
  MutexLock lock(&UsageMutex());
  Usage& usage = UsageByDevice()[device];
  usage.high = usage.current;
  return absl::OkStatus();
}

absl::Status DeviceGraphMemTrim(int device) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  return GetDevice(device).status();
}

}  // namespace streamhal
