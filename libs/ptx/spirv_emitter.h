// Emits a Vulkan compute SPIR-V module (SPIR-V 1.5, Vulkan 1.2) for a parsed
// PTX module, shaped like a GLSL kernel that follows streamhal's kernel ABI
// (docs/kernel-abi.md), so core reflects and launches it like any other:
//  * each `.entry` is an OpEntryPoint GLCompute of the same name; the block
//    size is the spec constants SpecId 0/1/2 (BuiltIn WorkgroupSize);
//  * the `.param` list is the entry's push-constant block, each parameter a
//    member at the offset CUDA gives it, so kernelParams and `extra` work
//    unchanged; pointers are 64-bit integers turned into
//    PhysicalStorageBuffer pointers where they are dereferenced;
//  * `.shared` memory is one Workgroup array of 32-bit words per kernel,
//    addressed in bytes as PTX does; with an `.extern .shared` array its
//    length adds the dynamic size, SpecId 3 (bytes);
//  * registers are Function variables; the CFG runs as a loop around a
//    switch on a block-id variable (see docs/ptx.md for the costs);
//  * each `.func` a kernel calls is a SPIR-V function, emitted once per
//    kernel that reaches it, its `.param` arguments and return value passed
//    by value as arrays of 32-bit words; recursion fails naming the call.
// Instructions outside the covered subset fail with Unimplemented naming the
// PTX line.
#ifndef STREAMHAL_PTX_SPIRV_EMITTER_H_
#define STREAMHAL_PTX_SPIRV_EMITTER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "ptx/ir.h"

namespace streamhal::ptx {

absl::StatusOr<std::vector<uint32_t>> EmitSpirv(const Module& module);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_SPIRV_EMITTER_H_
