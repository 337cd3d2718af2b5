// Rows not implemented yet: every entry point exists, returns
// CUDA_ERROR_NOT_SUPPORTED / hipErrorNotSupported, and leaves the process
// working (the fixtures check a context is still current and usable after the
// call, and that HIP recorded the error as this thread's last error).
//
// The arguments are null or zero (`{}` for the later CUDA calls): the stubs ignore them, and an
// entry point that gets implemented must reject them with an error, not crash. When you implement a
// function, delete its line here, add tests that prove it and name them in its row of
// conformance/table.tsv.
#include <cuda.h>
#include <cudaEGL.h>
#include <cudaGL.h>
#include <cudaProfiler.h>
#include <cudaVDPAU.h>
#include <hip/hip_ext.h>
#include <hip/hip_runtime_api.h>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

class CudaNotImplemented : public testing::Test {
 protected:
  void SetUp() override {
    ProvesNotSupported();
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context_, 0, 0));
  }
  void TearDown() override {
    // The process still works: the same context is current and usable.
    EXPECT_EQ(CudaCurrent(), context_);
    EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context_));
  }

 private:
  CUcontext context_ = nullptr;
};

class HipNotImplemented : public testing::Test {
 protected:
  void SetUp() override {
    ProvesNotSupported();
    ASSERT_HIP(hipSuccess, hipInit(0));
    ASSERT_HIP(hipSuccess, hipCtxCreate(&context_, 0, 0));
    (void)hipGetLastError();
  }
  void TearDown() override {
    // The failure is this thread's last error, like any failing HIP call...
    EXPECT_HIP(hipErrorNotSupported, hipGetLastError());
    EXPECT_HIP(hipSuccess, hipGetLastError());
    // ...and the process still works.
    EXPECT_EQ(HipCurrent(), context_);
    EXPECT_HIP(hipSuccess, hipCtxSynchronize());
    EXPECT_HIP(hipSuccess, hipCtxDestroy(context_));
  }

 private:
  hipCtx_t context_ = nullptr;
};

// One test per entry point, named after it.
#define SH_CUDA_NOT_IMPLEMENTED(function, ...)                  \
  TEST_F(CudaNotImplemented, function) {                        \
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, function(__VA_ARGS__)); \
  }
#define SH_HIP_NOT_IMPLEMENTED(function, ...) \
  TEST_F(HipNotImplemented, function) { EXPECT_HIP(hipErrorNotSupported, function(__VA_ARGS__)); }

// CUDA driver API ------------------------------------------------------------
// Driver entry points.

// Modules.

// Copies.

// Inter-process communication.

// Arrays and texture references.

// External semaphores: no device here exports them as descriptors.
SH_CUDA_NOT_IMPLEMENTED(cuImportExternalSemaphore, nullptr, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuSignalExternalSemaphoresAsync, nullptr, nullptr, 0, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuWaitExternalSemaphoresAsync, nullptr, nullptr, 0, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuDestroyExternalSemaphore, nullptr)

// Later device queries. Each of these is a feature Vulkan has no counterpart
// for on the devices tested here, or one not built yet; conformance/table.tsv
// gives the reason of each.
SH_CUDA_NOT_IMPLEMENTED(cuDeviceGetLuid, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceGetNvSciSyncAttributes, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceGetHostAtomicCapabilities, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceGetP2PAtomicCapabilities, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceRegisterAsyncNotification, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceUnregisterAsyncNotification, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuFlushGPUDirectRDMAWrites, {}, {})

// Later context, stream and event calls.
SH_CUDA_NOT_IMPLEMENTED(cuCtxGetExecAffinity, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCtxRecordEvent, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCtxWaitEvent, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuStreamBeginCaptureToGraph, {}, {}, {}, {}, {}, {})

// Lazy loading and clusters.
SH_CUDA_NOT_IMPLEMENTED(cuOccupancyMaxPotentialClusterSize, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuOccupancyMaxActiveClusters, {}, {}, {})

// Later copies and memory calls.
SH_CUDA_NOT_IMPLEMENTED(cuMemcpyBatchAsync, {}, {}, {}, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemcpy3DBatchAsync, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemcpyBatchAsync_v2, {}, {}, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemcpy3DBatchAsync_v2, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemBatchDecompressAsync, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemGetHandleForAddressRange, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMemMapArrayAsync, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuArrayGetMemoryRequirements, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuArrayGetPlane, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuArrayGetSparseProperties, {}, {})

// Multicast objects.
SH_CUDA_NOT_IMPLEMENTED(cuMulticastCreate, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMulticastAddDevice, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMulticastBindMem, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMulticastBindAddr, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMulticastUnbind, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuMulticastGetGranularity, {}, {}, {})

// Tensor maps.
SH_CUDA_NOT_IMPLEMENTED(cuTensorMapEncodeTiled, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuTensorMapEncodeIm2col, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                        {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuTensorMapEncodeIm2colWide, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {},
                        {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuTensorMapReplaceAddress, {}, {})

// Later graph calls.
SH_CUDA_NOT_IMPLEMENTED(cuGraphAddBatchMemOpNode, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphBatchMemOpNodeGetParams, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphBatchMemOpNodeSetParams, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphExecBatchMemOpNodeSetParams, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphAddNode, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphAddNode_v2, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphNodeSetParams, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphExecNodeSetParams, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphConditionalHandleCreate, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphKernelNodeCopyAttributes, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphKernelNodeGetAttribute, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphKernelNodeSetAttribute, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuUserObjectCreate, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuUserObjectRetain, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuUserObjectRelease, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphRetainUserObject, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphReleaseUserObject, {}, {}, {})

// Green contexts.
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxCreate, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxDestroy, {})
SH_CUDA_NOT_IMPLEMENTED(cuCtxFromGreenCtx, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDeviceGetDevResource, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCtxGetDevResource, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxGetDevResource, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDevSmResourceSplitByCount, {}, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuDevResourceGenerateDesc, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxRecordEvent, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxWaitEvent, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuStreamGetGreenCtx, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxStreamCreate, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGreenCtxGetId, {}, {})

// Core dumps, checkpoints and logs.
SH_CUDA_NOT_IMPLEMENTED(cuCoredumpGetAttribute, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCoredumpGetAttributeGlobal, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCoredumpSetAttribute, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCoredumpSetAttributeGlobal, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessGetRestoreThreadId, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessGetState, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessLock, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessCheckpoint, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessRestore, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuCheckpointProcessUnlock, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuLogsRegisterCallback, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuLogsUnregisterCallback, {})
SH_CUDA_NOT_IMPLEMENTED(cuLogsCurrent, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuLogsDumpToFile, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuLogsDumpToMemory, {}, {}, {}, {})

// OpenGL interop.
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsGLRegisterBuffer, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsGLRegisterImage, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLGetDevices, {}, {}, {}, {})

// OpenGL interop, deprecated.
SH_CUDA_NOT_IMPLEMENTED(cuGLCtxCreate, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLInit)
SH_CUDA_NOT_IMPLEMENTED(cuGLRegisterBufferObject, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLMapBufferObject, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLUnmapBufferObject, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLUnregisterBufferObject, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLSetBufferObjectMapFlags, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLMapBufferObjectAsync, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGLUnmapBufferObjectAsync, {}, {})

// EGL interop.
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsEGLRegisterImage, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamConsumerConnect, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamConsumerConnectWithFlags, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamConsumerDisconnect, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamConsumerAcquireFrame, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamConsumerReleaseFrame, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamProducerConnect, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamProducerDisconnect, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamProducerPresentFrame, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEGLStreamProducerReturnFrame, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsResourceGetMappedEglFrame, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuEventCreateFromEGLSync, {}, {}, {})

// VDPAU interop.
SH_CUDA_NOT_IMPLEMENTED(cuVDPAUGetDevice, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuVDPAUCtxCreate, {}, {}, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsVDPAURegisterVideoSurface, {}, {}, {})
SH_CUDA_NOT_IMPLEMENTED(cuGraphicsVDPAURegisterOutputSurface, {}, {}, {})

// Profiler control.
SH_CUDA_NOT_IMPLEMENTED(cuProfilerInitialize, {}, {}, {})

// Streams.

// Events.

// Stream capture.

// Graphs.

// HIP ------------------------------------------------------------------------
// Initialization and versions

// Modules

// Functions and launches
SH_HIP_NOT_IMPLEMENTED(hipConfigureCall, dim3(), dim3(), 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipSetupArgument, nullptr, 0, 0)
SH_HIP_NOT_IMPLEMENTED(hipLaunchByPtr, nullptr)

// Streams

// Events

// Copies and fills

// Texture references (deprecated in HIP)
SH_HIP_NOT_IMPLEMENTED(hipGetTextureReference, nullptr, nullptr)

SH_HIP_NOT_IMPLEMENTED(hipMemMapArrayAsync, nullptr, 0, nullptr)

// External memory and semaphores
SH_HIP_NOT_IMPLEMENTED(hipImportExternalSemaphore, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipSignalExternalSemaphoresAsync, nullptr, nullptr, 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipWaitExternalSemaphoresAsync, nullptr, nullptr, 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipDestroyExternalSemaphore, nullptr)

// Graphics interop
SH_HIP_NOT_IMPLEMENTED(hipGraphicsMapResources, 0, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphicsSubResourceGetMappedArray, nullptr, nullptr, 0, 0)
SH_HIP_NOT_IMPLEMENTED(hipGraphicsResourceGetMappedPointer, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphicsUnmapResources, 0, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphicsUnregisterResource, nullptr)

// Graphs and stream capture
SH_HIP_NOT_IMPLEMENTED(hipStreamBeginCaptureToGraph, nullptr, nullptr, nullptr, nullptr, 0,
                       hipStreamCaptureMode{})
SH_HIP_NOT_IMPLEMENTED(hipGraphAddNode, nullptr, nullptr, nullptr, 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphNodeSetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExecNodeSetParams, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphKernelNodeGetAttribute, nullptr, hipKernelNodeAttrID{}, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphKernelNodeSetAttribute, nullptr, hipKernelNodeAttrID{}, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphKernelNodeCopyAttributes, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphAddBatchMemOpNode, nullptr, nullptr, nullptr, 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphBatchMemOpNodeGetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphBatchMemOpNodeSetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExecBatchMemOpNodeSetParams, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphAddExternalSemaphoresSignalNode, nullptr, nullptr, nullptr, 0,
                       nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphAddExternalSemaphoresWaitNode, nullptr, nullptr, nullptr, 0, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExternalSemaphoresSignalNodeGetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExternalSemaphoresSignalNodeSetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExternalSemaphoresWaitNodeGetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExternalSemaphoresWaitNodeSetParams, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExecExternalSemaphoresSignalNodeSetParams, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipGraphExecExternalSemaphoresWaitNodeSetParams, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipUserObjectCreate, nullptr, nullptr, nullptr, 0, 0)
SH_HIP_NOT_IMPLEMENTED(hipUserObjectRelease, nullptr, 0)
SH_HIP_NOT_IMPLEMENTED(hipUserObjectRetain, nullptr, 0)
SH_HIP_NOT_IMPLEMENTED(hipGraphRetainUserObject, nullptr, nullptr, 0, 0)
SH_HIP_NOT_IMPLEMENTED(hipGraphReleaseUserObject, nullptr, nullptr, 0)

// Errors

}  // namespace
}  // namespace streamhal::conformance
