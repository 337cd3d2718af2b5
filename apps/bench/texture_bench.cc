// Texture launch cost (kernel ABI v2): launches of a kernel with one texture
// parameter against the same kernel without it, in the same run. The
// texture kernel's launch also resolves the object and pushes its
// descriptor; everything else is equal. Three figures: enqueueing a batch,
// enqueueing and submitting it (which records the Vulkan commands), and one
// launch + cuStreamSynchronize round trip.
#include <benchmark/benchmark.h>
#include <cuda.h>

#include <cstring>

#include "bench_env.h"

namespace bench {
namespace {

constexpr int kBatch = 256;
constexpr double kBatchMinTime = 0.02;

// Parameter 0 is the texture object in both kernels; only the first
// declares and samples it.
const char kWithTexture[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME with_texture
STREAMHAL_DECLARE_PTR(float);
layout(set = 2, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Params { uint64_t tex; float_ptr out_value; uint value; } p;
void main() { p.out_value.v[0] = tex2D(tex, 0.5, 0.5).x + float(p.value); }
)";
const char kWithoutTexture[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#include "streamhal/kernel.glsl"
#define STREAMHAL_KERNEL_NAME without_texture
STREAMHAL_DECLARE_PTR(float);
layout(push_constant) uniform Params { uint64_t tex; float_ptr out_value; uint value; } p;
void main() { p.out_value.v[0] = 1.0 + float(p.value); }
)";

struct TextureEnv {
  bool ok = false;
  CUmodule with_module = nullptr, without_module = nullptr;
  CUfunction with = nullptr, without = nullptr;
  CUarray array = nullptr;
  CUtexObject texture = 0;
};

TextureEnv& GetTextureEnv() {
  static TextureEnv* env = [] {
    auto* e = new TextureEnv;
    CUDA_ARRAY3D_DESCRIPTOR desc;
    std::memset(&desc, 0, sizeof(desc));
    desc.Width = desc.Height = 4;
    desc.Format = CU_AD_FORMAT_FLOAT;
    desc.NumChannels = 1;
    CUDA_RESOURCE_DESC resource;
    std::memset(&resource, 0, sizeof(resource));
    CUDA_TEXTURE_DESC sampler;
    std::memset(&sampler, 0, sizeof(sampler));
    e->ok =
        cuModuleLoadData(&e->with_module, kWithTexture) == CUDA_SUCCESS &&
        cuModuleLoadData(&e->without_module, kWithoutTexture) == CUDA_SUCCESS &&
        cuModuleGetFunction(&e->with, e->with_module, "with_texture") == CUDA_SUCCESS &&
        cuModuleGetFunction(&e->without, e->without_module, "without_texture") == CUDA_SUCCESS &&
        cuArray3DCreate(&e->array, &desc) == CUDA_SUCCESS;
    if (e->ok) {
      resource.resType = CU_RESOURCE_TYPE_ARRAY;
      resource.res.array.hArray = e->array;
      e->ok = cuTexObjectCreate(&e->texture, &resource, &sampler, nullptr) == CUDA_SUCCESS;
    }
    return e;
  }();
  return *env;
}

bool Launch(CUfunction f, uint32_t* value) {
  TextureEnv& t = GetTextureEnv();
  void* args[] = {&t.texture, &GetEnv().output, value};
  ++*value;
  return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) == CUDA_SUCCESS;
}

// kBatch launches per iteration; with `submit`, cuStreamQuery submits them
// (recording the Vulkan commands) inside the timed part too.
void Enqueue(benchmark::State& state, bool texture, bool submit) {
  TextureEnv& t = GetTextureEnv();
  if (!t.ok) {
    state.SkipWithError("setting up the texture kernels failed");
    return;
  }
  CUfunction f = texture ? t.with : t.without;
  uint32_t value = 0;
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) {
      if (!Launch(f, &value)) {
        state.SkipWithError("cuLaunchKernel failed");
        return;
      }
    }
    if (submit) {
      const CUresult queried = cuStreamQuery(nullptr);
      if (queried != CUDA_SUCCESS && queried != CUDA_ERROR_NOT_READY) {
        state.SkipWithError("cuStreamQuery failed");
        return;
      }
    }
    state.PauseTiming();
    cuCtxSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK_CAPTURE(Enqueue, BM_Streamhal_LaunchWithoutTexture, false, false)
    ->MinTime(kBatchMinTime);
BENCHMARK_CAPTURE(Enqueue, BM_Streamhal_LaunchWithOneTexture, true, false)->MinTime(kBatchMinTime);
BENCHMARK_CAPTURE(Enqueue, BM_Streamhal_LaunchSubmitWithoutTexture, false, true)
    ->MinTime(kBatchMinTime);
BENCHMARK_CAPTURE(Enqueue, BM_Streamhal_LaunchSubmitWithOneTexture, true, true)
    ->MinTime(kBatchMinTime);

void RoundTrip(benchmark::State& state, bool texture) {
  TextureEnv& t = GetTextureEnv();
  if (!t.ok) {
    state.SkipWithError("setting up the texture kernels failed");
    return;
  }
  CUfunction f = texture ? t.with : t.without;
  uint32_t value = 0;
  for (auto _ : state) {
    if (!Launch(f, &value) || cuStreamSynchronize(nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("launch or synchronize failed");
      return;
    }
  }
}
BENCHMARK_CAPTURE(RoundTrip, BM_Streamhal_RoundTripWithoutTexture, false)->UseRealTime();
BENCHMARK_CAPTURE(RoundTrip, BM_Streamhal_RoundTripWithOneTexture, true)->UseRealTime();

}  // namespace
}  // namespace bench
