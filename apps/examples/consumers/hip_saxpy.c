/* The HIP module-API twin of cuda_saxpy.c: y = 2 * x + y with the saxpy kernel
 * from the file named on the command line, on the current device's primary
 * context (no explicit context, as HIP programs are written). Valid C and
 * C++: the examples build it as C, and the pkg-config check also as C++.
 * Prints PASSED and exits 0 when every element is right. */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    hipError_t error_ = (call);                                                    \
    if (error_ != hipSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s failed: %s\nFAILED\n", __FILE__, __LINE__, #call, \
              hipGetErrorName(error_));                                            \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

enum { kN = 10000, kBlock = 256 };
static float x[kN], y[kN];

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <saxpy kernel file>\n", argv[0]);
    return 2;
  }
  for (int i = 0; i < kN; ++i) {
    x[i] = (float)i;
    y[i] = 1.0f;
  }

  hipModule_t module;
  hipFunction_t saxpy;
  CHECK(hipSetDevice(0));
  CHECK(hipModuleLoad(&module, argv[1]));
  CHECK(hipModuleGetFunction(&saxpy, module, "saxpy"));

  void* dx = NULL;
  void* dy = NULL;
  CHECK(hipMalloc(&dx, sizeof(x)));
  CHECK(hipMalloc(&dy, sizeof(y)));
  CHECK(hipMemcpyHtoD(dx, x, sizeof(x)));
  CHECK(hipMemcpyHtoD(dy, y, sizeof(y)));
  float a = 2.0f;
  unsigned n = kN;
  void* params[] = {&dx, &dy, &a, &n};
  CHECK(hipModuleLaunchKernel(saxpy, (kN + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0, NULL,
                              params, NULL));
  CHECK(hipMemcpyDtoH(y, dy, sizeof(y)));

  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    if (y[i] != 2.0f * (float)i + 1.0f) ++wrong;
  }
  CHECK(hipFree(dx));
  CHECK(hipFree(dy));
  CHECK(hipModuleUnload(module));
  printf("hip_saxpy: %d of %d elements wrong\n%s\n", wrong, kN, wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
