// Rows: library management (CUDA 12): cuLibraryLoadData/LoadFromFile/Unload,
// cuLibraryGetKernel/GetKernelCount/EnumerateKernels/GetModule/GetGlobal/
// GetManaged/GetUnifiedFunction, cuKernelGetFunction/GetAttribute/
// SetAttribute/SetCacheConfig/GetName/GetLibrary/GetParamInfo and
// cuModuleGetLoadingMode. A library belongs to no context: its kernels run in
// every context they are used in, with results checked.
#include <cuda.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using LibraryConformance = ContextTest;

// Sets an environment variable for the scope, restoring the old value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

CUlibrary LoadLibrary(const void* code) {
  CUlibrary library = nullptr;
  EXPECT_CU(CUDA_SUCCESS,
            cuLibraryLoadData(&library, code, nullptr, nullptr, 0, nullptr, nullptr, 0));
  return library;
}

// An ELF image with vector_add and scale_offset, in that order.
std::vector<uint8_t> TwoKernelImage() {
  return ElfImage({CompileToSpirv(kVectorAddGlsl, "vector_add"),
                   CompileToSpirv(kScaleOffsetGlsl, "scale_offset")});
}

// Runs scale_offset through `f` (a CUfunction or a CUkernel cast to one) on
// 256 floats 0, 1, ... and checks data[i] = i * 2 + 1.
void ExpectScaleOffset(CUfunction f) {
  constexpr uint32_t kCount = 256;
  CUdeviceptr data = CudaUpload(Iota(kCount));
  float scale = 2.0f;
  float offset = 1.0f;
  uint32_t n = kCount;
  void* params[] = {&data, &scale, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, kCount / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> values = CudaDownload<float>(data, kCount);
  for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(values[i], i * 2.0f + 1.0f) << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(LibraryConformance, KernelsOfALibraryRunThroughTheirFunctionAndAsKernels) {
  CUlibrary library = LoadLibrary(kVectorAddGlsl);
  ASSERT_NE(library, nullptr);
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "vector_add"));
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&function, kernel));
  ExpectCudaVectorAdd(function, 1000);
  // The same function every time in one context.
  CUfunction again = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&again, kernel));
  EXPECT_EQ(again, function);
  // cuLaunchKernel takes a CUkernel where it takes a CUfunction.
  ExpectCudaVectorAdd(reinterpret_cast<CUfunction>(kernel), 777);
  // cuLibraryGetModule gives the module holding that function.
  CUmodule module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetModule(&module, library));
  CUfunction from_module = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuModuleGetFunction(&from_module, module, "vector_add"));
  EXPECT_EQ(from_module, function);
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, KernelsAreCountedEnumeratedAndDescribed) {
  const std::vector<uint8_t> image = TwoKernelImage();
  CUlibrary library = LoadLibrary(image.data());
  ASSERT_NE(library, nullptr);
  unsigned count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernelCount(&count, library));
  ASSERT_EQ(count, 2u);
  CUkernel kernels[3] = {};
  ASSERT_CU(CUDA_SUCCESS, cuLibraryEnumerateKernels(kernels, 3, library));
  EXPECT_EQ(kernels[2], nullptr);  // only `count` are written
  const char* names[2] = {};
  for (int i = 0; i < 2; ++i) {
    ASSERT_CU(CUDA_SUCCESS, cuKernelGetName(&names[i], kernels[i]));
    CUlibrary owner = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuKernelGetLibrary(&owner, kernels[i]));
    EXPECT_EQ(owner, library);
  }
  EXPECT_STREQ(names[0], "vector_add");
  EXPECT_STREQ(names[1], "scale_offset");
  CUkernel one = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryEnumerateKernels(&one, 1, library));
  EXPECT_EQ(one, kernels[0]);
  // scale_offset(float* data, float scale, float offset, uint n).
  const size_t expected_offsets[] = {0, 8, 12, 16};
  const size_t expected_sizes[] = {8, 4, 4, 4};
  for (size_t i = 0; i < 4; ++i) {
    size_t offset = 99;
    size_t size = 99;
    ASSERT_CU(CUDA_SUCCESS, cuKernelGetParamInfo(kernels[1], i, &offset, &size));
    EXPECT_EQ(offset, expected_offsets[i]) << i;
    EXPECT_EQ(size, expected_sizes[i]) << i;
  }
  size_t offset = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(kernels[1], 4, &offset, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(kernels[1], 0, nullptr, nullptr));
  ExpectScaleOffset(reinterpret_cast<CUfunction>(kernels[1]));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, ALibraryLoadedWithoutAContextRunsInEveryContext) {
  CUcontext first = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&first));
  const std::vector<uint8_t> image = TwoKernelImage();
  CUlibrary library = LoadLibrary(image.data());  // no context is current
  ASSERT_NE(library, nullptr);
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "scale_offset"));
  CUfunction function = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuKernelGetFunction(&function, kernel));
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuLibraryGetModule(&module, library));

  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(first));
  CUfunction in_first = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&in_first, kernel));
  ExpectScaleOffset(in_first);

  CUdevice device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
  CUcontext second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&second, 0, device));  // now current
  CUfunction in_second = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&in_second, kernel));
  EXPECT_NE(in_second, in_first);
  ExpectScaleOffset(reinterpret_cast<CUfunction>(kernel));
  // The library outlives a context it was loaded into.
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(second));
  ASSERT_EQ(CudaCurrent(), first);
  ExpectScaleOffset(in_first);
  CUcontext third = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&third, 0, device));
  ExpectScaleOffset(reinterpret_cast<CUfunction>(kernel));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(third));

  // Unloading ends the library's kernels, functions and modules.
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetModule(&module, library));
  ASSERT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&function, kernel));
  const char* name = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&name, kernel));
  int value = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, in_first));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunction(&function, module, "scale_offset"));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(library));
  // The context goes on working.
  CUfunction fresh = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ExpectScaleOffset(fresh);
}

TEST_F(LibraryConformance, GlobalsOfALibraryAreThoseOfItsModuleInTheCurrentContext) {
  CUlibrary library = LoadLibrary(kGlobalsGlsl);
  ASSERT_NE(library, nullptr);
  CUdeviceptr table = 0;
  size_t bytes = 0;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetGlobal(&table, &bytes, library, "table"));
  ASSERT_EQ(bytes, kGlobalsTableSize * sizeof(float));
  const std::vector<float> values = Iota(kGlobalsTableSize, 0.5f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(table, values.data(), bytes));
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "scaled_table"));
  CUdeviceptr out = CudaUpload(std::vector<float>(kGlobalsTableSize, 0.0f));
  float factor = 3.0f;
  void* params[] = {&out, &factor};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1, 1,
                                         kGlobalsTableSize, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> result = CudaDownload<float>(out, kGlobalsTableSize);
  for (int i = 0; i < kGlobalsTableSize; ++i) EXPECT_EQ(result[i], values[i] * factor) << i;
  // Both outputs are optional, as for cuModuleGetGlobal.
  EXPECT_CU(CUDA_SUCCESS, cuLibraryGetGlobal(nullptr, &bytes, library, "counter"));
  EXPECT_EQ(bytes, sizeof(uint32_t));
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetGlobal(&table, &bytes, library, "missing"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetGlobal(&table, &bytes, library, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, KernelAttributesApplyToEveryContextOfTheDevice) {
  CUlibrary library = LoadLibrary(kBlockSumGlsl);
  ASSERT_NE(library, nullptr);
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "block_sum"));
  CUdevice device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
  int max_threads = 0;
  ASSERT_CU(
      CUDA_SUCCESS,
      cuKernelGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel, device));
  EXPECT_EQ(max_threads, DeviceAttribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  ASSERT_CU(CUDA_SUCCESS, cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                               2048, kernel, device));
  int dynamic = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuKernelGetAttribute(&dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, kernel,
                                 device));
  EXPECT_EQ(dynamic, 2048);
  // A context created later sees the setting too.
  CUcontext other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&other, 0, device));
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&function, kernel));
  dynamic = 0;
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetAttribute(
                              &dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function));
  EXPECT_EQ(dynamic, 2048);
  // A value the device cannot hold is refused and changes nothing.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1 << 30, kernel,
                                 device));
  ASSERT_CU(CUDA_SUCCESS, cuFuncGetAttribute(
                              &dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, function));
  EXPECT_EQ(dynamic, 2048);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 1, kernel, device));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuKernelGetAttribute(&dynamic, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel, 9999));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelGetAttribute(nullptr, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel, device));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(other));

  EXPECT_CU(CUDA_SUCCESS, cuKernelSetCacheConfig(kernel, CU_FUNC_CACHE_PREFER_SHARED, device));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuKernelSetCacheConfig(kernel, static_cast<CUfunc_cache>(17), device));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuKernelSetCacheConfig(kernel, CU_FUNC_CACHE_PREFER_NONE, 9999));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, LoadingModeFollowsCudaModuleLoading) {
  CUmoduleLoadingMode mode = static_cast<CUmoduleLoadingMode>(0);
  {
    ScopedEnv env("CUDA_MODULE_LOADING", nullptr);
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetLoadingMode(&mode));
    EXPECT_EQ(mode, CU_MODULE_LAZY_LOADING);
  }
  {
    ScopedEnv env("CUDA_MODULE_LOADING", "eager");
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetLoadingMode(&mode));
    EXPECT_EQ(mode, CU_MODULE_EAGER_LOADING);
    // Eager or lazy, what a program sees is the same.
    CUlibrary library = LoadLibrary(kScaleOffsetGlsl);
    ASSERT_NE(library, nullptr);
    CUkernel kernel = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "scale_offset"));
    ExpectScaleOffset(reinterpret_cast<CUfunction>(kernel));
    EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
    CUlibrary broken = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_PTX,
              cuLibraryLoadData(&broken, kBrokenGlsl, nullptr, nullptr, 0, nullptr, nullptr, 0));
  }
  {
    ScopedEnv env("CUDA_MODULE_LOADING", "LAZY");
    ASSERT_CU(CUDA_SUCCESS, cuModuleGetLoadingMode(&mode));
    EXPECT_EQ(mode, CU_MODULE_LAZY_LOADING);
  }
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuModuleGetLoadingMode(nullptr));
}

TEST_F(LibraryConformance, LibrariesLoadFromFilesWithJitLogs) {
  const std::string path = WriteTempFile("library_kernel.comp", std::string(kScaleOffsetGlsl));
  CUlibrary library = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryLoadFromFile(&library, path.c_str(), nullptr, nullptr, 0,
                                                nullptr, nullptr, 0));
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "scale_offset"));
  ExpectScaleOffset(reinterpret_cast<CUfunction>(kernel));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));

  // A compile error fills the caller's error log.
  char log[1024] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<uintptr_t>(sizeof(log)))};
  EXPECT_CU(CUDA_ERROR_INVALID_PTX,
            cuLibraryLoadData(&library, kBrokenGlsl, options, values, 2, nullptr, nullptr, 0));
  EXPECT_GT(std::strlen(log), 0u);

  CUlibraryOption preserved = CU_LIBRARY_BINARY_IS_PRESERVED;
  void* one = reinterpret_cast<void*>(static_cast<uintptr_t>(1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryLoadFromFile(&library, path.c_str(), nullptr,
                                                            nullptr, 0, &preserved, &one, 1));
  // The hint is accepted for in-memory code.
  ASSERT_CU(CUDA_SUCCESS, cuLibraryLoadData(&library, kScaleOffsetGlsl, nullptr, nullptr, 0,
                                            &preserved, &one, 1));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
  EXPECT_CU(CUDA_ERROR_FILE_NOT_FOUND,
            cuLibraryLoadFromFile(&library, "/nonexistent/kernel.spv", nullptr, nullptr, 0, nullptr,
                                  nullptr, 0));
}

TEST_F(LibraryConformance, BadArgumentsAreRefusedAndLoseNothing) {
  CUlibrary library = LoadLibrary(kVectorAddGlsl);
  ASSERT_NE(library, nullptr);
  CUlibrary other = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(nullptr, kVectorAddGlsl, nullptr, nullptr, 0, nullptr, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(&other, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUlibraryOption unknown = static_cast<CUlibraryOption>(7);
  void* value = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(&other, kVectorAddGlsl, nullptr, nullptr, 0, &unknown, &value, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLibraryLoadData(&other, kVectorAddGlsl, nullptr, nullptr, 0, nullptr, nullptr, 1));
  const uint8_t garbage[] = {0x7f, 'E', 'L', 'F', 0, 0, 0, 0};
  EXPECT_CU(CUDA_ERROR_INVALID_IMAGE,
            cuLibraryLoadData(&other, garbage, nullptr, nullptr, 0, nullptr, nullptr, 0));

  CUkernel kernel = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&kernel, library, "missing"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(nullptr, library, "vector_add"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(&kernel, library, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernel(&kernel, nullptr, "vector_add"));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLibraryGetKernel(&kernel, reinterpret_cast<CUlibrary>(context()), "vector_add"));
  unsigned count = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernelCount(nullptr, library));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernelCount(&count, nullptr));
  CUkernel kernels[1] = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryEnumerateKernels(kernels, 0, library));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryEnumerateKernels(nullptr, 1, library));
  CUmodule module = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetModule(nullptr, library));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetModule(&module, nullptr));

  CUfunction function = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&function, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuKernelGetFunction(&function, reinterpret_cast<CUkernel>(library)));
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "vector_add"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetFunction(nullptr, kernel));
  const char* name = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetName(nullptr, kernel));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuKernelGetLibrary(nullptr, kernel));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&name, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(nullptr));

  // Nothing was lost: the library still runs.
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&function, kernel));
  ExpectCudaVectorAdd(function, 300);
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, ManagedVariablesAndUnifiedFunctionsAreNeverFound) {
  // Kernel images (SPIR-V, GLSL, PTX) hold neither __managed__ variables nor
  // unified host-and-device functions, so every name is CUDA_ERROR_NOT_FOUND.
  ProvesLimitation();
  CUlibrary library = LoadLibrary(kGlobalsGlsl);
  ASSERT_NE(library, nullptr);
  CUdeviceptr pointer = 0;
  size_t bytes = 0;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuLibraryGetManaged(&pointer, &bytes, library, "table"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetManaged(&pointer, &bytes, library, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetManaged(&pointer, &bytes, nullptr, "table"));
  void* host_function = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuLibraryGetUnifiedFunction(&host_function, library, "scaled_table"));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLibraryGetUnifiedFunction(nullptr, library, "f"));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetUnifiedFunction(&host_function, nullptr, "f"));
  // The real global of that name is there.
  EXPECT_CU(CUDA_SUCCESS, cuLibraryGetGlobal(&pointer, &bytes, library, "table"));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, KernelAttributesNeedAContextOfTheDevice) {
  // The per-device kernel calls work through the current context when it is
  // on that device, else the device's active primary context; with neither
  // they are CUDA_ERROR_INVALID_CONTEXT (CUDA needs no context).
  ProvesLimitation();
  CUlibrary library = LoadLibrary(kVectorAddGlsl);
  ASSERT_NE(library, nullptr);
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "vector_add"));
  CUdevice device = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&device));
  CUcontext current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&current));
  int value = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT,
            cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel, device));
  EXPECT_CU(
      CUDA_ERROR_INVALID_CONTEXT,
      cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, kernel, device));
  // With the primary context active (not current) they work.
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, device));
  EXPECT_CU(CUDA_SUCCESS,
            cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, kernel, device));
  EXPECT_GT(value, 0);
  EXPECT_CU(CUDA_SUCCESS, cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                               50, kernel, device));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(device));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(current));
  EXPECT_CU(CUDA_SUCCESS, cuLibraryUnload(library));
}

TEST_F(LibraryConformance, LibrariesThatOutliveTheDriverAreReleasedByDeinit) {
  // A library left loaded is released with the driver (cuHALDeinit in the
  // fixture's TearDown), and its handles are then invalid.
  CUlibrary library = LoadLibrary(kVectorAddGlsl);
  ASSERT_NE(library, nullptr);
  CUkernel kernel = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuLibraryGetKernel(&kernel, library, "vector_add"));
  CUfunction function = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuKernelGetFunction(&function, kernel));
  ASSERT_CU(CUDA_SUCCESS, cuHALDeinit());
  ASSERT_CU(CUDA_SUCCESS, cuInit(0));
  const char* name = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&name, kernel));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(library));
}

}  // namespace
}  // namespace streamhal::conformance
