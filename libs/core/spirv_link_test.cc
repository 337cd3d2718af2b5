#include "core/spirv_link.h"

#include <cstring>
#include <string>
#include <vector>

#include "core/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv-tools/libspirv.hpp"

namespace streamhal {
namespace {

using ::testing::HasSubstr;

std::vector<uint32_t> Assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << text;
  return words;
}

constexpr char kPreamble[] = R"(
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
)";

// Exports int twice(int).
std::string Library() {
  return std::string(kPreamble) + R"(
OpDecorate %twice LinkageAttributes "twice" Export
%int = OpTypeInt 32 1
%fn = OpTypeFunction %int %int
%twice = OpFunction %int None %fn
%x = OpFunctionParameter %int
%entry = OpLabel
%r = OpIAdd %int %x %x
OpReturnValue %r
OpFunctionEnd
)";
}

// A kernel calling the imported twice().
std::string Kernel() {
  return std::string(kPreamble) + R"(
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %twice LinkageAttributes "twice" Import
%void = OpTypeVoid
%vfn = OpTypeFunction %void
%int = OpTypeInt 32 1
%int_2 = OpConstant %int 2
%fn = OpTypeFunction %int %int
%twice = OpFunction %int None %fn
%x = OpFunctionParameter %int
OpFunctionEnd
%main = OpFunction %void None %vfn
%entry = OpLabel
%r = OpFunctionCall %int %twice %int_2
OpReturn
OpFunctionEnd
)";
}

TEST(SpirvLinkTest, DeclaresLinkageReadsTheCapabilities) {
  EXPECT_TRUE(DeclaresLinkage(Assemble(Library())));
  EXPECT_FALSE(DeclaresLinkage(Assemble(R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
)")));
  std::vector<uint32_t> words = Assemble(Library());
  EXPECT_FALSE(DeclaresLinkage(absl::MakeConstSpan(words).subspan(0, 4)));  // header only
  words[5] = 0;  // an instruction of no words
  EXPECT_FALSE(DeclaresLinkage(words));
  EXPECT_FALSE(DeclaresLinkage({}));
}

TEST(SpirvLinkTest, ImportsBindToExportsAndLinkageIsRemoved) {
  absl::StatusOr<std::vector<uint32_t>> linked =
      LinkSpirvModules({Assemble(Kernel()), Assemble(Library())});
  ASSERT_TRUE(linked.ok()) << linked.status();
  EXPECT_FALSE(DeclaresLinkage(*linked));
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string text;
  ASSERT_TRUE(tools.Disassemble(*linked, &text));
  EXPECT_THAT(text, Not(HasSubstr("LinkageAttributes")));
  EXPECT_TRUE(tools.Validate(*linked)) << text;
}

TEST(SpirvLinkTest, AnUnresolvedImportIsInvalidImage) {
  absl::StatusOr<std::vector<uint32_t>> linked = LinkSpirvModules({Assemble(Kernel())});
  EXPECT_EQ(ErrorCodeOf(linked.status()), ErrorCode::kInvalidImage);
  EXPECT_THAT(linked.status().message(), HasSubstr("twice"));
  // Two exports of one name.
  linked = LinkSpirvModules({Assemble(Kernel()), Assemble(Library()), Assemble(Library())});
  EXPECT_EQ(ErrorCodeOf(linked.status()), ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal
