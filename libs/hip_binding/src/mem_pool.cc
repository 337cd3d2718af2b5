// Stream-ordered allocation and memory pools (hipMallocAsync, hipFreeAsync,
// hipMemPool*, hipDevice{Get,Set,GetDefault}MemPool).
#include "core/mem_pool.h"

#include <hip/hip_runtime_api.h>

#include <vector>

#include "call.h"
#include "core/c_enum.h"

using streamhal::EnumArgument;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::Address;
using streamhal::hip::Call;
using streamhal::hip::Pointer;
using streamhal::hip::RuntimeCall;
using streamhal::hip::WriteOut;

extern "C" {

hipError_t hipMallocAsync(void** dev_ptr, size_t size, hipStream_t stream) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAllocAsync(dev_ptr ? &value : nullptr, size, HandleValue(stream)),
                    dev_ptr, value);
  });
}

hipError_t hipMallocFromPoolAsync(void** dev_ptr, size_t size, hipMemPool_t mem_pool,
                                  hipStream_t stream) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAllocFromPoolAsync(dev_ptr ? &value : nullptr, size,
                                                     HandleValue(mem_pool), HandleValue(stream)),
                    dev_ptr, value);
  });
}

hipError_t hipFreeAsync(void* dev_ptr, hipStream_t stream) {
  return RuntimeCall(
      [&] { return streamhal::MemFreeAsync(Address(dev_ptr), HandleValue(stream)); });
}

hipError_t hipMemPoolCreate(hipMemPool_t* mem_pool, const hipMemPoolProps* pool_props) {
  return Call([&] {
    if (pool_props == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipMemPoolCreate: pool_props is null");
    }
    return streamhal::MemPoolCreate(HandleOut(mem_pool), streamhal::ToMemPoolProps(*pool_props));
  });
}

hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
  return Call([&] { return streamhal::MemPoolDestroy(HandleValue(mem_pool)); });
}

hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold) {
  return Call([&] { return streamhal::MemPoolTrimTo(HandleValue(mem_pool), min_bytes_to_hold); });
}

hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value) {
  return Call([&] {
    return streamhal::MemPoolSetAttribute(HandleValue(mem_pool), EnumArgument(attr), value);
  });
}

hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void* value) {
  return Call([&] {
    return streamhal::MemPoolGetAttribute(HandleValue(mem_pool), EnumArgument(attr), value);
  });
}

hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc* desc_list,
                               size_t count) {
  return Call([&] {
    if ((desc_list == nullptr && count != 0) || count > streamhal::kMaxAccessDescs) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipMemPoolSetAccess: desc_list is null or count is too large");
    }
    std::vector<streamhal::MemAccessDesc> descs;
    descs.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      streamhal::MemAccessDesc desc;
      desc.location_type = EnumArgument(desc_list[i].location.type);
      desc.location_id = desc_list[i].location.id;
      desc.flags = EnumArgument(desc_list[i].flags);
      descs.push_back(desc);
    }
    return streamhal::MemPoolSetAccess(HandleValue(mem_pool), descs.data(), descs.size());
  });
}

hipError_t hipMemPoolGetAccess(hipMemAccessFlags* flags, hipMemPool_t mem_pool,
                               hipMemLocation* location) {
  return Call([&] {
    streamhal::MemAccessDesc where;
    if (location != nullptr) {
      where.location_type = EnumArgument(location->type);
      where.location_id = location->id;
    }
    int value = 0;
    absl::Status status = streamhal::MemPoolGetAccess(
        flags ? &value : nullptr, HandleValue(mem_pool), location ? &where : nullptr);
    if (status.ok()) *flags = static_cast<hipMemAccessFlags>(value);
    return status;
  });
}

hipError_t hipMemPoolExportToShareableHandle(void* shared_handle, hipMemPool_t mem_pool,
                                             hipMemAllocationHandleType handle_type,
                                             unsigned int flags) {
  return Call([&] {
    return streamhal::MemPoolExportToShareableHandle(shared_handle, HandleValue(mem_pool),
                                                     EnumArgument(handle_type), flags);
  });
}

hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t* mem_pool, void* shared_handle,
                                               hipMemAllocationHandleType handle_type,
                                               unsigned int flags) {
  return Call([&] {
    // AMD passes the address of the descriptor; core takes the descriptor
    // as CUDA passes it, cast to a pointer (-1 names none).
    const intptr_t fd = shared_handle != nullptr ? *static_cast<const int*>(shared_handle) : -1;
    return streamhal::MemPoolImportFromShareableHandle(
        HandleOut(mem_pool), reinterpret_cast<void*>(fd), EnumArgument(handle_type), flags);
  });
}

hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData* export_data, void* dev_ptr) {
  return RuntimeCall(
      [&] { return streamhal::MemPoolExportPointer(export_data, Address(dev_ptr)); });
}

hipError_t hipMemPoolImportPointer(void** dev_ptr, hipMemPool_t mem_pool,
                                   hipMemPoolPtrExportData* export_data) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemPoolImportPointer(dev_ptr ? &value : nullptr,
                                                    HandleValue(mem_pool), export_data),
                    dev_ptr, value);
  });
}

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t* mem_pool, int device) {
  return Call([&] { return streamhal::DeviceGetDefaultMemPool(HandleOut(mem_pool), device); });
}

hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
  return Call([&] { return streamhal::DeviceSetMemPool(device, HandleValue(mem_pool)); });
}

hipError_t hipDeviceGetMemPool(hipMemPool_t* mem_pool, int device) {
  return Call([&] { return streamhal::DeviceGetMemPool(HandleOut(mem_pool), device); });
}

}  // extern "C"
