// The HIP vector-add demo: the runtime-style flow with no explicit context
// (hipSetDevice, hipMalloc, hipMemcpy), a module loaded from a code object,
// and hipModuleLaunchKernel with kernelParams.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define HIP_CHECK(call)                                                                  \
  do {                                                                                   \
    hipError_t error_ = (call);                                                          \
    if (error_ != hipSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,          \
                   hipGetErrorName(error_));                                             \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  constexpr unsigned kN = 1 << 16;
  constexpr size_t kBytes = kN * sizeof(float);

  HIP_CHECK(hipSetDevice(0));
  hipDeviceProp_t props;
  HIP_CHECK(hipGetDeviceProperties(&props, 0));
  std::printf("device 0: %s\n", props.name);

  std::vector<float> a(kN), b(kN), c(kN, -1.0f);
  for (unsigned i = 0; i < kN; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1.0f;
  }
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  HIP_CHECK(hipMalloc(&da, kBytes));
  HIP_CHECK(hipMalloc(&db, kBytes));
  HIP_CHECK(hipMalloc(&dc, kBytes));
  HIP_CHECK(hipMemcpy(da, a.data(), kBytes, hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(db, b.data(), kBytes, hipMemcpyDefault));

  hipModule_t module;
  HIP_CHECK(hipModuleLoad(&module, kernels));
  hipFunction_t add;
  HIP_CHECK(hipModuleGetFunction(&add, module, "vector_add"));
  unsigned n = kN;
  void* args[] = {&da, &db, &dc, &n};
  HIP_CHECK(hipModuleLaunchKernel(add, kN / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  HIP_CHECK(hipMemcpy(c.data(), dc, kBytes, hipMemcpyDeviceToHost));

  int errors = 0;
  for (unsigned i = 0; i < kN; ++i) {
    if (c[i] != a[i] + b[i]) ++errors;
  }
  HIP_CHECK(hipFree(da));
  HIP_CHECK(hipFree(db));
  HIP_CHECK(hipFree(dc));
  HIP_CHECK(hipModuleUnload(module));
  std::printf("vector_add: %u elements, %d errors\n%s\n", kN, errors,
              errors == 0 ? "PASSED" : "FAILED");
  return errors == 0 ? 0 : 1;
}
