// Entry points declared in cuda.h (or the interop headers beside it) that streamhal does not
// implement yet. (conformance/tools/update_stubs.py rewrites the list from the header and the other
// sources of this folder.)
//
// Each one returns CUDA_ERROR_NOT_SUPPORTED and logs one warning naming
// itself (once per process), so a program that calls it fails cleanly and
// says why. Implementing one of them:
//   1. delete its SH_NOT_IMPLEMENTED line below and define the function in
//      the file of its concept (memory.cc, module.cc, stream.cc, ...);
//   2. in conformance/table.tsv, change its row to supported (or partial,
//      with a reason) and list the conformance tests that prove it;
//   3. delete its test from conformance/tests/not_implemented_test.cc (the
//      conformance report fails while either one disagrees with the table).
// When this list is empty, delete the file.
#include <cuda.h>
#include <cudaEGL.h>
#include <cudaGL.h>
#include <cudaProfiler.h>
#include <cudaVDPAU.h>

#include <atomic>

#include "core/log.h"

namespace {

CUresult NotImplemented(const char* name, std::atomic<bool>& logged) {
  if (!logged.exchange(true, std::memory_order_relaxed)) {
    streamhal::Log(streamhal::LogLevel::kWarning, name,
                   " is not implemented by streamhal yet; it returns CUDA_ERROR_NOT_SUPPORTED");
  }
  return CUDA_ERROR_NOT_SUPPORTED;
}

}  // namespace

// Parameters are unnamed: a stub reads none of them. The flag is constant-
// initialised, so no stub adds a static constructor.
#define SH_NOT_IMPLEMENTED(name, params)    \
  CUresult name params {                    \
    static std::atomic<bool> logged{false}; \
    return NotImplemented(#name, logged);   \
  }

extern "C" {
// External memory and semaphores (interop)
SH_NOT_IMPLEMENTED(cuImportExternalSemaphore,
                   (CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*))
SH_NOT_IMPLEMENTED(cuSignalExternalSemaphoresAsync,
                   (const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*,
                    unsigned int, CUstream))
SH_NOT_IMPLEMENTED(cuWaitExternalSemaphoresAsync,
                   (const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*,
                    unsigned int, CUstream))
SH_NOT_IMPLEMENTED(cuDestroyExternalSemaphore, (CUexternalSemaphore))

// Later device queries
SH_NOT_IMPLEMENTED(cuDeviceGetLuid, (char*, unsigned int*, CUdevice))
SH_NOT_IMPLEMENTED(cuDeviceGetNvSciSyncAttributes, (void*, CUdevice, int))
SH_NOT_IMPLEMENTED(cuDeviceGetHostAtomicCapabilities,
                   (unsigned int*, const CUatomicOperation*, unsigned int, CUdevice))
SH_NOT_IMPLEMENTED(cuDeviceGetP2PAtomicCapabilities,
                   (unsigned int*, const CUatomicOperation*, unsigned int, CUdevice, CUdevice))
SH_NOT_IMPLEMENTED(cuDeviceRegisterAsyncNotification,
                   (CUdevice, CUasyncCallback, void*, CUasyncCallbackHandle*))
SH_NOT_IMPLEMENTED(cuDeviceUnregisterAsyncNotification, (CUdevice, CUasyncCallbackHandle))
SH_NOT_IMPLEMENTED(cuFlushGPUDirectRDMAWrites,
                   (CUflushGPUDirectRDMAWritesTarget, CUflushGPUDirectRDMAWritesScope))

// Later context, stream and event calls
SH_NOT_IMPLEMENTED(cuCtxGetExecAffinity, (CUexecAffinityParam*, CUexecAffinityType))
SH_NOT_IMPLEMENTED(cuCtxRecordEvent, (CUcontext, CUevent))
SH_NOT_IMPLEMENTED(cuCtxWaitEvent, (CUcontext, CUevent))
SH_NOT_IMPLEMENTED(cuStreamBeginCaptureToGraph,
                   (CUstream, CUgraph, const CUgraphNode*, const CUgraphEdgeData*, size_t,
                    CUstreamCaptureMode))

// Lazy loading and clusters
SH_NOT_IMPLEMENTED(cuOccupancyMaxPotentialClusterSize, (int*, CUfunction, const CUlaunchConfig*))
SH_NOT_IMPLEMENTED(cuOccupancyMaxActiveClusters, (int*, CUfunction, const CUlaunchConfig*))

// Later copies and memory calls
SH_NOT_IMPLEMENTED(cuMemcpyBatchAsync, (CUdeviceptr*, CUdeviceptr*, size_t*, size_t,
                                        CUmemcpyAttributes*, size_t*, size_t, size_t*, CUstream))
SH_NOT_IMPLEMENTED(cuMemcpy3DBatchAsync,
                   (size_t, CUDA_MEMCPY3D_BATCH_OP*, size_t*, unsigned long long, CUstream))
SH_NOT_IMPLEMENTED(cuMemcpyBatchAsync_v2, (CUdeviceptr*, CUdeviceptr*, size_t*, size_t,
                                           CUmemcpyAttributes*, size_t*, size_t, CUstream))
SH_NOT_IMPLEMENTED(cuMemcpy3DBatchAsync_v2,
                   (size_t, CUDA_MEMCPY3D_BATCH_OP*, unsigned long long, CUstream))
SH_NOT_IMPLEMENTED(cuMemBatchDecompressAsync,
                   (CUmemDecompressParams*, size_t, unsigned int, size_t*, CUstream))
SH_NOT_IMPLEMENTED(cuMemGetHandleForAddressRange,
                   (void*, CUdeviceptr, size_t, CUmemRangeHandleType, unsigned long long))
SH_NOT_IMPLEMENTED(cuMemMapArrayAsync, (CUarrayMapInfo*, unsigned int, CUstream))
SH_NOT_IMPLEMENTED(cuArrayGetMemoryRequirements,
                   (CUDA_ARRAY_MEMORY_REQUIREMENTS*, CUarray, CUdevice))
SH_NOT_IMPLEMENTED(cuArrayGetPlane, (CUarray*, CUarray, unsigned int))
SH_NOT_IMPLEMENTED(cuArrayGetSparseProperties, (CUDA_ARRAY_SPARSE_PROPERTIES*, CUarray))

// Multicast objects
SH_NOT_IMPLEMENTED(cuMulticastCreate, (CUmemGenericAllocationHandle*, const CUmulticastObjectProp*))
SH_NOT_IMPLEMENTED(cuMulticastAddDevice, (CUmemGenericAllocationHandle, CUdevice))
SH_NOT_IMPLEMENTED(cuMulticastBindMem,
                   (CUmemGenericAllocationHandle, size_t, CUmemGenericAllocationHandle, size_t,
                    size_t, unsigned long long))
SH_NOT_IMPLEMENTED(cuMulticastBindAddr,
                   (CUmemGenericAllocationHandle, size_t, CUdeviceptr, size_t, unsigned long long))
SH_NOT_IMPLEMENTED(cuMulticastUnbind, (CUmemGenericAllocationHandle, CUdevice, size_t, size_t))
SH_NOT_IMPLEMENTED(cuMulticastGetGranularity,
                   (size_t*, const CUmulticastObjectProp*, CUmulticastGranularity_flags))

// Tensor maps
SH_NOT_IMPLEMENTED(cuTensorMapEncodeTiled,
                   (CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                    const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                    CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill))
SH_NOT_IMPLEMENTED(cuTensorMapEncodeIm2col,
                   (CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                    const cuuint64_t*, const int*, const int*, cuuint32_t, cuuint32_t,
                    const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                    CUtensorMapL2promotion, CUtensorMapFloatOOBfill))
SH_NOT_IMPLEMENTED(cuTensorMapEncodeIm2colWide,
                   (CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                    const cuuint64_t*, int, int, cuuint32_t, cuuint32_t, const cuuint32_t*,
                    CUtensorMapInterleave, CUtensorMapIm2ColWideMode, CUtensorMapSwizzle,
                    CUtensorMapL2promotion, CUtensorMapFloatOOBfill))
SH_NOT_IMPLEMENTED(cuTensorMapReplaceAddress, (CUtensorMap*, void*))

// Later graph calls
SH_NOT_IMPLEMENTED(cuGraphAddBatchMemOpNode, (CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
                                              const CUDA_BATCH_MEM_OP_NODE_PARAMS*))
SH_NOT_IMPLEMENTED(cuGraphBatchMemOpNodeGetParams, (CUgraphNode, CUDA_BATCH_MEM_OP_NODE_PARAMS*))
SH_NOT_IMPLEMENTED(cuGraphBatchMemOpNodeSetParams,
                   (CUgraphNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS*))
SH_NOT_IMPLEMENTED(cuGraphExecBatchMemOpNodeSetParams,
                   (CUgraphExec, CUgraphNode, const CUDA_BATCH_MEM_OP_NODE_PARAMS*))
SH_NOT_IMPLEMENTED(cuGraphAddNode,
                   (CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUgraphNodeParams*))
SH_NOT_IMPLEMENTED(cuGraphAddNode_v2, (CUgraphNode*, CUgraph, const CUgraphNode*,
                                       const CUgraphEdgeData*, size_t, CUgraphNodeParams*))
SH_NOT_IMPLEMENTED(cuGraphNodeSetParams, (CUgraphNode, CUgraphNodeParams*))
SH_NOT_IMPLEMENTED(cuGraphExecNodeSetParams, (CUgraphExec, CUgraphNode, CUgraphNodeParams*))
SH_NOT_IMPLEMENTED(cuGraphConditionalHandleCreate,
                   (CUgraphConditionalHandle*, CUgraph, CUcontext, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(cuGraphKernelNodeCopyAttributes, (CUgraphNode, CUgraphNode))
SH_NOT_IMPLEMENTED(cuGraphKernelNodeGetAttribute,
                   (CUgraphNode, CUkernelNodeAttrID, CUkernelNodeAttrValue*))
SH_NOT_IMPLEMENTED(cuGraphKernelNodeSetAttribute,
                   (CUgraphNode, CUkernelNodeAttrID, const CUkernelNodeAttrValue*))
SH_NOT_IMPLEMENTED(cuUserObjectCreate, (CUuserObject*, void*, CUhostFn, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(cuUserObjectRetain, (CUuserObject, unsigned int))
SH_NOT_IMPLEMENTED(cuUserObjectRelease, (CUuserObject, unsigned int))
SH_NOT_IMPLEMENTED(cuGraphRetainUserObject, (CUgraph, CUuserObject, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(cuGraphReleaseUserObject, (CUgraph, CUuserObject, unsigned int))

// Green contexts
SH_NOT_IMPLEMENTED(cuGreenCtxCreate, (CUgreenCtx*, CUdevResourceDesc, CUdevice, unsigned int))
SH_NOT_IMPLEMENTED(cuGreenCtxDestroy, (CUgreenCtx))
SH_NOT_IMPLEMENTED(cuCtxFromGreenCtx, (CUcontext*, CUgreenCtx))
SH_NOT_IMPLEMENTED(cuDeviceGetDevResource, (CUdevice, CUdevResource*, CUdevResourceType))
SH_NOT_IMPLEMENTED(cuCtxGetDevResource, (CUcontext, CUdevResource*, CUdevResourceType))
SH_NOT_IMPLEMENTED(cuGreenCtxGetDevResource, (CUgreenCtx, CUdevResource*, CUdevResourceType))
SH_NOT_IMPLEMENTED(cuDevSmResourceSplitByCount,
                   (CUdevResource*, unsigned int*, const CUdevResource*, CUdevResource*,
                    unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(cuDevResourceGenerateDesc, (CUdevResourceDesc*, CUdevResource*, unsigned int))
SH_NOT_IMPLEMENTED(cuGreenCtxRecordEvent, (CUgreenCtx, CUevent))
SH_NOT_IMPLEMENTED(cuGreenCtxWaitEvent, (CUgreenCtx, CUevent))
SH_NOT_IMPLEMENTED(cuStreamGetGreenCtx, (CUstream, CUgreenCtx*))
SH_NOT_IMPLEMENTED(cuGreenCtxStreamCreate, (CUstream*, CUgreenCtx, unsigned int, int))
SH_NOT_IMPLEMENTED(cuGreenCtxGetId, (CUgreenCtx, unsigned long long*))

// Core dumps, checkpoints and logs
SH_NOT_IMPLEMENTED(cuCoredumpGetAttribute, (CUcoredumpSettings, void*, size_t*))
SH_NOT_IMPLEMENTED(cuCoredumpGetAttributeGlobal, (CUcoredumpSettings, void*, size_t*))
SH_NOT_IMPLEMENTED(cuCoredumpSetAttribute, (CUcoredumpSettings, void*, size_t*))
SH_NOT_IMPLEMENTED(cuCoredumpSetAttributeGlobal, (CUcoredumpSettings, void*, size_t*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessGetRestoreThreadId, (int, int*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessGetState, (int, CUprocessState*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessLock, (int, CUcheckpointLockArgs*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessCheckpoint, (int, CUcheckpointCheckpointArgs*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessRestore, (int, CUcheckpointRestoreArgs*))
SH_NOT_IMPLEMENTED(cuCheckpointProcessUnlock, (int, CUcheckpointUnlockArgs*))
SH_NOT_IMPLEMENTED(cuLogsRegisterCallback, (CUlogsCallback, void*, CUlogsCallbackHandle*))
SH_NOT_IMPLEMENTED(cuLogsUnregisterCallback, (CUlogsCallbackHandle))
SH_NOT_IMPLEMENTED(cuLogsCurrent, (CUlogIterator*, unsigned int))
SH_NOT_IMPLEMENTED(cuLogsDumpToFile, (CUlogIterator*, const char*, unsigned int))
SH_NOT_IMPLEMENTED(cuLogsDumpToMemory, (CUlogIterator*, char*, size_t*, unsigned int))

// OpenGL interop
SH_NOT_IMPLEMENTED(cuGraphicsGLRegisterBuffer, (CUgraphicsResource*, GLuint, unsigned int))
SH_NOT_IMPLEMENTED(cuGraphicsGLRegisterImage, (CUgraphicsResource*, GLuint, GLenum, unsigned int))
SH_NOT_IMPLEMENTED(cuGLGetDevices, (unsigned int*, CUdevice*, unsigned int, CUGLDeviceList))

// OpenGL interop, deprecated
SH_NOT_IMPLEMENTED(cuGLCtxCreate, (CUcontext*, unsigned int, CUdevice))
SH_NOT_IMPLEMENTED(cuGLInit, (void))
SH_NOT_IMPLEMENTED(cuGLRegisterBufferObject, (GLuint))
SH_NOT_IMPLEMENTED(cuGLMapBufferObject, (CUdeviceptr*, size_t*, GLuint))
SH_NOT_IMPLEMENTED(cuGLUnmapBufferObject, (GLuint))
SH_NOT_IMPLEMENTED(cuGLUnregisterBufferObject, (GLuint))
SH_NOT_IMPLEMENTED(cuGLSetBufferObjectMapFlags, (GLuint, unsigned int))
SH_NOT_IMPLEMENTED(cuGLMapBufferObjectAsync, (CUdeviceptr*, size_t*, GLuint, CUstream))
SH_NOT_IMPLEMENTED(cuGLUnmapBufferObjectAsync, (GLuint, CUstream))

// EGL interop
SH_NOT_IMPLEMENTED(cuGraphicsEGLRegisterImage, (CUgraphicsResource*, EGLImageKHR, unsigned int))
SH_NOT_IMPLEMENTED(cuEGLStreamConsumerConnect, (CUeglStreamConnection*, EGLStreamKHR))
SH_NOT_IMPLEMENTED(cuEGLStreamConsumerConnectWithFlags,
                   (CUeglStreamConnection*, EGLStreamKHR, unsigned int))
SH_NOT_IMPLEMENTED(cuEGLStreamConsumerDisconnect, (CUeglStreamConnection*))
SH_NOT_IMPLEMENTED(cuEGLStreamConsumerAcquireFrame,
                   (CUeglStreamConnection*, CUgraphicsResource*, CUstream*, unsigned int))
SH_NOT_IMPLEMENTED(cuEGLStreamConsumerReleaseFrame,
                   (CUeglStreamConnection*, CUgraphicsResource, CUstream*))
SH_NOT_IMPLEMENTED(cuEGLStreamProducerConnect,
                   (CUeglStreamConnection*, EGLStreamKHR, EGLint, EGLint))
SH_NOT_IMPLEMENTED(cuEGLStreamProducerDisconnect, (CUeglStreamConnection*))
SH_NOT_IMPLEMENTED(cuEGLStreamProducerPresentFrame, (CUeglStreamConnection*, CUeglFrame, CUstream*))
SH_NOT_IMPLEMENTED(cuEGLStreamProducerReturnFrame, (CUeglStreamConnection*, CUeglFrame*, CUstream*))
SH_NOT_IMPLEMENTED(cuGraphicsResourceGetMappedEglFrame,
                   (CUeglFrame*, CUgraphicsResource, unsigned int, unsigned int))
SH_NOT_IMPLEMENTED(cuEventCreateFromEGLSync, (CUevent*, EGLSyncKHR, unsigned int))

// VDPAU interop
SH_NOT_IMPLEMENTED(cuVDPAUGetDevice, (CUdevice*, VdpDevice, VdpGetProcAddress*))
SH_NOT_IMPLEMENTED(cuVDPAUCtxCreate,
                   (CUcontext*, unsigned int, CUdevice, VdpDevice, VdpGetProcAddress*))
SH_NOT_IMPLEMENTED(cuGraphicsVDPAURegisterVideoSurface,
                   (CUgraphicsResource*, VdpVideoSurface, unsigned int))
SH_NOT_IMPLEMENTED(cuGraphicsVDPAURegisterOutputSurface,
                   (CUgraphicsResource*, VdpOutputSurface, unsigned int))

// Profiler control
SH_NOT_IMPLEMENTED(cuProfilerInitialize, (const char*, const char*, CUoutput_mode))

}  // extern "C"
