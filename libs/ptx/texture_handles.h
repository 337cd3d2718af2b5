// Which kernel parameters a texture handle can be (kernel ABI v2 binds the
// texture objects a kernel takes as parameters: parameter i at set 2,
// binding i). nvcc and clang pass a cudaTextureObject_t as a 64-bit kernel
// parameter; a `tex` instruction then names a register that holds it,
// loaded with ld.param, perhaps moved, chosen with selp between two
// parameters (ffmpeg's yadif picks the previous or next frame), or passed
// to a `.func` as a `.param` argument. This traces a register back through
// those to the set of kernel parameters it may hold.
#ifndef STREAMHAL_PTX_TEXTURE_HANDLES_H_
#define STREAMHAL_PTX_TEXTURE_HANDLES_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ptx/ir.h"

namespace streamhal::ptx {

class TextureHandles {
 public:
  // Traces the `.param` arguments of every call in `module` so that a
  // `.func` parameter knows which kernel parameters flow into it.
  explicit TextureHandles(const Module& module);

  // The kernel parameters (their indices) that `reg` of `f` may hold at a
  // texture instruction; empty when some definition is none of the forms
  // above (the handle is computed, loaded from memory, ...).
  std::set<uint32_t> Of(const Function& f, const std::string& reg) const;

 private:
  std::set<uint32_t> Trace(const Function& f, const std::string& reg, int depth,
                           bool* traced) const;

  // Per function: the instructions that write each register, and the
  // 64-bit st.param stores to each call-site `.param` buffer.
  std::map<const Function*, std::map<std::string, std::vector<const Instruction*>>> defs_;
  std::map<const Function*, std::map<std::string, std::vector<const Instruction*>>> stores_;
  // (function, parameter index): the kernel parameters its callers pass.
  std::map<std::pair<const Function*, size_t>, std::set<uint32_t>> func_params_;
};

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_TEXTURE_HANDLES_H_
