// Counters a test harness reads to fail on backend diagnostics, such as the
// messages of the Vulkan validation layer. Backend-neutral: the backend only
// reports text.
#ifndef STREAMHAL_CORE_DIAGNOSTICS_H_
#define STREAMHAL_CORE_DIAGNOSTICS_H_

#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"

namespace streamhal {

// Records one message from a backend's validation machinery and logs it as
// an error.
void RecordValidationMessage(absl::string_view message);
// Number of messages recorded since the process started.
uint64_t ValidationMessageCount();
// The most recent message, or an empty string.
std::string LastValidationMessage();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_DIAGNOSTICS_H_
