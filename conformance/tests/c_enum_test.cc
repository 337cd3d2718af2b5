// Rows: every entry point with an enum parameter, called as a C program
// calls it (c_callers.h): a number outside the enum is a clean error code,
// never undefined behaviour inside the binding (an UndefinedBehaviorSanitizer
// build aborts on a binding that reads such an argument as the enum type).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <climits>
#include <cstring>
#include <vector>

#include "c_callers.h"
#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using CEnumConformance = ContextTest;

// Numbers no enum of either API gives its parameter.
constexpr int kOutside[] = {-1, 99, 12345, INT_MAX, INT_MIN};

TEST_F(CEnumConformance, FunctionAttributesOutsideTheEnumAreInvalidValue) {
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  const auto hip_function = reinterpret_cast<hipFunction_t>(function);
  for (const int attribute : kOutside) {
    SCOPED_TRACE(attribute);
    int value = 7;
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuFuncGetAttribute(&value, attribute, function),
                CCallHipFuncGetAttribute(&value, attribute, hip_function));
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuFuncSetAttribute(function, attribute, 0),
                CCallHipFuncSetAttribute(hip_function, attribute, 0));
    EXPECT_EQ(value, 7);
  }
}

TEST_F(CEnumConformance, DeviceAttributesOutsideTheEnumAreInvalidValue) {
  // Both enums are sparse and large (HIP's reaches into the 10000s), so the
  // numbers here lie beyond either.
  for (const int attribute : {-1, 25000, INT_MAX, INT_MIN}) {
    SCOPED_TRACE(attribute);
    int value = 7;
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuDeviceGetAttribute(&value, attribute, 0),
                CCallHipDeviceGetAttribute(&value, attribute, 0));
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuDeviceGetP2PAttribute(&value, attribute, 0, 0),
                CCallHipDeviceGetP2PAttribute(&value, attribute, 0, 0));
    EXPECT_EQ(value, 7);
  }
}

TEST_F(CEnumConformance, LimitsOutsideTheEnumAreUnsupportedLimit) {
  for (const int limit : kOutside) {
    SCOPED_TRACE(limit);
    size_t value = 7;
    EXPECT_BOTH(CUDA_ERROR_UNSUPPORTED_LIMIT, CCallCuCtxGetLimit(&value, limit),
                CCallHipDeviceGetLimit(&value, limit));
    EXPECT_BOTH(CUDA_ERROR_UNSUPPORTED_LIMIT, CCallCuCtxSetLimit(limit, 0),
                CCallHipDeviceSetLimit(limit, 0));
    EXPECT_EQ(value, 7u);
  }
}

TEST_F(CEnumConformance, CacheAndSharedMemoryConfigsOutsideTheEnumAreInvalidValue) {
  for (const int config : kOutside) {
    SCOPED_TRACE(config);
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuCtxSetCacheConfig(config),
                CCallHipCtxSetCacheConfig(config));
    EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, CCallCuCtxSetSharedMemConfig(config),
                CCallHipCtxSetSharedMemConfig(config));
  }
}

TEST_F(CEnumConformance, ErrorCodesOutsideTheEnumHaveNoName) {
  for (const int error : kOutside) {
    SCOPED_TRACE(error);
    const char* text = "untouched";
    // CUDA: an unrecognised code is CUDA_ERROR_INVALID_VALUE, with *pStr
    // set to NULL.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, CCallCuGetErrorName(error, &text));
    EXPECT_EQ(text, nullptr);
    text = "untouched";
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, CCallCuGetErrorString(error, &text));
    EXPECT_EQ(text, nullptr);
    // HIP names any unknown code hipErrorUnknown and describes it as
    // "unknown error"; the driver-style pair stores the same and reports
    // hipErrorInvalidValue.
    EXPECT_STREQ(CCallHipGetErrorName(error), "hipErrorUnknown");
    EXPECT_STREQ(CCallHipGetErrorString(error), "unknown error");
    EXPECT_HIP(hipErrorInvalidValue, CCallHipDrvGetErrorName(error, &text));
    EXPECT_STREQ(text, "hipErrorUnknown");
    EXPECT_HIP(hipErrorInvalidValue, CCallHipDrvGetErrorString(error, &text));
    EXPECT_STREQ(text, "unknown error");
  }
}

TEST_F(CEnumConformance, MemcpyKindsOutsideTheEnumAreInvalidMemcpyDirection) {
  void* device = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&device, 64));
  std::vector<char> host(64, 'x');
  for (const int kind : kOutside) {
    SCOPED_TRACE(kind);
    EXPECT_HIP(hipErrorInvalidMemcpyDirection, CCallHipMemcpy(device, host.data(), 16, kind));
    EXPECT_HIP(hipErrorInvalidMemcpyDirection,
               CCallHipMemcpyAsync(device, host.data(), 16, kind, nullptr));
    EXPECT_HIP(hipErrorInvalidMemcpyDirection,
               CCallHipMemcpyWithStream(device, host.data(), 16, kind, nullptr));
  }
  EXPECT_HIP(hipSuccess, hipFree(device));
}

}  // namespace
}  // namespace streamhal::conformance
