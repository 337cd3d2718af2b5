// Virtual memory management (hipMemCreate, hipMemAddressReserve, hipMemMap,
// hipMemSetAccess, ...).
#include "core/virtual_memory.h"

#include <hip/hip_runtime_api.h>

#include <vector>

#include "call.h"
#include "core/c_enum.h"

using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ToApiHandle;
using streamhal::hip::Address;
using streamhal::hip::Call;
using streamhal::hip::RuntimeCall;
using streamhal::hip::WriteOut;

namespace {

streamhal::MemAllocationProps ToCore(const hipMemAllocationProp& prop) {
  streamhal::MemAllocationProps core;
  core.type = EnumArgument(prop.type);
  core.requested_handle_types = EnumArgument(prop.requestedHandleTypes);
  core.location_type = EnumArgument(prop.location.type);
  core.location_id = prop.location.id;
  return core;
}

// Writes a generic allocation handle when `status` is OK.
absl::Status WriteHandle(absl::Status status, hipMemGenericAllocationHandle_t* out,
                         const uint64_t& value) {
  if (status.ok() && out != nullptr) *out = ToApiHandle<hipMemGenericAllocationHandle_t>(value);
  return status;
}

}  // namespace

extern "C" {

hipError_t hipMemGetAllocationGranularity(size_t* granularity, const hipMemAllocationProp* prop,
                                          hipMemAllocationGranularity_flags option) {
  return Call([&] {
    streamhal::MemAllocationProps core;
    if (prop != nullptr) core = ToCore(*prop);
    return streamhal::MemGetAllocationGranularity(granularity, prop ? &core : nullptr,
                                                  EnumArgument(option));
  });
}

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t* handle, size_t size,
                        const hipMemAllocationProp* prop, unsigned long long flags) {
  return Call([&] {
    streamhal::MemAllocationProps core;
    if (prop != nullptr) core = ToCore(*prop);
    uint64_t value = 0;
    return WriteHandle(
        streamhal::MemCreate(handle ? &value : nullptr, size, prop ? &core : nullptr, flags),
        handle, value);
  });
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) {
  return Call([&] { return streamhal::MemRelease(HandleValue(handle)); });
}

hipError_t hipMemAddressReserve(void** ptr, size_t size, size_t alignment, void* addr,
                                unsigned long long flags) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(
        streamhal::MemAddressReserve(ptr ? &value : nullptr, size, alignment, Address(addr), flags),
        ptr, value);
  });
}

hipError_t hipMemAddressFree(void* devPtr, size_t size) {
  return RuntimeCall([&] { return streamhal::MemAddressFree(Address(devPtr), size); });
}

hipError_t hipMemMap(void* ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                     unsigned long long flags) {
  return RuntimeCall(
      [&] { return streamhal::MemMap(Address(ptr), size, offset, HandleValue(handle), flags); });
}

hipError_t hipMemUnmap(void* ptr, size_t size) {
  return RuntimeCall([&] { return streamhal::MemUnmap(Address(ptr), size); });
}

hipError_t hipMemSetAccess(void* ptr, size_t size, const hipMemAccessDesc* desc, size_t count) {
  return RuntimeCall([&] {
    if ((desc == nullptr && count != 0) || count > streamhal::kMaxAccessDescs) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipMemSetAccess: desc is null or count is too large");
    }
    std::vector<streamhal::MemAccessDesc> descs;
    descs.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      streamhal::MemAccessDesc core;
      core.location_type = EnumArgument(desc[i].location.type);
      core.location_id = desc[i].location.id;
      core.flags = EnumArgument(desc[i].flags);
      descs.push_back(core);
    }
    return streamhal::MemSetAccess(Address(ptr), size, descs.empty() ? nullptr : descs.data(),
                                   descs.size());
  });
}

hipError_t hipMemGetAccess(unsigned long long* flags, const hipMemLocation* location, void* ptr) {
  return Call([&] {
    streamhal::MemAccessDesc where;
    if (location != nullptr) {
      where.location_type = EnumArgument(location->type);
      where.location_id = location->id;
    }
    return streamhal::MemGetAccess(flags, location ? &where : nullptr, Address(ptr));
  });
}

hipError_t hipMemExportToShareableHandle(void* shareableHandle,
                                         hipMemGenericAllocationHandle_t handle,
                                         hipMemAllocationHandleType handleType,
                                         unsigned long long flags) {
  return Call([&] {
    return streamhal::MemExportToShareableHandle(shareableHandle, HandleValue(handle),
                                                 EnumArgument(handleType), flags);
  });
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t* handle, void* osHandle,
                                           hipMemAllocationHandleType shHandleType) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteHandle(streamhal::MemImportFromShareableHandle(handle ? &value : nullptr, osHandle,
                                                               EnumArgument(shHandleType)),
                       handle, value);
  });
}

hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp* prop,
                                                   hipMemGenericAllocationHandle_t handle) {
  return Call([&] {
    streamhal::MemAllocationProps core;
    absl::Status status = streamhal::MemGetAllocationPropertiesFromHandle(prop ? &core : nullptr,
                                                                          HandleValue(handle));
    if (status.ok()) {
      *prop = hipMemAllocationProp{};
      prop->type = static_cast<hipMemAllocationType>(core.type);
      prop->requestedHandleTypes =
          static_cast<hipMemAllocationHandleType>(core.requested_handle_types);
      prop->location.type = static_cast<hipMemLocationType>(core.location_type);
      prop->location.id = core.location_id;
    }
    return status;
  });
}

hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t* handle, void* addr) {
  return Call([&] {
    uint64_t value = 0;
    return WriteHandle(
        streamhal::MemRetainAllocationHandle(handle ? &value : nullptr, Address(addr)), handle,
        value);
  });
}

}  // extern "C"
