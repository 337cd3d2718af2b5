// The part of a module one entry point needs.
//
// A translated PTX module may hold hundreds of kernels (ffmpeg's scale_cuda
// has 320 in 5 MB of SPIR-V). Giving each kernel the whole module makes every
// per-kernel step (the grid-split rewrite, vkCreateShaderModule, the
// validation layer's spirv-val, the driver's SPIR-V parse at pipeline
// creation) cost as much as the module, so loading is quadratic. The module is
// indexed once instead, and each kernel gets a module holding its entry point,
// the functions it calls and the declarations those use.
#ifndef STREAMHAL_VK_BACKEND_ENTRY_POINT_MODULE_H_
#define STREAMHAL_VK_BACKEND_ENTRY_POINT_MODULE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/spirv_reflect.h"

namespace streamhal::vk {

class EntryPointIndex {
 public:
  // Indexes a valid module. `words` must outlive the index.
  static absl::StatusOr<std::unique_ptr<EntryPointIndex>> Create(absl::Span<const uint32_t> words);

  // The module reduced to the GLCompute `entry_point`: its
  // OpEntryPoint and execution modes, the functions it reaches, the
  // declarations and constants those (transitively) use, and the names and
  // decorations of what remains. nullopt when the module is to be used as is:
  // it has a single entry point, or constructs the reduction does not handle
  // (decoration groups, module-scope extended instructions such as debug
  // info, linkage). An unknown name is kInvalidImage.
  absl::StatusOr<std::optional<std::vector<uint32_t>>> Extract(absl::string_view entry_point) const;

  const spirv_detail::ParsedModule& parsed() const { return module_; }

 private:
  explicit EntryPointIndex(spirv_detail::ParsedModule module) : module_(std::move(module)) {}
  absl::Status Build();

  const spirv_detail::ParsedModule module_;
  // Per function, in compressed rows: the functions it references (calls),
  // as function indices, and the module-scope ids it uses.
  std::vector<uint32_t> callee_begin_;
  std::vector<uint32_t> callees_;
  std::vector<uint32_t> global_begin_;
  std::vector<uint32_t> globals_;

  // GLCompute entry point name -> its OpEntryPoint instruction.
  absl::flat_hash_map<std::string, uint32_t> entry_points_;
  size_t entry_point_count_ = 0;  // of any execution model
  // OpDecorateId and OpExecutionModeId: their operands are used when their
  // target is kept.
  std::vector<uint32_t> id_annotations_;
  // Ids that matter without being referenced: BuiltIn WorkgroupSize sets the
  // block size of every entry point.
  std::vector<uint32_t> roots_;
  size_t module_scope_end_ = 0;  // first instruction of the first function
  bool reducible_ = true;
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_ENTRY_POINT_MODULE_H_
