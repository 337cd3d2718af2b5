/* An unmodified driver-API program: it includes only <cuda.h>, exercises the
 * context stack and primary contexts as NVIDIA documents them, and runs one
 * kernel from a fat binary. Prints PASSED and exits 0 when every check holds. */
#include <cuda.h>
#include <stdio.h>

static int failures = 0;

#define EXPECT(cond)                                                 \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                    \
    }                                                                \
  } while (0)

int main(void) {
  CUcontext ctx = NULL;
  EXPECT(cuCtxGetCurrent(&ctx) == CUDA_ERROR_NOT_INITIALIZED);
  EXPECT(cuInit(0) == CUDA_SUCCESS);
  int count = 0;
  EXPECT(cuDeviceGetCount(&count) == CUDA_SUCCESS && count >= 1);

  /* The context stack. */
  CUcontext a = NULL, b = NULL, popped = NULL, current = NULL;
  EXPECT(cuCtxCreate(&a, 0, 0) == CUDA_SUCCESS);
  EXPECT(cuCtxCreate(&b, 0, 0) == CUDA_SUCCESS);
  EXPECT(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == b);
  EXPECT(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == b);
  EXPECT(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == a);
  EXPECT(cuCtxPushCurrent(b) == CUDA_SUCCESS);
  EXPECT(cuCtxDestroy(b) == CUDA_SUCCESS);
  EXPECT(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == a);
  EXPECT(cuCtxPopCurrent(&popped) == CUDA_SUCCESS && popped == a);
  EXPECT(cuCtxPopCurrent(&popped) == CUDA_ERROR_INVALID_CONTEXT);

  /* Primary contexts are reference counted and not made current. */
  CUcontext p1 = NULL, p2 = NULL;
  unsigned flags = 0;
  int active = -1;
  EXPECT(cuDevicePrimaryCtxRetain(&p1, 0) == CUDA_SUCCESS);
  EXPECT(cuDevicePrimaryCtxRetain(&p2, 0) == CUDA_SUCCESS && p1 == p2);
  EXPECT(cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == NULL);
  EXPECT(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
  EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 1);

  /* A kernel in the primary context. */
  EXPECT(cuCtxSetCurrent(p1) == CUDA_SUCCESS);
  CUmodule module = NULL;
  CUfunction fill = NULL;
  CUdeviceptr out = 0;
  unsigned host[1000];
  EXPECT(cuModuleLoad(&module, KERNELS_PATH) == CUDA_SUCCESS);
  EXPECT(cuModuleGetFunction(&fill, module, "fill") == CUDA_SUCCESS);
  EXPECT(cuMemAlloc(&out, sizeof(host)) == CUDA_SUCCESS);
  unsigned value = 42, n = 1000;
  void* args[] = {&out, &value, &n};
  EXPECT(cuLaunchKernel(fill, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL) == CUDA_SUCCESS);
  EXPECT(cuMemcpyDtoH(host, out, sizeof(host)) == CUDA_SUCCESS);
  for (int i = 0; i < 1000; ++i) {
    if (host[i] != 42) {
      ++failures;
      break;
    }
  }
  EXPECT(cuMemFree(out) == CUDA_SUCCESS);
  EXPECT(cuModuleUnload(module) == CUDA_SUCCESS);

  EXPECT(cuDevicePrimaryCtxRelease(0) == CUDA_SUCCESS);
  EXPECT(cuDevicePrimaryCtxGetState(0, &flags, &active) == CUDA_SUCCESS && active == 0);
  EXPECT(cuDevicePrimaryCtxRelease(0) == CUDA_ERROR_INVALID_CONTEXT);
  EXPECT(cuCtxDestroy(a) == CUDA_SUCCESS);

  printf("%s (%d failures)\n", failures == 0 ? "PASSED" : "FAILED", failures);
  return failures == 0 ? 0 : 1;
}
