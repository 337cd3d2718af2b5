// Graphs (issue 10): a chain of kGraphNodes dependent tiny-kernel nodes.
//  * host cost of cuGraphLaunch of the chain against the same number of
//    cuLaunchKernel calls (with their submission), device drained with
//    timing paused: the per-node launch cost ratio;
//  * replay (launch + wait) against raw Vulkan re-submitting one
//    pre-recorded command buffer of the same ordered dispatches;
//  * instantiation of 1,000 and 10,000 nodes, per node.
#include <benchmark/benchmark.h>

#include <vector>

#include "bench_env.h"

namespace bench {
namespace {

constexpr int kGraphNodes = 1000;
// Fixed iteration counts: draining 1,000 ordered dispatches takes lavapipe
// ~100 ms, so a time-based run would spend minutes with timing paused.
constexpr int kLaunchIterations = 30;
constexpr int kReplayIterations = 10;

// A chain of `nodes` launches of the tiny kernel; each depends on the last.
CUgraph MakeChain(int nodes) {
  Env& env = GetEnv();
  static uint32_t value = 1;
  void* args[] = {&env.output, &value};
  CUDA_KERNEL_NODE_PARAMS params = {};
  params.func = env.tiny;
  params.gridDimX = params.gridDimY = params.gridDimZ = 1;
  params.blockDimX = params.blockDimY = params.blockDimZ = 1;
  params.kernelParams = args;
  CUgraph graph = nullptr;
  if (cuGraphCreate(&graph, 0) != CUDA_SUCCESS) return nullptr;
  CUgraphNode last = nullptr;
  for (int i = 0; i < nodes; ++i) {
    CUgraphNode node = nullptr;
    if (cuGraphAddKernelNode(&node, graph, last ? &last : nullptr, last ? 1 : 0, &params) !=
        CUDA_SUCCESS) {
      cuGraphDestroy(graph);
      return nullptr;
    }
    last = node;
  }
  return graph;
}

struct Chain {
  CUgraph graph = nullptr;
  CUgraphExec exec = nullptr;
  bool ok() const { return exec != nullptr; }
};

Chain& GetChain() {
  static Chain chain = [] {
    Chain c;
    c.graph = MakeChain(kGraphNodes);
    if (c.graph == nullptr || cuGraphInstantiate(&c.exec, c.graph, 0) != CUDA_SUCCESS) {
      c.exec = nullptr;
    }
    return c;
  }();
  return chain;
}

void BM_Streamhal_LaunchKernelChainSubmit(benchmark::State& state) {
  Env& env = GetEnv();
  uint32_t value = 0;
  void* args[] = {&env.output, &value};
  for (auto _ : state) {
    for (int i = 0; i < kGraphNodes; ++i) {
      ++value;
      if (cuLaunchKernel(env.tiny, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr) != CUDA_SUCCESS) {
        state.SkipWithError("cuLaunchKernel failed");
        return;
      }
    }
    const CUresult queried = cuStreamQuery(nullptr);
    if (queried != CUDA_SUCCESS && queried != CUDA_ERROR_NOT_READY) {
      state.SkipWithError("cuStreamQuery failed");
      return;
    }
    state.PauseTiming();
    cuCtxSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kGraphNodes);
}
BENCHMARK(BM_Streamhal_LaunchKernelChainSubmit)->Iterations(kLaunchIterations);

void BM_Streamhal_GraphLaunchChain(benchmark::State& state) {
  Chain& chain = GetChain();
  if (!chain.ok()) {
    state.SkipWithError("graph instantiation failed");
    return;
  }
  for (auto _ : state) {
    if (cuGraphLaunch(chain.exec, nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("cuGraphLaunch failed");
      return;
    }
    state.PauseTiming();
    cuCtxSynchronize();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kGraphNodes);
}
BENCHMARK(BM_Streamhal_GraphLaunchChain)->Iterations(kLaunchIterations);

void BM_RawVulkan_ResubmitRecordedChain(benchmark::State& state) {
  RawVulkan& vulkan = *GetEnv().raw;
  vulkan.recorder().Begin(/*reusable=*/true);
  for (int i = 0; i < kGraphNodes; ++i) vulkan.recorder().RecordOrderedDispatch(1, i == 0);
  vulkan.recorder().End();
  for (auto _ : state) vulkan.SubmitAndWait();
  state.SetItemsProcessed(state.iterations() * kGraphNodes);
}
BENCHMARK(BM_RawVulkan_ResubmitRecordedChain)->Iterations(kReplayIterations);

void BM_Streamhal_GraphReplayChain(benchmark::State& state) {
  Chain& chain = GetChain();
  if (!chain.ok()) {
    state.SkipWithError("graph instantiation failed");
    return;
  }
  for (auto _ : state) {
    if (cuGraphLaunch(chain.exec, nullptr) != CUDA_SUCCESS ||
        cuStreamSynchronize(nullptr) != CUDA_SUCCESS) {
      state.SkipWithError("graph launch or synchronize failed");
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * kGraphNodes);
}
BENCHMARK(BM_Streamhal_GraphReplayChain)->Iterations(kReplayIterations);

void BM_Streamhal_GraphInstantiate(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  CUgraph graph = MakeChain(nodes);
  if (graph == nullptr) {
    state.SkipWithError("graph construction failed");
    return;
  }
  for (auto _ : state) {
    CUgraphExec exec = nullptr;
    if (cuGraphInstantiate(&exec, graph, 0) != CUDA_SUCCESS) {
      state.SkipWithError("cuGraphInstantiate failed");
      break;
    }
    state.PauseTiming();
    cuGraphExecDestroy(exec);
    state.ResumeTiming();
  }
  cuGraphDestroy(graph);
  state.SetItemsProcessed(state.iterations() * nodes);
}
BENCHMARK(BM_Streamhal_GraphInstantiate)->Arg(1000)->Arg(10000)->Iterations(5);

}  // namespace
}  // namespace bench
