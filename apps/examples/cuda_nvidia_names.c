/* A driver-API program as NVIDIA's CUDA 12 cuda.h compiles it: that header
 * maps the plain names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2) and,
 * under CUDA_API_PER_THREAD_DEFAULT_STREAM, to the per-thread default-stream
 * ones (cuMemcpyHtoD -> cuMemcpyHtoD_v2_ptds, cuLaunchKernel ->
 * cuLaunchKernel_ptsz). The same mapping is written out below, before
 * streamhal's cuda.h, so the object calls exactly the symbols an object built
 * with NVIDIA's header calls. The build links it twice: statically with
 * streamhal::cuda, and dynamically with the drop-in libcuda.so.1 found
 * through LD_LIBRARY_PATH; each is built with and without per-thread
 * default streams.
 *
 * y = a * x + y with a GLSL kernel given as source, a fill, a copy through a
 * stream, and a function looked up with cuGetProcAddress. Prints PASSED and
 * exits 0 when every value is right. */
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define SH_PTDS(api) api##_ptds
#define SH_PTSZ(api) api##_ptsz
#else
#define SH_PTDS(api) api
#define SH_PTSZ(api) api
#endif

#define cuDeviceTotalMem cuDeviceTotalMem_v2
#define cuCtxCreate cuCtxCreate_v2
#define cuCtxDestroy cuCtxDestroy_v2
#define cuCtxPushCurrent cuCtxPushCurrent_v2
#define cuCtxPopCurrent cuCtxPopCurrent_v2
#define cuMemGetInfo cuMemGetInfo_v2
#define cuMemAlloc cuMemAlloc_v2
#define cuMemFree cuMemFree_v2
#define cuMemcpyHtoD SH_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH SH_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD SH_PTDS(cuMemcpyDtoD_v2)
#define cuMemsetD32 SH_PTDS(cuMemsetD32_v2)
#define cuMemcpyDtoHAsync SH_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuStreamDestroy cuStreamDestroy_v2
#define cuEventDestroy cuEventDestroy_v2
#define cuGetProcAddress cuGetProcAddress_v2
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define cuLaunchKernel SH_PTSZ(cuLaunchKernel)
#define cuStreamSynchronize SH_PTSZ(cuStreamSynchronize)
#define cuStreamQuery SH_PTSZ(cuStreamQuery)
#define cuEventRecord SH_PTSZ(cuEventRecord)
#endif

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                        \
  do {                                                                                     \
    CUresult result_ = (call);                                                             \
    if (result_ != CUDA_SUCCESS) {                                                         \
      const char* name_ = "?";                                                             \
      cuGetErrorName(result_, &name_);                                                     \
      fprintf(stderr, "%s:%d: %s failed: %s\nFAILED\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

static const char kSaxpy[] =
    "#version 460\n"
    "#extension GL_GOOGLE_include_directive : require\n"
    "#define STREAMHAL_KERNEL_NAME saxpy\n"
    "#include \"streamhal/kernel.glsl\"\n"
    "STREAMHAL_DECLARE_PTR(float);\n"
    "layout(push_constant) uniform Params { float_ptr x; float_ptr y; float a; uint n; } p;\n"
    "void main() {\n"
    "  const uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < p.n) p.y.v[i] = p.a * p.x.v[i] + p.y.v[i];\n"
    "}\n";

enum { kN = 5000, kBlock = 128 };
static float x[kN], y[kN], copy[kN];

typedef CUresult (*MemAllocFn)(CUdeviceptr*, size_t);

int main(void) {
  for (int i = 0; i < kN; ++i) x[i] = (float)i;

  CUdevice device;
  CUcontext context;
  size_t total = 0, free_bytes = 0;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, 0));
  CHECK(cuDeviceTotalMem(&total, device));
  CHECK(cuCtxCreate(&context, 0, device));
  CHECK(cuMemGetInfo(&free_bytes, &total));

  /* cuGetProcAddress gives the 64-bit form (cuMemAlloc_v2) from CUDA 3.2. */
  void* found = NULL;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  CHECK(cuGetProcAddress("cuMemAlloc", &found, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  MemAllocFn mem_alloc;
  memcpy(&mem_alloc, &found, sizeof(mem_alloc));
  if (status != CU_GET_PROC_ADDRESS_SUCCESS || mem_alloc != &cuMemAlloc) {
    fprintf(stderr, "cuGetProcAddress(cuMemAlloc, 12000) is not cuMemAlloc_v2\nFAILED\n");
    return 1;
  }

  CUmodule module;
  CUfunction saxpy;
  CHECK(cuModuleLoadData(&module, kSaxpy));
  CHECK(cuModuleGetFunction(&saxpy, module, "saxpy"));

  CUdeviceptr dx, dy, dcopy;
  CHECK(mem_alloc(&dx, sizeof(x)));
  CHECK(cuMemAlloc(&dy, sizeof(y)));
  CHECK(cuMemAlloc(&dcopy, sizeof(y)));
  CHECK(cuMemcpyHtoD(dx, x, sizeof(x)));
  /* 1.0f, written as its bit pattern. */
  CHECK(cuMemsetD32(dy, 0x3f800000u, kN));
  float a = 2.0f;
  unsigned n = kN;
  void* params[] = {&dx, &dy, &a, &n};
  /* The null stream: the legacy stream, or this thread's own under
   * CUDA_API_PER_THREAD_DEFAULT_STREAM; the synchronous copies after it
   * run in the same one. */
  CHECK(
      cuLaunchKernel(saxpy, (kN + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0, NULL, params, NULL));
  CHECK(cuMemcpyDtoD(dcopy, dy, sizeof(y)));
  CHECK(cuMemcpyDtoH(y, dy, sizeof(y)));

  CUstream stream;
  CUevent done;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
  CHECK(cuMemcpyDtoHAsync(copy, dcopy, sizeof(copy), stream));
  CHECK(cuEventRecord(done, stream));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuStreamQuery(stream));

  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    const float expected = 2.0f * (float)i + 1.0f;
    if (y[i] != expected || copy[i] != expected) ++wrong;
  }
  CHECK(cuEventDestroy(done));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  CHECK(cuMemFree(dcopy));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  printf("cuda_nvidia_names: %d of %d elements wrong\n%s\n", wrong, kN,
         wrong == 0 ? "PASSED" : "FAILED");
  return wrong == 0 ? 0 : 1;
}
