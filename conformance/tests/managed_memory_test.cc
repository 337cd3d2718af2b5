// Rows: managed memory (cuMemAllocManaged, cuStreamAttachMemAsync) and its
// hints (cuMemAdvise, cuMemPrefetchAsync, cuMemRangeGetAttribute(s)) through
// both APIs. Kernels run on managed memory and results are read both through
// the host pointer and through copies.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

constexpr size_t kPage = 4096;

class ManagedMemoryConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    scale_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(scale_, nullptr);
  }

  // data[i] = data[i] * 2 + 1 for `count` floats at `data`, in `stream`.
  void Scale(CUdeviceptr data, uint32_t count, CUstream stream) {
    float scale = 2.0f, offset = 1.0f;
    void* params[] = {&data, &scale, &offset, &count};
    ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(scale_, (count + 63) / 64, 1, 1, 64, 1, 1, 0, stream,
                                           params, nullptr));
  }

  // Waits for an event recorded now in `stream`, which completes only once
  // everything before it has.
  static void WaitForAnEventAfter(CUstream stream) {
    CUevent done = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
    ASSERT_CU(CUDA_SUCCESS, cuEventRecord(done, stream));
    ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(done));
    ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(done));
  }

  static int RangeInt(CUmem_range_attribute attribute, CUdeviceptr pointer, size_t count) {
    int value = 12345;
    EXPECT_CU(CUDA_SUCCESS,
              cuMemRangeGetAttribute(&value, sizeof(value), attribute, pointer, count));
    return value;
  }

 private:
  CUmodule module_ = nullptr;
  CUfunction scale_ = nullptr;
};

float* HostView(CUdeviceptr pointer) {
  return reinterpret_cast<float*>(static_cast<uintptr_t>(pointer));
}

// `n` floats of managed memory, float i at index i (written by the host);
// 0 on failure.
CUdeviceptr CountingManaged(uint32_t n) {
  CUdeviceptr managed = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, n * sizeof(float), CU_MEM_ATTACH_GLOBAL));
  if (managed == 0) return 0;
  float* host = HostView(managed);
  for (uint32_t i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  return managed;
}

TEST_F(ManagedMemoryConformance, DeviceAttributesSayManagedMemoryWorks) {
  // lavapipe maps host-visible memory at its device address, so managed
  // memory exists and host and device may use it at the same time; kernels
  // still cannot reach pageable memory nobody registered.
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY), 1);
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS), 1);
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS), 0);
  int hip_value = -1;
  ASSERT_HIP(hipSuccess, hipDeviceGetAttribute(&hip_value, hipDeviceAttributeManagedMemory, 0));
  EXPECT_EQ(hip_value, 1);
  hipDeviceProp_t prop = {};
  ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&prop, 0));
  EXPECT_EQ(prop.managedMemory, 1);
  EXPECT_EQ(prop.concurrentManagedAccess, 1);
  EXPECT_EQ(prop.pageableMemoryAccess, 0);
}

TEST_F(ManagedMemoryConformance, KernelsAndTheHostShareOnePointer) {
  constexpr uint32_t kN = 1000;
  CUdeviceptr managed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kN * sizeof(float), CU_MEM_ATTACH_GLOBAL));
  ASSERT_NE(managed, 0u);
  float* host = HostView(managed);
  for (uint32_t i = 0; i < kN; ++i) host[i] = static_cast<float>(i);
  Scale(managed, kN, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 2.0f * i + 1.0f) << i;
  // Copies resolve the same pointer as device memory.
  EXPECT_EQ(CudaDownload<float>(managed, kN), std::vector<float>(host, host + kN));
  const std::vector<float> values = Iota(kN, 0.25f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(managed, values.data(), kN * sizeof(float)));
  EXPECT_EQ(std::vector<float>(host, host + kN), values);
  std::vector<float> inferred(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(AsCudaPointer(inferred.data()), managed, kN * sizeof(float)));
  EXPECT_EQ(inferred, values);
  // Interior pointers resolve to the allocation.
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, managed + 100));
  EXPECT_EQ(base, managed);
  EXPECT_EQ(size, kN * sizeof(float));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, managed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(managed));
}

TEST_F(ManagedMemoryConformance, HipManagedMemoryWorksWithCudaLaunchesAndHipCopies) {
  constexpr uint32_t kN = 256;
  float* managed = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocManaged(reinterpret_cast<void**>(&managed), kN * sizeof(float),
                                          hipMemAttachHost));
  ASSERT_NE(managed, nullptr);
  for (uint32_t i = 0; i < kN; ++i) managed[i] = static_cast<float>(i);
  Scale(AsCudaPointer(managed), kN, nullptr);
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  std::vector<float> copied(kN);
  ASSERT_HIP(hipSuccess, hipMemcpy(copied.data(), managed, kN * sizeof(float), hipMemcpyDefault));
  for (uint32_t i = 0; i < kN; ++i) {
    ASSERT_EQ(managed[i], 2.0f * i + 1.0f) << i;
    ASSERT_EQ(copied[i], managed[i]) << i;
  }
  ASSERT_HIP(hipSuccess, hipFree(managed));
}

TEST_F(ManagedMemoryConformance, AllocManagedRejectsBadArguments) {
  CUdeviceptr pointer = 0;
  void* hip_pointer = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(nullptr, 256, CU_MEM_ATTACH_GLOBAL),
              hipMallocManaged(nullptr, 256, hipMemAttachGlobal));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&pointer, 0, CU_MEM_ATTACH_GLOBAL),
              hipMallocManaged(&hip_pointer, 0, hipMemAttachGlobal));
  for (unsigned flags : {0u, 3u, 4u, 8u, 0x80000000u}) {
    SCOPED_TRACE(flags);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocManaged(&pointer, 256, flags),
                hipMallocManaged(&hip_pointer, 256, flags));
  }
  EXPECT_EQ(pointer, 0u);
  EXPECT_EQ(hip_pointer, nullptr);
  // Too large is out of memory, and the next allocation works.
  EXPECT_CU(CUDA_ERROR_OUT_OF_MEMORY,
            cuMemAllocManaged(&pointer, SIZE_MAX - 4096, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&pointer, 256, CU_MEM_ATTACH_GLOBAL));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(pointer));
}

TEST_F(ManagedMemoryConformance, StreamAttachMemChangesNothingKernelsSee) {
  constexpr uint32_t kN = 512;
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr managed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kN * sizeof(float), CU_MEM_ATTACH_HOST));
  float* host = HostView(managed);
  for (uint32_t i = 0; i < kN; ++i) host[i] = 1.0f;
  ASSERT_CU(CUDA_SUCCESS, cuStreamAttachMemAsync(stream, managed, 0, CU_MEM_ATTACH_SINGLE));
  Scale(managed, kN, stream);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 3.0f) << i;
  // Length 0 or the whole allocation; GLOBAL and HOST on any stream.
  EXPECT_CU(CUDA_SUCCESS,
            cuStreamAttachMemAsync(stream, managed, kN * sizeof(float), CU_MEM_ATTACH_GLOBAL));
  EXPECT_CU(CUDA_SUCCESS, cuStreamAttachMemAsync(nullptr, managed, 0, CU_MEM_ATTACH_HOST));
  ASSERT_HIP(hipSuccess, hipStreamAttachMemAsync(reinterpret_cast<hipStream_t>(stream),
                                                 HostView(managed), 0, hipMemAttachSingle));
  Scale(managed, kN, stream);
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(reinterpret_cast<hipStream_t>(stream)));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 7.0f) << i;
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(ManagedMemoryConformance, StreamAttachMemRejectsBadArguments) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  hipStream_t hip_stream = reinterpret_cast<hipStream_t>(stream);
  CUdeviceptr managed = 0, device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, 8192, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 8192));
  for (unsigned flags : {0u, 3u, 8u}) {
    SCOPED_TRACE(flags);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(stream, managed, 0, flags),
                hipStreamAttachMemAsync(hip_stream, HostView(managed), 0, flags));
  }
  // CUDA: attaching singly to the NULL stream is an error.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuStreamAttachMemAsync(nullptr, managed, 0, CU_MEM_ATTACH_SINGLE),
              hipStreamAttachMemAsync(nullptr, HostView(managed), 0, hipMemAttachSingle));
  // Not managed memory, part of an allocation, or no pointer at all.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuStreamAttachMemAsync(stream, device, 0, CU_MEM_ATTACH_GLOBAL),
              hipStreamAttachMemAsync(hip_stream, AsHipPointer(device), 0, hipMemAttachGlobal));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuStreamAttachMemAsync(stream, managed, 4096, CU_MEM_ATTACH_GLOBAL),
              hipStreamAttachMemAsync(hip_stream, HostView(managed), 4096, hipMemAttachGlobal));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuStreamAttachMemAsync(stream, 0, 0, CU_MEM_ATTACH_GLOBAL),
              hipStreamAttachMemAsync(hip_stream, nullptr, 0, hipMemAttachGlobal));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamAttachMemAsync(stream, managed, 0, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(ManagedMemoryConformance, AdviceIsReportedPerPageByRangeAttributes) {
  constexpr size_t kBytes = 4 * kPage;
  CUdeviceptr managed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kBytes, CU_MEM_ATTACH_GLOBAL));
  // Nothing advised yet.
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kBytes), 0);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, kBytes),
            CU_DEVICE_INVALID);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kBytes),
            CU_DEVICE_INVALID);

  // Read-mostly on the first two pages: set there, not over the whole range.
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, 2 * kPage, CU_MEM_ADVISE_SET_READ_MOSTLY, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, 2 * kPage), 1);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed + 100, 10), 1);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kBytes), 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, kBytes, CU_MEM_ADVISE_UNSET_READ_MOSTLY, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, 2 * kPage), 0);

  // Preferred location: the device on one page, the host on the rest.
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAdvise(managed, kBytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU));
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed + kPage, 1, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed + kPage, kPage), 0);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed + 2 * kPage, kPage),
            CU_DEVICE_CPU);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, kBytes),
            CU_DEVICE_INVALID);
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, kBytes, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed + kPage, kPage),
            CU_DEVICE_INVALID);

  // Accessed-by: a list of locations, then CU_DEVICE_INVALID.
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, kBytes, CU_MEM_ADVISE_SET_ACCESSED_BY, 0));
  ASSERT_CU(CUDA_SUCCESS,
            cuMemAdvise(managed, kPage, CU_MEM_ADVISE_SET_ACCESSED_BY, CU_DEVICE_CPU));
  int accessed[3] = {7, 7, 7};
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRangeGetAttribute(accessed, sizeof(accessed), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                   managed, kPage));
  EXPECT_EQ(accessed[0], CU_DEVICE_CPU);
  EXPECT_EQ(accessed[1], 0);
  EXPECT_EQ(accessed[2], CU_DEVICE_INVALID);
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRangeGetAttribute(accessed, sizeof(accessed), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                   managed, kBytes));
  EXPECT_EQ(accessed[0], 0);
  EXPECT_EQ(accessed[1], CU_DEVICE_INVALID);
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, kBytes, CU_MEM_ADVISE_UNSET_ACCESSED_BY, 0));
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRangeGetAttribute(accessed, sizeof(accessed), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                   managed, kPage));
  EXPECT_EQ(accessed[0], CU_DEVICE_CPU);
  EXPECT_EQ(accessed[1], CU_DEVICE_INVALID);

  // The same state through HIP.
  int hip_value = 9;
  ASSERT_HIP(hipSuccess, hipMemAdvise(HostView(managed), kBytes, hipMemAdviseSetReadMostly, 0));
  ASSERT_HIP(hipSuccess,
             hipMemRangeGetAttribute(&hip_value, sizeof(hip_value), hipMemRangeAttributeReadMostly,
                                     HostView(managed), kBytes));
  EXPECT_EQ(hip_value, 1);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kBytes), 1);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
}

TEST_F(ManagedMemoryConformance, HipCoarseGrainAdviceIsItsCoherencyMode) {
  void* managed = nullptr;
  ASSERT_HIP(hipSuccess, hipMallocManaged(&managed, 2 * kPage, hipMemAttachGlobal));
  int mode = -1;
  ASSERT_HIP(hipSuccess,
             hipMemRangeGetAttribute(&mode, sizeof(mode), hipMemRangeAttributeCoherencyMode,
                                     managed, 2 * kPage));
  EXPECT_EQ(mode, hipMemRangeCoherencyModeFineGrain);
  ASSERT_HIP(hipSuccess, hipMemAdvise(managed, kPage, hipMemAdviseSetCoarseGrain, 0));
  ASSERT_HIP(hipSuccess,
             hipMemRangeGetAttribute(&mode, sizeof(mode), hipMemRangeAttributeCoherencyMode,
                                     managed, kPage));
  EXPECT_EQ(mode, hipMemRangeCoherencyModeCoarseGrain);
  ASSERT_HIP(hipSuccess,
             hipMemRangeGetAttribute(&mode, sizeof(mode), hipMemRangeAttributeCoherencyMode,
                                     managed, 2 * kPage));
  EXPECT_EQ(mode, hipMemRangeCoherencyModeIndeterminate);
  ASSERT_HIP(hipSuccess, hipMemAdvise(managed, 2 * kPage, hipMemAdviseUnsetCoarseGrain, 0));
  ASSERT_HIP(hipSuccess,
             hipMemRangeGetAttribute(&mode, sizeof(mode), hipMemRangeAttributeCoherencyMode,
                                     managed, 2 * kPage));
  EXPECT_EQ(mode, hipMemRangeCoherencyModeFineGrain);
  // CUDA has neither the advice nor the attribute.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise(AsCudaPointer(managed), kPage, static_cast<CUmem_advise>(100), 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttribute(&mode, sizeof(mode), static_cast<CUmem_range_attribute>(100),
                                   AsCudaPointer(managed), kPage));
  ASSERT_HIP(hipSuccess, hipFree(managed));
}

TEST_F(ManagedMemoryConformance, AdviseRejectsBadArguments) {
  CUdeviceptr managed = 0, device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kPage, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kPage));
  void* hip_managed = HostView(managed);
  for (int advice : {0, 7, -1}) {
    SCOPED_TRACE(advice);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuMemAdvise(managed, kPage, static_cast<CUmem_advise>(advice), 0),
                hipMemAdvise(hip_managed, kPage, static_cast<hipMemoryAdvise>(advice), 0));
  }
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(managed, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, 0),
              hipMemAdvise(hip_managed, 0, hipMemAdviseSetReadMostly, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuMemAdvise(managed, kPage + 1, CU_MEM_ADVISE_SET_READ_MOSTLY, 0),
              hipMemAdvise(hip_managed, kPage + 1, hipMemAdviseSetReadMostly, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuMemAdvise(device, kPage, CU_MEM_ADVISE_SET_READ_MOSTLY, 0),
              hipMemAdvise(AsHipPointer(device), kPage, hipMemAdviseSetReadMostly, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAdvise(0, kPage, CU_MEM_ADVISE_SET_READ_MOSTLY, 0),
              hipMemAdvise(nullptr, kPage, hipMemAdviseSetReadMostly, 0));
  for (int location : {device_count(), -3, CU_DEVICE_INVALID}) {
    SCOPED_TRACE(location);
    EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
                cuMemAdvise(managed, kPage, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, location),
                hipMemAdvise(hip_managed, kPage, hipMemAdviseSetPreferredLocation, location));
    EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
                cuMemAdvise(managed, kPage, CU_MEM_ADVISE_SET_ACCESSED_BY, location),
                hipMemAdvise(hip_managed, kPage, hipMemAdviseSetAccessedBy, location));
  }
  // Nothing was recorded by the failed calls.
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, managed, kPage), CU_DEVICE_INVALID);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise(managed, kPage, CU_MEM_ADVISE_SET_READ_MOSTLY, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(ManagedMemoryConformance, PrefetchIsOrderedInItsStreamAndReported) {
  constexpr uint32_t kN = 2048;
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  const CUdeviceptr managed = CountingManaged(kN);
  ASSERT_NE(managed, 0u);
  float* host = HostView(managed);
  ASSERT_CU(CUDA_SUCCESS, cuMemPrefetchAsync(managed, kN * sizeof(float), 0, stream));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kN * sizeof(float)),
            0);
  Scale(managed, kN, stream);
  // Back to the host after the kernel; an event after the prefetch
  // completes only once the kernel has.
  ASSERT_CU(CUDA_SUCCESS, cuMemPrefetchAsync(managed, kN * sizeof(float), CU_DEVICE_CPU, stream));
  WaitForAnEventAfter(stream);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 2.0f * i + 1.0f) << i;
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kN * sizeof(float)),
            CU_DEVICE_CPU);
  // Part of the range to the device: the whole range has no single location.
  ASSERT_HIP(hipSuccess,
             hipMemPrefetchAsync(host, kPage, 0, reinterpret_cast<hipStream_t>(stream)));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kPage), 0);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kN * sizeof(float)),
            CU_DEVICE_INVALID);
  Scale(managed, kN, stream);
  ASSERT_HIP(hipSuccess, hipMemPrefetchAsync(host, kN * sizeof(float), hipCpuDeviceId,
                                             reinterpret_cast<hipStream_t>(stream)));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<float> copied(kN);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(copied.data(), managed, kN * sizeof(float)));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(copied[i], 4.0f * i + 3.0f) << i;
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(ManagedMemoryConformance, PrefetchRejectsBadArguments) {
  CUdeviceptr managed = 0, device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kPage, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kPage));
  void* hip_managed = HostView(managed);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(managed, 0, 0, nullptr),
              hipMemPrefetchAsync(hip_managed, 0, 0, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(managed, kPage + 1, 0, nullptr),
              hipMemPrefetchAsync(hip_managed, kPage + 1, 0, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(device, kPage, 0, nullptr),
              hipMemPrefetchAsync(AsHipPointer(device), kPage, 0, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(0, kPage, 0, nullptr),
              hipMemPrefetchAsync(nullptr, kPage, 0, nullptr));
  for (int location : {device_count(), -3, CU_DEVICE_INVALID}) {
    SCOPED_TRACE(location);
    EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuMemPrefetchAsync(managed, kPage, location, nullptr),
                hipMemPrefetchAsync(hip_managed, kPage, location, nullptr));
  }
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuMemPrefetchAsync(managed, kPage, 0, stream),
              hipMemPrefetchAsync(hip_managed, kPage, 0, reinterpret_cast<hipStream_t>(stream)));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kPage),
            CU_DEVICE_INVALID);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemPrefetchAsync(managed, kPage, 0, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

// CUDA 13.0's batches: each range goes to the location whose run of
// ranges it is in, the batch keeps its place in the stream, and a discard
// leaves memory a kernel can write and read.
TEST_F(ManagedMemoryConformance, BatchPrefetchesAndDiscardsEachRangeInStreamOrder) {
  constexpr uint32_t kN = 3 * kPage / sizeof(float);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  const CUdeviceptr managed = CountingManaged(kN);
  ASSERT_NE(managed, 0u);
  float* host = HostView(managed);
  // Pages 0 and 1 to the device, page 2 to the host.
  CUdeviceptr dptrs[] = {managed, managed + kPage, managed + 2 * kPage};
  size_t sizes[] = {kPage, kPage, kPage};
  CUmemLocation locations[2] = {};
  locations[0].type = CU_MEM_LOCATION_TYPE_DEVICE;
  locations[0].id = 0;
  locations[1].type = CU_MEM_LOCATION_TYPE_HOST;
  size_t starts[] = {0, 2};
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPrefetchBatchAsync(dptrs, sizes, 3, locations, starts, 2, 0, stream));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kPage), 0);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed + 2 * kPage, kPage),
            CU_DEVICE_CPU);
  Scale(managed, kN, stream);
  // Every range back to the host after the kernel: an event after the
  // batch completes only once the kernel has.
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPrefetchBatchAsync(dptrs, sizes, 3, &locations[1], starts, 1, 0, stream));
  WaitForAnEventAfter(stream);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 2.0f * i + 1.0f) << i;
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kN * sizeof(float)),
            CU_DEVICE_CPU);
  // Discarded contents are indeterminate until written; written again by a
  // kernel they read back as written. Discarding moves no prefetch location;
  // discard-and-prefetch sets it.
  ASSERT_CU(CUDA_SUCCESS, cuMemDiscardBatchAsync(dptrs, sizes, 3, 0, stream));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kN * sizeof(float)),
            CU_DEVICE_CPU);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(managed, 0, kN, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemDiscardAndPrefetchBatchAsync(dptrs + 1, sizes + 1, 2, locations,
                                                            starts, 1, 0, stream));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed + kPage, 2 * kPage), 0);
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, kPage), CU_DEVICE_CPU);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(managed + kPage, 0, 2 * kPage / 4, stream));
  Scale(managed, kN, stream);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(host[i], 1.0f) << i;
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(ManagedMemoryConformance, BatchesRejectBadArgumentsAndTouchNoRange) {
  CUdeviceptr managed = 0, device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, 2 * kPage, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kPage));
  CUdeviceptr dptrs[] = {managed, managed + kPage};
  size_t sizes[] = {kPage, kPage};
  CUmemLocation to_device = {};
  to_device.type = CU_MEM_LOCATION_TYPE_DEVICE;
  size_t zero[] = {0};
  auto prefetch = [&](CUdeviceptr* d, size_t* sz, size_t count, CUmemLocation* locs, size_t* starts,
                      size_t num, unsigned long long flags) {
    return cuMemPrefetchBatchAsync(d, sz, count, locs, starts, num, flags, nullptr);
  };
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(nullptr, sizes, 2, &to_device, zero, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, nullptr, 2, &to_device, zero, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 0, &to_device, zero, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, &to_device, zero, 1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, nullptr, zero, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, &to_device, nullptr, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, &to_device, zero, 0, 0));
  size_t one[] = {1};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, &to_device, one, 1, 0));
  CUmemLocation two[2] = {to_device, to_device};
  size_t falling[] = {0, 0}, past_end[] = {0, 2};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, two, falling, 2, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, two, past_end, 2, 0));
  CUmemLocation three[3] = {to_device, to_device, to_device};
  size_t three_starts[] = {0, 1, 2};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, three, three_starts, 3, 0));
  CUmemLocation nowhere = to_device;
  nowhere.id = device_count();
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, prefetch(dptrs, sizes, 2, &nowhere, zero, 1, 0));
  nowhere.type = CU_MEM_LOCATION_TYPE_INVALID;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, sizes, 2, &nowhere, zero, 1, 0));
  // One bad range (not managed, or past the allocation) and no range moves.
  CUdeviceptr with_device[] = {managed, device};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(with_device, sizes, 2, &to_device, zero, 1, 0));
  size_t too_long[] = {kPage, kPage + 1};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, prefetch(dptrs, too_long, 2, &to_device, zero, 1, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kPage),
            CU_DEVICE_INVALID);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(with_device, sizes, 2, 0, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(dptrs, sizes, 0, 0, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardBatchAsync(dptrs, sizes, 2, 4, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, 2, nullptr, nullptr, 0, 0, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemDiscardAndPrefetchBatchAsync(
                                          with_device, sizes, 2, &to_device, zero, 1, 0, nullptr));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuMemPrefetchBatchAsync(dptrs, sizes, 2, &to_device, zero, 1, 0, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemDiscardBatchAsync(dptrs, sizes, 2, 0, stream));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kPage),
            CU_DEVICE_INVALID);
  // Still working afterwards.
  EXPECT_CU(CUDA_SUCCESS, prefetch(dptrs, sizes, 2, &to_device, zero, 1, 0));
  EXPECT_EQ(RangeInt(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, managed, 2 * kPage), 0);
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(ManagedMemoryConformance, RangeGetAttributesReportsSeveralAtOnce) {
  CUdeviceptr managed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, 2 * kPage, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, 2 * kPage, CU_MEM_ADVISE_SET_READ_MOSTLY, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise(managed, 2 * kPage, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemPrefetchAsync(managed, 2 * kPage, CU_DEVICE_CPU, nullptr));
  int read_mostly = -1, preferred = -1, last = -1;
  int accessed[2] = {-1, -1};
  void* data[] = {&read_mostly, &preferred, accessed, &last};
  size_t sizes[] = {4, 4, sizeof(accessed), 4};
  CUmem_range_attribute attributes[] = {
      CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION,
      CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION};
  ASSERT_CU(CUDA_SUCCESS, cuMemRangeGetAttributes(data, sizes, attributes, 4, managed, 2 * kPage));
  EXPECT_EQ(read_mostly, 1);
  EXPECT_EQ(preferred, 0);
  EXPECT_EQ(accessed[0], CU_DEVICE_INVALID);
  EXPECT_EQ(accessed[1], CU_DEVICE_INVALID);
  EXPECT_EQ(last, CU_DEVICE_CPU);

  read_mostly = preferred = last = -1;
  hipMemRangeAttribute hip_attributes[] = {
      hipMemRangeAttributeReadMostly, hipMemRangeAttributePreferredLocation,
      hipMemRangeAttributeAccessedBy, hipMemRangeAttributeLastPrefetchLocation};
  ASSERT_HIP(hipSuccess, hipMemRangeGetAttributes(data, sizes, hip_attributes, 4, HostView(managed),
                                                  2 * kPage));
  EXPECT_EQ(read_mostly, 1);
  EXPECT_EQ(preferred, 0);
  EXPECT_EQ(last, hipCpuDeviceId);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
}

TEST_F(ManagedMemoryConformance, RangeGetAttributeRejectsBadArgumentsAndWritesNothing) {
  CUdeviceptr managed = 0, device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, kPage, CU_MEM_ATTACH_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kPage));
  void* hip_managed = HostView(managed);
  int value = 77;
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuMemRangeGetAttribute(nullptr, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kPage),
      hipMemRangeGetAttribute(nullptr, 4, hipMemRangeAttributeReadMostly, hip_managed, kPage));
  for (size_t size : {size_t{0}, size_t{2}, size_t{8}}) {
    SCOPED_TRACE(size);
    EXPECT_BOTH(
        CUDA_ERROR_INVALID_VALUE,
        cuMemRangeGetAttribute(&value, size, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kPage),
        hipMemRangeGetAttribute(&value, size, hipMemRangeAttributeReadMostly, hip_managed, kPage));
  }
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuMemRangeGetAttribute(&value, 6, CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, managed, kPage),
      hipMemRangeGetAttribute(&value, 6, hipMemRangeAttributeAccessedBy, hip_managed, kPage));
  for (int attribute : {0, 5, -1}) {
    SCOPED_TRACE(attribute);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuMemRangeGetAttribute(&value, 4, static_cast<CUmem_range_attribute>(attribute),
                                       managed, kPage),
                hipMemRangeGetAttribute(&value, 4, static_cast<hipMemRangeAttribute>(attribute),
                                        hip_managed, kPage));
  }
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuMemRangeGetAttribute(&value, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, device, kPage),
              hipMemRangeGetAttribute(&value, 4, hipMemRangeAttributeReadMostly,
                                      AsHipPointer(device), kPage));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuMemRangeGetAttribute(&value, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, 0),
              hipMemRangeGetAttribute(&value, 4, hipMemRangeAttributeReadMostly, hip_managed, 0));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuMemRangeGetAttribute(&value, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kPage + 1),
      hipMemRangeGetAttribute(&value, 4, hipMemRangeAttributeReadMostly, hip_managed, kPage + 1));
  // Several at once: one bad attribute and nothing is written.
  int first = 55, second = 66;
  void* data[] = {&first, &second};
  size_t sizes[] = {4, 4};
  CUmem_range_attribute attributes[] = {CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                        static_cast<CUmem_range_attribute>(9)};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(data, sizes, attributes, 2, managed, kPage));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(nullptr, sizes, attributes, 1, managed, kPage));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(data, nullptr, attributes, 1, managed, kPage));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(data, sizes, nullptr, 1, managed, kPage));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(data, sizes, attributes, 0, managed, kPage));
  void* null_slot[] = {nullptr};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttributes(null_slot, sizes, attributes, 1, managed, kPage));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemRangeGetAttributes(nullptr, sizes, nullptr, 1, hip_managed, kPage));
  EXPECT_EQ(value, 77);
  EXPECT_EQ(first, 55);
  EXPECT_EQ(second, 66);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemRangeGetAttribute(&value, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, kPage));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

}  // namespace
}  // namespace streamhal::conformance
