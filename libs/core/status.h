// Core error model: every core function returns absl::Status or
// absl::StatusOr<T> carrying an ErrorCode precise enough for each binding to
// pick its exact CUresult / hipError_t.
#ifndef STREAMHAL_CORE_STATUS_H_
#define STREAMHAL_CORE_STATUS_H_

#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"

namespace streamhal {

// Backend-neutral error codes. The bindings map each one to their own enum
// (libs/cuda_binding/src/result.cc, libs/hip_binding/src/result.cc).
enum class ErrorCode : int {
  kOk = 0,
  kInvalidValue,
  kOutOfMemory,
  kNotInitialized,
  kDeinitialized,
  kNoDevice,
  kInvalidDevice,
  kInvalidImage,
  kInvalidContext,
  kContextAlreadyCurrent,
  kNoBinaryForGpu,
  kUnsupportedLimit,
  kContextAlreadyInUse,
  kPeerAccessUnsupported,
  kInvalidPtx,  // kernel source failed to compile (GLSL JIT)
  kInvalidSource,
  kFileNotFound,
  kInvalidHandle,
  kIllegalState,
  kNotFound,
  kNotReady,
  kIllegalAddress,
  kLaunchOutOfResources,
  kLaunchFailed,
  kPeerAccessAlreadyEnabled,
  kPeerAccessNotEnabled,
  kPrimaryContextActive,
  kContextIsDestroyed,
  kHostMemoryAlreadyRegistered,
  kHostMemoryNotRegistered,
  kCooperativeLaunchTooLarge,
  kNotPermitted,
  kNotSupported,
  kStreamCaptureUnsupported,
  kStreamCaptureInvalidated,
  kStreamCaptureUnmatched,
  kStreamCaptureUnjoined,
  kStreamCaptureIsolation,
  kStreamCaptureImplicit,
  kCapturedEvent,
  kStreamCaptureWrongThread,
  kTimeout,
  kGraphExecUpdateFailure,
  kInvalidMemcpyDirection,  // HIP only; CUDA maps it to invalid value
  kInvalidDevicePointer,    // HIP only; CUDA maps it to invalid value
  kInvalidConfiguration,    // launch configuration; CUDA: invalid value
  kInvalidDeviceFunction,   // HIP only: not a registered kernel; CUDA: invalid value
  kInvalidSymbol,           // HIP only: not a registered variable; CUDA: not found
  kUnknown,
  kCount,  // number of codes; keep last
};

// Returns a short stable name ("kInvalidValue") for logs and tests.
absl::string_view ErrorCodeName(ErrorCode code);

// Builds a non-OK status carrying `code`. The message says what was wrong
// with which argument.
absl::Status MakeError(ErrorCode code, absl::string_view message);

// Formats a host pointer for messages: Ptr(p) prints as 0x7f....
inline std::string Ptr(const void* pointer) {
  return absl::StrCat("0x", absl::Hex(reinterpret_cast<uintptr_t>(pointer)));
}

template <typename... Args>
absl::Status Error(ErrorCode code, const Args&... args) {
  return MakeError(code, absl::StrCat(args...));
}

// Extracts the core code from a status. OK gives kOk; a status that did not
// come from MakeError gives kUnknown.
ErrorCode ErrorCodeOf(const absl::Status& status);

}  // namespace streamhal

#define SH_STATUS_CONCAT_INNER_(a, b) a##b
#define SH_STATUS_CONCAT_(a, b) SH_STATUS_CONCAT_INNER_(a, b)

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define SH_RETURN_IF_ERROR(expr)                  \
  do {                                            \
    ::absl::Status sh_status_ = (expr);           \
    if (!sh_status_.ok()) return sh_status_;      \
  } while (0)

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status,
// otherwise assigns the value to `lhs` (which may be a declaration).
#define SH_ASSIGN_OR_RETURN(lhs, rexpr) \
  SH_ASSIGN_OR_RETURN_IMPL_(SH_STATUS_CONCAT_(sh_statusor_, __LINE__), lhs, rexpr)
#define SH_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                              \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

#endif  // STREAMHAL_CORE_STATUS_H_
