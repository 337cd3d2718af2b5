// Rows: kernel execution through both APIs: cuLaunchKernel /
// hipModuleLaunchKernel with kernelParams and with a packed `extra` buffer,
// dynamic shared memory, grids beyond the device's dispatch limits,
// parameter blocks beyond the push-constant limit, the launch configuration
// errors, and function attributes (cuFuncGetAttribute, cuFuncSetAttribute,
// hipFuncGetAttributes).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using LaunchConformance = ContextTest;
using FunctionAttributeConformance = ContextTest;

hipFunction_t AsHip(CUfunction function) { return reinterpret_cast<hipFunction_t>(function); }

// The packed parameters of scale_offset, laid out as its push-constant block
// declares them (offsets 0, 8, 12, 16).
struct ScaleOffsetArgs {
  uint64_t data;
  float scale;
  float offset;
  uint32_t n;
  uint32_t padding;
};
static_assert(sizeof(ScaleOffsetArgs) == 24);

// The parameters of param_sum: a pointer and 256 floats (1032 bytes).
struct ParamSumArgs {
  uint64_t out;
  float values[kParamSumValues];
};
static_assert(sizeof(ParamSumArgs) == 8 + 4 * kParamSumValues);

// A kernel and a zero-filled output buffer, with the check that failed
// launches wrote nothing.
class ScaleOffsetLaunch {
 public:
  explicit ScaleOffsetLaunch(uint32_t n) : n_(n) {
    function_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&data_, n * sizeof(float)));
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(data_, 0, n));
    params_[0] = &data_;
    params_[1] = &scale_;
    params_[2] = &offset_;
    params_[3] = &n_;
  }
  CUfunction function() const { return function_; }
  CUdeviceptr data() const { return data_; }
  void** params() { return params_; }
  // All elements are still 0 once every launch finished.
  void ExpectUntouched() {
    ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    EXPECT_EQ(CudaDownload<float>(data_, n_), std::vector<float>(n_, 0.0f));
  }

 private:
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUdeviceptr data_ = 0;
  float scale_ = 1.0f;
  float offset_ = 1.0f;
  uint32_t n_;
  void* params_[4] = {};
};

// --- Launches that run -------------------------------------------------------------

// The loop limit a device reports (streamhal extension attribute) is the one
// its kernels meet: one invocation counting to 100,000 stops at the limit on
// llvmpipe, and counts to the end on a device without one.
TEST_F(LaunchConformance, KernelLoopsStopAtTheReportedLoopIterationLimit) {
  static const char kCountGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME count_up

STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params {
  uint_ptr result;
  uint n;
} p;

void main() {
  uint count = 0;
  for (uint i = 0; i < p.n; ++i) count += 1;
  p.result.v[0] = count;
}
)";
  int cuda_limit = -1, hip_limit = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&cuda_limit, CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT, 0));
  ASSERT_HIP(hipSuccess,
             hipDeviceGetAttribute(&hip_limit, hipDeviceAttributeHalLoopIterationLimit, 0));
  EXPECT_EQ(cuda_limit, hip_limit);
  ASSERT_GE(cuda_limit, 0);
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kCountGlsl));
  CUfunction count_up = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&count_up, module, "count_up"));
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, sizeof(uint32_t)));
  for (uint32_t n : {1000u, 100000u}) {
    SCOPED_TRACE(n);
    void* params[] = {&out, &n};
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(count_up, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
    const uint32_t expected =
        cuda_limit > 0 ? std::min<uint32_t>(n, static_cast<uint32_t>(cuda_limit)) : n;
    EXPECT_EQ(CudaDownload<uint32_t>(out, 1)[0], expected);
  }
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(out));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(LaunchConformance, VectorAddWithKernelParams) {
  CUmodule cuda_module = nullptr;
  ExpectCudaVectorAdd(LoadCudaKernel(kVectorAddGlsl, "vector_add", &cuda_module), 100000);
  hipModule_t hip_module = nullptr;
  ExpectHipVectorAdd(LoadHipKernel(kVectorAddGlsl, "vector_add", &hip_module), 100000);
  // One thread per element, n not a multiple of the block.
  ExpectCudaVectorAdd(LoadCudaKernel(kVectorAddGlsl, "vector_add", &cuda_module), 1);
  ExpectHipVectorAdd(LoadHipKernel(kVectorAddGlsl, "vector_add", &hip_module), 129);
}

TEST_F(LaunchConformance, PackedExtraParametersOnAnInteriorPointer) {
  constexpr uint32_t kTotal = 4096, kSkip = 1000, kN = kTotal - 2 * kSkip;
  const std::vector<float> values = Iota(kTotal);
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  for (bool through_hip : {false, true}) {
    CUdeviceptr data = CudaUpload(values);
    // The kernel sees only the middle of the allocation.
    ScaleOffsetArgs args{data + kSkip * sizeof(float), 2.0f, 0.5f, kN, 0};
    size_t size = sizeof(args);
    if (through_hip) {
      void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                       HIP_LAUNCH_PARAM_END};
      ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), (kN + 63) / 64, 1, 1, 64, 1, 1,
                                                   0, nullptr, nullptr, extra));
    } else {
      void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                       CU_LAUNCH_PARAM_END};
      ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (kN + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                             nullptr, extra));
    }
    const std::vector<float> result = CudaDownload<float>(data, kTotal);
    for (uint32_t i = 0; i < kTotal; ++i) {
      const bool inside = i >= kSkip && i < kSkip + kN;
      ASSERT_EQ(result[i], inside ? values[i] * 2.0f + 0.5f : values[i]) << i;
    }
    EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  }
}

TEST_F(LaunchConformance, ExtraBufferMayBeLargerThanTheParameters) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(std::vector<float>(64, 1.0f));
  unsigned char buffer[64] = {};
  ScaleOffsetArgs args{data, 3.0f, 0.0f, 64, 0};
  std::memcpy(buffer, &args, sizeof(args));
  size_t size = sizeof(buffer);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_BUFFER_POINTER, buffer,
                   CU_LAUNCH_PARAM_END};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, extra));
  EXPECT_EQ(CudaDownload<float>(data, 64), std::vector<float>(64, 3.0f));
}

TEST_F(LaunchConformance, DynamicSharedMemoryReduction) {
  constexpr uint32_t kBlock = 256, kBlocks = 40, kN = kBlock * kBlocks - 77;
  std::vector<float> values(kN);
  for (uint32_t i = 0; i < kN; ++i) values[i] = static_cast<float>(i % 13);
  std::vector<float> expected(kBlocks, 0.0f);
  for (uint32_t i = 0; i < kN; ++i) expected[i / kBlock] += values[i];

  CUmodule cuda_module = nullptr;
  CUfunction cuda_function = LoadCudaKernel(kBlockSumGlsl, "block_sum", &cuda_module);
  ASSERT_NE(cuda_function, nullptr);
  CUdeviceptr src = CudaUpload(values), dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, kBlocks * sizeof(float)));
  uint32_t n = kN;
  void* params[] = {&src, &dst, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(cuda_function, kBlocks, 1, 1, kBlock, 1, 1,
                                         kBlock * sizeof(float), nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(dst, kBlocks), expected);

  // Through HIP, with another block size: the shared array follows the
  // launch's byte count.
  constexpr uint32_t kHipBlock = 64, kHipBlocks = (kN + kHipBlock - 1) / kHipBlock;
  std::vector<float> hip_expected(kHipBlocks, 0.0f);
  for (uint32_t i = 0; i < kN; ++i) hip_expected[i / kHipBlock] += values[i];
  hipModule_t hip_module = nullptr;
  hipFunction_t hip_function = LoadHipKernel(kBlockSumGlsl, "block_sum", &hip_module);
  ASSERT_NE(hip_function, nullptr);
  void* hip_dst = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&hip_dst, kHipBlocks * sizeof(float)));
  void* hip_src = AsHipPointer(src);
  void* hip_params[] = {&hip_src, &hip_dst, &n};
  ASSERT_HIP(hipSuccess,
             hipModuleLaunchKernel(hip_function, kHipBlocks, 1, 1, kHipBlock, 1, 1,
                                   kHipBlock * sizeof(float), nullptr, hip_params, nullptr));
  std::vector<float> hip_result(kHipBlocks);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(hip_result.data(), hip_dst, kHipBlocks * sizeof(float)));
  EXPECT_EQ(hip_result, hip_expected);
}

TEST_F(LaunchConformance, GridLargerThan65535BlocksInX) {
  // Vulkan guarantees 65535 workgroups per dimension; CUDA grids go to
  // 2^31 - 1 in x, so the launch is split.
  const int max_grid_x = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
  ASSERT_GE(max_grid_x, 70000);
  constexpr uint32_t kBlocks = 70001;
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockIndexGlsl, "block_index", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, kBlocks * sizeof(uint32_t)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, kBlocks));
  void* params[] = {&out};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, kBlocks, 1, 1, 4, 1, 1, 0, nullptr, params, nullptr));
  std::vector<uint32_t> result = CudaDownload<uint32_t>(out, kBlocks);
  for (uint32_t i = 0; i < kBlocks; ++i) ASSERT_EQ(result[i], i + 1) << "block " << i;

  // The same through HIP.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, kBlocks));
  void* hip_out = AsHipPointer(out);
  void* hip_params[] = {&hip_out};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), kBlocks, 1, 1, 1, 1, 1, 0, nullptr,
                                               hip_params, nullptr));
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(result.data(), hip_out, kBlocks * sizeof(uint32_t)));
  for (uint32_t i = 0; i < kBlocks; ++i) ASSERT_EQ(result[i], i + 1) << "block " << i;
}

TEST_F(LaunchConformance, ParameterBlocksBeyondThePushConstantLimit) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kParamSumGlsl, "param_sum", &module);
  ASSERT_NE(function, nullptr);
  ParamSumArgs args{};
  float expected = 0.0f;
  for (int i = 0; i < kParamSumValues; ++i) {
    args.values[i] = static_cast<float>(i % 10) + 0.5f;
    expected += args.values[i];
  }
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, 4 * sizeof(float)));
  args.out = out;

  // kernelParams: a pointer to the pointer and a pointer to the array.
  void* params[] = {&args.out, args.values};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(out, 1)[0], expected);

  // Packed through CUDA's and HIP's extra; each launch has its own values
  // even when several are in flight.
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, 4));
  size_t size = sizeof(args);
  std::vector<ParamSumArgs> variants(3, args);
  std::vector<float> sums(3, 0.0f);
  for (int v = 0; v < 3; ++v) {
    variants[v].out = out + v * sizeof(float);
    for (int i = 0; i < kParamSumValues; ++i) {
      variants[v].values[i] = static_cast<float>((i + v) % 7);
      sums[v] += variants[v].values[i];
    }
  }
  void* extra0[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &variants[0], CU_LAUNCH_PARAM_BUFFER_SIZE,
                    &size, CU_LAUNCH_PARAM_END};
  void* extra1[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &variants[1], HIP_LAUNCH_PARAM_BUFFER_SIZE,
                    &size, HIP_LAUNCH_PARAM_END};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra0));
  ASSERT_HIP(hipSuccess,
             hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra1));
  void* params2[] = {&variants[2].out, variants[2].values};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 1, 1, 1, 0, nullptr,
                                               params2, nullptr));
  const std::vector<float> result = CudaDownload<float>(out, 3);
  EXPECT_EQ(result, sums);
}

TEST_F(LaunchConformance, LaunchesOnTheDefaultStreamRunInOrder) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(std::vector<float>(1000, 1.0f));
  uint32_t n = 1000;
  // x -> 2x + 1, then x -> 3x: 9 only in this order.
  float scale1 = 2.0f, offset1 = 1.0f, scale2 = 3.0f, offset2 = 0.0f;
  void* first[] = {&data, &scale1, &offset1, &n};
  void* second[] = {&data, &scale2, &offset2, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 16, 1, 1, 64, 1, 1, 0, nullptr, first, nullptr));
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), 16, 1, 1, 64, 1, 1, 0, nullptr,
                                               second, nullptr));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, 16, 1, 1, 64, 1, 1, 0, CU_STREAM_LEGACY, first, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<float>(data, 1000), std::vector<float>(1000, 19.0f));
}

TEST_F(LaunchConformance, LaunchesRunOnCreatedStreams) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr data = CudaUpload(std::vector<float>(512, 1.0f));
  ASSERT_NE(data, 0u);
  uint32_t n = 512;
  float scale = 2.0f, offset = 1.0f;
  void* params[] = {&data, &scale, &offset, &n};
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  hipStream_t hip_stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&hip_stream, hipStreamNonBlocking));
  // x -> 2x + 1 three times on one stream, then once on another after it.
  for (int i = 0; i < 3; ++i) {
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(function, 8, 1, 1, 64, 1, 1, 0, stream, params, nullptr));
  }
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), 8, 1, 1, 64, 1, 1, 0, hip_stream,
                                               params, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(hip_stream));
  EXPECT_EQ(CudaDownload<float>(data, 512), std::vector<float>(512, 31.0f));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_HIP(hipSuccess, hipStreamDestroy(hip_stream));
}

// hipExtModuleLaunchKernel and hipHccModuleLaunchKernel take global work
// sizes (threads, not blocks); a size that is not a multiple of the block
// gets a last, partly idle block, so the kernel checks its index.
TEST_F(LaunchConformance, ExtModuleLaunchTakesGlobalWorkSizes) {
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  constexpr uint32_t kN = 1000;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_NE(data, nullptr);
  const std::vector<float> ones(kN, 1.0f);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(data, const_cast<float*>(ones.data()), kN * sizeof(float)));
  float scale = 2.0f, offset = 1.0f;
  uint32_t n = kN;
  void* params[] = {&data, &scale, &offset, &n};
  // x -> 2x + 1 through each entry point: 1 -> 3 -> 7.
  ASSERT_HIP(hipSuccess, hipExtModuleLaunchKernel(function, kN, 1, 1, 64, 1, 1, 0, nullptr, params,
                                                  nullptr, nullptr, nullptr, 0));
  ScaleOffsetArgs args{AsCudaPointer(data), 2.0f, 1.0f, kN, 0};
  size_t size = sizeof(args);
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  ASSERT_HIP(hipSuccess, hipHccModuleLaunchKernel(function, kN, 1, 1, 128, 1, 1, 0, nullptr,
                                                  nullptr, extra, nullptr, nullptr));
  std::vector<float> result(kN);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(result.data(), data, kN * sizeof(float)));
  EXPECT_EQ(result, std::vector<float>(kN, 7.0f));
}

TEST_F(LaunchConformance, ExtModuleLaunchRecordsItsEvents) {
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  constexpr uint32_t kN = 4096;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_NE(data, nullptr);
  ASSERT_HIP(hipSuccess, hipMemsetD32(data, 0, kN));
  float scale = 1.0f, offset = 1.0f;
  uint32_t n = kN;
  void* params[] = {&data, &scale, &offset, &n};
  hipEvent_t start = nullptr, stop = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&start));
  ASSERT_HIP(hipSuccess, hipEventCreate(&stop));
  ASSERT_HIP(hipSuccess, hipExtModuleLaunchKernel(function, kN, 1, 1, 256, 1, 1, 0, nullptr, params,
                                                  nullptr, start, stop, 0));
  // The stop event completes after the kernel: its writes are visible.
  ASSERT_HIP(hipSuccess, hipEventSynchronize(stop));
  float ms = -1.0f;
  ASSERT_HIP(hipSuccess, hipEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.0f);
  std::vector<float> result(kN);
  ASSERT_HIP(hipSuccess, hipMemcpyDtoH(result.data(), data, kN * sizeof(float)));
  EXPECT_EQ(result, std::vector<float>(kN, 1.0f));
  EXPECT_HIP(hipSuccess, hipEventDestroy(start));
  EXPECT_HIP(hipSuccess, hipEventDestroy(stop));
}

TEST_F(LaunchConformance, ExtModuleLaunchRejectsBadConfigurations) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  hipFunction_t f = AsHip(launch.function());
  void** p = launch.params();
  for (bool hcc : {false, true}) {
    auto run = [&](hipFunction_t function, uint32_t global_x, uint32_t local_x, hipEvent_t start) {
      return hcc ? hipHccModuleLaunchKernel(function, global_x, 1, 1, local_x, 1, 1, 0, nullptr, p,
                                            nullptr, start, nullptr)
                 : hipExtModuleLaunchKernel(function, global_x, 1, 1, local_x, 1, 1, 0, nullptr, p,
                                            nullptr, start, nullptr, 0);
    };
    EXPECT_HIP(hipErrorInvalidHandle, run(nullptr, 64, 64, nullptr));
    EXPECT_HIP(hipErrorInvalidValue, run(f, 0, 64, nullptr));
    EXPECT_HIP(hipErrorInvalidValue, run(f, 64, 0, nullptr));
    const unsigned too_wide =
        static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)) + 1;
    EXPECT_HIP(hipErrorInvalidValue, run(f, too_wide, too_wide, nullptr));
    EXPECT_HIP(hipErrorInvalidHandle, run(f, 64, 64, reinterpret_cast<hipEvent_t>(0x3210000)));
  }
  launch.ExpectUntouched();
}

// What a host function saw: the first element of page-locked memory a
// kernel queued before it wrote.
struct HostFunctionRecord {
  const float* values = nullptr;
  float seen = -1.0f;
  int calls = 0;
};

void RecordFirstValue(void* raw) {
  auto* record = static_cast<HostFunctionRecord*>(raw);
  record->seen = record->values[0];
  ++record->calls;
}

// CUDA: a host function runs after the work queued before it has finished
// and blocks the work queued after it.
TEST_F(LaunchConformance, HostFunctionsRunInStreamOrder) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  void* host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&host, 64 * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&device, host, 0));
  ASSERT_NE(device, 0u);
  float* values = static_cast<float*>(host);
  for (int i = 0; i < 64; ++i) values[i] = 1.0f;
  float scale = 2.0f, offset = 1.0f;
  uint32_t n = 64;
  void* params[] = {&device, &scale, &offset, &n};
  HostFunctionRecord cuda_record{values}, hip_record{values};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(nullptr, RecordFirstValue, &cuda_record));
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 64, 1, 1, 0, nullptr,
                                               params, nullptr));
  ASSERT_HIP(hipSuccess, hipLaunchHostFunc(nullptr, RecordFirstValue, &hip_record));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_EQ(cuda_record.calls, 1);
  EXPECT_EQ(hip_record.calls, 1);
  EXPECT_EQ(cuda_record.seen, 3.0f);
  EXPECT_EQ(hip_record.seen, 7.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(host));
}

TEST_F(LaunchConformance, HostFunctionsRejectNullFunctionsAndUnknownStreams) {
  int calls = 0;
  auto count = [](void* raw) { ++*static_cast<int*>(raw); };
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(nullptr, nullptr, &calls),
              hipLaunchHostFunc(nullptr, nullptr, &calls));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchHostFunc(reinterpret_cast<CUstream>(0x2345000), count, &calls),
              hipLaunchHostFunc(reinterpret_cast<hipStream_t>(0x2345000), count, &calls));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_EQ(calls, 0);
}

// CUDA: cuCtxSynchronize "blocks until the device has completed all
// preceding requested tasks"; hipCtxSynchronize and hipDeviceSynchronize
// likewise. The kernel writes page-locked host memory through its device
// pointer, so the host sees the result with no copy (a copy would wait by
// itself).
TEST_F(LaunchConformance, ContextSynchronizeWaitsForQueuedWork) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  constexpr uint32_t kCount = 256;
  void* host = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&host, kCount * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP));
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&device, host, 0));
  ASSERT_NE(device, 0u);
  float* values = static_cast<float*>(host);
  float scale = 2.0f, offset = 1.0f;
  uint32_t n = kCount;
  void* params[] = {&device, &scale, &offset, &n};
  const char* names[] = {"cuCtxSynchronize", "hipCtxSynchronize", "hipDeviceSynchronize"};
  for (int which = 0; which < 3; ++which) {
    SCOPED_TRACE(names[which]);
    for (uint32_t i = 0; i < kCount; ++i) values[i] = 1.0f;
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(function, kCount / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
    switch (which) {
      case 0:
        EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
        break;
      case 1:
        EXPECT_HIP(hipSuccess, hipCtxSynchronize());
        break;
      default:
        EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
        break;
    }
    int wrong = 0;
    for (uint32_t i = 0; i < kCount; ++i) wrong += values[i] != 3.0f;
    EXPECT_EQ(wrong, 0) << "first element " << values[0];
    // Whatever happened, nothing is left queued for the next round.
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(host));
}

TEST_F(LaunchConformance, FixedBlockSizeKernelRunsWithExactlyItsSize) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kReverse64Glsl, "reverse64", &module);
  ASSERT_NE(function, nullptr);
  const std::vector<float> values = Iota(128);
  CUdeviceptr data = CudaUpload(values);
  void* params[] = {&data};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 2, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> result = CudaDownload<float>(data, 128);
  for (int i = 0; i < 128; ++i) EXPECT_EQ(result[i], values[(i / 64) * 64 + 63 - i % 64]) << i;
  // Any other block size is refused, and nothing runs.
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(function, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr),
      hipModuleLaunchKernel(AsHip(function), 2, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(function, 2, 1, 1, 64, 2, 1, 0, nullptr, params, nullptr),
      hipModuleLaunchKernel(AsHip(function), 2, 1, 1, 64, 1, 2, 0, nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(data, 128), result);
}

// --- Launch errors -------------------------------------------------------------------

TEST_F(LaunchConformance, KernelParamsAndExtraTogetherAreInvalid) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  ScaleOffsetArgs args{};
  size_t size = sizeof(args);
  void* cuda_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                        CU_LAUNCH_PARAM_END};
  void* hip_extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                       HIP_LAUNCH_PARAM_END};
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(launch.function(), 1, 1, 1, 64, 1, 1, 0, nullptr, launch.params(), cuda_extra),
      hipModuleLaunchKernel(AsHip(launch.function()), 1, 1, 1, 64, 1, 1, 0, nullptr,
                            launch.params(), hip_extra));
  launch.ExpectUntouched();
}

TEST_F(LaunchConformance, MissingOrMalformedParametersAreInvalid) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  CUfunction f = launch.function();
  // Neither kernelParams nor extra for a kernel that takes parameters.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, nullptr));
  // A null entry in kernelParams.
  void* params[4];
  std::memcpy(params, launch.params(), sizeof(params));
  params[2] = nullptr;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  // extra: a buffer smaller than the parameter block; no size; no pointer;
  // an unknown key.
  ScaleOffsetArgs args{};
  size_t small = 12;
  void* cuda_small[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
                        CU_LAUNCH_PARAM_END};
  void* hip_small[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &small,
                       HIP_LAUNCH_PARAM_END};
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, cuda_small),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, hip_small));
  void* cuda_no_size[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_END};
  void* hip_no_size[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &args, HIP_LAUNCH_PARAM_END};
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, cuda_no_size),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, hip_no_size));
  size_t size = sizeof(args);
  void* cuda_no_pointer[] = {CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  void* hip_no_pointer[] = {HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, HIP_LAUNCH_PARAM_END};
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, cuda_no_pointer),
      hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, hip_no_pointer));
  void* unknown_key[] = {reinterpret_cast<void*>(0x77), &args, CU_LAUNCH_PARAM_END,
                         HIP_LAUNCH_PARAM_END};
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, unknown_key),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0, nullptr, nullptr, unknown_key));
  launch.ExpectUntouched();
}

TEST_F(LaunchConformance, NullAndForeignFunctionsAreInvalidHandles) {
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr),
              hipModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchKernel(reinterpret_cast<CUfunction>(0x5432100), 1, 1, 1, 1, 1, 1, 0, nullptr,
                             nullptr, nullptr),
              hipModuleLaunchKernel(reinterpret_cast<hipFunction_t>(0x5432100), 1, 1, 1, 1, 1, 1, 0,
                                    nullptr, nullptr, nullptr));
  // A module handle is not a function handle.
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kVectorAddGlsl));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchKernel(reinterpret_cast<CUfunction>(module), 1, 1, 1, 1, 1, 1, 0, nullptr,
                             nullptr, nullptr),
              hipModuleLaunchKernel(reinterpret_cast<hipFunction_t>(module), 1, 1, 1, 1, 1, 1, 0,
                                    nullptr, nullptr, nullptr));
}

TEST_F(LaunchConformance, ZeroDimensionsAreInvalid) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  CUfunction f = launch.function();
  void** p = launch.params();
  const unsigned shapes[6][6] = {{0, 1, 1, 64, 1, 1}, {1, 0, 1, 64, 1, 1}, {1, 1, 0, 64, 1, 1},
                                 {1, 1, 1, 0, 1, 1},  {1, 1, 1, 64, 0, 1}, {1, 1, 1, 64, 1, 0}};
  for (const auto& s : shapes) {
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
                cuLaunchKernel(f, s[0], s[1], s[2], s[3], s[4], s[5], 0, nullptr, p, nullptr),
                hipModuleLaunchKernel(AsHip(f), s[0], s[1], s[2], s[3], s[4], s[5], 0, nullptr, p,
                                      nullptr));
  }
  launch.ExpectUntouched();
}

TEST_F(LaunchConformance, DimensionsBeyondTheDeviceLimitsAreInvalid) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  CUfunction f = launch.function();
  void** p = launch.params();
  const unsigned grid[3] = {
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
  const unsigned block[3] = {
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
      static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
  // One past the limit in each grid dimension.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, grid[0] + 1, 1, 1, 64, 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), grid[0] + 1, 1, 1, 64, 1, 1, 0, nullptr, p, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, grid[1] + 1, 1, 64, 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, grid[1] + 1, 1, 64, 1, 1, 0, nullptr, p, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, grid[2] + 1, 64, 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, grid[2] + 1, 64, 1, 1, 0, nullptr, p, nullptr));
  // One past the limit in each block dimension.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, block[0] + 1, 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, block[0] + 1, 1, 1, 0, nullptr, p, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 1, block[1] + 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 1, block[1] + 1, 1, 0, nullptr, p, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, 1, 1, 1, 1, 1, block[2] + 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 1, 1, block[2] + 1, 0, nullptr, p, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(f, UINT_MAX, UINT_MAX, UINT_MAX, 1, 1, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), UINT_MAX, UINT_MAX, UINT_MAX, 1, 1, 1, 0, nullptr, p,
                                    nullptr));
  launch.ExpectUntouched();
}

TEST_F(LaunchConformance, BlocksAboveTheThreadLimitAreInvalid) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  CUfunction f = launch.function();
  void** p = launch.params();
  int max_threads = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
  ASSERT_GT(max_threads, 1);
  const unsigned x = static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
  // Each dimension within its limit, the product above the thread limit.
  const unsigned y = static_cast<unsigned>(max_threads) / x + 1;
  ASSERT_LE(y, static_cast<unsigned>(DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, x, y, 1, 0, nullptr, p, nullptr),
              hipModuleLaunchKernel(AsHip(f), 1, 1, 1, x, y, 1, 0, nullptr, p, nullptr));
  // The limit itself is fine.
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, static_cast<unsigned>(max_threads), 1, 1, 0,
                                         nullptr, p, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<float>(launch.data(), 64), std::vector<float>(64, 1.0f));
}

TEST_F(LaunchConformance, TooMuchDynamicSharedMemoryIsInvalid) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(function, nullptr);
  int limit = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function));
  ASSERT_GT(limit, 0);
  CUdeviceptr src = CudaUpload(std::vector<float>(64, 1.0f)), dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(dst, 0, 1));
  uint32_t n = 64;
  void* params[] = {&src, &dst, &n};
  const unsigned too_much = static_cast<unsigned>(limit) + 1;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, too_much, nullptr, params, nullptr),
              hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 64, 1, 1, too_much, nullptr, params,
                                    nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, UINT_MAX, nullptr, params, nullptr),
              hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 64, 1, 1, UINT_MAX, nullptr, params,
                                    nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(CudaDownload<float>(dst, 1)[0], 0.0f);
  // The limit itself runs.
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 64, 1, 1, static_cast<unsigned>(limit),
                                         nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(dst, 1)[0], 64.0f);
}

TEST_F(LaunchConformance, UnknownStreamsAndMissingContextsAreRejected) {
  ScaleOffsetLaunch launch(64);
  ASSERT_NE(launch.function(), nullptr);
  CUfunction f = launch.function();
  void** p = launch.params();
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_HANDLE,
      cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, reinterpret_cast<CUstream>(0x4321000), p, nullptr),
      hipModuleLaunchKernel(AsHip(f), 1, 1, 1, 64, 1, 1, 0,
                            reinterpret_cast<hipStream_t>(0x4321000), p, nullptr));
  launch.ExpectUntouched();
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, p, nullptr));
}

// --- Function attributes -----------------------------------------------------------

TEST_F(FunctionAttributeConformance, AttributesComeFromTheKernelAndTheDevice) {
  CUmodule module = nullptr;
  CUfunction add = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  CUfunction sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  CUfunction reverse = LoadCudaKernel(kReverse64Glsl, "reverse64", &module);
  ASSERT_NE(add, nullptr);
  ASSERT_NE(sum, nullptr);
  ASSERT_NE(reverse, nullptr);
  auto get = [](CUfunction_attribute attribute, CUfunction function) {
    int value = -12345;
    EXPECT_CU(CUDA_SUCCESS, cuFuncGetAttribute(&value, attribute, function));
    return value;
  };
  const int device_threads = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  const int device_shared = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  const int version = DeviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) * 10 +
                      DeviceAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  // A kernel whose block size is set per launch allows what the device
  // allows; one with a literal size allows exactly that.
  EXPECT_GT(get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, add), 0);
  EXPECT_LE(get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, add), device_threads);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, reverse), 64);
  // Static shared memory: reverse64's 64 floats.
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, add), 0);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, reverse), 256);
  // Dynamic shared memory: what the device leaves after static use.
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sum), device_shared);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_PTX_VERSION, add), version);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_BINARY_VERSION, add), version);
  // Figures Vulkan does not expose are 0; no carveout preference is -1.
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, add), 0);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, add), 0);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_NUM_REGS, add), 0);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA, add), 0);
  EXPECT_EQ(get(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, add), -1);

  // HIP reports the same numbers.
  for (CUfunction function : {add, sum, reverse}) {
    for (int attribute = 0; attribute < HIP_FUNC_ATTRIBUTE_MAX; ++attribute) {
      int cuda_value = -1, hip_value = -2;
      ASSERT_CU(
          CUDA_SUCCESS,
          cuFuncGetAttribute(&cuda_value, static_cast<CUfunction_attribute>(attribute), function));
      ASSERT_HIP(hipSuccess,
                 hipFuncGetAttribute(&hip_value, static_cast<hipFunction_attribute>(attribute),
                                     AsHip(function)));
      EXPECT_EQ(cuda_value, hip_value) << "attribute " << attribute;
    }
  }
}

TEST_F(FunctionAttributeConformance, HipFuncGetAttributesFillsTheWholeStruct) {
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kReverse64Glsl, "reverse64", &module);
  ASSERT_NE(function, nullptr);
  hipFuncAttributes attributes;
  std::memset(&attributes, 0x5a, sizeof(attributes));
  ASSERT_HIP(hipSuccess, hipFuncGetAttributes(&attributes, function));
  auto get = [&](hipFunction_attribute attribute) {
    int value = -12345;
    EXPECT_HIP(hipSuccess, hipFuncGetAttribute(&value, attribute, function));
    return value;
  };
  EXPECT_EQ(attributes.maxThreadsPerBlock, 64);
  EXPECT_EQ(attributes.sharedSizeBytes, 256u);
  EXPECT_EQ(attributes.constSizeBytes, 0u);
  EXPECT_EQ(attributes.localSizeBytes, 0u);
  EXPECT_EQ(attributes.numRegs, get(HIP_FUNC_ATTRIBUTE_NUM_REGS));
  EXPECT_EQ(attributes.ptxVersion, get(HIP_FUNC_ATTRIBUTE_PTX_VERSION));
  EXPECT_EQ(attributes.binaryVersion, get(HIP_FUNC_ATTRIBUTE_BINARY_VERSION));
  EXPECT_EQ(attributes.cacheModeCA, get(HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA));
  EXPECT_EQ(attributes.maxDynamicSharedSizeBytes,
            get(HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
  EXPECT_EQ(attributes.preferredShmemCarveout,
            get(HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT));
}

TEST_F(FunctionAttributeConformance, GetAttributeRejectsBadArguments) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  int value = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuFuncGetAttribute(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, function),
              hipFuncGetAttribute(nullptr, HIP_FUNC_ATTRIBUTE_NUM_REGS, AsHip(function)));
  // Numbers outside the enums, passed as C passes them (c_callers.h).
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuFuncGetAttribute(&value, 1000, function),
              CCallHipFuncGetAttribute(&value, 1000, AsHip(function)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuFuncGetAttribute(&value, -1, function),
              CCallHipFuncGetAttribute(&value, -1, AsHip(function)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, nullptr),
              hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS, nullptr));
  hipFuncAttributes attributes;
  EXPECT_HIP(hipErrorInvalidValue, hipFuncGetAttributes(nullptr, AsHip(function)));
  EXPECT_HIP(hipErrorInvalidHandle, hipFuncGetAttributes(&attributes, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, function),
              hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_NUM_REGS, AsHip(function)));
  EXPECT_HIP(hipErrorInvalidHandle, hipFuncGetAttributes(&attributes, AsHip(function)));
}

TEST_F(FunctionAttributeConformance, DynamicSharedLimitCanBeLoweredAndIsEnforced) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(function, nullptr);
  const int device_shared = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1024));
  int value = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function));
  EXPECT_EQ(value, 1024);
  CUdeviceptr src = CudaUpload(std::vector<float>(512, 1.0f)), dst = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dst, 2 * sizeof(float)));
  uint32_t n = 512;
  void* params[] = {&src, &dst, &n};
  // 256 threads need 1024 bytes: allowed. 512 threads need 2048: refused.
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, 2, 1, 1, 256, 1, 1, 1024, nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(dst, 2), std::vector<float>(2, 256.0f));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(function, 1, 1, 1, 512, 1, 1, 2048, nullptr, params, nullptr),
      hipModuleLaunchKernel(AsHip(function), 1, 1, 1, 512, 1, 1, 2048, nullptr, params, nullptr));
  // HIP raises it again, up to the device limit.
  ASSERT_HIP(hipSuccess,
             hipFuncSetAttribute(AsHip(function), hipFuncAttributeMaxDynamicSharedMemorySize,
                                 device_shared));
  ASSERT_HIP(hipSuccess,
             hipFuncGetAttribute(&value, HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                 AsHip(function)));
  EXPECT_EQ(value, device_shared);
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, 1, 1, 1, 512, 1, 1, 2048, nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(dst, 1)[0], 512.0f);
}

TEST_F(FunctionAttributeConformance, SetAttributeRejectsBadValuesAndReadOnlyAttributes) {
  CUmodule module = nullptr;
  CUfunction sum = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  CUfunction reverse = LoadCudaKernel(kReverse64Glsl, "reverse64", &module);
  ASSERT_NE(sum, nullptr);
  ASSERT_NE(reverse, nullptr);
  const int device_shared = DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, device_shared + 1),
      hipFuncSetAttribute(AsHip(sum), hipFuncAttributeMaxDynamicSharedMemorySize,
                          device_shared + 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, -1),
              hipFuncSetAttribute(AsHip(sum), hipFuncAttributeMaxDynamicSharedMemorySize, -1));
  // A kernel without a dynamic shared array has none to size.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuFuncSetAttribute(reverse, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 16),
              hipFuncSetAttribute(AsHip(reverse), hipFuncAttributeMaxDynamicSharedMemorySize, 16));
  // The carveout is a percentage, or -1 for no preference.
  EXPECT_BOTH(CUDA_SUCCESS,
              cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50),
              hipFuncSetAttribute(AsHip(sum), hipFuncAttributePreferredSharedMemoryCarveout, 50));
  EXPECT_BOTH(CUDA_SUCCESS,
              cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1),
              hipFuncSetAttribute(AsHip(sum), hipFuncAttributePreferredSharedMemoryCarveout, -1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101),
              hipFuncSetAttribute(AsHip(sum), hipFuncAttributePreferredSharedMemoryCarveout, 101));
  // Read-only attributes.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 32));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuFuncSetAttribute(sum, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuFuncSetAttribute(nullptr, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0),
              hipFuncSetAttribute(nullptr, hipFuncAttributeMaxDynamicSharedMemorySize, 0));
  // The failed calls left the limit where it was.
  int value = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sum));
  EXPECT_EQ(value, device_shared);
}

}  // namespace
}  // namespace streamhal::conformance
