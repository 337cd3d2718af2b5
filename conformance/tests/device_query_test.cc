// Rows: cuDeviceGetProperties (the deprecated CUdevprop),
// cuDeviceGetTexture1DLinearMaxWidth and cuDeviceGetExecAffinitySupport,
// CUDA-only device queries; the values agree with cuDeviceGetAttribute and
// with what the other calls accept.
#include <cuda.h>

#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using DeviceQueryConformance = DriverTest;

int Attribute(CUdevice_attribute attribute) {
  int value = -1;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&value, attribute, 0));
  return value;
}

TEST_F(DeviceQueryConformance, PropertiesAgreeWithTheAttributes) {
  CUdevprop prop = {};
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetProperties(&prop, 0));
  EXPECT_EQ(prop.maxThreadsPerBlock, Attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  EXPECT_EQ(prop.maxThreadsDim[0], Attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
  EXPECT_EQ(prop.maxThreadsDim[1], Attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y));
  EXPECT_EQ(prop.maxThreadsDim[2], Attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
  EXPECT_EQ(prop.maxGridSize[0], Attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
  EXPECT_EQ(prop.maxGridSize[1], Attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
  EXPECT_EQ(prop.maxGridSize[2], Attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
  EXPECT_EQ(prop.sharedMemPerBlock, Attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  EXPECT_EQ(prop.totalConstantMemory, Attribute(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  EXPECT_EQ(prop.SIMDWidth, Attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  EXPECT_EQ(prop.memPitch, Attribute(CU_DEVICE_ATTRIBUTE_MAX_PITCH));
  EXPECT_EQ(prop.regsPerBlock, Attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  EXPECT_EQ(prop.clockRate, Attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
  EXPECT_EQ(prop.textureAlign, Attribute(CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
  EXPECT_GT(prop.maxThreadsPerBlock, 0);
  EXPECT_GT(prop.SIMDWidth, 0);
}

TEST_F(DeviceQueryConformance, PropertiesRejectBadArguments) {
  CUdevprop prop = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&prop, device_count()));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&prop, -1));
}

TEST_F(DeviceQueryConformance, LinearTextureWidthIsWhatATextureObjectSpans) {
  size_t width = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 4, 0));
  // Vulkan guarantees texel buffers of at least 65536 elements.
  EXPECT_GE(width, 65536u);
  size_t narrow = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetTexture1DLinearMaxWidth(&narrow, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0));
  EXPECT_EQ(narrow, width);
  // A texture object over linear memory of 65536 float4 elements works.
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  constexpr size_t kElements = 65536;
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data, kElements * 16));
  CUDA_RESOURCE_DESC resource = {};
  resource.resType = CU_RESOURCE_TYPE_LINEAR;
  resource.res.linear.devPtr = data;
  resource.res.linear.format = CU_AD_FORMAT_FLOAT;
  resource.res.linear.numChannels = 4;
  resource.res.linear.sizeInBytes = kElements * 16;
  CUDA_TEXTURE_DESC texture = {};
  CUtexObject object = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&object, &resource, &texture, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(object));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(DeviceQueryConformance, LinearTextureWidthRejectsBadArguments) {
  size_t width = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetTexture1DLinearMaxWidth(nullptr, CU_AD_FORMAT_FLOAT, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 3, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetTexture1DLinearMaxWidth(&width, static_cast<CUarray_format>(0x7f), 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 1, device_count()));
}

TEST_F(DeviceQueryConformance, ExecutionAffinityIsNeverSupported) {
  int supported = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetExecAffinitySupport(&supported, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
  EXPECT_EQ(supported, 0);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetExecAffinitySupport(nullptr, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetExecAffinitySupport(&supported, CU_EXEC_AFFINITY_TYPE_MAX, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuDeviceGetExecAffinitySupport(&supported, CU_EXEC_AFFINITY_TYPE_SM_COUNT, -1));
}

}  // namespace
}  // namespace streamhal::conformance
