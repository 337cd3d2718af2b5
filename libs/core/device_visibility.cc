#include "core/device_visibility.h"

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace streamhal {

std::string DeviceUuidString(const std::array<uint8_t, 16>& uuid) {
  std::string out = "GPU-";
  for (size_t i = 0; i < uuid.size(); ++i) {
    absl::StrAppendFormat(&out, "%02x", uuid[i]);
    if (i == 3 || i == 5 || i == 7 || i == 9) out += '-';
  }
  return out;
}

namespace {

// The device an entry names, or -1.
int Resolve(absl::string_view entry, absl::Span<const std::array<uint8_t, 16>> uuids) {
  entry = absl::StripAsciiWhitespace(entry);
  if (entry.empty()) return -1;
  if (absl::StartsWithIgnoreCase(entry, "GPU-")) {
    const std::string prefix = absl::AsciiStrToLower(entry);
    int found = -1;
    for (size_t i = 0; i < uuids.size(); ++i) {
      if (!absl::StartsWith(absl::AsciiStrToLower(DeviceUuidString(uuids[i])), prefix)) continue;
      if (found >= 0) return -1;  // ambiguous
      found = static_cast<int>(i);
    }
    return found;
  }
  // Ordinals are plain decimal numbers; "+1", "1x" and "-1" name nothing.
  if (!absl::ascii_isdigit(static_cast<unsigned char>(entry.front()))) return -1;
  int ordinal = -1;
  if (!absl::SimpleAtoi(entry, &ordinal)) return -1;
  if (ordinal < 0 || ordinal >= static_cast<int>(uuids.size())) return -1;
  return ordinal;
}

}  // namespace

std::vector<int> VisibleDevices(absl::string_view spec,
                                absl::Span<const std::array<uint8_t, 16>> uuids) {
  std::vector<int> visible;
  for (absl::string_view entry : absl::StrSplit(spec, ',')) {
    const int device = Resolve(entry, uuids);
    if (device < 0) break;
    bool listed = false;
    for (int seen : visible) listed = listed || seen == device;
    if (listed) break;
    visible.push_back(device);
  }
  return visible;
}

std::optional<VisibilitySetting> VisibilityFromEnvironment() {
  for (const char* variable : {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"}) {
    if (const char* spec = std::getenv(variable)) return VisibilitySetting{variable, spec};
  }
  return std::nullopt;
}

}  // namespace streamhal
