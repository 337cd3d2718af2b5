// Grids larger than one dispatch (kernel ABI v1: CUDA-sized grids work).
//
// Vulkan limits each dispatch to maxComputeWorkGroupCount groups per
// dimension (often 65535), and vkCmdDispatchBase does not lift the limit:
// base + count must stay within it too. A larger launch is therefore recorded
// as several plain dispatches, and the kernel learns where each piece lies
// from "grid info" that the launcher pushes after the kernel's parameters:
//
//   uint group_base[3];   // first block of this piece
//   uint grid_groups[3];  // blocks of the whole launch
//   uint thread_base[3];  // group_base * block size (32-bit wrap, like CUDA)
//
// The rewrite below makes every read of gl_WorkGroupID add group_base, every
// read of gl_GlobalInvocationID add thread_base, and every read of
// gl_NumWorkGroups return grid_groups: blockIdx, global ids and gridDim are
// those of the whole launch, as in CUDA. It redirects the built-in variables
// to Private copies that the entry point fills first thing.
#ifndef STREAMHAL_VK_BACKEND_GRID_SPLIT_H_
#define STREAMHAL_VK_BACKEND_GRID_SPLIT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/spirv_reflect.h"

namespace streamhal::vk {

inline constexpr uint32_t kGridInfoWords = 9;
inline constexpr uint32_t kGridInfoBytes = kGridInfoWords * 4;

struct GridSplitRewrite {
  // The kernel reads its position in the grid (gl_WorkGroupID,
  // gl_GlobalInvocationID or gl_NumWorkGroups). When false, the pieces of a
  // split launch need nothing: the kernel cannot tell them apart.
  bool reads_position = false;
  // The rewritten module (only the requested entry point is kept), when
  // reads_position and the rewrite succeeded; empty otherwise.
  std::vector<uint32_t> spirv;
  // Byte offset of the grid info in the push-constant block.
  uint32_t grid_info_offset = 0;
  // Why a kernel that reads its position could not be rewritten (it then
  // launches only grids that fit in one dispatch).
  std::string unsupported_reason;

  bool needs_grid_info() const { return !spirv.empty(); }
};

// Rewrites `entry_point` of the (valid, reflected) module for split launches.
// The grid info goes after the kernel's push-constant parameters (aligned as
// Vulkan's block layout requires) or, when the kernel has none in push
// constants, into a new push-constant block at offset 0; it must end within
// `push_constant_limit` bytes. Malformed input is kInvalidImage.
absl::StatusOr<GridSplitRewrite> RewriteForGridSplit(absl::Span<const uint32_t> words,
                                                     absl::string_view entry_point,
                                                     uint32_t push_constant_limit);
// The same for a module already parsed.
absl::StatusOr<GridSplitRewrite> RewriteForGridSplit(const spirv_detail::ParsedModule& module,
                                                     absl::string_view entry_point,
                                                     uint32_t push_constant_limit);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_GRID_SPLIT_H_
