// Rows: cuMemcpy3DPeer and cuMemcpy3DPeerAsync (CUDA only): 3-D copies whose
// device ends name their contexts. Between two devices they are a
// documented limitation (multi_device_test.cc); here, on one device, the
// bytes land where CUDA_MEMCPY3D's rules put them.
#include <cuda.h>

#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using Memcpy3DPeerConformance = ContextTest;

// A box of 3 x 4 x 2 floats out of a 5 x 6 x 3 volume, at (1, 1, 1) on the
// source and (0, 2, 0) on the destination.
constexpr size_t kW = 5, kH = 6, kD = 3;
constexpr size_t kBoxW = 3, kBoxH = 4, kBoxD = 2;

CUDA_MEMCPY3D_PEER BoxCopy(CUcontext context) {
  CUDA_MEMCPY3D_PEER copy = {};
  copy.srcXInBytes = 1 * sizeof(float);
  copy.srcY = 1;
  copy.srcZ = 1;
  copy.srcPitch = kW * sizeof(float);
  copy.srcHeight = kH;
  copy.srcContext = context;
  copy.dstXInBytes = 0;
  copy.dstY = 2;
  copy.dstZ = 0;
  copy.dstPitch = kW * sizeof(float);
  copy.dstHeight = kH;
  copy.dstContext = context;
  copy.WidthInBytes = kBoxW * sizeof(float);
  copy.Height = kBoxH;
  copy.Depth = kBoxD;
  return copy;
}

std::vector<float> ExpectedBox(const std::vector<float>& src) {
  std::vector<float> dst(kW * kH * kD, 0.0f);
  for (size_t z = 0; z < kBoxD; ++z) {
    for (size_t y = 0; y < kBoxH; ++y) {
      for (size_t x = 0; x < kBoxW; ++x) {
        dst[(z * kH + y + 2) * kW + x] = src[((z + 1) * kH + y + 1) * kW + x + 1];
      }
    }
  }
  return dst;
}

TEST_F(Memcpy3DPeerConformance, DeviceToDeviceBoxesLandInPlace) {
  const std::vector<float> values = Iota(kW * kH * kD);
  CUdeviceptr src = CudaUpload(values);
  CUdeviceptr dst = CudaUpload(std::vector<float>(kW * kH * kD, 0.0f));
  CUDA_MEMCPY3D_PEER copy = BoxCopy(context());
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = src;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = dst;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DPeer(&copy));
  EXPECT_EQ(CudaDownload<float>(dst, kW * kH * kD), ExpectedBox(values));

  // The async form, in a stream, with unified ends.
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dst, 0, kW * kH * kD));
  copy.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
  copy.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DPeerAsync(&copy, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(CudaDownload<float>(dst, kW * kH * kD), ExpectedBox(values));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(src));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dst));
}

TEST_F(Memcpy3DPeerConformance, HostEndsIgnoreTheirContexts) {
  const std::vector<float> values = Iota(kW * kH * kD);
  std::vector<float> host_out(kW * kH * kD, 0.0f);
  CUdeviceptr dev = CudaUpload(std::vector<float>(kW * kH * kD, 0.0f));
  // Host to device: the host end's context is not read (null here).
  CUDA_MEMCPY3D_PEER up = BoxCopy(context());
  up.srcMemoryType = CU_MEMORYTYPE_HOST;
  up.srcHost = values.data();
  up.srcContext = nullptr;
  up.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  up.dstDevice = dev;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DPeer(&up));
  EXPECT_EQ(CudaDownload<float>(dev, kW * kH * kD), ExpectedBox(values));
  // Device to host, the whole volume.
  CUDA_MEMCPY3D_PEER down = {};
  down.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  down.srcDevice = dev;
  down.srcContext = context();
  down.srcPitch = kW * sizeof(float);
  down.srcHeight = kH;
  down.dstMemoryType = CU_MEMORYTYPE_HOST;
  down.dstHost = host_out.data();
  down.dstPitch = kW * sizeof(float);
  down.dstHeight = kH;
  down.WidthInBytes = kW * sizeof(float);
  down.Height = kH;
  down.Depth = kD;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy3DPeer(&down));
  EXPECT_EQ(host_out, ExpectedBox(values));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dev));
}

TEST_F(Memcpy3DPeerConformance, BadDescriptorsContextsAndRangesAreRejected) {
  CUdeviceptr src = CudaUpload(std::vector<float>(kW * kH * kD, 1.0f));
  CUdeviceptr dst = CudaUpload(std::vector<float>(kW * kH * kD, 0.0f));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeerAsync(nullptr, nullptr));
  CUDA_MEMCPY3D_PEER copy = BoxCopy(context());
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = src;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = dst;
  // A device end whose context is missing or destroyed.
  CUDA_MEMCPY3D_PEER bad = copy;
  bad.srcContext = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpy3DPeer(&bad));
  CUcontext gone = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&gone, 0, 0));
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(gone));
  bad = copy;
  bad.dstContext = gone;
  EXPECT_NE(cuMemcpy3DPeer(&bad), CUDA_SUCCESS);
  // A box reaching past the allocation; a LOD other than 0.
  bad = copy;
  bad.Depth = kD + 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(&bad));
  bad = copy;
  bad.dstLOD = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(&bad));
  // A stream that does not exist.
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuMemcpy3DPeerAsync(&copy, reinterpret_cast<CUstream>(context())));
  // Nothing was written.
  EXPECT_EQ(CudaDownload<float>(dst, kW * kH * kD), std::vector<float>(kW * kH * kD, 0.0f));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(src));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dst));
}

}  // namespace
}  // namespace streamhal::conformance
