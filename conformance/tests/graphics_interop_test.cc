// Rows: the graphics interop calls of cuda.h (cuGraphicsMapResources, ...)
// and the profiler control of cudaProfiler.h. No OpenGL, EGL or VDPAU object
// can be registered (those calls are stubs, not_implemented_test.cc), so
// every resource handle is invalid: the generic calls answer CUDA's
// documented errors for bad arguments, a limitation of the rows.
#include <cuda.h>
#include <cudaProfiler.h>

#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using GraphicsInteropConformance = ContextTest;
using ProfilerConformance = ContextTest;

CUgraphicsResource Bogus() { return reinterpret_cast<CUgraphicsResource>(0x1234); }

TEST_F(GraphicsInteropConformance, NoResourceExistsSoEveryHandleIsInvalid) {
  ProvesLimitation();
  CUarray array = nullptr;
  CUmipmappedArray mipmap = nullptr;
  CUdeviceptr pointer = 0;
  size_t size = 0;
  for (CUgraphicsResource resource : {static_cast<CUgraphicsResource>(nullptr), Bogus()}) {
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnregisterResource(resource));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuGraphicsSubResourceGetMappedArray(&array, resource, 0, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuGraphicsResourceGetMappedMipmappedArray(&mipmap, resource));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuGraphicsResourceGetMappedPointer(&pointer, &size, resource));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
              cuGraphicsResourceSetMapFlags(resource, CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY));
    CUgraphicsResource resources[] = {resource};
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsMapResources(1, resources, nullptr));
    EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuGraphicsUnmapResources(1, resources, nullptr));
  }
  EXPECT_EQ(array, nullptr);
  EXPECT_EQ(pointer, 0u);
}

TEST_F(GraphicsInteropConformance, OtherBadArgumentsAreCheckedFirst) {
  ProvesLimitation();
  size_t size = 0;
  CUgraphicsResource resources[] = {Bogus()};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsSubResourceGetMappedArray(nullptr, Bogus(), 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsResourceGetMappedMipmappedArray(nullptr, Bogus()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsResourceGetMappedPointer(nullptr, &size, Bogus()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsResourceSetMapFlags(Bogus(), 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(0, resources, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsMapResources(1, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphicsUnmapResources(0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuGraphicsMapResources(1, resources, reinterpret_cast<CUstream>(context())));
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuGraphicsUnregisterResource(Bogus()));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuGraphicsMapResources(1, resources, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(popped));
}

TEST_F(ProfilerConformance, StartAndStopSucceedInAContextAndChangeNothing) {
  EXPECT_CU(CUDA_SUCCESS, cuProfilerStart());
  EXPECT_CU(CUDA_SUCCESS, cuProfilerStart());  // already started: no effect
  CUdeviceptr data = CudaUpload(std::vector<int>(8, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(data, 9, 8));
  EXPECT_CU(CUDA_SUCCESS, cuProfilerStop());
  EXPECT_CU(CUDA_SUCCESS, cuProfilerStop());
  EXPECT_EQ(CudaDownload<int>(data, 8), std::vector<int>(8, 9));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
}

TEST_F(ProfilerConformance, WithoutAContextTheyAreInvalidContext) {
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuProfilerStart());
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuProfilerStop());
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(popped));
}

}  // namespace
}  // namespace streamhal::conformance
