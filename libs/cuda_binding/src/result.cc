#include "result.h"

#include "core/log.h"

namespace streamhal::cuda {

CUresult ToCUresult(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return CUDA_SUCCESS;
    case ErrorCode::kInvalidValue: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::kOutOfMemory: return CUDA_ERROR_OUT_OF_MEMORY;
    case ErrorCode::kNotInitialized: return CUDA_ERROR_NOT_INITIALIZED;
    case ErrorCode::kDeinitialized: return CUDA_ERROR_DEINITIALIZED;
    case ErrorCode::kNoDevice: return CUDA_ERROR_NO_DEVICE;
    case ErrorCode::kInvalidDevice: return CUDA_ERROR_INVALID_DEVICE;
    case ErrorCode::kInvalidImage: return CUDA_ERROR_INVALID_IMAGE;
    case ErrorCode::kInvalidContext: return CUDA_ERROR_INVALID_CONTEXT;
    case ErrorCode::kContextAlreadyCurrent: return CUDA_ERROR_CONTEXT_ALREADY_CURRENT;
    case ErrorCode::kNoBinaryForGpu: return CUDA_ERROR_NO_BINARY_FOR_GPU;
    case ErrorCode::kUnsupportedLimit: return CUDA_ERROR_UNSUPPORTED_LIMIT;
    case ErrorCode::kContextAlreadyInUse: return CUDA_ERROR_CONTEXT_ALREADY_IN_USE;
    case ErrorCode::kPeerAccessUnsupported: return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
    case ErrorCode::kInvalidPtx: return CUDA_ERROR_INVALID_PTX;
    case ErrorCode::kInvalidSource: return CUDA_ERROR_INVALID_SOURCE;
    case ErrorCode::kFileNotFound: return CUDA_ERROR_FILE_NOT_FOUND;
    case ErrorCode::kInvalidHandle: return CUDA_ERROR_INVALID_HANDLE;
    case ErrorCode::kIllegalState: return CUDA_ERROR_ILLEGAL_STATE;
    case ErrorCode::kNotFound: return CUDA_ERROR_NOT_FOUND;
    case ErrorCode::kNotReady: return CUDA_ERROR_NOT_READY;
    case ErrorCode::kIllegalAddress: return CUDA_ERROR_ILLEGAL_ADDRESS;
    case ErrorCode::kLaunchOutOfResources: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case ErrorCode::kLaunchFailed: return CUDA_ERROR_LAUNCH_FAILED;
    case ErrorCode::kPeerAccessAlreadyEnabled: return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    case ErrorCode::kPeerAccessNotEnabled: return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
    case ErrorCode::kPrimaryContextActive: return CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
    case ErrorCode::kContextIsDestroyed: return CUDA_ERROR_CONTEXT_IS_DESTROYED;
    case ErrorCode::kHostMemoryAlreadyRegistered: return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
    case ErrorCode::kHostMemoryNotRegistered: return CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
    case ErrorCode::kCooperativeLaunchTooLarge: return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    case ErrorCode::kNotPermitted: return CUDA_ERROR_NOT_PERMITTED;
    case ErrorCode::kNotSupported: return CUDA_ERROR_NOT_SUPPORTED;
    case ErrorCode::kStreamCaptureUnsupported: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    case ErrorCode::kStreamCaptureInvalidated: return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
    case ErrorCode::kStreamCaptureUnmatched: return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
    case ErrorCode::kStreamCaptureUnjoined: return CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
    case ErrorCode::kStreamCaptureIsolation: return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
    case ErrorCode::kStreamCaptureImplicit: return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
    case ErrorCode::kCapturedEvent: return CUDA_ERROR_CAPTURED_EVENT;
    case ErrorCode::kStreamCaptureWrongThread: return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
    case ErrorCode::kTimeout: return CUDA_ERROR_TIMEOUT;
    case ErrorCode::kGraphExecUpdateFailure: return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
    // CUDA has no dedicated codes for these three; the driver API reports
    // them as invalid values.
    case ErrorCode::kInvalidMemcpyDirection: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::kInvalidDevicePointer: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::kInvalidConfiguration: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::kInvalidDeviceFunction: return CUDA_ERROR_INVALID_VALUE;
    case ErrorCode::kInvalidSymbol: return CUDA_ERROR_NOT_FOUND;
    case ErrorCode::kUnknown:
    case ErrorCode::kCount:
      break;
  }
  return CUDA_ERROR_UNKNOWN;
}

CUresult ErrorToCUresult(const absl::Status& status) {
  if (status.ok()) return CUDA_SUCCESS;
  const CUresult result = ToCUresult(ErrorCodeOf(status));
  Log(LogLevel::kInfo, status.message());
  return result;
}

}  // namespace streamhal::cuda
