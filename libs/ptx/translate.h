// PTX text to SPIR-V: the library's entry point (parse, then emit).
#ifndef STREAMHAL_PTX_TRANSLATE_H_
#define STREAMHAL_PTX_TRANSLATE_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace streamhal::ptx {

// One SPIR-V module holding every `.entry` of `text`. An error's message
// starts with "ptx line N:" (the line of the construct at fault); syntax
// errors are InvalidArgument, constructs not translated yet Unimplemented.
absl::StatusOr<std::vector<uint32_t>> TranslatePtx(std::string_view text);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_TRANSLATE_H_
