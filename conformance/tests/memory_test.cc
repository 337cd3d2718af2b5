// Rows: memory management through both APIs (device allocations, pitched
// allocations, address ranges, memory info, page-locked host memory allocated
// or registered, and its device pointers).
#include <cuda.h>
#include <hip/hip_runtime_api.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using MemoryConformance = ContextTest;

// CUDA: cuMemAlloc memory "is suitably aligned for any kind of variable";
// the driver guarantees 256 bytes.
constexpr uint64_t kAllocationAlignment = 256;

// Runs `function` (scale_offset: data[i] = data[i] * 2 + 1) on `count`
// floats at the device address `data`, and waits for the default stream.
void ScaleOnDevice(CUfunction function, CUdeviceptr data, uint32_t count) {
  ASSERT_NE(function, nullptr);
  float scale = 2.0f, offset = 1.0f;
  void* params[] = {&data, &scale, &offset, &count};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (count + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                         params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
}

// Page-aligned host memory for cuMemHostRegister.
struct AlignedHostBuffer {
  explicit AlignedHostBuffer(size_t bytes) : size(bytes) {
    data = static_cast<float*>(std::aligned_alloc(4096, bytes));
  }
  ~AlignedHostBuffer() { std::free(data); }
  float* data;
  size_t size;
};

// --- cuMemAlloc / hipMalloc -------------------------------------------------

TEST_F(MemoryConformance, AllocGivesAlignedDistinctUsableMemory) {
  CUdeviceptr cuda_pointer = 0;
  void* hip_pointer = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&cuda_pointer, 1000));
  ASSERT_HIP(hipSuccess, hipMalloc(&hip_pointer, 1000));
  ASSERT_NE(cuda_pointer, 0u);
  ASSERT_NE(hip_pointer, nullptr);
  EXPECT_EQ(cuda_pointer % kAllocationAlignment, 0u);
  EXPECT_EQ(AsCudaPointer(hip_pointer) % kAllocationAlignment, 0u);
  // The two ranges do not overlap.
  const CUdeviceptr hip_address = AsCudaPointer(hip_pointer);
  EXPECT_TRUE(cuda_pointer + 1000 <= hip_address || hip_address + 1000 <= cuda_pointer);

  const std::vector<float> values = Iota(250, 0.5f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(cuda_pointer, values.data(), 1000));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(hip_pointer, const_cast<float*>(values.data()), 1000));
  EXPECT_EQ(CudaDownload<float>(cuda_pointer, 250), values);
  std::vector<float> back(250);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(back.data(), hip_pointer, 1000));
  EXPECT_EQ(back, values);

  EXPECT_CU(CUDA_SUCCESS, cuMemFree(cuda_pointer));
  EXPECT_HIP(hipSuccess, hipFree(hip_pointer));
}

TEST_F(MemoryConformance, AllocOfZeroBytesIsInvalidInCudaAndNullInHip) {
  // CUDA: "If bytesize is 0, cuMemAlloc() returns CUDA_ERROR_INVALID_VALUE";
  // HIP: "If size is 0, no memory is allocated, *ptr returns nullptr, and
  // hipSuccess is returned".
  CUdeviceptr cuda_pointer = 0x1234;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&cuda_pointer, 0));
  void* hip_pointer = reinterpret_cast<void*>(0x1234);
  EXPECT_HIP(hipSuccess, hipMalloc(&hip_pointer, 0));
  EXPECT_EQ(hip_pointer, nullptr);
  EXPECT_HIP(hipSuccess, hipFree(hip_pointer));
}

TEST_F(MemoryConformance, AllocRejectsNullOutputAndHugeSizes) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(nullptr, 16), hipMalloc(nullptr, 16));
  CUdeviceptr cuda_pointer = 0;
  void* hip_pointer = nullptr;
  EXPECT_BOTH(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&cuda_pointer, size_t{1} << 62),
              hipMalloc(&hip_pointer, size_t{1} << 62));
  EXPECT_EQ(cuda_pointer, 0u);
  EXPECT_EQ(hip_pointer, nullptr);
}

TEST_F(MemoryConformance, CudaAllocNeedsAContextAndHipUsesThePrimaryOne) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  CUdeviceptr cuda_pointer = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&cuda_pointer, 16));
  // cuMemFree needs no current context: the address names its own.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(0x1000));
  // The HIP runtime makes the device's primary context current.
  void* hip_pointer = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&hip_pointer, 16));
  EXPECT_NE(hip_pointer, nullptr);
  EXPECT_NE(CudaCurrent(), nullptr);
  EXPECT_HIP(hipSuccess, hipFree(hip_pointer));
}

// NVIDIA's driver frees memory with any context current or none (ffmpeg's
// thumbnail_cuda frees that way); the memory is gone from its context.
TEST_F(MemoryConformance, FreeNeedsNoCurrentContext) {
  CUdeviceptr memory = 0;
  void* host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&memory, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&host, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(memory));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(memory));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(host));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context()));
  CUdeviceptr base = 0;
  size_t size = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, memory));
}

TEST_F(MemoryConformance, HundredThousandSmallAllocationsStayLive) {
  // Vulkan caps device memory objects (often at 4096); allocations are
  // sub-allocated, so CUDA-style counts of small allocations work.
  constexpr int kCount = 100000;
  const auto start = std::chrono::steady_clock::now();
  std::vector<CUdeviceptr> pointers(kCount);
  for (int i = 0; i < kCount; ++i) {
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&pointers[i], 16)) << "allocation " << i;
  }
  std::vector<CUdeviceptr> sorted = pointers;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 1; i < kCount; ++i) ASSERT_GE(sorted[i], sorted[i - 1] + 16) << "overlap";
  // Every allocation resolves, and a sample holds what was written to it.
  for (int i = 0; i < kCount; i += 997) {
    CUdeviceptr base = 0;
    size_t size = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, pointers[i] + 8));
    EXPECT_EQ(base, pointers[i]);
    EXPECT_EQ(size, 16u);
    const uint32_t tag[4] = {static_cast<uint32_t>(i), 1, 2, 3};
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(pointers[i], tag, sizeof(tag)));
  }
  for (int i = 0; i < kCount; i += 997) {
    uint32_t tag[4] = {};
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(tag, pointers[i], sizeof(tag)));
    EXPECT_EQ(tag[0], static_cast<uint32_t>(i));
    EXPECT_EQ(tag[3], 3u);
  }
  // cuMemFree waits for the device each time (CUDA: it synchronises), so a
  // sample is freed one by one and destroying the context frees the rest.
  for (int i = 0; i < kCount; i += 100) ASSERT_CU(CUDA_SUCCESS, cuMemFree(pointers[i]));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context()));
  // Recorded, not asserted: speed belongs to benchmarks, and sanitizer
  // builds run this many times slower.
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("seconds", std::to_string(seconds));
}

// --- cuMemFree / hipFree ------------------------------------------------------

TEST_F(MemoryConformance, FreeRejectsFreedInteriorForeignAndNullPointers) {
  CUdeviceptr freed = 0, live = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&freed, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&live, 256));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(freed));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFree(freed), hipFree(AsHipPointer(freed)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFree(live + 16), hipFree(AsHipPointer(live + 16)));
  int on_the_stack = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFree(AsCudaPointer(&on_the_stack)),
              hipFree(&on_the_stack));
  // cuMemFree(0) is an error; hipFree(nullptr) does nothing (HIP: "If ptr is
  // NULL, the hip runtime is initialized and hipSuccess is returned").
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(0));
  EXPECT_HIP(hipSuccess, hipFree(nullptr));
  // The failed frees left the live allocation alone.
  const std::vector<float> values = Iota(64);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(live, values.data(), 256));
  EXPECT_EQ(CudaDownload<float>(live, 64), values);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(live));
}

TEST_F(MemoryConformance, FreedMemoryNoLongerResolves) {
  CUdeviceptr pointer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, 512));
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(pointer));
  size_t size = 0;
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(nullptr, &size, pointer),
              hipMemGetAddressRange(nullptr, &size, AsHipPointer(pointer)));
  float value = 1.0f;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(pointer, &value, sizeof(value)),
              hipMemcpyHtoD(AsHipPointer(pointer), &value, sizeof(value)));
}

// --- cuMemGetInfo / hipMemGetInfo ---------------------------------------------

TEST_F(MemoryConformance, GetInfoReportsTheDeviceMemory) {
  size_t cuda_free = 0, cuda_total = 0, hip_free = 0, hip_total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetInfo(&cuda_free, &cuda_total));
  ASSERT_HIP(hipSuccess, hipMemGetInfo(&hip_free, &hip_total));
  size_t device_total = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceTotalMem(&device_total, 0));
  EXPECT_EQ(cuda_total, device_total);
  EXPECT_EQ(hip_total, cuda_total);
  EXPECT_GT(cuda_total, 0u);
  EXPECT_LE(cuda_free, cuda_total);
  EXPECT_LE(hip_free, hip_total);
}

TEST_F(MemoryConformance, GetInfoRejectsNullAndNeedsAContext) {
  size_t free_bytes = 0, total_bytes = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemGetInfo(nullptr, &total_bytes),
              hipMemGetInfo(nullptr, &total_bytes));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemGetInfo(&free_bytes, nullptr),
              hipMemGetInfo(&free_bytes, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemGetInfo(&free_bytes, &total_bytes));
}

// --- cuMemGetAddressRange / hipMemGetAddressRange / hipMemPtrGetInfo --------------

TEST_F(MemoryConformance, AddressRangeResolvesInteriorPointers) {
  CUdeviceptr pointer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, 1000));
  for (CUdeviceptr inside : {pointer, pointer + 1, pointer + 500, pointer + 999}) {
    CUdeviceptr cuda_base = 0;
    size_t cuda_size = 0, hip_size = 0;
    hipDeviceptr_t hip_base = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&cuda_base, &cuda_size, inside));
    ASSERT_HIP(hipSuccess, hipMemGetAddressRange(&hip_base, &hip_size, AsHipPointer(inside)));
    EXPECT_EQ(cuda_base, pointer);
    EXPECT_EQ(cuda_size, 1000u);
    EXPECT_EQ(hip_base, AsHipPointer(pointer));
    EXPECT_EQ(hip_size, 1000u);
  }
  // Both outputs are optional.
  EXPECT_BOTH(CUDA_SUCCESS, cuMemGetAddressRange(nullptr, nullptr, pointer + 7),
              hipMemGetAddressRange(nullptr, nullptr, AsHipPointer(pointer + 7)));
}

TEST_F(MemoryConformance, AddressRangeOfPointersOutsideAllocationsIsNotFound) {
  CUdeviceptr pointer = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, 1000));
  CUdeviceptr base = 0;
  size_t size = 0;
  hipDeviceptr_t hip_base = nullptr;
  // One past the end is outside.
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, pointer + 1000),
              hipMemGetAddressRange(&hip_base, &size, AsHipPointer(pointer + 1000)));
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, 0),
              hipMemGetAddressRange(&hip_base, &size, nullptr));
  int on_the_stack = 0;
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND,
              cuMemGetAddressRange(&base, &size, AsCudaPointer(&on_the_stack)),
              hipMemGetAddressRange(&hip_base, &size, &on_the_stack));
}

TEST_F(MemoryConformance, MemPtrGetInfoGivesTheAllocationSize) {
  void* pointer = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&pointer, 3000));
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipMemPtrGetInfo(pointer, &size));
  EXPECT_EQ(size, 3000u);
  size = 0;
  ASSERT_HIP(hipSuccess, hipMemPtrGetInfo(static_cast<char*>(pointer) + 100, &size));
  EXPECT_EQ(size, 3000u);
  EXPECT_HIP(hipErrorInvalidValue, hipMemPtrGetInfo(pointer, nullptr));
  EXPECT_HIP(hipErrorNotFound, hipMemPtrGetInfo(static_cast<char*>(pointer) + 3000, &size));
  EXPECT_HIP(hipSuccess, hipFree(pointer));
  EXPECT_HIP(hipErrorNotFound, hipMemPtrGetInfo(pointer, &size));
}

// --- cuMemAllocPitch / hipMallocPitch / hipMemAllocPitch ------------------------

TEST_F(MemoryConformance, AllocPitchAlignsRowsAndHoldsTheWholeBlock) {
  constexpr size_t kWidth = 100, kHeight = 10;
  CUdeviceptr cuda_pointer = 0;
  size_t cuda_pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&cuda_pointer, &cuda_pitch, kWidth, kHeight, 4));
  EXPECT_GE(cuda_pitch, kWidth);
  EXPECT_EQ(cuda_pitch % kAllocationAlignment, 0u);
  CUdeviceptr base = 0;
  size_t size = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, cuda_pointer));
  EXPECT_EQ(base, cuda_pointer);
  EXPECT_GE(size, cuda_pitch * kHeight);

  void* hip_pointer = nullptr;
  size_t hip_pitch = 0;
  ASSERT_HIP(hipSuccess, hipMallocPitch(&hip_pointer, &hip_pitch, kWidth, kHeight));
  EXPECT_EQ(hip_pitch, cuda_pitch);
  hipDeviceptr_t hip_driver_pointer = nullptr;
  size_t hip_driver_pitch = 0;
  ASSERT_HIP(hipSuccess,
             hipMemAllocPitch(&hip_driver_pointer, &hip_driver_pitch, kWidth, kHeight, 16));
  EXPECT_EQ(hip_driver_pitch, cuda_pitch);

  // Each row starts at row * pitch: write rows, read the block back.
  std::vector<uint8_t> block(cuda_pitch * kHeight, 0);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(cuda_pointer, 0, cuda_pitch * kHeight));
  for (size_t row = 0; row < kHeight; ++row) {
    std::vector<uint8_t> line(kWidth, static_cast<uint8_t>(row + 1));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(cuda_pointer + row * cuda_pitch, line.data(), kWidth));
    std::fill_n(block.begin() + row * cuda_pitch, kWidth, static_cast<uint8_t>(row + 1));
  }
  EXPECT_EQ(CudaDownload<uint8_t>(cuda_pointer, block.size()), block);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(cuda_pointer));
  EXPECT_HIP(hipSuccess, hipFree(hip_pointer));
  EXPECT_HIP(hipSuccess, hipFree(hip_driver_pointer));
}

TEST_F(MemoryConformance, AllocPitchRejectsBadArguments) {
  CUdeviceptr pointer = 0;
  hipDeviceptr_t hip_pointer = nullptr;
  size_t pitch = 0;
  // CUDA: ElementSizeBytes "must be 4, 8 or 16".
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&pointer, &pitch, 64, 4, 3),
              hipMemAllocPitch(&hip_pointer, &pitch, 64, 4, 3));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&pointer, &pitch, 0, 4, 4),
              hipMemAllocPitch(&hip_pointer, &pitch, 0, 4, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&pointer, &pitch, 64, 0, 4),
              hipMemAllocPitch(&hip_pointer, &pitch, 64, 0, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(nullptr, &pitch, 64, 4, 4),
              hipMemAllocPitch(nullptr, &pitch, 64, 4, 4));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&pointer, nullptr, 64, 4, 4),
              hipMemAllocPitch(&hip_pointer, nullptr, 64, 4, 4));
  void* runtime_pointer = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipMallocPitch(&runtime_pointer, nullptr, 64, 4));
  EXPECT_HIP(hipErrorInvalidValue, hipMallocPitch(nullptr, &pitch, 64, 4));
  EXPECT_EQ(pointer, 0u);
  EXPECT_EQ(hip_pointer, nullptr);
}

// hipMalloc3D: depth slices of height rows of width bytes, rows a pitch
// apart (the pitch hipMallocPitch gives); hipMemcpy3D moves a volume in and
// out through the pitched pointer it returns.
TEST_F(MemoryConformance, HipMalloc3DGivesAPitchedVolume) {
  constexpr size_t kWidth = 100, kHeight = 6, kDepth = 3;
  hipPitchedPtr volume = {};
  ASSERT_HIP(hipSuccess, hipMalloc3D(&volume, make_hipExtent(kWidth, kHeight, kDepth)));
  ASSERT_NE(volume.ptr, nullptr);
  void* flat = nullptr;
  size_t flat_pitch = 0;
  ASSERT_HIP(hipSuccess, hipMallocPitch(&flat, &flat_pitch, kWidth, kHeight * kDepth));
  EXPECT_EQ(volume.pitch, flat_pitch);
  EXPECT_EQ(volume.xsize, kWidth);
  EXPECT_EQ(volume.ysize, kHeight);
  hipDeviceptr_t base = nullptr;
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipMemGetAddressRange(&base, &size, volume.ptr));
  EXPECT_EQ(base, volume.ptr);
  EXPECT_GE(size, volume.pitch * kHeight * kDepth);

  std::vector<uint8_t> in(kWidth * kHeight * kDepth);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 7 + 3);
  hipMemcpy3DParms up = {};
  up.srcPtr = make_hipPitchedPtr(in.data(), kWidth, kWidth, kHeight);
  up.dstPtr = volume;
  up.extent = make_hipExtent(kWidth, kHeight, kDepth);
  up.kind = hipMemcpyHostToDevice;
  ASSERT_HIP(hipSuccess, hipMemcpy3D(&up));
  // The last row of the last slice sits at (depth-1, height-1) * pitch.
  std::vector<uint8_t> row(kWidth);
  const size_t last = ((kDepth - 1) * kHeight + kHeight - 1) * volume.pitch;
  ASSERT_HIP(hipSuccess, hipMemcpy(row.data(), static_cast<uint8_t*>(volume.ptr) + last, kWidth,
                                   hipMemcpyDeviceToHost));
  EXPECT_EQ(row, std::vector<uint8_t>(in.end() - kWidth, in.end()));
  std::vector<uint8_t> out(in.size(), 0);
  hipMemcpy3DParms down = {};
  down.srcPtr = volume;
  down.dstPtr = make_hipPitchedPtr(out.data(), kWidth, kWidth, kHeight);
  down.extent = up.extent;
  down.kind = hipMemcpyDeviceToHost;
  ASSERT_HIP(hipSuccess, hipMemcpy3D(&down));
  EXPECT_EQ(out, in);
  EXPECT_HIP(hipSuccess, hipFree(volume.ptr));
  EXPECT_HIP(hipSuccess, hipFree(flat));
}

// AMD: an empty extent allocates nothing and gives a null pointer; a null
// output or a volume whose row count overflows is hipErrorInvalidValue.
TEST_F(MemoryConformance, HipMalloc3DOfNothingIsNullAndBadArgumentsAreInvalid) {
  int marker = 0;
  for (const hipExtent extent :
       {make_hipExtent(0, 4, 2), make_hipExtent(64, 0, 2), make_hipExtent(64, 4, 0)}) {
    hipPitchedPtr volume = make_hipPitchedPtr(&marker, 1, 1, 1);
    EXPECT_HIP(hipSuccess, hipMalloc3D(&volume, extent));
    EXPECT_EQ(volume.ptr, nullptr);
  }
  hipPitchedPtr volume = {};
  EXPECT_HIP(hipErrorInvalidValue, hipMalloc3D(nullptr, make_hipExtent(64, 4, 2)));
  EXPECT_HIP(hipErrorInvalidValue, hipMalloc3D(&volume, make_hipExtent(64, SIZE_MAX / 2, 4)));
  EXPECT_EQ(volume.ptr, nullptr);
}

// A row wider than the device's largest pitch (CU_DEVICE_ATTRIBUTE_MAX_PITCH)
// has no pitch. SIZE_MAX also checks that rounding the row up to the pitch
// alignment does not wrap to 0 (and is then divided by).
TEST_F(MemoryConformance, AllocPitchOfAWidthWithNoPitchIsInvalidValue) {
  CUdeviceptr pointer = 0;
  hipDeviceptr_t hip_pointer = nullptr;
  void* runtime_pointer = nullptr;
  size_t pitch = 0;
  std::vector<size_t> widths = {SIZE_MAX, SIZE_MAX - 100};
  // The attribute is an int: INT_MAX may stand for any larger pitch.
  const int max_pitch = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_PITCH);
  if (max_pitch < INT_MAX) widths.push_back(static_cast<size_t>(max_pitch) + 1);
  for (const size_t width : widths) {
    SCOPED_TRACE(width);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&pointer, &pitch, width, 1, 4),
                hipMemAllocPitch(&hip_pointer, &pitch, width, 1, 4));
    EXPECT_HIP(hipErrorInvalidValue, hipMallocPitch(&runtime_pointer, &pitch, width, 1));
  }
  EXPECT_EQ(pointer, 0u);
  EXPECT_EQ(hip_pointer, nullptr);
  EXPECT_EQ(runtime_pointer, nullptr);
  EXPECT_EQ(pitch, 0u);
}

// --- Page-locked host memory ----------------------------------------------------

TEST_F(MemoryConformance, AllocHostGivesPinnedMemoryUsableByCopies) {
  void* cuda_host = nullptr;
  void* hip_host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&cuda_host, 4096));
  ASSERT_HIP(hipSuccess, hipMallocHost(&hip_host, 4096));
  ASSERT_NE(cuda_host, nullptr);
  ASSERT_NE(hip_host, nullptr);
  // Ordinary host memory: the host reads and writes it directly.
  std::vector<float> values = Iota(1024, 3.0f);
  std::memcpy(cuda_host, values.data(), 4096);
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 4096));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(device, cuda_host, 4096));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(hip_host, AsHipPointer(device), 4096));
  EXPECT_EQ(std::memcmp(hip_host, values.data(), 4096), 0);
  unsigned flags = 0xff;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&flags, cuda_host));
  EXPECT_EQ(flags, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(cuda_host));
  EXPECT_HIP(hipSuccess, hipFreeHost(hip_host));
}

TEST_F(MemoryConformance, HostAllocKeepsItsFlagsAndMapsIntoTheDevice) {
  void* cuda_host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&cuda_host, 256 * sizeof(float),
                                         CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
  void* hip_host = nullptr;
  ASSERT_HIP(hipSuccess, hipHostAlloc(&hip_host, 256 * sizeof(float), hipHostAllocMapped));
  void* hip_malloc_host = nullptr;
  ASSERT_HIP(hipSuccess, hipHostMalloc(&hip_malloc_host, 256 * sizeof(float),
                                       hipHostMallocMapped | hipHostMallocWriteCombined));
  unsigned flags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&flags, cuda_host));
  EXPECT_EQ(flags, unsigned{CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE});
  // HIP may add flags of its own (hipHostMalloc memory is always portable
  // and mapped in ROCm); the requested ones are there.
  ASSERT_HIP(hipSuccess, hipHostGetFlags(&flags, hip_host));
  EXPECT_EQ(flags & hipHostAllocMapped, unsigned{hipHostAllocMapped});
  ASSERT_HIP(hipSuccess, hipHostGetFlags(&flags, hip_malloc_host));
  EXPECT_EQ(flags & (hipHostMallocMapped | hipHostMallocWriteCombined),
            unsigned{hipHostMallocMapped | hipHostMallocWriteCombined});

  // A kernel writes mapped host memory through its device pointer; the host
  // sees the result once the stream has finished, with no copy.
  CUmodule module = nullptr;
  CUfunction scale = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  for (void* host : {cuda_host, hip_host, hip_malloc_host}) {
    const std::vector<float> values = Iota(256);
    std::memcpy(host, values.data(), 256 * sizeof(float));
    CUdeviceptr device = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&device, host, 0));
    void* hip_device = nullptr;
    ASSERT_HIP(hipSuccess, hipHostGetDevicePointer(&hip_device, host, 0));
    EXPECT_EQ(hip_device, AsHipPointer(device));
    // An interior host pointer maps to the same offset.
    CUdeviceptr interior = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&interior, static_cast<char*>(host) + 64, 0));
    EXPECT_EQ(interior, device + 64);
    ScaleOnDevice(scale, device, 256);
    const float* result = static_cast<const float*>(host);
    int wrong = 0;
    for (int i = 0; i < 256; ++i) wrong += result[i] != values[i] * 2.0f + 1.0f;
    EXPECT_EQ(wrong, 0) << "first element " << result[0];
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(cuda_host));
  EXPECT_HIP(hipSuccess, hipHostFree(hip_host));
  EXPECT_HIP(hipSuccess, hipHostFree(hip_malloc_host));
}

TEST_F(MemoryConformance, HostAllocOfZeroBytesIsInvalidInCudaAndNullInHip) {
  void* pointer = reinterpret_cast<void*>(0x1234);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAllocHost(&pointer, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&pointer, 0, 0));
  EXPECT_HIP(hipSuccess, hipHostMalloc(&pointer, 0, 0));
  EXPECT_EQ(pointer, nullptr);
  pointer = reinterpret_cast<void*>(0x1234);
  EXPECT_HIP(hipSuccess, hipMallocHost(&pointer, 0));
  EXPECT_EQ(pointer, nullptr);
  pointer = reinterpret_cast<void*>(0x1234);
  EXPECT_HIP(hipSuccess, hipHostAlloc(&pointer, 0, 0));
  EXPECT_EQ(pointer, nullptr);
}

TEST_F(MemoryConformance, HostAllocRejectsNullOutputAndUnknownFlags) {
  void* pointer = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAllocHost(nullptr, 64), hipMallocHost(nullptr, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(nullptr, 64, 0),
              hipHostAlloc(nullptr, 64, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipHostMalloc(nullptr, 64, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(&pointer, 64, 0x100),
              hipHostAlloc(&pointer, 64, 0x100));
  EXPECT_EQ(pointer, nullptr);
}

// Limitation: HIP's own hipHostMalloc flags (hipHostMallocCoherent,
// hipHostMallocNonCoherent, hipHostMallocNumaUser) reach the validation of
// cuMemHostAlloc's flags, which does not know them.
TEST_F(MemoryConformance, HipHostMallocRejectsHipOnlyFlags) {
  ProvesLimitation();
  for (unsigned flags : {unsigned{hipHostMallocCoherent}, unsigned{hipHostMallocNonCoherent},
                         unsigned{hipHostMallocNumaUser}}) {
    void* pointer = nullptr;
    EXPECT_HIP(hipErrorInvalidValue, hipHostMalloc(&pointer, 64, flags));
    EXPECT_EQ(pointer, nullptr);
  }
}

TEST_F(MemoryConformance, FreeHostRejectsPointersItDidNotAllocate) {
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 256));
  // An interior pointer, pageable memory and device memory are not
  // allocations of cuMemAllocHost.
  void* interior = static_cast<char*>(pinned) + 16;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(interior), hipHostFree(interior));
  std::vector<char> pageable(256);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(pageable.data()),
              hipFreeHost(pageable.data()));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 256));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(AsHipPointer(device)),
              hipHostFree(AsHipPointer(device)));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(pinned), hipHostFree(pinned));
  // Null: an error in CUDA, nothing to do in HIP.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(nullptr));
  EXPECT_HIP(hipSuccess, hipHostFree(nullptr));
  EXPECT_HIP(hipSuccess, hipFreeHost(nullptr));
}

TEST_F(MemoryConformance, HostGetDevicePointerRejectsBadArguments) {
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&pinned, 256, CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr device = 0;
  void* hip_device = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(nullptr, pinned, 0),
              hipHostGetDevicePointer(nullptr, pinned, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&device, nullptr, 0),
              hipHostGetDevicePointer(&hip_device, nullptr, 0));
  // CUDA: "Flags provided for future releases. For now, it must be set to 0."
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&device, pinned, 1),
              hipHostGetDevicePointer(&hip_device, pinned, 1));
  std::vector<char> pageable(256);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&device, pageable.data(), 0),
              hipHostGetDevicePointer(&hip_device, pageable.data(), 0));
  EXPECT_EQ(device, 0u);
  EXPECT_EQ(hip_device, nullptr);
}

TEST_F(MemoryConformance, HostGetFlagsRejectsMemoryNotFromHostAlloc) {
  unsigned flags = 0;
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(nullptr, pinned),
              hipHostGetFlags(nullptr, pinned));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, nullptr),
              hipHostGetFlags(&flags, nullptr));
  std::vector<char> pageable(64);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, pageable.data()),
              hipHostGetFlags(&flags, pageable.data()));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, pinned),
              hipHostGetFlags(&flags, pinned));
}

// --- cuMemHostRegister / hipHostRegister ------------------------------------------

TEST_F(MemoryConformance, HostRegisterPinsAndMapsExistingMemory) {
  constexpr size_t kBytes = 16 * 4096;
  constexpr uint32_t kCount = kBytes / sizeof(float);
  CUmodule module = nullptr;
  CUfunction scale = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  for (bool through_hip : {false, true}) {
    AlignedHostBuffer buffer(kBytes);
    ASSERT_NE(buffer.data, nullptr);
    const std::vector<float> values = Iota(kCount);
    std::memcpy(buffer.data, values.data(), kBytes);
    if (through_hip) {
      ASSERT_HIP(hipSuccess, hipHostRegister(buffer.data, kBytes, hipHostRegisterMapped));
    } else {
      ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(buffer.data, kBytes, CU_MEMHOSTREGISTER_DEVICEMAP));
    }
    // Copies read it as page-locked memory...
    CUdeviceptr device = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, kBytes));
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(device, buffer.data, kBytes, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    EXPECT_EQ(CudaDownload<float>(device, kCount), values);
    // ...and kernels write it through its device pointer.
    CUdeviceptr mapped = 0;
    ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&mapped, buffer.data, 0));
    ScaleOnDevice(scale, mapped, kCount);
    int wrong = 0;
    for (uint32_t i = 0; i < kCount; ++i) wrong += buffer.data[i] != values[i] * 2.0f + 1.0f;
    EXPECT_EQ(wrong, 0) << "first element " << buffer.data[0];
    if (through_hip) {
      EXPECT_HIP(hipSuccess, hipHostUnregister(buffer.data));
    } else {
      EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(buffer.data));
    }
    // Unregistered memory is pageable again.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&mapped, buffer.data, 0));
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
}

TEST_F(MemoryConformance, HostRegisterRejectsBadArgumentsAndOverlaps) {
  constexpr size_t kBytes = 4 * 4096;
  AlignedHostBuffer buffer(kBytes);
  ASSERT_NE(buffer.data, nullptr);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(nullptr, kBytes, 0),
              hipHostRegister(nullptr, kBytes, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(buffer.data, 0, 0),
              hipHostRegister(buffer.data, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(buffer.data, kBytes, 0x100),
              hipHostRegister(buffer.data, kBytes, 0x100));

  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(buffer.data, kBytes, 0));
  // CUDA: registering memory that overlaps registered memory is
  // CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED.
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(buffer.data, kBytes, 0),
              hipHostRegister(buffer.data, kBytes, 0));
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
              cuMemHostRegister(buffer.data + 1024, 4096, 0),
              hipHostRegister(buffer.data + 1024, 4096, 0));
  // Only the start of a registered range unregisters it.
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(buffer.data + 1024),
              hipHostUnregister(buffer.data + 1024));
  ASSERT_HIP(hipSuccess, hipHostUnregister(buffer.data));
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(buffer.data),
              hipHostUnregister(buffer.data));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(nullptr), hipHostUnregister(nullptr));
  // Memory from cuMemAllocHost is not a registered range.
  void* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(&pinned, 64));
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(pinned),
              hipHostUnregister(pinned));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

// Host pages made for a test: mapped with `protections` (PROT_NONE:
// reserved but inaccessible); Unmap punches holes, and only what is still
// mapped is unmapped at the end.
class HostPages {
 public:
  HostPages(size_t count, int protections)
      : page_(static_cast<size_t>(sysconf(_SC_PAGESIZE))), mapped_(count, true) {
    base_ = static_cast<char*>(
        mmap(nullptr, count * page_, protections, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    EXPECT_NE(base_, MAP_FAILED);
  }
  ~HostPages() {
    for (size_t i = 0; i < mapped_.size(); ++i) {
      if (mapped_[i]) munmap(base_ + i * page_, page_);
    }
  }
  void Unmap(size_t first, size_t count) {
    ASSERT_EQ(munmap(base_ + first * page_, count * page_), 0);
    for (size_t i = first; i < first + count; ++i) mapped_[i] = false;
  }
  char* page(size_t i) const { return base_ + i * page_; }
  size_t bytes(size_t pages) const { return pages * page_; }

 private:
  size_t page_;
  char* base_ = nullptr;
  std::vector<bool> mapped_;
};

// CUDA page-locks what it registers, which fails for memory the process
// cannot access (CUDA_ERROR_INVALID_VALUE). Accepting it would make a later
// copy into the range crash the process.
TEST_F(MemoryConformance, HostRegisterOfMemoryThatCannotBeAccessedIsInvalidValue) {
  HostPages unmapped(4, PROT_READ | PROT_WRITE);
  unmapped.Unmap(0, 4);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(unmapped.page(0), unmapped.bytes(4), 0),
              hipHostRegister(unmapped.page(0), unmapped.bytes(4), 0));
  HostPages reserved(2, PROT_NONE);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(reserved.page(0), reserved.bytes(2), 0),
              hipHostRegister(reserved.page(0), reserved.bytes(2), 0));
  // Memory whose last page is gone.
  HostPages mixed(3, PROT_READ | PROT_WRITE);
  mixed.Unmap(2, 1);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(mixed.page(0), mixed.bytes(3), 0),
              hipHostRegister(mixed.page(0), mixed.bytes(3), 0));
  // Read-only memory: the device could not write it back.
  HostPages read_only(1, PROT_READ);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuMemHostRegister(read_only.page(0), read_only.bytes(1), 0),
              hipHostRegister(read_only.page(0), read_only.bytes(1), 0));
  // The accessible part of `mixed` registers, and copies into it work.
  ASSERT_CU(CUDA_SUCCESS, cuMemHostRegister(mixed.page(0), mixed.bytes(2), 0));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, mixed.bytes(2)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(device, 0x3c, mixed.bytes(2)));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(mixed.page(0), device, mixed.bytes(2)));
  EXPECT_EQ(mixed.page(1)[mixed.bytes(1) - 1], 0x3c);
  EXPECT_CU(CUDA_SUCCESS, cuMemHostUnregister(mixed.page(0)));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
}

// Limitation: CU_MEMHOSTREGISTER_IOMEMORY names memory of a third-party
// PCIe device, which Vulkan cannot import.
TEST_F(MemoryConformance, HostRegisterOfIoMemoryIsNotSupported) {
  ProvesLimitation();
  constexpr size_t kBytes = 4096;
  AlignedHostBuffer buffer(kBytes);
  ASSERT_NE(buffer.data, nullptr);
  EXPECT_BOTH(CUDA_ERROR_NOT_SUPPORTED,
              cuMemHostRegister(buffer.data, kBytes, CU_MEMHOSTREGISTER_IOMEMORY),
              hipHostRegister(buffer.data, kBytes, hipHostRegisterIoMemory));
  // Nothing was registered.
  EXPECT_BOTH(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(buffer.data),
              hipHostUnregister(buffer.data));
}

}  // namespace
}  // namespace streamhal::conformance
