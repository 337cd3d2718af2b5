// Turns VkResult codes into core statuses so backend code can use
// SH_RETURN_IF_ERROR around Vulkan calls.
#ifndef STREAMHAL_VK_BACKEND_VK_STATUS_H_
#define STREAMHAL_VK_BACKEND_VK_STATUS_H_

#include <vulkan/vulkan.h>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "core/status.h"

namespace streamhal::vk {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on; "VkResult(<n>)" for codes this
// build does not know (valid until the calling thread's next unknown code).
const char* VkResultName(VkResult result);

// The core code a failed Vulkan call maps to: out-of-memory results become
// kOutOfMemory (CUDA_ERROR_OUT_OF_MEMORY), a lost device kLaunchFailed (what
// CUDA reports after a kernel fault), VK_TIMEOUT kTimeout, VK_NOT_READY
// kNotReady, a missing feature or extension kNotSupported, anything else
// kUnknown.
ErrorCode ErrorCodeForVkResult(VkResult result);

// OK for VK_SUCCESS and the other non-negative codes except VK_TIMEOUT and
// VK_NOT_READY (VK_INCOMPLETE and friends are handled by the caller), else an
// error naming `what` and the result.
absl::Status VkResultToStatus(VkResult result, absl::string_view what);

}  // namespace streamhal::vk

// Returns from the enclosing function if the Vulkan call `expr` failed.
#define SH_VK_RETURN_IF_ERROR(expr, what) \
  SH_RETURN_IF_ERROR(::streamhal::vk::VkResultToStatus((expr), (what)))

#endif  // STREAMHAL_VK_BACKEND_VK_STATUS_H_
