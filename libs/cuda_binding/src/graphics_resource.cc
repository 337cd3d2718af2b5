// The generic graphics interop calls (cuGraphicsMapResources, ...): no
// resource can be registered, so core/graphics_resource.h answers each with
// CUDA's error for a bad resource handle.
#include "core/graphics_resource.h"

#include <cuda.h>

#include "core/handle.h"
#include "result.h"

using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

namespace {

CUresult MapOrUnmap(unsigned count, CUgraphicsResource* resources, CUstream stream,
                    const char* api) {
  // Core reads the first resource only: it cannot be registered, so it
  // decides the answer.
  const uint64_t first = resources != nullptr && count > 0 ? HandleValue(resources[0]) : 0;
  return ToCUresult(streamhal::GraphicsMapResources(count, resources != nullptr ? &first : nullptr,
                                                    HandleValue(stream), api));
}

}  // namespace

extern "C" {

CUresult cuGraphicsUnregisterResource(CUgraphicsResource resource) {
  return ToCUresult(streamhal::GraphicsResourceQuery(HandleValue(resource), /*output_given=*/true,
                                                     "cuGraphicsUnregisterResource"));
}

CUresult cuGraphicsSubResourceGetMappedArray(CUarray* pArray, CUgraphicsResource resource,
                                             unsigned int, unsigned int) {
  return ToCUresult(streamhal::GraphicsResourceQuery(HandleValue(resource), pArray != nullptr,
                                                     "cuGraphicsSubResourceGetMappedArray"));
}

CUresult cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray* pMipmappedArray,
                                                   CUgraphicsResource resource) {
  return ToCUresult(streamhal::GraphicsResourceQuery(HandleValue(resource),
                                                     pMipmappedArray != nullptr,
                                                     "cuGraphicsResourceGetMappedMipmappedArray"));
}

CUresult cuGraphicsResourceGetMappedPointer(CUdeviceptr* pDevPtr, size_t* pSize,
                                            CUgraphicsResource resource) {
  return ToCUresult(streamhal::GraphicsResourceQuery(HandleValue(resource),
                                                     pDevPtr != nullptr && pSize != nullptr,
                                                     "cuGraphicsResourceGetMappedPointer"));
}

CUresult cuGraphicsResourceSetMapFlags(CUgraphicsResource resource, unsigned int flags) {
  return ToCUresult(streamhal::GraphicsResourceSetMapFlags(HandleValue(resource), flags));
}

CUresult cuGraphicsMapResources(unsigned int count, CUgraphicsResource* resources,
                                CUstream hStream) {
  return MapOrUnmap(count, resources, hStream, "cuGraphicsMapResources");
}

CUresult cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource* resources,
                                  CUstream hStream) {
  return MapOrUnmap(count, resources, hStream, "cuGraphicsUnmapResources");
}

}  // extern "C"
