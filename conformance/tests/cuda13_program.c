/* A driver-API program as it is written for CUDA 13: cuda.h presents the
 * CUDA 13.0 forms (STREAMHAL_CUDA_API_VERSION=13000), so cuCtxCreate takes
 * CUctxCreateParams, cuMemAdvise and cuMemPrefetchAsync take CUmemLocation,
 * cuStreamGetCaptureInfo returns edge data, and dim3 comes from
 * builtin_types.h. It creates a context, advises and prefetches managed
 * memory, captures a kernel launch into a graph and reads the capture's
 * state while it is open, runs the graph between two events, and checks
 * every value the kernel wrote and every hint reported back. */
#define STREAMHAL_CUDA_API_VERSION 13000
#include "cuda13_program.h"

#include <builtin_types.h>
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#if CUDA_VERSION != 13000
#error "STREAMHAL_CUDA_API_VERSION=13000 presents CUDA 13.0"
#endif

/* data[i] = data[i] * scale + offset */
static const char kScaleOffset[] =
    "#version 460\n"
    "#extension GL_GOOGLE_include_directive : require\n"
    "#define STREAMHAL_KERNEL_NAME scale_offset\n"
    "#include \"streamhal/kernel.glsl\"\n"
    "STREAMHAL_DECLARE_PTR(float);\n"
    "layout(push_constant) uniform Params { float_ptr data; float scale; float offset; uint n; } "
    "p;\n"
    "void main() {\n"
    "  const uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < p.n) p.data.v[i] = p.data.v[i] * p.scale + p.offset;\n"
    "}\n";

#define CHECK(call)                                                                      \
  do {                                                                                   \
    const CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                       \
      snprintf(message, size, "line %d: %s returned %d", __LINE__, #call, (int)result_); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)
#define EXPECT(condition)                                                    \
  do {                                                                       \
    if (!(condition)) {                                                      \
      snprintf(message, size, "line %d: %s is false", __LINE__, #condition); \
      return 1;                                                              \
    }                                                                        \
  } while (0)

enum { kCount = 1000 };

int RunCuda13Program(char* message, size_t size) {
  const size_t bytes = kCount * sizeof(float);
  CUdevice device = 0;
  CHECK(cuDeviceGet(&device, 0));

  /* No execution affinity, no CIG: an ordinary context, made current. */
  CUctxCreateParams params = {NULL, 0, NULL};
  CUcontext context = NULL;
  CHECK(cuCtxCreate(&context, &params, 0, device));
  CUcontext current = NULL;
  CHECK(cuCtxGetCurrent(&current));
  EXPECT(current == context);

  CUmodule module = NULL;
  CUfunction kernel = NULL;
  CHECK(cuModuleLoadData(&module, kScaleOffset));
  CHECK(cuModuleGetFunction(&kernel, module, "scale_offset"));

  CUdeviceptr data = 0;
  CHECK(cuMemAllocManaged(&data, bytes, CU_MEM_ATTACH_GLOBAL));
  float* values = (float*)(uintptr_t)data;
  for (int i = 0; i < kCount; ++i) values[i] = (float)i;

  /* Hints addressed by location. */
  const CUmemLocation on_device = {CU_MEM_LOCATION_TYPE_DEVICE, device};
  const CUmemLocation on_host = {CU_MEM_LOCATION_TYPE_HOST, 0};
  CHECK(cuMemAdvise(data, bytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, on_device));
  CHECK(cuMemAdvise(data, bytes, CU_MEM_ADVISE_SET_ACCESSED_BY, on_host));
  int preferred = -12345;
  CHECK(cuMemRangeGetAttribute(&preferred, sizeof(preferred),
                               CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, data, bytes));
  EXPECT(preferred == device);
  int accessed_by[2] = {-12345, -12345};
  CHECK(cuMemRangeGetAttribute(accessed_by, sizeof(accessed_by), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                               data, bytes));
  EXPECT(accessed_by[0] == (int)CU_DEVICE_CPU && accessed_by[1] == (int)CU_DEVICE_INVALID);

  CUstream stream = NULL;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CHECK(cuMemPrefetchAsync(data, bytes, on_device, 0, stream));
  int last_prefetch = -12345;
  CHECK(cuMemRangeGetAttribute(&last_prefetch, sizeof(last_prefetch),
                               CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, data, bytes));
  EXPECT(last_prefetch == device);

  /* Capture one launch and look at the capture while it is open. */
  float scale = 2.0f, offset = 1.0f;
  unsigned n = kCount;
  void* args[] = {&data, &scale, &offset, &n};
  const dim3 block = {128, 1, 1};
  const dim3 grid = {(kCount + 127) / 128, 1, 1};
  CHECK(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuLaunchKernel(kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, 0, stream, args,
                       NULL));
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUgraph capturing = NULL;
  const CUgraphNode* dependencies = NULL;
  const CUgraphEdgeData* edges = NULL;
  size_t count = 0;
  CHECK(cuStreamGetCaptureInfo(stream, &status, &id, &capturing, &dependencies, &edges, &count));
  EXPECT(status == CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT(id != 0 && capturing != NULL);
  EXPECT(count == 1 && dependencies != NULL && edges != NULL);
  /* The launch is the one dependency, over a default edge. */
  EXPECT(edges[0].from_port == 0 && edges[0].to_port == 0 &&
         edges[0].type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT);
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  CHECK(cuGraphNodeGetType(dependencies[0], &type));
  EXPECT(type == CU_GRAPH_NODE_TYPE_KERNEL);
  CUgraph graph = NULL;
  CHECK(cuStreamEndCapture(stream, &graph));
  EXPECT(graph == capturing);
  CHECK(cuStreamGetCaptureInfo(stream, &status, NULL, NULL, NULL, NULL, NULL));
  EXPECT(status == CU_STREAM_CAPTURE_STATUS_NONE);

  /* Nothing ran while capturing; the graph runs it, between two events. */
  EXPECT(values[kCount - 1] == (float)(kCount - 1));
  CUgraphExec exec = NULL;
  CUevent start = NULL, stop = NULL;
  CHECK(cuGraphInstantiate(&exec, graph, 0));
  CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  CHECK(cuEventRecord(start, stream));
  CHECK(cuGraphLaunch(exec, stream));
  CHECK(cuEventRecord(stop, stream));
  CHECK(cuMemPrefetchAsync(data, bytes, on_host, 0, stream));
  CHECK(cuStreamSynchronize(stream));
  float milliseconds = -1.0f;
  CHECK(cuEventElapsedTime(&milliseconds, start, stop));
  EXPECT(milliseconds >= 0.0f);
  CHECK(cuMemRangeGetAttribute(&last_prefetch, sizeof(last_prefetch),
                               CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, data, bytes));
  EXPECT(last_prefetch == (int)CU_DEVICE_CPU);

  for (int i = 0; i < kCount; ++i) {
    if (values[i] != 2.0f * (float)i + 1.0f) {
      snprintf(message, size, "values[%d] is %g, not %g", i, (double)values[i], 2.0 * i + 1.0);
      return 1;
    }
  }

  CHECK(cuEventDestroy(start));
  CHECK(cuEventDestroy(stop));
  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuMemFree(data));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  return 0;
}
