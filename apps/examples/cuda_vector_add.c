/* The CUDA driver API vector add, in C: initialise, create a context, load a
 * module, launch with kernelParams, copy back and check. Then a per-block sum
 * with dynamic shared memory. Exits non-zero on any failure. */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                          \
  do {                                                                       \
    CUresult result_ = (call);                                               \
    if (result_ != CUDA_SUCCESS) {                                           \
      const char* name_ = "?";                                               \
      cuGetErrorName(result_, &name_);                                       \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

static int VectorAdd(CUmodule module) {
  enum { kN = 100000, kBlock = 256 };
  const size_t bytes = kN * sizeof(float);
  float* a = malloc(bytes);
  float* b = malloc(bytes);
  float* c = malloc(bytes);
  for (int i = 0; i < kN; ++i) {
    a[i] = (float)i;
    b[i] = 2.0f * (float)i;
  }
  CUfunction add;
  CHECK(cuModuleGetFunction(&add, module, "vector_add"));
  CUdeviceptr da, db, dc;
  CHECK(cuMemAlloc(&da, bytes));
  CHECK(cuMemAlloc(&db, bytes));
  CHECK(cuMemAlloc(&dc, bytes));
  CHECK(cuMemcpyHtoD(da, a, bytes));
  CHECK(cuMemcpyHtoD(db, b, bytes));
  unsigned int n = kN;
  void* args[] = {&da, &db, &dc, &n};
  CHECK(cuLaunchKernel(add, (kN + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0, NULL, args, NULL));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(c, dc, bytes));
  int errors = 0;
  for (int i = 0; i < kN; ++i) {
    if (c[i] != 3.0f * (float)i) ++errors;
  }
  CHECK(cuMemFree(da));
  CHECK(cuMemFree(db));
  CHECK(cuMemFree(dc));
  free(a);
  free(b);
  free(c);
  printf("vector_add: %d elements, %d errors\n", kN, errors);
  return errors;
}

static int BlockSum(CUmodule module) {
  enum { kN = 10000, kBlock = 128, kBlocks = (kN + kBlock - 1) / kBlock };
  float* src = malloc(kN * sizeof(float));
  for (int i = 0; i < kN; ++i) src[i] = (float)(i % 7);
  CUfunction sum;
  CHECK(cuModuleGetFunction(&sum, module, "block_sum"));
  CUdeviceptr dsrc, ddst;
  CHECK(cuMemAlloc(&dsrc, kN * sizeof(float)));
  CHECK(cuMemAlloc(&ddst, kBlocks * sizeof(float)));
  CHECK(cuMemcpyHtoD(dsrc, src, kN * sizeof(float)));
  unsigned int n = kN;
  void* args[] = {&dsrc, &ddst, &n};
  CHECK(cuLaunchKernel(sum, kBlocks, 1, 1, kBlock, 1, 1, kBlock * sizeof(float), NULL, args, NULL));
  float partial[kBlocks];
  CHECK(cuMemcpyDtoH(partial, ddst, sizeof(partial)));
  int errors = 0;
  for (int blk = 0; blk < kBlocks; ++blk) {
    float expected = 0.0f;
    for (int i = blk * kBlock; i < (blk + 1) * kBlock && i < kN; ++i) expected += src[i];
    if (fabsf(partial[blk] - expected) > 1e-3f) ++errors;
  }
  CHECK(cuMemFree(dsrc));
  CHECK(cuMemFree(ddst));
  free(src);
  printf("block_sum: %d blocks, %d errors\n", kBlocks, errors);
  return errors;
}

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  char name[128];
  CHECK(cuDeviceGetName(name, sizeof(name), device));
  printf("device 0: %s\n", name);
  CUcontext context;
  CHECK(cuCtxCreate(&context, 0, device));
  CUmodule module;
  CHECK(cuModuleLoad(&module, kernels));
  const int errors = VectorAdd(module) + BlockSum(module);
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  printf(errors == 0 ? "PASSED\n" : "FAILED\n");
  return errors == 0 ? 0 : 1;
}
