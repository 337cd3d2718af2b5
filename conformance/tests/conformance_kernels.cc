#include "conformance_kernels.h"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include "core/code_object.h"
#include "core/glsl_compiler.h"
#include "spirv-tools/libspirv.hpp"

namespace streamhal::conformance {

const char kVectorAddGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME vector_add

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr a;
  float_ptr b;
  float_ptr c;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.c.v[i] = p.a.v[i] + p.b.v[i];
}
)";

const char kScaleOffsetGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME scale_offset

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr data;
  float scale;
  float offset;
  uint n;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.data.v[i] = p.data.v[i] * p.scale + p.offset;
}
)";

const char kBlockSumGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME block_sum

STREAMHAL_DECLARE_PTR(float);
STREAMHAL_DYNAMIC_SHARED(float, 4, partial);
layout(push_constant) uniform Params {
  float_ptr src;
  float_ptr dst;
  uint n;
} p;

void main() {
  const uint tid = threadIdx.x;
  const uint i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < p.n ? p.src.v[i] : 0.0;
  syncthreads();
  for (uint stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) partial[tid] += partial[tid + stride];
    syncthreads();
  }
  if (tid == 0) p.dst.v[blockIdx.x] = partial[0];
}
)";

const char kBlockIndexGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME block_index

STREAMHAL_DECLARE_PTR(uint);
layout(push_constant) uniform Params {
  uint_ptr out_values;
} p;

void main() {
  if (threadIdx.x == 0) p.out_values.v[blockIdx.x] = blockIdx.x + 1;
}
)";

const char kParamSumGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME param_sum

STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params {
  float_ptr out_value;
  float values[256];
} p;

void main() {
  float sum = 0.0;
  for (int i = 0; i < 256; ++i) sum += p.values[i];
  if (threadIdx.x == 0 && blockIdx.x == 0) p.out_value.v[0] = sum;
}
)";

const char kGlobalsGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME scaled_table

STREAMHAL_DECLARE_PTR(float);
layout(set = 0, binding = 0, std430) buffer streamhal_globals {
  float table[16];
  uint counter;
} g;
layout(push_constant) uniform Params {
  float_ptr out_values;
  float factor;
} p;

void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 16) p.out_values.v[i] = g.table[i] * p.factor;
  atomicAdd(g.counter, 1u);
}
)";

const char kReverse64Glsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_LITERAL_WORKGROUP_SIZE
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME reverse64

layout(local_size_x = 64) in;
STREAMHAL_DECLARE_PTR(float);
shared float tile[64];
layout(push_constant) uniform Params {
  float_ptr data;
} p;

void main() {
  const uint t = threadIdx.x;
  const uint base = blockIdx.x * 64;
  tile[t] = p.data.v[base + t];
  syncthreads();
  p.data.v[base + t] = tile[63 - t];
}
)";

const char kSampleLodGlsl[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME sample_lod
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Params {
  uint64_t tex;
  float_ptr coords;
  float_ptr out_values;
  uint n;
} p;
void main() {
  const uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  const float u = p.coords.v[3 * i], v = p.coords.v[3 * i + 1], level = p.coords.v[3 * i + 2];
  p.out_values.v[i] = tex2DLod(tex, u, v, level).x;
}
)";

const char kBrokenGlsl[] = R"(#version 460
layout(local_size_x = 1) in;
void main() {
  undeclared_variable = 1;
}
)";

const char kLinkWeightLibrarySpvasm[] = R"(               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpCapability Linkage
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpDecorate %weight LinkageAttributes "link_weight" Export
        %int = OpTypeInt 32 1
      %int_7 = OpConstant %int 7
  %fn_weight = OpTypeFunction %int %int %int
     %weight = OpFunction %int None %fn_weight
          %x = OpFunctionParameter %int
          %y = OpFunctionParameter %int
      %entry = OpLabel
          %m = OpIMul %int %x %int_7
          %r = OpISub %int %m %y
               OpReturnValue %r
               OpFunctionEnd
)";

const char kLinkWeightKernelSpvasm[] = R"(               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpCapability Linkage
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "spirv_link_call" %gid %p
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpMemberDecorate %Params 0 Offset 0
               OpMemberDecorate %Params 1 Offset 8
               OpDecorate %Params Block
               OpDecorate %arr ArrayStride 4
               OpMemberDecorate %Ints 0 Offset 0
               OpDecorate %Ints Block
               OpDecorate %sx SpecId 0
               OpDecorate %sy SpecId 1
               OpDecorate %sz SpecId 2
               OpDecorate %wgs BuiltIn WorkgroupSize
               OpDecorate %weight LinkageAttributes "link_weight" Import
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
        %int = OpTypeInt 32 1
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
  %ptr_in_v3 = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_in_v3 Input
     %uint_0 = OpConstant %uint 0
%ptr_in_uint = OpTypePointer Input %uint
               OpTypeForwardPointer %ptr_ints PhysicalStorageBuffer
     %Params = OpTypeStruct %int %ptr_ints
        %arr = OpTypeRuntimeArray %int
       %Ints = OpTypeStruct %arr
   %ptr_ints = OpTypePointer PhysicalStorageBuffer %Ints
  %ptr_pc_params = OpTypePointer PushConstant %Params
          %p = OpVariable %ptr_pc_params PushConstant
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
 %ptr_pc_int = OpTypePointer PushConstant %int
       %bool = OpTypeBool
%ptr_pc_ints = OpTypePointer PushConstant %ptr_ints
%ptr_psb_int = OpTypePointer PhysicalStorageBuffer %int
         %sx = OpSpecConstant %uint 1
         %sy = OpSpecConstant %uint 1
         %sz = OpSpecConstant %uint 1
        %wgs = OpSpecConstantComposite %v3uint %sx %sy %sz
  %fn_weight = OpTypeFunction %int %int %int
     %weight = OpFunction %int None %fn_weight
         %wx = OpFunctionParameter %int
         %wy = OpFunctionParameter %int
               OpFunctionEnd
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
     %gx_ptr = OpAccessChain %ptr_in_uint %gid %uint_0
         %gx = OpLoad %uint %gx_ptr
          %i = OpBitcast %int %gx
      %n_ptr = OpAccessChain %ptr_pc_int %p %int_0
          %n = OpLoad %int %n_ptr
   %in_range = OpSLessThan %bool %i %n
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
   %data_ptr = OpAccessChain %ptr_pc_ints %p %int_1
       %data = OpLoad %ptr_ints %data_ptr
       %elem = OpAccessChain %ptr_psb_int %data %int_0 %i
        %old = OpLoad %int %elem Aligned 4
        %new = OpFunctionCall %int %weight %old %i
               OpStore %elem %new Aligned 4
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> AssembleSpirv(const char* text) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_5);
  std::string messages;
  tools.SetMessageConsumer([&messages](spv_message_level_t, const char*,
                                       const spv_position_t& position, const char* message) {
    messages += "line " + std::to_string(position.line) + ": " + message + "\n";
  });
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, std::strlen(text), &words)) << messages;
  return words;
}

std::vector<uint32_t> CompileToSpirv(const char* source, const char* name) {
  GlslOptions options;
  options.entry_point = name;
  absl::StatusOr<GlslResult> result = CompileGlsl(source, options);
  EXPECT_TRUE(result.ok()) << name << ": " << result.status();
  if (!result.ok()) return {};
  return std::move(result->spirv);
}

std::vector<uint8_t> SpirvBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes(words.size() * sizeof(uint32_t));
  if (!words.empty()) std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<uint8_t> ElfImage(const std::vector<std::vector<uint32_t>>& modules) {
  return WriteElfCodeObject(modules);
}

std::vector<uint8_t> FatBinaryImage(const std::vector<uint8_t>& payload) {
  return WriteFatBinary(
      {{std::string(kBundleHostId), {}}, {std::string(kBundleTargetId), payload}});
}

std::vector<uint8_t> FatBinaryWithoutSpirv() {
  return WriteFatBinary({{std::string(kBundleHostId), {}},
                         {"hipv4-amdgcn-amd-amdhsa--gfx90a", std::vector<uint8_t>(64, 0xab)}});
}

std::string WriteTempFile(const std::string& name, const std::vector<uint8_t>& bytes) {
  // The process id keeps concurrent runs (ctest -j) apart.
  const std::string path =
      testing::TempDir() + "streamhal_conformance_" + std::to_string(getpid()) + "_" + name;
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(file.good()) << "cannot write " << path;
  return path;
}

std::string WriteTempFile(const std::string& name, const std::string& text) {
  return WriteTempFile(name, std::vector<uint8_t>(text.begin(), text.end()));
}

CUfunction LoadCudaKernel(const void* image, const char* name, CUmodule* module) {
  *module = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleLoadData(module, image));
  if (*module == nullptr) return nullptr;
  CUfunction function = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuModuleGetFunction(&function, *module, name));
  return function;
}

hipFunction_t LoadHipKernel(const void* image, const char* name, hipModule_t* module) {
  *module = nullptr;
  EXPECT_HIP(hipSuccess, hipModuleLoadData(module, image));
  if (*module == nullptr) return nullptr;
  hipFunction_t function = nullptr;
  EXPECT_HIP(hipSuccess, hipModuleGetFunction(&function, *module, name));
  return function;
}

void ExpectCudaVectorAdd(CUfunction function, uint32_t n) {
  ASSERT_NE(function, nullptr);
  const std::vector<float> a = Iota(n, 1.0f), b = Iota(n, 0.25f);
  CUdeviceptr da = CudaUpload(a), db = CudaUpload(b), dc = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&dc, n * sizeof(float)));
  void* params[] = {&da, &db, &dc, &n};
  constexpr unsigned kBlock = 128;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function, (n + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0,
                                         nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const std::vector<float> c = CudaDownload<float>(dc, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(da));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(db));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(dc));
}

void ExpectHipVectorAdd(hipFunction_t function, uint32_t n) {
  ASSERT_NE(function, nullptr);
  std::vector<float> a = Iota(n, 2.0f), b = Iota(n, 0.5f);
  void* da = nullptr;
  void* db = nullptr;
  void* dc = nullptr;
  const size_t bytes = n * sizeof(float);
  ASSERT_HIP(hipSuccess, hipMalloc(&da, bytes));
  ASSERT_HIP(hipSuccess, hipMalloc(&db, bytes));
  ASSERT_HIP(hipSuccess, hipMalloc(&dc, bytes));
  ASSERT_HIP(hipSuccess, hipMemcpy(da, a.data(), bytes, hipMemcpyHostToDevice));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(db, b.data(), bytes));
  void* params[] = {&da, &db, &dc, &n};
  constexpr unsigned kBlock = 64;
  ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, (n + kBlock - 1) / kBlock, 1, 1, kBlock, 1,
                                               1, 0, nullptr, params, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  std::vector<float> c(n);
  ASSERT_HIP(hipSuccess, hipMemcpy(c.data(), dc, bytes, hipMemcpyDeviceToHost));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "element " << i;
  EXPECT_HIP(hipSuccess, hipFree(da));
  EXPECT_HIP(hipSuccess, hipFree(db));
  EXPECT_HIP(hipSuccess, hipFree(dc));
}

std::vector<float> Iota(size_t count, float scale) {
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i) * scale;
  return values;
}

int DeviceAttribute(CUdevice_attribute attribute) {
  int value = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&value, attribute, 0));
  return value;
}

void ContextTest::SetUp() {
  DriverTest::SetUp();
  if (HasFatalFailure()) return;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context_, 0, 0));
  // Kernels given a null device address would crash the device (and the
  // process running every test), so a driver that hands out null addresses
  // fails each test here instead.
  CUdeviceptr probe = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&probe, 256));
  ASSERT_NE(probe, 0u) << "cuMemAlloc succeeded but returned a null device address";
  void* hip_probe = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&hip_probe, 256));
  ASSERT_NE(hip_probe, nullptr) << "hipMalloc succeeded but returned a null device address";
  ASSERT_CU(CUDA_SUCCESS, cuMemFree(probe));
  ASSERT_HIP(hipSuccess, hipFree(hip_probe));
}

}  // namespace streamhal::conformance
