#include "ptx/translate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "spirv-tools/libspirv.hpp"

namespace streamhal::ptx {
namespace {

std::string ReadCorpus(const std::string& name) {
  std::ifstream in(std::string(STREAMHAL_PTX_CORPUS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Validates with Vulkan 1.2 rules (the environment streamhal targets).
std::string Validate(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_2);
  std::string messages;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& pos, const char* message) {
        messages += std::to_string(pos.index) + ": " + message + "\n";
      });
  if (!tools.Validate(words)) {
    std::string text;
    tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_INDENT);
    return messages + "\n" + text;
  }
  return "";
}

class CorpusTest : public testing::TestWithParam<const char*> {};

TEST_P(CorpusTest, TranslatesToValidVulkanSpirv) {
  const std::string text = ReadCorpus(std::string(GetParam()) + ".ptx");
  ASSERT_FALSE(text.empty()) << GetParam();
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

INSTANTIATE_TEST_SUITE_P(Nvcc, CorpusTest,
                         testing::Values("vector_add", "saxpy", "grid_stride", "block_reduce",
                                         "histogram", "early_return", "dyn_shared"));

constexpr char kHeader[] = ".version 8.0\n.target sm_75\n.address_size 64\n";

TEST(PtxTranslateTest, UnsupportedInstructionNamesItsLine) {
  const std::string text = std::string(kHeader) +
                           ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
                           " popc.b32 %r1, %r2;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_EQ(spirv.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_NE(spirv.status().message().find("ptx line 7"), std::string::npos) << spirv.status();
  EXPECT_NE(spirv.status().message().find("popc"), std::string::npos) << spirv.status();
}

TEST(PtxTranslateTest, SyntaxErrorNamesItsLine) {
  const std::string text = std::string(kHeader) + ".visible .entry k()\n{\n mov.u32 %r1 1;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_FALSE(spirv.ok());
  EXPECT_NE(spirv.status().message().find("ptx line 6"), std::string::npos) << spirv.status();
}

TEST(PtxTranslateTest, ModuleWithoutKernelsIsAnError) { EXPECT_FALSE(TranslatePtx(kHeader).ok()); }

TEST(PtxTranslateTest, StructParameterReadsAsWords) {
  const std::string text =
      std::string(kHeader) +
      ".visible .entry k(.param .align 8 .b8 k_p[16], .param .u64 out)\n{\n"
      " .reg .b32 %r<3>; .reg .b64 %rd<4>;\n"
      " ld.param.u32 %r1, [k_p+4];\n ld.param.u64 %rd1, [k_p+8];\n"
      " ld.param.u64 %rd2, [out];\n cvta.to.global.u64 %rd3, %rd2;\n"
      " st.global.u32 [%rd3], %r1;\n st.global.u64 [%rd3+8], %rd1;\n ret;\n}\n";
  auto spirv = TranslatePtx(text);
  ASSERT_TRUE(spirv.ok()) << spirv.status();
  EXPECT_EQ(Validate(*spirv), "");
}

}  // namespace
}  // namespace streamhal::ptx
