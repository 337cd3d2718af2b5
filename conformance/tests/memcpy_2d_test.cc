// Rows: pitched 2-D and 3-D copies and fills of linear memory through both
// APIs (cuMemcpy2D/3D, cuMemsetD2D*, hipMemcpy2D/3D, hipMemcpyParam2D,
// hipDrvMemcpy*, hipMemset2D/3D): every byte of each region is checked, pitch
// padding included, on lavapipe.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using Memcpy2DConformance = ContextTest;

constexpr uint8_t kUntouched = 0xee;

// Byte i of a test pattern that differs from kUntouched and between rows.
uint8_t Pattern(size_t i, uint8_t seed) { return static_cast<uint8_t>((i * 13 + seed) % 251); }

std::vector<uint8_t> Patterned(size_t count, uint8_t seed) {
  std::vector<uint8_t> bytes(count);
  for (size_t i = 0; i < count; ++i) bytes[i] = Pattern(i, seed);
  return bytes;
}

// A device allocation of `bytes` bytes, every byte kUntouched.
CUdeviceptr Untouched(size_t bytes) {
  CUdeviceptr pointer = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, bytes));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD8(pointer, kUntouched, bytes));
  return pointer;
}

// `image` (rows of `pitch` bytes) after a copy of `width` x `height` x
// `depth` bytes from `source` (pitch `src_pitch`, `src_height` rows a slice)
// at (x, y, z) into `dst` (pitch `dst_pitch`, `dst_height` rows a slice) at
// (dx, dy, dz): what every byte of the destination must hold.
struct Box {
  size_t x = 0, y = 0, z = 0, pitch = 0, height = 1;
};
void CopyOnHost(std::vector<uint8_t>& dst, const Box& to, const std::vector<uint8_t>& src,
                const Box& from, size_t width, size_t height, size_t depth) {
  for (size_t k = 0; k < depth; ++k) {
    for (size_t j = 0; j < height; ++j) {
      const size_t d = ((to.z + k) * to.height + to.y + j) * to.pitch + to.x;
      const size_t s = ((from.z + k) * from.height + from.y + j) * from.pitch + from.x;
      std::memcpy(dst.data() + d, src.data() + s, width);
    }
  }
}

CUDA_MEMCPY2D Copy2D(CUmemorytype src_type, const void* src_host, CUdeviceptr src_device,
                     size_t src_pitch, CUmemorytype dst_type, void* dst_host,
                     CUdeviceptr dst_device, size_t dst_pitch, size_t width, size_t height) {
  CUDA_MEMCPY2D copy = {};
  copy.srcMemoryType = src_type;
  copy.srcHost = src_host;
  copy.srcDevice = src_device;
  copy.srcPitch = src_pitch;
  copy.dstMemoryType = dst_type;
  copy.dstHost = dst_host;
  copy.dstDevice = dst_device;
  copy.dstPitch = dst_pitch;
  copy.WidthInBytes = width;
  copy.Height = height;
  return copy;
}

hip_Memcpy2D HipCopy2D(const CUDA_MEMCPY2D& c) {
  auto type = [](CUmemorytype t) {
    return t == CU_MEMORYTYPE_HOST     ? hipMemoryTypeHost
           : t == CU_MEMORYTYPE_DEVICE ? hipMemoryTypeDevice
           : t == CU_MEMORYTYPE_ARRAY  ? hipMemoryTypeArray
                                       : hipMemoryTypeUnified;
  };
  hip_Memcpy2D copy = {};
  copy.srcXInBytes = c.srcXInBytes;
  copy.srcY = c.srcY;
  copy.srcMemoryType = type(c.srcMemoryType);
  copy.srcHost = c.srcHost;
  copy.srcDevice = AsHipPointer(c.srcDevice);
  copy.srcPitch = c.srcPitch;
  copy.dstXInBytes = c.dstXInBytes;
  copy.dstY = c.dstY;
  copy.dstMemoryType = type(c.dstMemoryType);
  copy.dstHost = c.dstHost;
  copy.dstDevice = AsHipPointer(c.dstDevice);
  copy.dstPitch = c.dstPitch;
  copy.WidthInBytes = c.WidthInBytes;
  copy.Height = c.Height;
  return copy;
}

// --- Pitched regions ----------------------------------------------------------

TEST_F(Memcpy2DConformance, PitchedDeviceRegionRoundTripsAndLeavesPaddingAlone) {
  constexpr size_t kWidth = 150, kHeight = 33;
  CUdeviceptr device = 0;
  size_t pitch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocPitch(&device, &pitch, kWidth, kHeight, 4));
  ASSERT_GT(pitch, kWidth);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD8(device, kUntouched, pitch * kHeight));
  const std::vector<uint8_t> image = Patterned(kWidth * kHeight, 1);
  CUDA_MEMCPY2D up = Copy2D(CU_MEMORYTYPE_HOST, image.data(), 0, kWidth, CU_MEMORYTYPE_DEVICE,
                            nullptr, device, pitch, kWidth, kHeight);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&up));
  std::vector<uint8_t> expected(pitch * kHeight, kUntouched);
  CopyOnHost(expected, {0, 0, 0, pitch}, image, {0, 0, 0, kWidth}, kWidth, kHeight, 1);
  EXPECT_EQ(CudaDownload<uint8_t>(device, pitch * kHeight), expected);
  // Back to a host image with a pitch of its own: its padding stays.
  const size_t host_pitch = kWidth + 7;
  std::vector<uint8_t> back(host_pitch * kHeight, kUntouched);
  CUDA_MEMCPY2D down = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, device, pitch, CU_MEMORYTYPE_HOST,
                              back.data(), 0, host_pitch, kWidth, kHeight);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&down));
  std::vector<uint8_t> expected_back(host_pitch * kHeight, kUntouched);
  CopyOnHost(expected_back, {0, 0, 0, host_pitch}, image, {0, 0, 0, kWidth}, kWidth, kHeight, 1);
  EXPECT_EQ(back, expected_back);

  // HIP: hipMallocPitch, hipMemcpy2D both ways, hipMemcpyParam2D.
  void* hip_device = nullptr;
  size_t hip_pitch = 0;
  ASSERT_HIP(hipSuccess, hipMallocPitch(&hip_device, &hip_pitch, kWidth, kHeight));
  ASSERT_HIP(hipSuccess, hipMemset(hip_device, kUntouched, hip_pitch * kHeight));
  const std::vector<uint8_t> hip_image = Patterned(kWidth * kHeight, 77);
  ASSERT_HIP(hipSuccess, hipMemcpy2D(hip_device, hip_pitch, hip_image.data(), kWidth, kWidth,
                                     kHeight, hipMemcpyHostToDevice));
  std::vector<uint8_t> hip_expected(hip_pitch * kHeight, kUntouched);
  CopyOnHost(hip_expected, {0, 0, 0, hip_pitch}, hip_image, {0, 0, 0, kWidth}, kWidth, kHeight, 1);
  EXPECT_EQ(CudaDownload<uint8_t>(AsCudaPointer(hip_device), hip_pitch * kHeight), hip_expected);
  std::vector<uint8_t> hip_back(host_pitch * kHeight, kUntouched);
  ASSERT_HIP(hipSuccess, hipMemcpy2D(hip_back.data(), host_pitch, hip_device, hip_pitch, kWidth,
                                     kHeight, hipMemcpyDeviceToHost));
  std::vector<uint8_t> hip_expected_back(host_pitch * kHeight, kUntouched);
  CopyOnHost(hip_expected_back, {0, 0, 0, host_pitch}, hip_image, {0, 0, 0, kWidth}, kWidth,
             kHeight, 1);
  EXPECT_EQ(hip_back, hip_expected_back);
  std::vector<uint8_t> param_back(host_pitch * kHeight, kUntouched);
  hip_Memcpy2D param =
      HipCopy2D(Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, AsCudaPointer(hip_device), hip_pitch,
                       CU_MEMORYTYPE_HOST, param_back.data(), 0, host_pitch, kWidth, kHeight));
  ASSERT_HIP(hipSuccess, hipMemcpyParam2D(&param));
  EXPECT_EQ(param_back, hip_expected_back);
  EXPECT_HIP(hipSuccess, hipFree(hip_device));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
}

TEST_F(Memcpy2DConformance, InteriorOffsetsCopyOnlyTheirRectangle) {
  constexpr size_t kSrcPitch = 64, kSrcRows = 20, kDstPitch = 96, kDstRows = 24;
  constexpr size_t kWidth = 17, kHeight = 9;
  const std::vector<uint8_t> source = Patterned(kSrcPitch * kSrcRows, 3);
  // Each of the four descriptor-taking copies writes a rectangle at its own
  // place in a fresh destination.
  for (int form = 0; form < 4; ++form) {
    SCOPED_TRACE(form);
    const CUdeviceptr device = Untouched(kDstPitch * kDstRows);
    CUDA_MEMCPY2D copy = Copy2D(CU_MEMORYTYPE_HOST, source.data(), 0, kSrcPitch,
                                CU_MEMORYTYPE_DEVICE, nullptr, device, kDstPitch, kWidth, kHeight);
    copy.srcXInBytes = 5 + form;
    copy.srcY = 3;
    copy.dstXInBytes = 11 + 2 * form;
    copy.dstY = 7 + form;
    hip_Memcpy2D hip_copy = HipCopy2D(copy);
    switch (form) {
      case 0:
        ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&copy));
        break;
      case 1:
        ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DUnaligned(&copy));
        break;
      case 2:
        ASSERT_HIP(hipSuccess, hipMemcpyParam2D(&hip_copy));
        break;
      case 3:
        ASSERT_HIP(hipSuccess, hipDrvMemcpy2DUnaligned(&hip_copy));
        break;
    }
    std::vector<uint8_t> expected(kDstPitch * kDstRows, kUntouched);
    CopyOnHost(expected, {copy.dstXInBytes, copy.dstY, 0, kDstPitch}, source,
               {copy.srcXInBytes, copy.srcY, 0, kSrcPitch}, kWidth, kHeight, 1);
    EXPECT_EQ(CudaDownload<uint8_t>(device, kDstPitch * kDstRows), expected);
    // And back out of the middle of the device image into a host image.
    std::vector<uint8_t> host(kSrcPitch * kSrcRows, kUntouched);
    CUDA_MEMCPY2D out = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, device, kDstPitch, CU_MEMORYTYPE_HOST,
                               host.data(), 0, kSrcPitch, kWidth, kHeight);
    out.srcXInBytes = copy.dstXInBytes;
    out.srcY = copy.dstY;
    out.dstXInBytes = 2;
    out.dstY = 10;
    ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&out));
    std::vector<uint8_t> expected_host(kSrcPitch * kSrcRows, kUntouched);
    CopyOnHost(expected_host, {2, 10, 0, kSrcPitch}, source,
               {copy.srcXInBytes, copy.srcY, 0, kSrcPitch}, kWidth, kHeight, 1);
    EXPECT_EQ(host, expected_host);
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
}

TEST_F(Memcpy2DConformance, HostToDeviceToHostBoxesIn3D) {
  // Host volume: 24-byte rows, 7 rows a slice, 6 slices. Device volume: 32,
  // 8 and 7. The 20 x 5 x 4 box moves from (2, 1, 1) to (9, 2, 2), then to
  // (1, 0, 0) of a third layout on the way back.
  constexpr size_t kWidth = 20, kHeight = 5, kDepth = 4;
  const Box host_box{2, 1, 1, 24, 7}, device_box{9, 2, 2, 32, 8}, back_box{1, 0, 0, 40, 6};
  const std::vector<uint8_t> volume = Patterned(24 * 7 * 6, 5);
  for (int form = 0; form < 3; ++form) {
    SCOPED_TRACE(form);
    const CUdeviceptr device = Untouched(32 * 8 * 7);
    std::vector<uint8_t> back(40 * 6 * 5, kUntouched);
    if (form == 0) {
      CUDA_MEMCPY3D up = {};
      up.srcMemoryType = CU_MEMORYTYPE_HOST;
      up.srcHost = volume.data();
      up.srcXInBytes = host_box.x;
      up.srcY = host_box.y;
      up.srcZ = host_box.z;
      up.srcPitch = host_box.pitch;
      up.srcHeight = host_box.height;
      up.dstMemoryType = CU_MEMORYTYPE_DEVICE;
      up.dstDevice = device;
      up.dstXInBytes = device_box.x;
      up.dstY = device_box.y;
      up.dstZ = device_box.z;
      up.dstPitch = device_box.pitch;
      up.dstHeight = device_box.height;
      up.WidthInBytes = kWidth;
      up.Height = kHeight;
      up.Depth = kDepth;
      ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&up));
      CUDA_MEMCPY3D down = {};
      down.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      down.srcDevice = device;
      down.srcXInBytes = device_box.x;
      down.srcY = device_box.y;
      down.srcZ = device_box.z;
      down.srcPitch = device_box.pitch;
      down.srcHeight = device_box.height;
      down.dstMemoryType = CU_MEMORYTYPE_HOST;
      down.dstHost = back.data();
      down.dstXInBytes = back_box.x;
      down.dstPitch = back_box.pitch;
      down.dstHeight = back_box.height;
      down.WidthInBytes = kWidth;
      down.Height = kHeight;
      down.Depth = kDepth;
      ASSERT_CU(CUDA_SUCCESS, cuMemcpy3D(&down));
    } else if (form == 1) {
      hipMemcpy3DParms up = {};
      up.srcPtr = make_hipPitchedPtr(const_cast<uint8_t*>(volume.data()), host_box.pitch, 20,
                                     host_box.height);
      up.srcPos = make_hipPos(host_box.x, host_box.y, host_box.z);
      up.dstPtr = make_hipPitchedPtr(AsHipPointer(device), device_box.pitch, 30, device_box.height);
      up.dstPos = make_hipPos(device_box.x, device_box.y, device_box.z);
      up.extent = make_hipExtent(kWidth, kHeight, kDepth);
      up.kind = hipMemcpyHostToDevice;
      ASSERT_HIP(hipSuccess, hipMemcpy3D(&up));
      hipMemcpy3DParms down = {};
      down.srcPtr = up.dstPtr;
      down.srcPos = up.dstPos;
      down.dstPtr = make_hipPitchedPtr(back.data(), back_box.pitch, 40, back_box.height);
      down.dstPos = make_hipPos(back_box.x, 0, 0);
      down.extent = up.extent;
      down.kind = hipMemcpyDefault;  // inferred from the pointers
      ASSERT_HIP(hipSuccess, hipMemcpy3D(&down));
    } else {
      HIP_MEMCPY3D up = {};
      up.srcMemoryType = hipMemoryTypeHost;
      up.srcHost = volume.data();
      up.srcXInBytes = host_box.x;
      up.srcY = host_box.y;
      up.srcZ = host_box.z;
      up.srcPitch = host_box.pitch;
      up.srcHeight = host_box.height;
      up.dstMemoryType = hipMemoryTypeDevice;
      up.dstDevice = AsHipPointer(device);
      up.dstXInBytes = device_box.x;
      up.dstY = device_box.y;
      up.dstZ = device_box.z;
      up.dstPitch = device_box.pitch;
      up.dstHeight = device_box.height;
      up.WidthInBytes = kWidth;
      up.Height = kHeight;
      up.Depth = kDepth;
      ASSERT_HIP(hipSuccess, hipDrvMemcpy3D(&up));
      HIP_MEMCPY3D down = {};
      down.srcMemoryType = hipMemoryTypeDevice;
      down.srcDevice = AsHipPointer(device);
      down.srcXInBytes = device_box.x;
      down.srcY = device_box.y;
      down.srcZ = device_box.z;
      down.srcPitch = device_box.pitch;
      down.srcHeight = device_box.height;
      down.dstMemoryType = hipMemoryTypeHost;
      down.dstHost = back.data();
      down.dstXInBytes = back_box.x;
      down.dstPitch = back_box.pitch;
      down.dstHeight = back_box.height;
      down.WidthInBytes = kWidth;
      down.Height = kHeight;
      down.Depth = kDepth;
      ASSERT_HIP(hipSuccess, hipDrvMemcpy3D(&down));
    }
    std::vector<uint8_t> expected_device(32 * 8 * 7, kUntouched);
    CopyOnHost(expected_device, device_box, volume, host_box, kWidth, kHeight, kDepth);
    EXPECT_EQ(CudaDownload<uint8_t>(device, 32 * 8 * 7), expected_device);
    std::vector<uint8_t> expected_back(40 * 6 * 5, kUntouched);
    CopyOnHost(expected_back, back_box, volume, host_box, kWidth, kHeight, kDepth);
    EXPECT_EQ(back, expected_back);
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
  }
}

TEST_F(Memcpy2DConformance, DeviceToDeviceCopiesBetweenDifferentPitches) {
  constexpr size_t kSrcPitch = 64, kDstPitch = 200, kWidth = 60, kHeight = 40;
  const std::vector<uint8_t> image = Patterned(kSrcPitch * kHeight, 9);
  const CUdeviceptr source = CudaUpload(image);
  std::vector<uint8_t> expected(kDstPitch * kHeight, kUntouched);
  CopyOnHost(expected, {0, 0, 0, kDstPitch}, image, {0, 0, 0, kSrcPitch}, kWidth, kHeight, 1);
  for (int form = 0; form < 5; ++form) {
    SCOPED_TRACE(form);
    const CUdeviceptr target = Untouched(kDstPitch * kHeight);
    CUDA_MEMCPY2D copy = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, source, kSrcPitch,
                                CU_MEMORYTYPE_DEVICE, nullptr, target, kDstPitch, kWidth, kHeight);
    switch (form) {
      case 0:
        ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&copy));
        break;
      case 1:  // unified ends: the direction comes from the pointers
        copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
        copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&copy));
        break;
      case 2:
        ASSERT_HIP(hipSuccess, hipMemcpy2D(AsHipPointer(target), kDstPitch, AsHipPointer(source),
                                           kSrcPitch, kWidth, kHeight, hipMemcpyDeviceToDevice));
        break;
      case 3:
        ASSERT_HIP(hipSuccess, hipMemcpy2D(AsHipPointer(target), kDstPitch, AsHipPointer(source),
                                           kSrcPitch, kWidth, kHeight, hipMemcpyDefault));
        break;
      case 4:
        ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&copy, nullptr));
        ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
        break;
    }
    EXPECT_EQ(CudaDownload<uint8_t>(target, kDstPitch * kHeight), expected);
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(target));
  }
  // Within one allocation: the left half of each row to its right half.
  // The spans overlap, the rows do not.
  const CUdeviceptr both = CudaUpload(image);
  CUDA_MEMCPY2D halves = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, both, kSrcPitch,
                                CU_MEMORYTYPE_DEVICE, nullptr, both, kSrcPitch, 32, kHeight);
  halves.dstXInBytes = 32;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&halves));
  std::vector<uint8_t> expected_halves = image;
  CopyOnHost(expected_halves, {32, 0, 0, kSrcPitch}, image, {0, 0, 0, kSrcPitch}, 32, kHeight, 1);
  EXPECT_EQ(CudaDownload<uint8_t>(both, image.size()), expected_halves);
  // Rows that do overlap are an error, and nothing is written.
  halves.dstXInBytes = 16;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&halves));
  halves.dstXInBytes = 0;
  halves.dstY = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&halves));
  EXPECT_EQ(CudaDownload<uint8_t>(both, image.size()), expected_halves);
  // A region onto itself changes nothing and succeeds, as a 1-D copy does.
  halves.dstY = 0;
  halves.dstXInBytes = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy2D(&halves));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(both));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(source));
}

TEST_F(Memcpy2DConformance, HostToHostAndUnifiedHostEnds) {
  constexpr size_t kWidth = 10, kHeight = 6;
  const std::vector<uint8_t> image = Patterned(16 * kHeight, 21);
  std::vector<uint8_t> host(24 * kHeight, kUntouched);
  CUDA_MEMCPY2D copy = Copy2D(CU_MEMORYTYPE_HOST, image.data(), 0, 16, CU_MEMORYTYPE_HOST,
                              host.data(), 0, 24, kWidth, kHeight);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&copy));
  std::vector<uint8_t> expected(24 * kHeight, kUntouched);
  CopyOnHost(expected, {0, 0, 0, 24}, image, {0, 0, 0, 16}, kWidth, kHeight, 1);
  EXPECT_EQ(host, expected);
  // A unified end holding a host pointer is host memory.
  const CUdeviceptr device = Untouched(24 * kHeight);
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.srcDevice = AsCudaPointer(image.data());
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstDevice = device;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&copy));
  EXPECT_EQ(CudaDownload<uint8_t>(device, host.size()), expected);
  std::vector<uint8_t> hip_host(24 * kHeight, kUntouched);
  ASSERT_HIP(hipSuccess, hipMemcpy2D(hip_host.data(), 24, image.data(), 16, kWidth, kHeight,
                                     hipMemcpyHostToHost));
  EXPECT_EQ(hip_host, expected);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
}

// --- Fills --------------------------------------------------------------------

TEST_F(Memcpy2DConformance, Memset2DLeavesPitchPaddingUntouched) {
  constexpr size_t kPitch = 100, kRows = 12;
  // Each fill starts at an interior point and covers `width` elements of
  // `rows` rows; everything else keeps kUntouched.
  struct Fill {
    unsigned size;
    size_t offset, width, rows;
    uint32_t value;
  };
  const Fill fills[] = {{1, 3, 37, 11, 0x5a},
                        {2, 10, 21, 9, 0xa1b2},
                        {4, 8, 20, 10, 0x01020304},
                        {1, 0, 100, 12, 0x33},  // pitch == width
                        {4, 4, 1, 5, 0xdeadbeef}};
  for (int form = 0; form < 2; ++form) {
    for (const Fill& f : fills) {
      SCOPED_TRACE(testing::Message() << "form " << form << " size " << f.size);
      const CUdeviceptr device = Untouched(kPitch * kRows);
      const CUdeviceptr at = device + f.offset;
      CUstream stream = nullptr;
      if (form == 1) {
        ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
      }
      switch (f.size + 4 * form) {
        case 1:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D8(at, kPitch, f.value, f.width, f.rows));
          break;
        case 2:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D16(at, kPitch, f.value, f.width, f.rows));
          break;
        case 4:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D32(at, kPitch, f.value, f.width, f.rows));
          break;
        case 5:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D8Async(at, kPitch, f.value, f.width, f.rows, stream));
          break;
        case 6:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D16Async(at, kPitch, f.value, f.width, f.rows, stream));
          break;
        case 8:
          ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D32Async(at, kPitch, f.value, f.width, f.rows, stream));
          break;
      }
      if (stream != nullptr) {
        ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
        ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
      }
      std::vector<uint8_t> expected(kPitch * kRows, kUntouched);
      for (size_t r = 0; r < f.rows; ++r) {
        for (size_t b = 0; b < f.width * f.size; ++b) {
          expected[f.offset + r * kPitch + b] = static_cast<uint8_t>(f.value >> (8 * (b % f.size)));
        }
      }
      EXPECT_EQ(CudaDownload<uint8_t>(device, kPitch * kRows), expected);
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
    }
  }
}

TEST_F(Memcpy2DConformance, HipMemset2DAnd3DFillOnlyTheirExtent) {
  void* device = nullptr;
  size_t pitch = 0;
  ASSERT_HIP(hipSuccess, hipMallocPitch(&device, &pitch, 50, 8 * 3));
  const size_t bytes = pitch * 8 * 3;
  ASSERT_HIP(hipSuccess, hipMemset(device, kUntouched, bytes));
  // 2-D: 45 bytes of 6 rows, starting 2 bytes in.
  ASSERT_HIP(hipSuccess, hipMemset2D(static_cast<uint8_t*>(device) + 2, pitch, 0x4142, 45, 6));
  std::vector<uint8_t> expected(bytes, kUntouched);
  for (size_t r = 0; r < 6; ++r) std::memset(expected.data() + 2 + r * pitch, 0x42, 45);
  EXPECT_EQ(CudaDownload<uint8_t>(AsCudaPointer(device), bytes), expected);
  // 3-D: slices of 8 rows (ysize), 5 rows of 30 bytes filled in each of 3.
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  ASSERT_HIP(hipSuccess, hipMemset3DAsync(make_hipPitchedPtr(device, pitch, 50, 8), 7,
                                          make_hipExtent(30, 5, 3), stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  for (size_t z = 0; z < 3; ++z) {
    for (size_t r = 0; r < 5; ++r) std::memset(expected.data() + (z * 8 + r) * pitch, 7, 30);
  }
  EXPECT_EQ(CudaDownload<uint8_t>(AsCudaPointer(device), bytes), expected);
  ASSERT_HIP(hipSuccess,
             hipMemset3D(make_hipPitchedPtr(device, pitch, 50, 8), 9, make_hipExtent(4, 2, 2)));
  ASSERT_HIP(hipSuccess, hipMemset2DAsync(device, pitch, 1, 3, 1, stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  for (size_t z = 0; z < 2; ++z) {
    for (size_t r = 0; r < 2; ++r) std::memset(expected.data() + (z * 8 + r) * pitch, 9, 4);
  }
  std::memset(expected.data(), 1, 3);
  EXPECT_EQ(CudaDownload<uint8_t>(AsCudaPointer(device), bytes), expected);
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
  EXPECT_HIP(hipSuccess, hipFree(device));
}

// --- Stream order and capture ----------------------------------------------------

TEST_F(Memcpy2DConformance, AsyncCopiesRunInStreamOrderAfterAKernel) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  // A pitched image of floats: 48 floats a row, 64 floats of pitch, 32 rows.
  constexpr size_t kCols = 48, kPitchFloats = 64, kRows = 32;
  constexpr size_t kPitch = kPitchFloats * sizeof(float);
  const std::vector<float> values = Iota(kPitchFloats * kRows);
  CUdeviceptr image = CudaUpload(values);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  // fill the padding with 0 (kernel scales it to 1), scale everything, copy
  // the rows out to pinned memory and a pageable buffer, all in one stream.
  float scale = 2.0f, offset = 1.0f;
  uint32_t n = kPitchFloats * kRows;
  void* params[] = {&image, &scale, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D32Async(image + kCols * sizeof(float), kPitch, 0,
                                             kPitchFloats - kCols, kRows, stream));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, n / 64, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  float* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(reinterpret_cast<void**>(&pinned), kCols * kRows * 4));
  std::fill(pinned, pinned + kCols * kRows, -5.0f);
  CUDA_MEMCPY2D out = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, image, kPitch, CU_MEMORYTYPE_HOST,
                             pinned, 0, kCols * sizeof(float), kCols * sizeof(float), kRows);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&out, stream));
  // A pageable destination: the async copy has completed when it returns.
  std::vector<float> pageable(kPitchFloats * kRows, -5.0f);
  CUDA_MEMCPY3D whole = {};
  whole.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  whole.srcDevice = image;
  whole.srcPitch = kPitch;
  whole.srcHeight = kRows;
  whole.dstMemoryType = CU_MEMORYTYPE_HOST;
  whole.dstHost = pageable.data();
  whole.dstPitch = kPitch;
  whole.dstHeight = kRows;
  whole.WidthInBytes = kPitch;
  whole.Height = kRows;
  whole.Depth = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DAsync(&whole, stream));
  for (size_t r = 0; r < kRows; ++r) {
    for (size_t c = 0; c < kPitchFloats; ++c) {
      const size_t i = r * kPitchFloats + c;
      const float expected = c < kCols ? values[i] * 2.0f + 1.0f : 1.0f;
      ASSERT_EQ(pageable[i], expected) << r << "," << c;
    }
  }
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  for (size_t r = 0; r < kRows; ++r) {
    for (size_t c = 0; c < kCols; ++c) {
      ASSERT_EQ(pinned[r * kCols + c], values[r * kPitchFloats + c] * 2.0f + 1.0f) << r << c;
    }
  }
  // HIP: a 2-D copy up, the kernel again, a 3-D copy down, in one stream.
  hipStream_t hip_stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&hip_stream));
  const std::vector<float> ones(kCols * kRows, 1.0f);
  ASSERT_HIP(hipSuccess,
             hipMemcpy2DAsync(AsHipPointer(image), kPitch, ones.data(), kCols * sizeof(float),
                              kCols * sizeof(float), kRows, hipMemcpyHostToDevice, hip_stream));
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(reinterpret_cast<hipFunction_t>(function), n / 64, 1,
                                               1, 64, 1, 1, 0, hip_stream, params, nullptr));
  hipMemcpy3DParms down = {};
  down.srcPtr = make_hipPitchedPtr(AsHipPointer(image), kPitch, kCols * 4, kRows);
  down.dstPtr = make_hipPitchedPtr(pinned, kCols * sizeof(float), kCols * 4, kRows);
  down.extent = make_hipExtent(kCols * sizeof(float), kRows, 1);
  down.kind = hipMemcpyDeviceToHost;
  ASSERT_HIP(hipSuccess, hipMemcpy3DAsync(&down, hip_stream));
  hip_Memcpy2D param = HipCopy2D(out);
  param.dstHost = pageable.data();
  ASSERT_HIP(hipSuccess, hipMemcpyParam2DAsync(&param, hip_stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  for (size_t i = 0; i < kCols * kRows; ++i) {
    ASSERT_EQ(pinned[i], 3.0f) << i;
    ASSERT_EQ(pageable[i], 3.0f) << i;
  }
  EXPECT_HIP(hipSuccess, hipStreamDestroy(hip_stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(image));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(Memcpy2DConformance, CapturedCopiesAndFillsBecomeGraphNodes) {
  constexpr size_t kPitch = 80, kRows = 10, kWidth = 50;
  const std::vector<uint8_t> image = Patterned(kPitch * kRows, 31);
  const CUdeviceptr source = CudaUpload(image);
  const CUdeviceptr target = Untouched(kPitch * kRows);
  const CUdeviceptr volume = Untouched(kPitch * kRows);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD2D8Async(target, kPitch, 0x11, kPitch, kRows, stream));
  CUDA_MEMCPY2D copy = Copy2D(CU_MEMORYTYPE_DEVICE, nullptr, source, kPitch, CU_MEMORYTYPE_DEVICE,
                              nullptr, target, kPitch, kWidth, kRows);
  copy.dstXInBytes = 5;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2DAsync(&copy, stream));
  // Two slices of 4 rows of 20 bytes, slices 5 rows apart.
  CUDA_MEMCPY3D box = {};
  box.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  box.srcDevice = source;
  box.srcPitch = kPitch;
  box.srcHeight = 5;
  box.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  box.dstDevice = volume;
  box.dstPitch = kPitch;
  box.dstHeight = 5;
  box.dstXInBytes = 7;
  box.WidthInBytes = 20;
  box.Height = 4;
  box.Depth = 2;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DAsync(&box, stream));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &graph));
  // Nothing ran yet.
  EXPECT_EQ(CudaDownload<uint8_t>(target, kPitch * kRows),
            std::vector<uint8_t>(kPitch * kRows, kUntouched));
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
  ASSERT_EQ(count, 3u);
  std::vector<CUgraphNode> nodes(count);
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nodes.data(), &count));
  std::vector<CUgraphNodeType> types(count);
  for (size_t i = 0; i < count; ++i)
    ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(nodes[i], &types[i]));
  EXPECT_EQ(types,
            (std::vector<CUgraphNodeType>{CU_GRAPH_NODE_TYPE_MEMSET, CU_GRAPH_NODE_TYPE_MEMCPY,
                                          CU_GRAPH_NODE_TYPE_MEMCPY}));
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<uint8_t> expected(kPitch * kRows, 0x11);
  CopyOnHost(expected, {5, 0, 0, kPitch}, image, {0, 0, 0, kPitch}, kWidth, kRows, 1);
  EXPECT_EQ(CudaDownload<uint8_t>(target, kPitch * kRows), expected);
  std::vector<uint8_t> expected_volume(kPitch * kRows, kUntouched);
  CopyOnHost(expected_volume, {7, 0, 0, kPitch, 5}, image, {0, 0, 0, kPitch, 5}, 20, 4, 2);
  EXPECT_EQ(CudaDownload<uint8_t>(volume, kPitch * kRows), expected_volume);

  // HIP capture: hipMemcpy2DAsync and hipMemset2DAsync become nodes too.
  hipStream_t hip_stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&hip_stream));
  ASSERT_HIP(hipSuccess, hipStreamBeginCapture(hip_stream, hipStreamCaptureModeRelaxed));
  ASSERT_HIP(hipSuccess,
             hipMemset2DAsync(AsHipPointer(volume), kPitch, 0x22, 3, kRows, hip_stream));
  ASSERT_HIP(hipSuccess, hipMemcpy2DAsync(AsHipPointer(volume + 40), kPitch, AsHipPointer(source),
                                          kPitch, 30, kRows, hipMemcpyDeviceToDevice, hip_stream));
  hipGraph_t hip_graph = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamEndCapture(hip_stream, &hip_graph));
  size_t hip_count = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(hip_graph, nullptr, &hip_count));
  EXPECT_EQ(hip_count, 2u);
  hipGraphExec_t hip_exec = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphInstantiate(&hip_exec, hip_graph, nullptr, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGraphLaunch(hip_exec, hip_stream));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  for (size_t r = 0; r < kRows; ++r) {
    std::memset(expected_volume.data() + r * kPitch, 0x22, 3);
    std::memcpy(expected_volume.data() + r * kPitch + 40, image.data() + r * kPitch, 30);
  }
  EXPECT_EQ(CudaDownload<uint8_t>(volume, kPitch * kRows), expected_volume);

  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(hip_exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(hip_graph));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(hip_stream));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

// --- Bad input ------------------------------------------------------------------

TEST_F(Memcpy2DConformance, BadArgumentsAreRejectedAndWriteNothing) {
  constexpr size_t kPitch = 64, kRows = 8;
  const CUdeviceptr device = Untouched(kPitch * kRows);
  std::vector<uint8_t> host(kPitch * kRows, 0x01);
  const std::vector<uint8_t> untouched(kPitch * kRows, kUntouched);
  const CUDA_MEMCPY2D good = Copy2D(CU_MEMORYTYPE_HOST, host.data(), 0, kPitch,
                                    CU_MEMORYTYPE_DEVICE, nullptr, device, kPitch, 32, kRows);
  // A null descriptor.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(nullptr), hipMemcpyParam2D(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy3D(nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipDrvMemcpy3D(nullptr));
  // Null ends.
  CUDA_MEMCPY2D c = good;
  c.srcHost = nullptr;
  hip_Memcpy2D h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  c = good;
  c.dstDevice = 0;
  h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  // A pitch smaller than the width, or than x + width.
  c = good;
  c.dstPitch = 31;
  h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  c = good;
  c.srcXInBytes = 33;
  h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  EXPECT_HIP(hipErrorInvalidValue, hipMemcpy2D(AsHipPointer(device), 16, host.data(), kPitch, 32,
                                               kRows, hipMemcpyHostToDevice));
  // One row past the allocation's end.
  c = good;
  c.dstY = 1;
  h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  // Unknown memory types and kinds.
  c = good;
  c.srcMemoryType = static_cast<CUmemorytype>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
  EXPECT_HIP(hipErrorInvalidMemcpyDirection,
             hipMemcpy2D(AsHipPointer(device), kPitch, host.data(), kPitch, 32, kRows,
                         static_cast<hipMemcpyKind>(9)));
  // A 3-D box whose slices overrun their height, and LOD levels.
  CUDA_MEMCPY3D box = {};
  box.srcMemoryType = CU_MEMORYTYPE_HOST;
  box.srcHost = host.data();
  box.srcPitch = kPitch;
  box.srcHeight = 2;
  box.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  box.dstDevice = device;
  box.dstPitch = kPitch;
  box.dstHeight = 4;
  box.WidthInBytes = 8;
  box.Height = 3;
  box.Depth = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&box));
  box.srcHeight = 4;
  box.dstLOD = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&box));
  // Fills: pitch below the row, misaligned wide fills, past the end.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(device, 8, 0, 4, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D16(device + 1, kPitch, 0, 4, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D8(device, kPitch, 0, kPitch, kRows + 1));
  EXPECT_HIP(hipErrorInvalidValue, hipMemset2D(AsHipPointer(device), 8, 0, 9, 2));
  EXPECT_HIP(hipErrorInvalidValue,
             hipMemset3D(make_hipPitchedPtr(AsHipPointer(device), kPitch, kPitch, 2), 0,
                         make_hipExtent(8, 3, 2)));
  // A destroyed stream is an invalid handle.
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuMemcpy2DAsync(&good, stream),
              hipMemcpy2DAsync(AsHipPointer(device), kPitch, host.data(), kPitch, 32, kRows,
                               hipMemcpyHostToDevice, reinterpret_cast<hipStream_t>(stream)));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMemsetD2D8Async(device, kPitch, 0, 4, 2, stream));
  EXPECT_HIP(hipErrorInvalidHandle, hipMemset2DAsync(AsHipPointer(device), kPitch, 0, 4, 2,
                                                     reinterpret_cast<hipStream_t>(stream)));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(device, kPitch * kRows), untouched);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
}

// CUDA and HIP: a copy or fill with a zero extent does nothing and succeeds,
// like a 1-D copy of 0 bytes; the memory types are still checked.
TEST_F(Memcpy2DConformance, EmptyExtentsSucceedAndWriteNothing) {
  constexpr size_t kPitch = 64, kRows = 4;
  const CUdeviceptr device = Untouched(kPitch * kRows);
  std::vector<uint8_t> host(kPitch * kRows, 0x01);
  CUDA_MEMCPY2D c = Copy2D(CU_MEMORYTYPE_HOST, host.data(), 0, kPitch, CU_MEMORYTYPE_DEVICE,
                           nullptr, device, kPitch, 0, kRows);
  hip_Memcpy2D h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_SUCCESS, cuMemcpy2D(&c), hipMemcpyParam2D(&h));
  c.WidthInBytes = 16;
  c.Height = 0;
  h = HipCopy2D(c);
  EXPECT_BOTH(CUDA_SUCCESS, cuMemcpy2DAsync(&c, nullptr), hipMemcpyParam2DAsync(&h, nullptr));
  // Zero width: not even the pitch or the pointers are read.
  EXPECT_HIP(hipSuccess, hipMemcpy2D(nullptr, 0, nullptr, 0, 0, 5, hipMemcpyHostToDevice));
  c.srcMemoryType = static_cast<CUmemorytype>(7);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
  CUDA_MEMCPY3D box = {};
  box.srcMemoryType = CU_MEMORYTYPE_HOST;
  box.srcHost = host.data();
  box.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  box.dstDevice = device;
  box.WidthInBytes = 4;
  box.Height = 1;
  box.Depth = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy3D(&box));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD2D32(device, kPitch, 0, 0, kRows));
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD2D8(device, kPitch, 0, 8, 0));
  EXPECT_HIP(hipSuccess, hipMemset2D(AsHipPointer(device), kPitch, 0, 0, kRows));
  EXPECT_HIP(hipSuccess, hipMemset3D(make_hipPitchedPtr(AsHipPointer(device), kPitch, kPitch, 2), 0,
                                     make_hipExtent(8, 2, 0)));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<uint8_t>(device, kPitch * kRows),
            std::vector<uint8_t>(kPitch * kRows, kUntouched));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(device));
}

}  // namespace
}  // namespace streamhal::conformance
