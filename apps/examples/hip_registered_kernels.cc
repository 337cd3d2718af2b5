// Registered kernels, as a program built with hipcc uses them: no module
// code at all. streamhal_add_kernels(... EMBED) compiled the kernels into
// this program (two images) with one typed host stub per kernel, registered
// at start-up; hipLaunchKernelGGL launches them by stub. With a plugin path
// as argument, a shared library with kernels of its own is loaded with
// dlopen, run and unloaded with dlclose, twice.
#include <dlfcn.h>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hip_registered_scale_kernels.h"
#include "hip_registered_vector_kernels.h"

#define HIP_CHECK(call)                                                         \
  do {                                                                          \
    hipError_t error_ = (call);                                                 \
    if (error_ != hipSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                   hipGetErrorName(error_));                                    \
      std::exit(1);                                                             \
    }                                                                           \
  } while (0)

namespace {

int RunPlugin(const char* path) {
  for (int round = 0; round < 2; ++round) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      std::fprintf(stderr, "dlopen: %s\n", dlerror());
      return 1;
    }
    using Run = int (*)(unsigned, const void**);
    auto run = reinterpret_cast<Run>(dlsym(library, "plugin_run"));
    if (run == nullptr) {
      std::fprintf(stderr, "dlsym: %s\n", dlerror());
      return 1;
    }
    const void* stub = nullptr;
    const int errors = run(10000, &stub);
    std::printf("plugin round %d: axpy_bias: %d errors\n", round, errors);
    if (errors != 0) return 1;
    dlclose(library);
    // Unloading the library unregistered its kernels.
    unsigned n = 0;
    void* args[] = {&n, &n, &n, &n};
    const hipError_t stale = hipLaunchKernel(stub, dim3(1), dim3(1), args, 0, nullptr);
    (void)hipGetLastError();
    if (stale != hipErrorInvalidDeviceFunction) {
      std::fprintf(stderr, "launch through an unloaded plugin's stub: %s\n",
                   hipGetErrorName(stale));
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr unsigned kN = 1 << 16;
  constexpr size_t kBytes = kN * sizeof(float);
  std::vector<float> a(kN), b(kN), c(kN, -1.0f);
  for (unsigned i = 0; i < kN; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1.0f;
  }
  float* da = nullptr;
  float* db = nullptr;
  float* dc = nullptr;
  HIP_CHECK(hipMalloc(&da, kBytes));
  HIP_CHECK(hipMalloc(&db, kBytes));
  HIP_CHECK(hipMalloc(&dc, kBytes));
  HIP_CHECK(hipMemcpy(da, a.data(), kBytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), kBytes, hipMemcpyHostToDevice));

  // Arguments are checked against the stubs' parameter lists at compile time.
  hipStream_t stream = nullptr;
  HIP_CHECK(hipStreamCreate(&stream));
  hipLaunchKernelGGL(vector_add, dim3(kN / 256), dim3(256), 0, stream, da, db, dc, kN);
  HIP_CHECK(hipGetLastError());
  // The second image: dc = dc * 2 + 1.
  hipLaunchKernelGGL(scale_offset, dim3(kN / 256), dim3(256), 0, stream, dc, 2.0f, 1.0f, kN);
  HIP_CHECK(hipGetLastError());
  HIP_CHECK(hipStreamSynchronize(stream));
  HIP_CHECK(hipMemcpy(c.data(), dc, kBytes, hipMemcpyDeviceToHost));
  int errors = 0;
  for (unsigned i = 0; i < kN; ++i) {
    if (c[i] != (a[i] + b[i]) * 2.0f + 1.0f) ++errors;
  }
  std::printf("vector_add + scale_offset: %u elements, %d errors\n", kN, errors);

  // A host function that is not a registered stub is no kernel.
  void* args[] = {&da, &db, &dc};
  const hipError_t bad = hipLaunchKernel(reinterpret_cast<const void*>(&RunPlugin), dim3(1),
                                         dim3(1), args, 0, nullptr);
  (void)hipGetLastError();
  if (bad != hipErrorInvalidDeviceFunction) ++errors;

  HIP_CHECK(hipStreamDestroy(stream));
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  if (errors == 0 && argc > 1 && RunPlugin(argv[1]) != 0) errors = 1;
  std::printf("%s\n", errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
