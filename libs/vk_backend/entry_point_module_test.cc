#include "vk_backend/entry_point_module.h"

#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <vector>

#include "core/diagnostics.h"
#include "core/glsl_compiler.h"
#include "core/spirv_reflect.h"
#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/kernel.h"
#include "vk_backend/stream.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

constexpr char kPrelude[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
)";

// kernel_a reads its block index (so it is also rewritten for split grids);
// kernel_b does not. Each calls a helper of its own.
constexpr char kKernelA[] = R"(
layout(push_constant) uniform ParamsA { uint_ptr dst; uint n; } pa;
uint HelperA(uint i) { return i * 3u + pa.n; }
void main() {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pa.n) pa.dst.v[i] = HelperA(i);
})";
constexpr char kKernelB[] = R"(
layout(push_constant) uniform ParamsB { uint_ptr dst; uint scale; uint bias; } pb;
uint HelperB(uint i) { return i * pb.scale + pb.bias; }
void main() { pb.dst.v[gl_LocalInvocationIndex] = HelperB(gl_LocalInvocationIndex); })";

// The names OpName gives in `words`.
std::vector<std::string> Names(const std::vector<uint32_t>& words) {
  std::vector<std::string> names;
  auto parsed = spirv_detail::ParsedModule::Parse(words);
  if (!parsed.ok()) return names;
  for (const spirv_detail::Instruction& inst : parsed->instructions()) {
    if (inst.opcode != spv::OpName) continue;
    auto name = parsed->String(inst, 2);
    if (name.ok()) names.push_back(name->first);
  }
  return names;
}

bool Contains(const std::vector<std::string>& names, const std::string& prefix) {
  for (const std::string& name : names) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// Modules with two entry points come from spirv-link, as a translated PTX
// module with several kernels would hold them.
class EntryPointModuleTest : public testing::LavapipeTest {
 protected:
  void SetUp() override {
    if (std::system("command -v spirv-link > /dev/null 2>&1") != 0) {
      GTEST_SKIP() << "spirv-link is not installed";
    }
    std::string templ = ::testing::TempDir() + "entry_point_module_XXXXXX";
    ASSERT_NE(mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  std::vector<uint32_t> Compile(const std::string& body, const std::string& name) {
    GlslOptions options;
    options.entry_point = name;
    auto compiled = CompileGlsl(kPrelude + body, options);
    EXPECT_TRUE(compiled.ok()) << compiled.status();
    return compiled.ok() ? compiled->spirv : std::vector<uint32_t>();
  }

  std::vector<uint32_t> Link(const std::vector<std::vector<uint32_t>>& modules) {
    std::string command = "spirv-link --target-env vulkan1.2 ";
    for (size_t i = 0; i < modules.size(); ++i) {
      const std::string path = dir_ + "/in" + std::to_string(i) + ".spv";
      std::ofstream(path, std::ios::binary)
          .write(reinterpret_cast<const char*>(modules[i].data()),
                 static_cast<std::streamsize>(modules[i].size() * 4));
      command += path + " ";
    }
    const std::string out = dir_ + "/linked.spv";
    if (std::system((command + "-o " + out + " > /dev/null 2>&1").c_str()) != 0) {
      ADD_FAILURE() << command << " failed";
      return {};
    }
    std::ifstream in(out, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
  }

  std::vector<uint32_t> TwoKernels() {
    return Link({Compile(kKernelA, "kernel_a"), Compile(kKernelB, "kernel_b")});
  }

  std::string dir_;
};

TEST_F(EntryPointModuleTest, EachKernelKeepsOnlyWhatItReaches) {
  const std::vector<uint32_t> linked = TwoKernels();
  ASSERT_FALSE(linked.empty());
  ASSERT_TRUE(Contains(Names(linked), "HelperA"));
  ASSERT_TRUE(Contains(Names(linked), "HelperB"));
  auto index = EntryPointIndex::Create(linked);
  ASSERT_TRUE(index.ok()) << index.status();
  auto full = ReflectSpirv(linked);
  ASSERT_TRUE(full.ok()) << full.status();

  for (const char* name : {"kernel_a", "kernel_b"}) {
    SCOPED_TRACE(name);
    const bool a = std::strcmp(name, "kernel_a") == 0;
    auto extracted = (*index)->Extract(name);
    ASSERT_TRUE(extracted.ok()) << extracted.status();
    ASSERT_TRUE(extracted->has_value());
    const std::vector<uint32_t>& words = **extracted;
    EXPECT_LT(words.size(), linked.size());
    const std::vector<std::string> names = Names(words);
    EXPECT_EQ(Contains(names, "HelperA"), a);
    EXPECT_EQ(Contains(names, "HelperB"), !a);
    EXPECT_EQ(Contains(names, "ParamsA"), a);
    EXPECT_EQ(Contains(names, "ParamsB"), !a);
    auto parsed = spirv_detail::ParsedModule::Parse(words);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->functions().size(), 2u);  // the entry function and its helper
    // The kernel reflects as it did in the whole module.
    auto reflection = ReflectSpirv(words);
    ASSERT_TRUE(reflection.ok()) << reflection.status();
    ASSERT_EQ(reflection->kernels.size(), 1u);
    const KernelInfo* before = full->FindKernel(name);
    ASSERT_NE(before, nullptr);
    EXPECT_EQ(reflection->kernels[0].name, name);
    EXPECT_EQ(reflection->kernels[0].param_block_size, before->param_block_size);
    EXPECT_EQ(reflection->kernels[0].params.size(), before->params.size());
  }
}

TEST_F(EntryPointModuleTest, ExtractedKernelsRun) {
  const std::vector<uint32_t> linked = TwoKernels();
  ASSERT_FALSE(linked.empty());
  auto reflection = ReflectSpirv(linked);
  ASSERT_TRUE(reflection.ok()) << reflection.status();
  const uint64_t messages = ValidationMessageCount();
  auto module = device()->CreateModule(linked);
  ASSERT_TRUE(module.ok()) << module.status();
  std::unique_ptr<BackendKernel> kernels[2];
  for (int k = 0; k < 2; ++k) {
    const KernelInfo* info = reflection->FindKernel(k == 0 ? "kernel_a" : "kernel_b");
    ASSERT_NE(info, nullptr);
    KernelLayout layout;
    layout.entry_point = info->name;
    layout.param_block_size = info->param_block_size;
    layout.block_dim_from_spec = info->block_dim_from_spec;
    auto kernel = device()->CreateKernel(module->get(), layout);
    ASSERT_TRUE(kernel.ok()) << kernel.status();
    kernels[k] = *std::move(kernel);
  }
  EXPECT_TRUE(static_cast<VulkanKernel*>(kernels[0].get())->needs_grid_info());
  EXPECT_FALSE(static_cast<VulkanKernel*>(kernels[1].get())->needs_grid_info());

  constexpr uint32_t kN = 200;
  auto out_a = Allocate(kN * 4), out_b = Allocate(64 * 4);
  std::memset(out_a->host_pointer(), 0, kN * 4);
  std::memset(out_b->host_pointer(), 0, 64 * 4);
  struct {
    uint64_t dst;
    uint32_t n;
  } params_a = {out_a->device_address(), kN};
  struct {
    uint64_t dst;
    uint32_t scale, bias;
  } params_b = {out_b->device_address(), 5, 1};
  auto stream = NewStream();
  DispatchParams dispatch;
  dispatch.kernel = kernels[0].get();
  dispatch.grid = {(kN + 31) / 32, 1, 1};
  dispatch.block = {32, 1, 1};
  dispatch.params = &params_a;
  ASSERT_TRUE(stream->RecordDispatch(dispatch).ok());
  dispatch.kernel = kernels[1].get();
  dispatch.grid = {1, 1, 1};
  dispatch.block = {64, 1, 1};
  dispatch.params = &params_b;
  ASSERT_TRUE(stream->RecordDispatch(dispatch).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  const auto* a = static_cast<const uint32_t*>(out_a->host_pointer());
  const auto* b = static_cast<const uint32_t*>(out_b->host_pointer());
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(a[i], i * 3 + kN) << i;
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(b[i], i * 5 + 1) << i;
  // The validation layer (when on) found nothing wrong with the modules.
  EXPECT_EQ(ValidationMessageCount(), messages);
}

TEST_F(EntryPointModuleTest, ModulesWithOneEntryPointAreUsedWhole) {
  const std::vector<uint32_t> words = Compile(kKernelB, "kernel_b");
  ASSERT_FALSE(words.empty());
  auto index = EntryPointIndex::Create(words);
  ASSERT_TRUE(index.ok()) << index.status();
  auto extracted = (*index)->Extract("kernel_b");
  ASSERT_TRUE(extracted.ok()) << extracted.status();
  EXPECT_FALSE(extracted->has_value());
}

TEST_F(EntryPointModuleTest, UnknownEntryPointIsAnError) {
  const std::vector<uint32_t> linked = TwoKernels();
  ASSERT_FALSE(linked.empty());
  auto index = EntryPointIndex::Create(linked);
  ASSERT_TRUE(index.ok()) << index.status();
  auto extracted = (*index)->Extract("kernel_c");
  ASSERT_FALSE(extracted.ok());
  EXPECT_EQ(ErrorCodeOf(extracted.status()), ErrorCode::kInvalidImage);
}

}  // namespace
}  // namespace streamhal::vk
