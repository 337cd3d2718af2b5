#include "ptx/link.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace streamhal::ptx {
namespace {

absl::Status LinkError(const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("link: ", what));
}

bool IsDefinition(Linkage linkage) {
  return linkage == Linkage::kVisible || linkage == Linkage::kWeak;
}

// "9.0" -> 900; "sm_75" -> 75. Unparsable parts count as 0.
int VersionKey(const std::string& version) {
  const size_t dot = version.find('.');
  const int major = std::atoi(version.substr(0, dot).c_str());
  const int minor = dot == std::string::npos ? 0 : std::atoi(version.substr(dot + 1).c_str());
  return major * 100 + minor;
}
int TargetKey(const std::string& target) {
  const size_t underscore = target.find('_');
  return underscore == std::string::npos ? 0 : std::atoi(target.substr(underscore + 1).c_str());
}

void RenameInOperand(Operand& operand, const std::map<std::string, std::string>& renames) {
  const bool names_symbol = operand.kind == Operand::Kind::kSymbol ||
                            (operand.kind == Operand::Kind::kAddress && operand.base_is_symbol);
  if (names_symbol) {
    auto it = renames.find(operand.name);
    if (it != renames.end()) operand.name = it->second;
  }
  for (Operand& element : operand.elements) RenameInOperand(element, renames);
}

// Renames references to module-scope symbols in `f`, except names `f`
// declares itself (a function's own variable hides the module's).
void RenameInFunction(Function& f, std::map<std::string, std::string> renames) {
  for (const Variable& own : f.variables) renames.erase(own.name);
  for (const Param& param : f.params) renames.erase(param.name);
  for (const Param& param : f.returns) renames.erase(param.name);
  if (renames.empty()) return;
  for (Block& block : f.blocks) {
    for (Instruction& instruction : block.body) {
      for (Operand& operand : instruction.operands) RenameInOperand(operand, renames);
    }
  }
}

struct Definition {
  size_t input = 0;
  size_t index = 0;  // in the input's variables or functions
  Linkage linkage = Linkage::kVisible;
  Space space = Space::kGlobal;
};

}  // namespace

absl::StatusOr<Module> LinkModules(std::vector<LinkInput> inputs) {
  // Every visible or weak definition of a module variable or device
  // function, and every kernel.
  std::map<std::string, Definition> variables;
  std::map<std::string, Definition> functions;
  std::map<std::string, Definition> kernels;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Module& module = inputs[i].module;
    for (size_t j = 0; j < module.variables.size(); ++j) {
      const Variable& v = module.variables[j];
      if (!IsDefinition(v.linkage)) continue;
      const Definition def{i, j, v.linkage, v.space};
      auto [it, inserted] = variables.try_emplace(v.name, def);
      if (inserted) continue;
      if (it->second.linkage == Linkage::kVisible && v.linkage == Linkage::kVisible) {
        return LinkError(absl::StrCat("multiple definition of '", v.name, "' in '",
                                      inputs[it->second.input].name, "' and '", inputs[i].name,
                                      "'"));
      }
      if (it->second.linkage == Linkage::kWeak && v.linkage == Linkage::kVisible) it->second = def;
    }
    for (size_t j = 0; j < module.functions.size(); ++j) {
      const Function& f = module.functions[j];
      if (!f.is_entry) {
        if (f.is_declaration || !IsDefinition(f.linkage)) continue;
        const Definition def{i, j, f.linkage, Space::kGeneric};
        auto [it, inserted] = functions.try_emplace(f.name, def);
        if (inserted) continue;
        if (it->second.linkage == Linkage::kVisible && f.linkage == Linkage::kVisible) {
          return LinkError(absl::StrCat("multiple definition of function '", f.name, "' in '",
                                        inputs[it->second.input].name, "' and '", inputs[i].name,
                                        "'"));
        }
        if (it->second.linkage == Linkage::kWeak && f.linkage == Linkage::kVisible) {
          it->second = def;
        }
        continue;
      }
      const Definition def{i, j, f.linkage, Space::kGeneric};
      auto [it, inserted] = kernels.try_emplace(f.name, def);
      if (inserted) continue;
      if (it->second.linkage != Linkage::kWeak && f.linkage != Linkage::kWeak) {
        return LinkError(absl::StrCat("multiple definition of kernel '", f.name, "' in '",
                                      inputs[it->second.input].name, "' and '", inputs[i].name,
                                      "'"));
      }
      if (it->second.linkage == Linkage::kWeak && f.linkage != Linkage::kWeak) it->second = def;
    }
  }

  // Internal names that another input also uses are renamed in their input.
  std::map<std::string, int> uses;  // inputs that use the name at module scope
  for (const LinkInput& input : inputs) {
    std::set<std::string> names;
    for (const Variable& v : input.module.variables) names.insert(v.name);
    for (const Function& f : input.module.functions) names.insert(f.name);
    for (const std::string& name : names) ++uses[name];
  }

  Module out;
  out.address_size = 64;
  std::map<std::string, size_t> dynamic_shared;  // name -> index in out.variables
  for (size_t i = 0; i < inputs.size(); ++i) {
    Module& module = inputs[i].module;
    if (VersionKey(module.version) > VersionKey(out.version)) out.version = module.version;
    if (TargetKey(module.target) > TargetKey(out.target)) out.target = module.target;
    // A texture reference of one name is one reference of the linked module.
    for (const std::string& name : module.texrefs) {
      if (std::find(out.texrefs.begin(), out.texrefs.end(), name) == out.texrefs.end()) {
        out.texrefs.push_back(name);
      }
    }

    std::map<std::string, std::string> renames;
    for (const Variable& v : module.variables) {
      if (v.linkage == Linkage::kInternal && uses[v.name] > 1) {
        renames[v.name] = absl::StrCat(v.name, "$", i);
      }
    }
    for (const Function& f : module.functions) {
      if (!f.is_entry && f.linkage == Linkage::kInternal && uses[f.name] > 1) {
        renames[f.name] = absl::StrCat(f.name, "$", i);
      }
    }
    for (size_t j = 0; j < module.variables.size(); ++j) {
      Variable& v = module.variables[j];
      if (v.linkage == Linkage::kExtern) {
        if (v.space == Space::kShared) {
          auto [it, inserted] = dynamic_shared.try_emplace(v.name, out.variables.size());
          if (inserted) {
            out.variables.push_back(std::move(v));
          } else {
            Variable& kept = out.variables[it->second];
            kept.align = std::max(kept.align, v.align);
          }
          continue;
        }
        auto def = variables.find(v.name);
        if (def == variables.end()) {
          return LinkError(absl::StrCat("undefined reference to '", v.name, "' in '",
                                        inputs[i].name, "' (ptx line ", v.line, ")"));
        }
        if (def->second.space != v.space) {
          return LinkError(absl::StrCat("'", v.name, "' is declared in another state space in '",
                                        inputs[i].name, "' than where '",
                                        inputs[def->second.input].name, "' defines it"));
        }
        continue;  // the definition serves every declaration
      }
      if (IsDefinition(v.linkage)) {
        const Definition& def = variables.at(v.name);
        if (def.input != i || def.index != j) continue;  // a weak one that lost
      }
      if (auto it = renames.find(v.name); it != renames.end()) v.name = it->second;
      out.variables.push_back(std::move(v));
    }
    for (size_t j = 0; j < module.functions.size(); ++j) {
      Function& f = module.functions[j];
      if (f.is_entry) {
        const Definition& def = kernels.at(f.name);
        if (def.input != i || def.index != j) continue;  // a weak one that lost
      } else if (f.linkage == Linkage::kExtern) {
        if (functions.count(f.name) == 0) {
          return LinkError(absl::StrCat("undefined reference to '", f.name, "' in '",
                                        inputs[i].name, "' (ptx line ", f.line, ")"));
        }
        continue;  // the definition serves every declaration
      } else if (IsDefinition(f.linkage) && !f.is_declaration) {
        const Definition& def = functions.at(f.name);
        if (def.input != i || def.index != j) continue;  // a weak one that lost
      } else if (auto it = renames.find(f.name); it != renames.end()) {
        f.name = it->second;  // internal, its name used by another input too
      }
      RenameInFunction(f, renames);
      out.functions.push_back(std::move(f));
    }
  }
  if (out.version.empty()) out.version = "7.0";
  return out;
}

}  // namespace streamhal::ptx
