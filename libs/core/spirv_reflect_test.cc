#include "core/spirv_reflect.h"

#include <stdlib.h>  // mkdtemp

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/spirv_rewrite.h"
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

// Compiles GLSL and assembles/links SPIR-V with the command-line tools, in a
// private temporary directory.
class SpirvReflectTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!HaveTool("glslangValidator")) GTEST_SKIP() << "glslangValidator is not installed";
    std::string templ = testing::TempDir() + "spirv_reflect_XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Runs `command`; on failure records its output as a test failure.
  bool Run(const std::string& command) {
    const std::string log = dir_ + "/log.txt";
    if (std::system((command + " > " + log + " 2>&1").c_str()) == 0) return true;
    ADD_FAILURE() << command << " failed:\n" << ReadText(log);
    return false;
  }

  std::vector<uint32_t> ReadWords(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
  }

  void WriteWords(const std::string& path, const std::vector<uint32_t>& words) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(words.data()),
              static_cast<std::streamsize>(words.size() * 4));
  }

  // GLSL compute source -> SPIR-V; `name` becomes the entry point name.
  std::vector<uint32_t> Compile(const std::string& source, const std::string& name = "main",
                                const std::string& env = "vulkan1.2") {
    const std::string base = dir_ + "/" + name + "_" + std::to_string(counter_++);
    std::ofstream(base + ".comp") << source;
    std::string command = "glslangValidator -V --target-env " + env + " -o " + base + ".spv ";
    if (name != "main") command += "-e " + name + " --source-entrypoint main ";
    if (!Run(command + base + ".comp")) return {};
    return ReadWords(base + ".spv");
  }

  std::vector<uint32_t> Assemble(const std::string& text) {
    const std::string base = dir_ + "/asm_" + std::to_string(counter_++);
    std::ofstream(base + ".spvasm") << text;
    if (!Run("spirv-as --target-env spv1.5 -o " + base + ".spv " + base + ".spvasm")) return {};
    return ReadWords(base + ".spv");
  }

  std::vector<uint32_t> Link(const std::vector<std::vector<uint32_t>>& modules) {
    std::string command = "spirv-link --target-env vulkan1.2 ";
    for (const auto& module : modules) {
      const std::string path = dir_ + "/link_in_" + std::to_string(counter_++) + ".spv";
      WriteWords(path, module);
      command += path + " ";
    }
    const std::string out = dir_ + "/linked_" + std::to_string(counter_++) + ".spv";
    if (!Run(command + "-o " + out)) return {};
    return ReadWords(out);
  }

  std::string dir_;
  int counter_ = 0;
};

constexpr char kVectorAdd[] = R"(#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(buffer_reference, std430) buffer FloatBuf { float v[]; };
layout(push_constant) uniform Params { FloatBuf a; FloatBuf b; uint64_t c; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < p.n) {
    FloatBuf c = FloatBuf(p.c);
    c.v[i] = p.a.v[i] + p.b.v[i];
  }
}
)";

constexpr char kDynamicShared[] = R"(#version 460
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kDynSharedBytes = 4;
shared uint dyn[kDynSharedBytes / 4];
shared float tile[16][8];
layout(push_constant) uniform Params { uint n; } p;
void main() {
  dyn[gl_LocalInvocationIndex] = p.n;
  tile[gl_LocalInvocationIndex % 16][gl_LocalInvocationIndex % 8] = 1.0;
  barrier();
}
)";

constexpr char kGlobals[] = R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer streamhal_globals {
  float g_scale;
  uint g_counts[4];
  vec4 g_v;
};
void main() { g_counts[1] = uint(g_scale); }
)";

TEST_F(SpirvReflectTest, VectorAddHasPointerAndScalarParams) {
  const std::vector<uint32_t> spv = Compile(kVectorAdd);
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.size(), 1u);
  const KernelInfo& k = reflection->kernels[0];
  EXPECT_EQ(k.name, "main");
  ASSERT_EQ(k.params.size(), 4u);
  const uint32_t offsets[] = {0, 8, 16, 24};
  const uint32_t sizes[] = {8, 8, 8, 4};
  const ParamKind kinds[] = {ParamKind::kPointer, ParamKind::kPointer, ParamKind::kScalar,
                             ParamKind::kScalar};
  const char* names[] = {"a", "b", "c", "n"};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(k.params[i].offset, offsets[i]) << i;
    EXPECT_EQ(k.params[i].size, sizes[i]) << i;
    EXPECT_EQ(k.params[i].kind, kinds[i]) << i << " " << ParamKindName(k.params[i].kind);
    EXPECT_EQ(k.params[i].name, names[i]);
  }
  EXPECT_EQ(k.param_block_size, 28u);
  EXPECT_FALSE(k.has_dynamic_shared_spec);
  EXPECT_EQ(k.static_shared_bytes, 0u);
  EXPECT_FALSE(k.uses_globals);
  EXPECT_FALSE(reflection->globals.has_value());
  EXPECT_EQ(reflection->spirv_version, 0x00010500u);
  EXPECT_EQ(reflection->FindKernel("main"), &reflection->kernels[0]);
  EXPECT_EQ(reflection->FindKernel("other"), nullptr);
}

TEST_F(SpirvReflectTest, SpecConstantBlockSizeWithDefaults) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 64, local_size_y = 4, local_size_x_id = 0, local_size_y_id = 1,
       local_size_z_id = 2) in;
void main() {}
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  EXPECT_TRUE(k.block_size_from_spec);
  EXPECT_EQ(k.block_dim_from_spec, (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(k.literal_block_size, (std::array<uint32_t, 3>{64, 4, 1}));
  EXPECT_EQ(k.spec_block_size_defaults, (std::array<uint32_t, 3>{64, 4, 1}));
  EXPECT_TRUE(k.params.empty());
  EXPECT_EQ(k.param_block_size, 0u);
}

TEST_F(SpirvReflectTest, LiteralLocalSizeIsFixed) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 64, local_size_y = 2) in;
void main() {}
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  EXPECT_FALSE(k.block_size_from_spec);
  EXPECT_EQ(k.block_dim_from_spec, (std::array<bool, 3>{false, false, false}));
  EXPECT_EQ(k.literal_block_size, (std::array<uint32_t, 3>{64, 2, 1}));
}

TEST_F(SpirvReflectTest, MixedSpecAndLiteralDimensions) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x_id = 0, local_size_y = 4) in;
void main() {}
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  EXPECT_FALSE(k.block_size_from_spec);
  EXPECT_EQ(k.block_dim_from_spec, (std::array<bool, 3>{true, false, false}));
  EXPECT_EQ(k.literal_block_size, (std::array<uint32_t, 3>{1, 4, 1}));
}

TEST_F(SpirvReflectTest, SpecIdOnWrongDimensionIsRejected) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x_id = 1) in;
void main() {}
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_FALSE(reflection.ok());
  EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
  EXPECT_NE(reflection.status().message().find("SpecId 1"), absl::string_view::npos)
      << reflection.status();
}

TEST_F(SpirvReflectTest, ReservedSpecIdOfWrongTypeIsRejected) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 1) in;
layout(constant_id = 3) const float kNotBytes = 1.0;
layout(push_constant) uniform P { float x; } p;
void main() { if (p.x > kNotBytes) barrier(); }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_FALSE(reflection.ok());
  EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
}

TEST_F(SpirvReflectTest, LocalSizeIdWithSpecConstants) {
  if (!HaveTool("spirv-as")) GTEST_SKIP() << "spirv-as is not installed";
  const std::vector<uint32_t> spv = Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "k"
               OpExecutionModeId %main LocalSizeId %x %four %one
               OpDecorate %x SpecId 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
          %x = OpSpecConstant %uint 32
       %four = OpConstant %uint 4
        %one = OpConstant %uint 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.block_dim_from_spec, (std::array<bool, 3>{true, false, false}));
  EXPECT_EQ(k.literal_block_size, (std::array<uint32_t, 3>{32, 4, 1}));
  EXPECT_EQ(k.spec_block_size_defaults, (std::array<uint32_t, 3>{32, 0, 0}));
}

TEST_F(SpirvReflectTest, DynamicSharedMemoryFromSpecId3) {
  const std::vector<uint32_t> spv = Compile(kDynamicShared);
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  EXPECT_TRUE(k.has_dynamic_shared_spec);
  // Only tile[16][8] of float is static; dyn is sized by SpecId 3.
  EXPECT_EQ(k.static_shared_bytes, 16u * 8u * 4u);
  EXPECT_TRUE(k.block_size_from_spec);
}

TEST_F(SpirvReflectTest, StaticSharedUsesStd430Sizes) {
  constexpr char kSource[] = R"(#version 460
layout(local_size_x = 32) in;
struct S { vec3 p; float w; };
shared vec3 a[4];   // stride 16: 64 bytes
shared float b;     // 4 bytes
shared S s[2];      // 16 bytes each: 32 bytes
void main() {
  a[gl_LocalInvocationIndex % 4] = vec3(1.0);
  b = 2.0;
  s[1].w = b;
  barrier();
}
)";
  // vulkan1.0 gives SPIR-V 1.0, whose interface lists no Workgroup variables.
  for (const char* env : {"vulkan1.2", "vulkan1.0"}) {
    SCOPED_TRACE(env);
    const std::vector<uint32_t> spv = Compile(kSource, "main", env);
    ASSERT_FALSE(spv.empty());
    absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
    ASSERT_TRUE(reflection.ok()) << reflection.status();
    const KernelInfo& k = reflection->kernels.at(0);
    EXPECT_FALSE(k.has_dynamic_shared_spec);
    EXPECT_EQ(k.static_shared_bytes, 64u + 4u + 32u);
  }
}

TEST_F(SpirvReflectTest, DeclaredButUnusedSharedMemoryCounts) {
  // glslang lists every global in the interface (SPIR-V 1.4+), and a 1.0
  // interface says nothing about Workgroup variables: either way the unused
  // array may be allocated, so it counts.
  for (const char* env : {"vulkan1.2", "vulkan1.0"}) {
    SCOPED_TRACE(env);
    const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 32) in;
shared uint used[4];
shared uint unused[1000];
void main() { used[gl_LocalInvocationIndex % 4] = 1u; }
)",
                                              "main", env);
    ASSERT_FALSE(spv.empty());
    absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
    ASSERT_TRUE(reflection.ok()) << reflection.status();
    EXPECT_EQ(reflection->kernels.at(0).static_shared_bytes, 16u + 4000u);
  }
}

TEST_F(SpirvReflectTest, StructVectorMatrixAndArrayParams) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
struct Pair { uint64_t p; uint n; };
layout(push_constant) uniform P {
  uint a; Pair s; float f[3]; vec3 v; mat2 m; layout(row_major) mat2x3 r;
} p;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { float g_out; };
void main() { g_out = float(p.a + p.s.n) + p.f[1] + p.v.x + p.m[0][0] + p.r[1][1]; }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  ASSERT_EQ(k.params.size(), 6u);
  struct Expected {
    uint32_t offset;
    uint32_t size;
    ParamKind kind;
  };
  const Expected expected[] = {
      {0, 4, ParamKind::kScalar},    // uint
      {8, 12, ParamKind::kStruct},   // Pair: uint64 at 0, uint at 8
      {24, 12, ParamKind::kArray},   // stride 4 * 2 + 4
      {48, 12, ParamKind::kVector},  // vec3
      {64, 16, ParamKind::kMatrix},  // 2 columns, MatrixStride 8
      {80, 24, ParamKind::kMatrix},  // row-major 2x3: 3 rows of 2, MatrixStride 8
  };
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(k.params[i].offset, expected[i].offset) << i;
    EXPECT_EQ(k.params[i].size, expected[i].size) << i;
    EXPECT_EQ(k.params[i].kind, expected[i].kind) << i;
  }
  EXPECT_EQ(k.param_block_size, 104u);
  EXPECT_TRUE(k.uses_globals);
}

TEST_F(SpirvReflectTest, FourKibParameterBlock) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(push_constant) uniform P { uint64_t out_ptr; uvec4 data[255]; } p;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { uint g_out; };
void main() { g_out = p.data[254].w + uint(p.out_ptr); }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const KernelInfo& k = reflection->kernels.at(0);
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_EQ(k.params[1].offset, 16u);
  EXPECT_EQ(k.params[1].size, 255u * 16u);
  EXPECT_EQ(k.param_block_size, 4096u);
}

TEST_F(SpirvReflectTest, GlobalsBlockMembers) {
  const std::vector<uint32_t> spv = Compile(kGlobals);
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_TRUE(reflection->globals.has_value());
  const GlobalsInfo& globals = *reflection->globals;
  ASSERT_EQ(globals.members.size(), 3u);
  EXPECT_EQ(globals.members[0].name, "g_scale");
  EXPECT_EQ(globals.members[0].offset, 0u);
  EXPECT_EQ(globals.members[0].size, 4u);
  EXPECT_EQ(globals.members[1].name, "g_counts");
  EXPECT_EQ(globals.members[1].offset, 4u);
  EXPECT_EQ(globals.members[1].size, 16u);
  EXPECT_EQ(globals.members[2].name, "g_v");
  EXPECT_EQ(globals.members[2].offset, 32u);
  EXPECT_EQ(globals.members[2].size, 16u);
  EXPECT_EQ(globals.block_size, 48u);
  EXPECT_TRUE(reflection->kernels.at(0).uses_globals);
}

TEST_F(SpirvReflectTest, GlobalsOutsideSetZeroBindingZeroAreRejected) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
layout(local_size_x = 1) in;
layout(set = 0, binding = 1, std430) buffer streamhal_globals { float g_scale; };
void main() { g_scale = 1.0; }
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_FALSE(reflection.ok());
  EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
}

// Kernel ABI v2: a sampler or image at set 2, binding i is the texture or
// surface of parameter i, which must be a 64-bit integer.
TEST_F(SpirvReflectTest, TexturesAndSurfacesAreReflectedByBinding) {
  const std::vector<uint32_t> spv = Compile(R"(#version 460
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 1) in;
layout(set = 2, binding = 2, r32ui) uniform uimage3D surf;
layout(set = 2, binding = 0) uniform isampler2DArray tex;
layout(push_constant) uniform P { uint64_t tex; float scale; uint64_t surf; } p;
void main() {
  imageStore(surf, ivec3(0), uvec4(textureLod(tex, vec3(0.5), 0.0).x * int(p.scale)));
}
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const std::vector<ResourceParamInfo>& r = reflection->kernels[0].resources;
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].binding, 0u);
  EXPECT_EQ(r[0].kind, ResourceKind::kSampledImage);
  EXPECT_EQ(r[0].dimension, ViewDimension::k2DArray);
  EXPECT_EQ(r[0].numeric, TexelNumeric::kSint);
  EXPECT_EQ(r[1].binding, 2u);
  EXPECT_EQ(r[1].kind, ResourceKind::kStorageImage);
  EXPECT_EQ(r[1].dimension, ViewDimension::k3D);
  EXPECT_EQ(r[1].numeric, TexelNumeric::kUint);
  EXPECT_TRUE(r[1].declares_format);
  EXPECT_EQ(r[1].array_format, 0x03u);  // CU_AD_FORMAT_UNSIGNED_INT32
  EXPECT_EQ(r[1].channels, 1u);
}

TEST_F(SpirvReflectTest, BadTextureDeclarationsAreRefused) {
  struct Case {
    const char* declarations;
    const char* use;
    ErrorCode code;
  };
  const Case cases[] = {
      // The parameter at the binding is not a 64-bit integer.
      {"layout(set = 2, binding = 1) uniform sampler2D tex;\n"
       "layout(push_constant) uniform P { uint64_t t; float f; } p;\n",
       "textureLod(tex, vec2(0.5), 0.0).x + p.f", ErrorCode::kInvalidImage},
      // No parameter at all.
      {"layout(set = 2, binding = 0) uniform sampler2D tex;\n", "textureLod(tex, vec2(0.5), 0.0).x",
       ErrorCode::kInvalidImage},
      // Another set.
      {"layout(set = 3, binding = 0) uniform sampler2D tex;\n"
       "layout(push_constant) uniform P { uint64_t t; } p;\n",
       "textureLod(tex, vec2(0.5), 0.0).x + float(p.t)", ErrorCode::kInvalidImage},
      // Storage texel buffers and arrays of textures are not bound yet.
      {"layout(set = 2, binding = 0, r32f) uniform imageBuffer tex;\n"
       "layout(push_constant) uniform P { uint64_t t; } p;\n",
       "imageLoad(tex, 0).x + float(p.t)", ErrorCode::kNotSupported},
      {"layout(set = 2, binding = 0) uniform sampler2D tex[2];\n"
       "layout(push_constant) uniform P { uint64_t t; } p;\n",
       "textureLod(tex[1], vec2(0.5), 0.0).x + float(p.t)", ErrorCode::kNotSupported},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.declarations);
    const std::vector<uint32_t> spv = Compile(
        std::string("#version 460\n#extension GL_EXT_shader_explicit_arithmetic_types_int64 : "
                    "require\nlayout(local_size_x = 1) in;\n") +
        c.declarations +
        "layout(set = 0, binding = 0, std430) buffer streamhal_globals { float g_out; };\n"
        "void main() { g_out = " +
        c.use + "; }\n");
    ASSERT_FALSE(spv.empty());
    absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
    ASSERT_FALSE(reflection.ok());
    EXPECT_EQ(ErrorCodeOf(reflection.status()), c.code) << reflection.status();
  }
}

TEST_F(SpirvReflectTest, TwoEntryPointsFromSpirvLink) {
  if (!HaveTool("spirv-link")) GTEST_SKIP() << "spirv-link is not installed";
  const std::vector<uint32_t> a = Compile(R"(#version 460
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(push_constant) uniform PA { uint x; float y; } pa;
layout(set = 0, binding = 0, std430) buffer streamhal_globals { float g_out; };
shared uint s[32];
void main() { s[gl_LocalInvocationIndex % 32] = pa.x + uint(pa.y); barrier(); g_out = s[3]; }
)",
                                          "kernel_a");
  const std::vector<uint32_t> b = Compile(kDynamicShared, "kernel_b");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  const std::vector<uint32_t> linked = Link({a, b});
  ASSERT_FALSE(linked.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(linked);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.size(), 2u);
  const KernelInfo* ka = reflection->FindKernel("kernel_a");
  const KernelInfo* kb = reflection->FindKernel("kernel_b");
  ASSERT_NE(ka, nullptr);
  ASSERT_NE(kb, nullptr);
  ASSERT_EQ(ka->params.size(), 2u);
  EXPECT_EQ(ka->params[1].name, "y");
  EXPECT_EQ(ka->params[1].offset, 4u);
  EXPECT_EQ(ka->param_block_size, 8u);
  EXPECT_EQ(ka->static_shared_bytes, 128u);
  EXPECT_FALSE(ka->has_dynamic_shared_spec);
  ASSERT_EQ(kb->params.size(), 1u);
  EXPECT_EQ(kb->params[0].name, "n");
  EXPECT_EQ(kb->static_shared_bytes, 512u);
  EXPECT_TRUE(kb->has_dynamic_shared_spec);
  EXPECT_TRUE(ka->block_size_from_spec);
  EXPECT_TRUE(kb->block_size_from_spec);
  // Only kernel_a touches the globals.
  ASSERT_TRUE(reflection->globals.has_value());
  EXPECT_TRUE(ka->uses_globals);
  EXPECT_FALSE(kb->uses_globals);
}

TEST_F(SpirvReflectTest, ConflictingWorkgroupSizeBuiltinsAreRejected) {
  if (!HaveTool("spirv-link")) GTEST_SKIP() << "spirv-link is not installed";
  // glslang emits a WorkgroupSize built-in for literal sizes too; linked
  // together, the module-wide built-ins disagree.
  const std::vector<uint32_t> a = Compile(R"(#version 460
layout(local_size_x = 64) in;
void main() {}
)",
                                          "kernel_a");
  const std::vector<uint32_t> b = Compile(R"(#version 460
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
void main() {}
)",
                                          "kernel_b");
  const std::vector<uint32_t> linked = Link({a, b});
  ASSERT_FALSE(linked.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(linked);
  ASSERT_FALSE(reflection.ok());
  EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
  EXPECT_NE(reflection.status().message().find("ambiguous"), absl::string_view::npos)
      << reflection.status();
}

TEST_F(SpirvReflectTest, LiteralSizesPerEntryPointWithoutBuiltin) {
  if (!HaveTool("spirv-as")) GTEST_SKIP() << "spirv-as is not installed";
  const std::vector<uint32_t> spv = Assemble(R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %f "first"
               OpEntryPoint GLCompute %g "second"
               OpEntryPoint Vertex %g "not_a_kernel"
               OpExecutionMode %f LocalSize 128 1 1
               OpExecutionMode %g LocalSize 8 8 2
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %f = OpFunction %void None %fn
         %l1 = OpLabel
               OpReturn
               OpFunctionEnd
          %g = OpFunction %void None %fn
         %l2 = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_FALSE(spv.empty());
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.size(), 2u);
  EXPECT_EQ(reflection->kernels[0].literal_block_size, (std::array<uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(reflection->kernels[1].literal_block_size, (std::array<uint32_t, 3>{8, 8, 2}));
}

// A module whose push-constant block holds `member_type` (declared in
// `types`), for layouts GLSL cannot express.
std::string PushBlockAssembly(const std::string& types, const std::string& member_type) {
  return R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "k" %p
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %P 0 Offset 0
               OpDecorate %P Block
               OpDecorate %rt ArrayStride 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
         %rt = OpTypeRuntimeArray %uint
)" + types +
         "          %P = OpTypeStruct " + member_type + R"(
        %ptr = OpTypePointer PushConstant %P
          %p = OpVariable %ptr PushConstant
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
}

TEST_F(SpirvReflectTest, BoolAndRuntimeArrayParamsAreRejected) {
  if (!HaveTool("spirv-as")) GTEST_SKIP() << "spirv-as is not installed";
  for (const auto& [types, member] : std::vector<std::pair<std::string, std::string>>{
           {"%bool = OpTypeBool\n", "%bool"}, {"", "%rt"}}) {
    SCOPED_TRACE(member);
    const std::vector<uint32_t> spv = Assemble(PushBlockAssembly(types, member));
    ASSERT_FALSE(spv.empty());
    absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
    ASSERT_FALSE(reflection.ok());
    EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
  }
  // The same block with a plain uint is fine.
  const std::vector<uint32_t> spv = Assemble(PushBlockAssembly("", "%uint"));
  absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(spv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  EXPECT_EQ(reflection->kernels.at(0).param_block_size, 4u);
}

TEST(SpirvReflectMalformedTest, HeaderErrors) {
  auto code = [](std::vector<uint32_t> words) { return ErrorCodeOf(ReflectSpirv(words).status()); };
  EXPECT_EQ(code({}), ErrorCode::kInvalidImage);
  EXPECT_EQ(code({0x07230203, 0x00010500, 0, 10}), ErrorCode::kInvalidImage);
  EXPECT_EQ(code({0x03022307, 0x00050100, 0, 0x0a000000, 0}), ErrorCode::kInvalidImage);
  EXPECT_EQ(code({0xdeadbeef, 0x00010500, 0, 10, 0}), ErrorCode::kInvalidImage);
  EXPECT_EQ(code({0x07230203, 0x00020000, 0, 10, 0}), ErrorCode::kInvalidImage);  // version 2.0
  EXPECT_EQ(code({0x07230203, 0x00010500, 0, 0, 0}), ErrorCode::kInvalidImage);   // bound 0
  EXPECT_EQ(code({0x07230203, 0x00010500, 0, 0x7fffffff, 0}), ErrorCode::kInvalidImage);
  // A header alone lacks the OpMemoryModel every module must have; a driver
  // must not be handed it.
  EXPECT_EQ(code({0x07230203, 0x00010500, 0, 1, 0}), ErrorCode::kInvalidImage);
}

TEST(SpirvReflectMalformedTest, InstructionErrors) {
  const std::vector<uint32_t> header = {0x07230203, 0x00010500, 0, 10, 0};
  auto with = [&](std::vector<uint32_t> body) {
    std::vector<uint32_t> words = header;
    words.insert(words.end(), body.begin(), body.end());
    return ErrorCodeOf(ReflectSpirv(words).status());
  };
  EXPECT_EQ(with({0x00000011}), ErrorCode::kInvalidImage);             // word count 0
  EXPECT_EQ(with({0x00020011}), ErrorCode::kInvalidImage);             // truncated OpCapability
  EXPECT_EQ(with({0x00040015, 20, 32, 0}), ErrorCode::kInvalidImage);  // id 20 >= bound 10
  EXPECT_EQ(with({0x00040015, 0, 32, 0}), ErrorCode::kInvalidImage);   // result id 0
  EXPECT_EQ(with({0x00040015, 2, 32, 0, 0x00040015, 2, 32, 0}), ErrorCode::kInvalidImage);
  // OpTypeVector %3 %7 4 with %7 undefined.
  EXPECT_EQ(with({0x00040017, 3, 7, 4}), ErrorCode::kInvalidImage);
  // OpTypeArray %4 of itself (a type cycle) with a constant length.
  EXPECT_EQ(with({0x00040015, 2, 32, 0, 0x0004002b, 2, 3, 4, 0x0004001c, 4, 4, 3}),
            ErrorCode::kInvalidImage);
  // OpFunctionEnd without OpFunction; OpFunction never closed.
  EXPECT_EQ(with({0x00010038}), ErrorCode::kInvalidImage);
  EXPECT_EQ(with({0x00020013, 2, 0x00030021, 3, 2, 0x00050036, 2, 4, 0, 3}),
            ErrorCode::kInvalidImage);
  // Unterminated entry point name.
  EXPECT_EQ(with({0x0004000f, 5, 4, 0x41414141}), ErrorCode::kInvalidImage);
}

// Every truncation and a few thousand random bit flips of real modules must
// give either a reflection or kInvalidImage, never a crash (run under ASan).
class SpirvReflectRobustnessTest : public SpirvReflectTest {};

TEST_F(SpirvReflectRobustnessTest, TruncationsAndBitFlipsNeverCrash) {
  std::vector<std::vector<uint32_t>> modules = {Compile(kVectorAdd), Compile(kDynamicShared),
                                                Compile(kGlobals)};
  std::mt19937 rng(1234);
  for (const std::vector<uint32_t>& module : modules) {
    ASSERT_FALSE(module.empty());
    ASSERT_TRUE(ReflectSpirv(module).ok());
    for (size_t length = 0; length < module.size(); ++length) {
      absl::Span<const uint32_t> prefix(module.data(), length);
      absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(prefix);
      if (!reflection.ok()) {
        EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
      }
      absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(prefix, 1, 0);
      if (!rewritten.ok()) {
        EXPECT_EQ(ErrorCodeOf(rewritten.status()), ErrorCode::kInvalidImage);
      }
    }
    for (int trial = 0; trial < 1500; ++trial) {
      std::vector<uint32_t> mutated = module;
      const int flips = 1 + static_cast<int>(rng() % 4);
      for (int f = 0; f < flips; ++f) {
        const size_t bit = rng() % (mutated.size() * 32);
        mutated[bit / 32] ^= 1u << (bit % 32);
      }
      absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(mutated);
      if (!reflection.ok()) {
        EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage)
            << reflection.status();
      }
      absl::StatusOr<std::vector<uint32_t>> rewritten = MovePushConstantsToUniform(mutated, 1, 0);
      if (rewritten.ok()) {
        // Whatever the rewrite accepts, reflection must survive too.
        absl::StatusOr<ModuleReflection> again = ReflectSpirv(*rewritten);
        if (!again.ok()) {
          EXPECT_EQ(ErrorCodeOf(again.status()), ErrorCode::kInvalidImage);
        }
      } else {
        EXPECT_EQ(ErrorCodeOf(rewritten.status()), ErrorCode::kInvalidImage);
      }
    }
  }
  // Random words behind a valid header.
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<uint32_t> words = {0x07230203, 0x00010500, 0, 64, 0};
    const size_t extra = rng() % 64;
    for (size_t i = 0; i < extra; ++i) {
      // Mostly small word counts so that instructions parse and get checked.
      words.push_back(rng() % 3 == 0 ? rng() : ((1 + rng() % 6) << 16) | (rng() % 80));
    }
    absl::StatusOr<ModuleReflection> reflection = ReflectSpirv(words);
    if (!reflection.ok()) {
      EXPECT_EQ(ErrorCodeOf(reflection.status()), ErrorCode::kInvalidImage);
    }
  }
}

}  // namespace
}  // namespace streamhal
