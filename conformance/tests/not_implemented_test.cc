// Rows not implemented yet: every entry point exists, returns
// CUDA_ERROR_NOT_SUPPORTED / hipErrorNotSupported, and leaves the process
// working (the fixtures check a context is still current and usable after the
// call, and that HIP recorded the error as this thread's last error).
//
// The arguments are null or zero: the stubs ignore them, and an entry point
// that gets implemented must reject them with an error, not crash. When you
// implement a function, delete its line here, add tests that prove it and
// name them in its row of conformance/table.tsv.
#include <cuda.h>
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
