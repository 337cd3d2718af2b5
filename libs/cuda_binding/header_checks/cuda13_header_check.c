/* cuda.h with STREAMHAL_CUDA_API_VERSION=13000, compiled as C and C++ by the
 * headers.compile test (cmake/HeaderCheck.cmake): the plain names take their
 * CUDA 13.0 signatures, as a program written for CUDA 13 calls them. Only
 * compiled, never run. */
#define STREAMHAL_CUDA_API_VERSION 13000
#include <cuda.h>

#if CUDA_VERSION != 13000
#error "CUDA_VERSION follows STREAMHAL_CUDA_API_VERSION"
#endif

int main(void) {
  CUcontext context = 0;
  CUctxCreateParams params = {0, 0, 0};
  CUmemLocation device = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  CUmemLocation host = {CU_MEM_LOCATION_TYPE_HOST, 0};
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  cuuint64_t id = 0;
  CUgraph graph = 0;
  const CUgraphNode* nodes = 0;
  const CUgraphEdgeData* edges = 0;
  size_t count = 0;
  float ms = 0.0f;
  CUresult result = cuCtxCreate(&context, &params, 0, 0);
  result = cuMemAdvise(0, 16, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, device);
  result = cuMemPrefetchAsync(0, 16, host, 0, 0);
  result = cuStreamGetCaptureInfo(0, &status, &id, &graph, &nodes, &edges, &count);
  result = cuStreamUpdateCaptureDependencies(0, 0, 0, 0, 0);
  result = cuEventElapsedTime(&ms, 0, 0);
  {
    CUgraphNode from = 0, to = 0;
    CUgraphEdgeData edge = {0, 0, 0, {0, 0, 0, 0, 0}};
    result = cuGraphGetEdges(graph, &from, &to, &edge, &count);
    result = cuGraphNodeGetDependencies(from, &to, &edge, &count);
    result = cuGraphNodeGetDependentNodes(from, &to, &edge, &count);
    result = cuGraphAddDependencies(graph, &from, &to, &edge, 1);
    result = cuGraphRemoveDependencies(graph, &from, &to, NULL, 1);
  }
  return result == CUDA_SUCCESS ? 0 : 1;
}
