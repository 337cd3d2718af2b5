// Entry points declared in the hip/*.h headers that streamhal does not
// implement yet. (conformance/tools/update_stubs.py rewrites the list from
// the headers and the other sources of this folder.)
//
// Each one returns hipErrorNotSupported (recorded as this thread's last
// error, like any failing HIP call) and logs one warning naming itself (once
// per process), so a program that calls it fails cleanly and says why.
// Implementing one of them:
//   1. delete its SH_NOT_IMPLEMENTED line below and define the function in
//      the file of its concept (memory.cc, module.cc, stream.cc, ...);
//   2. in conformance/table.tsv, change its row to supported (or partial,
//      with a reason) and list the conformance tests that prove it;
//   3. delete its test from conformance/tests/not_implemented_test.cc (the
//      conformance report fails while either one disagrees with the table).
// When this list is empty, delete the file.
#include <hip/hip_ext.h>
#include <hip/hip_runtime_api.h>

#include <atomic>

#include "core/log.h"
#include "core/status.h"
#include "result.h"

namespace {

void LogOnce(const char* name, std::atomic<bool>& logged, const char* result) {
  if (!logged.exchange(true, std::memory_order_relaxed)) {
    streamhal::Log(streamhal::LogLevel::kWarning, name,
                   " is not implemented by streamhal yet; it returns ", result);
  }
}

hipError_t NotImplemented(const char* name, std::atomic<bool>& logged) {
  LogOnce(name, logged, "hipErrorNotSupported");
  return streamhal::hip::ToHipError(
      streamhal::Error(streamhal::ErrorCode::kNotSupported, name, " is not implemented"));
}

}  // namespace

// Parameters are unnamed: a stub reads none of them. The flag is constant-
// initialised, so no stub adds a static constructor.
#define SH_NOT_IMPLEMENTED(name, params)    \
  hipError_t name params {                  \
    static std::atomic<bool> logged{false}; \
    return NotImplemented(#name, logged);   \
  }

// For the code-object registration functions compilers emit, which return no
// error code: they register nothing, and a launch by host symbol then
// reports hipErrorNotSupported.
#define SH_NOT_IMPLEMENTED_VOID(name, params)               \
  void name params {                                        \
    static std::atomic<bool> logged{false};                 \
    LogOnce(#name, logged, "without registering anything"); \
  }
#define SH_NOT_IMPLEMENTED_NULL(name, params)     \
  void** name params {                            \
    static std::atomic<bool> logged{false};       \
    LogOnce(#name, logged, "a null module list"); \
    return nullptr;                               \
  }

extern "C" {
// Functions and launches
SH_NOT_IMPLEMENTED(hipConfigureCall, (dim3, dim3, size_t, hipStream_t))
SH_NOT_IMPLEMENTED(hipSetupArgument, (const void*, size_t, size_t))
SH_NOT_IMPLEMENTED(hipLaunchByPtr, (const void*))

// Texture references (deprecated in HIP)
SH_NOT_IMPLEMENTED(hipGetTextureReference, (const textureReference**, const void*))

// Mipmapped arrays
SH_NOT_IMPLEMENTED(hipMemMapArrayAsync, (hipArrayMapInfo*, unsigned int, hipStream_t))

// External memory and semaphores
SH_NOT_IMPLEMENTED(hipImportExternalSemaphore,
                   (hipExternalSemaphore_t*, const hipExternalSemaphoreHandleDesc*))
SH_NOT_IMPLEMENTED(hipSignalExternalSemaphoresAsync,
                   (const hipExternalSemaphore_t*, const hipExternalSemaphoreSignalParams*,
                    unsigned int, hipStream_t))
SH_NOT_IMPLEMENTED(hipWaitExternalSemaphoresAsync,
                   (const hipExternalSemaphore_t*, const hipExternalSemaphoreWaitParams*,
                    unsigned int, hipStream_t))
SH_NOT_IMPLEMENTED(hipDestroyExternalSemaphore, (hipExternalSemaphore_t))

// Graphics interop
SH_NOT_IMPLEMENTED(hipGraphicsMapResources, (int, hipGraphicsResource_t*, hipStream_t))
SH_NOT_IMPLEMENTED(hipGraphicsSubResourceGetMappedArray,
                   (hipArray_t*, hipGraphicsResource_t, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(hipGraphicsResourceGetMappedPointer, (void**, size_t*, hipGraphicsResource_t))
SH_NOT_IMPLEMENTED(hipGraphicsUnmapResources, (int, hipGraphicsResource_t*, hipStream_t))
SH_NOT_IMPLEMENTED(hipGraphicsUnregisterResource, (hipGraphicsResource_t))

// Graphs and stream capture
SH_NOT_IMPLEMENTED(hipStreamBeginCaptureToGraph,
                   (hipStream_t, hipGraph_t, const hipGraphNode_t*, const hipGraphEdgeData*, size_t,
                    hipStreamCaptureMode))
SH_NOT_IMPLEMENTED(hipGraphAddNode, (hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*, size_t,
                                     hipGraphNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphNodeSetParams, (hipGraphNode_t, hipGraphNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExecNodeSetParams, (hipGraphExec_t, hipGraphNode_t, hipGraphNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphKernelNodeGetAttribute,
                   (hipGraphNode_t, hipKernelNodeAttrID, hipKernelNodeAttrValue*))
SH_NOT_IMPLEMENTED(hipGraphKernelNodeSetAttribute,
                   (hipGraphNode_t, hipKernelNodeAttrID, const hipKernelNodeAttrValue*))
SH_NOT_IMPLEMENTED(hipGraphKernelNodeCopyAttributes, (hipGraphNode_t, hipGraphNode_t))
SH_NOT_IMPLEMENTED(hipGraphAddBatchMemOpNode, (hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*,
                                               size_t, const hipBatchMemOpNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphBatchMemOpNodeGetParams, (hipGraphNode_t, hipBatchMemOpNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphBatchMemOpNodeSetParams, (hipGraphNode_t, hipBatchMemOpNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExecBatchMemOpNodeSetParams,
                   (hipGraphExec_t, hipGraphNode_t, const hipBatchMemOpNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphAddExternalSemaphoresSignalNode,
                   (hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*, size_t,
                    const hipExternalSemaphoreSignalNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphAddExternalSemaphoresWaitNode,
                   (hipGraphNode_t*, hipGraph_t, const hipGraphNode_t*, size_t,
                    const hipExternalSemaphoreWaitNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExternalSemaphoresSignalNodeGetParams,
                   (hipGraphNode_t, hipExternalSemaphoreSignalNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExternalSemaphoresSignalNodeSetParams,
                   (hipGraphNode_t, const hipExternalSemaphoreSignalNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExternalSemaphoresWaitNodeGetParams,
                   (hipGraphNode_t, hipExternalSemaphoreWaitNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExternalSemaphoresWaitNodeSetParams,
                   (hipGraphNode_t, const hipExternalSemaphoreWaitNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExecExternalSemaphoresSignalNodeSetParams,
                   (hipGraphExec_t, hipGraphNode_t, const hipExternalSemaphoreSignalNodeParams*))
SH_NOT_IMPLEMENTED(hipGraphExecExternalSemaphoresWaitNodeSetParams,
                   (hipGraphExec_t, hipGraphNode_t, const hipExternalSemaphoreWaitNodeParams*))
SH_NOT_IMPLEMENTED(hipUserObjectCreate,
                   (hipUserObject_t*, void*, hipHostFn_t, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(hipUserObjectRelease, (hipUserObject_t, unsigned int))
SH_NOT_IMPLEMENTED(hipUserObjectRetain, (hipUserObject_t, unsigned int))
SH_NOT_IMPLEMENTED(hipGraphRetainUserObject,
                   (hipGraph_t, hipUserObject_t, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(hipGraphReleaseUserObject, (hipGraph_t, hipUserObject_t, unsigned int))

}  // extern "C"
