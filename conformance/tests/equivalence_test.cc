// Cross-API equivalence: the same scenario through cu* and hip* gives the
// same results and mapped error codes, and objects made through one API
// (memory, page-locked memory, modules, functions) work through the other,
// because both bindings name the same core objects.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using EquivalenceConformance = ContextTest;

hipModule_t AsHip(CUmodule module) { return reinterpret_cast<hipModule_t>(module); }
CUmodule AsCuda(hipModule_t module) { return reinterpret_cast<CUmodule>(module); }
hipFunction_t AsHip(CUfunction function) { return reinterpret_cast<hipFunction_t>(function); }
CUfunction AsCuda(hipFunction_t function) { return reinterpret_cast<CUfunction>(function); }

constexpr uint32_t kN = 5000;

// vector_add on the same inputs, entirely through CUDA.
std::vector<float> CudaProgram(const std::vector<float>& a, const std::vector<float>& b) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  if (function == nullptr) return {};
  CUdeviceptr da = 0, db = 0, dc = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&da, kN * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&db, kN * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&dc, kN * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(da, a.data(), kN * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(db, b.data(), kN * sizeof(float)));
  uint32_t n = kN;
  void* params[] = {&da, &db, &dc, &n};
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (kN + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr,
                                         params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  std::vector<float> c(kN);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(c.data(), dc, kN * sizeof(float)));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(da));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(db));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dc));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  return c;
}

// The same program written against HIP.
std::vector<float> HipProgram(const std::vector<float>& a, const std::vector<float>& b) {
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kVectorAddGlsl, "vector_add", &module);
  if (function == nullptr) return {};
  void* da = nullptr;
  void* db = nullptr;
  void* dc = nullptr;
  EXPECT_HIP(hipSuccess, hipMalloc(&da, kN * sizeof(float)));
  EXPECT_HIP(hipSuccess, hipMalloc(&db, kN * sizeof(float)));
  EXPECT_HIP(hipSuccess, hipMalloc(&dc, kN * sizeof(float)));
  EXPECT_HIP(hipSuccess, hipMemcpy(da, a.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  EXPECT_HIP(hipSuccess, hipMemcpy(db, b.data(), kN * sizeof(float), hipMemcpyHostToDevice));
  uint32_t n = kN;
  void* params[] = {&da, &db, &dc, &n};
  EXPECT_HIP(hipSuccess, hipModuleLaunchKernel(function, (kN + 255) / 256, 1, 1, 256, 1, 1, 0,
                                               nullptr, params, nullptr));
  EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
  std::vector<float> c(kN);
  EXPECT_HIP(hipSuccess, hipMemcpy(c.data(), dc, kN * sizeof(float), hipMemcpyDeviceToHost));
  EXPECT_HIP(hipSuccess, hipFree(da));
  EXPECT_HIP(hipSuccess, hipFree(db));
  EXPECT_HIP(hipSuccess, hipFree(dc));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  return c;
}

TEST_F(EquivalenceConformance, TheSameProgramGivesTheSameResultsThroughBothApis) {
  std::vector<float> a(kN), b(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i) * 0.37f - 11.0f;
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  const std::vector<float> cuda_result = CudaProgram(a, b);
  const std::vector<float> hip_result = HipProgram(a, b);
  ASSERT_EQ(cuda_result.size(), kN);
  ASSERT_EQ(hip_result.size(), kN);
  // Bit for bit.
  EXPECT_EQ(std::memcmp(cuda_result.data(), hip_result.data(), kN * sizeof(float)), 0);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(cuda_result[i], a[i] + b[i]) << i;
}

TEST_F(EquivalenceConformance, CudaMemoryWorksWithHipCopiesAndLaunches) {
  CUdeviceptr a = 0, c = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&a, kN * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&c, kN * sizeof(float)));
  std::vector<float> values = Iota(kN, 0.5f);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(AsHipPointer(a), values.data(), kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemsetD32(AsHipPointer(c), 0, kN));
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  // c = a + a, launched through HIP on CUDA allocations.
  void* pa = AsHipPointer(a);
  void* pc = AsHipPointer(c);
  uint32_t n = kN;
  void* params[] = {&pa, &pa, &pc, &n};
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, (kN + 127) / 128, 1, 1, 128, 1, 1, 0,
                                               nullptr, params, nullptr));
  const std::vector<float> result = CudaDownload<float>(c, kN);
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(result[i], values[i] * 2.0f) << i;
  // hipMemGetAddressRange and hipFree know the CUDA allocation.
  hipDeviceptr_t base = nullptr;
  size_t size = 0;
  ASSERT_HIP(hipSuccess, hipMemGetAddressRange(&base, &size, AsHipPointer(a + 40)));
  EXPECT_EQ(base, AsHipPointer(a));
  EXPECT_EQ(size, kN * sizeof(float));
  ASSERT_HIP(hipSuccess, hipFree(AsHipPointer(a)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(a));
}

TEST_F(EquivalenceConformance, HipMemoryWorksWithCudaCopiesAndLaunches) {
  void* a = nullptr;
  void* c = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMalloc(&c, kN * sizeof(float)));
  const std::vector<float> values = Iota(kN, 3.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(AsCudaPointer(a), values.data(), kN * sizeof(float)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(AsCudaPointer(c), 0, kN));
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  CUdeviceptr pa = AsCudaPointer(a), pc = AsCudaPointer(c);
  uint32_t n = kN;
  void* params[] = {&pa, &pa, &pc, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (kN + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr,
                                         params, nullptr));
  std::vector<float> result(kN);
  ASSERT_HIP(hipSuccess, hipMemcpy(result.data(), c, kN * sizeof(float), hipMemcpyDeviceToHost));
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(result[i], values[i] * 2.0f) << i;
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(AsCudaPointer(c)));
  EXPECT_HIP(hipErrorInvalidValue, hipFree(c));
}

TEST_F(EquivalenceConformance, PageLockedMemoryIsSharedByBothApis) {
  void* cuda_pinned = nullptr;
  void* hip_pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostAlloc(&cuda_pinned, 256, CU_MEMHOSTALLOC_DEVICEMAP));
  ASSERT_HIP(hipSuccess, hipHostMalloc(&hip_pinned, 256, hipHostMallocMapped));
  unsigned flags = 0;
  ASSERT_HIP(hipSuccess, hipHostGetFlags(&flags, cuda_pinned));
  EXPECT_EQ(flags, unsigned{hipHostMallocMapped});
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetFlags(&flags, hip_pinned));
  EXPECT_EQ(flags & CU_MEMHOSTALLOC_DEVICEMAP, unsigned{CU_MEMHOSTALLOC_DEVICEMAP});
  CUdeviceptr cuda_device = 0;
  void* hip_device = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&cuda_device, hip_pinned, 0));
  ASSERT_HIP(hipSuccess, hipHostGetDevicePointer(&hip_device, hip_pinned, 0));
  EXPECT_EQ(AsHipPointer(cuda_device), hip_device);
  // Freed through the other API.
  EXPECT_HIP(hipSuccess, hipHostFree(cuda_pinned));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(hip_pinned));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(cuda_pinned), hipHostFree(hip_pinned));
}

TEST_F(EquivalenceConformance, ModuleLoadedThroughCudaLaunchesThroughHip) {
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&module, kVectorAddGlsl));
  hipFunction_t hip_function = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&hip_function, AsHip(module), "vector_add"));
  CUfunction cuda_function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, module, "vector_add"));
  EXPECT_EQ(AsCuda(hip_function), cuda_function);
  ExpectHipVectorAdd(hip_function, 2049);
  // And a HIP module through CUDA.
  hipModule_t hip_module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&hip_module, kVectorAddGlsl));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, AsCuda(hip_module), "vector_add"));
  ExpectCudaVectorAdd(cuda_function, 2050);
  // Unloaded through the other API, gone for both.
  ASSERT_HIP(hipSuccess, hipModuleUnload(AsHip(module)));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(AsCuda(hip_module)));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&cuda_function, module, "vector_add"),
              hipModuleGetFunction(&hip_function, hip_module, "vector_add"));
}

TEST_F(EquivalenceConformance, GlobalsWrittenThroughOneApiAreReadByKernelsOfTheOther) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kGlobalsGlsl, "scaled_table", &module);
  ASSERT_NE(function, nullptr);
  hipDeviceptr_t table = nullptr;
  size_t bytes = 0;
  ASSERT_HIP(hipSuccess, hipModuleGetGlobal(&table, &bytes, AsHip(module), "table"));
  std::vector<float> values = Iota(kGlobalsTableSize, 2.0f);
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(table, values.data(), bytes));
  CUdeviceptr out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&out, bytes));
  float factor = -1.0f;
  void* params[] = {&out, &factor};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 16, 1, 1, 0, nullptr, params, nullptr));
  const std::vector<float> result = CudaDownload<float>(out, kGlobalsTableSize);
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(result[i], -values[i]) << i;
}

TEST_F(EquivalenceConformance, FunctionAttributesAreTheSameThroughBothApis) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kBlockSumGlsl, "block_sum", &module);
  ASSERT_NE(function, nullptr);
  for (int attribute = 0; attribute < HIP_FUNC_ATTRIBUTE_MAX; ++attribute) {
    int cuda_value = -1, hip_value = -2;
    EXPECT_BOTH(
        CUDA_SUCCESS,
        cuFuncGetAttribute(&cuda_value, static_cast<CUfunction_attribute>(attribute), function),
        hipFuncGetAttribute(&hip_value, static_cast<hipFunction_attribute>(attribute),
                            AsHip(function)));
    EXPECT_EQ(cuda_value, hip_value) << "attribute " << attribute;
  }
  // A limit set through one API is seen by the other.
  ASSERT_CU(CUDA_SUCCESS,
            cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 4096));
  hipFuncAttributes attributes{};
  ASSERT_HIP(hipSuccess, hipFuncGetAttributes(&attributes, AsHip(function)));
  EXPECT_EQ(attributes.maxDynamicSharedSizeBytes, 4096);
}

// Each bad call through CUDA and its HIP twin: the mapped codes.
TEST_F(EquivalenceConformance, ErrorsMapOneToOne) {
  CUdeviceptr device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&device, 64));
  void* hip_device = AsHipPointer(device);
  CUdeviceptr cuda_out = 0;
  void* hip_out = nullptr;
  std::vector<uint8_t> host(128);
  size_t size = 0;

  // Memory.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(nullptr, 64), hipMalloc(nullptr, 64));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemFree(device + 4), hipFree(AsHipPointer(device + 4)));
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&cuda_out, &size, device + 64),
              hipMemGetAddressRange(&hip_out, &size, AsHipPointer(device + 64)));
  EXPECT_BOTH(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&cuda_out, ~size_t{0} >> 1),
              hipMalloc(&hip_out, ~size_t{0} >> 1));
  // Copies and fills.
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(device, host.data(), 65),
              hipMemcpyHtoD(hip_device, host.data(), 65));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(host.data(), device + 1, 64),
              hipMemcpy(host.data(), AsHipPointer(device + 1), 64, hipMemcpyDeviceToHost));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(device + 2, 0, 1),
              hipMemsetD32(AsHipPointer(device + 2), 0, 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuMemsetD8Async(device, 0, 1, reinterpret_cast<CUstream>(0x4444000)),
              hipMemsetAsync(hip_device, 0, 1, reinterpret_cast<hipStream_t>(0x4444000)));
  // Modules.
  CUmodule cuda_module = nullptr;
  hipModule_t hip_module = nullptr;
  const std::string missing = testing::TempDir() + "streamhal_missing_module.fatbin";
  EXPECT_BOTH(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&cuda_module, missing.c_str()),
              hipModuleLoad(&hip_module, missing.c_str()));
  const std::vector<uint8_t> garbage(64, 0xff);
  EXPECT_BOTH(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&cuda_module, garbage.data()),
              hipModuleLoadData(&hip_module, garbage.data()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&cuda_module, kBrokenGlsl),
              hipModuleLoadData(&hip_module, kBrokenGlsl));
  const std::vector<uint8_t> other_gpu = FatBinaryWithoutSpirv();
  EXPECT_BOTH(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadData(&cuda_module, other_gpu.data()),
              hipModuleLoadData(&hip_module, other_gpu.data()));
  ASSERT_CU(CUDA_SUCCESS, cuModuleLoadData(&cuda_module, kBlockSumGlsl));
  CUfunction cuda_function = nullptr;
  hipFunction_t hip_function = nullptr;
  EXPECT_BOTH(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&cuda_function, cuda_module, "nope"),
              hipModuleGetFunction(&hip_function, AsHip(cuda_module), "nope"));
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&cuda_function, cuda_module, "block_sum"));
  // Launches.
  CUdeviceptr dst = device;
  uint32_t n = 16;
  void* params[] = {&device, &dst, &n};
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE,
              cuLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
              hipModuleLaunchKernel(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_VALUE,
      cuLaunchKernel(cuda_function, 0, 1, 1, 16, 1, 1, 64, nullptr, params, nullptr),
      hipModuleLaunchKernel(AsHip(cuda_function), 0, 1, 1, 16, 1, 1, 64, nullptr, params, nullptr));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuLaunchKernel(cuda_function, 1, 1, 1, 16, 1, 1, 1u << 30, nullptr, params, nullptr),
              hipModuleLaunchKernel(AsHip(cuda_function), 1, 1, 1, 16, 1, 1, 1u << 30, nullptr,
                                    params, nullptr));
  int value = 0;
  // An attribute outside the enum, passed as C passes it (c_callers.h).
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuFuncGetAttribute(&value, 99, cuda_function),
              CCallHipFuncGetAttribute(&value, 99, AsHip(cuda_function)));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(cuda_module));
  EXPECT_BOTH(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(cuda_module),
              hipModuleUnload(AsHip(cuda_module)));
}

}  // namespace
}  // namespace streamhal::conformance
