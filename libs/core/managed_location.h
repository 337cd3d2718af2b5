// Managed-memory hints addressed by location: CUDA 12.2's cuMemAdvise_v2 and
// cuMemPrefetchAsync_v2 (the plain names in CUDA 13.0) take a CUmemLocation
// where the older forms take a CUdevice. Each is converted to the device
// ordinal (or kDeviceCpu) the managed-memory entry points take. streamhal
// presents the host as one NUMA node, id 0.
#ifndef STREAMHAL_CORE_MANAGED_LOCATION_H_
#define STREAMHAL_CORE_MANAGED_LOCATION_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace streamhal {

// CUmemLocationType values.
inline constexpr int kMemLocationDevice = 1;
inline constexpr int kMemLocationHost = 2;
inline constexpr int kMemLocationHostNuma = 3;
inline constexpr int kMemLocationHostNumaCurrent = 4;

absl::Status MemAdviseAtLocation(uint64_t dptr, size_t count, int advice, int location_type,
                                 int location_id);
absl::Status MemPrefetchToLocation(uint64_t dptr, size_t count, int location_type, int location_id,
                                   unsigned flags, uint64_t stream);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MANAGED_LOCATION_H_
