// Rows: virtual memory management (cuMemCreate, cuMemAddressReserve,
// cuMemMap, cuMemSetAccess, ... and the hip* twins).
//
// Two physical allocations mapped side by side in one reserved range are
// used as one range: a kernel indexes across the seam and a copy crosses it.
// An exported file descriptor is imported and mapped a second time, and the
// two mappings are seen to share their memory.
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

CUmemAllocationProp DeviceProp(CUmemAllocationHandleType handle_types = CU_MEM_HANDLE_TYPE_NONE) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = handle_types;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  return prop;
}

class VirtualMemoryConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), 1);
    CUmemAllocationProp prop = DeviceProp();
    ASSERT_CU(CUDA_SUCCESS, cuMemGetAllocationGranularity(&granularity_, &prop,
                                                          CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    ASSERT_GT(granularity_, 0u);
    scale_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(scale_, nullptr);
  }

  void Scale(CUdeviceptr data, uint32_t n, float scale, float offset) {
    void* params[] = {&data, &scale, &offset, &n};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(scale_, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  }

  size_t granularity_ = 0;
  CUmodule module_ = nullptr;
  CUfunction scale_ = nullptr;
};

TEST_F(VirtualMemoryConformance, TwoAllocationsMappedSideBySideAreOneRange) {
  const size_t chunk = 4 * granularity_;
  CUmemAllocationProp prop = DeviceProp();
  size_t recommended = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAllocationGranularity(&recommended, &prop,
                                                        CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  EXPECT_EQ(recommended % granularity_, 0u);
  CUmemGenericAllocationHandle first = 0, second = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&first, chunk, &prop, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&second, chunk, &prop, 0));
  CUdeviceptr base = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&base, 2 * chunk, 0, 0, 0));
  ASSERT_NE(base, 0u);
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(base, chunk, 0, first, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(base + chunk, chunk, 0, second, 0));
  // The mappings keep the memory; the handles can go now.
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(first));
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(second));
  unsigned long long flags = 99;
  CUmemLocation location{CU_MEM_LOCATION_TYPE_DEVICE, 0};
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAccess(&flags, &location, base));
  EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_NONE);
  CUmemAccessDesc access{location, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(base, 2 * chunk, &access, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAccess(&flags, &location, base + chunk + 4));
  EXPECT_EQ(flags, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);

  // One copy and one kernel across the seam.
  const uint32_t n = static_cast<uint32_t>(2 * chunk / sizeof(float));
  std::vector<float> host = Iota(n, 1.0f), out(n);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(base, host.data(), 2 * chunk));
  Scale(base, n, 2.0f, 3.0f);
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(out.data(), base, 2 * chunk));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], host[i] * 2.0f + 3.0f) << i;
  CUdeviceptr range_base = 0;
  size_t range_size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&range_base, &range_size, base + chunk));
  EXPECT_EQ(range_base, base);
  EXPECT_EQ(range_size, 2 * chunk);

  // The handle of what is mapped at an address.
  CUmemGenericAllocationHandle retained = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(base + chunk + 8)));
  CUmemAllocationProp read{};
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&read, retained));
  EXPECT_EQ(read.type, CU_MEM_ALLOCATION_TYPE_PINNED);
  EXPECT_EQ(read.location.id, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(retained));

  // Unmapping the second half keeps the first one usable.
  ASSERT_CU(CUDA_SUCCESS, cuMemUnmap(base + chunk, chunk));
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, nullptr, base + chunk));
  Scale(base, static_cast<uint32_t>(chunk / sizeof(float)), 1.0f, 1.0f);
  float last = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&last, base + chunk - 4, 4));
  EXPECT_EQ(last, host[chunk / 4 - 1] * 2.0f + 3.0f + 1.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemUnmap(base, chunk));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressFree(base, 2 * chunk));
}

TEST_F(VirtualMemoryConformance, AnExportedDescriptorMapsTheSameMemoryAgain) {
  const size_t size = 2 * granularity_;
  CUmemAllocationProp prop = DeviceProp(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  CUmemGenericAllocationHandle handle = 0, imported = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&handle, size, &prop, 0));
  int fd = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  ASSERT_GE(fd, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemImportFromShareableHandle(
                              &imported, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                              CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&a, size, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&b, size, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(a, size, 0, handle, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(b, size, 0, imported, 0));
  CUmemAccessDesc access{{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(a, size, &access, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(b, size, &access, 1));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(a, 0, size / 4));
  Scale(a, 1024, 1.0f, 6.0f);  // a kernel writes through one mapping
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::vector<float> seen(1024);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(seen.data(), b, 1024 * sizeof(float)));
  for (float value : seen) ASSERT_EQ(value, 6.0f);  // ... and the other sees it
  CUmemAllocationProp read{};
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&read, imported));
  EXPECT_EQ(read.requestedHandleTypes, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(handle));
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(imported));
  // Freeing a reserved range unmaps what is still mapped in it.
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressFree(a, size));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressFree(b, size));
}

TEST_F(VirtualMemoryConformance, BadInputIsRefusedAndLosesNothing) {
  CUmemAllocationProp prop = DeviceProp();
  size_t granularity = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(nullptr, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemGetAllocationGranularity(&granularity, &prop,
                                          static_cast<CUmemAllocationGranularity_flags>(5)));
  CUmemGenericAllocationHandle handle = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&handle, granularity_ + 1, &prop, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&handle, 0, &prop, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&handle, granularity_, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&handle, granularity_, &prop, 1));
  prop.location.id = 9;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemCreate(&handle, granularity_, &prop, 0));
  prop = DeviceProp();
  CUdeviceptr base = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&base, granularity_ + 7, 0, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(&base, granularity_, 3, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressReserve(nullptr, granularity_, 0, 0, 0));

  ASSERT_CU(CUDA_SUCCESS, cuMemCreate(&handle, 2 * granularity_, &prop, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressReserve(&base, 4 * granularity_, 0, 0, 0));
  // Outside the reservation, past the allocation, misaligned.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemMap(base + 3 * granularity_, 2 * granularity_, 0, handle, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base, 2 * granularity_, granularity_, handle, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base + 1, granularity_, 0, handle, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base, granularity_, 0, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemMap(base, 2 * granularity_, 0, handle, 0));
  // Mapping over a mapped range; unmapping what was never mapped.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemMap(base + granularity_, granularity_, 0, handle, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(base + 2 * granularity_, granularity_));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemUnmap(base, granularity_));  // half a mapping
  CUmemAccessDesc access{{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(base, 3 * granularity_, &access, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemSetAccess(base, 2 * granularity_, nullptr, 1));
  access.location.id = 5;
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuMemSetAccess(base, 2 * granularity_, &access, 1));
  access.location.id = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemSetAccess(base, 2 * granularity_, &access, 1));
  // Virtual memory is not cuMemFree's to free.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(base));
  int fd = -1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemExportToShareableHandle(&fd, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CUmemGenericAllocationHandle imported = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t{-1}),
                                           CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  ASSERT_CU(CUDA_SUCCESS, cuMemRelease(handle));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemRelease(handle));  // released, mapped: not the user's
  CUmemGenericAllocationHandle retained = 0;
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemRetainAllocationHandle(&retained, reinterpret_cast<void*>(base + 3 * granularity_)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(base, 0x5a, 2 * granularity_));  // still works
  uint8_t byte = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&byte, base + 2 * granularity_ - 1, 1));
  EXPECT_EQ(byte, 0x5a);
  ASSERT_CU(CUDA_SUCCESS, cuMemUnmap(base, 2 * granularity_));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(base, granularity_));  // wrong size
  ASSERT_CU(CUDA_SUCCESS, cuMemAddressFree(base, 4 * granularity_));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(base, 4 * granularity_));
}

// ---- HIP --------------------------------------------------------------------

TEST_F(VirtualMemoryConformance, HipMapsAndRunsAKernelAcrossTwoAllocations) {
  hipMemAllocationProp prop{};
  prop.type = hipMemAllocationTypePinned;
  prop.requestedHandleTypes = hipMemHandleTypePosixFileDescriptor;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = 0;
  size_t granularity = 0;
  ASSERT_HIP(hipSuccess, hipMemGetAllocationGranularity(&granularity, &prop,
                                                        hipMemAllocationGranularityMinimum));
  EXPECT_EQ(granularity, granularity_);
  hipMemGenericAllocationHandle_t first = nullptr, second = nullptr;
  ASSERT_HIP(hipSuccess, hipMemCreate(&first, granularity, &prop, 0));
  ASSERT_HIP(hipSuccess, hipMemCreate(&second, granularity, &prop, 0));
  void* base = nullptr;
  ASSERT_HIP(hipSuccess, hipMemAddressReserve(&base, 2 * granularity, 0, nullptr, 0));
  char* bytes = static_cast<char*>(base);
  ASSERT_HIP(hipSuccess, hipMemMap(bytes, granularity, 0, first, 0));
  ASSERT_HIP(hipSuccess, hipMemMap(bytes + granularity, granularity, 0, second, 0));
  hipMemAccessDesc access{{hipMemLocationTypeDevice, 0}, hipMemAccessFlagsProtReadWrite};
  ASSERT_HIP(hipSuccess, hipMemSetAccess(base, 2 * granularity, &access, 1));
  unsigned long long flags = 0;
  ASSERT_HIP(hipSuccess, hipMemGetAccess(&flags, &access.location, bytes + granularity));
  EXPECT_EQ(flags, static_cast<unsigned long long>(hipMemAccessFlagsProtReadWrite));
  const uint32_t n = static_cast<uint32_t>(2 * granularity / sizeof(float));
  std::vector<float> host = Iota(n, 0.5f), out(n);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(base, host.data(), 2 * granularity));
  Scale(reinterpret_cast<CUdeviceptr>(base), n, 4.0f, 0.0f);
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(out.data(), base, 2 * granularity));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], host[i] * 4.0f) << i;
  hipMemGenericAllocationHandle_t retained = nullptr;
  ASSERT_HIP(hipSuccess, hipMemRetainAllocationHandle(&retained, bytes + granularity));
  EXPECT_EQ(retained, second);
  hipMemAllocationProp read{};
  ASSERT_HIP(hipSuccess, hipMemGetAllocationPropertiesFromHandle(&read, retained));
  EXPECT_EQ(read.requestedHandleTypes, hipMemHandleTypePosixFileDescriptor);
  int fd = -1;
  ASSERT_HIP(hipSuccess,
             hipMemExportToShareableHandle(&fd, first, hipMemHandleTypePosixFileDescriptor, 0));
  hipMemGenericAllocationHandle_t imported = nullptr;
  ASSERT_HIP(hipSuccess,
             hipMemImportFromShareableHandle(&imported, reinterpret_cast<void*>(intptr_t{fd}),
                                             hipMemHandleTypePosixFileDescriptor));
  close(fd);
  EXPECT_HIP(hipSuccess, hipMemRelease(imported));
  EXPECT_HIP(hipSuccess, hipMemRelease(retained));
  EXPECT_HIP(hipErrorInvalidValue, hipMemUnmap(bytes + 1, granularity));
  ASSERT_HIP(hipSuccess, hipMemUnmap(base, 2 * granularity));
  EXPECT_HIP(hipSuccess, hipMemRelease(first));
  EXPECT_HIP(hipSuccess, hipMemRelease(second));
  EXPECT_HIP(hipErrorInvalidValue, hipMemRelease(first));
  ASSERT_HIP(hipSuccess, hipMemAddressFree(base, 2 * granularity));
}

}  // namespace
}  // namespace streamhal::conformance
