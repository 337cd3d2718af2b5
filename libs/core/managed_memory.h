// Managed memory (cuMemAllocManaged, hipMallocManaged) and its hints:
// attachment to streams, advice, prefetches and the range attributes that
// report them.
//
// A managed pointer has one value on the host and the device. The device
// gives that where host-visible memory is mapped at its own device address
// (DeviceProperties::managed_memory, probed when the device is created);
// there, managed memory is such memory and both sides touch it coherently at
// any time, so attachment, advice and prefetches move no data: they are
// validated, remembered and reported, and prefetches keep their place in the
// stream. Elsewhere cuMemAllocManaged is kNotSupported.
#ifndef STREAMHAL_CORE_MANAGED_MEMORY_H_
#define STREAMHAL_CORE_MANAGED_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <functional>

#include "absl/container/btree_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"

namespace streamhal {

// cuMemAllocManaged / cuStreamAttachMemAsync flags (HIP: hipMemAttach*).
inline constexpr unsigned kMemAttachGlobal = 0x1;
inline constexpr unsigned kMemAttachHost = 0x2;
inline constexpr unsigned kMemAttachSingle = 0x4;

// Locations (CUdevice values): the host, and "no single location".
inline constexpr int kDeviceCpu = -1;
inline constexpr int kDeviceInvalid = -2;

// CUmem_advise values; the last two are HIP's (hipMemAdviseSetCoarseGrain).
enum class MemAdvice : int {
  kSetReadMostly = 1,
  kUnsetReadMostly = 2,
  kSetPreferredLocation = 3,
  kUnsetPreferredLocation = 4,
  kSetAccessedBy = 5,
  kUnsetAccessedBy = 6,
  kSetCoarseGrain = 100,
  kUnsetCoarseGrain = 101,
};

// CUmem_range_attribute values; the last is HIP's
// (hipMemRangeAttributeCoherencyMode).
enum class MemRangeAttribute : int {
  kReadMostly = 1,
  kPreferredLocation = 2,
  kAccessedBy = 3,
  kLastPrefetchLocation = 4,
  kCoherencyMode = 100,
};

// Which API's values a call accepts: HIP adds coarse-grain advice and the
// coherency-mode attribute.
enum class ManagedApi { kCuda, kHip };

// What was advised and prefetched for one run of pages.
struct ManagedPageState {
  bool read_mostly = false;
  int preferred_location = kDeviceInvalid;
  // Devices that set-accessed-by named: bit 0 the host, bit d + 1 device d.
  uint64_t accessed_by = 0;
  int last_prefetch_location = kDeviceInvalid;
  bool coarse_grain = false;

  bool operator==(const ManagedPageState& other) const {
    return read_mostly == other.read_mostly && preferred_location == other.preferred_location &&
           accessed_by == other.accessed_by &&
           last_prefetch_location == other.last_prefetch_location &&
           coarse_grain == other.coarse_grain;
  }
};

// The hints of one managed allocation (Allocation::managed). Advice is kept
// per page, as CUDA keeps it: a run of pages with the same state is one
// entry, keyed by its first byte offset; the entries cover the allocation.
struct ManagedState {
  explicit ManagedState(uint64_t size, unsigned flags);

  Mutex mutex;
  uint64_t size;
  unsigned attach_flags ABSL_GUARDED_BY(mutex);
  uint64_t attached_stream ABSL_GUARDED_BY(mutex) = 0;  // kMemAttachSingle
  absl::btree_map<uint64_t, ManagedPageState> runs ABSL_GUARDED_BY(mutex);
};

// --- Validated entry points ---
absl::Status MemAllocManaged(uint64_t* dptr, size_t bytes, unsigned flags);
absl::Status StreamAttachMem(uint64_t stream, uint64_t dptr, size_t length, unsigned flags);
absl::Status MemAdvise(uint64_t dptr, size_t count, int advice, int device, ManagedApi api);
absl::Status MemPrefetch(uint64_t dptr, size_t count, int device, uint64_t stream);
// One range of a batch (cuMemPrefetchBatchAsync and the discards of CUDA
// 13.0): prefetched to `device` (a device or kDeviceCpu), or only
// discarded (kDeviceInvalid).
struct ManagedBatchRange {
  uint64_t dptr = 0;
  size_t size = 0;
  int device = kDeviceInvalid;
};
// Validates every range (`range(i)` for i below `count`, which fails for a
// bad location) before it touches any; then, in stream order, as MemPrefetch for each range with a
// device. A discard leaves the contents as they are: CUDA makes them
// indeterminate, which they may stay. The ranges are read twice, not
// copied, so a huge count allocates nothing.
absl::Status MemBatchPrefetch(size_t count,
                              const std::function<absl::StatusOr<ManagedBatchRange>(size_t)>& range,
                              uint64_t stream, const char* what);
absl::Status MemRangeGetAttribute(void* data, size_t data_size, int attribute, uint64_t dptr,
                                  size_t count, ManagedApi api);
// Every output is written only when every attribute is valid.
// `attributes` is a C array of CUmem_range_attribute (int-sized enums).
absl::Status MemRangeGetAttributes(void** data, const size_t* data_sizes, const void* attributes,
                                   size_t num_attributes, uint64_t dptr, size_t count,
                                   ManagedApi api);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_MANAGED_MEMORY_H_
