// Rows: cuGetProcAddress/hipGetProcAddress, cuGetExportTable.
//
// cuGetProcAddress answers from the table generated from
// libs/cuda_binding/entry_points.tsv: the form of a function that NVIDIA's
// library returns for the version asked for (cuMemAlloc_v2 from 3.2), the
// per-thread default-stream variant with CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
// and no function for a form streamhal does not serve.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstring>

#include "conformance_util.h"

// The exports under NVIDIA's names: declared by NVIDIA's cuda.h through its
// macros, not by streamhal's.
extern "C" {
CUresult cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void* src, size_t bytes);
CUresult cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned int value, size_t count, CUstream stream);
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                             unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                             unsigned int blockDimZ, unsigned int sharedMemBytes, CUstream hStream,
                             void** kernelParams, void** extra);
CUresult cuStreamBeginCapture_v2_ptsz(CUstream hStream, CUstreamCaptureMode mode);
CUresult cuStreamIsCapturing_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus);
CUresult cuStreamEndCapture_ptsz(CUstream hStream, CUgraph* phGraph);
CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec* phGraphExec, CUgraph hGraph,
                                           CUDA_GRAPH_INSTANTIATE_PARAMS* instantiateParams);
CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult* symbolStatus);
CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev);
CUresult cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                   cuuint64_t* id_out, CUgraph* graph_out,
                                   const CUgraphNode** dependencies_out,
                                   size_t* numDependencies_out);
CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                    unsigned int flags, CUstream hStream);
CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hStream, CUstreamCaptureStatus* captureStatus_out,
                                        cuuint64_t* id_out, CUgraph* graph_out,
                                        const CUgraphNode** dependencies_out,
                                        const CUgraphEdgeData** edgeData_out,
                                        size_t* numDependencies_out);
}

namespace streamhal::conformance {
namespace {

using ProcAddressConformance = DriverTest;

template <typename F>
void* Address(F* function) {
  return reinterpret_cast<void*>(function);
}

// cuGetProcAddress(name, version, flags) -> the function, checking the status.
void* Find(const char* name, int version, cuuint64_t flags = CU_GET_PROC_ADDRESS_DEFAULT) {
  void* pfn = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  EXPECT_CU(CUDA_SUCCESS, cuGetProcAddress(name, &pfn, version, flags, &status)) << name;
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS) << name;
  return pfn;
}

TEST_F(ProcAddressConformance, CudaReturnsTheFormOfTheRequestedVersion) {
  // The 64-bit forms of CUDA 3.2 and the _v2 forms of 4.0.
  EXPECT_EQ(Find("cuMemAlloc", 12000), Address(&cuMemAlloc_v2));
  EXPECT_EQ(Find("cuMemAlloc", 3020), Address(&cuMemAlloc_v2));
  EXPECT_EQ(Find("cuCtxDestroy", 3020), Address(&cuCtxDestroy));
  EXPECT_EQ(Find("cuCtxDestroy", 4000), Address(&cuCtxDestroy_v2));
  // CUDA 12.0's cuGraphInstantiate is the flags form.
  EXPECT_EQ(Find("cuGraphInstantiate", 12000), Address(&cuGraphInstantiateWithFlags));
  EXPECT_EQ(Find("cuGetProcAddress", 12000), Address(&cuGetProcAddress_v2));
  EXPECT_EQ(Find("cuInit", 2000), Address(&cuInit));

  // What is returned is the function: allocate and free through it.
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  using MemAlloc = CUresult (*)(CUdeviceptr*, size_t);
  using MemFree = CUresult (*)(CUdeviceptr);
  auto mem_alloc = reinterpret_cast<MemAlloc>(Find("cuMemAlloc", 12000));
  auto mem_free = reinterpret_cast<MemFree>(Find("cuMemFree", 12000));
  ASSERT_NE(mem_alloc, nullptr);
  ASSERT_NE(mem_free, nullptr);
  CUdeviceptr pointer = 0;
  ASSERT_CU(CUDA_SUCCESS, mem_alloc(&pointer, 4096));
  EXPECT_NE(pointer, 0u);
  EXPECT_CU(CUDA_SUCCESS, mem_free(pointer));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ProcAddressConformance, CudaFormsOfAnotherSignatureAreNotReturned) {
  void* pfn = Address(&cuInit);
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  // CUDA 3.0's cuMemAlloc took 32-bit pointers; streamhal serves the 3.2 form.
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuGetProcAddress("cuMemAlloc", &pfn, 3000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(pfn, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  // Introduced later than asked for.
  EXPECT_CU(CUDA_ERROR_NOT_FOUND,
            cuGetProcAddress("cuMemAllocAsync", &pfn, 11000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  // CUDA 10.1's cuStreamGetCaptureInfo had no graph or dependency outputs;
  // streamhal serves the 11.3 form and later: no function rather than one of
  // another type.
  pfn = Address(&cuInit);
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuStreamGetCaptureInfo", &pfn, 11000,
                                                   CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(pfn, nullptr);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
  EXPECT_EQ(Find("cuStreamGetCaptureInfo", 11030), Address(&cuStreamGetCaptureInfo_v2));
}

// The driver is CUDA 13.0's: a program written for CUDA 13 looks its names
// up with 13000 and gets the 13.0 forms; older versions keep theirs, each
// from the release that introduced it.
TEST_F(ProcAddressConformance, CudaVersion13000ReturnsTheCuda13Forms) {
  int driver = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDriverGetVersion(&driver));
  EXPECT_EQ(driver, 13000);
  EXPECT_EQ(Find("cuCtxCreate", 13000), Address(&cuCtxCreate_v4));
  EXPECT_EQ(Find("cuCtxCreate", 12050), Address(&cuCtxCreate_v4));
  EXPECT_EQ(Find("cuCtxCreate", 12000), Address(&cuCtxCreate_v3));
  EXPECT_EQ(Find("cuCtxCreate", 11000), Address(&cuCtxCreate_v2));
  EXPECT_EQ(Find("cuMemAdvise", 13000), Address(&cuMemAdvise_v2));
  EXPECT_EQ(Find("cuMemAdvise", 12000), Address(&cuMemAdvise));
  EXPECT_EQ(Find("cuMemPrefetchAsync", 13000), Address(&cuMemPrefetchAsync_v2));
  EXPECT_EQ(Find("cuMemPrefetchAsync", 12000), Address(&cuMemPrefetchAsync));
  EXPECT_EQ(Find("cuMemPrefetchAsync", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            Address(&cuMemPrefetchAsync_v2_ptsz));
  EXPECT_EQ(Find("cuStreamGetCaptureInfo", 13000), Address(&cuStreamGetCaptureInfo_v3));
  EXPECT_EQ(Find("cuStreamGetCaptureInfo", 12000), Address(&cuStreamGetCaptureInfo_v2));
  EXPECT_EQ(Find("cuStreamGetCaptureInfo", 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM),
            Address(&cuStreamGetCaptureInfo_v3_ptsz));
  EXPECT_EQ(Find("cuStreamUpdateCaptureDependencies", 13000),
            Address(&cuStreamUpdateCaptureDependencies_v2));
  EXPECT_EQ(Find("cuEventElapsedTime", 13000), Address(&cuEventElapsedTime_v2));
  EXPECT_EQ(Find("cuEventElapsedTime", 12000), Address(&cuEventElapsedTime));
  EXPECT_EQ(Find("cuGraphGetEdges", 13000), Address(&cuGraphGetEdges_v2));
  EXPECT_EQ(Find("cuGraphGetEdges", 12000), Address(&cuGraphGetEdges));
  EXPECT_EQ(Find("cuGraphAddDependencies", 13000), Address(&cuGraphAddDependencies_v2));
  // Unchanged by 13.0.
  EXPECT_EQ(Find("cuMemAlloc", 13000), Address(&cuMemAlloc_v2));

  // What is returned is the 13.0 function: create a context through it.
  using CtxCreate = CUresult (*)(CUcontext*, CUctxCreateParams*, unsigned, CUdevice);
  auto ctx_create = reinterpret_cast<CtxCreate>(Find("cuCtxCreate", 13000));
  CUcontext context = nullptr;
  CUctxCreateParams params = {};
  ASSERT_CU(CUDA_SUCCESS, ctx_create(&context, &params, 0, 0));
  CUcontext current = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetCurrent(&current));
  EXPECT_EQ(current, context);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  // A version newer than the driver's is invalid.
  void* pfn = Address(&cuInit);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress("cuCtxCreate", &pfn, 13010, CU_GET_PROC_ADDRESS_DEFAULT, nullptr));
  EXPECT_EQ(pfn, Address(&cuInit));
}

TEST_F(ProcAddressConformance, CudaPerThreadFlagReturnsThePerThreadVariants) {
  const cuuint64_t per_thread = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  EXPECT_EQ(Find("cuLaunchKernel", 12000, per_thread), Address(&cuLaunchKernel_ptsz));
  EXPECT_EQ(Find("cuLaunchKernel", 12000), Address(&cuLaunchKernel));
  EXPECT_EQ(Find("cuLaunchKernel", 12000, CU_GET_PROC_ADDRESS_LEGACY_STREAM),
            Address(&cuLaunchKernel));
  EXPECT_EQ(Find("cuMemcpyHtoD", 12000, per_thread), Address(&cuMemcpyHtoD_v2_ptds));
  EXPECT_EQ(Find("cuMemsetD32Async", 12000, per_thread), Address(&cuMemsetD32Async_ptsz));
  // Per-thread default streams came with CUDA 7.0.
  EXPECT_EQ(Find("cuLaunchKernel", 6050, per_thread), Address(&cuLaunchKernel));
  // Functions without a stream have no variant.
  EXPECT_EQ(Find("cuMemAlloc", 12000, per_thread), Address(&cuMemAlloc_v2));
}

TEST_F(ProcAddressConformance, CudaUnknownNamesAreNotFound) {
  for (const char* name : {"cuNoSuchFunction", "cuMemAlloc_v2", "hipMalloc", ""}) {
    void* pfn = Address(&cuInit);
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
    EXPECT_CU(CUDA_ERROR_NOT_FOUND,
              cuGetProcAddress(name, &pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status))
        << name;
    EXPECT_EQ(pfn, nullptr);
    EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  }
  // symbolStatus is optional.
  void* pfn = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_FOUND, cuGetProcAddress("cuNoSuchFunction", &pfn, 12000,
                                                   CU_GET_PROC_ADDRESS_DEFAULT, nullptr));
  EXPECT_CU(CUDA_SUCCESS,
            cuGetProcAddress("cuMemAlloc", &pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, nullptr));
  EXPECT_EQ(pfn, Address(&cuMemAlloc_v2));
}

TEST_F(ProcAddressConformance, CudaBadArgumentsAreInvalidAndChangeNothing) {
  void* pfn = Address(&cuInit);
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress(nullptr, &pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGetProcAddress("cuMemAlloc", nullptr, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  // Both stream modes at once, or an unknown flag.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress("cuMemAlloc", &pfn, 12000, 3, &status));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress("cuMemAlloc", &pfn, 12000, 4, &status));
  // A version newer than the driver's.
  int driver = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDriverGetVersion(&driver));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetProcAddress("cuMemAlloc", &pfn, driver + 10,
                                                       CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(pfn, Address(&cuInit));
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

// In a _ptsz variant the null stream is the calling thread's default stream:
// capturing it through cuStreamBeginCapture_v2_ptsz(NULL) captures what the
// other _ptsz variants enqueue on NULL, and nothing runs until the graph is
// launched. (The legacy stream cannot be captured at all.)
TEST_F(ProcAddressConformance, CudaPerThreadVariantsTakeNullAsTheThreadsStream) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  CUdeviceptr words = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&words, 64 * sizeof(uint32_t)));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(words, 7, 64));

  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture_v2_ptsz(nullptr, CU_STREAM_CAPTURE_MODE_RELAXED));
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing_ptsz(nullptr, &capture));
  EXPECT_EQ(capture, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing(CU_STREAM_PER_THREAD, &capture));
  EXPECT_EQ(capture, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async_ptsz(words, 42, 64, nullptr));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture_ptsz(nullptr, &graph));

  uint32_t host[64] = {};
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(host, words, sizeof(host)));
  EXPECT_EQ(host[0], 7u);  // captured, not run
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, CU_STREAM_PER_THREAD));
  // A _ptds copy runs in the same stream, after the graph.
  uint32_t ones[64];
  for (uint32_t& one : ones) one = 1;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD_v2_ptds(words + 32 * sizeof(uint32_t), ones, 32 * 4));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(host, words, sizeof(host)));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(host[i], i < 32 ? 42u : 1u) << i;

  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(words));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

// A per-thread variant whose stream is a member of a structure it also
// writes results into hands the results back and keeps the caller's stream.
TEST_F(ProcAddressConformance, CudaPerThreadVariantsWriteResultsBack) {
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUgraphNode node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&node, graph, nullptr, 0));
  CUDA_GRAPH_INSTANTIATE_PARAMS params = {};
  params.flags = CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD;
  params.hUploadStream = nullptr;
  params.result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiateWithParams_ptsz(&exec, graph, &params));
  EXPECT_EQ(params.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
  EXPECT_EQ(params.hUploadStream, nullptr);
  EXPECT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, CU_STREAM_PER_THREAD));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(ProcAddressConformance, HipFindsFunctionsByTheirPlainNames) {
  using Malloc = hipError_t (*)(void**, size_t);
  using Free = hipError_t (*)(void*);
  void* pfn = nullptr;
  hipDriverProcAddressQueryResult status = HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  ASSERT_HIP(hipSuccess,
             hipGetProcAddress("hipMalloc", &pfn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(status, HIP_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_EQ(pfn, Address(static_cast<Malloc>(&hipMalloc)));
  auto hip_malloc = reinterpret_cast<Malloc>(pfn);
  ASSERT_HIP(hipSuccess,
             hipGetProcAddress("hipFree", &pfn, 600, HIP_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                               nullptr));
  auto hip_free = reinterpret_cast<Free>(pfn);
  void* pointer = nullptr;
  ASSERT_HIP(hipSuccess, hip_malloc(&pointer, 4096));
  EXPECT_NE(pointer, nullptr);
  EXPECT_HIP(hipSuccess, hip_free(pointer));
  ASSERT_HIP(hipSuccess, hipGetProcAddress("hipModuleLaunchKernel", &pfn, 600,
                                           HIP_GET_PROC_ADDRESS_LEGACY_STREAM, &status));
  EXPECT_EQ(pfn, Address(&hipModuleLaunchKernel));
}

TEST_F(ProcAddressConformance, HipUnknownNamesAndBadArgumentsAreInvalid) {
  void* pfn = Address(&hipInit);
  hipDriverProcAddressQueryResult status = HIP_GET_PROC_ADDRESS_SUCCESS;
  EXPECT_HIP(hipErrorInvalidValue, hipGetProcAddress("hipNoSuchFunction", &pfn, 600,
                                                     HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_EQ(pfn, nullptr);
  EXPECT_EQ(status, HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  EXPECT_HIP(hipErrorInvalidValue,
             hipGetProcAddress("cuMemAlloc", &pfn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  pfn = Address(&hipInit);
  EXPECT_HIP(hipErrorInvalidValue,
             hipGetProcAddress(nullptr, &pfn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGetProcAddress("", &pfn, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_HIP(hipErrorInvalidValue,
             hipGetProcAddress("hipMalloc", nullptr, 600, HIP_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_HIP(hipErrorInvalidValue, hipGetProcAddress("hipMalloc", &pfn, 600, 4, &status));
  EXPECT_EQ(pfn, Address(&hipInit));
  // The failure is the thread's last error, as for any HIP call.
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
}

TEST_F(ProcAddressConformance, CudaExportTablesAreNotSupported) {
  ProvesNotSupported();
  CUuuid id;
  std::memset(&id, 0x5a, sizeof(id));
  const void* table = &id;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuGetExportTable(&table, &id));
  EXPECT_EQ(table, nullptr);
  std::memset(&id, 0, sizeof(id));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuGetExportTable(&table, &id));
  // Bad arguments are still told apart.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetExportTable(nullptr, &id));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGetExportTable(&table, nullptr));
}

}  // namespace
}  // namespace streamhal::conformance
