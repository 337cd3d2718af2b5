// Rows: cuGetErrorName/hipGetErrorName, cuGetErrorString/hipGetErrorString,
// hipGetLastError, hipPeekAtLastError.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstring>
#include <thread>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

struct CodePair {
  CUresult cuda;
  const char* cuda_name;
  hipError_t hip;
  const char* hip_name;
};

#define SH_PAIR(cuda, hip) \
  { cuda, #cuda, hip, #hip }

// Every code the bindings map between; the names are the enumerators.
constexpr CodePair kPairs[] = {
    SH_PAIR(CUDA_SUCCESS, hipSuccess),
    SH_PAIR(CUDA_ERROR_INVALID_VALUE, hipErrorInvalidValue),
    SH_PAIR(CUDA_ERROR_OUT_OF_MEMORY, hipErrorOutOfMemory),
    SH_PAIR(CUDA_ERROR_NOT_INITIALIZED, hipErrorNotInitialized),
    SH_PAIR(CUDA_ERROR_DEINITIALIZED, hipErrorDeinitialized),
    SH_PAIR(CUDA_ERROR_NO_DEVICE, hipErrorNoDevice),
    SH_PAIR(CUDA_ERROR_INVALID_DEVICE, hipErrorInvalidDevice),
    SH_PAIR(CUDA_ERROR_INVALID_IMAGE, hipErrorInvalidImage),
    SH_PAIR(CUDA_ERROR_INVALID_CONTEXT, hipErrorInvalidContext),
    SH_PAIR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, hipErrorContextAlreadyCurrent),
    SH_PAIR(CUDA_ERROR_NO_BINARY_FOR_GPU, hipErrorNoBinaryForGpu),
    SH_PAIR(CUDA_ERROR_UNSUPPORTED_LIMIT, hipErrorUnsupportedLimit),
    SH_PAIR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, hipErrorContextAlreadyInUse),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, hipErrorPeerAccessUnsupported),
    SH_PAIR(CUDA_ERROR_INVALID_PTX, hipErrorInvalidKernelFile),
    SH_PAIR(CUDA_ERROR_INVALID_SOURCE, hipErrorInvalidSource),
    SH_PAIR(CUDA_ERROR_FILE_NOT_FOUND, hipErrorFileNotFound),
    SH_PAIR(CUDA_ERROR_INVALID_HANDLE, hipErrorInvalidHandle),
    SH_PAIR(CUDA_ERROR_ILLEGAL_STATE, hipErrorIllegalState),
    SH_PAIR(CUDA_ERROR_NOT_FOUND, hipErrorNotFound),
    SH_PAIR(CUDA_ERROR_NOT_READY, hipErrorNotReady),
    SH_PAIR(CUDA_ERROR_ILLEGAL_ADDRESS, hipErrorIllegalAddress),
    SH_PAIR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, hipErrorLaunchOutOfResources),
    SH_PAIR(CUDA_ERROR_LAUNCH_FAILED, hipErrorLaunchFailure),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, hipErrorPeerAccessAlreadyEnabled),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, hipErrorPeerAccessNotEnabled),
    SH_PAIR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, hipErrorSetOnActiveProcess),
    SH_PAIR(CUDA_ERROR_CONTEXT_IS_DESTROYED, hipErrorContextIsDestroyed),
    SH_PAIR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, hipErrorHostMemoryAlreadyRegistered),
    SH_PAIR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, hipErrorHostMemoryNotRegistered),
    SH_PAIR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, hipErrorCooperativeLaunchTooLarge),
    SH_PAIR(CUDA_ERROR_NOT_SUPPORTED, hipErrorNotSupported),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, hipErrorStreamCaptureUnsupported),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, hipErrorStreamCaptureInvalidated),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, hipErrorStreamCaptureUnmatched),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, hipErrorStreamCaptureUnjoined),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, hipErrorStreamCaptureIsolation),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, hipErrorStreamCaptureImplicit),
    SH_PAIR(CUDA_ERROR_CAPTURED_EVENT, hipErrorCapturedEvent),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, hipErrorStreamCaptureWrongThread),
    SH_PAIR(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, hipErrorGraphExecUpdateFailure),
};

#undef SH_PAIR

// Values that lie in the range of the result enumerations (so converting to
// them is defined) but are no enumerator.
constexpr CUresult kUnknownCudaResult = static_cast<CUresult>(998);
constexpr hipError_t kUnknownHipError = static_cast<hipError_t>(2000);

TEST(ErrorNameConformance, CudaNamesAreTheEnumerators) {
  for (const CodePair& pair : kPairs) {
    const char* name = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGetErrorName(pair.cuda, &name));
    EXPECT_STREQ(name, pair.cuda_name);
  }
}

TEST(ErrorNameConformance, HipNamesAreTheEnumerators) {
  for (const CodePair& pair : kPairs) {
    EXPECT_STREQ(hipGetErrorName(pair.hip), pair.hip_name);
  }
}

TEST(ErrorNameConformance, MappedCodesHaveTheSameNumbersAndMapping) {
  for (const CodePair& pair : kPairs) {
    EXPECT_EQ(static_cast<int>(pair.cuda), static_cast<int>(pair.hip)) << pair.cuda_name;
    EXPECT_EQ(HipEquivalent(pair.cuda), pair.hip) << pair.cuda_name;
  }
}

TEST(ErrorNameConformance, CudaRejectsUnknownCodesAndNull) {
  const char* name = "untouched";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(kUnknownCudaResult, &name));
  EXPECT_EQ(name, nullptr);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorName(CUDA_SUCCESS, nullptr));
}

TEST(ErrorNameConformance, HipNamesUnknownCodesAsUnknown) {
  const char* name = hipGetErrorName(kUnknownHipError);
  ASSERT_NE(name, nullptr);
  EXPECT_STREQ(name, "hipErrorUnknown");
}

TEST(ErrorStringConformance, EveryMappedCodeIsDescribedByBothApis) {
  for (const CodePair& pair : kPairs) {
    const char* cuda_text = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGetErrorString(pair.cuda, &cuda_text));
    ASSERT_NE(cuda_text, nullptr) << pair.cuda_name;
    EXPECT_GT(std::strlen(cuda_text), 0u) << pair.cuda_name;
    const char* hip_text = hipGetErrorString(pair.hip);
    ASSERT_NE(hip_text, nullptr) << pair.hip_name;
    EXPECT_GT(std::strlen(hip_text), 0u) << pair.hip_name;
  }
}

TEST(ErrorStringConformance, CudaRejectsUnknownCodesAndNull) {
  const char* text = "untouched";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(kUnknownCudaResult, &text));
  EXPECT_EQ(text, nullptr);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, nullptr));
}

TEST(ErrorStringConformance, HipDescribesUnknownCodes) {
  const char* text = hipGetErrorString(kUnknownHipError);
  ASSERT_NE(text, nullptr);
  EXPECT_GT(std::strlen(text), 0u);
}

using LastErrorConformance = DriverTest;

TEST_F(LastErrorConformance, GetLastErrorReturnsTheErrorAndClearsIt) {
  EXPECT_HIP(hipSuccess, hipGetLastError());
  hipDevice_t device;
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGet(&device, device_count()));
  EXPECT_HIP(hipErrorInvalidDevice, hipGetLastError());
  EXPECT_HIP(hipSuccess, hipGetLastError());
}

TEST_F(LastErrorConformance, PeekReturnsTheErrorWithoutClearingIt) {
  EXPECT_HIP(hipSuccess, hipPeekAtLastError());
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceGet(nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipPeekAtLastError());
  EXPECT_HIP(hipErrorInvalidValue, hipPeekAtLastError());
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
  EXPECT_HIP(hipSuccess, hipPeekAtLastError());
}

TEST_F(LastErrorConformance, SuccessfulCallsKeepTheLastError) {
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceCount(nullptr));
  int count = 0;
  EXPECT_HIP(hipSuccess, hipGetDeviceCount(&count));
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
}

TEST_F(LastErrorConformance, TheLatestErrorWins) {
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceCount(nullptr));
  hipDevice_t device;
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGet(&device, -1));
  EXPECT_HIP(hipErrorInvalidDevice, hipGetLastError());
}

TEST_F(LastErrorConformance, LastErrorIsPerThread) {
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceCount(nullptr));
  std::thread other([] {
    EXPECT_HIP(hipSuccess, hipPeekAtLastError());
    hipDevice_t device;
    EXPECT_HIP(hipErrorInvalidDevice, hipDeviceGet(&device, -1));
    EXPECT_HIP(hipErrorInvalidDevice, hipGetLastError());
  });
  other.join();
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
}

TEST_F(LastErrorConformance, CudaCallsDoNotSetTheHipLastError) {
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr));
  EXPECT_HIP(hipSuccess, hipGetLastError());
}

TEST(ErrorNameConformance, HipDrvNamesAndStrings) {
  const char* text = nullptr;
  ASSERT_EQ(hipDrvGetErrorName(hipErrorInvalidContext, &text), hipSuccess);
  EXPECT_STREQ(text, "hipErrorInvalidContext");
  ASSERT_EQ(hipDrvGetErrorString(hipErrorInvalidContext, &text), hipSuccess);
  ASSERT_NE(text, nullptr);
  EXPECT_GT(std::strlen(text), 0u);
  EXPECT_EQ(hipDrvGetErrorName(kUnknownHipError, &text), hipErrorInvalidValue);
  EXPECT_EQ(hipDrvGetErrorString(hipSuccess, nullptr), hipErrorInvalidValue);
}

}  // namespace
}  // namespace streamhal::conformance
