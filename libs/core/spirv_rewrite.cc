#include "core/spirv_rewrite.h"

#include <spirv/unified1/spirv.hpp>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "core/spirv_reflect.h"
#include "core/status.h"

namespace streamhal {
namespace {

using spirv_detail::Instruction;
using spirv_detail::IsBeforeDeclarations;
using spirv_detail::ParsedModule;

// Debug and annotation instructions whose first operand is the target id.
bool TargetsWordOne(uint32_t opcode) {
  switch (opcode) {
    case spv::OpName:
    case spv::OpMemberName:
    case spv::OpDecorate:
    case spv::OpMemberDecorate:
    case spv::OpDecorateId:
    case spv::OpDecorateString:
    case spv::OpMemberDecorateString:
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> MovePushConstantsToUniform(absl::Span<const uint32_t> words,
                                                                 uint32_t descriptor_set,
                                                                 uint32_t binding) {
  SH_ASSIGN_OR_RETURN(ParsedModule module, ParsedModule::Parse(words));
  const std::vector<Instruction>& instructions = module.instructions();

  std::vector<uint32_t> variables;
  // Pointee type -> the Uniform pointer type that survives, which is the
  // first one declared so that it precedes every use of the ones merged in.
  absl::flat_hash_map<uint32_t, uint32_t> uniform_pointer;
  absl::flat_hash_map<uint32_t, uint32_t> renamed;  // dropped id -> kept id
  absl::flat_hash_set<uint32_t> capabilities;
  size_t last_capability = 0;  // index one past the last OpCapability
  size_t declarations_begin = instructions.size();
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = instructions[i];
    if (declarations_begin == instructions.size() && !IsBeforeDeclarations(inst.opcode)) {
      declarations_begin = i;
    }
    if (inst.opcode == spv::OpCapability && inst.word_count >= 2) {
      capabilities.insert(module.Word(inst, 1));
      last_capability = i + 1;
    }
    if (inst.function >= 0) continue;
    if (inst.opcode == spv::OpTypePointer) {
      const uint32_t storage_class = module.Word(inst, 2);
      if (storage_class != spv::StorageClassPushConstant &&
          storage_class != spv::StorageClassUniform) {
        continue;
      }
      auto [it, inserted] = uniform_pointer.emplace(module.Word(inst, 3), inst.result_id);
      if (!inserted) renamed.emplace(inst.result_id, it->second);
    } else if (inst.opcode == spv::OpVariable &&
               module.Word(inst, 3) == spv::StorageClassPushConstant) {
      variables.push_back(inst.result_id);
    }
  }
  if (variables.empty()) return std::vector<uint32_t>(words.begin(), words.end());

  std::vector<uint32_t> added_capabilities;
  if (capabilities.contains(spv::CapabilityStoragePushConstant8) &&
      !capabilities.contains(spv::CapabilityUniformAndStorageBuffer8BitAccess)) {
    added_capabilities.push_back(spv::CapabilityUniformAndStorageBuffer8BitAccess);
  }
  if (capabilities.contains(spv::CapabilityStoragePushConstant16) &&
      !capabilities.contains(spv::CapabilityStorageUniform16)) {
    added_capabilities.push_back(spv::CapabilityStorageUniform16);
  }

  std::vector<uint32_t> out;
  out.reserve(words.size() + 8 * variables.size() + 2 * added_capabilities.size());
  out.insert(out.end(), words.begin(), words.begin() + 5);
  auto emit_capabilities = [&]() {
    for (uint32_t capability : added_capabilities) {
      out.push_back((2u << 16) | spv::OpCapability);
      out.push_back(capability);
    }
  };
  auto emit_decorations = [&]() {
    for (uint32_t variable : variables) {
      out.insert(out.end(), {(4u << 16) | spv::OpDecorate, variable, spv::DecorationDescriptorSet,
                             descriptor_set, (4u << 16) | spv::OpDecorate, variable,
                             spv::DecorationBinding, binding});
    }
  };
  if (last_capability == 0) emit_capabilities();
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = instructions[i];
    if (i == declarations_begin) emit_decorations();
    const bool dropped_declaration = inst.result_id != 0 && renamed.contains(inst.result_id);
    const bool dropped_annotation = TargetsWordOne(inst.opcode) && inst.word_count >= 2 &&
                                    renamed.contains(module.Word(inst, 1));
    if (!dropped_declaration && !dropped_annotation) {
      const size_t start = out.size();
      out.insert(out.end(), words.begin() + inst.offset,
                 words.begin() + inst.offset + inst.word_count);
      for (uint32_t word : module.IdOperandWords(inst)) {
        auto it = renamed.find(words[word]);
        if (it != renamed.end()) out[start + (word - inst.offset)] = it->second;
      }
      const bool storage_class_in_word_two =
          inst.opcode == spv::OpTypePointer || inst.opcode == spv::OpTypeForwardPointer;
      const bool storage_class_in_word_three = inst.opcode == spv::OpVariable;
      const uint32_t storage_class_word = storage_class_in_word_two ? 2 : 3;
      if (inst.function < 0 && (storage_class_in_word_two || storage_class_in_word_three) &&
          storage_class_word < inst.word_count) {
        uint32_t& storage_class = out[start + storage_class_word];
        if (storage_class == spv::StorageClassPushConstant) {
          storage_class = spv::StorageClassUniform;
        }
      }
    }
    if (i + 1 == last_capability) emit_capabilities();
  }
  if (declarations_begin == instructions.size()) emit_decorations();
  return out;
}

}  // namespace streamhal
