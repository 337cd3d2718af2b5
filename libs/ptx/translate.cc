#include "ptx/translate.h"

#include "ptx/parser.h"
#include "ptx/spirv_emitter.h"

namespace streamhal::ptx {

absl::StatusOr<std::vector<uint32_t>> TranslatePtx(std::string_view text) {
  absl::StatusOr<Module> module = Parse(text);
  if (!module.ok()) return module.status();
  return EmitSpirv(*module);
}

}  // namespace streamhal::ptx
