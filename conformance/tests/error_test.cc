// Rows: cuGetErrorName/hipGetErrorName, cuGetErrorString/hipGetErrorString,
// hipGetLastError, hipPeekAtLastError.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <thread>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

struct CodePair {
  CUresult cuda;
  const char* cuda_name;
  hipError_t hip;
  const char* hip_name;
  const char* cuda_text;  // what NVIDIA's cuGetErrorString returns
  const char* hip_text;   // what AMD's hipGetErrorString returns
};

#define SH_PAIR(cuda, hip, cuda_text, hip_text) \
  { cuda, #cuda, hip, #hip, cuda_text, hip_text }

// Every code the bindings map between; the names are the enumerators, the
// texts each vendor's, character for character.
constexpr CodePair kPairs[] = {
    SH_PAIR(CUDA_SUCCESS, hipSuccess, "no error", "no error"),
    SH_PAIR(CUDA_ERROR_INVALID_VALUE, hipErrorInvalidValue, "invalid argument", "invalid argument"),
    SH_PAIR(CUDA_ERROR_OUT_OF_MEMORY, hipErrorOutOfMemory, "out of memory", "out of memory"),
    SH_PAIR(CUDA_ERROR_NOT_INITIALIZED, hipErrorNotInitialized, "initialization error",
            "initialization error"),
    SH_PAIR(CUDA_ERROR_DEINITIALIZED, hipErrorDeinitialized, "driver shutting down",
            "driver shutting down"),
    SH_PAIR(CUDA_ERROR_NO_DEVICE, hipErrorNoDevice, "no CUDA-capable device is detected",
            "no ROCm-capable device is detected"),
    SH_PAIR(CUDA_ERROR_INVALID_DEVICE, hipErrorInvalidDevice, "invalid device ordinal",
            "invalid device ordinal"),
    SH_PAIR(CUDA_ERROR_INVALID_IMAGE, hipErrorInvalidImage, "device kernel image is invalid",
            "device kernel image is invalid"),
    SH_PAIR(CUDA_ERROR_INVALID_CONTEXT, hipErrorInvalidContext, "invalid device context",
            "invalid device context"),
    SH_PAIR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, hipErrorContextAlreadyCurrent,
            "context already current", "context is already current context"),
    SH_PAIR(CUDA_ERROR_NO_BINARY_FOR_GPU, hipErrorNoBinaryForGpu,
            "no kernel image is available for execution on the device",
            "no kernel image is available for execution on the device"),
    SH_PAIR(CUDA_ERROR_UNSUPPORTED_LIMIT, hipErrorUnsupportedLimit,
            "limit is not supported on this architecture",
            "limit is not supported on this architecture"),
    SH_PAIR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, hipErrorContextAlreadyInUse,
            "exclusive-thread device already in use by a different thread",
            "exclusive-thread device already in use by a different thread"),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, hipErrorPeerAccessUnsupported,
            "peer access is not supported between these two devices",
            "peer access is not supported between these two devices"),
    SH_PAIR(CUDA_ERROR_INVALID_PTX, hipErrorInvalidKernelFile, "a PTX JIT compilation failed",
            "invalid kernel file"),
    SH_PAIR(CUDA_ERROR_INVALID_SOURCE, hipErrorInvalidSource, "device kernel image is invalid",
            "device kernel image is invalid"),
    SH_PAIR(CUDA_ERROR_FILE_NOT_FOUND, hipErrorFileNotFound, "file not found", "file not found"),
    SH_PAIR(CUDA_ERROR_INVALID_HANDLE, hipErrorInvalidHandle, "invalid resource handle",
            "invalid resource handle"),
    SH_PAIR(CUDA_ERROR_ILLEGAL_STATE, hipErrorIllegalState,
            "the operation cannot be performed in the present state",
            "the operation cannot be performed in the present state"),
    SH_PAIR(CUDA_ERROR_NOT_FOUND, hipErrorNotFound, "named symbol not found",
            "named symbol not found"),
    SH_PAIR(CUDA_ERROR_NOT_READY, hipErrorNotReady, "device not ready", "device not ready"),
    SH_PAIR(CUDA_ERROR_ILLEGAL_ADDRESS, hipErrorIllegalAddress,
            "an illegal memory access was encountered", "an illegal memory access was encountered"),
    SH_PAIR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, hipErrorLaunchOutOfResources,
            "too many resources requested for launch", "too many resources requested for launch"),
    SH_PAIR(CUDA_ERROR_LAUNCH_FAILED, hipErrorLaunchFailure, "unspecified launch failure",
            "unspecified launch failure"),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, hipErrorPeerAccessAlreadyEnabled,
            "peer access is already enabled", "peer access is already enabled"),
    SH_PAIR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, hipErrorPeerAccessNotEnabled,
            "peer access has not been enabled", "peer access has not been enabled"),
    SH_PAIR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, hipErrorSetOnActiveProcess,
            "cannot set while device is active in this process",
            "cannot set while device is active in this process"),
    SH_PAIR(CUDA_ERROR_CONTEXT_IS_DESTROYED, hipErrorContextIsDestroyed, "context is destroyed",
            "context is destroyed"),
    SH_PAIR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, hipErrorHostMemoryAlreadyRegistered,
            "part or all of the requested memory range is already mapped",
            "part or all of the requested memory range is already mapped"),
    SH_PAIR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, hipErrorHostMemoryNotRegistered,
            "pointer does not correspond to a registered memory region",
            "pointer does not correspond to a registered memory region"),
    SH_PAIR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, hipErrorCooperativeLaunchTooLarge,
            "too many blocks in cooperative launch", "too many blocks in cooperative launch"),
    SH_PAIR(CUDA_ERROR_NOT_SUPPORTED, hipErrorNotSupported, "operation not supported",
            "operation not supported"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, hipErrorStreamCaptureUnsupported,
            "operation not permitted when stream is capturing",
            "operation not permitted when stream is capturing"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, hipErrorStreamCaptureInvalidated,
            "operation failed due to a previous error during capture",
            "operation failed due to a previous error during capture"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, hipErrorStreamCaptureUnmatched,
            "capture was not ended in the same stream as it began",
            "capture was not ended in the same stream as it began"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, hipErrorStreamCaptureUnjoined,
            "capturing stream has unjoined work", "capturing stream has unjoined work"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, hipErrorStreamCaptureIsolation,
            "dependency created on uncaptured work in another stream",
            "dependency created on uncaptured work in another stream"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, hipErrorStreamCaptureImplicit,
            "operation would make the legacy stream depend on a capturing blocking stream",
            "operation would make the legacy stream depend on a capturing blocking stream"),
    SH_PAIR(CUDA_ERROR_CAPTURED_EVENT, hipErrorCapturedEvent,
            "operation not permitted on an event last recorded in a capturing stream",
            "operation not permitted on an event last recorded in a capturing stream"),
    SH_PAIR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, hipErrorStreamCaptureWrongThread,
            "attempt to terminate a thread-local capture sequence from another thread",
            "attempt to terminate a thread-local capture sequence from another thread"),
    SH_PAIR(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, hipErrorGraphExecUpdateFailure,
            "the graph update was not performed because it included changes which violated "
            "constraints specific to instantiated graph update",
            "the graph update was not performed because it included changes which violated "
            "constraints specific to instantiated graph update"),
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
    EXPECT_STREQ(cuda_text, pair.cuda_text) << pair.cuda_name;
    EXPECT_STREQ(hipGetErrorString(pair.hip), pair.hip_text) << pair.hip_name;
    const char* hip_text = nullptr;
    EXPECT_HIP(hipSuccess, hipDrvGetErrorString(pair.hip, &hip_text));
    EXPECT_STREQ(hip_text, pair.hip_text) << pair.hip_name;
  }
}

TEST(ErrorStringConformance, CudaRejectsUnknownCodesAndNull) {
  const char* text = "untouched";
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(kUnknownCudaResult, &text));
  EXPECT_EQ(text, nullptr);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetErrorString(CUDA_ERROR_INVALID_VALUE, nullptr));
}

TEST(ErrorStringConformance, HipDescribesUnknownCodes) {
  EXPECT_STREQ(hipGetErrorString(kUnknownHipError), "unknown error");
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
  EXPECT_STREQ(text, "invalid device context");
  // An unknown code: AMD's fixed answers are stored, the call fails.
  EXPECT_EQ(hipDrvGetErrorName(kUnknownHipError, &text), hipErrorInvalidValue);
  EXPECT_STREQ(text, "hipErrorUnknown");
  EXPECT_EQ(hipDrvGetErrorString(kUnknownHipError, &text), hipErrorInvalidValue);
  EXPECT_STREQ(text, "unknown error");
  EXPECT_EQ(hipDrvGetErrorString(hipSuccess, nullptr), hipErrorInvalidValue);
}

}  // namespace
}  // namespace streamhal::conformance
