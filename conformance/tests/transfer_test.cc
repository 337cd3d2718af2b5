// Rows: memory transfers and fills through both APIs (cuMemcpy*,
// hipMemcpy*, cuMemsetD*, hipMemset*), synchronous and on the default
// stream, with CUDA's rules for what a call waits for.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using TransferConformance = ContextTest;
using MemsetConformance = ContextTest;

// A handle of no object.
CUstream ForeignCudaStream() { return reinterpret_cast<CUstream>(0x7654320); }
hipStream_t ForeignHipStream() { return reinterpret_cast<hipStream_t>(0x7654320); }

std::vector<uint8_t> Bytes(size_t count, uint8_t first) {
  std::vector<uint8_t> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = static_cast<uint8_t>(first + i * 7);
  return bytes;
}

// A device allocation of `count` bytes filled with `fill`.
CUdeviceptr Filled(size_t count, uint8_t fill) {
  CUdeviceptr pointer = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, count));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8(pointer, fill, count));
  return pointer;
}

bool UnifiedAddressing() { return DeviceAttribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) == 1; }

// --- Synchronous copies with an explicit direction ------------------------------

TEST_F(TransferConformance, HostToDeviceAndBackRoundTrips) {
  for (size_t bytes : {size_t{1}, size_t{3}, size_t{4096}, size_t{1} << 20}) {
    const std::vector<uint8_t> values = Bytes(bytes, 11);
    CUdeviceptr device = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, bytes));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(device, values.data(), bytes));
    EXPECT_EQ(CudaDownload<uint8_t>(device, bytes), values);
    std::vector<uint8_t> hip_values = Bytes(bytes, 99);
    ASSERT_HIP(hipSuccess, hipMemcpyHtoD(AsHipPointer(device), hip_values.data(), bytes));
    std::vector<uint8_t> back(bytes);
    ASSERT_HIP(hipSuccess, hipMemcpyDtoH(back.data(), AsHipPointer(device), bytes));
    EXPECT_EQ(back, hip_values);
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
}

TEST_F(TransferConformance, CopiesAtInteriorPointersTouchOnlyTheirRange) {
  const CUdeviceptr device = Filled(1024, 0xee);
  const std::vector<uint8_t> cuda_part = Bytes(100, 1);
  const std::vector<uint8_t> hip_part = Bytes(50, 200);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(device + 13, cuda_part.data(), cuda_part.size()));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(AsHipPointer(device + 500),
                                       const_cast<uint8_t*>(hip_part.data()), hip_part.size()));
  std::vector<uint8_t> expected(1024, 0xee);
  std::memcpy(expected.data() + 13, cuda_part.data(), cuda_part.size());
  std::memcpy(expected.data() + 500, hip_part.data(), hip_part.size());
  EXPECT_EQ(CudaDownload<uint8_t>(device, 1024), expected);
  // Reads from interior pointers.
  std::vector<uint8_t> middle(100);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(middle.data(), device + 13, 100));
  EXPECT_EQ(middle, cuda_part);
  std::vector<uint8_t> hip_middle(50);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(hip_middle.data(), AsHipPointer(device + 500), 50));
  EXPECT_EQ(hip_middle, hip_part);
}

TEST_F(TransferConformance, DeviceToDeviceCopiesBetweenAndWithinAllocations) {
  const std::vector<uint8_t> values = Bytes(4096, 5);
  CUdeviceptr source = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&source, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(source, values.data(), 4096));
  const CUdeviceptr cuda_target = Filled(4096, 0);
  const CUdeviceptr hip_target = Filled(4096, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoD(cuda_target, source, 4096));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoD(AsHipPointer(hip_target), AsHipPointer(source), 4096));
  EXPECT_EQ(CudaDownload<uint8_t>(cuda_target, 4096), values);
  EXPECT_EQ(CudaDownload<uint8_t>(hip_target, 4096), values);
  // Within one allocation, disjoint ranges.
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoD(cuda_target + 2048, cuda_target, 1024));
  std::vector<uint8_t> expected = values;
  std::memcpy(expected.data() + 2048, values.data(), 1024);
  EXPECT_EQ(CudaDownload<uint8_t>(cuda_target, 4096), expected);
}

// Copying a range onto itself is a no-op that succeeds (NVIDIA and AMD);
// only a partial overlap is an error.
TEST_F(TransferConformance, CopiesOntoThemselvesSucceedAndChangeNothing) {
  const std::vector<uint8_t> values = Bytes(4096, 11);
  CUdeviceptr buffer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&buffer, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(buffer, values.data(), 4096));
  void* p = AsHipPointer(buffer);
  void* interior = AsHipPointer(buffer + 1024);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoD(buffer, buffer, 4096));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy(buffer + 1024, buffer + 1024, 1024));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(buffer, buffer, 4096, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyAsync(buffer, buffer, 4096, nullptr));
  EXPECT_HIP(hipSuccess, hipMemcpy(p, p, 4096, hipMemcpyDefault));
  EXPECT_HIP(hipSuccess, hipMemcpy(interior, interior, 1024, hipMemcpyDeviceToDevice));
  EXPECT_HIP(hipSuccess, hipMemcpyDtoD(p, p, 4096));
  EXPECT_HIP(hipSuccess, hipMemcpyAsync(p, p, 4096, hipMemcpyDefault, nullptr));
  EXPECT_HIP(hipSuccess, hipMemcpyDtoDAsync(p, p, 4096, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(buffer, 4096), values);
  // Host memory onto itself, too.
  std::vector<uint8_t> host = values;
  EXPECT_HIP(hipSuccess, hipMemcpy(host.data(), host.data(), host.size(), hipMemcpyHostToHost));
  EXPECT_EQ(host, values);
  // A partial overlap stays an error and writes nothing.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(buffer + 16, buffer, 1024),
              hipMemcpyDtoD(AsHipPointer(buffer + 16), p, 1024));
  EXPECT_EQ(CudaDownload<uint8_t>(buffer, 4096), values);
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(buffer));
}

TEST_F(TransferConformance, RangesOutsideAnAllocationAreRejectedAndWriteNothing) {
  const CUdeviceptr device = Filled(256, 0x5a);
  const CUdeviceptr other = Filled(256, 0x33);
  std::vector<uint8_t> host(512, 0x11);
  // The copy would run 1 byte past the end: nothing at all is written.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(device + 1, host.data(), 256),
              hipMemcpyHtoD(AsHipPointer(device + 1), host.data(), 256));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(device, host.data(), 512),
              hipMemcpyHtoD(AsHipPointer(device), host.data(), 512));
  EXPECT_EQ(CudaDownload<uint8_t>(device, 256), std::vector<uint8_t>(256, 0x5a));
  // Reading past the end leaves the host buffer alone.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), device + 128, 129),
              hipMemcpyDtoH(host.data(), AsHipPointer(device + 128), 129));
  EXPECT_EQ(host, std::vector<uint8_t>(512, 0x11));
  // Device to device: either end outside.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(other, device + 8, 256),
              hipMemcpyDtoD(AsHipPointer(other), AsHipPointer(device + 8), 256));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(other + 8, device, 256),
              hipMemcpyDtoD(AsHipPointer(other + 8), AsHipPointer(device), 256));
  EXPECT_EQ(CudaDownload<uint8_t>(other, 256), std::vector<uint8_t>(256, 0x33));
  // A pointer between allocations, or host memory given as device memory.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(AsCudaPointer(host.data()), host.data(), 4),
              hipMemcpyHtoD(host.data(), host.data(), 4));
}

TEST_F(TransferConformance, FreedAndNullPointersAreRejected) {
  // The live allocation is made first: a later one may reuse the freed range.
  const CUdeviceptr live = Filled(64, 0x77);
  CUdeviceptr freed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&freed, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(freed));
  std::vector<uint8_t> host(64, 1);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(freed, host.data(), 64),
              hipMemcpyHtoD(AsHipPointer(freed), host.data(), 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), freed, 64),
              hipMemcpyDtoH(host.data(), AsHipPointer(freed), 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(live, freed, 64),
              hipMemcpyDtoD(AsHipPointer(live), AsHipPointer(freed), 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0, host.data(), 64),
              hipMemcpyHtoD(nullptr, host.data(), 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(live, nullptr, 64),
              hipMemcpyHtoD(AsHipPointer(live), nullptr, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(nullptr, live, 64),
              hipMemcpyDtoH(nullptr, AsHipPointer(live), 64));
  EXPECT_EQ(CudaDownload<uint8_t>(live, 64), std::vector<uint8_t>(64, 0x77));
  EXPECT_EQ(host, std::vector<uint8_t>(64, 1));
}

TEST_F(TransferConformance, ZeroByteCopiesSucceedAndDoNothing) {
  const CUdeviceptr device = Filled(16, 0x42);
  std::vector<uint8_t> host(16, 0);
  EXPECT_BOTH(CUDA_SUCCESS, cuMemcpyHtoD(device, host.data(), 0),
              hipMemcpyHtoD(AsHipPointer(device), host.data(), 0));
  EXPECT_BOTH(CUDA_SUCCESS, cuMemcpyDtoH(host.data(), device, 0),
              hipMemcpyDtoH(host.data(), AsHipPointer(device), 0));
  EXPECT_BOTH(CUDA_SUCCESS, cuMemcpyDtoD(device, device, 0),
              hipMemcpyDtoD(AsHipPointer(device), AsHipPointer(device), 0));
  EXPECT_EQ(CudaDownload<uint8_t>(device, 16), std::vector<uint8_t>(16, 0x42));
  EXPECT_EQ(host, std::vector<uint8_t>(16, 0));
}

TEST_F(TransferConformance, CopiesNeedACurrentContextInTheDriverApi) {
  const CUdeviceptr device = Filled(16, 0);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  std::vector<uint8_t> host(16);
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyHtoD(device, host.data(), 16));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyDtoH(host.data(), device, 16));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyDtoD(device, device, 8));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpy(device, device, 8));
}

// --- hipMemcpy with each kind, cuMemcpy / hipMemcpyDefault ------------------------

TEST_F(TransferConformance, HipMemcpyCopiesInEveryExplicitDirection) {
  const std::vector<uint8_t> values = Bytes(1000, 3);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a, 1000));
  ASSERT_HIP(hipSuccess, hipMalloc(&b, 1000));
  ASSERT_HIP(hipSuccess, hipMemcpy(a, values.data(), 1000, hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess, hipMemcpy(b, a, 1000, hipMemcpyDeviceToDevice));
  std::vector<uint8_t> back(1000), copy(1000);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), b, 1000, hipMemcpyDeviceToHost));
  EXPECT_EQ(back, values);
  ASSERT_HIP(hipSuccess, hipMemcpy(copy.data(), back.data(), 1000, hipMemcpyHostToHost));
  EXPECT_EQ(copy, values);
  EXPECT_HIP(hipSuccess, hipFree(a));
  EXPECT_HIP(hipSuccess, hipFree(b));
}

TEST_F(TransferConformance, HipMemcpyRejectsUnknownKinds) {
  void* device = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&device, 16));
  std::vector<uint8_t> host(16);
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipMemcpy(device, host.data(), 16, static_cast<hipMemcpyKind>(7)));
  // Outside the enum, passed as C passes it (c_callers.h).
  EXPECT_HIP(hipErrorInvalidMemcpyDirection, CCallHipMemcpy(device, host.data(), 16, -1));
  EXPECT_HIP(hipSuccess, hipFree(device));
}

TEST_F(TransferConformance, CopyInfersTheDirectionFromThePointers) {
  ASSERT_TRUE(UnifiedAddressing()) << "lavapipe keeps host and device addresses disjoint";
  const std::vector<uint8_t> values = Bytes(512, 17);
  const CUdeviceptr a = Filled(512, 0);
  const CUdeviceptr b = Filled(512, 0);
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 512));
  std::vector<uint8_t> back(512, 0), host_copy(512, 0);
  // Host to device, device to device, device to host, host to host; pageable
  // and page-locked host memory alike.
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(a, AsCudaPointer(values.data()), 512));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(b, a, 512));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(AsCudaPointer(pinned), b, 512));
  EXPECT_EQ(std::memcmp(pinned, values.data(), 512), 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(AsCudaPointer(back.data()), AsCudaPointer(pinned), 512));
  EXPECT_EQ(back, values);
  // The same through hipMemcpyDefault.
  const std::vector<uint8_t> hip_values = Bytes(512, 71);
  ASSERT_HIP(hipSuccess, hipMemcpy(AsHipPointer(a), hip_values.data(), 512, hipMemcpyDefault));
  ASSERT_HIP(hipSuccess, hipMemcpy(AsHipPointer(b), AsHipPointer(a), 512, hipMemcpyDefault));
  ASSERT_HIP(hipSuccess, hipMemcpy(pinned, AsHipPointer(b), 512, hipMemcpyDefault));
  ASSERT_HIP(hipSuccess, hipMemcpy(host_copy.data(), pinned, 512, hipMemcpyDefault));
  EXPECT_EQ(host_copy, hip_values);
  // Interior pointers are classified like their allocation.
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy(a + 100, AsCudaPointer(values.data()), 10));
  std::vector<uint8_t> ten(10);
  ASSERT_HIP(hipSuccess, hipMemcpy(ten.data(), AsHipPointer(a + 100), 10, hipMemcpyDefault));
  EXPECT_EQ(ten, std::vector<uint8_t>(values.begin(), values.begin() + 10));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

TEST_F(TransferConformance, CopyWithInferredDirectionRejectsNullPointers) {
  ASSERT_TRUE(UnifiedAddressing());
  const CUdeviceptr a = Filled(64, 0x21);
  std::vector<uint8_t> host(64, 0);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy(0, a, 16),
              hipMemcpy(nullptr, AsHipPointer(a), 16, hipMemcpyDefault));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy(a, 0, 16),
              hipMemcpy(AsHipPointer(a), nullptr, 16, hipMemcpyDefault));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAsync(AsCudaPointer(host.data()), 0, 16, nullptr),
              hipMemcpyAsync(host.data(), nullptr, 16, hipMemcpyDefault, nullptr));
  EXPECT_EQ(CudaDownload<uint8_t>(a, 64), std::vector<uint8_t>(64, 0x21));
}

// A range that starts inside a device allocation and runs past its end is
// an error whatever the direction, as with explicit directions; it is not
// host memory.
TEST_F(TransferConformance, CopyWithInferredDirectionRejectsRangesRunningPastAnAllocation) {
  ASSERT_TRUE(UnifiedAddressing());
  const CUdeviceptr a = Filled(256, 0x21);
  const CUdeviceptr b = Filled(256, 0x43);
  const std::vector<uint8_t> host(256, 0x99);
  std::vector<uint8_t> sink(256, 0);
  const CUdeviceptr host_address = AsCudaPointer(host.data());
  // As a source.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy(b, a + 192, 128),
              hipMemcpy(AsHipPointer(b), AsHipPointer(a + 192), 128, hipMemcpyDefault));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy(AsCudaPointer(sink.data()), a + 192, 128),
              hipMemcpy(sink.data(), AsHipPointer(a + 192), 128, hipMemcpyDefault));
  // As a destination.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy(a + 192, host_address, 128),
              hipMemcpy(AsHipPointer(a + 192), host.data(), 128, hipMemcpyDefault));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyAsync(a + 192, host_address, 128, nullptr),
              hipMemcpyAsync(AsHipPointer(a + 192), host.data(), 128, hipMemcpyDefault, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpyWithStream(AsHipPointer(a + 192), host.data(), 128,
                                                       hipMemcpyDefault, nullptr));
  // Nothing was read or written.
  EXPECT_EQ(CudaDownload<uint8_t>(a, 256), std::vector<uint8_t>(256, 0x21));
  EXPECT_EQ(CudaDownload<uint8_t>(b, 256), std::vector<uint8_t>(256, 0x43));
  EXPECT_EQ(sink, std::vector<uint8_t>(256, 0));
}

// --- The default stream: async forms, ordering, hipMemcpyWithStream ----------------

TEST_F(TransferConformance, AsyncCopiesRunInOrderOnTheDefaultStreams) {
  void* pinned_in = nullptr;
  void* pinned_out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned_in, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned_out, 4096));
  const std::vector<uint8_t> values = Bytes(4096, 9);
  std::memcpy(pinned_in, values.data(), 4096);
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&a, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&b, 4096));
  // The null stream and CU_STREAM_LEGACY are the context's legacy default
  // stream.
  for (CUstream stream : {CUstream{nullptr}, CU_STREAM_LEGACY}) {
    std::memset(pinned_out, 0, 4096);
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(a, 0, 4096, stream));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, pinned_in, 4096, stream));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(b, a, 4096, stream));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(pinned_out, b, 4096, stream));
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
    EXPECT_EQ(std::memcmp(pinned_out, values.data(), 4096), 0);
  }
  {
    hipStream_t stream = nullptr;
    std::memset(pinned_out, 0, 4096);
    ASSERT_HIP(hipSuccess, hipMemsetAsync(AsHipPointer(a), 0, 4096, stream));
    ASSERT_HIP(hipSuccess, hipMemcpyHtoDAsync(AsHipPointer(a), pinned_in, 4096, stream));
    ASSERT_HIP(hipSuccess, hipMemcpyDtoDAsync(AsHipPointer(b), AsHipPointer(a), 4096, stream));
    ASSERT_HIP(hipSuccess, hipMemcpyDtoHAsync(pinned_out, AsHipPointer(b), 4096, stream));
    ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
    EXPECT_EQ(std::memcmp(pinned_out, values.data(), 4096), 0);
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned_in));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned_out));
}

TEST_F(TransferConformance, AsyncCopiesRunInOrderOnCreatedStreams) {
  void* pinned_in = nullptr;
  void* pinned_out = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned_in, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned_out, 4096));
  const std::vector<uint8_t> values = Bytes(4096, 21);
  std::memcpy(pinned_in, values.data(), 4096);
  CUdeviceptr a = 0, b = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&a, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&b, 4096));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  std::memset(pinned_out, 0, 4096);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, pinned_in, 4096, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(b, a, 4096, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(pinned_out, b, 4096, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(std::memcmp(pinned_out, values.data(), 4096), 0);

  hipStream_t hip_stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&hip_stream, hipStreamNonBlocking));
  std::memset(pinned_out, 0, 4096);
  ASSERT_HIP(hipSuccess, hipMemsetAsync(AsHipPointer(a), 0, 4096, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoDAsync(AsHipPointer(a), pinned_in, 4096, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoDAsync(AsHipPointer(b), AsHipPointer(a), 4096, hip_stream));
  ASSERT_HIP(hipSuccess,
             hipMemcpyAsync(pinned_out, AsHipPointer(b), 4096, hipMemcpyDeviceToHost, hip_stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  EXPECT_EQ(std::memcmp(pinned_out, values.data(), 4096), 0);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(hip_stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned_in));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned_out));
}

TEST_F(TransferConformance, AsyncCopiesOfPageableMemoryFollowCudaRules) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 4096));
  // CUDA: from pageable memory the source is read before the call returns,
  // so the caller may reuse it at once.
  std::vector<uint8_t> source = Bytes(4096, 1);
  const std::vector<uint8_t> expected = source;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(device, source.data(), 4096, nullptr));
  std::fill(source.begin(), source.end(), 0);
  // CUDA: to pageable memory the call returns once the copy has completed.
  std::vector<uint8_t> destination(4096, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(destination.data(), device, 4096, nullptr));
  EXPECT_EQ(destination, expected);
  // The same through HIP.
  std::vector<uint8_t> hip_source = Bytes(4096, 50);
  const std::vector<uint8_t> hip_expected = hip_source;
  ASSERT_HIP(hipSuccess, hipMemcpyAsync(AsHipPointer(device), hip_source.data(), 4096,
                                        hipMemcpyHostToDevice, nullptr));
  std::fill(hip_source.begin(), hip_source.end(), 0);
  std::vector<uint8_t> hip_destination(4096, 0);
  ASSERT_HIP(hipSuccess, hipMemcpyAsync(hip_destination.data(), AsHipPointer(device), 4096,
                                        hipMemcpyDeviceToHost, nullptr));
  EXPECT_EQ(hip_destination, hip_expected);
}

TEST_F(TransferConformance, AsyncCopyInfersTheDirection) {
  ASSERT_TRUE(UnifiedAddressing());
  const std::vector<uint8_t> values = Bytes(256, 33);
  const CUdeviceptr a = Filled(256, 0);
  const CUdeviceptr b = Filled(256, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAsync(a, AsCudaPointer(values.data()), 256, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAsync(b, a, 256, nullptr));
  std::vector<uint8_t> back(256);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyAsync(AsCudaPointer(back.data()), b, 256, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(back, values);
  std::vector<uint8_t> hip_back(256);
  ASSERT_HIP(hipSuccess,
             hipMemcpyAsync(hip_back.data(), AsHipPointer(b), 256, hipMemcpyDefault, nullptr));
  ASSERT_HIP(hipSuccess, hipCtxSynchronize());
  EXPECT_EQ(hip_back, values);
}

TEST_F(TransferConformance, AsyncCopiesRejectUnknownStreamsAndBadRanges) {
  const CUdeviceptr device = Filled(64, 0x3c);
  std::vector<uint8_t> host(128, 0);
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuMemcpyHtoDAsync(device, host.data(), 64, ForeignCudaStream()),
              hipMemcpyHtoDAsync(AsHipPointer(device), host.data(), 64, ForeignHipStream()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuMemcpyDtoHAsync(host.data(), device, 64, ForeignCudaStream()),
              hipMemcpyDtoHAsync(host.data(), AsHipPointer(device), 64, ForeignHipStream()));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_HANDLE, cuMemcpyDtoDAsync(device, device + 32, 32, ForeignCudaStream()),
      hipMemcpyDtoDAsync(AsHipPointer(device), AsHipPointer(device + 32), 32, ForeignHipStream()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuMemcpyAsync(device, AsCudaPointer(host.data()), 64, ForeignCudaStream()),
              hipMemcpyAsync(AsHipPointer(device), host.data(), 64, hipMemcpyHostToDevice,
                             ForeignHipStream()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoDAsync(device, host.data(), 128, nullptr),
              hipMemcpyHtoDAsync(AsHipPointer(device), host.data(), 128, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoHAsync(host.data(), device + 1, 64, nullptr),
              hipMemcpyDtoHAsync(host.data(), AsHipPointer(device + 1), 64, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoDAsync(device, device + 33, 32, nullptr),
              hipMemcpyDtoDAsync(AsHipPointer(device), AsHipPointer(device + 33), 32, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(device, 64), std::vector<uint8_t>(64, 0x3c));
  EXPECT_EQ(host, std::vector<uint8_t>(128, 0));
}

TEST_F(TransferConformance, HipMemcpyWithStreamCompletesBeforeReturning) {
  const std::vector<uint8_t> values = Bytes(2048, 4);
  void* device = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&device, 2048));
  ASSERT_HIP(hipSuccess,
             hipMemcpyWithStream(device, values.data(), 2048, hipMemcpyHostToDevice, nullptr));
  std::vector<uint8_t> back(2048, 0);
  ASSERT_HIP(hipSuccess,
             hipMemcpyWithStream(back.data(), device, 2048, hipMemcpyDeviceToHost, nullptr));
  EXPECT_EQ(back, values);
  void* other = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&other, 2048));
  ASSERT_HIP(hipSuccess, hipMemcpyWithStream(other, device, 2048, hipMemcpyDefault, nullptr));
  std::vector<uint8_t> again(2048, 0);
  ASSERT_HIP(hipSuccess, hipMemcpyWithStream(again.data(), other, 2048, hipMemcpyDefault, nullptr));
  EXPECT_EQ(again, values);
  EXPECT_HIP(hipErrorInvalidHandle,
             hipMemcpyWithStream(other, device, 16, hipMemcpyDeviceToDevice, ForeignHipStream()));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemcpyWithStream(other, device, 4096, hipMemcpyDeviceToDevice, nullptr));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             CCallHipMemcpyWithStream(other, device, 16, 9, nullptr));
  EXPECT_HIP(hipSuccess, hipFree(device));
  EXPECT_HIP(hipSuccess, hipFree(other));
}

TEST_F(TransferConformance, SynchronousCopiesWaitForEarlierLaunches) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  const std::vector<float> values = Iota(4096);
  CUdeviceptr data = CudaUpload(values);
  float scale = 3.0f, offset = -1.0f;
  uint32_t n = 4096;
  void* params[] = {&data, &scale, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  // No cuCtxSynchronize: the blocking copy waits for the launch (CUDA's
  // legacy default stream).
  const std::vector<float> result = CudaDownload<float>(data, 4096);
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(result[i], values[i] * 3.0f - 1.0f) << i;
  // A copy before a launch is seen by it.
  const std::vector<float> ones(4096, 1.0f);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(AsHipPointer(data), const_cast<float*>(ones.data()),
                                       4096 * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> hip_result(4096);
  ASSERT_HIP(hipSuccess,
             hipMemcpyDtoH(hip_result.data(), AsHipPointer(data), 4096 * sizeof(float)));
  EXPECT_EQ(hip_result, std::vector<float>(4096, 2.0f));
}

// --- Fills -----------------------------------------------------------------------

TEST_F(MemsetConformance, FillsExactlyTheirElements) {
  const CUdeviceptr device = Filled(256, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(device + 1, 0xab, 5));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD16(device + 16, 0x1234, 3));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(device + 32, 0xdeadbeef, 4));
  ASSERT_HIP(hipSuccess, hipMemsetD8(AsHipPointer(device + 100), 0xcd, 7));
  ASSERT_HIP(hipSuccess, hipMemsetD16(AsHipPointer(device + 120), 0xbeef, 2));
  ASSERT_HIP(hipSuccess, hipMemsetD32(AsHipPointer(device + 128), -2, 3));
  // hipMemset fills bytes with the low byte of its int.
  ASSERT_HIP(hipSuccess, hipMemset(AsHipPointer(device + 200), 0x1ef, 9));

  std::vector<uint8_t> expected(256, 0);
  std::fill_n(expected.begin() + 1, 5, 0xab);
  for (int i = 0; i < 3; ++i) {
    const uint16_t v = 0x1234;
    std::memcpy(expected.data() + 16 + 2 * i, &v, 2);
  }
  for (int i = 0; i < 4; ++i) {
    const uint32_t v = 0xdeadbeef;
    std::memcpy(expected.data() + 32 + 4 * i, &v, 4);
  }
  std::fill_n(expected.begin() + 100, 7, 0xcd);
  for (int i = 0; i < 2; ++i) {
    const uint16_t v = 0xbeef;
    std::memcpy(expected.data() + 120 + 2 * i, &v, 2);
  }
  for (int i = 0; i < 3; ++i) {
    const int32_t v = -2;
    std::memcpy(expected.data() + 128 + 4 * i, &v, 4);
  }
  std::fill_n(expected.begin() + 200, 9, 0xef);
  EXPECT_EQ(CudaDownload<uint8_t>(device, 256), expected);
}

TEST_F(MemsetConformance, LargeFillsCoverTheWholeRange) {
  constexpr size_t kCount = (size_t{8} << 20) / 4 + 3;
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kCount * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(device, 0x01020304, kCount));
  std::vector<uint32_t> result = CudaDownload<uint32_t>(device, kCount);
  for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(result[i], 0x01020304u) << i;
  ASSERT_HIP(hipSuccess, hipMemset(AsHipPointer(device), 0x7f, kCount * 4));
  result = CudaDownload<uint32_t>(device, kCount);
  for (size_t i = 0; i < kCount; ++i) ASSERT_EQ(result[i], 0x7f7f7f7fu) << i;
}

TEST_F(MemsetConformance, MisalignedWideFillsAreRejectedAndWriteNothing) {
  const CUdeviceptr device = Filled(64, 0x66);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(device + 1, 0xffff, 4),
              hipMemsetD16(AsHipPointer(device + 1), 0xffff, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(device + 2, 0xffffffff, 4),
              hipMemsetD32(AsHipPointer(device + 2), -1, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD16Async(device + 3, 0xffff, 4, nullptr),
              hipMemsetD16Async(AsHipPointer(device + 3), 0xffff, 4, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32Async(device + 6, 0xffffffff, 4, nullptr),
              hipMemsetD32Async(AsHipPointer(device + 6), -1, 4, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(device, 64), std::vector<uint8_t>(64, 0x66));
}

TEST_F(MemsetConformance, RangesOutsideAnAllocationAreRejectedAndWriteNothing) {
  const CUdeviceptr device = Filled(64, 0x12);
  CUdeviceptr freed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&freed, 64));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(freed));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(device, 0, 65),
              hipMemsetD8(AsHipPointer(device), 0, 65));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(device + 2, 0, 32),
              hipMemsetD16(AsHipPointer(device + 2), 0, 32));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(device + 4, 0, 16),
              hipMemsetD32(AsHipPointer(device + 4), 0, 16));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD8Async(device + 60, 0, 5, nullptr),
              hipMemsetAsync(AsHipPointer(device + 60), 0, 5, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipMemset(AsHipPointer(device + 1), 0, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(freed, 0, 4),
              hipMemsetD32(AsHipPointer(freed), 0, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD8(0, 0, 4), hipMemset(nullptr, 0, 4));
  // A count whose byte size overflows.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(device, 0, SIZE_MAX / 2),
              hipMemsetD32(AsHipPointer(device), 0, SIZE_MAX / 2));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(device, 64), std::vector<uint8_t>(64, 0x12));
}

TEST_F(MemsetConformance, ZeroCountFillsSucceedAndWriteNothing) {
  const CUdeviceptr device = Filled(16, 0x9);
  EXPECT_BOTH(CUDA_SUCCESS, cuMemsetD8(device, 1, 0), hipMemsetD8(AsHipPointer(device), 1, 0));
  EXPECT_BOTH(CUDA_SUCCESS, cuMemsetD16(device, 1, 0), hipMemsetD16(AsHipPointer(device), 1, 0));
  EXPECT_BOTH(CUDA_SUCCESS, cuMemsetD32(device, 1, 0), hipMemsetD32(AsHipPointer(device), 1, 0));
  EXPECT_HIP(hipSuccess, hipMemset(AsHipPointer(device), 1, 0));
  EXPECT_EQ(CudaDownload<uint8_t>(device, 16), std::vector<uint8_t>(16, 0x9));
}

TEST_F(MemsetConformance, AsyncFillsRunInStreamOrder) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 64));
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 64));
  // Later fills overwrite earlier ones in issue order.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(device, 0x11111111, 16, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD16Async(device + 8, 0x2222, 8, CU_STREAM_LEGACY));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(device + 12, 0x33, 4, nullptr));
  ASSERT_HIP(hipSuccess, hipMemsetD8Async(AsHipPointer(device + 40), 0x44, 2, nullptr));
  ASSERT_HIP(hipSuccess, hipMemsetD16Async(AsHipPointer(device + 44), 0x5555, 2, nullptr));
  ASSERT_HIP(hipSuccess, hipMemsetD32Async(AsHipPointer(device + 48), 0x66666666, 2, nullptr));
  ASSERT_HIP(hipSuccess, hipMemsetAsync(AsHipPointer(device + 60), 0x177, 4, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(pinned, device, 64, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  std::vector<uint8_t> expected(64, 0x11);
  std::fill_n(expected.begin() + 8, 16, 0x22);
  std::fill_n(expected.begin() + 12, 4, 0x33);
  std::fill_n(expected.begin() + 40, 2, 0x44);
  std::fill_n(expected.begin() + 44, 4, 0x55);
  std::fill_n(expected.begin() + 48, 8, 0x66);
  std::fill_n(expected.begin() + 60, 4, 0x77);
  EXPECT_EQ(std::memcmp(pinned, expected.data(), 64), 0);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

TEST_F(MemsetConformance, AsyncFillsRunOnCreatedStreams) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 64));
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 64));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  hipStream_t hip_stream = reinterpret_cast<hipStream_t>(stream);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(device, 0x01010101, 16, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD16Async(device + 16, 0x0202, 8, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8Async(device + 32, 0x03, 8, stream));
  ASSERT_HIP(hipSuccess, hipMemsetD32Async(AsHipPointer(device + 40), 0x04040404, 2, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemsetD16Async(AsHipPointer(device + 48), 0x0505, 4, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemsetD8Async(AsHipPointer(device + 56), 0x06, 4, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemsetAsync(AsHipPointer(device + 60), 0x07, 4, hip_stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoHAsync(pinned, device, 64, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<uint8_t> expected(64);
  const uint8_t fills[] = {1, 2, 3, 4, 5, 6, 7};
  const size_t starts[] = {0, 16, 32, 40, 48, 56, 60, 64};
  for (int i = 0; i < 7; ++i) {
    std::fill(expected.begin() + static_cast<std::ptrdiff_t>(starts[i]),
              expected.begin() + static_cast<std::ptrdiff_t>(starts[i + 1]), fills[i]);
  }
  EXPECT_EQ(std::memcmp(pinned, expected.data(), 64), 0);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

TEST_F(MemsetConformance, AsyncFillsRejectUnknownStreams) {
  const CUdeviceptr device = Filled(16, 0);
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuMemsetD8Async(device, 1, 16, ForeignCudaStream()),
              hipMemsetD8Async(AsHipPointer(device), 1, 16, ForeignHipStream()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuMemsetD16Async(device, 1, 8, ForeignCudaStream()),
              hipMemsetD16Async(AsHipPointer(device), 1, 8, ForeignHipStream()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuMemsetD32Async(device, 1, 4, ForeignCudaStream()),
              hipMemsetD32Async(AsHipPointer(device), 1, 4, ForeignHipStream()));
  EXPECT_HIP(hipErrorInvalidHandle,
             hipMemsetAsync(AsHipPointer(device), 1, 16, ForeignHipStream()));
  EXPECT_EQ(CudaDownload<uint8_t>(device, 16), std::vector<uint8_t>(16, 0));
}

TEST_F(MemsetConformance, FillsNeedACurrentContextInTheDriverApi) {
  const CUdeviceptr device = Filled(16, 0);
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemsetD8(device, 1, 16));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemsetD32Async(device, 1, 4, nullptr));
}

}  // namespace
}  // namespace streamhal::conformance
