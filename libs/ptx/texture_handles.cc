#include "ptx/texture_handles.h"

namespace streamhal::ptx {
namespace {

// A definition deeper than this is not followed (chains of movs are short;
// the bound keeps a malformed cycle of movs from looping).
constexpr int kMaxDepth = 16;

bool Is64Bit(const Instruction& inst) { return TypeBits(inst.type()) == 64; }

}  // namespace

TextureHandles::TextureHandles(const Module& module) {
  std::map<std::string, const Function*> by_name;
  for (const Function& f : module.functions) {
    if (!f.is_declaration) by_name[f.name] = &f;
    for (const Block& block : f.blocks) {
      for (const Instruction& inst : block.body) {
        if (inst.operands.empty()) continue;
        const Operand& first = inst.operands[0];
        if (first.kind == Operand::Kind::kRegister) defs_[&f][first.name].push_back(&inst);
        if (inst.opcode == "st" && inst.space == Space::kParam && Is64Bit(inst) &&
            first.kind == Operand::Kind::kAddress && first.base_is_symbol && first.int_value == 0) {
          stores_[&f][first.name].push_back(&inst);
        }
      }
    }
  }
  // Kernel parameters flow down the call graph, which has no cycles: one
  // pass per level of calls reaches the fixed point.
  for (size_t round = 0; round <= module.functions.size(); ++round) {
    bool changed = false;
    for (const Function& f : module.functions) {
      for (const Block& block : f.blocks) {
        for (const Instruction& inst : block.body) {
          if (inst.opcode != "call" || inst.operands.size() != 3) continue;
          auto callee = by_name.find(inst.operands[1].name);
          if (callee == by_name.end()) continue;
          const std::vector<Operand>& args = inst.operands[2].elements;
          for (size_t j = 0; j < args.size(); ++j) {
            auto stored = stores_[&f].find(args[j].name);
            if (stored == stores_[&f].end()) continue;
            for (const Instruction* store : stored->second) {
              if (store->operands.size() != 2 ||
                  store->operands[1].kind != Operand::Kind::kRegister) {
                continue;
              }
              for (uint32_t param : Of(f, store->operands[1].name)) {
                changed |= func_params_[{callee->second, j}].insert(param).second;
              }
            }
          }
        }
      }
    }
    if (!changed) break;
  }
}

std::set<uint32_t> TextureHandles::Of(const Function& f, const std::string& reg) const {
  bool traced = true;
  std::set<uint32_t> params = Trace(f, reg, 0, &traced);
  return traced ? params : std::set<uint32_t>();
}

std::set<uint32_t> TextureHandles::Trace(const Function& f, const std::string& reg, int depth,
                                         bool* traced) const {
  std::set<uint32_t> params;
  auto function_defs = defs_.find(&f);
  if (depth > kMaxDepth || function_defs == defs_.end()) {
    *traced = false;
    return params;
  }
  auto defs = function_defs->second.find(reg);
  if (defs == function_defs->second.end()) {
    *traced = false;
    return params;
  }
  for (const Instruction* def : defs->second) {
    const std::vector<Operand>& ops = def->operands;
    if (def->opcode == "ld" && def->space == Space::kParam && Is64Bit(*def) && ops.size() == 2 &&
        ops[1].kind == Operand::Kind::kAddress && ops[1].base_is_symbol && ops[1].int_value == 0) {
      bool found = false;
      for (size_t i = 0; i < f.params.size(); ++i) {
        if (f.params[i].name != ops[1].name) continue;
        found = true;
        if (f.is_entry) {
          params.insert(static_cast<uint32_t>(i));
        } else {
          auto in = func_params_.find({&f, i});
          if (in == func_params_.end() || in->second.empty()) {
            *traced = false;
          } else {
            params.insert(in->second.begin(), in->second.end());
          }
        }
      }
      if (!found) *traced = false;
    } else if (def->opcode == "mov" && ops.size() == 2 && ops[1].kind == Operand::Kind::kRegister) {
      const std::set<uint32_t> from = Trace(f, ops[1].name, depth + 1, traced);
      params.insert(from.begin(), from.end());
    } else if (def->opcode == "selp" && ops.size() == 4 &&
               ops[1].kind == Operand::Kind::kRegister && ops[2].kind == Operand::Kind::kRegister) {
      for (int k = 1; k <= 2; ++k) {
        const std::set<uint32_t> from = Trace(f, ops[k].name, depth + 1, traced);
        params.insert(from.begin(), from.end());
      }
    } else {
      *traced = false;
    }
  }
  return params;
}

}  // namespace streamhal::ptx
