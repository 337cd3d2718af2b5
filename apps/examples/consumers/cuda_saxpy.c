/* A CUDA driver-API program in plain C, the one that every consumer example
 * builds (a C-only CMake project, Meson, make, a bare compiler command line
 * with pkg-config): y = 2 * x + y on the first device, with the saxpy kernel
 * from the file named on the command line. That file may be the GLSL source
 * (saxpy.comp, compiled when it is loaded) or an image built ahead of time
 * (SPIR-V, ELF code object, fat binary).
 * Prints PASSED and exits 0 when every element is right. Its launch shape is
 * a dim3 from builtin_types.h, the types-only header installed beside cuda.h.
 */
#include <builtin_types.h>
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      const char* name_ = "?";                                                     \
      cuGetErrorName(result_, &name_);                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\nFAILED\n", __FILE__, __LINE__, #call, \
              name_);                                                              \
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

  CUdevice device;
  CUcontext context;
  char name[256];
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDeviceGetName(name, (int)sizeof(name), device));
  CHECK(cuCtxCreate(&context, 0, device));

  CUmodule module;
  CUfunction saxpy;
  CHECK(cuModuleLoad(&module, argv[1]));
  CHECK(cuModuleGetFunction(&saxpy, module, "saxpy"));

  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, sizeof(x)));
  CHECK(cuMemAlloc(&dy, sizeof(y)));
  CHECK(cuMemcpyHtoD(dx, x, sizeof(x)));
  CHECK(cuMemcpyHtoD(dy, y, sizeof(y)));
  float a = 2.0f;
  unsigned n = kN;
  void* params[] = {&dx, &dy, &a, &n};
  const dim3 block = {kBlock, 1, 1};
  const dim3 grid = {(kN + kBlock - 1) / kBlock, 1, 1};
  CHECK(cuLaunchKernel(saxpy, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, NULL, params,
                       NULL));
  CHECK(cuMemcpyDtoH(y, dy, sizeof(y)));

  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    if (y[i] != 2.0f * (float)i + 1.0f) ++wrong;
  }
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  printf("cuda_saxpy on %s: %d of %d elements wrong\n%s\n", name, wrong, kN,
         wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
