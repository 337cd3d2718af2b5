#include "vk_backend/vk_status.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace streamhal::vk {

const char* VkResultName(VkResult result) {
  switch (result) {
#define SH_VK_RESULT_CASE(name) \
  case name:                    \
    return #name;
    SH_VK_RESULT_CASE(VK_SUCCESS)
    SH_VK_RESULT_CASE(VK_NOT_READY)
    SH_VK_RESULT_CASE(VK_TIMEOUT)
    SH_VK_RESULT_CASE(VK_EVENT_SET)
    SH_VK_RESULT_CASE(VK_EVENT_RESET)
    SH_VK_RESULT_CASE(VK_INCOMPLETE)
    SH_VK_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    SH_VK_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    SH_VK_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    SH_VK_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    SH_VK_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    SH_VK_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    SH_VK_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    SH_VK_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    SH_VK_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    SH_VK_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    SH_VK_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    SH_VK_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    SH_VK_RESULT_CASE(VK_ERROR_UNKNOWN)
    SH_VK_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    SH_VK_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    SH_VK_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    SH_VK_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    SH_VK_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    SH_VK_RESULT_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef SH_VK_RESULT_CASE
    default:
      break;
  }
  // Unknown codes are rare; a leaked-per-call string would be worse than a
  // small thread-local buffer.
  thread_local std::string unknown;
  unknown = absl::StrCat("VkResult(", static_cast<int>(result), ")");
  return unknown.c_str();
}

ErrorCode ErrorCodeForVkResult(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
    case VK_EVENT_SET:
    case VK_EVENT_RESET:
    case VK_INCOMPLETE:
      return ErrorCode::kOk;
    case VK_NOT_READY:
      return ErrorCode::kNotReady;
    case VK_TIMEOUT:
      return ErrorCode::kTimeout;
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
    case VK_ERROR_FRAGMENTED_POOL:
    case VK_ERROR_FRAGMENTATION:
    case VK_ERROR_TOO_MANY_OBJECTS:
    case VK_ERROR_MEMORY_MAP_FAILED:
      return ErrorCode::kOutOfMemory;
    case VK_ERROR_DEVICE_LOST:
      return ErrorCode::kLaunchFailed;
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return ErrorCode::kNotSupported;
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return ErrorCode::kNoDevice;
    case VK_ERROR_INVALID_EXTERNAL_HANDLE:
      return ErrorCode::kInvalidValue;
    default:
      return result >= 0 ? ErrorCode::kOk : ErrorCode::kUnknown;
  }
}

absl::Status VkResultToStatus(VkResult result, absl::string_view what) {
  const ErrorCode code = ErrorCodeForVkResult(result);
  if (code == ErrorCode::kOk) return absl::OkStatus();
  return Error(code, what, " failed: ", VkResultName(result));
}

}  // namespace streamhal::vk
