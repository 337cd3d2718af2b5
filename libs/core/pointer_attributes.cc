#include "core/pointer_attributes.h"

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/c_enum.h"
#include "core/context.h"
#include "core/device.h"
#include "core/mem_pool.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"

namespace streamhal {
namespace {

template <typename T>
void Put(void* data, T value) {
  std::memcpy(data, &value, sizeof(value));
}

bool IsKnownAttribute(int attribute) {
  return attribute >= static_cast<int>(PointerAttribute::kContext) &&
         attribute <= static_cast<int>(PointerAttribute::kMemoryBlockId);
}

unsigned MemoryTypeCode(PointerMemoryType type, const MemoryTypeCodes& codes) {
  switch (type) {
    case PointerMemoryType::kHost:
      return codes.host;
    case PointerMemoryType::kDevice:
      return codes.device;
    case PointerMemoryType::kManaged:
      return codes.managed;
    case PointerMemoryType::kUnregistered:
      break;
  }
  return 0;
}

// Attributes a Vulkan device cannot answer: P2P tokens are GPUDirect RDMA
// handles for third-party devices.
absl::Status CheckAnswerable(int attribute, const char* what) {
  if (!IsKnownAttribute(attribute)) {
    return Error(ErrorCode::kInvalidValue, what, ": unknown attribute ", attribute);
  }
  if (attribute == static_cast<int>(PointerAttribute::kP2pTokens)) {
    return Error(ErrorCode::kNotSupported, what,
                 ": CU_POINTER_ATTRIBUTE_P2P_TOKENS (GPUDirect RDMA) is not available");
  }
  return absl::OkStatus();
}

// Writes `attribute` of `info` (known or not: unknown pointers write the
// zero values).
void Write(void* data, PointerAttribute attribute, const PointerInfo& info,
           const MemoryTypeCodes& codes) {
  switch (attribute) {
    case PointerAttribute::kContext:
      Put(data, reinterpret_cast<void*>(static_cast<uintptr_t>(info.context)));
      break;
    case PointerAttribute::kMemoryType:
      Put(data, MemoryTypeCode(info.type, codes));
      break;
    case PointerAttribute::kDevicePointer:
      Put(data, info.device_pointer);
      break;
    case PointerAttribute::kHostPointer:
      Put(data, info.host_pointer);
      break;
    case PointerAttribute::kP2pTokens:
      break;  // rejected before
    case PointerAttribute::kSyncMemops:
      Put(data, info.sync_memops);
      break;
    case PointerAttribute::kBufferId:
    case PointerAttribute::kMemoryBlockId:
      Put(data, info.buffer_id);
      break;
    case PointerAttribute::kIsManaged:
      Put(data, info.is_managed);
      break;
    case PointerAttribute::kDeviceOrdinal:
      Put(data, info.device_ordinal);
      break;
    // No allocation can be shared through cuIpcGetMemHandle, exported as a
    // handle (only cuMemCreate allocations are) or reached by third-party
    // devices.
    case PointerAttribute::kIsLegacyIpcCapable:
    case PointerAttribute::kIsGpuDirectRdmaCapable:
      Put(data, false);
      break;
    case PointerAttribute::kAllowedHandleTypes:
      Put(data, uint64_t{0});
      break;
    case PointerAttribute::kRangeStartAddr:
      Put(data, info.range_start);
      break;
    case PointerAttribute::kRangeSize:
      Put(data, static_cast<size_t>(info.range_size));
      break;
    case PointerAttribute::kMapped:
      Put(data, info.known);
      break;
    case PointerAttribute::kAccessFlags:
      Put(data, info.access_flags);
      break;
    case PointerAttribute::kMempoolHandle:
      Put(data, reinterpret_cast<void*>(static_cast<uintptr_t>(info.mem_pool)));
      break;
    // Every allocation is mapped whole, at one range.
    case PointerAttribute::kMappingSize:
      Put(data, static_cast<size_t>(info.range_size));
      break;
    case PointerAttribute::kMappingBaseAddr:
      Put(data, reinterpret_cast<void*>(static_cast<uintptr_t>(info.range_start)));
      break;
  }
}

}  // namespace

absl::StatusOr<PointerInfo> DescribePointer(uint64_t ptr) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  PointerInfo info;
  if (ptr == 0) return info;
  ResolvedPointer resolved = ResolveAnyRange(ptr, 1);
  const Allocation* allocation = resolved.allocation;
  if (allocation == nullptr) return info;
  // The address may name the allocation by its device or its host address;
  // where the two differ (a discrete GPU's pinned memory) the offset is
  // taken from the side that matched.
  uint64_t offset = ptr - allocation->device_address();
  if (ptr < allocation->device_address() || offset >= allocation->size) {
    offset = ptr - reinterpret_cast<uintptr_t>(allocation->host);
  }
  info.known = true;
  switch (allocation->kind) {
    case AllocationKind::kDevice:
      info.type = PointerMemoryType::kDevice;
      break;
    case AllocationKind::kHostAllocated:
    case AllocationKind::kHostRegistered:
      info.type = PointerMemoryType::kHost;
      break;
    case AllocationKind::kManaged:
      info.type = PointerMemoryType::kManaged;
      break;
  }
  // CUDA: stream-ordered allocations belong to no context.
  info.context = allocation->pool != nullptr ? 0 : allocation->context->handle();
  info.device_ordinal = allocation->context->device()->ordinal();
  info.device_pointer = allocation->device_address() + offset;
  info.host_pointer =
      allocation->host != nullptr ? static_cast<char*>(allocation->host) + offset : nullptr;
  info.range_start = allocation->device_address();
  info.range_size = allocation->size;
  info.buffer_id = allocation->buffer_id;
  info.sync_memops = allocation->sync_memops.load(std::memory_order_relaxed);
  info.is_managed = allocation->kind == AllocationKind::kManaged;
  info.access_flags = allocation->kind == AllocationKind::kHostRegistered &&
                              (allocation->host_flags & kHostRegisterReadOnly) != 0
                          ? kPointerAccessRead
                          : kPointerAccessReadWrite;
  info.allocation_flags = allocation->host_flags;
  info.mem_pool = allocation->pool != nullptr ? allocation->pool->handle() : 0;
  return info;
}

absl::Status PointerGetAttribute(void* data, int attribute, uint64_t ptr,
                                 const MemoryTypeCodes& codes) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  constexpr const char* kWhat = "cuPointerGetAttribute";
  if (data == nullptr) return Error(ErrorCode::kInvalidValue, kWhat, ": data is null");
  SH_RETURN_IF_ERROR(CheckAnswerable(attribute, kWhat));
  SH_ASSIGN_OR_RETURN(PointerInfo info, DescribePointer(ptr));
  if (!info.known) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": 0x", absl::Hex(ptr),
                 " was not allocated, registered or mapped by any context");
  }
  const auto which = static_cast<PointerAttribute>(attribute);
  if (which == PointerAttribute::kHostPointer && info.host_pointer == nullptr) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": 0x", absl::Hex(ptr),
                 " is device memory the host cannot access");
  }
  Write(data, which, info, codes);
  return absl::OkStatus();
}

absl::Status PointerGetAttributes(unsigned num_attributes, const void* attributes, void** data,
                                  uint64_t ptr, const MemoryTypeCodes& codes) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  constexpr const char* kWhat = "cuPointerGetAttributes";
  if (num_attributes == 0) return Error(ErrorCode::kInvalidValue, kWhat, ": numAttributes is 0");
  if (attributes == nullptr || data == nullptr) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": attributes and data must not be null");
  }
  for (unsigned i = 0; i < num_attributes; ++i) {
    if (data[i] == nullptr) {
      return Error(ErrorCode::kInvalidValue, kWhat, ": data[", i, "] is null");
    }
    SH_RETURN_IF_ERROR(CheckAnswerable(EnumArrayElement(attributes, i), kWhat));
  }
  SH_ASSIGN_OR_RETURN(PointerInfo info, DescribePointer(ptr));
  for (unsigned i = 0; i < num_attributes; ++i) {
    Write(data[i], static_cast<PointerAttribute>(EnumArrayElement(attributes, i)), info, codes);
  }
  return absl::OkStatus();
}

absl::Status PointerSetAttribute(const void* value, int attribute, uint64_t ptr) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  constexpr const char* kWhat = "cuPointerSetAttribute";
  if (value == nullptr) return Error(ErrorCode::kInvalidValue, kWhat, ": value is null");
  if (attribute != static_cast<int>(PointerAttribute::kSyncMemops)) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": attribute ", attribute,
                 " cannot be set (only CU_POINTER_ATTRIBUTE_SYNC_MEMOPS can)");
  }
  ResolvedPointer resolved = ResolveAnyRange(ptr, 1);
  if (ptr == 0 || resolved.allocation == nullptr) {
    return Error(ErrorCode::kInvalidValue, kWhat, ": 0x", absl::Hex(ptr),
                 " is not inside any allocation");
  }
  unsigned flag = 0;
  std::memcpy(&flag, value, sizeof(flag));
  if (flag != 0) {
    // CUDA: synchronous memory operations still pending on the region
    // finish before this returns.
    SH_RETURN_IF_ERROR(resolved.allocation->context->Synchronize());
  }
  resolved.allocation->sync_memops.store(flag != 0, std::memory_order_relaxed);
  return absl::OkStatus();
}

}  // namespace streamhal
