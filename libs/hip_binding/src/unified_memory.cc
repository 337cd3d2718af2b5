// Managed memory and pointer attributes (hipMallocManaged, hipMemAdvise,
// hipMemPrefetchAsync, hipMemRangeGetAttribute(s), hipStreamAttachMemAsync,
// hipPointerGetAttribute(s), hipPointerSetAttribute).
#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"
#include "core/managed_memory.h"
#include "core/pointer_attributes.h"

using streamhal::EnumArgument;
using streamhal::HandleValue;
using streamhal::ManagedApi;
using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;
using streamhal::hip::WriteOut;

namespace {

constexpr streamhal::MemoryTypeCodes kMemoryTypes = {hipMemoryTypeHost, hipMemoryTypeDevice,
                                                     hipMemoryTypeManaged};

}  // namespace

extern "C" {

hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAllocManaged(dev_ptr ? &value : nullptr, size, flags), dev_ptr,
                    value);
  });
}

hipError_t hipStreamAttachMemAsync(hipStream_t stream, void* dev_ptr, size_t length,
                                   unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamAttachMem(HandleValue(stream), Address(dev_ptr), length, flags);
  });
}

hipError_t hipMemAdvise(const void* dev_ptr, size_t count, hipMemoryAdvise advice, int device) {
  return RuntimeCall([&] {
    return streamhal::MemAdvise(Address(dev_ptr), count, EnumArgument(advice), device,
                                ManagedApi::kHip);
  });
}

hipError_t hipMemPrefetchAsync(const void* dev_ptr, size_t count, int device, hipStream_t stream) {
  return RuntimeCall(
      [&] { return streamhal::MemPrefetch(Address(dev_ptr), count, device, HandleValue(stream)); });
}

hipError_t hipMemRangeGetAttribute(void* data, size_t data_size, hipMemRangeAttribute attribute,
                                   const void* dev_ptr, size_t count) {
  return RuntimeCall([&] {
    return streamhal::MemRangeGetAttribute(data, data_size, EnumArgument(attribute),
                                           Address(dev_ptr), count, ManagedApi::kHip);
  });
}

hipError_t hipMemRangeGetAttributes(void** data, size_t* data_sizes,
                                    hipMemRangeAttribute* attributes, size_t num_attributes,
                                    const void* dev_ptr, size_t count) {
  return RuntimeCall([&] {
    return streamhal::MemRangeGetAttributes(data, data_sizes, attributes, num_attributes,
                                            Address(dev_ptr), count, ManagedApi::kHip);
  });
}

hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute, hipDeviceptr_t ptr) {
  return RuntimeCall([&] {
    return streamhal::PointerGetAttribute(data, EnumArgument(attribute), Address(ptr),
                                          kMemoryTypes);
  });
}

hipError_t hipDrvPointerGetAttributes(unsigned int numAttributes, hipPointer_attribute* attributes,
                                      void** data, hipDeviceptr_t ptr) {
  return RuntimeCall([&] {
    return streamhal::PointerGetAttributes(numAttributes, attributes, data, Address(ptr),
                                           kMemoryTypes);
  });
}

hipError_t hipPointerSetAttribute(const void* value, hipPointer_attribute attribute,
                                  hipDeviceptr_t ptr) {
  return RuntimeCall(
      [&] { return streamhal::PointerSetAttribute(value, EnumArgument(attribute), Address(ptr)); });
}

// ROCm 6: a pointer HIP does not know is unregistered memory, not an error;
// the other fields are zero then.
hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  return RuntimeCall([&]() -> absl::Status {
    if (attributes == nullptr || ptr == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipPointerGetAttributes: attributes and ptr must not be null");
    }
    SH_ASSIGN_OR_RETURN(streamhal::PointerInfo info, streamhal::DescribePointer(Address(ptr)));
    hipPointerAttribute_t out = {};
    switch (info.type) {
      case streamhal::PointerMemoryType::kUnregistered:
        out.type = hipMemoryTypeUnregistered;
        break;
      case streamhal::PointerMemoryType::kHost:
        out.type = hipMemoryTypeHost;
        break;
      case streamhal::PointerMemoryType::kDevice:
        out.type = hipMemoryTypeDevice;
        break;
      case streamhal::PointerMemoryType::kManaged:
        out.type = hipMemoryTypeManaged;
        break;
    }
    if (info.known) {
      out.device = info.device_ordinal;
      out.devicePointer = streamhal::hip::Pointer(info.device_pointer);
      out.hostPointer = info.host_pointer;
      out.isManaged = info.is_managed ? 1 : 0;
      out.allocationFlags = info.allocation_flags;
    }
    *attributes = out;
    return absl::OkStatus();
  });
}

}  // extern "C"
