#include "vk_backend/grid_split.h"

#include <string>
#include <vector>

#include "core/glsl_compiler.h"
#include "core/spirv_reflect.h"
#include "core/status.h"
#include "gtest/gtest.h"

namespace streamhal::vk {
namespace {

std::vector<uint32_t> Compile(const std::string& body) {
  const std::string source = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
)" + body;
  auto compiled = CompileGlsl(source, GlslOptions());
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  return compiled.ok() ? compiled->spirv : std::vector<uint32_t>();
}

TEST(GridSplitTest, KernelsThatDoNotReadTheirPositionAreLeftAlone) {
  const auto spirv = Compile(R"(
layout(push_constant) uniform P { uint_ptr dst; } p;
void main() { p.dst.v[threadIdx.x] = gl_LocalInvocationIndex; })");
  auto rewrite = RewriteForGridSplit(spirv, "main", 128);
  ASSERT_TRUE(rewrite.ok()) << rewrite.status();
  EXPECT_FALSE(rewrite->reads_position);
  EXPECT_FALSE(rewrite->needs_grid_info());
  EXPECT_TRUE(rewrite->unsupported_reason.empty());
}

TEST(GridSplitTest, GridInfoFollowsTheParameters) {
  const auto spirv = Compile(R"(
layout(push_constant) uniform P { uint_ptr dst; uint n; } p;
uint Index() { return blockIdx.x * blockDim.x + threadIdx.x; }
void main() { if (Index() < p.n) p.dst.v[Index()] = gridDim.x + gl_GlobalInvocationID.y; })");
  auto rewrite = RewriteForGridSplit(spirv, "main", 128);
  ASSERT_TRUE(rewrite.ok()) << rewrite.status();
  EXPECT_TRUE(rewrite->reads_position);
  ASSERT_TRUE(rewrite->needs_grid_info());
  EXPECT_EQ(rewrite->grid_info_offset, 12u);
  // The rewritten module is valid for reflection, and its push-constant
  // block now ends after the grid info.
  auto reflection = ReflectSpirv(rewrite->spirv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  ASSERT_EQ(reflection->kernels.size(), 1u);
  EXPECT_EQ(reflection->kernels[0].param_block_size, 12u + kGridInfoBytes);
  EXPECT_EQ(reflection->kernels[0].params.size(), 2u + kGridInfoWords);
}

TEST(GridSplitTest, KernelsWithoutPushConstantsGetABlockOfTheirOwn) {
  const auto spirv = Compile(R"(
layout(set = 0, binding = 0) buffer streamhal_globals { uint hits[64]; } g;
void main() { atomicAdd(g.hits[blockIdx.x], 1u); })");
  auto rewrite = RewriteForGridSplit(spirv, "main", 128);
  ASSERT_TRUE(rewrite.ok()) << rewrite.status();
  ASSERT_TRUE(rewrite->needs_grid_info());
  EXPECT_EQ(rewrite->grid_info_offset, 0u);
  auto reflection = ReflectSpirv(rewrite->spirv);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  EXPECT_EQ(reflection->kernels[0].param_block_size, kGridInfoBytes);
}

TEST(GridSplitTest, ParametersThatFillThePushConstantsPreventSplitting) {
  const auto spirv = Compile(R"(
layout(push_constant) uniform P { uint_ptr dst; uint pad[24]; } p;
void main() { p.dst.v[blockIdx.x] = p.pad[3]; })");
  auto rewrite = RewriteForGridSplit(spirv, "main", 128);
  ASSERT_TRUE(rewrite.ok()) << rewrite.status();
  EXPECT_TRUE(rewrite->reads_position);
  EXPECT_FALSE(rewrite->needs_grid_info());
  EXPECT_NE(rewrite->unsupported_reason.find("no room"), std::string::npos)
      << rewrite->unsupported_reason;
}

TEST(GridSplitTest, UnknownEntryPointIsAnError) {
  const auto spirv = Compile("void main() {}");
  auto rewrite = RewriteForGridSplit(spirv, "other", 128);
  ASSERT_FALSE(rewrite.ok());
  EXPECT_EQ(ErrorCodeOf(rewrite.status()), ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal::vk
