#include "core/spirv_link.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status.h"
#include "spirv-tools/libspirv.hpp"
#include "spirv-tools/linker.hpp"

namespace streamhal {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kOpExtension = 10;
constexpr uint32_t kOpExtInstImport = 11;
constexpr uint32_t kCapabilityLinkage = 5;

}  // namespace

bool DeclaresLinkage(absl::Span<const uint32_t> module) {
  if (module.size() < kHeaderWords || module[0] != kSpirvMagic) return false;
  // Capabilities come first in a module, then extensions and imports.
  for (size_t i = kHeaderWords; i < module.size();) {
    const uint32_t opcode = module[i] & 0xffff;
    const uint32_t words = module[i] >> 16;
    if (words == 0 || words > module.size() - i) return false;
    if (opcode == kOpCapability) {
      if (words >= 2 && module[i + 1] == kCapabilityLinkage) return true;
    } else if (opcode != kOpExtension && opcode != kOpExtInstImport) {
      return false;
    }
    i += words;
  }
  return false;
}

absl::StatusOr<std::vector<uint32_t>> LinkSpirvModules(
    const std::vector<std::vector<uint32_t>>& modules) {
  // The environment the kernels are compiled and validated for (Vulkan 1.2,
  // as glslang targets): the linker keeps the newest SPIR-V version.
  spvtools::Context context(SPV_ENV_VULKAN_1_2);
  std::vector<std::string> messages;
  context.SetMessageConsumer([&messages](spv_message_level_t level, const char*,
                                         const spv_position_t&, const char* message) {
    if (level <= SPV_MSG_ERROR) messages.push_back(message);
  });
  spvtools::LinkerOptions options;
  options.SetCreateLibrary(false);  // every import must resolve
  options.SetVerifyIds(true);
  std::vector<uint32_t> linked;
  const spv_result_t result = spvtools::Link(context, modules, &linked, options);
  if (result != SPV_SUCCESS || linked.empty()) {
    return Error(ErrorCode::kInvalidImage, "SPIR-V link failed: ",
                 messages.empty() ? absl::StrCat("error ", static_cast<int>(result))
                                  : absl::StrJoin(messages, "; "));
  }
  return linked;
}

}  // namespace streamhal
