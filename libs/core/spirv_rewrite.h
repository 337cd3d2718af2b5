// SPIR-V rewrites the runtime applies to kernels before creating pipelines.
#ifndef STREAMHAL_CORE_SPIRV_REWRITE_H_
#define STREAMHAL_CORE_SPIRV_REWRITE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace streamhal {

// Parameter blocks larger than the device's push-constant limit (Vulkan
// guarantees only 128 bytes; CUDA allows 4 KiB of parameters) are passed in a
// uniform buffer instead. This turns every PushConstant variable of the
// module into a Uniform variable decorated DescriptorSet `descriptor_set`,
// Binding `binding`, and every `OpTypePointer PushConstant T` into
// `OpTypePointer Uniform T`. Where the module already has
// `OpTypePointer Uniform T`, the two are merged (SPIR-V forbids duplicate
// pointer types): the earlier declaration is kept and every use of the later
// one is renamed to it; names and decorations of the dropped id are removed.
// The Block decoration and the Offset decorations stay, so the parameters
// keep the offsets reflection reported, and kernel code is unchanged.
// StoragePushConstant8/16 capabilities gain their uniform-buffer
// counterparts (UniformAndStorageBuffer8BitAccess, StorageUniform16).
//
// Push constants are laid out with the std430-like rules, which uniform
// buffers only accept when the device enables uniformBufferStandardLayout
// (core feature of Vulkan 1.2) or scalarBlockLayout; a block whose offsets
// already satisfy the std140 rules needs neither.
//
// A module without push constants is returned unchanged. Malformed input
// yields ErrorCode::kInvalidImage.
absl::StatusOr<std::vector<uint32_t>> MovePushConstantsToUniform(absl::Span<const uint32_t> words,
                                                                 uint32_t descriptor_set,
                                                                 uint32_t binding);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_SPIRV_REWRITE_H_
