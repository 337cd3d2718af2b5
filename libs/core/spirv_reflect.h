// SPIR-V reflection for the kernel ABI (docs/kernel-abi.md): everything the
// runtime needs to launch a kernel is learned from the module itself, once per
// module load, never per launch.
//
// The ABI as reflected here:
//  * A kernel is an `OpEntryPoint GLCompute`; its name is the entry point name.
//  * Block size: a dimension whose size is a specialization constant with
//    SpecId 0 (x), 1 (y) or 2 (z) accepts any launch size (the runtime sets
//    that SpecId). Any other size (a literal, or a spec constant with another
//    SpecId, which the runtime never sets) is fixed, and launches must use
//    exactly that size. The size comes from the object decorated
//    `BuiltIn WorkgroupSize` if there is one (SPIR-V: it overrides the
//    execution modes), else `LocalSizeId`, else `LocalSize`. The built-in is
//    module-wide, so a module with several of them that disagree is rejected.
//    A spec constant with SpecId 0, 1 or 2 used for the wrong dimension, or
//    SpecId 3 used as a dimension, is rejected.
//  * Dynamic shared memory: SpecId 3 is the dynamic shared memory size in
//    BYTES. Kernels declare their dynamic array with a length derived from it:
//        layout(constant_id = 3) const uint kDynSharedBytes = 16;
//        shared uint dyn[kDynSharedBytes / 4];
//    An array length of 0 is invalid SPIR-V, so the launcher must never
//    specialise SpecId 3 below the element size; it passes the launch's
//    byte count rounded up to a multiple of 16, and at least 16, which makes
//    `kDynSharedBytes / sizeof(T)` a valid length for every element type up to
//    16 bytes. SpecId 0..3, when present, must be 32-bit integer spec constants.
//  * Parameters: the members, in declaration order, of the push-constant block
//    the entry point uses (at most one), at their Offset decorations.
//  * Textures and surfaces (v2): a UniformConstant variable the kernel uses
//    must be decorated DescriptorSet 2, Binding i, where parameter i is a
//    64-bit integer (the CUtexObject/CUsurfObject), and be a sampled image
//    (sampler1D/2D/3D/Cube and their arrays, float/int/uint) or a storage
//    image (image1D/2D/3D and arrays). Separate samplers and images, texel
//    buffers, multisampled and depth images, and arrays of them are
//    kNotSupported. A binding from kTextureRefBindingBase (1024) up is a
//    texture or surface reference instead, named by its OpName, which it
//    must have.
//  * Globals (cuModuleGetGlobal): the members of the storage buffer block whose
//    struct type is named `streamhal_globals` (OpName); the variable must be
//    decorated DescriptorSet 0, Binding 0.
//
// "Used by a kernel" means listed in its OpEntryPoint interface or reachable
// from its function through calls, operands and types (static use). From
// SPIR-V 1.4 the interface lists every global variable the kernel uses and
// may list more (glslang lists all globals); those count too, as they may for
// drivers and validation layers. Before 1.4 the interface lists only
// Input/Output variables, so every Workgroup variable of the module counts
// towards each kernel's shared memory (conservative), while push constants
// and globals still follow static use.
//
// Sizes in explicitly laid out blocks (push constants, globals) are EXTENTS:
// the bytes from the member's start to the end of the last byte any of its
// scalars occupies, so copying `size` bytes from a host value laid out with
// the same offsets never reads past it:
//  * int/float of N bits: N/8; PhysicalStorageBuffer pointer: 8;
//  * vector of n components: n * component size (vec3 of float: 12);
//  * matrix: MatrixStride * (vectors - 1) + vector extent, where vectors are
//    columns (ColMajor, the default) or rows (RowMajor);
//  * array of n: ArrayStride * (n - 1) + element extent (n from the default
//    value when the length is a spec constant);
//  * struct: the largest Offset + extent over its members (0 if empty).
// Bool, runtime arrays and non-PhysicalStorageBuffer pointers are invalid in
// these blocks. Workgroup (shared) variables have no explicit layout in
// Vulkan; their size is estimated with std430 rules (vec3 aligned as vec4,
// arrays and structs padded to their alignment, bool as 4 bytes).
#ifndef STREAMHAL_CORE_SPIRV_REFLECT_H_
#define STREAMHAL_CORE_SPIRV_REFLECT_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/backend.h"

namespace streamhal {

enum class ParamKind : uint8_t {
  kScalar,  // int/float of 8..64 bits (uint64_t device addresses included)
  kVector,
  kMatrix,
  kPointer,  // PhysicalStorageBuffer pointer (buffer_reference), 8 bytes
  kStruct,
  kArray,
};

std::string_view ParamKindName(ParamKind kind);

struct ParamInfo {
  std::string name;  // OpMemberName, empty when the module has none
  uint32_t offset = 0;
  uint32_t size = 0;  // extent, see the file comment
  ParamKind kind = ParamKind::kScalar;
  // Scalars, and the components of vectors: the SPIR-V numeric type (what a
  // generated host declaration needs; the runtime itself copies bytes).
  bool is_float = false;
  bool is_signed = false;
  uint32_t scalar_bits = 0;
  uint32_t components = 0;  // vectors only
};

// A texture or surface parameter (kernel ABI v2): a descriptor at set 2,
// binding `binding`, whose handle the kernel takes in parameter `binding`
// (a 64-bit integer).
struct ResourceParamInfo {
  uint32_t binding = 0;
  ResourceKind kind = ResourceKind::kSampledImage;
  ViewDimension dimension = ViewDimension::k2D;
  TexelNumeric numeric = TexelNumeric::kFloat;
  // The texel format a storage image declares (layout(r32f) and the like),
  // as a CUarray_format value and channel count; 0 and 0 when it declares
  // none (any format) or one no CUDA array has (normalised formats).
  uint32_t array_format = 0;
  uint32_t channels = 0;
  bool declares_format = false;
  // A module-scope texture or surface reference (binding from
  // kTextureRefBindingBase up): its variable's name, which
  // cuModuleGetTexRef/cuModuleGetSurfRef look up. Empty for parameters.
  std::string ref_name;
};

struct KernelInfo {
  std::string name;

  // True when all three dimensions come from SpecId 0, 1, 2.
  bool block_size_from_spec = false;
  // Per dimension: true when the dimension is spec constant SpecId 0/1/2.
  std::array<bool, 3> block_dim_from_spec = {false, false, false};
  // The size compiled into the module: for a fixed dimension the only size a
  // launch may use; for a spec dimension the spec constant's default.
  std::array<uint32_t, 3> literal_block_size = {1, 1, 1};
  // Default values of the spec constants SpecId 0..2 (0 where absent).
  std::array<uint32_t, 3> spec_block_size_defaults = {0, 0, 0};

  // SpecId 3 exists and the kernel uses it.
  bool has_dynamic_shared_spec = false;
  // Bytes of the Workgroup variables the kernel uses (see "used" above)
  // whose size does not depend on SpecId 3 (those are the dynamic ones).
  uint32_t static_shared_bytes = 0;

  std::vector<ParamInfo> params;  // declaration order
  // The end of the parameter block: the largest offset + size over params
  // (for blocks in declaration order, the end of the last member). 0 when the
  // kernel has no push-constant block.
  uint32_t param_block_size = 0;

  // The kernel uses the streamhal_globals variable.
  bool uses_globals = false;

  // Texture and surface parameters the kernel uses, by binding.
  std::vector<ResourceParamInfo> resources;
};

struct GlobalInfo {
  std::string name;  // OpMemberName of the member
  uint32_t offset = 0;
  uint32_t size = 0;  // extent, see the file comment
  // UserSemantic "streamhal.init:<hex>": the member's first bytes at load.
  std::vector<uint8_t> init;
  // UserSemantic "streamhal.address": the member holds the buffer's device
  // address (written at load), for code that takes globals' addresses.
  bool holds_address = false;
};

struct GlobalsInfo {
  std::vector<GlobalInfo> members;  // declaration order
  uint32_t block_size = 0;          // largest offset + size over members
};

struct ModuleReflection {
  uint32_t spirv_version = 0;  // header word, e.g. 0x00010500
  std::vector<KernelInfo> kernels;
  std::optional<GlobalsInfo> globals;

  // The kernel named `name`, or nullptr.
  const KernelInfo* FindKernel(std::string_view name) const;
};

// Reflects a SPIR-V module given as little-endian words (the only byte order
// accepted). Any malformed input yields ErrorCode::kInvalidImage; this never
// reads outside `words`.
absl::StatusOr<ModuleReflection> ReflectSpirv(absl::Span<const uint32_t> words);

namespace spirv_detail {

// Whether `opcode` belongs to the part of a module's logical layout that
// precedes the type declarations (capabilities through annotations): where
// rewrites insert new decorations.
bool IsBeforeDeclarations(uint32_t opcode);

// A checked, indexed view of a module shared by reflection and rewriting.
// Parse() guarantees: every instruction lies inside the words; each result id
// is nonzero, below the bound and defined once; every id operand refers to a
// defined id; functions are properly opened and closed.
struct Instruction {
  uint32_t offset = 0;  // index of the first word in the module
  uint32_t word_count = 0;
  uint32_t opcode = 0;
  uint32_t type_id = 0;            // 0 when the opcode has no result type
  uint32_t result_id = 0;          // 0 when the opcode has no result
  int32_t function = -1;           // index into functions(), -1 at module scope
  uint32_t id_operands_begin = 0;  // range in id_operand_words()
  uint32_t id_operands_end = 0;
};

struct Function {
  uint32_t id = 0;
  uint32_t first_instruction = 0;  // the OpFunction
  uint32_t end_instruction = 0;    // one past the OpFunctionEnd
};

class ParsedModule {
 public:
  static absl::StatusOr<ParsedModule> Parse(absl::Span<const uint32_t> words);

  absl::Span<const uint32_t> words() const { return words_; }
  uint32_t version() const { return words_[1]; }
  uint32_t bound() const { return words_[3]; }
  const std::vector<Instruction>& instructions() const { return instructions_; }
  const std::vector<Function>& functions() const { return functions_; }

  // Word `i` of `inst` (0 is the opcode word); 0 when out of range.
  uint32_t Word(const Instruction& inst, uint32_t i) const {
    return i < inst.word_count ? words_[inst.offset + i] : 0;
  }
  // Index of the instruction defining `id`, or -1.
  int64_t DefIndex(uint32_t id) const;
  const Instruction* Def(uint32_t id) const;
  // Module word indices of the id operands of `inst`: its result type and
  // every operand that names an id (not its result id, not literals).
  absl::Span<const uint32_t> IdOperandWords(const Instruction& inst) const;
  // The NUL-terminated literal string starting at word `i` of `inst`, and the
  // index of the first word after it. Fails when it is not terminated.
  absl::StatusOr<std::pair<std::string, uint32_t>> String(const Instruction& inst,
                                                          uint32_t i) const;

 private:
  absl::Status Index();
  absl::Status ClassifyOperands(const Instruction& inst, std::vector<uint32_t>& out) const;

  absl::Span<const uint32_t> words_;
  std::vector<Instruction> instructions_;
  std::vector<Function> functions_;
  absl::flat_hash_map<uint32_t, uint32_t> def_index_;
  std::vector<uint32_t> id_operand_words_;
};

}  // namespace spirv_detail

}  // namespace streamhal

#endif  // STREAMHAL_CORE_SPIRV_REFLECT_H_
