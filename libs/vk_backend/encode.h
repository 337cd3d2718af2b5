// How a backend operation becomes a command of a CommandList: shared by
// streams (stream.h), which run their commands once, and recordings
// (recording.h), which run theirs many times. Both resolve everything a
// command names when it is appended; they differ only in where the scratch
// a command reads (big parameter blocks, fill edges) lives: a stream's
// staging ring, reused as points complete, or memory a recording owns.
#ifndef STREAMHAL_VK_BACKEND_ENCODE_H_
#define STREAMHAL_VK_BACKEND_ENCODE_H_

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "core/backend.h"
#include "vk_backend/allocator.h"
#include "vk_backend/command_list.h"
#include "vk_backend/fill.h"

namespace streamhal::vk {

class VulkanKernel;
class VulkanResourceView;

// A launch checked against the device and resolved: what its
// DispatchCommand names besides the parameter uniform buffer.
struct ResolvedLaunch {
  VulkanKernel* kernel = nullptr;
  VkPipeline pipeline = VK_NULL_HANDLE;
  VkDescriptorSet globals_set = VK_NULL_HANDLE;  // when the kernel uses globals
};

// Finds (or creates) the pipeline and the globals set of a launch. A grid
// larger than one dispatch (`max_groups`) is kInvalidValue when the kernel
// cannot be split.
absl::StatusOr<ResolvedLaunch> ResolveLaunch(const DispatchParams& params,
                                             const std::array<uint32_t, 3>& max_groups);

// Bytes that follow a launch's DispatchCommand: push constants, then the
// textures and surfaces it pushes.
uint32_t LaunchTrailingBytes(const ResolvedLaunch& launch);

// Fills `c` and the bytes after it (LaunchTrailingBytes of them, from
// `push`) for `params`.
// When the kernel's parameters live in a uniform buffer, `params_set` binds
// it and `dynamic_offset` locates this launch's copy of the block;
// otherwise both are ignored.
void EncodeLaunch(const ResolvedLaunch& launch, const DispatchParams& params,
                  VkDescriptorSet params_set, uint32_t dynamic_offset, DispatchCommand* c,
                  uint8_t* push);

// The copy that fills a staged view's image (a texture over pitched memory)
// from its staging source, appended before the DispatchCommand of each
// launch that binds the view. The copy's closing barrier orders the
// dispatch after it, in a stream and in a recording alike.
void EncodeStagingCopy(const VulkanResourceView& view, ImageCopyCommand* c);

// A device-to-device copy.
CopyCommand EncodeCopy(BufferRange dst, BufferRange src, uint64_t size);

// The regions of a pitched copy (CopyBox): one per row, or fewer where the
// rows lie back to back on both sides (one per slice, or a single region).
struct BoxPieces {
  uint64_t count = 0;           // regions
  uint64_t size = 0;            // bytes of each
  uint64_t rows_per_piece = 1;  // box rows each covers
};
BoxPieces PlanBox(const CopyBox& box);
// Regions per CopyRegionsCommand: a longer box takes several commands.
inline constexpr uint64_t kMaxRegionsPerCommand = 1 << 16;
// Writes regions [first, first + count) of `pieces` for `box` between byte
// `src_base` of the source buffer and `dst_base` of the destination.
void EncodeBoxRegions(const CopyBox& box, const BoxPieces& pieces, uint64_t src_base,
                      uint64_t dst_base, uint64_t first, uint32_t count, VkBufferCopy* regions);

// The bytes a fill's edges copy from (kFillEdgeBytes, 4-byte aligned).
inline constexpr uint64_t kFillEdgeBytes = 8;
void WriteFillEdges(const FillPlan& plan, uint8_t* host);
// A fill of `dst` as `plan` says; the edges, if any, are copied from
// `edge_offset` of `edge_buffer`, where WriteFillEdges put them.
void EncodeFill(VkBuffer dst, const FillPlan& plan, VkBuffer edge_buffer, uint64_t edge_offset,
                FillCommand* c);

// A descriptor set (from a new pool of one set, returned in `*pool` also on
// failure, to be destroyed by the caller) binding kMaxParamBlockBytes of
// `backing` from its start as a dynamic uniform buffer at set 1 (kernel ABI
// v1's big parameter blocks). `backing` must hold kMaxParamBlockBytes past
// the largest dynamic offset used with it.
absl::StatusOr<VkDescriptorSet> CreateParamsSet(VkDevice device, VkDescriptorSetLayout layout,
                                                const VulkanAllocation& backing,
                                                VkDescriptorPool* pool);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_ENCODE_H_
