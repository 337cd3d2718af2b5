// Rows: cuFuncIsLoaded and cuFuncLoad (CUDA 12.4's lazy-loading queries).
// A CUfunction exists only inside a loaded module (a library's kernels
// become functions when their module is loaded into a context), so every
// function is loaded, and loading one changes nothing: it still launches.
#include <cuda.h>

#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using FunctionLoadingConformance = ContextTest;

TEST_F(FunctionLoadingConformance, FunctionsAreLoadedAndLaunchAfterALoad) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  ASSERT_CU(CUDA_SUCCESS, cuFuncIsLoaded(&state, function));
  EXPECT_EQ(state, CU_FUNCTION_LOADING_STATE_LOADED);
  ASSERT_CU(CUDA_SUCCESS, cuFuncLoad(function));
  ASSERT_CU(CUDA_SUCCESS, cuFuncIsLoaded(&state, function));
  EXPECT_EQ(state, CU_FUNCTION_LOADING_STATE_LOADED);
  CUdeviceptr data = CudaUpload(std::vector<float>(32, 1.0f));
  float scale = 2.0f, offset = 0.0f;
  unsigned n = 32;
  void* params[] = {&data, &scale, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_EQ(CudaDownload<float>(data, 32), std::vector<float>(32, 2.0f));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(FunctionLoadingConformance, BadFunctionsAndOutputsAreRejected) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(function, nullptr);
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuFuncIsLoaded(nullptr, function));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncIsLoaded(&state, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad(nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad(reinterpret_cast<CUfunction>(context())));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncIsLoaded(&state, function));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad(function));
}

}  // namespace
}  // namespace streamhal::conformance
