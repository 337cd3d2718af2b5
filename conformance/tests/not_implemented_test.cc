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
SH_CUDA_NOT_IMPLEMENTED(cuModuleGetTexRef, nullptr, nullptr, nullptr)

// Linker.
SH_CUDA_NOT_IMPLEMENTED(cuLinkCreate, 0, nullptr, nullptr, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuLinkAddData, nullptr, CUjitInputType{}, nullptr, 0, nullptr, 0, nullptr,
                        nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuLinkAddFile, nullptr, CUjitInputType{}, nullptr, 0, nullptr, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuLinkComplete, nullptr, nullptr, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuLinkDestroy, nullptr)

// Copies.

// Inter-process communication.
SH_CUDA_NOT_IMPLEMENTED(cuIpcGetEventHandle, nullptr, nullptr)
SH_CUDA_NOT_IMPLEMENTED(cuIpcOpenEventHandle, nullptr, CUipcEventHandle{})
SH_CUDA_NOT_IMPLEMENTED(cuIpcGetMemHandle, nullptr, 0)
SH_CUDA_NOT_IMPLEMENTED(cuIpcOpenMemHandle, nullptr, CUipcMemHandle{}, 0)
SH_CUDA_NOT_IMPLEMENTED(cuIpcCloseMemHandle, 0)

// Arrays and texture references.
SH_CUDA_NOT_IMPLEMENTED(cuTexRefSetArray, nullptr, nullptr, 0)
SH_CUDA_NOT_IMPLEMENTED(cuTexRefSetFormat, nullptr, CUarray_format{}, 0)
SH_CUDA_NOT_IMPLEMENTED(cuTexRefSetAddressMode, nullptr, 0, CUaddress_mode{})
SH_CUDA_NOT_IMPLEMENTED(cuTexRefSetFilterMode, nullptr, CUfilter_mode{})
SH_CUDA_NOT_IMPLEMENTED(cuTexRefSetFlags, nullptr, 0)

// Streams.

// Events.

// Stream capture.

// Graphs.

// HIP ------------------------------------------------------------------------
// Initialization and versions

// Modules
SH_HIP_NOT_IMPLEMENTED(hipModuleGetTexRef, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipLinkCreate, 0, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipLinkAddData, nullptr, hipJitInputType{}, nullptr, 0, nullptr, 0, nullptr,
                       nullptr)
SH_HIP_NOT_IMPLEMENTED(hipLinkAddFile, nullptr, hipJitInputType{}, nullptr, 0, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipLinkComplete, nullptr, nullptr, nullptr)
SH_HIP_NOT_IMPLEMENTED(hipLinkDestroy, nullptr)

// Streams

// Events


// Copies and fills

// Texture references (deprecated in HIP)
SH_HIP_NOT_IMPLEMENTED(hipTexRefSetAddressMode, nullptr, 0, hipTextureAddressMode{})
SH_HIP_NOT_IMPLEMENTED(hipTexRefSetArray, nullptr, nullptr, 0)
SH_HIP_NOT_IMPLEMENTED(hipTexRefSetFilterMode, nullptr, hipTextureFilterMode{})
SH_HIP_NOT_IMPLEMENTED(hipTexRefSetFlags, nullptr, 0)
SH_HIP_NOT_IMPLEMENTED(hipTexRefSetFormat, nullptr, hipArray_Format{}, 0)

// Graphs and stream capture

// Errors

}  // namespace
}  // namespace streamhal::conformance
