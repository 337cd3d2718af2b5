#include "core/spirv_reflect.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_format.h"
#include "core/status.h"

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp>

namespace streamhal {
namespace spirv_detail {

bool IsBeforeDeclarations(uint32_t opcode) {
  switch (opcode) {
    case spv::OpCapability:
    case spv::OpExtension:
    case spv::OpExtInstImport:
    case spv::OpMemoryModel:
    case spv::OpEntryPoint:
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId:
    case spv::OpString:
    case spv::OpSourceExtension:
    case spv::OpSource:
    case spv::OpSourceContinued:
    case spv::OpName:
    case spv::OpMemberName:
    case spv::OpModuleProcessed:
    case spv::OpDecorate:
    case spv::OpMemberDecorate:
    case spv::OpDecorationGroup:
    case spv::OpGroupDecorate:
    case spv::OpGroupMemberDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
    case spv::OpMemberDecorateString:
      return true;
    default:
      return false;
  }
}

namespace {

// The SPIR-V universal limit on the id bound; a larger bound is malformed.
constexpr uint32_t kMaxIdBound = 0x3FFFFF;

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return Error(ErrorCode::kInvalidImage, "invalid SPIR-V: ", args...);
}

// Opcodes whose operands after the result are, in order, `fixed_ids` ids, an
// optional ImageOperands mask (a literal) and then only ids (every image
// operand parameter is an id).
int ImageOpFixedIds(uint32_t opcode) {
  switch (opcode) {
    case spv::OpImageSampleImplicitLod:
    case spv::OpImageSampleExplicitLod:
    case spv::OpImageSampleProjImplicitLod:
    case spv::OpImageSampleProjExplicitLod:
    case spv::OpImageFetch:
    case spv::OpImageRead:
    case spv::OpImageSparseSampleImplicitLod:
    case spv::OpImageSparseSampleExplicitLod:
    case spv::OpImageSparseSampleProjImplicitLod:
    case spv::OpImageSparseSampleProjExplicitLod:
    case spv::OpImageSparseFetch:
    case spv::OpImageSparseRead:
      return 2;
    case spv::OpImageSampleDrefImplicitLod:
    case spv::OpImageSampleDrefExplicitLod:
    case spv::OpImageSampleProjDrefImplicitLod:
    case spv::OpImageSampleProjDrefExplicitLod:
    case spv::OpImageGather:
    case spv::OpImageDrefGather:
    case spv::OpImageSparseSampleDrefImplicitLod:
    case spv::OpImageSparseSampleDrefExplicitLod:
    case spv::OpImageSparseSampleProjDrefImplicitLod:
    case spv::OpImageSparseSampleProjDrefExplicitLod:
    case spv::OpImageSparseGather:
    case spv::OpImageSparseDrefGather:
    case spv::OpImageWrite:  // no result: image, coordinate, texel
      return 3;
    case spv::OpImageSampleFootprintNV:
      return 4;
    default:
      return -1;
  }
}

// Opcodes of the form: result type, result, Scope id, GroupOperation literal,
// ids.
bool HasGroupOperation(uint32_t opcode) {
  return (opcode >= spv::OpGroupIAdd && opcode <= spv::OpGroupSMax) ||
         opcode == spv::OpGroupNonUniformBallotBitCount ||
         (opcode >= spv::OpGroupNonUniformIAdd && opcode <= spv::OpGroupNonUniformLogicalXor) ||
         (opcode >= spv::OpGroupIAddNonUniformAMD && opcode <= spv::OpGroupSMaxNonUniformAMD) ||
         (opcode >= spv::OpGroupIMulKHR && opcode <= spv::OpGroupLogicalXorKHR);
}

// Intel FPGA arithmetic: Kernel-only opcodes with interleaved literals that no
// Vulkan module contains; only their result type is treated as an id.
bool IsIntelArbitraryPrecision(uint32_t opcode) {
  return (opcode >= spv::OpArbitraryFloatSinCosPiINTEL &&
          opcode <= spv::OpArbitraryFloatPowNINTEL) ||
         (opcode >= spv::OpFixedSqrtINTEL && opcode <= spv::OpFixedExpINTEL) ||
         opcode == spv::OpAsmTargetINTEL;
}

}  // namespace

absl::StatusOr<ParsedModule> ParsedModule::Parse(absl::Span<const uint32_t> words) {
  if (words.size() < 5) {
    return Invalid("module is ", words.size(), " words; the header alone is 5");
  }
  if (words[0] != spv::MagicNumber) {
    if (words[0] == 0x03022307u) return Invalid("big-endian modules are not supported");
    return Invalid(absl::StrFormat("bad magic number 0x%08x", words[0]));
  }
  const uint32_t version = words[1];
  if ((version & 0xFF0000FFu) != 0 || ((version >> 16) & 0xFF) != 1 ||
      ((version >> 8) & 0xFF) > 6) {
    return Invalid(absl::StrFormat("unsupported version word 0x%08x", version));
  }
  if (words[3] == 0 || words[3] > kMaxIdBound + 1) {
    return Invalid("id bound ", words[3], " is outside [1, ", kMaxIdBound + 1, "]");
  }
  ParsedModule module;
  module.words_ = words;
  SH_RETURN_IF_ERROR(module.Index());
  return module;
}

absl::Status ParsedModule::Index() {
  const uint32_t bound = words_[3];
  int32_t current_function = -1;
  size_t pos = 5;
  while (pos < words_.size()) {
    const uint32_t first = words_[pos];
    Instruction inst;
    inst.offset = static_cast<uint32_t>(pos);
    inst.word_count = first >> 16;
    inst.opcode = first & 0xFFFF;
    if (inst.word_count == 0) return Invalid("instruction at word ", pos, " has word count 0");
    if (inst.word_count > words_.size() - pos) {
      return Invalid("instruction at word ", pos, " (opcode ", inst.opcode, ") needs ",
                     inst.word_count, " words but the module ends after ", words_.size() - pos);
    }
    bool has_result = false;
    bool has_type = false;
    spv::HasResultAndType(static_cast<spv::Op>(inst.opcode), &has_result, &has_type);
    const uint32_t needed = 1 + (has_type ? 1 : 0) + (has_result ? 1 : 0);
    if (inst.word_count < needed) {
      return Invalid("instruction at word ", pos, " (opcode ", inst.opcode, ") is too short");
    }
    const uint32_t index = static_cast<uint32_t>(instructions_.size());
    if (has_type) inst.type_id = words_[pos + 1];
    if (has_result) {
      const uint32_t id = words_[pos + (has_type ? 2 : 1)];
      if (id == 0 || id >= bound) {
        return Invalid("result id ", id, " at word ", pos, " is outside [1, ", bound, ")");
      }
      if (!def_index_.emplace(id, index).second) {
        return Invalid("id ", id, " is defined twice");
      }
      inst.result_id = id;
    }
    if (inst.opcode == spv::OpFunction) {
      if (current_function >= 0) return Invalid("OpFunction at word ", pos, " inside a function");
      functions_.push_back(Function{inst.result_id, index, 0});
      current_function = static_cast<int32_t>(functions_.size() - 1);
    }
    inst.function = current_function;
    if (inst.opcode == spv::OpFunctionEnd) {
      if (current_function < 0) {
        return Invalid("OpFunctionEnd at word ", pos, " outside a function");
      }
      functions_.back().end_instruction = index + 1;
      current_function = -1;
    }
    instructions_.push_back(inst);
    pos += inst.word_count;
  }
  if (current_function >= 0) return Invalid("the module ends inside a function");

  // Operand classification needs every definition (OpSwitch reads its
  // selector's type), so it is a second pass.
  std::vector<uint32_t> scratch;
  for (Instruction& inst : instructions_) {
    scratch.clear();
    SH_RETURN_IF_ERROR(ClassifyOperands(inst, scratch));
    inst.id_operands_begin = static_cast<uint32_t>(id_operand_words_.size());
    for (uint32_t word : scratch) {
      const uint32_t id = words_[word];
      if (id == 0 || id >= bound || !def_index_.contains(id)) {
        return Invalid("instruction at word ", inst.offset, " (opcode ", inst.opcode,
                       ") references undefined id ", id);
      }
      id_operand_words_.push_back(word);
    }
    inst.id_operands_end = static_cast<uint32_t>(id_operand_words_.size());
  }
  return absl::OkStatus();
}

absl::Status ParsedModule::ClassifyOperands(const Instruction& inst,
                                            std::vector<uint32_t>& out) const {
  const uint32_t n = inst.word_count;
  const uint32_t base = inst.offset;
  auto ids = [&](uint32_t from, uint32_t to) {  // words [from, to) of inst
    for (uint32_t i = from; i < std::min(to, n); ++i) out.push_back(base + i);
  };
  auto malformed = [&]() {
    return Invalid("instruction at word ", base, " (opcode ", inst.opcode, ") is malformed");
  };
  // A MemoryAccess operand at word `i` (absent when i == n): a mask literal,
  // then the Aligned literal, then the ids of the scope/alias parameters, in
  // bit order. Returns the word after it.
  auto memory_access = [&](uint32_t i) -> absl::StatusOr<uint32_t> {
    if (i >= n) return i;
    const uint32_t mask = words_[base + i++];
    if (mask & spv::MemoryAccessAlignedMask) {
      if (i >= n) return malformed();
      ++i;
    }
    for (uint32_t bit :
         {spv::MemoryAccessMakePointerAvailableMask, spv::MemoryAccessMakePointerVisibleMask,
          spv::MemoryAccessAliasScopeINTELMaskMask, spv::MemoryAccessNoAliasINTELMaskMask}) {
      if (mask & bit) {
        if (i >= n) return malformed();
        out.push_back(base + i++);
      }
    }
    return i;
  };

  if (inst.type_id != 0) out.push_back(base + 1);
  // First operand word after the result type and result id.
  const uint32_t first = 1 + (inst.type_id != 0 ? 1 : 0) + (inst.result_id != 0 ? 1 : 0);

  switch (inst.opcode) {
    // No id operands beyond the result.
    case spv::OpNop:
    case spv::OpSourceContinued:
    case spv::OpSourceExtension:
    case spv::OpExtension:
    case spv::OpCapability:
    case spv::OpMemoryModel:
    case spv::OpModuleProcessed:
    case spv::OpString:
    case spv::OpExtInstImport:
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
    case spv::OpTypeOpaque:
    case spv::OpTypePipe:
    case spv::OpTypeBufferSurfaceINTEL:
    case spv::OpConstant:
    case spv::OpSpecConstant:
    case spv::OpConstantSampler:
    case spv::OpConstantPipeStorage:
    case spv::OpSamplerImageAddressingModeNV:
    case spv::OpLoopControlINTEL:
    case spv::OpNoLine:
      return absl::OkStatus();
    case spv::OpSource:  // language, version, optional file id, source text
      ids(3, 4);
      return absl::OkStatus();
    // A target id followed by literals.
    case spv::OpName:
    case spv::OpMemberName:
    case spv::OpLine:
    case spv::OpDecorate:
    case spv::OpMemberDecorate:
    case spv::OpDecorateString:
    case spv::OpMemberDecorateString:
    case spv::OpExecutionMode:
    case spv::OpTypeForwardPointer:
    case spv::OpLifetimeStart:
    case spv::OpLifetimeStop:
    case spv::OpSelectionMerge:
      if (n < 2) return malformed();
      ids(1, 2);
      return absl::OkStatus();
    case spv::OpDecorateId:
    case spv::OpExecutionModeId:
      if (n < 3) return malformed();
      ids(1, 2);
      ids(3, n);
      return absl::OkStatus();
    case spv::OpGroupMemberDecorate:
      if (n < 2 || (n - 2) % 2 != 0) return malformed();
      ids(1, 2);
      for (uint32_t i = 2; i < n; i += 2) ids(i, i + 1);
      return absl::OkStatus();
    case spv::OpEntryPoint: {
      if (n < 4) return malformed();
      ids(2, 3);
      SH_ASSIGN_OR_RETURN(auto name, String(inst, 3));
      ids(name.second, n);
      return absl::OkStatus();
    }
    case spv::OpExtInst: {
      if (n < 5) return malformed();
      ids(3, 4);
      // Operands are ids for GLSL.std.450, the AMD sets and every
      // NonSemantic set; other sets (OpenCL.std, OpenCL.DebugInfo.100) mix
      // literals in, and are left unclassified.
      const Instruction* set = Def(words_[base + 3]);
      if (set != nullptr && set->opcode == spv::OpExtInstImport) {
        auto set_name = String(*set, 2);
        if (set_name.ok() && (set_name->first == "GLSL.std.450" ||
                              absl::StartsWith(set_name->first, "NonSemantic.") ||
                              absl::StartsWith(set_name->first, "SPV_AMD_"))) {
          ids(5, n);
        }
      }
      return absl::OkStatus();
    }
    case spv::OpTypeVector:
    case spv::OpTypeMatrix:
    case spv::OpTypeImage:
      if (n < 3) return malformed();
      ids(2, 3);
      return absl::OkStatus();
    case spv::OpTypePointer:
      if (n < 4) return malformed();
      ids(3, 4);
      return absl::OkStatus();
    case spv::OpSpecConstantOp: {
      if (n < 4) return malformed();
      const uint32_t op = words_[base + 3];
      uint32_t id_count = n;
      if (op == spv::OpCompositeExtract) id_count = 5;
      if (op == spv::OpCompositeInsert || op == spv::OpVectorShuffle) id_count = 6;
      ids(4, id_count);
      return absl::OkStatus();
    }
    case spv::OpFunction:
      if (n < 5) return malformed();
      ids(4, 5);
      return absl::OkStatus();
    case spv::OpVariable:
      if (n < 4) return malformed();
      ids(4, 5);
      if (n > 5) return malformed();  // at most one initializer
      return absl::OkStatus();
    case spv::OpLoad: {
      if (n < 4) return malformed();
      ids(3, 4);
      SH_ASSIGN_OR_RETURN(uint32_t end, memory_access(4));
      if (end != n) return malformed();
      return absl::OkStatus();
    }
    case spv::OpStore: {
      if (n < 3) return malformed();
      ids(1, 3);
      SH_ASSIGN_OR_RETURN(uint32_t end, memory_access(3));
      if (end != n) return malformed();
      return absl::OkStatus();
    }
    case spv::OpCopyMemory:
    case spv::OpCopyMemorySized: {
      const uint32_t fixed = inst.opcode == spv::OpCopyMemory ? 3 : 4;
      if (n < fixed) return malformed();
      ids(1, fixed);
      SH_ASSIGN_OR_RETURN(uint32_t mid, memory_access(fixed));
      SH_ASSIGN_OR_RETURN(uint32_t end, memory_access(mid));
      if (end != n) return malformed();
      return absl::OkStatus();
    }
    case spv::OpCooperativeMatrixLoadNV:
    case spv::OpCooperativeMatrixStoreNV: {
      const uint32_t fixed = inst.opcode == spv::OpCooperativeMatrixLoadNV ? 6 : 5;
      if (n < fixed) return malformed();
      ids(first, fixed);
      SH_ASSIGN_OR_RETURN(uint32_t end, memory_access(fixed));
      if (end != n) return malformed();
      return absl::OkStatus();
    }
    case spv::OpArrayLength:
    case spv::OpGenericCastToPtrExplicit:
    case spv::OpCompositeExtract:
      if (n < 4) return malformed();
      ids(3, 4);
      return absl::OkStatus();
    case spv::OpVectorShuffle:
    case spv::OpCompositeInsert:
      if (n < 5) return malformed();
      ids(3, 5);
      return absl::OkStatus();
    case spv::OpLoopMerge:
      if (n < 4) return malformed();
      ids(1, 3);
      return absl::OkStatus();
    case spv::OpBranchConditional:
      if (n < 4) return malformed();
      ids(1, 4);
      return absl::OkStatus();
    case spv::OpSwitch: {
      if (n < 3) return malformed();
      ids(1, 3);
      // Case literals are as wide as the selector's integer type.
      const Instruction* selector = Def(words_[base + 1]);
      const Instruction* type = selector != nullptr ? Def(selector->type_id) : nullptr;
      if (type == nullptr || type->opcode != spv::OpTypeInt || type->word_count < 4) {
        return Invalid("OpSwitch at word ", base, " has a selector that is not an integer");
      }
      const uint32_t literal_words = Word(*type, 2) > 32 ? 2 : 1;
      if ((n - 3) % (literal_words + 1) != 0) return malformed();
      for (uint32_t i = 3 + literal_words; i < n; i += literal_words + 1) ids(i, i + 1);
      return absl::OkStatus();
    }
    case spv::OpSDot:
    case spv::OpUDot:
    case spv::OpSUDot:
      ids(3, 5);
      return absl::OkStatus();
    case spv::OpSDotAccSat:
    case spv::OpUDotAccSat:
    case spv::OpSUDotAccSat:
      ids(3, 6);
      return absl::OkStatus();
    default:
      break;
  }
  if (const int fixed = ImageOpFixedIds(inst.opcode); fixed >= 0) {
    const uint32_t mask_word = first + static_cast<uint32_t>(fixed);
    if (n < mask_word) return malformed();
    ids(first, mask_word);
    ids(mask_word + 1, n);
    return absl::OkStatus();
  }
  if (HasGroupOperation(inst.opcode)) {
    if (n < 5) return malformed();
    ids(3, 4);
    ids(5, n);
    return absl::OkStatus();
  }
  if (IsIntelArbitraryPrecision(inst.opcode)) return absl::OkStatus();
  // Everything else: all operands are ids.
  ids(first, n);
  return absl::OkStatus();
}

int64_t ParsedModule::DefIndex(uint32_t id) const {
  auto it = def_index_.find(id);
  return it == def_index_.end() ? -1 : static_cast<int64_t>(it->second);
}

const Instruction* ParsedModule::Def(uint32_t id) const {
  auto it = def_index_.find(id);
  return it == def_index_.end() ? nullptr : &instructions_[it->second];
}

absl::Span<const uint32_t> ParsedModule::IdOperandWords(const Instruction& inst) const {
  return absl::MakeConstSpan(id_operand_words_)
      .subspan(inst.id_operands_begin, inst.id_operands_end - inst.id_operands_begin);
}

absl::StatusOr<std::pair<std::string, uint32_t>> ParsedModule::String(const Instruction& inst,
                                                                      uint32_t i) const {
  std::string result;
  for (; i < inst.word_count; ++i) {
    const uint32_t word = words_[inst.offset + i];
    for (int byte = 0; byte < 4; ++byte) {
      const char c = static_cast<char>((word >> (8 * byte)) & 0xFF);
      if (c == '\0') return std::make_pair(std::move(result), i + 1);
      result.push_back(c);
    }
  }
  return Invalid("unterminated string in instruction at word ", inst.offset);
}

}  // namespace spirv_detail

namespace {

using spirv_detail::Instruction;
using spirv_detail::ParsedModule;

template <typename... Args>
absl::Status Invalid(const Args&... args) {
  return Error(ErrorCode::kInvalidImage, "invalid SPIR-V: ", args...);
}

// Every size this file computes stays at or below this; larger is "absurd".
constexpr uint64_t kMaxSize = std::numeric_limits<uint32_t>::max();

uint64_t RoundUp(uint64_t value, uint64_t align) {
  return align <= 1 ? value : (value + align - 1) / align * align;
}

// The value of an integer or boolean constant, with the SpecIds 0..3 its
// default value depends on (bit i for SpecId i).
struct ConstValue {
  bool ok = false;
  bool is_bool = false;
  uint32_t width = 0;  // bits, for integers
  uint64_t value = 0;
  uint8_t spec_deps = 0;
};

enum class TypeKind : uint8_t {
  kOther,
  kBool,
  kInt,
  kFloat,
  kVector,
  kMatrix,
  kArray,
  kRuntimeArray,
  kStruct,
  kPointer,
};

// A size/alignment, or why there is none.
struct Layout {
  bool ok = false;
  uint64_t size = 0;
  uint64_t align = 1;
  std::string error;
};

struct TypeInfo {
  TypeKind kind = TypeKind::kOther;
  uint32_t id = 0;
  uint32_t bits = 0;              // scalars
  bool is_signed = false;         // integer scalars
  uint32_t count = 0;             // vector components, matrix columns
  uint32_t element = 0;           // component, column, element or pointee type
  uint32_t storage_class = 0;     // pointers
  uint64_t length = 0;            // arrays
  bool dynamic = false;           // natural size depends on SpecId 3
  std::vector<uint32_t> members;  // structs
  Layout natural;                 // std430-like, for Workgroup variables
  Layout extent;                  // explicit layout; not for matrices and arrays (contextual)
};

struct MemberDecorations {
  std::optional<uint32_t> offset;
  std::optional<uint32_t> matrix_stride;
  bool row_major = false;
};

struct Dim {
  bool from_spec = false;
  uint32_t value = 1;
  bool operator==(const Dim& other) const {
    return from_spec == other.from_spec && value == other.value;
  }
};
using Dims = std::array<Dim, 3>;

uint64_t Mask(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

int64_t SignExtend(uint64_t value, uint32_t width) {
  if (width == 0 || width >= 64) return static_cast<int64_t>(value);
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((value ^ sign) - sign);
}

class Reflector {
 public:
  explicit Reflector(const ParsedModule& module) : m_(module) {}

  absl::StatusOr<ModuleReflection> Run();

 private:
  absl::Status CollectDebugAndAnnotations();
  absl::Status CheckReservedSpecIds();
  absl::Status BuildTypesAndConstants();
  absl::Status AddType(const Instruction& inst);
  ConstValue EvaluateConstant(const Instruction& inst);
  ConstValue EvaluateSpecOp(const Instruction& inst, uint32_t width, bool result_is_bool);

  absl::StatusOr<uint64_t> Extent(uint32_t type_id, const MemberDecorations* member);
  Layout StructExtent(const TypeInfo& type);
  Layout NaturalLayout(const TypeInfo& type);

  absl::StatusOr<Dim> ClassifyDim(uint32_t id, int dim);
  absl::StatusOr<std::optional<Dims>> BuiltinWorkgroupSize();
  absl::StatusOr<Dims> KernelDims(uint32_t function_id, const std::optional<Dims>& builtin,
                                  const std::string& name);

  absl::flat_hash_set<uint32_t> StaticUses(uint32_t function_id,
                                           absl::Span<const uint32_t> interface_words);
  absl::StatusOr<KernelInfo> ReflectKernel(const Instruction& entry_point,
                                           const std::optional<Dims>& builtin);
  absl::Status ReflectParams(uint32_t variable, KernelInfo& kernel);
  absl::Status ReflectResource(uint32_t variable, KernelInfo& kernel);
  absl::Status ReflectGlobals(ModuleReflection& reflection);

  const TypeInfo* Type(uint32_t id) const {
    auto it = types_.find(id);
    return it == types_.end() ? nullptr : &it->second;
  }
  const MemberDecorations* Member(uint32_t struct_id, uint32_t index) const {
    auto it = member_decorations_.find(std::make_pair(struct_id, index));
    return it == member_decorations_.end() ? nullptr : &it->second;
  }
  std::string MemberName(uint32_t struct_id, uint32_t index) const {
    auto it = member_names_.find(std::make_pair(struct_id, index));
    return it == member_names_.end() ? std::string() : it->second;
  }
  std::string NameOf(uint32_t id) const {
    auto it = names_.find(id);
    return it == names_.end() ? absl::StrCat("%", id) : absl::StrCat("'", it->second, "'");
  }

  const ParsedModule& m_;
  absl::flat_hash_map<uint32_t, std::string> names_;
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, std::string> member_names_;
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, std::string> member_semantics_;
  absl::flat_hash_map<uint32_t, uint32_t> spec_ids_;
  absl::flat_hash_map<uint32_t, uint32_t> builtins_;
  absl::flat_hash_map<uint32_t, uint32_t> array_strides_;
  absl::flat_hash_map<uint32_t, uint32_t> descriptor_sets_;
  absl::flat_hash_map<uint32_t, uint32_t> bindings_;
  absl::flat_hash_set<uint32_t> blocks_;
  absl::flat_hash_set<uint32_t> buffer_blocks_;
  absl::flat_hash_map<std::pair<uint32_t, uint32_t>, MemberDecorations> member_decorations_;
  absl::flat_hash_set<uint32_t> non_semantic_sets_;
  // Entry point function id -> its execution mode instructions.
  absl::flat_hash_map<uint32_t, std::vector<const Instruction*>> execution_modes_;
  absl::flat_hash_map<uint32_t, TypeInfo> types_;
  absl::flat_hash_map<uint32_t, ConstValue> constants_;
  std::array<std::optional<uint32_t>, 4> reserved_spec_defaults_;
  uint32_t globals_variable_ = 0;
};

absl::StatusOr<ModuleReflection> Reflector::Run() {
  SH_RETURN_IF_ERROR(CollectDebugAndAnnotations());
  SH_RETURN_IF_ERROR(BuildTypesAndConstants());
  SH_RETURN_IF_ERROR(CheckReservedSpecIds());

  ModuleReflection reflection;
  reflection.spirv_version = m_.version();
  SH_RETURN_IF_ERROR(ReflectGlobals(reflection));
  SH_ASSIGN_OR_RETURN(std::optional<Dims> builtin, BuiltinWorkgroupSize());
  absl::flat_hash_set<std::string> names;
  for (const Instruction& inst : m_.instructions()) {
    if (inst.opcode != spv::OpEntryPoint) continue;
    if (m_.Word(inst, 1) != spv::ExecutionModelGLCompute) continue;
    SH_ASSIGN_OR_RETURN(KernelInfo kernel, ReflectKernel(inst, builtin));
    if (!names.insert(kernel.name).second) {
      return Invalid("two GLCompute entry points are named '", kernel.name, "'");
    }
    reflection.kernels.push_back(std::move(kernel));
  }
  return reflection;
}

absl::Status Reflector::CollectDebugAndAnnotations() {
  for (const Instruction& inst : m_.instructions()) {
    // Classification guarantees word 1 exists for all the opcodes below
    // except where noted.
    switch (inst.opcode) {
      case spv::OpName: {
        SH_ASSIGN_OR_RETURN(auto name, m_.String(inst, 2));
        names_.emplace(m_.Word(inst, 1), std::move(name.first));
        break;
      }
      case spv::OpMemberDecorateString: {
        // UserSemantic strings of streamhal_globals members (the PTX
        // translator's initialisers, docs/kernel-abi.md); others are ignored.
        if (inst.word_count < 5 || m_.Word(inst, 3) != spv::DecorationUserSemantic) break;
        SH_ASSIGN_OR_RETURN(auto text, m_.String(inst, 4));
        member_semantics_.emplace(std::make_pair(m_.Word(inst, 1), m_.Word(inst, 2)),
                                  std::move(text.first));
        break;
      }
      case spv::OpMemberName: {
        if (inst.word_count < 4) return Invalid("OpMemberName at word ", inst.offset, " is short");
        SH_ASSIGN_OR_RETURN(auto name, m_.String(inst, 3));
        member_names_.emplace(std::make_pair(m_.Word(inst, 1), m_.Word(inst, 2)),
                              std::move(name.first));
        break;
      }
      case spv::OpExtInstImport: {
        SH_ASSIGN_OR_RETURN(auto name, m_.String(inst, 2));
        if (absl::StartsWith(name.first, "NonSemantic.")) non_semantic_sets_.insert(inst.result_id);
        break;
      }
      case spv::OpExecutionMode:
      case spv::OpExecutionModeId:
        if (inst.word_count < 3) {
          return Invalid("execution mode at word ", inst.offset, " is short");
        }
        execution_modes_[m_.Word(inst, 1)].push_back(&inst);
        break;
      case spv::OpDecorate: {
        if (inst.word_count < 3) return Invalid("OpDecorate at word ", inst.offset, " is short");
        const uint32_t target = m_.Word(inst, 1);
        const uint32_t decoration = m_.Word(inst, 2);
        auto arg = [&]() -> absl::StatusOr<uint32_t> {
          if (inst.word_count < 4) {
            return Invalid("decoration ", decoration, " at word ", inst.offset, " has no value");
          }
          return m_.Word(inst, 3);
        };
        switch (decoration) {
          case spv::DecorationSpecId: {
            SH_ASSIGN_OR_RETURN(spec_ids_[target], arg());
            break;
          }
          case spv::DecorationBuiltIn: {
            SH_ASSIGN_OR_RETURN(builtins_[target], arg());
            break;
          }
          case spv::DecorationArrayStride: {
            SH_ASSIGN_OR_RETURN(array_strides_[target], arg());
            break;
          }
          case spv::DecorationDescriptorSet: {
            SH_ASSIGN_OR_RETURN(descriptor_sets_[target], arg());
            break;
          }
          case spv::DecorationBinding: {
            SH_ASSIGN_OR_RETURN(bindings_[target], arg());
            break;
          }
          case spv::DecorationBlock:
            blocks_.insert(target);
            break;
          case spv::DecorationBufferBlock:
            buffer_blocks_.insert(target);
            break;
          default:
            break;
        }
        break;
      }
      case spv::OpMemberDecorate: {
        if (inst.word_count < 4) {
          return Invalid("OpMemberDecorate at word ", inst.offset, " is short");
        }
        const uint32_t decoration = m_.Word(inst, 3);
        auto key = std::make_pair(m_.Word(inst, 1), m_.Word(inst, 2));
        auto arg = [&]() -> absl::StatusOr<uint32_t> {
          if (inst.word_count < 5) {
            return Invalid("member decoration ", decoration, " at word ", inst.offset,
                           " has no value");
          }
          return m_.Word(inst, 4);
        };
        switch (decoration) {
          case spv::DecorationOffset: {
            SH_ASSIGN_OR_RETURN(member_decorations_[key].offset, arg());
            break;
          }
          case spv::DecorationMatrixStride: {
            SH_ASSIGN_OR_RETURN(member_decorations_[key].matrix_stride, arg());
            break;
          }
          case spv::DecorationRowMajor:
            member_decorations_[key].row_major = true;
            break;
          case spv::DecorationColMajor:
            member_decorations_[key].row_major = false;
            break;
          default:
            break;
        }
        break;
      }
      default:
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status Reflector::BuildTypesAndConstants() {
  // Module-scope declarations may only use types and constants declared
  // before them (forward pointers aside), so one pass in order sees every
  // operand already computed and never recurses.
  for (const Instruction& inst : m_.instructions()) {
    if (inst.function >= 0) break;  // functions come after all declarations
    switch (inst.opcode) {
      case spv::OpTypeVoid:
      case spv::OpTypeBool:
      case spv::OpTypeInt:
      case spv::OpTypeFloat:
      case spv::OpTypeVector:
      case spv::OpTypeMatrix:
      case spv::OpTypeArray:
      case spv::OpTypeRuntimeArray:
      case spv::OpTypeStruct:
      case spv::OpTypePointer:
      case spv::OpTypeForwardPointer:
      case spv::OpTypeImage:
      case spv::OpTypeSampledImage:
      case spv::OpTypeSampler:
        SH_RETURN_IF_ERROR(AddType(inst));
        break;
      case spv::OpConstant:
      case spv::OpSpecConstant:
      case spv::OpConstantTrue:
      case spv::OpConstantFalse:
      case spv::OpSpecConstantTrue:
      case spv::OpSpecConstantFalse:
      case spv::OpConstantNull:
      case spv::OpSpecConstantOp:
        constants_[inst.result_id] = EvaluateConstant(inst);
        break;
      default:
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status Reflector::AddType(const Instruction& inst) {
  if (inst.opcode == spv::OpTypeForwardPointer) {
    // The pointer is used before its OpTypePointer; its size is known from
    // the storage class alone.
    if (inst.word_count < 3) {
      return Invalid("OpTypeForwardPointer at word ", inst.offset, " is short");
    }
    const uint32_t id = m_.Word(inst, 1);
    if (types_.contains(id)) return Invalid("forward pointer ", id, " declared after its type");
    TypeInfo type;
    type.kind = TypeKind::kPointer;
    type.id = id;
    type.storage_class = m_.Word(inst, 2);
    if (type.storage_class == spv::StorageClassPhysicalStorageBuffer) {
      type.natural = Layout{true, 8, 8, {}};
      type.extent = Layout{true, 8, 8, {}};
    } else {
      type.natural.error = type.extent.error = "a logical pointer has no size";
    }
    types_.emplace(id, std::move(type));
    return absl::OkStatus();
  }

  TypeInfo type;
  type.id = inst.result_id;
  // An operand type must already be known: this also rules out cycles.
  auto operand_type = [&](uint32_t word) -> absl::StatusOr<const TypeInfo*> {
    const uint32_t id = m_.Word(inst, word);
    const TypeInfo* t = Type(id);
    if (t == nullptr) {
      return Invalid("type ", inst.result_id, " uses ", id,
                     ", which is not a type declared before it");
    }
    return t;
  };
  auto need_words = [&](uint32_t count) -> absl::Status {
    if (inst.word_count < count) return Invalid("type at word ", inst.offset, " is short");
    return absl::OkStatus();
  };

  switch (inst.opcode) {
    case spv::OpTypeVoid:
      type.natural.error = type.extent.error = "void has no size";
      break;
    case spv::OpTypeImage:
    case spv::OpTypeSampledImage:
    case spv::OpTypeSampler:
      // Opaque: only UniformConstant variables (textures and surfaces)
      // hold them, and arrays of those, which reflection refuses by name.
      type.natural.error = type.extent.error = "an image or sampler has no size";
      break;
    case spv::OpTypeBool:
      type.kind = TypeKind::kBool;
      // Vulkan gives bool no memory representation in blocks; in Workgroup
      // memory it is an opaque 4-byte value on every implementation we target.
      type.natural = Layout{true, 4, 4, {}};
      type.extent.error = "bool has no size in an explicitly laid out block";
      break;
    case spv::OpTypeInt:
    case spv::OpTypeFloat: {
      SH_RETURN_IF_ERROR(need_words(3));
      type.kind = inst.opcode == spv::OpTypeInt ? TypeKind::kInt : TypeKind::kFloat;
      type.bits = m_.Word(inst, 2);
      type.is_signed =
          inst.opcode == spv::OpTypeInt && inst.word_count >= 4 && m_.Word(inst, 3) != 0;
      if (type.bits == 8 || type.bits == 16 || type.bits == 32 || type.bits == 64) {
        const uint64_t bytes = type.bits / 8;
        type.natural = Layout{true, bytes, bytes, {}};
        type.extent = type.natural;
      } else {
        type.natural.error = type.extent.error =
            absl::StrCat(type.bits, "-bit scalars are not supported");
      }
      break;
    }
    case spv::OpTypeVector:
    case spv::OpTypeMatrix: {
      SH_RETURN_IF_ERROR(need_words(4));
      SH_ASSIGN_OR_RETURN(const TypeInfo* element, operand_type(2));
      type.kind = inst.opcode == spv::OpTypeVector ? TypeKind::kVector : TypeKind::kMatrix;
      type.element = element->id;
      type.count = m_.Word(inst, 3);
      if (type.count < 2 || type.count > 16) {
        return Invalid("type ", inst.result_id, " has ", type.count, " components");
      }
      if (type.kind == TypeKind::kVector) {
        if (element->kind != TypeKind::kInt && element->kind != TypeKind::kFloat &&
            element->kind != TypeKind::kBool) {
          return Invalid("vector ", inst.result_id, " of a non-scalar type");
        }
        if (element->natural.ok) {
          const uint64_t component = element->natural.size;
          type.natural = Layout{
              true, component * type.count, component * (type.count == 3 ? 4 : type.count), {}};
        } else {
          type.natural.error = element->natural.error;
        }
        if (element->extent.ok) {
          type.extent = Layout{true, element->extent.size * type.count, 1, {}};
        } else {
          type.extent.error = element->extent.error;
        }
      } else {
        if (element->kind != TypeKind::kVector) {
          return Invalid("matrix ", inst.result_id, " has non-vector columns");
        }
        if (element->natural.ok) {
          const uint64_t stride = RoundUp(element->natural.size, element->natural.align);
          type.natural = Layout{true, stride * type.count, element->natural.align, {}};
        } else {
          type.natural.error = element->natural.error;
        }
        // The extent depends on the MatrixStride of the member holding it.
        type.extent.error = "matrix outside a block member";
      }
      break;
    }
    case spv::OpTypeArray: {
      SH_RETURN_IF_ERROR(need_words(4));
      SH_ASSIGN_OR_RETURN(const TypeInfo* element, operand_type(2));
      type.kind = TypeKind::kArray;
      type.element = element->id;
      type.dynamic = element->dynamic;
      const uint32_t length_id = m_.Word(inst, 3);
      auto it = constants_.find(length_id);
      std::string length_error;
      if (it == constants_.end() || !it->second.ok || it->second.is_bool) {
        length_error = absl::StrCat("array ", inst.result_id,
                                    " has a length that is not an evaluable integer constant");
      } else if (it->second.value == 0 || it->second.value > kMaxSize) {
        length_error = absl::StrCat("array ", inst.result_id, " has length ", it->second.value);
      } else {
        type.length = it->second.value;
        if (it->second.spec_deps & (1u << 3)) type.dynamic = true;
      }
      if (!length_error.empty()) {
        type.natural.error = length_error;
      } else if (element->natural.ok) {
        const uint64_t stride = RoundUp(element->natural.size, element->natural.align);
        if (stride * type.length > kMaxSize) {
          type.natural.error = absl::StrCat("array ", inst.result_id, " is too large");
        } else {
          type.natural = Layout{true, stride * type.length, element->natural.align, {}};
        }
      } else {
        type.natural.error = element->natural.error;
      }
      type.extent.error = length_error.empty() ? "array outside a block member" : length_error;
      break;
    }
    case spv::OpTypeRuntimeArray: {
      SH_RETURN_IF_ERROR(need_words(3));
      SH_ASSIGN_OR_RETURN(const TypeInfo* element, operand_type(2));
      type.kind = TypeKind::kRuntimeArray;
      type.element = element->id;
      type.natural.error = type.extent.error = "runtime arrays have no fixed size";
      break;
    }
    case spv::OpTypeStruct: {
      type.kind = TypeKind::kStruct;
      for (uint32_t i = 2; i < inst.word_count; ++i) {
        SH_ASSIGN_OR_RETURN(const TypeInfo* member, operand_type(i));
        type.members.push_back(member->id);
        type.dynamic = type.dynamic || member->dynamic;
      }
      type.natural = NaturalLayout(type);
      type.extent = StructExtent(type);
      break;
    }
    case spv::OpTypePointer: {
      SH_RETURN_IF_ERROR(need_words(4));
      type.kind = TypeKind::kPointer;
      type.storage_class = m_.Word(inst, 2);
      type.element = m_.Word(inst, 3);
      if (auto forward = types_.find(inst.result_id); forward != types_.end()) {
        if (forward->second.kind != TypeKind::kPointer || forward->second.element != 0 ||
            forward->second.storage_class != type.storage_class) {
          return Invalid("pointer ", inst.result_id, " does not match its forward declaration");
        }
        forward->second.element = type.element;
        return absl::OkStatus();
      }
      if (type.storage_class == spv::StorageClassPhysicalStorageBuffer) {
        type.natural = Layout{true, 8, 8, {}};
        type.extent = type.natural;
      } else {
        type.natural.error = type.extent.error = "a logical pointer has no size";
      }
      break;
    }
    default:
      return absl::OkStatus();
  }
  if (!types_.emplace(type.id, std::move(type)).second) {
    return Invalid("type ", inst.result_id, " declared twice");
  }
  return absl::OkStatus();
}

Layout Reflector::NaturalLayout(const TypeInfo& type) {
  Layout layout{true, 0, 1, {}};
  for (uint32_t member_id : type.members) {
    const TypeInfo* member = Type(member_id);
    if (!member->natural.ok) return Layout{false, 0, 1, member->natural.error};
    layout.size = RoundUp(layout.size, member->natural.align) + member->natural.size;
    layout.align = std::max(layout.align, member->natural.align);
    if (layout.size > kMaxSize) return Layout{false, 0, 1, "struct is too large"};
  }
  layout.size = RoundUp(layout.size, layout.align);
  return layout;
}

Layout Reflector::StructExtent(const TypeInfo& type) {
  Layout layout{true, 0, 1, {}};
  for (uint32_t i = 0; i < type.members.size(); ++i) {
    const MemberDecorations* member = Member(type.id, i);
    if (member == nullptr || !member->offset.has_value()) {
      return Layout{false, 0, 1,
                    absl::StrCat("member ", i, " of struct ", NameOf(type.id), " has no Offset")};
    }
    auto extent = Extent(type.members[i], member);
    if (!extent.ok()) return Layout{false, 0, 1, std::string(extent.status().message())};
    layout.size = std::max(layout.size, *member->offset + *extent);
  }
  if (layout.size > kMaxSize) return Layout{false, 0, 1, "struct is too large"};
  return layout;
}

absl::StatusOr<uint64_t> Reflector::Extent(uint32_t type_id, const MemberDecorations* member) {
  // extent(array of n) = stride * (n - 1) + extent(element): peel arrays in
  // a loop so deeply nested arrays cannot exhaust the stack.
  uint64_t total = 0;
  const TypeInfo* type = Type(type_id);
  while (type != nullptr && type->kind == TypeKind::kArray) {
    if (type->length == 0) return Invalid(type->extent.error);
    auto stride = array_strides_.find(type->id);
    if (stride == array_strides_.end()) {
      return Invalid("array ", type->id, " in an explicitly laid out block has no ArrayStride");
    }
    total += uint64_t{stride->second} * (type->length - 1);
    if (total > kMaxSize) return Invalid("array ", type->id, " is too large");
    type = Type(type->element);
  }
  if (type == nullptr) return Invalid("unknown type ", type_id);
  if (type->kind == TypeKind::kMatrix) {
    if (member == nullptr || !member->matrix_stride.has_value()) {
      return Invalid("matrix member of type ", type_id, " has no MatrixStride");
    }
    const TypeInfo* column = Type(type->element);
    const TypeInfo* scalar = Type(column->element);
    if (!scalar->extent.ok) return Invalid(scalar->extent.error);
    const uint64_t vectors = member->row_major ? column->count : type->count;
    const uint64_t vector_extent =
        (member->row_major ? type->count : column->count) * scalar->extent.size;
    total += uint64_t{*member->matrix_stride} * (vectors - 1) + vector_extent;
  } else {
    if (!type->extent.ok) return Invalid(type->extent.error);
    total += type->extent.size;
  }
  if (total > kMaxSize) return Invalid("type ", type_id, " is too large");
  return total;
}

ConstValue Reflector::EvaluateConstant(const Instruction& inst) {
  ConstValue result;
  const TypeInfo* type = Type(inst.type_id);
  if (type == nullptr) return result;
  if (type->kind == TypeKind::kBool) {
    result.is_bool = true;
    result.width = 1;
  } else if (type->kind == TypeKind::kInt && type->natural.ok) {
    result.width = type->bits;
  } else {
    return result;  // floats and composites are never sizes
  }
  auto spec_bit = [&]() -> uint8_t {
    auto it = spec_ids_.find(inst.result_id);
    return (it != spec_ids_.end() && it->second <= 3) ? static_cast<uint8_t>(1u << it->second) : 0;
  };
  switch (inst.opcode) {
    case spv::OpConstant:
    case spv::OpSpecConstant: {
      if (result.is_bool) return ConstValue{};
      const uint32_t words = result.width > 32 ? 2 : 1;
      if (inst.word_count != 3 + words) return ConstValue{};
      result.value = m_.Word(inst, 3);
      if (words == 2) result.value |= uint64_t{m_.Word(inst, 4)} << 32;
      result.value &= Mask(result.width);
      result.ok = true;
      if (inst.opcode == spv::OpSpecConstant) result.spec_deps = spec_bit();
      return result;
    }
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpSpecConstantTrue:
    case spv::OpSpecConstantFalse:
      if (!result.is_bool) return ConstValue{};
      result.ok = true;
      result.value = (inst.opcode == spv::OpConstantTrue || inst.opcode == spv::OpSpecConstantTrue);
      if (inst.opcode == spv::OpSpecConstantTrue || inst.opcode == spv::OpSpecConstantFalse) {
        result.spec_deps = spec_bit();
      }
      return result;
    case spv::OpConstantNull:
      result.ok = true;
      return result;
    case spv::OpSpecConstantOp:
      return EvaluateSpecOp(inst, result.width, result.is_bool);
    default:
      return ConstValue{};
  }
}

ConstValue Reflector::EvaluateSpecOp(const Instruction& inst, uint32_t width, bool result_is_bool) {
  // Integer and boolean operations a size computation may use; anything
  // else is left unevaluated (an error only if it ends up as a size).
  std::array<ConstValue, 3> args;
  const uint32_t arg_count = inst.word_count > 4 ? inst.word_count - 4 : 0;
  if (arg_count == 0 || arg_count > 3) return ConstValue{};
  ConstValue result;
  result.width = width;
  result.is_bool = result_is_bool;
  for (uint32_t i = 0; i < arg_count; ++i) {
    auto it = constants_.find(m_.Word(inst, 4 + i));
    if (it == constants_.end() || !it->second.ok) return ConstValue{};
    args[i] = it->second;
    result.spec_deps |= it->second.spec_deps;
  }
  const uint32_t op = m_.Word(inst, 3);
  auto u = [&](int i) { return args[i].value; };
  auto s = [&](int i) { return SignExtend(args[i].value, args[i].width); };
  auto binary = [&]() { return arg_count == 2 && !args[0].is_bool && !args[1].is_bool; };
  auto unary = [&]() { return arg_count == 1 && !args[0].is_bool; };
  auto logical2 = [&]() { return arg_count == 2 && args[0].is_bool && args[1].is_bool; };
  uint64_t value = 0;
  switch (op) {
    case spv::OpIAdd:
      if (!binary()) return {};
      value = u(0) + u(1);
      break;
    case spv::OpISub:
      if (!binary()) return {};
      value = u(0) - u(1);
      break;
    case spv::OpIMul:
      if (!binary()) return {};
      value = u(0) * u(1);
      break;
    case spv::OpUDiv:
      if (!binary() || u(1) == 0) return {};
      value = u(0) / u(1);
      break;
    case spv::OpUMod:
      if (!binary() || u(1) == 0) return {};
      value = u(0) % u(1);
      break;
    case spv::OpSDiv:
    case spv::OpSRem:
    case spv::OpSMod: {
      if (!binary() || s(1) == 0) return {};
      if (s(0) == std::numeric_limits<int64_t>::min() && s(1) == -1) return {};
      const int64_t a = s(0);
      const int64_t b = s(1);
      int64_t r = op == spv::OpSDiv ? a / b : a % b;
      if (op == spv::OpSMod && r != 0 && ((r < 0) != (b < 0))) r += b;
      value = static_cast<uint64_t>(r);
      break;
    }
    case spv::OpSNegate:
      if (!unary()) return {};
      value = uint64_t{0} - u(0);
      break;
    case spv::OpNot:
      if (!unary()) return {};
      value = ~u(0);
      break;
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic: {
      if (!binary() || u(1) >= args[0].width) return {};
      const uint32_t shift = static_cast<uint32_t>(u(1));
      if (op == spv::OpShiftLeftLogical) {
        value = u(0) << shift;
      } else if (op == spv::OpShiftRightLogical) {
        value = u(0) >> shift;
      } else {
        value = static_cast<uint64_t>(s(0) >> shift);
      }
      break;
    }
    case spv::OpBitwiseOr:
      if (!binary()) return {};
      value = u(0) | u(1);
      break;
    case spv::OpBitwiseXor:
      if (!binary()) return {};
      value = u(0) ^ u(1);
      break;
    case spv::OpBitwiseAnd:
      if (!binary()) return {};
      value = u(0) & u(1);
      break;
    case spv::OpUConvert:
      if (!unary()) return {};
      value = u(0);
      break;
    case spv::OpSConvert:
      if (!unary()) return {};
      value = static_cast<uint64_t>(s(0));
      break;
    case spv::OpIEqual:
      if (!binary()) return {};
      value = u(0) == u(1);
      break;
    case spv::OpINotEqual:
      if (!binary()) return {};
      value = u(0) != u(1);
      break;
    case spv::OpULessThan:
      if (!binary()) return {};
      value = u(0) < u(1);
      break;
    case spv::OpULessThanEqual:
      if (!binary()) return {};
      value = u(0) <= u(1);
      break;
    case spv::OpUGreaterThan:
      if (!binary()) return {};
      value = u(0) > u(1);
      break;
    case spv::OpUGreaterThanEqual:
      if (!binary()) return {};
      value = u(0) >= u(1);
      break;
    case spv::OpSLessThan:
      if (!binary()) return {};
      value = s(0) < s(1);
      break;
    case spv::OpSLessThanEqual:
      if (!binary()) return {};
      value = s(0) <= s(1);
      break;
    case spv::OpSGreaterThan:
      if (!binary()) return {};
      value = s(0) > s(1);
      break;
    case spv::OpSGreaterThanEqual:
      if (!binary()) return {};
      value = s(0) >= s(1);
      break;
    case spv::OpLogicalAnd:
      if (!logical2()) return {};
      value = u(0) && u(1);
      break;
    case spv::OpLogicalOr:
      if (!logical2()) return {};
      value = u(0) || u(1);
      break;
    case spv::OpLogicalEqual:
      if (!logical2()) return {};
      value = u(0) == u(1);
      break;
    case spv::OpLogicalNotEqual:
      if (!logical2()) return {};
      value = u(0) != u(1);
      break;
    case spv::OpLogicalNot:
      if (arg_count != 1 || !args[0].is_bool) return {};
      value = !u(0);
      break;
    case spv::OpSelect:
      if (arg_count != 3 || !args[0].is_bool) return {};
      value = u(0) ? u(1) : u(2);
      break;
    default:
      return {};
  }
  result.value = value & Mask(width);
  result.ok = true;
  return result;
}

absl::Status Reflector::CheckReservedSpecIds() {
  // The runtime writes 32-bit values into SpecId 0..5 (4 and 5: the grid
  // barrier of a cooperative launch), so they must be 32-bit integer spec
  // constants.
  for (const auto& [id, spec_id] : spec_ids_) {
    if (spec_id > 5) continue;
    const Instruction* def = m_.Def(id);
    const TypeInfo* type = def != nullptr ? Type(def->type_id) : nullptr;
    if (def == nullptr || def->opcode != spv::OpSpecConstant || type == nullptr ||
        type->kind != TypeKind::kInt || type->bits != 32) {
      return Invalid("SpecId ", spec_id, " (on ", NameOf(id),
                     ") is reserved by the kernel ABI for ",
                     spec_id >= 4   ? "the grid barrier's address"
                     : spec_id == 3 ? "the dynamic shared memory size"
                                    : "the block size",
                     " and must be a 32-bit integer OpSpecConstant");
    }
    auto value = constants_.find(id);
    if (spec_id > 3) continue;
    if (value != constants_.end() && value->second.ok && !reserved_spec_defaults_[spec_id]) {
      reserved_spec_defaults_[spec_id] = static_cast<uint32_t>(value->second.value);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Dim> Reflector::ClassifyDim(uint32_t id, int dim) {
  static constexpr const char* kAxis[] = {"x", "y", "z"};
  const Instruction* def = m_.Def(id);
  auto value = constants_.find(id);
  if (def == nullptr || value == constants_.end() || !value->second.ok || value->second.is_bool ||
      value->second.width != 32) {
    return Invalid("block size ", kAxis[dim], " is not a 32-bit integer constant");
  }
  const ConstValue& v = value->second;
  if (v.value == 0) return Invalid("block size ", kAxis[dim], " is 0");
  Dim result;
  result.value = static_cast<uint32_t>(v.value);
  if (def->opcode == spv::OpSpecConstant) {
    auto spec = spec_ids_.find(id);
    if (spec != spec_ids_.end() && spec->second <= 3) {
      if (spec->second != static_cast<uint32_t>(dim)) {
        return Invalid("block size ", kAxis[dim], " uses SpecId ", spec->second,
                       "; the kernel ABI reserves SpecId 0, 1, 2 for x, y, z and 3 for dynamic "
                       "shared memory");
      }
      result.from_spec = true;
    }
  } else if (v.spec_deps != 0) {
    // The runtime sets the reserved SpecIds directly; a size computed from
    // them could not be honoured.
    return Invalid("block size ", kAxis[dim],
                   " is computed from a reserved spec constant (SpecId 0..3)");
  }
  return result;
}

absl::StatusOr<std::optional<Dims>> Reflector::BuiltinWorkgroupSize() {
  // SPIR-V: an object decorated WorkgroupSize overrides LocalSize and
  // LocalSizeId for every entry point of the module.
  std::optional<Dims> result;
  std::vector<std::pair<uint32_t, uint32_t>> sorted(builtins_.begin(), builtins_.end());
  std::sort(sorted.begin(), sorted.end());
  for (const auto& [id, builtin] : sorted) {
    if (builtin != spv::BuiltInWorkgroupSize) continue;
    const Instruction* def = m_.Def(id);
    if (def == nullptr) return Invalid("WorkgroupSize decorates undefined id ", id);
    // Old modules may decorate an Input variable; only a constant gives a size.
    if (def->opcode != spv::OpConstantComposite && def->opcode != spv::OpSpecConstantComposite) {
      continue;
    }
    if (def->word_count != 6) return Invalid("WorkgroupSize constant ", id, " is not a 3-vector");
    Dims dims;
    for (int i = 0; i < 3; ++i) {
      SH_ASSIGN_OR_RETURN(dims[i], ClassifyDim(m_.Word(*def, 3 + i), i));
    }
    if (result.has_value() && *result != dims) {
      return Invalid(
          "the module has several WorkgroupSize built-ins with different sizes; the "
          "built-in applies to every entry point, so block sizes are ambiguous (use "
          "spec constants SpecId 0, 1, 2 in every kernel of a multi-kernel module)");
    }
    result = dims;
  }
  return result;
}

absl::StatusOr<Dims> Reflector::KernelDims(uint32_t function_id, const std::optional<Dims>& builtin,
                                           const std::string& name) {
  if (builtin.has_value()) return *builtin;
  const Instruction* local_size = nullptr;
  const Instruction* local_size_id = nullptr;
  if (auto it = execution_modes_.find(function_id); it != execution_modes_.end()) {
    for (const Instruction* mode : it->second) {
      const uint32_t kind = m_.Word(*mode, 2);
      if (mode->opcode == spv::OpExecutionMode && kind == spv::ExecutionModeLocalSize) {
        local_size = mode;
      }
      if (mode->opcode == spv::OpExecutionModeId && kind == spv::ExecutionModeLocalSizeId) {
        local_size_id = mode;
      }
    }
  }
  Dims dims;
  if (local_size_id != nullptr) {
    if (local_size_id->word_count != 6) return Invalid("LocalSizeId of '", name, "' is malformed");
    for (int i = 0; i < 3; ++i) {
      SH_ASSIGN_OR_RETURN(dims[i], ClassifyDim(m_.Word(*local_size_id, 3 + i), i));
    }
    return dims;
  }
  if (local_size != nullptr) {
    if (local_size->word_count != 6) return Invalid("LocalSize of '", name, "' is malformed");
    for (int i = 0; i < 3; ++i) {
      dims[i].value = m_.Word(*local_size, 3 + i);
      if (dims[i].value == 0) return Invalid("LocalSize of '", name, "' has a 0 dimension");
    }
    return dims;
  }
  return Invalid("kernel '", name, "' declares no workgroup size");
}

absl::flat_hash_set<uint32_t> Reflector::StaticUses(uint32_t function_id,
                                                    absl::Span<const uint32_t> interface_words) {
  // Ids reachable from the entry point through calls and operands; function
  // bodies are walked whole, so only module-scope ids and functions are
  // queued. Non-semantic instructions (debug info) do not make anything used.
  absl::flat_hash_set<uint32_t> seen;
  std::vector<uint32_t> stack;
  const absl::Span<const uint32_t> words = m_.words();
  auto visit = [&](uint32_t id) {
    const Instruction* def = m_.Def(id);
    if (def == nullptr || (def->function >= 0 && def->opcode != spv::OpFunction)) return;
    if (seen.insert(id).second) stack.push_back(id);
  };
  auto visit_operands = [&](const Instruction& inst) {
    if (inst.opcode == spv::OpExtInst && non_semantic_sets_.contains(m_.Word(inst, 3))) return;
    for (uint32_t word : m_.IdOperandWords(inst)) visit(words[word]);
  };
  visit(function_id);
  for (uint32_t word : interface_words) visit(word);
  while (!stack.empty()) {
    const uint32_t id = stack.back();
    stack.pop_back();
    const Instruction* def = m_.Def(id);
    if (def->opcode == spv::OpFunction) {
      const spirv_detail::Function& function = m_.functions()[def->function];
      for (uint32_t i = function.first_instruction; i < function.end_instruction; ++i) {
        visit_operands(m_.instructions()[i]);
      }
    } else {
      visit_operands(*def);
    }
  }
  return seen;
}

absl::StatusOr<KernelInfo> Reflector::ReflectKernel(const Instruction& entry_point,
                                                    const std::optional<Dims>& builtin) {
  KernelInfo kernel;
  SH_ASSIGN_OR_RETURN(auto name, m_.String(entry_point, 3));
  kernel.name = std::move(name.first);
  const uint32_t function_id = m_.Word(entry_point, 2);
  const Instruction* function = m_.Def(function_id);
  if (function == nullptr || function->opcode != spv::OpFunction) {
    return Invalid("entry point '", kernel.name, "' does not name a function");
  }

  SH_ASSIGN_OR_RETURN(Dims dims, KernelDims(function_id, builtin, kernel.name));
  kernel.block_size_from_spec = true;
  for (int i = 0; i < 3; ++i) {
    kernel.block_dim_from_spec[i] = dims[i].from_spec;
    kernel.literal_block_size[i] = dims[i].value;
    kernel.block_size_from_spec = kernel.block_size_from_spec && dims[i].from_spec;
    kernel.spec_block_size_defaults[i] =
        dims[i].from_spec ? dims[i].value : reserved_spec_defaults_[i].value_or(0);
  }

  // Interface ids follow the name. From SPIR-V 1.4 the interface lists every
  // global variable the kernel uses, and compilers may list more (glslang
  // lists all of them): what the interface lists counts as used, as it may
  // for the driver and the validation layers. Before 1.4 it lists only
  // Input/Output, so every Workgroup variable of the module counts.
  std::vector<uint32_t> interface_ids;
  for (uint32_t i = name.second; i < entry_point.word_count; ++i) {
    interface_ids.push_back(m_.Word(entry_point, i));
  }
  if (m_.version() < 0x00010400) {
    for (const Instruction& inst : m_.instructions()) {
      if (inst.function >= 0) break;
      if (inst.opcode == spv::OpVariable && m_.Word(inst, 3) == spv::StorageClassWorkgroup) {
        interface_ids.push_back(inst.result_id);
      }
    }
  }
  const absl::flat_hash_set<uint32_t> uses = StaticUses(function_id, interface_ids);

  std::vector<uint32_t> push_constants;
  std::vector<uint32_t> resources;
  uint64_t static_shared = 0;
  for (uint32_t id : uses) {
    const Instruction* def = m_.Def(id);
    auto spec = spec_ids_.find(id);
    if (spec != spec_ids_.end() && spec->second == 3) kernel.has_dynamic_shared_spec = true;
    if (def->opcode != spv::OpVariable) continue;
    const uint32_t storage_class = m_.Word(*def, 3);
    if (storage_class == spv::StorageClassPushConstant) push_constants.push_back(id);
    if (storage_class == spv::StorageClassUniformConstant) resources.push_back(id);
    if (storage_class == spv::StorageClassWorkgroup) {
      const TypeInfo* pointer = Type(def->type_id);
      const TypeInfo* pointee = pointer != nullptr ? Type(pointer->element) : nullptr;
      if (pointee == nullptr) return Invalid("shared variable ", NameOf(id), " has no type");
      if (pointee->dynamic) continue;  // sized by SpecId 3: dynamic shared memory
      if (!pointee->natural.ok) {
        return Invalid("shared variable ", NameOf(id), ": ", pointee->natural.error);
      }
      static_shared += pointee->natural.size;
      if (static_shared > kMaxSize) {
        return Invalid("kernel '", kernel.name, "' shared memory is too large");
      }
    }
  }
  kernel.static_shared_bytes = static_cast<uint32_t>(static_shared);
  kernel.uses_globals = globals_variable_ != 0 && uses.contains(globals_variable_);

  if (push_constants.size() > 1) {
    return Invalid("kernel '", kernel.name, "' uses ", push_constants.size(),
                   " push-constant blocks; Vulkan allows one");
  }
  if (push_constants.size() == 1) {
    SH_RETURN_IF_ERROR(ReflectParams(push_constants[0], kernel));
  }
  // In binding order, whatever order the uses were found in.
  std::sort(resources.begin(), resources.end());
  for (uint32_t variable : resources) SH_RETURN_IF_ERROR(ReflectResource(variable, kernel));
  std::sort(
      kernel.resources.begin(), kernel.resources.end(),
      [](const ResourceParamInfo& a, const ResourceParamInfo& b) { return a.binding < b.binding; });
  for (size_t i = 1; i < kernel.resources.size(); ++i) {
    if (kernel.resources[i].binding == kernel.resources[i - 1].binding) {
      return Invalid("kernel '", kernel.name, "' declares two textures or surfaces at binding ",
                     kernel.resources[i].binding);
    }
  }
  return kernel;
}

// The CUarray_format and channel count of a SPIR-V image format; {0, 0}
// for formats no CUDA array has.
std::pair<uint32_t, uint32_t> ArrayFormatOf(uint32_t format) {
  constexpr uint32_t kU8 = 0x01, kU16 = 0x02, kU32 = 0x03, kS8 = 0x08, kS16 = 0x09, kS32 = 0x0a,
                     kHalf = 0x10, kFloat = 0x20;
  switch (format) {
    case spv::ImageFormatRgba32f:
      return {kFloat, 4};
    case spv::ImageFormatRg32f:
      return {kFloat, 2};
    case spv::ImageFormatR32f:
      return {kFloat, 1};
    case spv::ImageFormatRgba16f:
      return {kHalf, 4};
    case spv::ImageFormatRg16f:
      return {kHalf, 2};
    case spv::ImageFormatR16f:
      return {kHalf, 1};
    case spv::ImageFormatRgba32i:
      return {kS32, 4};
    case spv::ImageFormatRg32i:
      return {kS32, 2};
    case spv::ImageFormatR32i:
      return {kS32, 1};
    case spv::ImageFormatRgba16i:
      return {kS16, 4};
    case spv::ImageFormatRg16i:
      return {kS16, 2};
    case spv::ImageFormatR16i:
      return {kS16, 1};
    case spv::ImageFormatRgba8i:
      return {kS8, 4};
    case spv::ImageFormatRg8i:
      return {kS8, 2};
    case spv::ImageFormatR8i:
      return {kS8, 1};
    case spv::ImageFormatRgba32ui:
      return {kU32, 4};
    case spv::ImageFormatRg32ui:
      return {kU32, 2};
    case spv::ImageFormatR32ui:
      return {kU32, 1};
    case spv::ImageFormatRgba16ui:
      return {kU16, 4};
    case spv::ImageFormatRg16ui:
      return {kU16, 2};
    case spv::ImageFormatR16ui:
      return {kU16, 1};
    case spv::ImageFormatRgba8ui:
      return {kU8, 4};
    case spv::ImageFormatRg8ui:
      return {kU8, 2};
    case spv::ImageFormatR8ui:
      return {kU8, 1};
    default:
      return {0, 0};
  }
}

absl::Status Reflector::ReflectResource(uint32_t variable, KernelInfo& kernel) {
  const Instruction* def = m_.Def(variable);
  auto unsupported = [&](auto... what) {
    return Error(ErrorCode::kNotSupported, "kernel '", kernel.name, "': ", NameOf(variable), " ",
                 what...);
  };
  const Instruction* pointer = m_.Def(def->type_id);
  const Instruction* type = pointer != nullptr && pointer->opcode == spv::OpTypePointer
                                ? m_.Def(m_.Word(*pointer, 3))
                                : nullptr;
  if (type == nullptr) return Invalid("resource variable ", NameOf(variable), " has no type");
  ResourceParamInfo resource;
  const Instruction* image = type;
  if (type->opcode == spv::OpTypeSampledImage) {
    resource.kind = ResourceKind::kSampledImage;
    image = m_.Def(m_.Word(*type, 2));
  } else if (type->opcode == spv::OpTypeImage) {
    resource.kind = ResourceKind::kStorageImage;
  } else {
    return unsupported(
        "is not a combined sampler and texture or a storage image; separate samplers and ",
        "arrays of textures are not supported");
  }
  if (image == nullptr || image->opcode != spv::OpTypeImage) {
    return Invalid("resource variable ", NameOf(variable), " has no image type");
  }
  const uint32_t dim = m_.Word(*image, 3);
  const bool depth = m_.Word(*image, 4) == 1;
  const bool arrayed = m_.Word(*image, 5) != 0;
  const bool multisampled = m_.Word(*image, 6) != 0;
  const uint32_t sampled = m_.Word(*image, 7);
  const uint32_t format = m_.Word(*image, 8);
  if (format != spv::ImageFormatUnknown) {
    resource.declares_format = true;
    const std::pair<uint32_t, uint32_t> array = ArrayFormatOf(format);
    resource.array_format = array.first;
    resource.channels = array.second;
  }
  if (resource.kind == ResourceKind::kSampledImage ? sampled == 2 : sampled != 2) {
    return unsupported("is an image that is neither sampled nor a storage image");
  }
  if (depth || multisampled) return unsupported("is a depth or multisampled image");
  switch (dim) {
    case spv::Dim1D:
      resource.dimension = arrayed ? ViewDimension::k1DArray : ViewDimension::k1D;
      break;
    case spv::Dim2D:
      resource.dimension = arrayed ? ViewDimension::k2DArray : ViewDimension::k2D;
      break;
    case spv::Dim3D:
      if (arrayed) return Invalid("resource variable ", NameOf(variable), " is a 3-D array");
      resource.dimension = ViewDimension::k3D;
      break;
    case spv::DimCube:
      if (resource.kind == ResourceKind::kStorageImage) {
        return unsupported("is a cube storage image");
      }
      resource.dimension = arrayed ? ViewDimension::kCubeArray : ViewDimension::kCube;
      break;
    case spv::DimBuffer:
      if (resource.kind == ResourceKind::kStorageImage) {
        return unsupported("is a storage texel buffer, which is not supported");
      }
      resource.kind = ResourceKind::kTexelBuffer;
      resource.dimension = ViewDimension::kBuffer;
      break;
    default:
      return unsupported("has a dimension (rectangle or subpass) that is not supported");
  }
  const Instruction* component = m_.Def(m_.Word(*image, 2));
  if (component != nullptr && component->opcode == spv::OpTypeInt) {
    resource.numeric = m_.Word(*component, 3) != 0 ? TexelNumeric::kSint : TexelNumeric::kUint;
  } else if (component == nullptr || component->opcode != spv::OpTypeFloat) {
    return Invalid("resource variable ", NameOf(variable), " has no numeric texel type");
  }
  auto set = descriptor_sets_.find(variable);
  auto binding = bindings_.find(variable);
  if (set == descriptor_sets_.end() || set->second != kResourceDescriptorSet ||
      binding == bindings_.end()) {
    return Invalid("texture or surface ", NameOf(variable), " of '", kernel.name,
                   "' must be decorated DescriptorSet 2 and a Binding (its parameter's index)");
  }
  resource.binding = binding->second;
  if (resource.binding >= kTextureRefBindingBase) {
    auto name = names_.find(variable);
    if (name == names_.end() || name->second.empty()) {
      return Invalid("texture or surface reference at binding ", resource.binding, " of '",
                     kernel.name, "' has no name (OpName): references are found by name");
    }
    resource.ref_name = name->second;
    kernel.resources.push_back(resource);
    return absl::OkStatus();
  }
  if (resource.binding >= kernel.params.size() ||
      kernel.params[resource.binding].kind != ParamKind::kScalar ||
      kernel.params[resource.binding].is_float ||
      kernel.params[resource.binding].scalar_bits != 64) {
    return Invalid("texture or surface ", NameOf(variable), " of '", kernel.name,
                   "' is at binding ", resource.binding, ", but parameter ", resource.binding,
                   " is not a 64-bit integer (the texture or surface object)");
  }
  kernel.resources.push_back(resource);
  return absl::OkStatus();
}

absl::Status Reflector::ReflectParams(uint32_t variable, KernelInfo& kernel) {
  const Instruction* def = m_.Def(variable);
  const TypeInfo* pointer = Type(def->type_id);
  const TypeInfo* block = pointer != nullptr ? Type(pointer->element) : nullptr;
  if (block == nullptr || block->kind != TypeKind::kStruct || !blocks_.contains(block->id)) {
    return Invalid("push constants of '", kernel.name, "' are not a Block-decorated struct");
  }
  uint64_t end = 0;
  for (uint32_t i = 0; i < block->members.size(); ++i) {
    const TypeInfo* type = Type(block->members[i]);
    ParamInfo param;
    param.name = MemberName(block->id, i);
    auto where = [&]() {
      return absl::StrCat("parameter ", i, param.name.empty() ? "" : " '", param.name,
                          param.name.empty() ? "" : "'", " of '", kernel.name, "'");
    };
    switch (type->kind) {
      case TypeKind::kInt:
      case TypeKind::kFloat:
        param.kind = ParamKind::kScalar;
        param.is_float = type->kind == TypeKind::kFloat;
        param.is_signed = type->is_signed;
        param.scalar_bits = type->bits;
        break;
      case TypeKind::kVector:
        param.kind = ParamKind::kVector;
        param.components = type->count;
        if (const TypeInfo* component = Type(type->element); component != nullptr) {
          param.is_float = component->kind == TypeKind::kFloat;
          param.is_signed = component->is_signed;
          param.scalar_bits = component->bits;
        }
        break;
      case TypeKind::kMatrix:
        param.kind = ParamKind::kMatrix;
        break;
      case TypeKind::kPointer:
        if (type->storage_class != spv::StorageClassPhysicalStorageBuffer) {
          return Invalid(where(), " is a pointer that is not PhysicalStorageBuffer");
        }
        param.kind = ParamKind::kPointer;
        break;
      case TypeKind::kStruct:
        param.kind = ParamKind::kStruct;
        break;
      case TypeKind::kArray:
        param.kind = ParamKind::kArray;
        break;
      case TypeKind::kBool:
        return Invalid(where(), " is a bool, which has no size in a push-constant block");
      case TypeKind::kRuntimeArray:
        return Invalid(where(), " is a runtime array, which push constants cannot hold");
      default:
        return Invalid(where(), " has a type without a size");
    }
    const MemberDecorations* member = Member(block->id, i);
    if (member == nullptr || !member->offset.has_value()) return Invalid(where(), " has no Offset");
    auto size = Extent(type->id, member);
    if (!size.ok()) return Invalid(where(), ": ", size.status().message());
    param.offset = *member->offset;
    param.size = static_cast<uint32_t>(*size);
    end = std::max(end, uint64_t{param.offset} + param.size);
    kernel.params.push_back(std::move(param));
  }
  if (end > kMaxSize) return Invalid("parameter block of '", kernel.name, "' is too large");
  kernel.param_block_size = static_cast<uint32_t>(end);
  return absl::OkStatus();
}

absl::Status Reflector::ReflectGlobals(ModuleReflection& reflection) {
  for (const Instruction& inst : m_.instructions()) {
    if (inst.function >= 0) break;
    if (inst.opcode != spv::OpVariable) continue;
    const TypeInfo* pointer = Type(inst.type_id);
    const TypeInfo* block = pointer != nullptr ? Type(pointer->element) : nullptr;
    if (block == nullptr || block->kind != TypeKind::kStruct) continue;
    auto name = names_.find(block->id);
    if (name == names_.end() || name->second != "streamhal_globals") continue;

    // A linker may merge structurally identical structs, so a push-constant
    // or Workgroup variable can share the named type: only buffers count.
    const uint32_t storage_class = m_.Word(inst, 3);
    if (storage_class != spv::StorageClassStorageBuffer &&
        storage_class != spv::StorageClassUniform) {
      continue;
    }
    if (globals_variable_ != 0) return Invalid("the module has two streamhal_globals blocks");
    const bool storage_buffer =
        (storage_class == spv::StorageClassStorageBuffer && blocks_.contains(block->id)) ||
        (storage_class == spv::StorageClassUniform && buffer_blocks_.contains(block->id));
    if (!storage_buffer) return Invalid("streamhal_globals is not a storage buffer block");
    auto set = descriptor_sets_.find(inst.result_id);
    auto binding = bindings_.find(inst.result_id);
    if (set == descriptor_sets_.end() || set->second != 0 || binding == bindings_.end() ||
        binding->second != 0) {
      return Invalid("streamhal_globals must be decorated DescriptorSet 0 Binding 0");
    }
    globals_variable_ = inst.result_id;
    GlobalsInfo globals;
    uint64_t end = 0;
    for (uint32_t i = 0; i < block->members.size(); ++i) {
      GlobalInfo global;
      global.name = MemberName(block->id, i);
      const MemberDecorations* member = Member(block->id, i);
      if (member == nullptr || !member->offset.has_value()) {
        return Invalid("global '", global.name, "' has no Offset");
      }
      auto size = Extent(block->members[i], member);
      if (!size.ok()) return Invalid("global '", global.name, "': ", size.status().message());
      global.offset = *member->offset;
      global.size = static_cast<uint32_t>(*size);
      auto semantic = member_semantics_.find(std::make_pair(block->id, i));
      if (semantic != member_semantics_.end()) {
        constexpr absl::string_view kInit = "streamhal.init:";
        const std::string& text = semantic->second;
        if (text == "streamhal.address") {
          if (global.size != 8) return Invalid("global '", global.name, "' holds no address");
          global.holds_address = true;
        } else if (absl::StartsWith(text, kInit)) {
          const absl::string_view hex = absl::string_view(text).substr(kInit.size());
          if (hex.size() % 2 != 0 || hex.size() / 2 > global.size) {
            return Invalid("global '", global.name, "' has a bad initialiser");
          }
          auto nibble = [](char c) -> int {
            if (c >= '0' && c <= '9') return c - '0';
            if (c >= 'a' && c <= 'f') return c - 'a' + 10;
            return -1;
          };
          for (size_t k = 0; k < hex.size(); k += 2) {
            const int hi = nibble(hex[k]), lo = nibble(hex[k + 1]);
            if (hi < 0 || lo < 0)
              return Invalid("global '", global.name, "' has a bad initialiser");
            global.init.push_back(static_cast<uint8_t>(hi << 4 | lo));
          }
        }
      }
      end = std::max(end, uint64_t{global.offset} + global.size);
      globals.members.push_back(std::move(global));
    }
    if (end > kMaxSize) return Invalid("streamhal_globals is too large");
    globals.block_size = static_cast<uint32_t>(end);
    reflection.globals = std::move(globals);
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view ParamKindName(ParamKind kind) {
  switch (kind) {
    case ParamKind::kScalar:
      return "scalar";
    case ParamKind::kVector:
      return "vector";
    case ParamKind::kMatrix:
      return "matrix";
    case ParamKind::kPointer:
      return "pointer";
    case ParamKind::kStruct:
      return "struct";
    case ParamKind::kArray:
      return "array";
  }
  return "unknown";
}

const KernelInfo* ModuleReflection::FindKernel(std::string_view name) const {
  for (const KernelInfo& kernel : kernels) {
    if (kernel.name == name) return &kernel;
  }
  return nullptr;
}

absl::StatusOr<ModuleReflection> ReflectSpirv(absl::Span<const uint32_t> words) {
  SH_ASSIGN_OR_RETURN(ParsedModule module, ParsedModule::Parse(words));
  // SPIR-V requires exactly one OpMemoryModel; a module without one (for
  // example a bare header) is not a module a driver may be given.
  int memory_models = 0;
  for (const auto& inst : module.instructions()) memory_models += inst.opcode == spv::OpMemoryModel;
  if (memory_models != 1) {
    return Error(ErrorCode::kInvalidImage, "SPIR-V module has ", memory_models,
                 " OpMemoryModel instructions; exactly one is required");
  }
  return Reflector(module).Run();
}

}  // namespace streamhal
