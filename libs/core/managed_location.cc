#include "core/managed_location.h"

#include <algorithm>
#include <cstdint>

#include "absl/status/statusor.h"
#include "core/context.h"
#include "core/managed_memory.h"
#include "core/status.h"

namespace streamhal {
namespace {

// The device ordinal (or kDeviceCpu) of a location. Host NUMA locations are
// the host; `allow_numa` is false where CUDA accepts only a device or the
// host (CU_MEM_ADVISE_SET_ACCESSED_BY).
absl::StatusOr<int> LocationDevice(int type, int id, bool allow_numa, const char* what) {
  switch (type) {
    case kMemLocationDevice:
      // Negative ordinals are not devices here (CU_DEVICE_CPU is a
      // CUdevice, not a location id).
      if (id < 0)
        return Error(ErrorCode::kInvalidDevice, what, ": location id ", id, " is not a device");
      return id;
    case kMemLocationHost:
      return kDeviceCpu;
    case kMemLocationHostNumaCurrent:
      if (allow_numa) return kDeviceCpu;
      break;
    case kMemLocationHostNuma:
      if (!allow_numa) break;
      if (id != 0) {
        return Error(ErrorCode::kInvalidValue, what, ": host NUMA node ", id,
                     " does not exist (the host is node 0)");
      }
      return kDeviceCpu;
    default:
      break;
  }
  return Error(ErrorCode::kInvalidValue, what, ": location type ", type, " is not valid here");
}

}  // namespace

absl::Status MemAdviseAtLocation(uint64_t dptr, size_t count, int advice, int location_type,
                                 int location_id) {
  constexpr const char* kWhat = "cuMemAdvise_v2";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  // CUDA: read-mostly advice and unsetting the preferred location ignore
  // the location; unknown advice is MemAdvise's to report.
  int device = kDeviceInvalid;
  switch (static_cast<MemAdvice>(advice)) {
    case MemAdvice::kSetPreferredLocation: {
      SH_ASSIGN_OR_RETURN(device, LocationDevice(location_type, location_id, true, kWhat));
      break;
    }
    case MemAdvice::kSetAccessedBy:
    case MemAdvice::kUnsetAccessedBy: {
      SH_ASSIGN_OR_RETURN(device, LocationDevice(location_type, location_id, false, kWhat));
      break;
    }
    default:
      break;
  }
  return MemAdvise(dptr, count, advice, device, ManagedApi::kCuda);
}

absl::Status MemPrefetchToLocation(uint64_t dptr, size_t count, int location_type, int location_id,
                                   unsigned flags, uint64_t stream) {
  constexpr const char* kWhat = "cuMemPrefetchAsync_v2";
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (flags != 0) return Error(ErrorCode::kInvalidValue, kWhat, ": flags must be 0, not ", flags);
  SH_ASSIGN_OR_RETURN(int device, LocationDevice(location_type, location_id, true, kWhat));
  return MemPrefetch(dptr, count, device, stream);
}

absl::Status MemBatchAsync(const char* api, const unsigned long long* dptrs, const size_t* sizes,
                           size_t count, bool prefetch,
                           const std::function<MemLocationArg(size_t)>& location,
                           const size_t* location_starts, size_t location_count,
                           unsigned long long flags, uint64_t stream) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  if (dptrs == nullptr || sizes == nullptr || count == 0) {
    return Error(ErrorCode::kInvalidValue, api, ": dptrs and sizes must name at least one range");
  }
  // Two arrays of `count` entries larger than the address space cannot be
  // there to read.
  if (count > SIZE_MAX / (sizeof(*dptrs) + sizeof(*sizes))) {
    return Error(ErrorCode::kInvalidValue, api, ": count ", count, " is larger than any batch");
  }
  if (flags != 0) return Error(ErrorCode::kInvalidValue, api, ": flags must be 0, not ", flags);
  if (prefetch) {
    if (!location || location_starts == nullptr || location_count == 0 || location_count > count) {
      return Error(ErrorCode::kInvalidValue, api,
                   ": prefetchLocs and prefetchLocIdxs must name 1 to count locations");
    }
    for (size_t j = 0; j < location_count; ++j) {
      const bool rises =
          j == 0 ? location_starts[0] == 0 : location_starts[j] > location_starts[j - 1];
      if (!rises || location_starts[j] >= count) {
        return Error(ErrorCode::kInvalidValue, api, ": prefetchLocIdxs[", j,
                     "] = ", location_starts[j],
                     " does not start a run of ranges (the first is 0; each is above the last)");
      }
    }
  }
  auto range = [&](size_t i) -> absl::StatusOr<ManagedBatchRange> {
    ManagedBatchRange r;
    r.dptr = dptrs[i];
    r.size = sizes[i];
    if (prefetch) {
      // The run of the last start at or below i.
      const size_t* run = std::upper_bound(location_starts, location_starts + location_count, i);
      const MemLocationArg where = location(static_cast<size_t>(run - location_starts) - 1);
      SH_ASSIGN_OR_RETURN(r.device, LocationDevice(where.type, where.id, true, api));
    }
    return r;
  };
  return MemBatchPrefetch(count, range, stream, api);
}

}  // namespace streamhal
