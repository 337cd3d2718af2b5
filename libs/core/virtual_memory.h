// Virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess, ... and the hip* twins).
//
// Vulkan has no way to place device memory at an address the program picks
// (sparse binding aside, which lavapipe lacks). On devices whose device
// addresses are host addresses (lavapipe; any device where importing host
// memory gives a buffer at the host address), the runtime owns both sides:
//   - a physical allocation is an anonymous shared memory file (memfd), so it
//     can be mapped several times and exported as a POSIX file descriptor;
//   - a reserved range is host address space reserved with no access;
//   - mapping puts the file at the reserved address;
//   - granting access imports each maximal run of accessible mappings into
//     the device as one host-memory import, so a kernel or a copy can cross
//     from one physical allocation into the next.
// Elsewhere every call returns kNotSupported and
// CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED is 0.
#ifndef STREAMHAL_CORE_VIRTUAL_MEMORY_H_
#define STREAMHAL_CORE_VIRTUAL_MEMORY_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/mem_pool.h"

namespace streamhal {

class Device;
struct Allocation;

// CUmemAllocationGranularity_flags.
inline constexpr int kGranularityMinimum = 0;
inline constexpr int kGranularityRecommended = 1;

// CUmemAllocationProp / hipMemAllocationProp, as the bindings read them.
struct MemAllocationProps {
  int type = kMemAllocationTypePinned;
  int requested_handle_types = kMemHandleTypeNone;
  int location_type = kMemLocationTypeDevice;
  int location_id = 0;
};

// Whether `device` can serve these calls (probed once per device).
bool VirtualMemorySupported(Device* device);

// --- Validated entry points ---
absl::Status MemGetAllocationGranularity(size_t* granularity, const MemAllocationProps* prop,
                                         int option);
// `size` a multiple of the minimum granularity; flags 0.
absl::Status MemCreate(uint64_t* handle, size_t size, const MemAllocationProps* prop,
                       unsigned long long flags);
// The memory lives on while mapped.
absl::Status MemRelease(uint64_t handle);
absl::Status MemAddressReserve(uint64_t* ptr, size_t size, size_t alignment, uint64_t addr,
                               unsigned long long flags);
// Unmaps whatever is still mapped in the range first.
absl::Status MemAddressFree(uint64_t ptr, size_t size);
// [ptr, ptr + size) must lie in one reserved range and overlap no mapping.
absl::Status MemMap(uint64_t ptr, size_t size, size_t offset, uint64_t handle,
                    unsigned long long flags);
// [ptr, ptr + size) must be exactly a run of whole mappings.
absl::Status MemUnmap(uint64_t ptr, size_t size);
// [ptr, ptr + size) must be a run of whole mappings; read-write access or
// none (read-only access is kNotSupported: host-memory imports are
// writable).
absl::Status MemSetAccess(uint64_t ptr, size_t size, const MemAccessDesc* desc, size_t count);
absl::Status MemGetAccess(unsigned long long* flags, const MemAccessDesc* location, uint64_t ptr);
// POSIX file descriptors only; the allocation must have been created with
// that handle type. The caller owns the descriptor written.
absl::Status MemExportToShareableHandle(void* shareable_handle, uint64_t handle, int handle_type,
                                        unsigned long long flags);
absl::Status MemImportFromShareableHandle(uint64_t* handle, void* os_handle, int handle_type);
absl::Status MemGetAllocationPropertiesFromHandle(MemAllocationProps* prop, uint64_t handle);
// The allocation mapped at `addr`; the caller releases it with MemRelease.
absl::Status MemRetainAllocationHandle(uint64_t* handle, uint64_t addr);

// Context teardown destroys the imports made while it was current.
void VirtualMemoryForget(Allocation* import);
// Deinit: frees every reservation and physical allocation.
void ReleaseAllVirtualMemory();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_VIRTUAL_MEMORY_H_
