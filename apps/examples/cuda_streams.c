/* Streams, events and host functions with the CUDA driver API, in C. Each
 * section shows one CUDA rule and checks it; every check prints one line and
 * any failure makes the program exit non-zero. All kernels are lcg_steps:
 * dst[i] = src[i] advanced `steps` times by an LCG, so results compose
 * (a steps, then b steps = a + b steps) and the host can check them exactly. */
#include <cuda.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      const char* name_ = "?";                                                     \
      cuGetErrorName(result_, &name_);                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

enum { kN = 1 << 20, kBlock = 256, kSlowSteps = 128 };
static const size_t kBytes = kN * sizeof(uint32_t);

static CUfunction g_lcg;
static int g_failures;

static void Expect(int ok, const char* what) {
  printf("  [%s] %s\n", ok ? "ok" : "FAIL", what);
  if (!ok) ++g_failures;
}

static void ExpectResult(CUresult got, CUresult want, const char* what) {
  const char* got_name = "?";
  const char* want_name = "?";
  cuGetErrorName(got, &got_name);
  cuGetErrorName(want, &want_name);
  printf("  [%s] %s -> %s (want %s)\n", got == want ? "ok" : "FAIL", what, got_name, want_name);
  if (got != want) ++g_failures;
}

static uint32_t Lcg(uint32_t x, unsigned steps) {
  for (unsigned k = 0; k < steps; ++k) x = x * 1664525u + 1013904223u;
  return x;
}

/* Whether got[i] == Lcg(i * mul + add, steps) for every i < n. */
static int AllMatch(const uint32_t* got, unsigned n, uint32_t mul, uint32_t add, unsigned steps) {
  for (unsigned i = 0; i < n; ++i) {
    if (got[i] != Lcg(i * mul + add, steps)) return 0;
  }
  return 1;
}

static void LaunchLcg(CUstream stream, CUdeviceptr src, CUdeviceptr dst, unsigned n,
                      unsigned steps) {
  void* args[] = {&src, &dst, &n, &steps};
  CHECK(
      cuLaunchKernel(g_lcg, (n + kBlock - 1) / kBlock, 1, 1, kBlock, 1, 1, 0, stream, args, NULL));
}

/* Copies n words of dptr back (synchronously) and checks them. */
static int DeviceMatches(CUdeviceptr dptr, unsigned n, uint32_t mul, uint32_t add, unsigned steps) {
  uint32_t* host = malloc(n * sizeof(uint32_t));
  CHECK(cuMemcpyDtoH(host, dptr, n * sizeof(uint32_t)));
  const int ok = AllMatch(host, n, mul, add, steps);
  free(host);
  return ok;
}

/* Host function: whether `data` holds seed advanced `steps` steps. */
typedef struct {
  const uint32_t* data;
  unsigned n, steps;
  int complete;
} Probe;

static void ProbeFn(void* raw) {
  Probe* probe = raw;
  probe->complete = AllMatch(probe->data, probe->n, 1, 0, probe->steps);
}

/* 1. cuStreamWaitEvent: work queued on B after the wait starts only once the
 * work recorded into E on A has completed, with no host synchronisation. A
 * writes its result into mapped host memory, so a host function on B can look
 * at it too: with one in-order Vulkan queue (lavapipe) kernels could not
 * overtake A anyway, but B's host function would run at once without the wait. */
static void CrossStreamEvent(CUdeviceptr seed, CUdeviceptr a, CUdeviceptr b) {
  printf("1. cross-stream event ordering\n");
  CUstream sa, sb;
  CUevent done;
  CHECK(cuStreamCreate(&sa, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamCreate(&sb, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
  void* result;
  CHECK(cuMemHostAlloc(&result, kBytes, CU_MEMHOSTALLOC_DEVICEMAP));
  memset(result, 0, kBytes); /* stale data B must never see */
  CUdeviceptr result_device;
  CHECK(cuMemHostGetDevicePointer(&result_device, result, 0));
  LaunchLcg(sa, seed, a, kN, kSlowSteps / 2);
  LaunchLcg(sa, a, result_device, kN, kSlowSteps / 2);
  CHECK(cuEventRecord(done, sa));
  CHECK(cuStreamWaitEvent(sb, done, 0));
  Probe probe = {result, kN, kSlowSteps, 0};
  CHECK(cuLaunchHostFunc(sb, ProbeFn, &probe));
  LaunchLcg(sb, result_device, b, kN, 1);
  CHECK(cuStreamSynchronize(sb));
  Expect(probe.complete, "B's host function saw A's complete output");
  Expect(DeviceMatches(b, kN, 1, 0, kSlowSteps + 1),
         "B's kernel output is derived from A's output");
  ExpectResult(cuEventQuery(done), CUDA_SUCCESS, "cuEventQuery(E) after B finished");
  CHECK(cuMemFreeHost(result));
  CHECK(cuEventDestroy(done));
  CHECK(cuStreamDestroy(sa));
  CHECK(cuStreamDestroy(sb));
}

/* 2. The legacy default stream (0) waits for all earlier work on blocking
 * streams (CU_STREAM_DEFAULT), with no event; non-blocking streams opt out. */
static void LegacyDefaultStream(CUdeviceptr seed, CUdeviceptr a, CUdeviceptr b) {
  printf("2. legacy default stream synchronisation\n");
  CUstream blocking, non_blocking;
  CHECK(cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
  CHECK(cuStreamCreate(&non_blocking, CU_STREAM_NON_BLOCKING));
  unsigned flags = 99;
  CHECK(cuStreamGetFlags(blocking, &flags));
  Expect(flags == CU_STREAM_DEFAULT, "cuStreamGetFlags(blocking) == CU_STREAM_DEFAULT");
  CHECK(cuStreamGetFlags(non_blocking, &flags));
  Expect(flags == CU_STREAM_NON_BLOCKING,
         "cuStreamGetFlags(non_blocking) == CU_STREAM_NON_BLOCKING");
  CHECK(cuMemsetD32(a, 0xDEADBEEFu, kN));
  LaunchLcg(blocking, seed, a, kN, kSlowSteps);
  LaunchLcg(NULL, a, b, kN, 2); /* legacy stream: implicitly after `blocking` */
  CHECK(cuStreamSynchronize(NULL));
  Expect(DeviceMatches(b, kN, 1, 0, kSlowSteps + 2),
         "stream 0 consumed the blocking stream's result");
  CHECK(cuStreamDestroy(blocking));
  CHECK(cuStreamDestroy(non_blocking));
}

/* 3. A host function runs after all earlier work on its stream has finished
 * and holds back later work until it returns; host functions on one stream run
 * in order. */
typedef struct {
  const uint32_t* pinned; /* cuMemcpyDtoHAsync destination */
  uint32_t* mapped;       /* read by the kernel queued after the function */
  unsigned n;
  int saw_results;
  int order[3];
  int calls;
} HostState;

static void RecordCall(HostState* s, int id) {
  if (s->calls < 3) s->order[s->calls] = id;
  ++s->calls;
}

static void FirstHostFn(void* raw) {
  HostState* s = raw;
  s->saw_results = AllMatch(s->pinned, s->n, 1, 0, kSlowSteps);
  for (unsigned i = 0; i < s->n; ++i) s->mapped[i] = i * 7u + 1u;
  RecordCall(s, 1);
}

static void SecondHostFn(void* raw) { RecordCall(raw, 2); }
static void ThirdHostFn(void* raw) { RecordCall(raw, 3); }

static void HostFunctions(CUdeviceptr seed, CUdeviceptr a, CUdeviceptr b) {
  printf("3. host functions\n");
  enum { kHostN = 1 << 16 };
  CUstream stream;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  HostState state = {0};
  state.n = kHostN;
  void* pinned;
  void* mapped;
  CHECK(cuMemAllocHost(&pinned, kHostN * sizeof(uint32_t)));
  CHECK(cuMemHostAlloc(&mapped, kHostN * sizeof(uint32_t), CU_MEMHOSTALLOC_DEVICEMAP));
  memset(pinned, 0, kHostN * sizeof(uint32_t));
  memset(mapped, 0, kHostN * sizeof(uint32_t));
  state.pinned = pinned;
  state.mapped = mapped;
  CUdeviceptr mapped_device = 0;
  CHECK(cuMemHostGetDevicePointer(&mapped_device, mapped, 0));
  LaunchLcg(stream, seed, a, kHostN, kSlowSteps);
  CHECK(cuMemcpyDtoHAsync(pinned, a, kHostN * sizeof(uint32_t), stream));
  CHECK(cuLaunchHostFunc(stream, FirstHostFn, &state));
  LaunchLcg(stream, mapped_device, b, kHostN, 3); /* reads what FirstHostFn wrote */
  CHECK(cuLaunchHostFunc(stream, SecondHostFn, &state));
  CHECK(cuLaunchHostFunc(stream, ThirdHostFn, &state));
  CHECK(cuStreamSynchronize(stream));
  Expect(state.saw_results, "host function saw the kernel + async copy results");
  Expect(state.calls == 3 && state.order[0] == 1 && state.order[1] == 2 && state.order[2] == 3,
         "three host functions ran once each, in stream order");
  Expect(DeviceMatches(b, kHostN, 7, 1, 3), "later kernel read what the host function wrote");
  CHECK(cuMemFreeHost(pinned));
  CHECK(cuMemFreeHost(mapped));
  CHECK(cuStreamDestroy(stream));
}

/* 4. cuMemcpyHtoDAsync from pageable (malloc) memory has read its source when
 * it returns, so the caller may reuse the buffer at once. */
static void PageableAsyncCopy(CUdeviceptr seed, CUdeviceptr a, CUdeviceptr b) {
  printf("4. pageable async copy\n");
  CUstream stream;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  uint32_t* host = malloc(kBytes);
  for (unsigned i = 0; i < kN; ++i) host[i] = i * 3u + 5u;
  LaunchLcg(stream, seed, a, kN, kSlowSteps); /* keeps the stream busy */
  CHECK(cuMemcpyHtoDAsync(b, host, kBytes, stream));
  memset(host, 0xFF, kBytes); /* overwrite before synchronising */
  CHECK(cuStreamSynchronize(stream));
  Expect(DeviceMatches(b, kN, 3, 5, 0), "device got the data as it was at the call");
  free(host);
  CHECK(cuStreamDestroy(stream));
}

/* 5. Events created with default flags carry device timestamps;
 * cuEventElapsedTime on an event created with CU_EVENT_DISABLE_TIMING is
 * CUDA_ERROR_INVALID_HANDLE. */
static void ElapsedTime(CUdeviceptr a) {
  printf("5. device-timed elapsed time\n");
  CUstream stream;
  CUevent start, stop, untimed;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&untimed, CU_EVENT_DISABLE_TIMING));
  CHECK(cuEventRecord(start, stream));
  for (int i = 0; i < 4; ++i) LaunchLcg(stream, a, a, kN, kSlowSteps / 4);
  CHECK(cuEventRecord(stop, stream));
  CHECK(cuEventRecord(untimed, stream));
  CHECK(cuEventSynchronize(stop));
  CHECK(cuEventSynchronize(untimed));
  float ms = -1.0f;
  CHECK(cuEventElapsedTime(&ms, start, stop));
  printf("  4 launches of %d x %d steps: %.3f ms\n", kN, kSlowSteps / 4, ms);
  Expect(ms > 0.0f && isfinite(ms), "cuEventElapsedTime(start, stop) > 0 and finite");
  ExpectResult(cuEventElapsedTime(&ms, start, untimed), CUDA_ERROR_INVALID_HANDLE,
               "cuEventElapsedTime(start, DISABLE_TIMING event)");
  CHECK(cuEventDestroy(start));
  CHECK(cuEventDestroy(stop));
  CHECK(cuEventDestroy(untimed));
  CHECK(cuStreamDestroy(stream));
}

/* 6. A destroyed stream or event is an invalid handle for every later call;
 * destroying a stream with pending work lets that work complete. */
static void DestroyedHandles(CUdeviceptr seed, CUdeviceptr a) {
  printf("6. destroyed handles\n");
  CUstream stream;
  CUevent event, live;
  CHECK(cuStreamCreate(&stream, 0));
  CHECK(cuEventCreate(&event, 0));
  CHECK(cuEventCreate(&live, 0));
  CHECK(cuEventRecord(event, stream));
  CHECK(cuStreamSynchronize(stream));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuEventDestroy(event));
  ExpectResult(cuStreamQuery(stream), CUDA_ERROR_INVALID_HANDLE, "cuStreamQuery(destroyed)");
  ExpectResult(cuStreamSynchronize(stream), CUDA_ERROR_INVALID_HANDLE,
               "cuStreamSynchronize(destroyed)");
  ExpectResult(cuEventRecord(live, stream), CUDA_ERROR_INVALID_HANDLE,
               "cuEventRecord(live event, destroyed stream)");
  ExpectResult(cuEventRecord(event, NULL), CUDA_ERROR_INVALID_HANDLE,
               "cuEventRecord(destroyed event, stream 0)");
  ExpectResult(cuEventQuery(event), CUDA_ERROR_INVALID_HANDLE, "cuEventQuery(destroyed)");
  CHECK(cuEventDestroy(live));

  CUstream busy;
  CHECK(cuStreamCreate(&busy, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemsetD32(a, 0xDEADBEEFu, kN));
  LaunchLcg(busy, seed, a, kN, kSlowSteps);
  ExpectResult(cuStreamDestroy(busy), CUDA_SUCCESS, "cuStreamDestroy(stream with pending work)");
  CHECK(cuCtxSynchronize());
  Expect(DeviceMatches(a, kN, 1, 0, kSlowSteps), "the destroyed stream's work completed");
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
  CHECK(cuModuleGetFunction(&g_lcg, module, "lcg_steps"));

  /* seed[i] = i, so a buffer holding Lcg(i, s) is "seed advanced s steps". */
  uint32_t* host = malloc(kBytes);
  for (unsigned i = 0; i < kN; ++i) host[i] = i;
  CUdeviceptr seed, a, b;
  CHECK(cuMemAlloc(&seed, kBytes));
  CHECK(cuMemAlloc(&a, kBytes));
  CHECK(cuMemAlloc(&b, kBytes));
  CHECK(cuMemcpyHtoD(seed, host, kBytes));
  free(host);

  CrossStreamEvent(seed, a, b);
  LegacyDefaultStream(seed, a, b);
  HostFunctions(seed, a, b);
  PageableAsyncCopy(seed, a, b);
  ElapsedTime(a);
  DestroyedHandles(seed, a);

  CHECK(cuMemFree(seed));
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  if (g_failures == 0) {
    printf("PASSED\n");
  } else {
    printf("FAILED (%d checks)\n", g_failures);
  }
  return g_failures == 0 ? 0 : 1;
}
