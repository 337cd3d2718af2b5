// Which devices a process sees: CUDA_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES
// as NVIDIA and AMD document them. One device list serves both APIs (a
// CUcontext is a hipCtx_t), so one setting decides; HIP_VISIBLE_DEVICES wins
// when both are set, as in AMD's runtime.
#ifndef STREAMHAL_CORE_DEVICE_VISIBILITY_H_
#define STREAMHAL_CORE_DEVICE_VISIBILITY_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace streamhal {

// The canonical text form of a device UUID: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
// (lower-case hex), the form nvidia-smi prints and the variables accept.
std::string DeviceUuidString(const std::array<uint8_t, 16>& uuid);

// The devices `spec` makes visible, as indices into `uuids` (the devices in
// enumeration order), in the order the spec names them. Entries are
// separated by commas; each is a decimal ordinal or a prefix of a device's
// UUID string starting with "GPU-" (case-insensitive). The first entry that
// names no device, names one already listed, or matches several UUIDs ends
// the list: it and everything after it are ignored (so "-1" hides all).
std::vector<int> VisibleDevices(absl::string_view spec,
                                absl::Span<const std::array<uint8_t, 16>> uuids);

// The visibility setting in the environment, and its variable's name, or
// nothing when neither variable is set (all devices visible).
struct VisibilitySetting {
  std::string variable;
  std::string spec;
};
std::optional<VisibilitySetting> VisibilityFromEnvironment();

}  // namespace streamhal

#endif  // STREAMHAL_CORE_DEVICE_VISIBILITY_H_
