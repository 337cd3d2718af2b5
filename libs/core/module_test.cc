#include "core/module.h"

#include <cstdio>
#include <string>

#include "core/context.h"
#include "core/launch.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/testing/fake_backend.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

struct Opaque;
using Handle = Opaque*;

constexpr char kKernels[] = R"(#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#define STREAMHAL_KERNEL_NAME scale
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint kDynSharedBytes = 16;
shared float dyn[kDynSharedBytes / 4];
layout(buffer_reference, std430) buffer Floats { float v[]; };
layout(set = 0, binding = 0, std430) buffer streamhal_globals { float factor; uint calls; } g;
layout(push_constant) uniform Params { Floats data; float bias; uint n; } p;
void main() {
  uint i = gl_GlobalInvocationID.x;
  dyn[gl_LocalInvocationID.x % (kDynSharedBytes / 4)] = 1.0;
  if (i < p.n) p.data.v[i] = p.data.v[i] * g.factor + p.bias;
}
)";

constexpr char kFixed[] = R"(#version 460
#define STREAMHAL_KERNEL_NAME fixed64
layout(local_size_x = 64) in;
void main() {}
)";

class ModuleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::InstallFakeBackend(1);
    ASSERT_TRUE(Init(0).ok());
    ASSERT_TRUE(CreateContext(HandleOut(&ctx_), 0, 0).ok());
  }
  void TearDown() override { ASSERT_TRUE(Deinit().ok()); }

  uint64_t Load(const char* source) {
    Handle module = nullptr;
    absl::Status status = ModuleLoadData(HandleOut(&module), source, nullptr);
    EXPECT_TRUE(status.ok()) << status;
    return HandleValue(module);
  }
  uint64_t Get(uint64_t module, const char* name) {
    Handle function = nullptr;
    EXPECT_TRUE(ModuleGetFunction(HandleOut(&function), module, name).ok());
    return HandleValue(function);
  }

  Handle ctx_ = nullptr;
};

TEST_F(ModuleTest, GlslKernelIsNamedAndReflected) {
  const uint64_t module = Load(kKernels);
  const uint64_t f = Get(module, "scale");
  ASSERT_NE(f, 0u);
  EXPECT_EQ(Get(module, "scale"), f) << "the same name gives the same handle";
  Handle missing = nullptr;
  EXPECT_EQ(ErrorCodeOf(ModuleGetFunction(HandleOut(&missing), module, "nope")),
            ErrorCode::kNotFound);
  int value = 0;
  ASSERT_TRUE(FuncGetAttribute(&value, 0, f).ok());
  EXPECT_EQ(value, 1024);
  EXPECT_EQ(ErrorCodeOf(FuncGetAttribute(&value, 77, f)), ErrorCode::kInvalidValue);
}

TEST_F(ModuleTest, GlobalsAreDeviceMemory) {
  const uint64_t module = Load(kKernels);
  uint64_t dptr = 0;
  size_t bytes = 0;
  ASSERT_TRUE(ModuleGetGlobal(&dptr, &bytes, module, "calls").ok());
  EXPECT_EQ(bytes, 4u);
  EXPECT_NE(dptr, 0u);
  uint64_t factor = 0;
  ASSERT_TRUE(ModuleGetGlobal(&factor, nullptr, module, "factor").ok());
  EXPECT_EQ(dptr, factor + 4);
  EXPECT_EQ(ErrorCodeOf(ModuleGetGlobal(&dptr, &bytes, module, "zzz")), ErrorCode::kNotFound);
}

TEST_F(ModuleTest, UnloadInvalidatesModuleAndFunctions) {
  const uint64_t module = Load(kKernels);
  const uint64_t f = Get(module, "scale");
  ASSERT_TRUE(ModuleUnload(module).ok());
  EXPECT_EQ(ErrorCodeOf(ModuleUnload(module)), ErrorCode::kInvalidHandle);
  int value = 0;
  EXPECT_EQ(ErrorCodeOf(FuncGetAttribute(&value, 0, f)), ErrorCode::kInvalidHandle);
  LaunchConfig config;
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, config)), ErrorCode::kInvalidHandle);
}

TEST_F(ModuleTest, MalformedImagesAreInvalidImage) {
  Handle module = nullptr;
  const char garbage[] = "\x7f" "ELF garbage";
  EXPECT_EQ(ErrorCodeOf(ModuleLoadData(HandleOut(&module), garbage, nullptr)),
            ErrorCode::kInvalidImage);
  EXPECT_EQ(ErrorCodeOf(ModuleLoadData(HandleOut(&module), nullptr, nullptr)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(ModuleLoad(HandleOut(&module), "/nonexistent/kernel.spv")),
            ErrorCode::kFileNotFound);
}

TEST_F(ModuleTest, GlslErrorsFillTheJitLog) {
  Handle module = nullptr;
  char log[512] = {};
  JitOptions jit;
  jit.error_log = log;
  jit.error_log_size = sizeof(log);
  EXPECT_EQ(ErrorCodeOf(ModuleLoadData(HandleOut(&module),
                                       "#version 460\nvoid main() { undeclared = 1; }\n", &jit)),
            ErrorCode::kInvalidPtx);
  EXPECT_NE(std::string(log).find("undeclared"), std::string::npos) << log;
  EXPECT_GT(jit.error_log_written, 0u);
}

TEST_F(ModuleTest, LaunchValidation) {
  const uint64_t f = Get(Load(kKernels), "scale");
  uint64_t data = 0x1000;
  float bias = 1.0f;
  uint32_t n = 16;
  void* params[] = {&data, &bias, &n};
  LaunchConfig config;
  config.kernel_params = params;
  config.block = {64, 1, 1};
  // A valid configuration reaches the backend (which cannot run kernels).
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, config)), ErrorCode::kNotSupported);

  LaunchConfig bad = config;
  bad.grid = {0, 1, 1};
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue);
  bad = config;
  bad.block = {1025, 1, 1};
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue);
  bad = config;
  bad.block = {64, 64, 1};
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue);
  bad = config;
  bad.shared_bytes = 1 << 20;
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue);
  bad = config;
  bad.kernel_params = nullptr;
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue);
  bad = config;
  bad.extra_given = true;
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue) << "both given";
  bad = config;
  bad.kernel_params = nullptr;
  uint8_t packed[8] = {};
  size_t packed_size = sizeof(packed);
  void* extra[] = {reinterpret_cast<void*>(1), packed, reinterpret_cast<void*>(2), &packed_size,
                   nullptr};
  DecodeExtra(extra, nullptr, &bad);
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidValue) << "buffer too small";
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(0, config)), ErrorCode::kInvalidHandle);
  bad = config;
  bad.stream = 0xfeed0000;
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, bad)), ErrorCode::kInvalidHandle);
}

TEST_F(ModuleTest, FixedBlockSizeKernelsAcceptOnlyThatSize) {
  const uint64_t f = Get(Load(kFixed), "fixed64");
  int value = 0;
  ASSERT_TRUE(FuncGetAttribute(&value, 0, f).ok());
  EXPECT_EQ(value, 64);
  LaunchConfig config;
  config.block = {32, 1, 1};
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, config)), ErrorCode::kInvalidValue);
  config.block = {64, 1, 1};
  EXPECT_EQ(ErrorCodeOf(LaunchKernel(f, config)), ErrorCode::kNotSupported);
}

TEST_F(ModuleTest, DynamicSharedLimitIsSettable) {
  const uint64_t f = Get(Load(kKernels), "scale");
  int limit = 0;
  ASSERT_TRUE(FuncGetAttribute(&limit, 8, f).ok());
  EXPECT_GT(limit, 0);
  ASSERT_TRUE(FuncSetAttribute(f, 8, 1024).ok());
  int value = 0;
  ASSERT_TRUE(FuncGetAttribute(&value, 8, f).ok());
  EXPECT_EQ(value, 1024);
  EXPECT_EQ(ErrorCodeOf(FuncSetAttribute(f, 8, limit + 1)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(FuncSetAttribute(f, 0, 1)), ErrorCode::kInvalidValue);
}

}  // namespace
}  // namespace streamhal
