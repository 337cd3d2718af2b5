// Memory management (hipMalloc, hipFree, hipHostMalloc, hipHostRegister, ...).
#include "core/memory.h"

#include <hip/hip_runtime_api.h>

#include <cstdint>

#include "call.h"
#include "core/status.h"

using streamhal::hip::Address;
using streamhal::hip::RuntimeCall;
using streamhal::hip::WriteOut;

namespace {

// hipMallocPitch has no element size; rows are aligned as for 4-byte
// elements, like CUDA's cudaMallocPitch.
constexpr unsigned kPitchElementBytes = 4;

}  // namespace

extern "C" {

hipError_t hipMalloc(void** ptr, size_t size) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAlloc(ptr ? &value : nullptr, size, /*allow_zero=*/true), ptr,
                    value);
  });
}

hipError_t hipFree(void* ptr) {
  return RuntimeCall([&] { return streamhal::MemFree(Address(ptr), /*allow_null=*/true); });
}

hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAllocPitch(ptr ? &value : nullptr, pitch, width, height,
                                             kPitchElementBytes),
                    ptr, value);
  });
}

// HIP: a pitched allocation of extent.height * extent.depth rows of
// extent.width bytes; the pitched pointer describes it (xsize = width,
// ysize = height). AMD: an empty extent allocates nothing and succeeds with
// a null pointer.
hipError_t hipMalloc3D(hipPitchedPtr* pitchedDevPtr, hipExtent extent) {
  return RuntimeCall([&]() -> absl::Status {
    if (pitchedDevPtr == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipMalloc3D: pitchedDevPtr is null");
    }
    if (extent.width == 0 || extent.height == 0 || extent.depth == 0) {
      *pitchedDevPtr = make_hipPitchedPtr(nullptr, 0, extent.width, extent.height);
      return absl::OkStatus();
    }
    if (extent.depth != 0 && extent.height > SIZE_MAX / extent.depth) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipMalloc3D: height * depth overflows");
    }
    uint64_t value = 0;
    size_t pitch = 0;
    SH_RETURN_IF_ERROR(streamhal::MemAllocPitch(&value, &pitch, extent.width,
                                                extent.height * extent.depth, kPitchElementBytes));
    *pitchedDevPtr =
        make_hipPitchedPtr(streamhal::hip::Pointer(value), pitch, extent.width, extent.height);
    return absl::OkStatus();
  });
}

hipError_t hipMemAllocPitch(hipDeviceptr_t* dptr, size_t* pitch, size_t width_in_bytes,
                            size_t height, unsigned int element_size_bytes) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(streamhal::MemAllocPitch(dptr ? &value : nullptr, pitch, width_in_bytes, height,
                                             element_size_bytes),
                    dptr, value);
  });
}

hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  return RuntimeCall([&] { return streamhal::MemGetInfo(free_bytes, total_bytes); });
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize, hipDeviceptr_t dptr) {
  return RuntimeCall([&] {
    uint64_t base = 0;
    return WriteOut(
        streamhal::MemGetAddressRange(pbase ? &base : nullptr, psize, Address(dptr)), pbase,
        base);
  });
}

hipError_t hipMemPtrGetInfo(void* ptr, size_t* size) {
  return RuntimeCall([&]() -> absl::Status {
    if (size == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "hipMemPtrGetInfo: size is null");
    }
    return streamhal::MemGetAddressRange(nullptr, size, Address(ptr));
  });
}

// Every allocation is one contiguous range of device addresses, so
// hipDeviceMallocContiguous is what hipMalloc gives. Fine-grained, uncached
// and signal memory (host and device see each other's writes while a kernel
// runs) need memory a Vulkan device does not promise: hipErrorNotSupported.
hipError_t hipExtMallocWithFlags(void** ptr, size_t size, unsigned int flags) {
  return RuntimeCall([&]() -> absl::Status {
    if (flags == hipDeviceMallocFinegrained || flags == hipMallocSignalMemory ||
        flags == hipDeviceMallocUncached) {
      return streamhal::Error(streamhal::ErrorCode::kNotSupported, "hipExtMallocWithFlags: flags ",
                              flags, " ask for fine-grained memory");
    }
    if (flags != hipDeviceMallocDefault && flags != hipDeviceMallocContiguous) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipExtMallocWithFlags: unknown flags ", flags);
    }
    uint64_t value = 0;
    return WriteOut(streamhal::MemAlloc(ptr ? &value : nullptr, size, /*allow_zero=*/true), ptr,
                    value);
  });
}

hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::MemHostAlloc(ptr, size, flags, true); });
}

hipError_t hipExtHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::MemHostAlloc(ptr, size, flags, true); });
}

hipError_t hipMemAllocHost(void** ptr, size_t size) {
  return RuntimeCall([&] { return streamhal::MemHostAlloc(ptr, size, 0, true); });
}

hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::MemHostAlloc(ptr, size, flags, true); });
}

hipError_t hipMallocHost(void** ptr, size_t size) {
  return RuntimeCall([&] { return streamhal::MemHostAlloc(ptr, size, 0, true); });
}

hipError_t hipHostFree(void* ptr) {
  return RuntimeCall([&] { return streamhal::MemFreeHost(ptr, /*allow_null=*/true); });
}

hipError_t hipFreeHost(void* ptr) {
  return RuntimeCall([&] { return streamhal::MemFreeHost(ptr, /*allow_null=*/true); });
}

hipError_t hipHostGetDevicePointer(void** dev_ptr, void* host_ptr, unsigned int flags) {
  return RuntimeCall([&] {
    uint64_t value = 0;
    return WriteOut(
        streamhal::MemHostGetDevicePointer(dev_ptr ? &value : nullptr, host_ptr, flags), dev_ptr,
        value);
  });
}

hipError_t hipHostGetFlags(unsigned int* flags, void* host_ptr) {
  return RuntimeCall([&] { return streamhal::MemHostGetFlags(flags, host_ptr); });
}

hipError_t hipHostRegister(void* host_ptr, size_t size_bytes, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::MemHostRegister(host_ptr, size_bytes, flags); });
}

hipError_t hipHostUnregister(void* host_ptr) {
  return RuntimeCall([&] { return streamhal::MemHostUnregister(host_ptr); });
}

}  // extern "C"
