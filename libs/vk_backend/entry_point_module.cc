#include "vk_backend/entry_point_module.h"

#include <spirv/unified1/spirv.hpp>

#include "core/status.h"

namespace streamhal::vk {

using spirv_detail::Instruction;
using spirv_detail::ParsedModule;

absl::StatusOr<std::unique_ptr<EntryPointIndex>> EntryPointIndex::Create(
    absl::Span<const uint32_t> words) {
  SH_ASSIGN_OR_RETURN(ParsedModule module, ParsedModule::Parse(words));
  std::unique_ptr<EntryPointIndex> index(new EntryPointIndex(std::move(module)));
  SH_RETURN_IF_ERROR(index->Build());
  return index;
}

absl::Status EntryPointIndex::Build() {
  const std::vector<Instruction>& instructions = module_.instructions();
  const std::vector<spirv_detail::Function>& functions = module_.functions();
  module_scope_end_ = functions.empty() ? instructions.size() : functions[0].first_instruction;
  for (size_t i = 0; i < module_scope_end_; ++i) {
    const Instruction& inst = instructions[i];
    switch (inst.opcode) {
      case spv::OpEntryPoint: {
        ++entry_point_count_;
        if (module_.Word(inst, 1) != spv::ExecutionModelGLCompute) break;
        SH_ASSIGN_OR_RETURN(auto name, module_.String(inst, 3));
        entry_points_.emplace(std::move(name.first), static_cast<uint32_t>(i));
        break;
      }
      case spv::OpDecorateId:
      case spv::OpExecutionModeId:
        id_annotations_.push_back(static_cast<uint32_t>(i));
        break;
      case spv::OpDecorate:
        if (module_.Word(inst, 2) == spv::DecorationBuiltIn &&
            module_.Word(inst, 3) == spv::BuiltInWorkgroupSize) {
          roots_.push_back(module_.Word(inst, 1));
        }
        break;
      // Decoration groups and debug-info extended instructions name ids in
      // ways the reduction below does not follow; exported functions must
      // stay. Such modules are used whole.
      case spv::OpDecorationGroup:
      case spv::OpGroupDecorate:
      case spv::OpGroupMemberDecorate:
      case spv::OpExtInst:
        reducible_ = false;
        break;
      case spv::OpCapability:
        if (module_.Word(inst, 1) == spv::CapabilityLinkage) reducible_ = false;
        break;
      default:
        break;
    }
  }

  // Each function's callees and module-scope uses, each listed once.
  std::vector<uint32_t> last_user(module_.bound(), 0);  // function index + 1
  const absl::Span<const uint32_t> words = module_.words();
  for (size_t f = 0; f < functions.size(); ++f) {
    callee_begin_.push_back(static_cast<uint32_t>(callees_.size()));
    global_begin_.push_back(static_cast<uint32_t>(globals_.size()));
    for (uint32_t i = functions[f].first_instruction; i < functions[f].end_instruction; ++i) {
      for (uint32_t word : module_.IdOperandWords(instructions[i])) {
        const uint32_t id = words[word];
        if (last_user[id] == f + 1) continue;
        last_user[id] = static_cast<uint32_t>(f + 1);
        const Instruction* def = module_.Def(id);
        if (def->opcode == spv::OpFunction) {
          callees_.push_back(static_cast<uint32_t>(def->function));
        } else if (def->function < 0) {
          globals_.push_back(id);
        }
      }
    }
  }
  callee_begin_.push_back(static_cast<uint32_t>(callees_.size()));
  global_begin_.push_back(static_cast<uint32_t>(globals_.size()));
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::vector<uint32_t>>> EntryPointIndex::Extract(
    absl::string_view entry_point) const {
  auto entry_it = entry_points_.find(entry_point);
  if (entry_it == entry_points_.end()) {
    return Error(ErrorCode::kInvalidImage, "no GLCompute entry point named '", entry_point, "'");
  }
  if (!reducible_ || entry_point_count_ == 1) return std::nullopt;

  const std::vector<Instruction>& instructions = module_.instructions();
  const std::vector<spirv_detail::Function>& functions = module_.functions();
  const absl::Span<const uint32_t> words = module_.words();
  const Instruction& entry = instructions[entry_it->second];
  const uint32_t entry_function = module_.Word(entry, 2);

  // What the entry point uses: module-scope ids and functions, closed over
  // the operands of the declarations and the bodies of the functions.
  std::vector<bool> live(module_.bound(), false);
  std::vector<bool> reached(functions.size(), false);
  std::vector<uint32_t> work;
  auto mark = [&](uint32_t id) {
    if (live[id]) return false;
    live[id] = true;
    work.push_back(id);
    return true;
  };
  auto drain = [&] {
    while (!work.empty()) {
      const Instruction* def = module_.Def(work.back());
      work.pop_back();
      if (def->opcode == spv::OpFunction) {
        const auto f = static_cast<size_t>(def->function);
        reached[f] = true;
        for (uint32_t i = global_begin_[f]; i < global_begin_[f + 1]; ++i) mark(globals_[i]);
        for (uint32_t i = callee_begin_[f]; i < callee_begin_[f + 1]; ++i) {
          mark(functions[callees_[i]].id);
        }
      } else if (def->function < 0) {
        for (uint32_t word : module_.IdOperandWords(*def)) mark(words[word]);
      }
    }
  };
  // Kept: a live module-scope id, or an id defined in a reached function.
  auto kept = [&](uint32_t id) {
    if (live[id]) return true;
    const Instruction* def = module_.Def(id);
    return def != nullptr && def->function >= 0 && reached[static_cast<size_t>(def->function)];
  };

  mark(entry_function);
  SH_ASSIGN_OR_RETURN(auto name, module_.String(entry, 3));
  for (uint32_t i = name.second; i < entry.word_count; ++i) mark(module_.Word(entry, i));
  for (uint32_t id : roots_) mark(id);
  drain();
  // An id annotation of something kept keeps its operands, which may keep
  // more: repeat until nothing changes (modules rarely have any).
  for (bool changed = !id_annotations_.empty(); changed;) {
    changed = false;
    for (uint32_t index : id_annotations_) {
      const Instruction& inst = instructions[index];
      const uint32_t target = module_.Word(inst, 1);
      if (inst.opcode == spv::OpExecutionModeId ? target != entry_function : !kept(target)) {
        continue;
      }
      for (uint32_t word : module_.IdOperandWords(inst)) {
        if (words[word] != target) changed |= mark(words[word]);
      }
      drain();
    }
  }

  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  auto emit = [&](uint32_t begin, uint32_t end) {
    out.insert(out.end(), words.begin() + begin, words.begin() + end);
  };
  for (size_t i = 0; i < module_scope_end_; ++i) {
    const Instruction& inst = instructions[i];
    bool keep = true;
    switch (inst.opcode) {
      case spv::OpEntryPoint:
        keep = i == entry_it->second;
        break;
      case spv::OpExecutionMode:
      case spv::OpExecutionModeId:
        keep = module_.Word(inst, 1) == entry_function;
        break;
      case spv::OpName:
      case spv::OpMemberName:
      case spv::OpDecorate:
      case spv::OpMemberDecorate:
      case spv::OpDecorateId:
      case spv::OpDecorateString:
      case spv::OpMemberDecorateString:
        keep = kept(module_.Word(inst, 1));
        break;
      case spv::OpTypeForwardPointer:
        keep = live[module_.Word(inst, 1)];
        break;
      case spv::OpString:
      case spv::OpExtInstImport:
        break;
      default:
        keep = inst.result_id == 0 || live[inst.result_id];
        break;
    }
    if (keep) emit(inst.offset, inst.offset + inst.word_count);
  }
  for (size_t f = 0; f < functions.size(); ++f) {
    if (!reached[f]) continue;
    const Instruction& last = instructions[functions[f].end_instruction - 1];
    emit(instructions[functions[f].first_instruction].offset, last.offset + last.word_count);
  }
  return out;
}

}  // namespace streamhal::vk
