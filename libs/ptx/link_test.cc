#include "ptx/link.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "ptx/parser.h"
#include "ptx/spirv_emitter.h"
#include "spirv-tools/libspirv.hpp"

namespace streamhal::ptx {
namespace {

std::string ReadCorpus(const std::string& name) {
  std::ifstream in(std::string(STREAMHAL_PTX_CORPUS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

LinkInput Input(const std::string& name, const std::string& text) {
  absl::StatusOr<Module> module = Parse(text);
  EXPECT_TRUE(module.ok()) << name << ": " << module.status();
  return LinkInput{name, module.ok() ? *std::move(module) : Module{}};
}

bool ValidSpirv(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  tools.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&,
                              const char* message) { ADD_FAILURE() << message; });
  return tools.Validate(words);
}

const Variable* FindVariable(const Module& module, const std::string& name) {
  for (const Variable& v : module.variables) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// Every symbol operand of `f` (addresses based on a symbol, symbol values).
std::vector<std::string> SymbolsUsed(const Function& f) {
  std::vector<std::string> names;
  for (const Block& block : f.blocks) {
    for (const Instruction& instruction : block.body) {
      for (const Operand& o : instruction.operands) {
        if (o.kind == Operand::Kind::kSymbol ||
            (o.kind == Operand::Kind::kAddress && o.base_is_symbol)) {
          names.push_back(o.name);
        }
      }
    }
  }
  return names;
}

constexpr char kHeader[] = ".version 7.5\n.target sm_70\n.address_size 64\n";

std::string Kernel(const std::string& name, const std::string& variable) {
  return ".visible .entry " + name + "()\n{\n .reg .b32 %r<2>;\n ld.global.u32 %r1, [" + variable +
         "];\n st.global.u32 [" + variable + "+4], %r1;\n ret;\n}\n";
}

TEST(PtxLinkTest, ExternGlobalOfOneInputBindsToTheDefinitionOfAnother) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("link_scale.ptx", ReadCorpus("link_scale.ptx")));
  inputs.push_back(Input("link_offset.ptx", ReadCorpus("link_offset.ptx")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  ASSERT_EQ(linked->variables.size(), 1u);
  EXPECT_EQ(linked->variables[0].name, "link_factor");
  EXPECT_EQ(linked->variables[0].linkage, Linkage::kVisible);
  EXPECT_EQ(linked->variables[0].init, (std::vector<uint8_t>{3, 0, 0, 0}));
  ASSERT_EQ(linked->functions.size(), 3u);
  absl::StatusOr<std::vector<uint32_t>> spirv = EmitSpirv(*linked);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_TRUE(ValidSpirv(*spirv));
}

TEST(PtxLinkTest, TheExternInputAloneDoesNotTranslate) {
  absl::StatusOr<Module> alone = Parse(ReadCorpus("link_offset.ptx"));
  ASSERT_TRUE(alone.ok()) << alone.status();
  EXPECT_FALSE(EmitSpirv(*alone).ok());
}

TEST(PtxLinkTest, UndefinedReferenceNamesTheSymbolAndTheInput) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("offset", ReadCorpus("link_offset.ptx")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(linked.status().message().find("undefined reference to 'link_factor' in 'offset'"),
            std::string::npos)
      << linked.status();
}

TEST(PtxLinkTest, TwoVisibleDefinitionsAreAnError) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("a", ReadCorpus("link_scale.ptx")));
  inputs.push_back(Input("b", ReadCorpus("link_scale.ptx")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("multiple definition of 'link_factor' in 'a' and 'b'"),
            std::string::npos)
      << linked.status();
}

TEST(PtxLinkTest, TwoKernelsOfOneNameAreAnError) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("a", std::string(kHeader) + ".global .u32 x[2];\n" + Kernel("k", "x")));
  inputs.push_back(Input("b", std::string(kHeader) + ".global .u32 y[2];\n" + Kernel("k", "y")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("multiple definition of kernel 'k'"), std::string::npos)
      << linked.status();
}

TEST(PtxLinkTest, AVisibleDefinitionWinsOverAWeakOne) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input(
      "weak", std::string(kHeader) + ".weak .global .u32 v[2] = {1, 1};\n" + Kernel("ka", "v")));
  inputs.push_back(Input("strong", std::string(kHeader) + ".visible .global .u32 v[2] = {2, 2};\n" +
                                       Kernel("kb", "v")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  ASSERT_EQ(linked->variables.size(), 1u);
  EXPECT_EQ(linked->variables[0].init[0], 2);
  EXPECT_EQ(SymbolsUsed(linked->functions[0]), (std::vector<std::string>{"v", "v"}));
}

TEST(PtxLinkTest, InternalNamesThatCollideAreRenamedWithTheirReferences) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("a", std::string(kHeader) + ".global .u32 t[2];\n" + Kernel("ka", "t")));
  inputs.push_back(Input("b", std::string(kHeader) + ".global .u32 t[2];\n" + Kernel("kb", "t")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  ASSERT_EQ(linked->variables.size(), 2u);
  EXPECT_NE(FindVariable(*linked, "t$0"), nullptr);
  EXPECT_NE(FindVariable(*linked, "t$1"), nullptr);
  EXPECT_EQ(SymbolsUsed(linked->functions[0]), (std::vector<std::string>{"t$0", "t$0"}));
  EXPECT_EQ(SymbolsUsed(linked->functions[1]), (std::vector<std::string>{"t$1", "t$1"}));
  absl::StatusOr<std::vector<uint32_t>> spirv = EmitSpirv(*linked);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_TRUE(ValidSpirv(*spirv));
}

TEST(PtxLinkTest, DynamicSharedArraysOfOneNameBecomeOneWithTheLargestAlignment) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("a", std::string(kHeader) + ".extern .shared .align 4 .b8 dyn[];\n"));
  inputs.push_back(Input("b", std::string(kHeader) + ".extern .shared .align 16 .b8 dyn[];\n"));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  ASSERT_EQ(linked->variables.size(), 1u);
  EXPECT_EQ(linked->variables[0].align, 16);
}

TEST(PtxLinkTest, ExternInAnotherStateSpaceIsAnError) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("def", std::string(kHeader) + ".visible .const .u32 c = 1;\n"));
  inputs.push_back(Input("use", std::string(kHeader) + ".extern .global .u32 c;\n"));
  EXPECT_FALSE(LinkModules(std::move(inputs)).ok());
}

TEST(PtxLinkTest, TheNewestVersionAndTargetWin) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("old", ".version 6.4\n.target sm_60\n.address_size 64\n"));
  inputs.push_back(Input("new", ".version 7.10\n.target sm_75\n.address_size 64\n"));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  EXPECT_EQ(linked->version, "7.10");
  EXPECT_EQ(linked->target, "sm_75");
}

TEST(PtxLinkTest, ExternFunctionOfOneInputBindsToTheDefinitionOfAnother) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("link_call_b.ptx", ReadCorpus("link_call_b.ptx")));
  inputs.push_back(Input("link_call_a.ptx", ReadCorpus("link_call_a.ptx")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  // The prototype is gone; the definition and both kernels remain.
  ASSERT_EQ(linked->functions.size(), 3u);
  EXPECT_EQ(linked->functions[0].name, "link_call_b");
  EXPECT_EQ(linked->functions[1].name, "_Z11link_weightii");
  EXPECT_FALSE(linked->functions[1].is_declaration);
  absl::StatusOr<std::vector<uint32_t>> spirv = EmitSpirv(*linked);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_TRUE(ValidSpirv(*spirv));
}

TEST(PtxLinkTest, UndefinedFunctionReferenceNamesTheFunctionAndTheInput) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("b", ReadCorpus("link_call_b.ptx")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("undefined reference to '_Z11link_weightii' in 'b'"),
            std::string::npos)
      << linked.status();
}

std::string Function(const std::string& linkage, const std::string& name) {
  return linkage + " .func (.param .b32 r) " + name + "()\n{\n st.param.b32 [r], 1;\n ret;\n}\n";
}

TEST(PtxLinkTest, TwoVisibleFunctionsOfOneNameAreAnError) {
  std::vector<LinkInput> inputs;
  inputs.push_back(Input("a", std::string(kHeader) + Function(".visible", "f")));
  inputs.push_back(Input("b", std::string(kHeader) + Function(".visible", "f")));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("multiple definition of function 'f' in 'a' and 'b'"),
            std::string::npos)
      << linked.status();
}

TEST(PtxLinkTest, InternalFunctionsThatCollideAreRenamedWithTheirCalls) {
  const std::string kernel =
      "()\n{\n .reg .b32 %r<2>;\n { .param .b32 rv;\n call (rv), f, ();\n"
      " ld.param.b32 %r1, [rv];\n }\n ret;\n}\n";
  std::vector<LinkInput> inputs;
  inputs.push_back(
      Input("a", std::string(kHeader) + Function("", "f") + ".visible .entry ka" + kernel));
  inputs.push_back(Input("b", std::string(kHeader) + Function(".weak", "g") + Function("", "f") +
                                  ".visible .entry kb" + kernel));
  absl::StatusOr<Module> linked = LinkModules(std::move(inputs));
  ASSERT_TRUE(linked.ok()) << linked.status();
  ASSERT_EQ(linked->functions.size(), 5u);
  EXPECT_EQ(linked->functions[0].name, "f$0");
  EXPECT_EQ(linked->functions[2].name, "g");
  EXPECT_EQ(linked->functions[3].name, "f$1");
  EXPECT_EQ(SymbolsUsed(linked->functions[1]), (std::vector<std::string>{"f$0", "rv"}));
  EXPECT_EQ(SymbolsUsed(linked->functions[4]), (std::vector<std::string>{"f$1", "rv"}));
  absl::StatusOr<std::vector<uint32_t>> spirv = EmitSpirv(*linked);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_TRUE(ValidSpirv(*spirv));
}

}  // namespace
}  // namespace streamhal::ptx
