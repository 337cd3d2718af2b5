// Runs the benchmarks, then prints each streamhal figure as a ratio to its
// raw baseline measured in the same run (the targets are in the issues).
#include <benchmark/benchmark.h>
#include <cuda.h>

#include <cstdio>
#include <map>
#include <string>

#include "bench_env.h"

namespace bench {

Env& GetEnv() {
  static Env env;
  return env;
}

namespace {

// Records each benchmark's time per iteration (ns) and throughput.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      // With --benchmark_repetitions the median stands for the benchmark (it
      // comes after the repetitions, and a loaded machine skews the mean);
      // other aggregates are skipped.
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      const double ns = run.GetAdjustedRealTime();
      const std::string name = WithoutMinTime(run.run_name.str());
      times_[name] = ns;
      for (const char* rate : {"bytes_per_second", "items_per_second"}) {
        auto it = run.counters.find(rate);
        if (it != run.counters.end()) rates_[name] = it->second.value;
      }
    }
  }

  void PrintRatios() const {
    std::printf("\nRatios (same run):\n");
    Ratio("launch enqueue: streamhal / raw record (target <= 1.5)", times_,
          "BM_Streamhal_LaunchKernel", "BM_RawVulkan_RecordDispatch");
    Ratio("launch enqueue: streamhal / raw record with ordering barriers", times_,
          "BM_Streamhal_LaunchKernel", "BM_RawVulkan_RecordOrderedDispatch");
    Ratio("launches + submit: streamhal / raw ordered record + submit", times_,
          "BM_Streamhal_LaunchKernelSubmit", "BM_RawVulkan_RecordOrderedSubmit");
    Ratio("launch + stream sync: streamhal / raw submit+wait (target <= 1.1)", times_,
          "BM_Streamhal_LaunchStreamSynchronize", "BM_RawVulkan_SubmitWait");
    Ratio("launch + context sync: streamhal / raw submit+wait", times_,
          "BM_Streamhal_LaunchCtxSynchronize", "BM_RawVulkan_SubmitWait");
    // Round trips under each scheduling flag, against the raw wait of the
    // same kind, and against PoCL's clEnqueueNDRangeKernel + clFinish.
    Ratio("round trip AUTO / raw fence wait (block)", times_,
          "BM_Streamhal_RoundTrip/AUTO/real_time", "BM_RawVulkan_RoundTripBlock/real_time");
    Ratio("round trip AUTO / raw fence poll (spin)", times_,
          "BM_Streamhal_RoundTrip/AUTO/real_time", "BM_RawVulkan_RoundTripPoll/spin/real_time");
    Ratio("round trip SPIN / raw fence poll (spin)", times_,
          "BM_Streamhal_RoundTrip/SPIN/real_time", "BM_RawVulkan_RoundTripPoll/spin/real_time");
    Ratio("round trip YIELD / raw fence poll with yields", times_,
          "BM_Streamhal_RoundTrip/YIELD/real_time", "BM_RawVulkan_RoundTripPoll/yield/real_time");
    Ratio("round trip BLOCKING_SYNC / raw fence wait (block)", times_,
          "BM_Streamhal_RoundTrip/BLOCKING_SYNC/real_time",
          "BM_RawVulkan_RoundTripBlock/real_time");
    for (const char* flag : {"AUTO", "SPIN", "YIELD", "BLOCKING_SYNC"}) {
      const std::string name = std::string("BM_Streamhal_RoundTrip/") + flag + "/real_time";
      const std::string label =
          "round trip " + std::string(flag) + " / PoCL (target <= 0.8 for AUTO)";
      Ratio(label.c_str(), times_, name, "BM_OpenCL_RoundTrip/real_time");
    }
    for (const char* flag : {"AUTO", "SPIN", "YIELD"}) {
      const std::string name = std::string("BM_Streamhal_Lcg/") + flag;
      const std::string label =
          "compute-bound " + std::string(flag) + " / BLOCKING_SYNC (target <= 1.02)";
      Ratio(label.c_str(), times_, name, "BM_Streamhal_Lcg/BLOCKING_SYNC");
    }
    Ratio("compute-bound AUTO / PoCL", times_, "BM_Streamhal_Lcg/AUTO", "BM_OpenCL_Lcg");
    Ratio("enqueue throughput: two threads / one thread (target >= 1.8)", rates_,
          "BM_Streamhal_LaunchThreads/2/manual_time", "BM_Streamhal_LaunchThreads/1/manual_time");
    Ratio("record throughput, raw Vulkan: two threads / one thread", rates_,
          "BM_RawVulkan_RecordThreads/2/manual_time", "BM_RawVulkan_RecordThreads/1/manual_time");
    Ratio("1 MiB pool alloc+free reused / cuMemAlloc+cuMemFree (target <= 0.1)", times_,
          "BM_Streamhal_MemAllocAsyncFreeAsync_1MiB_Reused", "BM_Streamhal_MemAllocFree_1MiB");
    Ratio("1 MiB pool alloc+free reused / raw buffer+memory alloc+free", times_,
          "BM_Streamhal_MemAllocAsyncFreeAsync_1MiB_Reused", "BM_RawVulkan_BufferAllocFree_1MiB");
    Ratio("1 MiB cuMemAlloc+cuMemFree / raw buffer+memory alloc+free", times_,
          "BM_Streamhal_MemAllocFree_1MiB", "BM_RawVulkan_BufferAllocFree_1MiB");
    Ratio("pool calls per second, 100,000 live / 1,000 live (flat: ~1)", rates_,
          "BM_Streamhal_PoolAllocFreeWithNLive/100000/real_time",
          "BM_Streamhal_PoolAllocFreeWithNLive/1000/real_time");
    Ratio("HtoD 64 MiB throughput: streamhal / memcpy (target >= 0.9)", rates_,
          "BM_Streamhal_MemcpyHtoD64MiB/real_time", "BM_HostMemcpy64MiB/real_time");
    Ratio("DtoH 64 MiB throughput: streamhal / memcpy (target >= 0.9)", rates_,
          "BM_Streamhal_MemcpyDtoH64MiB/real_time", "BM_HostMemcpy64MiB/real_time");
    Ratio("2-D DtoD 4096x4096 float, pitched / 1-D DtoD (target >= 0.8)", rates_,
          "BM_Streamhal_Memcpy2DDtoD4096x4096Float/real_time",
          "BM_Streamhal_MemcpyDtoD64MiB/real_time");
    Ratio(
        "peer 64 MiB throughput: cuMemcpyPeer / cuMemcpyDtoD (goal >= 0.8; needs "
        "STREAMHAL_VK_DEVICES_PER_GPU=2)",
        rates_, "BM_Streamhal_MemcpyPeer64MiB/real_time", "BM_Streamhal_MemcpyDtoD64MiB/real_time");
    Ratio("2-D HtoD 4096x4096 float, pitched / 1-D HtoD (target >= 0.8)", rates_,
          "BM_Streamhal_Memcpy2DHtoD4096x4096Float/real_time",
          "BM_Streamhal_MemcpyHtoD64MiB/real_time");
    // HIP's own overhead: each HIP figure against its CUDA twin (target
    // <= 1.05 for times, >= 0.95 for throughputs) and against raw Vulkan.
    Ratio("HIP launch enqueue / CUDA launch enqueue (target <= 1.05)", times_,
          "BM_Hip_ModuleLaunchKernel", "BM_Streamhal_LaunchKernel");
    Ratio("HIP launch enqueue / raw record", times_, "BM_Hip_ModuleLaunchKernel",
          "BM_RawVulkan_RecordDispatch");
    Ratio("HIP launch + stream sync / CUDA's (target <= 1.05)", times_,
          "BM_Hip_LaunchStreamSynchronize", "BM_Streamhal_LaunchStreamSynchronize");
    Ratio("HIP launch + stream sync / raw submit+wait", times_, "BM_Hip_LaunchStreamSynchronize",
          "BM_RawVulkan_SubmitWait");
    Ratio("HIP HtoD 64 MiB throughput / CUDA's (target >= 0.95)", rates_,
          "BM_Hip_MemcpyHtoD64MiB/real_time", "BM_Streamhal_MemcpyHtoD64MiB/real_time");
    Ratio("HIP DtoH 64 MiB throughput / CUDA's (target >= 0.95)", rates_,
          "BM_Hip_MemcpyDtoH64MiB/real_time", "BM_Streamhal_MemcpyDtoH64MiB/real_time");
    // Issue 15: translated PTX against the hand-written GLSL kernel of the
    // same algorithm, and the translation cache.
    for (const char* kernel : {"VectorAdd", "Matmul", "Reduce"}) {
      const std::string label =
          std::string("PTX / GLSL kernel time, ") + kernel + " (target <= 1.3)";
      Ratio(label.c_str(), times_, std::string("BM_Kernel/") + kernel + "_ptx/real_time",
            std::string("BM_Kernel/") + kernel + "_glsl/real_time");
    }
    Ratio("PTX corpus, second load from the cache / first (target <= 0.1)", times_,
          "BM_Ptx_CachedCorpus/warm:1", "BM_Ptx_CachedCorpus/warm:0");
    Ratio("PTX corpus, second load from the cache / translation alone", times_,
          "BM_Ptx_CachedCorpus/warm:1", "BM_Ptx_TranslateCorpus");
    Ratio("PTX corpus cuModuleLoadData+Unload, warm cache / empty cache", times_,
          "BM_Ptx_ModuleLoadCorpus/warm:1", "BM_Ptx_ModuleLoadCorpus/warm:0");
  }

 private:
  // "BM_X/1/min_time:0.100/manual_time" -> "BM_X/1/manual_time", and the
  // same for "/iterations:N": the ratios name benchmarks without their time
  // settings.
  static std::string WithoutMinTime(std::string name) {
    for (const char* setting : {"/min_time:", "/iterations:"}) {
      const size_t at = name.find(setting);
      if (at == std::string::npos) continue;
      const size_t end = name.find('/', at + 1);
      name.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
    return name;
  }

  static void Ratio(const char* label, const std::map<std::string, double>& values,
                    const std::string& ours, const std::string& baseline) {
    auto a = values.find(ours);
    auto b = values.find(baseline);
    if (a == values.end() || b == values.end() || b->second == 0) return;
    std::printf("  %-64s %.2f\n", label, a->second / b->second);
  }

  std::map<std::string, double> times_;
  std::map<std::string, double> rates_;
};

int Fail(const char* what, CUresult result) {
  const char* name = "?";
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "streamhal-bench: %s failed: %s\n", what, name);
  return 1;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  bench::Env& env = bench::GetEnv();
  CUresult result = cuInit(0);
  if (result != CUDA_SUCCESS) return bench::Fail("cuInit", result);
  if ((result = cuCtxCreate(&env.context, 0, 0)) != CUDA_SUCCESS) {
    return bench::Fail("cuCtxCreate", result);
  }
  if ((result = cuModuleLoad(&env.module, TINY_SPV)) != CUDA_SUCCESS) {
    return bench::Fail("cuModuleLoad", result);
  }
  if ((result = cuModuleGetFunction(&env.tiny, env.module, "tiny")) != CUDA_SUCCESS) {
    return bench::Fail("cuModuleGetFunction", result);
  }
  if ((result = cuMemAlloc(&env.output, 256)) != CUDA_SUCCESS) {
    return bench::Fail("cuMemAlloc", result);
  }
  if ((result = cuModuleLoad(&env.lcg_module, LCG_SPV)) != CUDA_SUCCESS) {
    return bench::Fail("cuModuleLoad", result);
  }
  if ((result = cuModuleGetFunction(&env.lcg, env.lcg_module, "lcg")) != CUDA_SUCCESS) {
    return bench::Fail("cuModuleGetFunction", result);
  }
  if ((result = cuMemAlloc(&env.lcg_output, 65536 * sizeof(uint32_t))) != CUDA_SUCCESS) {
    return bench::Fail("cuMemAlloc", result);
  }
  bench::RawVulkan raw(TINY_SPV);
  env.raw = &raw;

  bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();

  cuMemFree(env.lcg_output);
  cuModuleUnload(env.lcg_module);
  cuMemFree(env.output);
  cuModuleUnload(env.module);
  cuCtxDestroy(env.context);
  benchmark::Shutdown();
  return 0;
}
