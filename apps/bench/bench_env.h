// Shared state of the benchmarks: one streamhal context with the tiny kernel
// loaded, and one raw-Vulkan baseline on the same device and SPIR-V.
#ifndef STREAMHAL_APPS_BENCH_BENCH_ENV_H_
#define STREAMHAL_APPS_BENCH_BENCH_ENV_H_

#include <cuda.h>

#include "raw_vulkan.h"

namespace bench {

struct Env {
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CUfunction tiny = nullptr;
  CUmodule lcg_module = nullptr;
  CUfunction lcg = nullptr;
  CUdeviceptr lcg_output = 0;
  CUdeviceptr output = 0;
  RawVulkan* raw = nullptr;
};

// Set up by main() before any benchmark runs.
Env& GetEnv();

}  // namespace bench

#endif  // STREAMHAL_APPS_BENCH_BENCH_ENV_H_
