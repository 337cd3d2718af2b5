// Managed-memory hints addressed by location: CUDA 12.2's cuMemAdvise_v2 and
// cuMemPrefetchAsync_v2 (the plain names in CUDA 13.0) take a CUmemLocation
// where the older forms take a CUdevice. Each is converted to the device
// ordinal (or kDeviceCpu) the managed-memory entry points take. streamhal
// presents the host as one NUMA node, id 0.
#ifndef STREAMHAL_CORE_MANAGED_LOCATION_H_
#define STREAMHAL_CORE_MANAGED_LOCATION_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "absl/status/status.h"

namespace streamhal {

// CUmemLocationType values.
inline constexpr int kMemLocationNone = 0;  // CUDA 13.0; 0 is also INVALID
inline constexpr int kMemLocationDevice = 1;
inline constexpr int kMemLocationHost = 2;
inline constexpr int kMemLocationHostNuma = 3;
inline constexpr int kMemLocationHostNumaCurrent = 4;

absl::Status MemAdviseAtLocation(uint64_t dptr, size_t count, int advice, int location_type,
                                 int location_id);
absl::Status MemPrefetchToLocation(uint64_t dptr, size_t count, int location_type, int location_id,
                                   unsigned flags, uint64_t stream);

// A CUmemLocation as these calls read it.
struct MemLocationArg {
  int type = 0;
  int id = 0;
};
// cuMemPrefetchBatchAsync and cuMemDiscardAndPrefetchBatchAsync (with
// `prefetch`), cuMemDiscardBatchAsync (without; the locations are not
// read). Range i goes to locations[j] for the last j with
// location_starts[j] <= i; location_starts[0] is 0 and the starts rise. A
// discard leaves the contents as they are (CUDA makes them indeterminate).
// Any bad argument is kInvalidValue (kInvalidDevice for a device that does
// not exist) and touches no range. `dptrs` is a CUdeviceptr array, read in
// place (unsigned long long, which uint64_t may not be).
// `location(j)` reads locations[j]; empty for a null array.
absl::Status MemBatchAsync(const char* api, const unsigned long long* dptrs, const size_t* sizes,
                           size_t count, bool prefetch,
                           const std::function<MemLocationArg(size_t)>& location,
                           const size_t* location_starts, size_t location_count,
                           unsigned long long flags, uint64_t stream);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MANAGED_LOCATION_H_
