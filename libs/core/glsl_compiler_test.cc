#include "core/glsl_compiler.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint32_t kSpirvMagic = 0x07230203;

// The folder holding this test, where the prelude's source file lives too.
// CMake names it (a compiler cache may make __FILE__ relative to the build
// folder).
std::string SourceDir() { return STREAMHAL_TEST_SOURCE_DIR; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

constexpr char kSaxpy[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params { float_ptr x; float_ptr y; float a; uint n; } p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y.v[i] += p.a * p.x.v[i];
}
)";

// A kernel using every name the prelude defines; ctest also compiles it with
// glslangValidator (streamhal_glsl_prelude_compiles_without_warnings).
std::string PreludeTour() { return ReadFile(SourceDir() + "/testing/prelude_tour.comp"); }

class GlslCompilerTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!GlslCompilerAvailable()) GTEST_SKIP() << "built without glslang";
  }
};

TEST(GlslPreludeTest, EmbeddedPreludeEqualsTheInstalledFile) {
  const std::string file = ReadFile(SourceDir() + "/include_glsl/streamhal/kernel.glsl");
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(GlslPrelude(), file)
      << "glsl_compiler.cc's copy of the prelude differs from include_glsl/streamhal/kernel.glsl";
}

TEST(GlslCompilerAvailabilityTest, WithoutGlslangCompileIsNotSupported) {
  if (GlslCompilerAvailable()) GTEST_SKIP() << "built with glslang";
  std::string error_log;
  const auto result = CompileGlsl(kSaxpy, {}, &error_log);
  EXPECT_EQ(ErrorCodeOf(result.status()), ErrorCode::kNotSupported);
  EXPECT_THAT(error_log, HasSubstr("glslang"));
}

TEST_F(GlslCompilerTest, CompilesToSpirv15) {
  const auto result = CompileGlsl(kSaxpy, {});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_GE(result->spirv.size(), 5u);
  EXPECT_EQ(result->spirv[0], kSpirvMagic);
  EXPECT_EQ(result->spirv[1], 0x00010500u);  // SPIR-V 1.5, as Vulkan 1.2 allows
  EXPECT_TRUE(result->error_log.empty());
  EXPECT_GT(result->wall_time_ms, 0.0);
}

TEST_F(GlslCompilerTest, PreludeDefinesEveryDocumentedNameWithoutWarnings) {
  const std::string tour = PreludeTour();
  ASSERT_THAT(tour, HasSubstr("__syncthreads();"));
  const auto result = CompileGlsl(tour, {});
  ASSERT_TRUE(result.ok()) << result.status();
  // Every kernel includes the prelude: a warning here would be in the info
  // log of every cuModuleLoadDataEx (GLSL reserves "__" names; the prelude
  // defines them without glslang's reserved-name warning).
  EXPECT_EQ(result->info_log, "");
}

TEST_F(GlslCompilerTest, NoDunderNamesSwitchCompilesWithoutWarnings) {
  std::string source = kSaxpy;
  source.insert(source.find("#include"), "#define STREAMHAL_NO_DUNDER_NAMES\n");
  const auto result = CompileGlsl(source, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->info_log, "");
}

TEST_F(GlslCompilerTest, LiteralWorkgroupSizeSwitchLetsTheKernelChoose) {
  const auto result = CompileGlsl(R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_LITERAL_WORKGROUP_SIZE
#include "streamhal/kernel.glsl"
layout(local_size_x = 64) in;
STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params { uint_ptr out_; } p;
void main() { p.out_.v[threadIdx.x] = blockDim.x; }
)",
                                  {});
  ASSERT_TRUE(result.ok()) << result.status();
}

TEST_F(GlslCompilerTest, CompileErrorIsInvalidPtxWithTheLog) {
  std::string error_log;
  GlslOptions options;
  options.source_name = "broken.comp";
  const auto result = CompileGlsl(R"(#version 460
layout(local_size_x = 1) in;
void main() { undeclared_thing = 1; }
)",
                                  options, &error_log);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(ErrorCodeOf(result.status()), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("broken.comp:3"));
  EXPECT_THAT(error_log, HasSubstr("undeclared_thing"));
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("undeclared_thing"));
}

TEST_F(GlslCompilerTest, MissingMainIsALinkError) {
  std::string error_log;
  const auto result = CompileGlsl("#version 460\nlayout(local_size_x = 1) in;\n", {}, &error_log);
  EXPECT_EQ(ErrorCodeOf(result.status()), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("entry point"));
}

TEST_F(GlslCompilerTest, OtherIncludesFailWithAClearLog) {
  std::string error_log;
  const auto result = CompileGlsl(R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "my/helpers.glsl"
layout(local_size_x = 1) in;
void main() {}
)",
                                  {}, &error_log);
  EXPECT_EQ(ErrorCodeOf(result.status()), ErrorCode::kInvalidPtx);
  EXPECT_THAT(error_log, HasSubstr("my/helpers.glsl"));
  EXPECT_THAT(error_log, HasSubstr("only \"streamhal/kernel.glsl\" can be included"));
}

TEST_F(GlslCompilerTest, SystemStyleIncludeOfThePreludeWorks) {
  std::string source = kSaxpy;
  const size_t at = source.find("\"streamhal/kernel.glsl\"");
  source.replace(at, 23, "<streamhal/kernel.glsl>");
  const auto result = CompileGlsl(source, {});
  EXPECT_TRUE(result.ok()) << result.status();
}

TEST_F(GlslCompilerTest, VerboseLogsTheCompileTime) {
  GlslOptions options;
  options.verbose = true;
  const auto result = CompileGlsl(kSaxpy, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->info_log, HasSubstr("bytes of SPIR-V in"));
  const auto quiet = CompileGlsl(kSaxpy, {});
  ASSERT_TRUE(quiet.ok());
  EXPECT_THAT(quiet->info_log, Not(HasSubstr("bytes of SPIR-V in")));
}

TEST_F(GlslCompilerTest, ConcurrentCompilesAgree) {
  const std::string tour = PreludeTour();
  const auto reference = CompileGlsl(tour, {});
  ASSERT_TRUE(reference.ok()) << reference.status();
  constexpr int kThreads = 8;
  std::vector<std::vector<uint32_t>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&results, &tour, t] {
      for (int i = 0; i < 4; ++i) {
        auto compiled = CompileGlsl(t % 2 == 0 ? std::string_view(tour) : kSaxpy, {});
        if (compiled.ok() && t % 2 == 0) results[t] = std::move(compiled->spirv);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; t += 2) EXPECT_EQ(results[t], reference->spirv) << "thread " << t;
}

// The names of the module's OpEntryPoint instructions.
std::vector<std::string> EntryPointNames(const std::vector<uint32_t>& words) {
  std::vector<std::string> names;
  for (size_t i = 5; i < words.size() && (words[i] >> 16) != 0; i += words[i] >> 16) {
    const uint32_t count = words[i] >> 16;
    if ((words[i] & 0xffff) == 15 && count > 3 && i + count <= words.size()) {  // OpEntryPoint
      const char* name = reinterpret_cast<const char*>(&words[i + 3]);
      names.emplace_back(name, strnlen(name, (count - 3) * 4));
    }
  }
  return names;
}

TEST_F(GlslCompilerTest, EntryPointIsMainByDefault) {
  const auto result = CompileGlsl(kSaxpy, {});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(EntryPointNames(result->spirv), testing::ElementsAre("main"));
}

TEST_F(GlslCompilerTest, EntryPointOptionNamesTheKernel) {
  GlslOptions options;
  options.entry_point = "saxpy";
  const auto result = CompileGlsl(kSaxpy, options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(EntryPointNames(result->spirv), testing::ElementsAre("saxpy"));
}

// The CMake path (streamhal_add_kernels) compiles with glslangValidator and
// names each kernel after its file; a kernel must come out the same either way.
TEST_F(GlslCompilerTest, AgreesWithGlslangValidator) {
  if (std::system("glslangValidator --version > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "glslangValidator is not on PATH";
  }
  const std::string dir = testing::TempDir();
  const std::string source_path = dir + "/streamhal_agree.comp";
  const std::string spv_path = dir + "/streamhal_agree.spv";
  {
    std::ofstream out(source_path, std::ios::binary);
    out << PreludeTour();
  }
  const std::string command = "glslangValidator -V --target-env vulkan1.2 -I" + SourceDir() +
                              "/include_glsl -e tour --source-entrypoint main -o " + spv_path +
                              " " + source_path + " > /dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::string bytes = ReadFile(spv_path);
  ASSERT_EQ(bytes.size() % 4, 0u);
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  GlslOptions options;
  options.entry_point = "tour";
  const auto result = CompileGlsl(PreludeTour(), options);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->spirv, words);
  std::remove(source_path.c_str());
  std::remove(spv_path.c_str());
}

}  // namespace
}  // namespace streamhal
