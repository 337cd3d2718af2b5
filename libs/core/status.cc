#include "core/status.h"

#include "absl/types/optional.h"
#include <string>

#include "absl/strings/cord.h"

namespace streamhal {
namespace {

constexpr absl::string_view kPayloadUrl = "streamhal.dev/error-code";

constexpr absl::string_view kNames[] = {
    "kOk",
    "kInvalidValue",
    "kOutOfMemory",
    "kNotInitialized",
    "kDeinitialized",
    "kNoDevice",
    "kInvalidDevice",
    "kInvalidImage",
    "kInvalidContext",
    "kContextAlreadyCurrent",
    "kNoBinaryForGpu",
    "kUnsupportedLimit",
    "kContextAlreadyInUse",
    "kPeerAccessUnsupported",
    "kInvalidPtx",
    "kInvalidSource",
    "kFileNotFound",
    "kInvalidHandle",
    "kIllegalState",
    "kNotFound",
    "kNotReady",
    "kIllegalAddress",
    "kLaunchOutOfResources",
    "kLaunchFailed",
    "kPeerAccessAlreadyEnabled",
    "kPeerAccessNotEnabled",
    "kPrimaryContextActive",
    "kContextIsDestroyed",
    "kHostMemoryAlreadyRegistered",
    "kHostMemoryNotRegistered",
    "kCooperativeLaunchTooLarge",
    "kNotPermitted",
    "kNotSupported",
    "kStreamCaptureUnsupported",
    "kStreamCaptureInvalidated",
    "kStreamCaptureUnmatched",
    "kStreamCaptureUnjoined",
    "kStreamCaptureIsolation",
    "kStreamCaptureImplicit",
    "kCapturedEvent",
    "kStreamCaptureWrongThread",
    "kTimeout",
    "kGraphExecUpdateFailure",
    "kInvalidMemcpyDirection",
    "kInvalidDevicePointer",
    "kInvalidConfiguration",
    "kInvalidDeviceFunction",
    "kInvalidSymbol",
    "kUnknown",
};
static_assert(std::size(kNames) == static_cast<size_t>(ErrorCode::kCount),
              "every ErrorCode needs a name");

// Each code gets the canonical absl code closest to it so that generic
// tooling prints something sensible; the precise code rides in a payload.
absl::StatusCode CanonicalFor(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidValue:
    case ErrorCode::kInvalidDevice:
    case ErrorCode::kInvalidConfiguration:
    case ErrorCode::kInvalidDeviceFunction:
    case ErrorCode::kInvalidMemcpyDirection:
    case ErrorCode::kInvalidDevicePointer:
      return absl::StatusCode::kInvalidArgument;
    case ErrorCode::kOutOfMemory:
    case ErrorCode::kLaunchOutOfResources:
      return absl::StatusCode::kResourceExhausted;
    case ErrorCode::kNotInitialized:
    case ErrorCode::kDeinitialized:
    case ErrorCode::kIllegalState:
      return absl::StatusCode::kFailedPrecondition;
    case ErrorCode::kNotFound:
    case ErrorCode::kInvalidSymbol:
    case ErrorCode::kFileNotFound:
    case ErrorCode::kNoDevice:
      return absl::StatusCode::kNotFound;
    case ErrorCode::kNotReady:
      return absl::StatusCode::kUnavailable;
    case ErrorCode::kNotSupported:
    case ErrorCode::kStreamCaptureUnsupported:
      return absl::StatusCode::kUnimplemented;
    case ErrorCode::kTimeout:
      return absl::StatusCode::kDeadlineExceeded;
    default:
      return absl::StatusCode::kInternal;
  }
}

}  // namespace

absl::string_view ErrorCodeName(ErrorCode code) {
  const auto index = static_cast<size_t>(code);
  if (index >= std::size(kNames)) return "kUnknown";
  return kNames[index];
}

absl::Status MakeError(ErrorCode code, absl::string_view message) {
  if (code == ErrorCode::kOk) return absl::OkStatus();
  absl::Status status(CanonicalFor(code), message);
  status.SetPayload(kPayloadUrl, absl::Cord(std::to_string(static_cast<int>(code))));
  return status;
}

ErrorCode ErrorCodeOf(const absl::Status& status) {
  if (status.ok()) return ErrorCode::kOk;
  absl::optional<absl::Cord> payload = status.GetPayload(kPayloadUrl);
  if (!payload.has_value()) return ErrorCode::kUnknown;
  const std::string text(*payload);
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return ErrorCode::kUnknown;
    value = value * 10 + (c - '0');
  }
  if (value <= 0 || value >= static_cast<int>(ErrorCode::kCount)) return ErrorCode::kUnknown;
  return static_cast<ErrorCode>(value);
}

}  // namespace streamhal
