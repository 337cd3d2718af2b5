/* A CUDA driver-API program in C, built against an installed streamhal with
 * find_package(streamhal) only. It includes nothing but <cuda.h> and runs its
 * own GLSL kernels (cuda_*.comp, packed into one fat binary at build time):
 *   - a vector add launched with kernelParams, checked element by element;
 *   - a packed `extra` launch on an interior pointer, the elements outside the
 *     range checked untouched;
 *   - per-block sums reduced in dynamic shared memory;
 *   - the error cases, with the exact codes, and nothing written by them;
 *   - a good launch afterwards, to show that the process keeps working.
 * Prints one line per check, then PASSED, and exits 0 only if all hold. */
#include <cuda.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0;
static int failures = 0;

/* Records one check and prints its line. */
static void Check(int ok, const char* format, ...) {
  va_list args;
  va_start(args, format);
  printf("%s ", ok ? "[ OK ]" : "[FAIL]");
  vprintf(format, args);
  printf("\n");
  va_end(args);
  ++checks;
  if (!ok) ++failures;
}

static const char* ErrorName(CUresult result) {
  const char* name = NULL;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || name == NULL) return "(unknown code)";
  return name;
}

/* A check that a call returned exactly `expected`. */
static void CheckCode(const char* what, CUresult got, CUresult expected) {
  if (got == expected) {
    Check(1, "%s -> %s", what, ErrorName(got));
  } else {
    Check(0, "%s -> %s, expected %s", what, ErrorName(got), ErrorName(expected));
  }
}

/* Set-up steps that must work for the checks to mean anything. */
#define REQUIRE(call)                                                              \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\nFAILED\n", __FILE__, __LINE__, #call, \
              ErrorName(result_));                                                 \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static void* Allocate(size_t bytes) {
  void* memory = malloc(bytes);
  if (memory == NULL) {
    fprintf(stderr, "out of host memory\nFAILED\n");
    exit(1);
  }
  return memory;
}

static float ReadFloat(CUdeviceptr address) {
  float value = 0.0f;
  REQUIRE(cuMemcpyDtoH(&value, address, sizeof(value)));
  return value;
}

/* The packed parameters of cuda_scale_offset: natural C alignment gives the
 * offsets the kernel's push-constant block declares (0, 8, 12, 16). */
struct ScaleOffsetArgs {
  CUdeviceptr data;
  float scale;
  float offset;
  unsigned int n;
};

/* --- Vector add with kernelParams ------------------------------------------ */

static void VectorAdd(CUfunction add, const char* label) {
  enum { kN = 100000, kBlock = 256 };
  const size_t bytes = kN * sizeof(float);
  float* a = Allocate(bytes);
  float* b = Allocate(bytes);
  float* c = Allocate(bytes);
  for (int i = 0; i < kN; ++i) {
    a[i] = (float)i;
    b[i] = 0.5f * (float)(kN - i);
    c[i] = -1.0f;
  }
  CUdeviceptr da = 0, db = 0, dc = 0;
  REQUIRE(cuMemAlloc(&da, bytes));
  REQUIRE(cuMemAlloc(&db, bytes));
  REQUIRE(cuMemAlloc(&dc, bytes));
  REQUIRE(cuMemcpyHtoD(da, a, bytes));
  REQUIRE(cuMemcpyHtoD(db, b, bytes));
  REQUIRE(cuMemcpyHtoD(dc, c, bytes));
  unsigned int n = kN;
  void* params[] = {&da, &db, &dc, &n};
  const CUresult launched =
      cuLaunchKernel(add, (kN + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0, NULL, params, NULL);
  int wrong = -1;
  if (launched == CUDA_SUCCESS && cuCtxSynchronize() == CUDA_SUCCESS) {
    REQUIRE(cuMemcpyDtoH(c, dc, bytes));
    wrong = 0;
    for (int i = 0; i < kN; ++i) {
      if (c[i] != a[i] + b[i]) ++wrong;
    }
  }
  Check(wrong == 0, "%s: %d floats, kernelParams (%s), %d wrong", label, kN, ErrorName(launched),
        wrong);
  REQUIRE(cuMemFree(da));
  REQUIRE(cuMemFree(db));
  REQUIRE(cuMemFree(dc));
  free(a);
  free(b);
  free(c);
}

/* --- Packed `extra` on an interior pointer --------------------------------- */

static void ExtraOnInteriorPointer(CUfunction scale_offset) {
  enum { kTotal = 4096, kSkip = 1000, kN = kTotal - 2 * kSkip, kBlock = 64 };
  float* host = Allocate(kTotal * sizeof(float));
  float* result = Allocate(kTotal * sizeof(float));
  for (int i = 0; i < kTotal; ++i) host[i] = (float)i;
  CUdeviceptr base = 0;
  REQUIRE(cuMemAlloc(&base, kTotal * sizeof(float)));
  REQUIRE(cuMemcpyHtoD(base, host, kTotal * sizeof(float)));

  struct ScaleOffsetArgs args;
  memset(&args, 0, sizeof(args));
  args.data = base + kSkip * sizeof(float); /* device pointer arithmetic */
  args.scale = 2.0f;
  args.offset = 0.5f;
  args.n = kN;
  size_t args_size = sizeof(args);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   CU_LAUNCH_PARAM_END};
  const CUresult launched = cuLaunchKernel(scale_offset, (kN + kBlock - 1) / kBlock, 1, 1, kBlock,
                                           1, 1, 0, NULL, NULL, extra);
  int inside_wrong = -1, outside_wrong = -1;
  if (launched == CUDA_SUCCESS && cuCtxSynchronize() == CUDA_SUCCESS) {
    REQUIRE(cuMemcpyDtoH(result, base, kTotal * sizeof(float)));
    inside_wrong = outside_wrong = 0;
    for (int i = 0; i < kTotal; ++i) {
      if (i >= kSkip && i < kSkip + kN) {
        if (result[i] != host[i] * 2.0f + 0.5f) ++inside_wrong;
      } else if (result[i] != host[i]) {
        ++outside_wrong;
      }
    }
  }
  Check(inside_wrong == 0, "extra on base+%d floats: [%d, %d) scaled (%s), %d wrong", kSkip, kSkip,
        kSkip + kN, ErrorName(launched), inside_wrong);
  Check(outside_wrong == 0,
        "extra on base+%d floats: %d elements outside the range untouched, %d "
        "changed",
        kSkip, 2 * kSkip, outside_wrong);
  REQUIRE(cuMemFree(base));
  free(host);
  free(result);
}

/* --- Dynamic shared memory ------------------------------------------------- */

static void BlockSums(CUfunction block_sum, unsigned int block) {
  enum { kN = 10000 };
  const unsigned int blocks = (kN + block - 1) / block;
  float* src = Allocate(kN * sizeof(float));
  float* sums = Allocate(blocks * sizeof(float));
  for (int i = 0; i < kN; ++i) src[i] = (float)(i % 13) - 4.0f;
  CUdeviceptr dsrc = 0, dsums = 0;
  REQUIRE(cuMemAlloc(&dsrc, kN * sizeof(float)));
  REQUIRE(cuMemAlloc(&dsums, blocks * sizeof(float)));
  REQUIRE(cuMemcpyHtoD(dsrc, src, kN * sizeof(float)));
  REQUIRE(cuMemsetD32(dsums, 0x7fc00000u, blocks)); /* NaN: a sum never written fails */
  unsigned int n = kN;
  void* params[] = {&dsrc, &dsums, &n};
  const CUresult launched = cuLaunchKernel(block_sum, blocks, 1, 1, block, 1, 1,
                                           block * (unsigned int)sizeof(float), NULL, params, NULL);
  int wrong = -1;
  if (launched == CUDA_SUCCESS && cuCtxSynchronize() == CUDA_SUCCESS) {
    REQUIRE(cuMemcpyDtoH(sums, dsums, blocks * sizeof(float)));
    wrong = 0;
    for (unsigned int b = 0; b < blocks; ++b) {
      float expected = 0.0f; /* small integers: exact in any order */
      for (unsigned int i = b * block; i < (b + 1) * block && i < kN; ++i) expected += src[i];
      if (sums[b] != expected) ++wrong;
    }
  }
  Check(wrong == 0, "block sums: %u blocks of %u, sharedMemBytes %u (%s), %d wrong", blocks, block,
        block * (unsigned int)sizeof(float), ErrorName(launched), wrong);
  REQUIRE(cuMemFree(dsrc));
  REQUIRE(cuMemFree(dsums));
  free(src);
  free(sums);
}

/* --- Error cases ----------------------------------------------------------- */

static void LaunchErrors(CUfunction scale_offset, CUfunction block_sum, CUdevice device) {
  /* Every launch below is refused; the buffers they name must not change. */
  enum { kN = 64 };
  float ones[kN];
  for (int i = 0; i < kN; ++i) ones[i] = 1.0f;
  CUdeviceptr data = 0;
  REQUIRE(cuMemAlloc(&data, sizeof(ones)));
  REQUIRE(cuMemcpyHtoD(data, ones, sizeof(ones)));
  float scale = 3.0f, offset = 1.0f;
  unsigned int n = kN;
  void* params[] = {&data, &scale, &offset, &n};
  struct ScaleOffsetArgs args;
  memset(&args, 0, sizeof(args));
  args.data = data;
  args.scale = scale;
  args.offset = offset;
  args.n = n;
  size_t args_size = sizeof(args);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &args, CU_LAUNCH_PARAM_BUFFER_SIZE, &args_size,
                   CU_LAUNCH_PARAM_END};

  CheckCode("cuLaunchKernel(NULL function)",
            cuLaunchKernel(NULL, 1, 1, 1, kN, 1, 1, 0, NULL, params, NULL),
            CUDA_ERROR_INVALID_HANDLE);
  CheckCode("cuLaunchKernel with both kernelParams and extra",
            cuLaunchKernel(scale_offset, 1, 1, 1, kN, 1, 1, 0, NULL, params, extra),
            CUDA_ERROR_INVALID_VALUE);
  CheckCode("cuLaunchKernel with gridDimX 0",
            cuLaunchKernel(scale_offset, 0, 1, 1, kN, 1, 1, 0, NULL, params, NULL),
            CUDA_ERROR_INVALID_VALUE);
  CheckCode("cuLaunchKernel with blockDimY 0",
            cuLaunchKernel(scale_offset, 1, 1, 1, kN, 0, 1, 0, NULL, params, NULL),
            CUDA_ERROR_INVALID_VALUE);

  int max_x = 0, max_y = 0, max_threads = 0;
  REQUIRE(cuDeviceGetAttribute(&max_x, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, device));
  REQUIRE(cuDeviceGetAttribute(&max_y, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, device));
  REQUIRE(cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, scale_offset));
  char what[160];
  snprintf(what, sizeof(what), "cuLaunchKernel with blockDimX %d (device limit %d)", max_x + 1,
           max_x);
  CheckCode(
      what,
      cuLaunchKernel(scale_offset, 1, 1, 1, (unsigned int)max_x + 1, 1, 1, 0, NULL, params, NULL),
      CUDA_ERROR_INVALID_VALUE);
  /* Each dimension within its limit, the product above the thread limit. */
  const int y = max_threads / max_x + 1;
  snprintf(what, sizeof(what), "cuLaunchKernel with block %dx%d (thread limit %d)", max_x, y,
           max_threads);
  if (y <= max_y) {
    CheckCode(what,
              cuLaunchKernel(scale_offset, 1, 1, 1, (unsigned int)max_x, (unsigned int)y, 1, 0,
                             NULL, params, NULL),
              CUDA_ERROR_INVALID_VALUE);
  } else {
    printf("[SKIP] %s: blockDimY %d is above its own limit %d\n", what, y, max_y);
  }

  int shared_limit = 0;
  REQUIRE(cuFuncGetAttribute(&shared_limit, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                             block_sum));
  CUdeviceptr src = data, sum = 0;
  REQUIRE(cuMemAlloc(&sum, sizeof(float)));
  REQUIRE(cuMemsetD32(sum, 0, 1));
  void* sum_params[] = {&src, &sum, &n};
  snprintf(what, sizeof(what), "cuLaunchKernel with sharedMemBytes %d (limit %d)", shared_limit + 1,
           shared_limit);
  CheckCode(what,
            cuLaunchKernel(block_sum, 1, 1, 1, kN, 1, 1, (unsigned int)shared_limit + 1, NULL,
                           sum_params, NULL),
            CUDA_ERROR_INVALID_VALUE);

  REQUIRE(cuCtxSynchronize());
  float after[kN];
  REQUIRE(cuMemcpyDtoH(after, data, sizeof(after)));
  Check(memcmp(after, ones, sizeof(ones)) == 0 && ReadFloat(sum) == 0.0f,
        "the refused launches wrote nothing");
  REQUIRE(cuMemFree(data));
  REQUIRE(cuMemFree(sum));
}

static void ModuleErrors(void) {
  CUmodule module = NULL;
  const CUresult missing = cuModuleLoad(&module, KERNELS_PATH ".no-such-file");
  CheckCode("cuModuleLoad of a missing file", missing, CUDA_ERROR_FILE_NOT_FOUND);
  Check(module == NULL, "cuModuleLoad of a missing file leaves the module NULL");

  unsigned char garbage[256];
  memset(garbage, 0xfe, sizeof(garbage));
  module = NULL;
  CheckCode("cuModuleLoadData of 256 garbage bytes", cuModuleLoadData(&module, garbage),
            CUDA_ERROR_INVALID_IMAGE);
  Check(module == NULL, "cuModuleLoadData of garbage leaves the module NULL");
}

static void MemoryErrors(void) {
  CUdeviceptr zero = 0;
  CheckCode("cuMemAlloc of 0 bytes", cuMemAlloc(&zero, 0), CUDA_ERROR_INVALID_VALUE);

  enum { kBytes = 256 };
  unsigned char pattern[kBytes], host[2 * kBytes], back[kBytes];
  memset(pattern, 0x5a, sizeof(pattern));
  memset(host, 0x11, sizeof(host));
  CUdeviceptr device = 0;
  REQUIRE(cuMemAlloc(&device, kBytes));
  REQUIRE(cuMemcpyHtoD(device, pattern, kBytes));
  CheckCode("cuMemcpyHtoD running 1 byte past the end", cuMemcpyHtoD(device + 1, host, kBytes),
            CUDA_ERROR_INVALID_VALUE);
  CheckCode("cuMemcpyHtoD of 2x the allocation", cuMemcpyHtoD(device, host, 2 * kBytes),
            CUDA_ERROR_INVALID_VALUE);
  REQUIRE(cuMemcpyDtoH(back, device, kBytes));
  Check(memcmp(back, pattern, kBytes) == 0, "the device bytes are unchanged");
  CheckCode("cuMemcpyDtoH reading past the end", cuMemcpyDtoH(host, device + 128, 129),
            CUDA_ERROR_INVALID_VALUE);
  int host_untouched = 1;
  for (int i = 0; i < 2 * kBytes; ++i) host_untouched &= host[i] == 0x11;
  Check(host_untouched, "the host bytes are unchanged");

  /* The live allocation is made first: a later one could reuse the freed range. */
  CUdeviceptr freed = 0;
  REQUIRE(cuMemAlloc(&freed, 64));
  REQUIRE(cuMemFree(freed));
  CheckCode("cuMemcpyDtoH from a freed pointer", cuMemcpyDtoH(host, freed, 64),
            CUDA_ERROR_INVALID_VALUE);
  CheckCode("cuMemcpyDtoD from a freed pointer", cuMemcpyDtoD(device, freed, 64),
            CUDA_ERROR_INVALID_VALUE);
  host_untouched = 1;
  for (int i = 0; i < 2 * kBytes; ++i) host_untouched &= host[i] == 0x11;
  REQUIRE(cuMemcpyDtoH(back, device, kBytes));
  Check(host_untouched && memcmp(back, pattern, kBytes) == 0,
        "copies from the freed pointer wrote nothing");
  REQUIRE(cuMemFree(device));
}

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  REQUIRE(cuInit(0));
  CUdevice device = 0;
  REQUIRE(cuDeviceGet(&device, 0));
  char name[256];
  REQUIRE(cuDeviceGetName(name, sizeof(name), device));
  printf("cuda_checks on device 0: %s\n", name);
  CUcontext context = NULL;
  REQUIRE(cuCtxCreate(&context, 0, device));
  CUmodule module = NULL;
  REQUIRE(cuModuleLoad(&module, kernels));
  CUfunction add = NULL, scale_offset = NULL, block_sum = NULL;
  REQUIRE(cuModuleGetFunction(&add, module, "cuda_vector_add"));
  REQUIRE(cuModuleGetFunction(&scale_offset, module, "cuda_scale_offset"));
  REQUIRE(cuModuleGetFunction(&block_sum, module, "cuda_block_sum"));

  VectorAdd(add, "vector add");
  ExtraOnInteriorPointer(scale_offset);
  BlockSums(block_sum, 128);
  BlockSums(block_sum, 256);
  LaunchErrors(scale_offset, block_sum, device);
  ModuleErrors();
  MemoryErrors();
  /* The process keeps working after the errors. */
  VectorAdd(add, "vector add after the error cases");
  CheckCode("cuCtxSynchronize after the error cases", cuCtxSynchronize(), CUDA_SUCCESS);

  REQUIRE(cuModuleUnload(module));
  REQUIRE(cuCtxDestroy(context));
  printf("%d checks, %d failed\n%s\n", checks, failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
