// Pointer attributes (cuPointerGetAttribute(s), cuPointerSetAttribute,
// hipPointerGetAttributes): what core knows about any address, resolved
// through the allocation map (design decision 3).
#ifndef STREAMHAL_CORE_POINTER_ATTRIBUTES_H_
#define STREAMHAL_CORE_POINTER_ATTRIBUTES_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace streamhal {

// CUpointer_attribute values (HIP's hipPointer_attribute has the same
// numbers up to kMempoolHandle).
enum class PointerAttribute : int {
  kContext = 1,
  kMemoryType = 2,
  kDevicePointer = 3,
  kHostPointer = 4,
  kP2pTokens = 5,
  kSyncMemops = 6,
  kBufferId = 7,
  kIsManaged = 8,
  kDeviceOrdinal = 9,
  kIsLegacyIpcCapable = 10,
  kRangeStartAddr = 11,
  kRangeSize = 12,
  kMapped = 13,
  kAllowedHandleTypes = 14,
  kIsGpuDirectRdmaCapable = 15,
  kAccessFlags = 16,
  kMempoolHandle = 17,
  kMappingSize = 18,
  kMappingBaseAddr = 19,
  kMemoryBlockId = 20,
};

// CU_POINTER_ATTRIBUTE_ACCESS_FLAGS values.
inline constexpr unsigned kPointerAccessRead = 0x1;
inline constexpr unsigned kPointerAccessReadWrite = 0x3;

enum class PointerMemoryType { kUnregistered, kHost, kDevice, kManaged };

// The numbers an API reports for each memory type
// (CU_POINTER_ATTRIBUTE_MEMORY_TYPE: CUmemorytype; HIP: hipMemoryType).
struct MemoryTypeCodes {
  unsigned host = 0;
  unsigned device = 0;
  unsigned managed = 0;
};

// Everything core knows about one address. An address outside every live
// allocation is `known == false` with every other field at its zero value.
struct PointerInfo {
  bool known = false;
  PointerMemoryType type = PointerMemoryType::kUnregistered;
  uint64_t context = 0;  // handle; 0 for pool allocations
  int device_ordinal = 0;
  uint64_t device_pointer = 0;   // the address kernels use for it
  void* host_pointer = nullptr;  // null where the host cannot reach it
  uint64_t range_start = 0;      // device address of the allocation
  uint64_t range_size = 0;
  uint64_t buffer_id = 0;
  bool sync_memops = false;
  bool is_managed = false;
  unsigned access_flags = 0;
  unsigned allocation_flags = 0;  // host-alloc, register or attach flags
  uint64_t mem_pool = 0;          // CUmemoryPool handle, 0 when none
};

absl::StatusOr<PointerInfo> DescribePointer(uint64_t ptr);

// --- Validated entry points ---
// Writes the attribute in the type CUDA documents for it.
absl::Status PointerGetAttribute(void* data, int attribute, uint64_t ptr,
                                 const MemoryTypeCodes& codes);
// Unknown pointers get zero values and succeed (CUDA); nothing is written
// unless every attribute is valid.
// `attributes` is a C array of CUpointer_attribute (int-sized enums).
absl::Status PointerGetAttributes(unsigned num_attributes, const void* attributes, void** data,
                                  uint64_t ptr, const MemoryTypeCodes& codes);
absl::Status PointerSetAttribute(const void* value, int attribute, uint64_t ptr);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_POINTER_ATTRIBUTES_H_
