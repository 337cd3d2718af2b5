#include "vk_backend/grid_split.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <spirv/unified1/spirv.hpp>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/spirv_reflect.h"
#include "core/status.h"

namespace streamhal::vk {
namespace {

using spirv_detail::Instruction;
using spirv_detail::ParsedModule;
using Words = std::vector<uint32_t>;

constexpr uint32_t kSpirv14 = 0x00010400;

Words Make(spv::Op op, std::initializer_list<uint32_t> operands) {
  Words words;
  words.reserve(operands.size() + 1);
  words.push_back((static_cast<uint32_t>(operands.size() + 1) << 16) | op);
  words.insert(words.end(), operands.begin(), operands.end());
  return words;
}

void AppendOperand(Words& instruction, uint32_t word) {
  instruction.push_back(word);
  instruction[0] = (static_cast<uint32_t>(instruction.size()) << 16) | (instruction[0] & 0xFFFFu);
}

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

// Debug and annotation instructions may name the built-in variables.
bool IsDebugOrAnnotation(uint32_t opcode) {
  return opcode == spv::OpName || opcode == spv::OpDecorate || opcode == spv::OpDecorateId ||
         opcode == spv::OpDecorateString || opcode == spv::OpEntryPoint;
}

// Where in the grid info each built-in's words start.
enum class Position { kGroupId = 0, kGroupCount = 3, kGlobalId = 6 };

struct MemberDecorations {
  std::optional<uint32_t> offset;
  uint32_t matrix_stride = 0;
  bool row_major = false;
};

struct Layout {
  uint64_t size = 0;
  uint64_t align = 1;
  bool aggregate = false;  // struct, array or matrix: padded to its alignment
};

class Rewriter {
 public:
  explicit Rewriter(const ParsedModule& module) : module_(module) {}

  absl::StatusOr<GridSplitRewrite> Run(absl::string_view entry_point, uint32_t push_limit);

 private:
  uint32_t Word(const Instruction& inst, uint32_t i) const { return module_.Word(inst, i); }
  uint32_t Index(const Instruction& inst) const {
    return static_cast<uint32_t>(&inst - module_.instructions().data());
  }
  uint32_t NewId() { return bound_++; }

  absl::StatusOr<Layout> LayoutOf(uint32_t type, const MemberDecorations* member);
  // The existing OpTypePointer (storage, pointee), or a new one.
  uint32_t Pointer(spv::StorageClass storage, uint32_t pointee);
  uint32_t UintConstant(uint32_t value);

  const ParsedModule& module_;
  uint32_t bound_ = 0;
  uint32_t uint_type_ = 0;
  absl::flat_hash_map<uint64_t, uint32_t> pointers_;
  absl::flat_hash_map<uint32_t, uint32_t> constants_;
  absl::flat_hash_map<uint64_t, MemberDecorations> member_decorations_;  // struct << 32 | member
  absl::flat_hash_map<uint32_t, uint32_t> array_strides_;
  // Declarations added before the first function.
  std::vector<Words> new_globals_;
};

absl::StatusOr<Layout> Rewriter::LayoutOf(uint32_t type, const MemberDecorations* member) {
  const Instruction* def = module_.Def(type);
  if (def == nullptr) return Error(ErrorCode::kInvalidImage, "undefined type ", type);
  switch (def->opcode) {
    case spv::OpTypeInt:
    case spv::OpTypeFloat: {
      const uint64_t bytes = Word(*def, 2) / 8;
      return Layout{bytes, bytes, false};
    }
    case spv::OpTypePointer:
    case spv::OpTypeForwardPointer:
      return Layout{8, 8, false};
    case spv::OpTypeVector: {
      SH_ASSIGN_OR_RETURN(Layout component, LayoutOf(Word(*def, 2), nullptr));
      const uint64_t n = Word(*def, 3);
      return Layout{n * component.size, (n == 2 ? 2 : 4) * component.size, false};
    }
    case spv::OpTypeMatrix: {
      if (member == nullptr || member->matrix_stride == 0) break;
      const Instruction* column = module_.Def(Word(*def, 2));
      if (column == nullptr) break;
      SH_ASSIGN_OR_RETURN(Layout component, LayoutOf(Word(*column, 2), nullptr));
      const uint64_t rows = Word(*column, 3);
      const uint64_t columns = Word(*def, 3);
      const uint64_t vectors = member->row_major ? rows : columns;
      const uint64_t vector_length = member->row_major ? columns : rows;
      return Layout{member->matrix_stride * vectors, (vector_length == 2 ? 2 : 4) * component.size,
                    true};
    }
    case spv::OpTypeArray: {
      auto stride = array_strides_.find(type);
      const Instruction* length = module_.Def(Word(*def, 3));
      if (stride == array_strides_.end() || length == nullptr ||
          (length->opcode != spv::OpConstant && length->opcode != spv::OpSpecConstant)) {
        break;
      }
      SH_ASSIGN_OR_RETURN(Layout element, LayoutOf(Word(*def, 2), member));
      return Layout{uint64_t{stride->second} * Word(*length, 3), element.align, true};
    }
    case spv::OpTypeStruct: {
      Layout layout{0, 1, true};
      for (uint32_t i = 2; i < def->word_count; ++i) {
        auto decorations = member_decorations_.find((uint64_t{type} << 32) | (i - 2));
        if (decorations == member_decorations_.end() || !decorations->second.offset) {
          return Error(ErrorCode::kNotSupported, "a block member has no Offset");
        }
        SH_ASSIGN_OR_RETURN(Layout m, LayoutOf(Word(*def, i), &decorations->second));
        layout.size = std::max(layout.size, *decorations->second.offset + m.size);
        layout.align = std::max(layout.align, m.align);
      }
      layout.size = AlignUp(layout.size, layout.align);
      return layout;
    }
    default:
      break;
  }
  return Error(ErrorCode::kNotSupported, "the push-constant block has a member of a type (opcode ",
               def->opcode, ") whose layout is not handled");
}

uint32_t Rewriter::Pointer(spv::StorageClass storage, uint32_t pointee) {
  const uint64_t key = (uint64_t{static_cast<uint32_t>(storage)} << 32) | pointee;
  auto it = pointers_.find(key);
  if (it != pointers_.end()) return it->second;
  uint32_t id = 0;
  for (const Instruction& inst : module_.instructions()) {
    if (inst.opcode == spv::OpTypePointer && Word(inst, 2) == static_cast<uint32_t>(storage) &&
        Word(inst, 3) == pointee) {
      id = inst.result_id;
      break;
    }
  }
  if (id == 0) {
    id = NewId();
    new_globals_.push_back(Make(spv::OpTypePointer, {id, static_cast<uint32_t>(storage), pointee}));
  }
  pointers_.emplace(key, id);
  return id;
}

uint32_t Rewriter::UintConstant(uint32_t value) {
  auto it = constants_.find(value);
  if (it != constants_.end()) return it->second;
  const uint32_t id = NewId();
  new_globals_.push_back(Make(spv::OpConstant, {uint_type_, id, value}));
  constants_.emplace(value, id);
  return id;
}

absl::StatusOr<GridSplitRewrite> Rewriter::Run(absl::string_view entry_point, uint32_t push_limit) {
  const std::vector<Instruction>& instructions = module_.instructions();
  bound_ = module_.bound();
  GridSplitRewrite result;
  auto unsupported = [&](auto&&... why) {
    result.spirv.clear();
    result.unsupported_reason = absl::StrCat(why...);
    return result;
  };

  // The entry point, the built-ins and the layout decorations.
  const Instruction* entry = nullptr;
  uint32_t entry_function = 0;
  absl::flat_hash_map<uint32_t, Position> builtins;  // variable -> which
  size_t declarations_begin = instructions.size();
  for (const Instruction& inst : instructions) {
    if (inst.function >= 0) break;
    if (declarations_begin == instructions.size() &&
        !spirv_detail::IsBeforeDeclarations(inst.opcode)) {
      declarations_begin = Index(inst);
    }
    if (inst.opcode == spv::OpEntryPoint && Word(inst, 1) == spv::ExecutionModelGLCompute) {
      SH_ASSIGN_OR_RETURN(auto name, module_.String(inst, 3));
      if (name.first == entry_point) {
        entry = &inst;
        entry_function = Word(inst, 2);
      }
    } else if (inst.opcode == spv::OpDecorate && inst.word_count >= 4) {
      const uint32_t decoration = Word(inst, 2);
      if (decoration == spv::DecorationBuiltIn) {
        switch (Word(inst, 3)) {
          case spv::BuiltInWorkgroupId:
            builtins.emplace(Word(inst, 1), Position::kGroupId);
            break;
          case spv::BuiltInNumWorkgroups:
            builtins.emplace(Word(inst, 1), Position::kGroupCount);
            break;
          case spv::BuiltInGlobalInvocationId:
            builtins.emplace(Word(inst, 1), Position::kGlobalId);
            break;
          default:
            break;
        }
      } else if (decoration == spv::DecorationArrayStride) {
        array_strides_[Word(inst, 1)] = Word(inst, 3);
      }
    } else if (inst.opcode == spv::OpMemberDecorate && inst.word_count >= 4) {
      MemberDecorations& m = member_decorations_[(uint64_t{Word(inst, 1)} << 32) | Word(inst, 2)];
      switch (Word(inst, 3)) {
        case spv::DecorationOffset:
          m.offset = Word(inst, 4);
          break;
        case spv::DecorationMatrixStride:
          m.matrix_stride = Word(inst, 4);
          break;
        case spv::DecorationRowMajor:
          m.row_major = true;
          break;
        default:
          break;
      }
    } else if (inst.opcode == spv::OpTypeInt && Word(inst, 2) == 32 && Word(inst, 3) == 0) {
      uint_type_ = inst.result_id;
    }
  }
  if (entry == nullptr) {
    return Error(ErrorCode::kInvalidImage, "no GLCompute entry point named '", entry_point, "'");
  }

  // Functions the kernel reaches, and what they use.
  absl::flat_hash_map<uint32_t, size_t> function_index;
  for (size_t i = 0; i < module_.functions().size(); ++i) {
    function_index.emplace(module_.functions()[i].id, i);
  }
  auto entry_it = function_index.find(entry_function);
  if (entry_it == function_index.end()) {
    return Error(ErrorCode::kInvalidImage, "entry point '", entry_point, "' has no function");
  }
  std::vector<bool> reached(module_.functions().size(), false);
  std::vector<size_t> work = {entry_it->second};
  reached[entry_it->second] = true;
  absl::flat_hash_set<uint32_t> used_builtins;
  absl::flat_hash_set<uint32_t> push_constant_variables;
  while (!work.empty()) {
    const spirv_detail::Function& function = module_.functions()[work.back()];
    work.pop_back();
    for (uint32_t i = function.first_instruction; i < function.end_instruction; ++i) {
      const Instruction& inst = instructions[i];
      if (inst.opcode == spv::OpFunctionCall) {
        auto callee = function_index.find(Word(inst, 3));
        if (callee != function_index.end() && !reached[callee->second]) {
          reached[callee->second] = true;
          work.push_back(callee->second);
        }
      }
      for (uint32_t word : module_.IdOperandWords(inst)) {
        const uint32_t id = module_.words()[word];
        if (builtins.contains(id)) used_builtins.insert(id);
        const Instruction* def = module_.Def(id);
        if (def != nullptr && def->opcode == spv::OpVariable && def->function < 0 &&
            Word(*def, 3) == spv::StorageClassPushConstant) {
          push_constant_variables.insert(id);
        }
      }
    }
  }
  if (used_builtins.empty()) return result;
  // Sorted, so the output does not depend on hash order.
  std::vector<uint32_t> used(used_builtins.begin(), used_builtins.end());
  std::sort(used.begin(), used.end());
  result.reads_position = true;
  if (push_constant_variables.size() > 1) {
    return unsupported("the kernel uses more than one push-constant block");
  }

  // Every use of a built-in must be a load or an access chain whose result
  // is only loaded: those can read a Private copy instead.
  absl::flat_hash_map<uint32_t, uint32_t> chains;  // access chain -> built-in
  for (const Instruction& inst : instructions) {
    for (uint32_t word : module_.IdOperandWords(inst)) {
      const uint32_t id = module_.words()[word];
      if (!builtins.contains(id)) continue;
      const bool base_operand = word == inst.offset + 3;
      if (inst.function < 0) {
        if (!IsDebugOrAnnotation(inst.opcode)) {
          return unsupported("a built-in variable is used outside a function (opcode ", inst.opcode,
                             ")");
        }
      } else if (inst.opcode == spv::OpLoad && base_operand) {
      } else if ((inst.opcode == spv::OpAccessChain || inst.opcode == spv::OpInBoundsAccessChain) &&
                 base_operand) {
        chains.emplace(inst.result_id, id);
      } else {
        return unsupported("a built-in variable is used by opcode ", inst.opcode);
      }
    }
  }
  for (const Instruction& inst : instructions) {
    if (inst.function < 0) continue;
    for (uint32_t word : module_.IdOperandWords(inst)) {
      if (chains.contains(module_.words()[word]) &&
          !(inst.opcode == spv::OpLoad && word == inst.offset + 3)) {
        return unsupported("a pointer into a built-in is used by opcode ", inst.opcode);
      }
    }
  }
  // The built-ins must be vectors of three 32-bit integers (Vulkan requires
  // it); their component type is what the grid info is converted to.
  absl::flat_hash_map<uint32_t, std::pair<uint32_t, uint32_t>> builtin_types;  // vec3, component
  for (uint32_t variable : used) {
    const Instruction* var = module_.Def(variable);
    const Instruction* pointer = var != nullptr ? module_.Def(var->type_id) : nullptr;
    const Instruction* vector = pointer != nullptr ? module_.Def(Word(*pointer, 3)) : nullptr;
    const Instruction* component = vector != nullptr && vector->opcode == spv::OpTypeVector
                                       ? module_.Def(Word(*vector, 2))
                                       : nullptr;
    if (var == nullptr || var->opcode != spv::OpVariable || component == nullptr ||
        Word(*vector, 3) != 3 || component->opcode != spv::OpTypeInt || Word(*component, 2) != 32) {
      return unsupported("a grid built-in is not a vector of three 32-bit integers");
    }
    builtin_types.emplace(variable, std::make_pair(vector->result_id, component->result_id));
  }

  // Editable copy: each original instruction, plus insertions before it.
  std::vector<Words> edited(instructions.size());
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = instructions[i];
    edited[i].assign(module_.words().begin() + inst.offset,
                     module_.words().begin() + inst.offset + inst.word_count);
  }
  std::vector<Words> new_annotations;
  std::vector<Words> new_leading_types;  // at the start of the declarations

  // Only this kernel's entry point stays, so the new variables need to be in
  // one interface only.
  const uint32_t entry_index = Index(*entry);
  absl::flat_hash_set<uint32_t> dropped_functions;
  for (const Instruction& inst : instructions) {
    if (inst.function >= 0) break;
    if (inst.opcode == spv::OpEntryPoint && Index(inst) != entry_index) {
      edited[Index(inst)].clear();
      if (Word(inst, 2) != entry_function) dropped_functions.insert(Word(inst, 2));
    }
  }
  for (const Instruction& inst : instructions) {
    if (inst.function >= 0) break;
    if ((inst.opcode == spv::OpExecutionMode || inst.opcode == spv::OpExecutionModeId) &&
        dropped_functions.contains(Word(inst, 1))) {
      edited[Index(inst)].clear();
    }
  }

  // uint: found, or declared first thing.
  if (uint_type_ == 0) {
    uint_type_ = NewId();
    new_leading_types.push_back(Make(spv::OpTypeInt, {uint_type_, 32, 0}));
  }

  // The push-constant block gets the nine words at its end, or a block of
  // its own holds them.
  uint32_t push_variable = 0;
  uint32_t first_member = 0;
  uint32_t info_offset = 0;
  const bool new_block = push_constant_variables.empty();
  if (!new_block) {
    push_variable = *push_constant_variables.begin();
    const Instruction* var = module_.Def(push_variable);
    const Instruction* pointer = module_.Def(var->type_id);
    const Instruction* block = pointer != nullptr ? module_.Def(Word(*pointer, 3)) : nullptr;
    if (block == nullptr || block->opcode != spv::OpTypeStruct) {
      return unsupported("the push-constant variable is not a block");
    }
    absl::StatusOr<Layout> layout = LayoutOf(block->result_id, nullptr);
    if (!layout.ok()) return unsupported(layout.status().message());
    // Vulkan's block layout: nothing may sit in the padding after a struct,
    // array or matrix member, up to its alignment.
    uint64_t end = 0;
    for (uint32_t i = 2; i < block->word_count; ++i) {
      const MemberDecorations& m =
          member_decorations_[(uint64_t{block->result_id} << 32) | (i - 2)];
      absl::StatusOr<Layout> member = LayoutOf(Word(*block, i), &m);
      if (!member.ok()) return unsupported(member.status().message());
      const uint64_t member_end = *m.offset + member->size;
      end = std::max(end, member->aggregate ? AlignUp(member_end, member->align) : member_end);
    }
    end = AlignUp(end, 4);
    if (end + kGridInfoBytes > push_limit) {
      return unsupported("the parameters leave no room for the grid info (", end, " + ",
                         kGridInfoBytes, " bytes > ", push_limit, ")");
    }
    info_offset = static_cast<uint32_t>(end);
    first_member = block->word_count - 2;
    Words& struct_words = edited[Index(*block)];
    for (uint32_t i = 0; i < kGridInfoWords; ++i) AppendOperand(struct_words, uint_type_);
    for (uint32_t i = 0; i < kGridInfoWords; ++i) {
      new_annotations.push_back(
          Make(spv::OpMemberDecorate,
               {block->result_id, first_member + i, spv::DecorationOffset, info_offset + 4 * i}));
    }
    // The appended members name uint, which must be declared before the
    // block: move the declaration up if it comes later.
    const int64_t uint_index = module_.DefIndex(uint_type_);
    if (uint_index > static_cast<int64_t>(Index(*block))) {
      edited[static_cast<size_t>(uint_index)].clear();
      new_leading_types.push_back(Make(spv::OpTypeInt, {uint_type_, 32, 0}));
    }
  } else {
    if (kGridInfoBytes > push_limit) return unsupported("push constants are too small");
    const uint32_t block = NewId();
    Words struct_words = Make(spv::OpTypeStruct, {block});
    for (uint32_t i = 0; i < kGridInfoWords; ++i) AppendOperand(struct_words, uint_type_);
    new_globals_.push_back(std::move(struct_words));
    new_annotations.push_back(Make(spv::OpDecorate, {block, spv::DecorationBlock}));
    for (uint32_t i = 0; i < kGridInfoWords; ++i) {
      new_annotations.push_back(
          Make(spv::OpMemberDecorate, {block, i, spv::DecorationOffset, 4 * i}));
    }
    const uint32_t pointer = Pointer(spv::StorageClassPushConstant, block);
    push_variable = NewId();
    new_globals_.push_back(
        Make(spv::OpVariable, {pointer, push_variable, spv::StorageClassPushConstant}));
  }
  const uint32_t push_uint_pointer = Pointer(spv::StorageClassPushConstant, uint_type_);

  // A Private copy of each built-in, and every use redirected to it.
  absl::flat_hash_map<uint32_t, uint32_t> copies;  // built-in -> Private variable
  for (uint32_t variable : used) {
    const uint32_t pointer = Pointer(spv::StorageClassPrivate, builtin_types[variable].first);
    const uint32_t copy = NewId();
    new_globals_.push_back(Make(spv::OpVariable, {pointer, copy, spv::StorageClassPrivate}));
    copies.emplace(variable, copy);
  }
  for (const Instruction& inst : instructions) {
    if (inst.function < 0 || inst.word_count < 4) continue;
    Words& words = edited[Index(inst)];
    if (inst.opcode == spv::OpLoad) {
      auto copy = copies.find(words[3]);
      if (copy != copies.end()) words[3] = copy->second;
    } else if (inst.opcode == spv::OpAccessChain || inst.opcode == spv::OpInBoundsAccessChain) {
      auto copy = copies.find(words[3]);
      // Built-ins only dead code reads stay as they are.
      if (copy == copies.end()) continue;
      const Instruction* old_pointer = module_.Def(inst.type_id);
      words[3] = copy->second;
      words[1] = Pointer(spv::StorageClassPrivate, Word(*old_pointer, 3));
    }
  }

  // The prologue: copy = built-in + grid info (or the grid size), after the
  // entry function's local variables.
  const spirv_detail::Function& function = module_.functions()[entry_it->second];
  uint32_t prologue_at = 0;
  for (uint32_t i = function.first_instruction; i < function.end_instruction; ++i) {
    const uint32_t opcode = instructions[i].opcode;
    if (opcode == spv::OpLabel && prologue_at == 0) prologue_at = i + 1;
    if (opcode == spv::OpVariable) prologue_at = i + 1;
  }
  if (prologue_at == 0) return Error(ErrorCode::kInvalidImage, "entry function has no block");
  std::vector<Words> prologue;
  for (uint32_t variable : used) {
    const Position position = builtins[variable];
    const auto [vector_type, component_type] = builtin_types[variable];
    uint32_t scalars[3];
    for (uint32_t i = 0; i < 3; ++i) {
      const uint32_t member = first_member + static_cast<uint32_t>(position) + i;
      const uint32_t chain = NewId();
      prologue.push_back(Make(spv::OpAccessChain,
                              {push_uint_pointer, chain, push_variable, UintConstant(member)}));
      scalars[i] = NewId();
      prologue.push_back(Make(spv::OpLoad, {uint_type_, scalars[i], chain}));
      if (component_type != uint_type_) {
        const uint32_t cast = NewId();
        prologue.push_back(Make(spv::OpBitcast, {component_type, cast, scalars[i]}));
        scalars[i] = cast;
      }
    }
    const uint32_t info = NewId();
    prologue.push_back(
        Make(spv::OpCompositeConstruct, {vector_type, info, scalars[0], scalars[1], scalars[2]}));
    uint32_t value = info;
    if (position != Position::kGroupCount) {
      const uint32_t original = NewId();
      prologue.push_back(Make(spv::OpLoad, {vector_type, original, variable}));
      value = NewId();
      prologue.push_back(Make(spv::OpIAdd, {vector_type, value, original, info}));
    }
    prologue.push_back(Make(spv::OpStore, {copies[variable], value}));
  }

  // SPIR-V 1.4 interfaces list every global variable the entry point uses.
  if (module_.version() >= kSpirv14) {
    Words& entry_words = edited[entry_index];
    for (uint32_t variable : used) AppendOperand(entry_words, copies[variable]);
    if (new_block) AppendOperand(entry_words, push_variable);
  }

  // Assemble.
  const size_t functions_begin =
      module_.functions().empty() ? instructions.size() : module_.functions()[0].first_instruction;
  Words out(module_.words().begin(), module_.words().begin() + 5);
  out[3] = bound_;
  auto emit = [&out](const Words& words) { out.insert(out.end(), words.begin(), words.end()); };
  for (size_t i = 0; i < instructions.size(); ++i) {
    if (i == declarations_begin) {
      for (const Words& words : new_annotations) emit(words);
      for (const Words& words : new_leading_types) emit(words);
    }
    if (i == functions_begin) {
      for (const Words& words : new_globals_) emit(words);
    }
    if (i == prologue_at) {
      for (const Words& words : prologue) emit(words);
    }
    emit(edited[i]);
  }
  if (declarations_begin == instructions.size()) {
    return Error(ErrorCode::kInvalidImage, "the module declares nothing");
  }
  result.spirv = std::move(out);
  result.grid_info_offset = info_offset;
  return result;
}

}  // namespace

absl::StatusOr<GridSplitRewrite> RewriteForGridSplit(absl::Span<const uint32_t> words,
                                                     absl::string_view entry_point,
                                                     uint32_t push_constant_limit) {
  SH_ASSIGN_OR_RETURN(ParsedModule module, ParsedModule::Parse(words));
  return RewriteForGridSplit(module, entry_point, push_constant_limit);
}

absl::StatusOr<GridSplitRewrite> RewriteForGridSplit(const ParsedModule& module,
                                                     absl::string_view entry_point,
                                                     uint32_t push_constant_limit) {
  Rewriter rewriter(module);
  return rewriter.Run(entry_point, push_constant_limit);
}

}  // namespace streamhal::vk
