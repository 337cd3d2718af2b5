// Rows: pointer attributes (cuPointerGetAttribute(s), cuPointerSetAttribute,
// hipPointerGetAttribute(s), hipPointerSetAttribute) on device, pinned,
// registered, managed and interior pointers, plain host pointers and freed
// memory.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstdlib>
#include <set>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using PointerAttributeConformance = ContextTest;

template <typename T>
T Get(CUpointer_attribute attribute, CUdeviceptr pointer) {
  T value{};
  EXPECT_CU(CUDA_SUCCESS, cuPointerGetAttribute(&value, attribute, pointer));
  return value;
}

CUdeviceptr Address(const void* pointer) { return AsCudaPointer(pointer); }

TEST_F(PointerAttributeConformance, DeviceMemoryAndItsInteriorPointers) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 4096));
  for (CUdeviceptr pointer : {device, device + 1000}) {
    SCOPED_TRACE(pointer - device);
    EXPECT_EQ(Get<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, pointer), context());
    EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer), CU_MEMORYTYPE_DEVICE);
    EXPECT_EQ(Get<CUdeviceptr>(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, pointer), pointer);
    EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_IS_MANAGED, pointer), false);
    EXPECT_EQ(Get<int>(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, pointer), 0);
    EXPECT_EQ(Get<CUdeviceptr>(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, pointer), device);
    EXPECT_EQ(Get<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, pointer), 4096u);
    EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_MAPPED, pointer), true);
    EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, pointer), false);
    EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, pointer), false);
    EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE, pointer), false);
    EXPECT_EQ(Get<unsigned long long>(CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, pointer), 0u);
    EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, pointer),
              CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE);
    EXPECT_EQ(Get<CUmemoryPool>(CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, pointer), nullptr);
    EXPECT_EQ(Get<size_t>(CU_POINTER_ATTRIBUTE_MAPPING_SIZE, pointer), 4096u);
    EXPECT_EQ(Get<void*>(CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, pointer), AsHipPointer(device));
    EXPECT_NE(Get<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, pointer), 0u);
    // Device memory has no host pointer.
    void* host = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER, pointer));
  }
  EXPECT_EQ(Get<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, device),
            Get<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, device + 4095));
  // The same answers through HIP.
  unsigned type = 0;
  ASSERT_HIP(hipSuccess, hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                                AsHipPointer(device + 8)));
  EXPECT_EQ(type, static_cast<unsigned>(hipMemoryTypeDevice));
  hipPointerAttribute_t attributes = {};
  ASSERT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, AsHipPointer(device + 8)));
  EXPECT_EQ(attributes.type, hipMemoryTypeDevice);
  EXPECT_EQ(attributes.device, 0);
  EXPECT_EQ(attributes.devicePointer, AsHipPointer(device + 8));
  EXPECT_EQ(attributes.hostPointer, nullptr);
  EXPECT_EQ(attributes.isManaged, 0);
  EXPECT_EQ(attributes.allocationFlags, 0u);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(PointerAttributeConformance, PinnedAndRegisteredHostMemory) {
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&pinned, 4096, CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr mapped = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&mapped, pinned, 0));
  const CUdeviceptr interior = Address(pinned) + 64;
  EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, interior), CU_MEMORYTYPE_HOST);
  EXPECT_EQ(Get<void*>(CU_POINTER_ATTRIBUTE_HOST_POINTER, interior),
            static_cast<char*>(pinned) + 64);
  EXPECT_EQ(Get<CUdeviceptr>(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, interior), mapped + 64);
  EXPECT_EQ(Get<CUcontext>(CU_POINTER_ATTRIBUTE_CONTEXT, interior), context());
  EXPECT_EQ(Get<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, interior), 4096u);
  hipPointerAttribute_t attributes = {};
  ASSERT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, pinned));
  EXPECT_EQ(attributes.type, hipMemoryTypeHost);
  EXPECT_EQ(attributes.hostPointer, pinned);
  EXPECT_EQ(attributes.devicePointer, AsHipPointer(mapped));
  EXPECT_EQ(attributes.allocationFlags, static_cast<unsigned>(CU_MEMHOSTALLOC_DEVICEMAP));

  // Registered memory, read-only: the device may only read it.
  void* registered = std::aligned_alloc(4096, 8192);
  ASSERT_NE(registered, nullptr);
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(registered, 8192, CU_MEMHOSTREGISTER_READ_ONLY));
  EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Address(registered) + 5000),
            CU_MEMORYTYPE_HOST);
  EXPECT_EQ(Get<void*>(CU_POINTER_ATTRIBUTE_HOST_POINTER, Address(registered) + 5000),
            static_cast<char*>(registered) + 5000);
  EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, Address(registered)),
            CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ);
  EXPECT_EQ(Get<size_t>(CU_POINTER_ATTRIBUTE_RANGE_SIZE, Address(registered)), 8192u);
  ASSERT_CU(CUDA_SUCCESS, cuMemHostUnregister(registered));
  // Unregistered again: plain host memory.
  unsigned type = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, Address(registered)));
  std::free(registered);
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

TEST_F(PointerAttributeConformance, ManagedMemoryIsOnePointerOnBothSides) {
  CUdeviceptr managed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed, 1024, CU_MEM_ATTACH_GLOBAL));
  EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_IS_MANAGED, managed + 4), true);
  EXPECT_EQ(Get<unsigned>(CU_POINTER_ATTRIBUTE_MEMORY_TYPE, managed + 4), CU_MEMORYTYPE_DEVICE);
  EXPECT_EQ(Get<CUdeviceptr>(CU_POINTER_ATTRIBUTE_DEVICE_POINTER, managed + 4), managed + 4);
  EXPECT_EQ(Get<void*>(CU_POINTER_ATTRIBUTE_HOST_POINTER, managed + 4), AsHipPointer(managed + 4));
  hipPointerAttribute_t attributes = {};
  ASSERT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, AsHipPointer(managed)));
  EXPECT_EQ(attributes.type, hipMemoryTypeManaged);
  EXPECT_EQ(attributes.isManaged, 1);
  EXPECT_EQ(attributes.devicePointer, AsHipPointer(managed));
  EXPECT_EQ(attributes.hostPointer, AsHipPointer(managed));
  EXPECT_EQ(attributes.allocationFlags, static_cast<unsigned>(hipMemAttachGlobal));
  int is_managed = 0;
  ASSERT_HIP(hipSuccess, hipPointerGetAttribute(&is_managed, HIP_POINTER_ATTRIBUTE_IS_MANAGED,
                                                AsHipPointer(managed)));
  EXPECT_EQ(is_managed & 0xff, 1);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(managed));
}

TEST_F(PointerAttributeConformance, GetAttributesAnswersManyAtOnceAndUnknownPointersWithZeros) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 512));
  CUcontext owner = nullptr;
  unsigned type = 0;
  CUdeviceptr device_pointer = 0;
  int ordinal = -1;
  unsigned long long id = 0;
  CUpointer_attribute attributes[] = {
      CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
      CU_POINTER_ATTRIBUTE_DEVICE_POINTER, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      CU_POINTER_ATTRIBUTE_BUFFER_ID};
  void* data[] = {&owner, &type, &device_pointer, &ordinal, &id};
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttributes(5, attributes, data, device + 16));
  EXPECT_EQ(owner, context());
  EXPECT_EQ(type, static_cast<unsigned>(CU_MEMORYTYPE_DEVICE));
  EXPECT_EQ(device_pointer, device + 16);
  EXPECT_EQ(ordinal, 0);
  EXPECT_EQ(id, Get<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, device));

  // CUDA: an unknown pointer is not an error here; the values are null.
  std::vector<int> pageable(16);
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttributes(5, attributes, data, Address(pageable.data())));
  EXPECT_EQ(owner, nullptr);
  EXPECT_EQ(type, 0u);
  EXPECT_EQ(device_pointer, 0u);
  EXPECT_EQ(id, 0u);
  // Freed memory is unknown memory.
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  type = 99;
  ASSERT_CU(CUDA_SUCCESS, cuPointerGetAttributes(5, attributes, data, device));
  EXPECT_EQ(type, 0u);
  EXPECT_EQ(owner, nullptr);
}

TEST_F(PointerAttributeConformance, HipDrvGetAttributesAnswersManyAtOnce) {
  ProvesLimitation();  // no P2P tokens
  void* device = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&device, 512));
  hipCtx_t owner = nullptr;
  unsigned type = 0;
  hipDeviceptr_t device_pointer = nullptr;
  int ordinal = -1;
  unsigned long long id = 0, single_id = 0;
  hipPointer_attribute attributes[] = {
      HIP_POINTER_ATTRIBUTE_CONTEXT, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
      HIP_POINTER_ATTRIBUTE_DEVICE_POINTER, HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
      HIP_POINTER_ATTRIBUTE_BUFFER_ID};
  void* data[] = {&owner, &type, &device_pointer, &ordinal, &id};
  hipDeviceptr_t interior = static_cast<char*>(device) + 16;
  ASSERT_HIP(hipSuccess, hipDrvPointerGetAttributes(5, attributes, data, interior));
  EXPECT_EQ(Object(owner), Object(context()));
  EXPECT_EQ(type, static_cast<unsigned>(hipMemoryTypeDevice));
  EXPECT_EQ(device_pointer, interior);
  EXPECT_EQ(ordinal, 0);
  ASSERT_HIP(hipSuccess,
             hipPointerGetAttribute(&single_id, HIP_POINTER_ATTRIBUTE_BUFFER_ID, device));
  EXPECT_EQ(id, single_id);
  // An unknown pointer answers with zeros; bad arguments are invalid.
  std::vector<int> pageable(16);
  ASSERT_HIP(hipSuccess, hipDrvPointerGetAttributes(5, attributes, data, pageable.data()));
  EXPECT_EQ(owner, nullptr);
  EXPECT_EQ(type, 0u);
  EXPECT_EQ(id, 0u);
  EXPECT_HIP(hipErrorInvalidValue, hipDrvPointerGetAttributes(5, nullptr, data, device));
  EXPECT_HIP(hipErrorInvalidValue, hipDrvPointerGetAttributes(5, attributes, nullptr, device));
  hipPointer_attribute unknown = static_cast<hipPointer_attribute>(999);
  void* one[] = {&type};
  EXPECT_HIP(hipErrorInvalidValue, hipDrvPointerGetAttributes(1, &unknown, one, device));
  // GPUDirect RDMA tokens do not exist on Vulkan.
  hipPointer_attribute tokens_attribute = HIP_POINTER_ATTRIBUTE_P2P_TOKENS;
  unsigned char tokens[64] = {};
  void* token_data[] = {tokens};
  EXPECT_HIP(hipErrorNotSupported,
             hipDrvPointerGetAttributes(1, &tokens_attribute, token_data, device));
  ASSERT_HIP(hipSuccess, hipFree(device));
}

TEST_F(PointerAttributeConformance, UnknownAndFreedPointersAreInvalid) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 512));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  int on_stack = 0;
  unsigned type = 77;
  for (CUdeviceptr pointer : {device, Address(&on_stack), CUdeviceptr{0}}) {
    SCOPED_TRACE(pointer);
    EXPECT_BOTH(
        CUDA_ERROR_INVALID_VALUE,
        cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer),
        hipPointerGetAttribute(&type, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, AsHipPointer(pointer)));
  }
  EXPECT_EQ(type, 77u);
  // ROCm 6: plain host memory is unregistered memory, and no error.
  hipPointerAttribute_t attributes;
  attributes.type = hipMemoryTypeDevice;
  attributes.devicePointer = &on_stack;
  ASSERT_HIP(hipSuccess, hipPointerGetAttributes(&attributes, &on_stack));
  EXPECT_EQ(attributes.type, hipMemoryTypeUnregistered);
  EXPECT_EQ(attributes.devicePointer, nullptr);
  EXPECT_EQ(attributes.hostPointer, nullptr);
  EXPECT_EQ(attributes.isManaged, 0);
}

TEST_F(PointerAttributeConformance, GetAttributeRejectsBadArguments) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 512));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuPointerGetAttribute(nullptr, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, device),
      hipPointerGetAttribute(nullptr, HIP_POINTER_ATTRIBUTE_MEMORY_TYPE, AsHipPointer(device)));
  unsigned long long value = 5;
  for (int attribute : {0, 21, -1, 1000}) {
    SCOPED_TRACE(attribute);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuPointerGetAttribute(&value, static_cast<CUpointer_attribute>(attribute), device),
                hipPointerGetAttribute(&value, static_cast<hipPointer_attribute>(attribute),
                                       AsHipPointer(device)));
  }
  CUpointer_attribute attributes[] = {CU_POINTER_ATTRIBUTE_BUFFER_ID,
                                      static_cast<CUpointer_attribute>(0)};
  unsigned long long first = 5, second = 5;
  void* data[] = {&first, &second};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(2, attributes, data, device));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(1, nullptr, data, device));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(1, attributes, nullptr, device));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(0, attributes, data, device));
  void* null_slot[] = {nullptr};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(1, attributes, null_slot, device));
  EXPECT_EQ(value, 5u);
  EXPECT_EQ(first, 5u);
  EXPECT_HIP(hipErrorInvalidValue, hipPointerGetAttributes(nullptr, AsHipPointer(device)));
  hipPointerAttribute_t hip_attributes = {};
  EXPECT_HIP(hipErrorInvalidValue, hipPointerGetAttributes(&hip_attributes, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(PointerAttributeConformance, P2pTokensAreNotAvailable) {
  // GPUDirect RDMA tokens name memory to third-party devices; Vulkan has no
  // such thing.
  ProvesLimitation();
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 512));
  CUDA_POINTER_ATTRIBUTE_P2P_TOKENS tokens = {};
  EXPECT_BOTH(
      CUDA_ERROR_NOT_SUPPORTED,
      cuPointerGetAttribute(&tokens, CU_POINTER_ATTRIBUTE_P2P_TOKENS, device),
      hipPointerGetAttribute(&tokens, HIP_POINTER_ATTRIBUTE_P2P_TOKENS, AsHipPointer(device)));
  CUpointer_attribute attribute = CU_POINTER_ATTRIBUTE_P2P_TOKENS;
  void* data[] = {&tokens};
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuPointerGetAttributes(1, &attribute, data, device));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(PointerAttributeConformance, BufferIdsAreUniqueAndNeverReused) {
  std::set<unsigned long long> seen;
  for (int i = 0; i < 20; ++i) {
    CUdeviceptr device = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 256));
    const auto id = Get<unsigned long long>(CU_POINTER_ATTRIBUTE_BUFFER_ID, device);
    EXPECT_TRUE(seen.insert(id).second) << "buffer id " << id << " handed out twice";
    // Freed at once, so the next allocation may reuse the address.
    ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
  void* pinned = nullptr;
  ASSERT_HIP(hipSuccess, hipHostMalloc(&pinned, 256, 0));
  unsigned long long id = 0;
  ASSERT_HIP(hipSuccess, hipPointerGetAttribute(&id, HIP_POINTER_ATTRIBUTE_BUFFER_ID, pinned));
  EXPECT_TRUE(seen.insert(id).second);
  ASSERT_HIP(hipSuccess, hipHostFree(pinned));
}

TEST_F(PointerAttributeConformance, SyncMemopsCanBeSetAndIsReported) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 1024));
  const unsigned on = 1, off = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device + 100));
  EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device), true);
  // The memory still works as before.
  const std::vector<float> values = Iota(256);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(device, values.data(), 1024));
  EXPECT_EQ(CudaDownload<float>(device, 256), values);
  ASSERT_HIP(hipSuccess,
             hipPointerSetAttribute(&off, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, AsHipPointer(device)));
  EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device), false);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(PointerAttributeConformance, SyncMemopsMakesSynchronousDeviceCopiesComplete) {
  // CUDA: with SYNC_MEMOPS set, synchronous memory operations on the region
  // always synchronize, even a device-to-device cuMemcpy, which otherwise
  // may return before the copy has run.
  constexpr size_t kBytes = 16 << 20;
  CUdeviceptr src = 0, dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&src, kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(src, 0x01020304, kBytes / 4));
  const unsigned on = 1;
  ASSERT_CU(CUDA_SUCCESS, cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dst));
  for (int round = 0; round < 3; ++round) {
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(src, 0x01020304 + round, kBytes / 4, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoD(dst, src, kBytes));
    EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(nullptr));
  }
  uint32_t last = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&last, dst + kBytes - 4, 4));
  EXPECT_EQ(last, 0x01020306u);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(src));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(dst));
}

TEST_F(PointerAttributeConformance, SetAttributeRejectsBadArguments) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 1024));
  const unsigned on = 1;
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuPointerSetAttribute(nullptr, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device),
      hipPointerSetAttribute(nullptr, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, AsHipPointer(device)));
  for (int attribute : {0, 1, 2, 7, 21}) {
    SCOPED_TRACE(attribute);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuPointerSetAttribute(&on, static_cast<CUpointer_attribute>(attribute), device),
                hipPointerSetAttribute(&on, static_cast<hipPointer_attribute>(attribute),
                                       AsHipPointer(device)));
  }
  int on_stack = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, Address(&on_stack)),
              hipPointerSetAttribute(&on, HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS, &on_stack));
  EXPECT_EQ(Get<bool>(CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device), false);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(device));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, device));
}

}  // namespace
}  // namespace streamhal::conformance
