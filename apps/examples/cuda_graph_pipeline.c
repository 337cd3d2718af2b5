/* Graphs with the CUDA driver API, in C: a two-stream pipeline is captured
 * into a graph once (fork with an event, join with another), printed as a
 * Graphviz file, instantiated and replayed on new input many times. Each
 * replay is one submission of command buffers recorded at instantiation.
 *
 *   s1: in -> a (copy); a = 2a + 1              \
 *   s2:          b = a (copy); b = 3b           -> out = a + ... (see below)
 *   s1 joins s2, then c = b (copy), c = c + 1, out = c (copy to pinned)
 *
 * so out[i] = 3 * (2 * in[i] + 1) + 1, checked on the host after every
 * replay. Usage: cuda_graph_pipeline [kernels.elf] [graph.dot] */
#include <cuda.h>
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

enum { kN = 1 << 16, kBlock = 256, kReplays = 100 };

static CUfunction g_scale_offset;

/* Launches data = data * scale + offset on `stream` (captured, not run). */
static void ScaleOffset(CUstream stream, CUdeviceptr* data, float* scale, float* offset) {
  static uint32_t n = kN;
  void* args[] = {data, scale, offset, &n};
  CHECK(cuLaunchKernel(g_scale_offset, kN / kBlock, 1, 1, kBlock, 1, 1, 0, stream, args, NULL));
}

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  const char* dot_path = argc > 2 ? argv[2] : "cuda_graph_pipeline.dot";
  const size_t bytes = kN * sizeof(float);
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuCtxCreate(&context, 0, device));
  CUmodule module;
  CHECK(cuModuleLoad(&module, kernels));
  CHECK(cuModuleGetFunction(&g_scale_offset, module, "scale_offset"));

  float *in = NULL, *out = NULL;
  CHECK(cuMemAllocHost((void**)&in, bytes));
  CHECK(cuMemAllocHost((void**)&out, bytes));
  CUdeviceptr a, b, c;
  CHECK(cuMemAlloc(&a, bytes));
  CHECK(cuMemAlloc(&b, bytes));
  CHECK(cuMemAlloc(&c, bytes));
  CUstream s1, s2;
  CHECK(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CHECK(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CUevent fork, join;
  CHECK(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
  CHECK(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));

  /* Capture: nothing runs until the graph is launched. */
  float two = 2.0f, one = 1.0f, three = 3.0f, zero = 0.0f;
  CHECK(cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuMemcpyHtoDAsync(a, in, bytes, s1));
  CHECK(cuEventRecord(fork, s1));
  CHECK(cuStreamWaitEvent(s2, fork, 0));
  ScaleOffset(s1, &a, &two, &one);
  CHECK(cuMemcpyDtoDAsync(b, a, bytes, s1));
  CHECK(cuEventRecord(fork, s1));
  CHECK(cuStreamWaitEvent(s2, fork, 0));
  ScaleOffset(s2, &b, &three, &zero);
  CHECK(cuEventRecord(join, s2));
  CHECK(cuStreamWaitEvent(s1, join, 0));
  CHECK(cuMemcpyDtoDAsync(c, b, bytes, s1));
  ScaleOffset(s1, &c, &one, &one);
  CHECK(cuMemcpyDtoHAsync(out, c, bytes, s1));
  CUgraph graph;
  CHECK(cuStreamEndCapture(s1, &graph));

  size_t nodes = 0, edges = 0;
  CHECK(cuGraphGetNodes(graph, NULL, &nodes));
  CHECK(cuGraphGetEdges(graph, NULL, NULL, &edges));
  printf("captured %zu nodes and %zu edges\n", nodes, edges);
  CHECK(cuGraphDebugDotPrint(graph, dot_path, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
  FILE* dot = fopen(dot_path, "r");
  if (dot == NULL) {
    fprintf(stderr, "cannot read %s\n", dot_path);
    return 1;
  }
  printf("--- %s ---\n", dot_path);
  char line[512];
  while (fgets(line, sizeof(line), dot) != NULL) fputs(line, stdout);
  fclose(dot);
  printf("---\n");

  CUgraphExec exec;
  CHECK(cuGraphInstantiate(&exec, graph, 0));
  int failures = 0;
  for (int replay = 0; replay < kReplays; ++replay) {
    for (int i = 0; i < kN; ++i) in[i] = (float)((i + replay) % 1000);
    CHECK(cuGraphLaunch(exec, s1));
    CHECK(cuStreamSynchronize(s1));
    for (int i = 0; i < kN; ++i) {
      const float want = 3.0f * (2.0f * in[i] + 1.0f) + 1.0f;
      if (out[i] != want) {
        if (failures++ < 5)
          fprintf(stderr, "replay %d: out[%d] = %g, want %g\n", replay, i, out[i], want);
      }
    }
  }
  printf("replayed %d times: %s\n", kReplays, failures == 0 ? "all results exact" : "MISMATCH");

  CHECK(cuGraphExecDestroy(exec));
  CHECK(cuGraphDestroy(graph));
  CHECK(cuEventDestroy(fork));
  CHECK(cuEventDestroy(join));
  CHECK(cuStreamDestroy(s1));
  CHECK(cuStreamDestroy(s2));
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
  CHECK(cuMemFree(c));
  CHECK(cuMemFreeHost(in));
  CHECK(cuMemFreeHost(out));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  return failures == 0 ? 0 : 1;
}
