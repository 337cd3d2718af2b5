// Joins SPIR-V modules that declare the Linkage capability (as the JIT
// linker's compiled inputs may), with SPIRV-Tools' linker: a function or
// variable decorated LinkageAttributes "<name>" Import in one module binds to
// the one decorated "<name>" Export in another, as the SPIR-V specification's
// linkage rules say. The result is an executable module: every import
// resolved, the linkage decorations and the Linkage capability removed
// (Vulkan does not allow them), so it loads as any other module.
#ifndef STREAMHAL_CORE_SPIRV_LINK_H_
#define STREAMHAL_CORE_SPIRV_LINK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace streamhal {

// True when the module declares OpCapability Linkage. Reads only the
// module's preamble; a malformed stream is false.
bool DeclaresLinkage(absl::Span<const uint32_t> module);

// Links the modules into one. An import nothing exports, a symbol two
// modules export, or mismatched types are ErrorCode::kInvalidImage, with
// SPIRV-Tools' message.
absl::StatusOr<std::vector<uint32_t>> LinkSpirvModules(
    const std::vector<std::vector<uint32_t>>& modules);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_SPIRV_LINK_H_
