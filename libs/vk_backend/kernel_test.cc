#include "vk_backend/kernel.h"

#include <cstring>
#include <string>
#include <vector>

#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/grid_split.h"
#include "vk_backend/stream.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

using KernelTest = testing::LavapipeTest;
using testing::LoadedKernel;
using testing::LoadGlslKernel;

constexpr char kPrelude[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(float);
STREAMHAL_DECLARE_PTR(uint);
)";

std::string Kernel(const std::string& body) { return kPrelude + body; }

template <typename T>
T* HostOf(const std::unique_ptr<BackendAllocation>& allocation) {
  return static_cast<T*>(allocation->host_pointer());
}

absl::Status Launch(BackendStream* stream, const LoadedKernel& kernel, std::array<uint32_t, 3> grid,
                    std::array<uint32_t, 3> block, const void* params, uint32_t shared = 0,
                    BackendAllocation* globals = nullptr) {
  DispatchParams dispatch;
  dispatch.kernel = kernel.kernel.get();
  dispatch.grid = grid;
  dispatch.block = block;
  dispatch.params = params;
  dispatch.dynamic_shared_bytes = shared;
  dispatch.globals = globals;
  return stream->RecordDispatch(dispatch);
}

TEST_F(KernelTest, AddsVectorsThroughDeviceAddresses) {
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { float_ptr a; float_ptr b; float_ptr c; uint n; } p;
void main() {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.c.v[i] = p.a.v[i] + p.b.v[i];
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  EXPECT_EQ(kernel->layout.param_block_size, 28u);
  constexpr uint32_t kN = 1000;
  auto a = Allocate(kN * 4), b = Allocate(kN * 4), c = Allocate(kN * 4);
  for (uint32_t i = 0; i < kN; ++i) {
    HostOf<float>(a)[i] = static_cast<float>(i);
    HostOf<float>(b)[i] = 0.5f * static_cast<float>(i);
    HostOf<float>(c)[i] = -1.0f;
  }
  struct {
    uint64_t a, b, c;
    uint32_t n;
  } params = {a->device_address(), b->device_address(), c->device_address(), kN};
  auto stream = NewStream();
  ASSERT_TRUE(Launch(stream.get(), *kernel, {(kN + 63) / 64, 1, 1}, {64, 1, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(HostOf<float>(c)[i], 1.5f * i) << i;
  EXPECT_EQ(kernel->kernel->max_threads_per_block(),
            static_cast<int>(device()->vk_properties().limits.maxComputeWorkGroupInvocations));
}

TEST_F(KernelTest, PipelinesAreCachedPerLaunchShape) {
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { uint_ptr dst; } p;
void main() { p.dst.v[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 1000 + gl_WorkGroupSize.y; })"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  auto out = Allocate(1024 * 4);
  const uint64_t params = out->device_address();
  auto stream = NewStream();
  auto* vulkan = static_cast<VulkanKernel*>(kernel->kernel.get());
  ASSERT_TRUE(Launch(stream.get(), *kernel, {1, 1, 1}, {32, 2, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(HostOf<uint32_t>(out)[63], 32002u);
  ASSERT_TRUE(Launch(stream.get(), *kernel, {1, 1, 1}, {128, 1, 1}, &params).ok());
  ASSERT_TRUE(Launch(stream.get(), *kernel, {1, 1, 1}, {32, 2, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(HostOf<uint32_t>(out)[0], 32002u);
  EXPECT_EQ(HostOf<uint32_t>(out)[127], 128001u);
  EXPECT_EQ(vulkan->pipeline_count(), 2u);
}

TEST_F(KernelTest, DynamicSharedMemorySizeComesFromSpecId3) {
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
STREAMHAL_DYNAMIC_SHARED(uint, 4, smem);
layout(push_constant) uniform Params { uint_ptr dst; uint count; } p;
void main() {
  for (uint k = threadIdx.x; k < p.count; k += blockDim.x) smem[k] = k * 3u;
  syncthreads();
  for (uint k = threadIdx.x; k < p.count; k += blockDim.x) p.dst.v[k] = smem[p.count - 1 - k];
  if (threadIdx.x == 0) p.dst.v[p.count] = kStreamhalDynamicSharedBytes;
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ASSERT_TRUE(kernel->layout.has_dynamic_shared_spec);
  auto out = Allocate(8192);
  auto stream = NewStream();
  for (uint32_t count : {1000u, 1001u, 3u}) {
    struct {
      uint64_t out;
      uint32_t count;
    } params = {out->device_address(), count};
    ASSERT_TRUE(Launch(stream.get(), *kernel, {1, 1, 1}, {64, 1, 1}, &params, count * 4).ok());
    ASSERT_TRUE(Synchronize(stream.get()).ok());
    for (uint32_t k = 0; k < count; ++k) {
      ASSERT_EQ(HostOf<uint32_t>(out)[k], (count - 1 - k) * 3) << count << " " << k;
    }
    // The launch's bytes rounded up to a multiple of 16, at least 16.
    EXPECT_EQ(HostOf<uint32_t>(out)[count], std::max(16u, (count * 4 + 15) / 16 * 16));
  }
  EXPECT_EQ(static_cast<VulkanKernel*>(kernel->kernel.get())->pipeline_count(), 3u);
}

TEST_F(KernelTest, GridsLargerThanOneDispatchRunEveryBlockOnce) {
  const uint32_t limit = device()->vk_properties().limits.maxComputeWorkGroupCount[0];
  const uint32_t blocks = limit + 4465;  // 70000 on lavapipe
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { uint_ptr hits; uint_ptr info; uint base; } p;
void main() {
  atomicAdd(p.hits.v[blockIdx.x], blockIdx.x + p.base);
  if (blockIdx.x == 0) p.info.v[0] = gridDim.x;
  if (gl_GlobalInvocationID.x != blockIdx.x * blockDim.x + threadIdx.x) atomicAdd(p.info.v[1], 1u);
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  auto* vulkan = static_cast<VulkanKernel*>(kernel->kernel.get());
  EXPECT_TRUE(vulkan->needs_grid_info());
  EXPECT_EQ(vulkan->grid_info_offset(), 20u);  // right after the 20 parameter bytes
  auto hits = Allocate(uint64_t{blocks} * 4);
  auto info = Allocate(8);
  std::memset(hits->host_pointer(), 0, uint64_t{blocks} * 4);
  std::memset(info->host_pointer(), 0, 8);
  struct {
    uint64_t hits, info;
    uint32_t base;
  } params = {hits->device_address(), info->device_address(), 7};
  auto stream = NewStream();
  ASSERT_TRUE(Launch(stream.get(), *kernel, {blocks, 1, 1}, {1, 1, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (uint32_t i = 0; i < blocks; ++i) ASSERT_EQ(HostOf<uint32_t>(hits)[i], i + 7) << i;
  EXPECT_EQ(HostOf<uint32_t>(info)[0], blocks);  // gridDim is the whole grid
  EXPECT_EQ(HostOf<uint32_t>(info)[1], 0u);
}

TEST_F(KernelTest, GridsSplitInYWithWideBlocks) {
  const uint32_t limit = device()->vk_properties().limits.maxComputeWorkGroupCount[1];
  const uint32_t rows = limit + 10;
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { uint_ptr hits; } p;
void main() {
  uvec3 g = gl_GlobalInvocationID;
  if (g.x == blockIdx.x * blockDim.x + threadIdx.x && g.y == blockIdx.y && gridDim.y > 65535u) {
    atomicAdd(p.hits.v[g.y * 8 + g.x], 1u);
  }
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  auto hits = Allocate(uint64_t{rows} * 8 * 4);
  std::memset(hits->host_pointer(), 0, uint64_t{rows} * 8 * 4);
  const uint64_t params = hits->device_address();
  auto stream = NewStream();
  ASSERT_TRUE(Launch(stream.get(), *kernel, {2, rows, 1}, {4, 1, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (uint64_t i = 0; i < uint64_t{rows} * 8; ++i) ASSERT_EQ(HostOf<uint32_t>(hits)[i], 1u) << i;
}

TEST_F(KernelTest, KernelsThatIgnoreTheirPositionNeedNoGridInfo) {
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { uint_ptr counter; } p;
void main() { atomicAdd(p.counter.v[0], 1u); })"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  auto* vulkan = static_cast<VulkanKernel*>(kernel->kernel.get());
  EXPECT_FALSE(vulkan->needs_grid_info());
  EXPECT_TRUE(vulkan->can_split());
  EXPECT_EQ(vulkan->push_size(), 8u);
  auto counter = Allocate(4);
  *HostOf<uint32_t>(counter) = 0;
  const uint64_t params = counter->device_address();
  const uint32_t blocks = device()->vk_properties().limits.maxComputeWorkGroupCount[0] + 100;
  auto stream = NewStream();
  ASSERT_TRUE(Launch(stream.get(), *kernel, {blocks, 1, 1}, {2, 1, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(*HostOf<uint32_t>(counter), 2 * blocks);
}

TEST_F(KernelTest, BigParameterBlocksArriveThroughAUniformBuffer) {
  // 1 KiB of parameters: far above the 128 bytes of push constants.
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(push_constant) uniform Params { uint_ptr dst; uint values[254]; } p;
void main() {
  uint i = threadIdx.x;
  if (i < 254) p.dst.v[blockIdx.x * 256 + i] = p.values[i] + blockIdx.x;
})"),
                               /*params_in_uniform=*/true);
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ASSERT_EQ(kernel->layout.param_block_size, 1024u);
  ASSERT_TRUE(kernel->layout.params_in_uniform_buffer);
  auto* vulkan = static_cast<VulkanKernel*>(kernel->kernel.get());
  EXPECT_EQ(vulkan->push_param_bytes(), 0u);
  EXPECT_EQ(vulkan->grid_info_offset(), 0u);  // the grid info has a block of its own
  auto out = Allocate(2 * 256 * 4);
  auto stream = NewStream();
  struct {
    uint64_t out;
    uint32_t values[254];
  } params;
  params.out = out->device_address();
  // Several launches in one batch, each with its own values.
  for (uint32_t launch = 0; launch < 3; ++launch) {
    for (uint32_t i = 0; i < 254; ++i) params.values[i] = i * 11 + launch;
    ASSERT_TRUE(Launch(stream.get(), *kernel, {2, 1, 1}, {256, 1, 1}, &params).ok());
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (uint32_t block = 0; block < 2; ++block) {
    for (uint32_t i = 0; i < 254; ++i) {
      ASSERT_EQ(HostOf<uint32_t>(out)[block * 256 + i], i * 11 + 2 + block) << block << " " << i;
    }
  }
}

TEST_F(KernelTest, GlobalsAreBoundAtSetZero) {
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
layout(set = 0, binding = 0) buffer streamhal_globals { uint counter; uint data[4]; } g;
layout(push_constant) uniform Params { uint_ptr dst; } p;
void main() {
  atomicAdd(g.counter, 1u);
  if (threadIdx.x == 0) p.dst.v[0] = g.data[2];
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  ASSERT_TRUE(kernel->layout.uses_globals);
  auto globals = Allocate(20);
  auto out = Allocate(4);
  uint32_t* g = HostOf<uint32_t>(globals);
  g[0] = 0;
  g[3] = 4242;  // data[2]
  const uint64_t params = out->device_address();
  auto stream = NewStream();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        Launch(stream.get(), *kernel, {1, 1, 1}, {64, 1, 1}, &params, 0, globals.get()).ok());
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(g[0], 192u);
  EXPECT_EQ(*HostOf<uint32_t>(out), 4242u);
}

TEST_F(KernelTest, TrailingAggregateParametersKeepTheirLayout) {
  // The grid info must follow the padding of a trailing struct member.
  auto kernel = LoadGlslKernel(device(), Kernel(R"(
struct Pair { uint a; uvec2 b; };
layout(push_constant) uniform Params { uint_ptr dst; Pair pair; } p;
void main() {
  p.dst.v[blockIdx.x * 3 + 0] = p.pair.a;
  p.dst.v[blockIdx.x * 3 + 1] = p.pair.b.x;
  p.dst.v[blockIdx.x * 3 + 2] = p.pair.b.y + gridDim.x;
})"));
  ASSERT_TRUE(kernel.ok()) << kernel.status();
  auto* vulkan = static_cast<VulkanKernel*>(kernel->kernel.get());
  ASSERT_TRUE(vulkan->needs_grid_info());
  // Pair: a at 8, b at 16 (uvec2 aligned to 8), ends at 24.
  EXPECT_EQ(vulkan->grid_info_offset(), 24u);
  auto out = Allocate(3 * 4 * 4);
  struct {
    uint64_t out;
    uint32_t a, pad, bx, by;
  } params = {out->device_address(), 5, 0, 6, 7};
  auto stream = NewStream();
  ASSERT_TRUE(Launch(stream.get(), *kernel, {4, 1, 1}, {1, 1, 1}, &params).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (int block = 0; block < 4; ++block) {
    EXPECT_EQ(HostOf<uint32_t>(out)[block * 3 + 0], 5u);
    EXPECT_EQ(HostOf<uint32_t>(out)[block * 3 + 1], 6u);
    EXPECT_EQ(HostOf<uint32_t>(out)[block * 3 + 2], 11u);
  }
}

}  // namespace
}  // namespace streamhal::vk
