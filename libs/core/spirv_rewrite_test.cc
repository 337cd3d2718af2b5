#include "core/spirv_rewrite.h"

#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/spirv_reflect.h"
#include "core/status.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

bool HaveTool(const std::string& tool) {
  return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

size_t CountOccurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1)) {
    ++count;
  }
  return count;
}

// Compiles GLSL, and validates and disassembles SPIR-V, with the command-line
// tools in a private temporary directory.
class SpirvRewriteTest : public testing::Test {
 protected:
  void SetUp() override {
    for (const char* tool : {"glslangValidator", "spirv-val", "spirv-dis"}) {
      if (!HaveTool(tool)) GTEST_SKIP() << tool << " is not installed";
    }
    std::string templ = testing::TempDir() + "spirv_rewrite_XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Runs `command`, returning whether it succeeded; its output goes to
  // `output` when given.
  bool Run(const std::string& command, std::string* output = nullptr) {
    const std::string log = dir_ + "/log.txt";
    const bool ok = std::system((command + " > " + log + " 2>&1").c_str()) == 0;
    if (output != nullptr) *output = ReadText(log);
    return ok;
  }

  std::string WriteWords(const std::vector<uint32_t>& words) {
    const std::string path = dir_ + "/module_" + std::to_string(counter_++) + ".spv";
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(words.data()),
              static_cast<std::streamsize>(words.size() * 4));
    return path;
  }

  std::vector<uint32_t> ReadWords(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
  }

  std::vector<uint32_t> Compile(const std::string& source, const std::string& name = "main") {
    const std::string base = dir_ + "/" + name + "_" + std::to_string(counter_++);
    std::ofstream(base + ".comp") << source;
    std::string command = "glslangValidator -V --target-env vulkan1.2 -o " + base + ".spv ";
    if (name != "main") command += "-e " + name + " --source-entrypoint main ";
    std::string output;
    if (!Run(command + base + ".comp", &output)) {
      ADD_FAILURE() << "glslangValidator failed:\n" << output;
      return {};
    }
    return ReadWords(base + ".spv");
  }

  // spirv-val's verdict: empty when valid, else its message.
  std::string Validate(const std::vector<uint32_t>& words, const std::string& flags = "") {
    std::string output;
    if (Run("spirv-val --target-env vulkan1.2 " + flags + " " + WriteWords(words), &output)) {
      return "";
    }
    return output.empty() ? "spirv-val failed" : output;
  }

  std::string Disassemble(const std::vector<uint32_t>& words) {
    std::string output;
    EXPECT_TRUE(Run("spirv-dis --raw-id " + WriteWords(words), &output)) << output;
    return output;
  }

  std::string dir_;
  int counter_ = 0;
};

constexpr char kFourKib[] = R"(#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430) buffer UintBuf { uint v[]; };
layout(push_constant) uniform Params { UintBuf out_buf; uvec4 data[255]; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  p.out_buf.v[i] = p.data[i % 255].x + p.data[254].w;
}
)";

TEST_F(SpirvRewriteTest, FourKibBlockMovesToUniformAndValidates) {
  const std::vector<uint32_t> spv = Compile(kFourKib);
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> before = ReflectSpirv(spv);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(before->kernels.at(0).param_block_size, 4096u);

  absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(spv, 1, 2);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_EQ(Validate(*rewritten), "");

  const std::string text = Disassemble(*rewritten);
  EXPECT_EQ(text.find("PushConstant"), std::string::npos) << text;
  EXPECT_EQ(CountOccurrences(text, "DescriptorSet 1"), 1u) << text;
  EXPECT_EQ(CountOccurrences(text, "Binding 2"), 1u) << text;
  EXPECT_NE(text.find("Block"), std::string::npos);

  // The kernel itself is untouched: same name and block size, and the block
  // is no longer a push-constant block.
  absl::StatusOr<ModuleReflection> after = ReflectSpirv(*rewritten);
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->kernels.size(), 1u);
  EXPECT_EQ(after->kernels[0].name, "main");
  EXPECT_TRUE(after->kernels[0].block_size_from_spec);
  EXPECT_TRUE(after->kernels[0].params.empty());
}

TEST_F(SpirvRewriteTest, Std430OffsetsNeedUniformBufferStandardLayout) {
  // float[3] with ArrayStride 4 is legal for push constants but not under
  // the std140-like uniform rules, so the device must enable
  // uniformBufferStandardLayout (Vulkan 1.2) for such blocks.
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 1) in;
layout(push_constant) uniform P { uint a; float f[3]; } p;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { float g_out; };
void main() { g_out = p.f[2] + float(p.a); }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(spv, 1, 0);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_NE(Validate(*rewritten), "");
  EXPECT_EQ(Validate(*rewritten, "--uniform-buffer-standard-layout"), "");
}

TEST_F(SpirvRewriteTest, MergesWithExistingUniformPointerTypes) {
  // A UBO already declares `OpTypePointer Uniform %uint`; the push-constant
  // `OpTypePointer PushConstant %uint` must merge with it. Reading the UBO
  // first or second changes which of the two is declared first.
  for (const char* body : {"g_out = u.k + p.n;", "g_out = p.n + u.k;"}) {
    SCOPED_TRACE(body);
    const std::vector<uint32_t> spv = Compile(std::string(R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { uint g_out; };
layout(set = 0, binding = 1) uniform U { uint k; } u;
layout(push_constant) uniform P { uint n; } p;
void main() { )") + body + " }\n");
    ASSERT_FALSE(spv.empty());
    EXPECT_EQ(CountOccurrences(Disassemble(spv), "OpTypePointer Uniform %"), 2u);

    absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(spv, 3, 0);
    ASSERT_TRUE(rewritten.ok()) << rewritten.status();
    EXPECT_EQ(Validate(*rewritten), "");
    const std::string text = Disassemble(*rewritten);
    EXPECT_EQ(text.find("PushConstant"), std::string::npos) << text;
    // One pointer to U, one to P, one (merged) to uint.
    EXPECT_EQ(CountOccurrences(text, "OpTypePointer Uniform %"), 3u) << text;
  }
}

TEST_F(SpirvRewriteTest, SmallTypesGetUniformCapabilities) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 1) in;
layout(push_constant) uniform P { uint8_t a; uint16_t b; uint c; } p;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { uint g_out; };
void main() { g_out = uint(p.a) + uint(p.b) + p.c; }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.at(0).params.size(), 3u);
  EXPECT_EQ(reflection->kernels[0].params[0].size, 1u);
  EXPECT_EQ(reflection->kernels[0].params[1].offset, 2u);
  EXPECT_EQ(reflection->kernels[0].params[1].size, 2u);

  absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(spv, 1, 0);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_EQ(Validate(*rewritten, "--uniform-buffer-standard-layout"), "");
  const std::string text = Disassemble(*rewritten);
  EXPECT_NE(text.find("UniformAndStorageBuffer8BitAccess"), std::string::npos) << text;
  // StorageUniform16 and UniformAndStorageBuffer16BitAccess are one value.
  EXPECT_NE(text.find("OpCapability UniformAndStorageBuffer16BitAccess"), std::string::npos)
      << text;
}

TEST_F(SpirvRewriteTest, EveryKernelOfALinkedModuleIsRewritten) {
  if (!HaveTool("spirv-link")) GTEST_SKIP() << "spirv-link is not installed";
  const std::vector<uint32_t> a = Compile(R"(#version 460
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform PA { uvec4 x[10]; } pa;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { uint g_out; };
void main() { g_out = pa.x[9].y; }
)",
                                          "kernel_a");
  const std::vector<uint32_t> b = Compile(R"(#version 460
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform PB { uvec4 y; } pb;
shared uint s[4];
void main() { s[gl_LocalInvocationIndex % 4] = pb.y.z; }
)",
                                          "kernel_b");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  const std::string linked_path = dir_ + "/linked.spv";
  std::string output;
  ASSERT_TRUE(Run("spirv-link --target-env vulkan1.2 " + WriteWords(a) + " " + WriteWords(b) +
                      " -o " + linked_path,
                  &output))
      << output;
  const std::vector<uint32_t> linked = ReadWords(linked_path);

  absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(linked, 1, 0);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_EQ(Validate(*rewritten), "");
  const std::string text = Disassemble(*rewritten);
  EXPECT_EQ(text.find("PushConstant"), std::string::npos) << text;
  EXPECT_EQ(CountOccurrences(text, "DescriptorSet 1"), 2u) << text;
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(*rewritten);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  EXPECT_EQ(reflection->kernels.size(), 2u);
}

TEST_F(SpirvRewriteTest, ModuleWithoutPushConstantsIsUnchanged) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { uint g_out; };
void main() { g_out = 1u; }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(spv, 1, 0);
  ASSERT_TRUE(rewritten.ok()) << rewritten.status();
  EXPECT_EQ(*rewritten, spv);
}

TEST(SpirvRewriteMalformedTest, RejectsMalformedModules) {
  EXPECT_EQ(ErrorCodeOf(MovePushConstantsToUniform({}, 0, 0).status()), ErrorCode::kInvalidImage);
  const std::vector<uint32_t> truncated = {0x07230203, 0x00010500, 0, 10, 0, 0x00040015, 2};
  EXPECT_EQ(ErrorCodeOf(MovePushConstantsToUniform(truncated, 0, 0).status()),
            ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal
