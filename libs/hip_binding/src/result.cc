#include "result.h"

#include "core/log.h"

namespace streamhal::hip {
namespace {

thread_local hipError_t t_last_error = hipSuccess;
thread_local hipError_t t_last_result = hipSuccess;

}  // namespace

hipError_t ToHipError(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return hipSuccess;
    case ErrorCode::kInvalidValue: return hipErrorInvalidValue;
    case ErrorCode::kOutOfMemory: return hipErrorOutOfMemory;
    case ErrorCode::kNotInitialized: return hipErrorNotInitialized;
    case ErrorCode::kDeinitialized: return hipErrorDeinitialized;
    case ErrorCode::kNoDevice: return hipErrorNoDevice;
    case ErrorCode::kInvalidDevice: return hipErrorInvalidDevice;
    case ErrorCode::kInvalidImage: return hipErrorInvalidImage;
    case ErrorCode::kInvalidContext: return hipErrorInvalidContext;
    case ErrorCode::kContextAlreadyCurrent: return hipErrorContextAlreadyCurrent;
    case ErrorCode::kNoBinaryForGpu: return hipErrorNoBinaryForGpu;
    case ErrorCode::kUnsupportedLimit: return hipErrorUnsupportedLimit;
    case ErrorCode::kContextAlreadyInUse: return hipErrorContextAlreadyInUse;
    case ErrorCode::kPeerAccessUnsupported: return hipErrorPeerAccessUnsupported;
    case ErrorCode::kInvalidPtx: return hipErrorInvalidKernelFile;
    case ErrorCode::kInvalidSource: return hipErrorInvalidSource;
    case ErrorCode::kFileNotFound: return hipErrorFileNotFound;
    case ErrorCode::kInvalidHandle: return hipErrorInvalidHandle;
    case ErrorCode::kIllegalState: return hipErrorIllegalState;
    case ErrorCode::kNotFound: return hipErrorNotFound;
    case ErrorCode::kNotReady: return hipErrorNotReady;
    case ErrorCode::kIllegalAddress: return hipErrorIllegalAddress;
    case ErrorCode::kLaunchOutOfResources: return hipErrorLaunchOutOfResources;
    case ErrorCode::kLaunchFailed: return hipErrorLaunchFailure;
    case ErrorCode::kPeerAccessAlreadyEnabled: return hipErrorPeerAccessAlreadyEnabled;
    case ErrorCode::kPeerAccessNotEnabled: return hipErrorPeerAccessNotEnabled;
    case ErrorCode::kPrimaryContextActive: return hipErrorSetOnActiveProcess;
    case ErrorCode::kContextIsDestroyed: return hipErrorContextIsDestroyed;
    case ErrorCode::kHostMemoryAlreadyRegistered: return hipErrorHostMemoryAlreadyRegistered;
    case ErrorCode::kHostMemoryNotRegistered: return hipErrorHostMemoryNotRegistered;
    case ErrorCode::kCooperativeLaunchTooLarge: return hipErrorCooperativeLaunchTooLarge;
    case ErrorCode::kNotPermitted: return hipErrorNotSupported;
    case ErrorCode::kNotSupported: return hipErrorNotSupported;
    case ErrorCode::kStreamCaptureUnsupported: return hipErrorStreamCaptureUnsupported;
    case ErrorCode::kStreamCaptureInvalidated: return hipErrorStreamCaptureInvalidated;
    case ErrorCode::kStreamCaptureUnmatched: return hipErrorStreamCaptureUnmatched;
    case ErrorCode::kStreamCaptureUnjoined: return hipErrorStreamCaptureUnjoined;
    case ErrorCode::kStreamCaptureIsolation: return hipErrorStreamCaptureIsolation;
    case ErrorCode::kStreamCaptureImplicit: return hipErrorStreamCaptureImplicit;
    case ErrorCode::kCapturedEvent: return hipErrorCapturedEvent;
    case ErrorCode::kStreamCaptureWrongThread: return hipErrorStreamCaptureWrongThread;
    case ErrorCode::kTimeout: return hipErrorUnknown;
    case ErrorCode::kGraphExecUpdateFailure: return hipErrorGraphExecUpdateFailure;
    case ErrorCode::kInvalidMemcpyDirection: return hipErrorInvalidMemcpyDirection;
    case ErrorCode::kInvalidDevicePointer: return hipErrorInvalidDevicePointer;
    case ErrorCode::kInvalidConfiguration: return hipErrorInvalidConfiguration;
    case ErrorCode::kInvalidDeviceFunction: return hipErrorInvalidDeviceFunction;
    case ErrorCode::kInvalidSymbol: return hipErrorInvalidSymbol;
    case ErrorCode::kUnknown:
    case ErrorCode::kCount:
      break;
  }
  return hipErrorUnknown;
}

hipError_t ToHipError(const absl::Status& status) {
  if (status.ok()) {
    t_last_result = hipSuccess;
    return hipSuccess;
  }
  const hipError_t error = ToHipError(ErrorCodeOf(status));
  Log(LogLevel::kInfo, status.message());
  t_last_error = error;
  t_last_result = error;
  return error;
}

hipError_t TakeLastResult() {
  const hipError_t result = t_last_result;
  t_last_result = hipSuccess;
  return result;
}

hipError_t TakeLastError() {
  const hipError_t error = t_last_error;
  t_last_error = hipSuccess;
  return error;
}

hipError_t PeekLastError() { return t_last_error; }

}  // namespace streamhal::hip
