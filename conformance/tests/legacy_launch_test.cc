// Rows: the legacy execution-control calls (cuFuncSetBlockShape,
// cuFuncSetSharedSize, cuParamSetSize, cuParamSeti/f/v, cuLaunch,
// cuLaunchGrid, cuLaunchGridAsync). They have no HIP twins. Kernels run on
// the device and their results are checked; the errors are CUDA's
// documented ones.
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using LegacyLaunchConformance = ContextTest;

// scale_offset's parameters: data at 0, scale at 8, offset at 12, n at 16
// (24 bytes with the padding its push-constant block rounds up to).
constexpr int kDataOffset = 0, kScaleOffset = 8, kOffsetOffset = 12, kCountOffset = 16;
constexpr unsigned kScaleOffsetBytes = 24;

// Sets every parameter of scale_offset one call at a time.
void SetScaleOffsetParams(CUfunction function, CUdeviceptr data, float scale, float offset,
                          uint32_t n) {
  ASSERT_CU(CUDA_SUCCESS, cuParamSetv(function, kDataOffset, &data, sizeof(data)));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetf(function, kScaleOffset, scale));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetf(function, kOffsetOffset, offset));
  ASSERT_CU(CUDA_SUCCESS, cuParamSeti(function, kCountOffset, n));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(function, kScaleOffsetBytes));
}

std::vector<float> ScaledOffset(const std::vector<float>& values, uint32_t n, float scale,
                                float offset) {
  std::vector<float> result = values;
  for (uint32_t i = 0; i < n && i < result.size(); ++i) result[i] = values[i] * scale + offset;
  return result;
}

TEST_F(LegacyLaunchConformance, ParametersAndBlockShapeSetOneByOneLaunchAGrid) {
  constexpr uint32_t kBlock = 64, kN = 1000, kBlocks = (kN + kBlock - 1) / kBlock;
  const std::vector<float> values = Iota(kN);
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(values);
  SetScaleOffsetParams(function, data, 2.0f, 0.5f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, kBlock, 1, 1));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGrid(function, kBlocks, 1));
  EXPECT_EQ(CudaDownload<float>(data, kN), ScaledOffset(values, kN, 2.0f, 0.5f));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

// block_xy(uint* out): thread 0 of each block writes its coordinates.
constexpr char kBlockXyGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME block_xy

STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params {
  uint_ptr out_;
} p;

void main() {
  if (threadIdx.x == 0) {
    p.out_.v[blockIdx.y * gridDim.x + blockIdx.x] = (blockIdx.y + 1) * 1000 + blockIdx.x;
  }
}
)";

TEST_F(LegacyLaunchConformance, TwoDimensionalGridsRunEveryBlock) {
  constexpr int kWidth = 5, kHeight = 3;
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockXyGlsl, "block_xy", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr out = CudaUpload(std::vector<uint32_t>(kWidth * kHeight, 0));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetv(function, 0, &out, sizeof(out)));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(function, sizeof(out)));
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, 8, 2, 1));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGrid(function, kWidth, kHeight));
  std::vector<uint32_t> expected;
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) expected.push_back((y + 1) * 1000 + x);
  }
  EXPECT_EQ(CudaDownload<uint32_t>(out, kWidth * kHeight), expected);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
}

TEST_F(LegacyLaunchConformance, CuLaunchRunsOneBlock) {
  constexpr uint32_t kN = 32;
  const std::vector<float> values = Iota(kN);
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(values);
  SetScaleOffsetParams(function, data, 3.0f, 0.0f, kN);
  // One block of 16 threads: cuLaunch is a 1 x 1 grid, so half the
  // elements are scaled.
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, 16, 1, 1));
  ASSERT_CU(CUDA_SUCCESS, cuLaunch(function));
  std::vector<float> expected = values;
  for (uint32_t i = 0; i < 16; ++i) expected[i] = values[i] * 3.0f;
  EXPECT_EQ(CudaDownload<float>(data, kN), expected);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(LegacyLaunchConformance, GridAsyncRunsInItsStreamInOrder) {
  constexpr uint32_t kBlock = 32, kN = 256;
  const std::vector<float> values = Iota(kN);
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = CudaUpload(values);
  SetScaleOffsetParams(function, data, 2.0f, 0.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, kBlock, 1, 1));
  // Two launches in one stream: x * 2 * 2, then a change of one parameter
  // (the others persist) for a third: + 1.
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGridAsync(function, kN / kBlock, 1, stream));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGridAsync(function, kN / kBlock, 1, stream));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetf(function, kScaleOffset, 1.0f));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetf(function, kOffsetOffset, 1.0f));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGridAsync(function, kN / kBlock, 1, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  std::vector<float> expected(kN);
  for (uint32_t i = 0; i < kN; ++i) expected[i] = values[i] * 4.0f + 1.0f;
  EXPECT_EQ(CudaDownload<float>(data, kN), expected);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(LegacyLaunchConformance, SharedSizeSizesTheDynamicSharedMemory) {
  constexpr uint32_t kBlock = 128, kBlocks = 8, kN = kBlock * kBlocks - 5;
  std::vector<float> values(kN);
  for (uint32_t i = 0; i < kN; ++i) values[i] = static_cast<float>(i % 7);
  std::vector<float> expected(kBlocks, 0.0f);
  for (uint32_t i = 0; i < kN; ++i) expected[i / kBlock] += values[i];
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr src = CudaUpload(values), dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, kBlocks * sizeof(float)));
  // block_sum(float* src, float* dst, uint n): offsets 0, 8, 16.
  ASSERT_CU(CUDA_SUCCESS, cuParamSetv(function, 0, &src, sizeof(src)));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetv(function, 8, &dst, sizeof(dst)));
  ASSERT_CU(CUDA_SUCCESS, cuParamSeti(function, 16, kN));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(function, 24));
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, kBlock, 1, 1));
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetSharedSize(function, kBlock * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchGrid(function, kBlocks, 1));
  EXPECT_EQ(CudaDownload<float>(dst, kBlocks), expected);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(src));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dst));
}

TEST_F(LegacyLaunchConformance, BadFunctionsAndNoContextAreRejected) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  float value = 1.0f;
  for (CUfunction bad :
       {static_cast<CUfunction>(nullptr), reinterpret_cast<CUfunction>(context())}) {
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetBlockShape(bad, 1, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncSetSharedSize(bad, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetSize(bad, 4));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSeti(bad, 0, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetf(bad, 0, 1.0f));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSetv(bad, 0, &value, sizeof(value)));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunch(bad));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchGrid(bad, 1, 1));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchGridAsync(bad, 1, 1, nullptr));
  }
  // A function of an unloaded module.
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuParamSeti(function, 0, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchGrid(function, 1, 1));
  // No current context.
  function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuFuncSetBlockShape(function, 1, 1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuParamSetSize(function, 4));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuLaunch(function));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(popped));
}

TEST_F(LegacyLaunchConformance, BadValuesAreInvalidAndLaunchNothing) {
  constexpr uint32_t kN = 64;
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(std::vector<float>(kN, 0.0f));
  uint8_t bytes[16] = {};
  // Block dimensions below 1; parameter blocks beyond 4 KiB.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(function, 0, 1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(function, 1, -1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetSize(function, 4097));
  EXPECT_CU(CUDA_SUCCESS, cuParamSetSize(function, 4096));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSeti(function, -4, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSeti(function, 4093, 1));
  EXPECT_CU(CUDA_SUCCESS, cuParamSeti(function, 4092, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetf(function, 4096, 1.0f));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(function, 4090, bytes, sizeof(bytes)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(function, 0, nullptr, 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuParamSetv(function, 0, bytes, 0xffffffffu));

  SetScaleOffsetParams(function, data, 1.0f, 1.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, 64, 1, 1));
  // Grids below 1 block.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(function, 0, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(function, 1, -2));
  // Fewer parameter bytes than the kernel takes.
  ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(function, 16));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(function, 1, 1));
  ASSERT_CU(CUDA_SUCCESS, cuParamSetSize(function, kScaleOffsetBytes));
  // A block beyond the device's limit, checked at launch as cuLaunchKernel
  // checks it.
  int max_threads = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&max_threads, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0));
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, max_threads + 1, 1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunch(function));
  // A stream that does not exist.
  ASSERT_CU(CUDA_SUCCESS, cuFuncSetBlockShape(function, 64, 1, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLaunchGridAsync(function, 1, 1, reinterpret_cast<CUstream>(context())));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<float>(data, kN), std::vector<float>(kN, 0.0f));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

}  // namespace
}  // namespace streamhal::conformance
