// Rows: the CUDA 13.0 forms (cuCtxCreate_v4 and _v3, cuMemAdvise_v2,
// cuMemPrefetchAsync_v2, cuStreamGetCaptureInfo_v3,
// cuStreamUpdateCaptureDependencies_v2, cuEventElapsedTime_v2, and the
// edge-data graph calls cuGraphGetEdges_v2, cuGraphNodeGetDependencies_v2,
// cuGraphNodeGetDependentNodes_v2, cuGraphAddDependencies_v2,
// cuGraphRemoveDependencies_v2). A C program
// written for CUDA 13 (cuda13_program.c, compiled with
// STREAMHAL_CUDA_API_VERSION=13000) runs a kernel through them; the other
// tests call the versioned names directly, with the bad input NVIDIA's
// documentation names.
#include <cuda.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "cuda13_program.h"

namespace streamhal::conformance {
namespace {

using Cuda13Conformance = DriverTest;

constexpr size_t kBytes = 4 * 4096;

TEST_F(Cuda13Conformance, CProgramWrittenForCuda13RunsAKernel) {
  char message[256] = "";
  EXPECT_EQ(RunCuda13Program(message, sizeof(message)), 0) << message;
  EXPECT_EQ(CudaCurrent(), nullptr);
}

TEST_F(Cuda13Conformance, CtxCreateV4AcceptsNullAndEmptyParameters) {
  CUexecAffinityParam unused = {};
  CUctxCreateParams empty = {};
  CUctxCreateParams no_affinity = {&unused, 0, nullptr};
  CUctxCreateParams* cases[] = {nullptr, &empty, &no_affinity};
  for (CUctxCreateParams* params : cases) {
    CUcontext context = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate_v4(&context, params, CU_CTX_SCHED_BLOCKING_SYNC, 0));
    EXPECT_EQ(CudaCurrent(), context);
    unsigned flags = 0;
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&flags));
    EXPECT_EQ(flags & CU_CTX_SCHED_MASK, unsigned{CU_CTX_SCHED_BLOCKING_SYNC});
    EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  }
  // cuCtxCreate_v3 without affinity parameters is an ordinary context too.
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate_v3(&context, nullptr, 0, 0, 0));
  EXPECT_EQ(CudaCurrent(), context);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(Cuda13Conformance, CtxCreateV4RejectsWhatItCannotHonourAndCreatesNothing) {
  // streamhal has no execution-affinity or CUDA-in-graphics contexts.
  ProvesLimitation();
  CUexecAffinityParam sm_count = {};
  sm_count.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
  sm_count.param.smCount.val = 1;
  CUexecAffinityParam bad_type = sm_count;
  bad_type.type = CU_EXEC_AFFINITY_TYPE_MAX;
  int shared = 0;
  CUctxCigParam cig = {CIG_DATA_TYPE_NV_BLOB, &shared};
  CUctxCigParam cig_without_data = {CIG_DATA_TYPE_NV_BLOB, nullptr};
  CUctxCigParam cig_bad_type = {static_cast<CUcigDataType>(3), &shared};
  struct Case {
    CUctxCreateParams params;
    CUresult expected;
  };
  const Case cases[] = {
      {{nullptr, 1, nullptr}, CUDA_ERROR_INVALID_VALUE},     // a count without an array
      {{&sm_count, -1, nullptr}, CUDA_ERROR_INVALID_VALUE},  // a negative count
      {{&bad_type, 1, nullptr}, CUDA_ERROR_INVALID_VALUE},   // no such affinity type
      {{&sm_count, 1, &cig}, CUDA_ERROR_INVALID_VALUE},      // affinity and CIG at once
      {{nullptr, 0, &cig_without_data}, CUDA_ERROR_INVALID_VALUE},
      {{nullptr, 0, &cig_bad_type}, CUDA_ERROR_INVALID_VALUE},
      // Valid requests streamhal cannot honour.
      {{&sm_count, 1, nullptr}, CUDA_ERROR_NOT_SUPPORTED},
      {{nullptr, 0, &cig}, CUDA_ERROR_NOT_SUPPORTED},
  };
  for (const Case& c : cases) {
    CUcontext context = nullptr;
    CUctxCreateParams params = c.params;
    EXPECT_CU(c.expected, cuCtxCreate_v4(&context, &params, 0, 0));
    EXPECT_EQ(context, nullptr);
    EXPECT_EQ(CudaCurrent(), nullptr);
  }
  CUcontext context = nullptr;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuCtxCreate_v3(&context, &sm_count, 1, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate_v3(&context, nullptr, 1, 0, 0));
  // The arguments cuCtxCreate checks.
  CUctxCreateParams empty = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate_v4(nullptr, &empty, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE, cuCtxCreate_v4(&context, &empty, 0, device_count()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate_v4(&context, &empty, 0x10000, 0));
  EXPECT_EQ(context, nullptr);
  EXPECT_EQ(CudaCurrent(), nullptr);
}

class Cuda13ManagedConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_CU(CUDA_SUCCESS, cuMemAllocManaged(&managed_, kBytes, CU_MEM_ATTACH_GLOBAL));
  }
  void TearDown() override {
    if (managed_ != 0) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(managed_));
    }
    ContextTest::TearDown();
  }

  int Range(CUmem_range_attribute attribute) const {
    int value = 12345;
    EXPECT_CU(CUDA_SUCCESS,
              cuMemRangeGetAttribute(&value, sizeof(value), attribute, managed_, kBytes));
    return value;
  }

  CUdeviceptr managed_ = 0;
};

CUmemLocation Location(CUmemLocationType type, int id) {
  CUmemLocation location = {};
  location.type = type;
  location.id = id;
  return location;
}

TEST_F(Cuda13ManagedConformance, AdviseV2TakesDeviceAndHostLocations) {
  const auto preferred = [&] { return Range(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION); };
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                         Location(CU_MEM_LOCATION_TYPE_DEVICE, 0)));
  EXPECT_EQ(preferred(), 0);
  // The host, however named: the host is one NUMA node, id 0 (ids of the
  // host location types other than HOST_NUMA are ignored).
  const CUmemLocation hosts[] = {Location(CU_MEM_LOCATION_TYPE_HOST, 77),
                                 Location(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0),
                                 Location(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 77)};
  for (const CUmemLocation& host : hosts) {
    ASSERT_CU(CUDA_SUCCESS,
              cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, host));
    EXPECT_EQ(preferred(), CU_DEVICE_INVALID);
    ASSERT_CU(CUDA_SUCCESS,
              cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, host));
    EXPECT_EQ(preferred(), CU_DEVICE_CPU);
  }
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_ACCESSED_BY,
                                         Location(CU_MEM_LOCATION_TYPE_DEVICE, 0)));
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_ACCESSED_BY,
                                         Location(CU_MEM_LOCATION_TYPE_HOST, 0)));
  int accessed[3] = {7, 7, 7};
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRangeGetAttribute(accessed, sizeof(accessed), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                   managed_, kBytes));
  EXPECT_EQ(accessed[0], CU_DEVICE_CPU);
  EXPECT_EQ(accessed[1], 0);
  EXPECT_EQ(accessed[2], CU_DEVICE_INVALID);
  // Read-mostly advice ignores the location, even an invalid one.
  ASSERT_CU(CUDA_SUCCESS, cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_READ_MOSTLY,
                                         Location(CU_MEM_LOCATION_TYPE_INVALID, -5)));
  EXPECT_EQ(Range(CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY), 1);
}

TEST_F(Cuda13ManagedConformance, AdviseV2RejectsBadLocationsAndChangesNothing) {
  const CUmem_advise set = CU_MEM_ADVISE_SET_PREFERRED_LOCATION;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, kBytes, set, Location(CU_MEM_LOCATION_TYPE_INVALID, 0)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, kBytes, set, Location(static_cast<CUmemLocationType>(9), 0)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, kBytes, set, Location(CU_MEM_LOCATION_TYPE_HOST_NUMA, 3)));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuMemAdvise_v2(managed_, kBytes, set, Location(CU_MEM_LOCATION_TYPE_DEVICE, 99)));
  // CU_DEVICE_CPU is a CUdevice, not a device location.
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuMemAdvise_v2(managed_, kBytes, set, Location(CU_MEM_LOCATION_TYPE_DEVICE, -1)));
  // CUDA: accessed-by takes a device or the host, nothing else.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_ACCESSED_BY,
                           Location(CU_MEM_LOCATION_TYPE_HOST_NUMA, 0)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, kBytes, CU_MEM_ADVISE_SET_ACCESSED_BY,
                           Location(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0)));
  // The range and the advice are checked as cuMemAdvise checks them.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemAdvise_v2(managed_, 0, set, Location(CU_MEM_LOCATION_TYPE_DEVICE, 0)));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemAdvise_v2(managed_, kBytes, static_cast<CUmem_advise>(0),
                                                     Location(CU_MEM_LOCATION_TYPE_DEVICE, 0)));
  EXPECT_EQ(Range(CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION), CU_DEVICE_INVALID);
  int accessed = 7;
  ASSERT_CU(CUDA_SUCCESS,
            cuMemRangeGetAttribute(&accessed, sizeof(accessed), CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY,
                                   managed_, kBytes));
  EXPECT_EQ(accessed, CU_DEVICE_INVALID);
}

TEST_F(Cuda13ManagedConformance, PrefetchV2IsReportedAndRejectsBadArguments) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(
      CUDA_SUCCESS,
      cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_DEVICE, 0), 0, stream));
  EXPECT_EQ(Range(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION), 0);
  ASSERT_CU(CUDA_SUCCESS,
            cuMemPrefetchAsync_v2(managed_, kBytes,
                                  Location(CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT, 0), 0, stream));
  EXPECT_EQ(Range(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION), CU_DEVICE_CPU);
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));

  // CUDA: flags must be 0.
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_DEVICE, 0), 1, stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_INVALID, 0), 0,
                                  stream));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_HOST_NUMA, 2), 0,
                                  stream));
  EXPECT_CU(CUDA_ERROR_INVALID_DEVICE,
            cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_DEVICE, 99), 0,
                                  stream));
  EXPECT_CU(
      CUDA_ERROR_INVALID_VALUE,
      cuMemPrefetchAsync_v2(managed_, 0, Location(CU_MEM_LOCATION_TYPE_DEVICE, 0), 0, stream));
  EXPECT_EQ(Range(CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION), CU_DEVICE_CPU);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(
      CUDA_ERROR_INVALID_HANDLE,
      cuMemPrefetchAsync_v2(managed_, kBytes, Location(CU_MEM_LOCATION_TYPE_DEVICE, 0), 0, stream));
}

class Cuda13CaptureConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING));
    ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&data_, 256));
  }
  void TearDown() override {
    if (data_ != 0) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(data_));
    }
    if (stream_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream_));
    }
    ContextTest::TearDown();
  }

  CUstream stream_ = nullptr;
  CUdeviceptr data_ = 0;
};

TEST_F(Cuda13CaptureConformance, CaptureInfoV3ReturnsDefaultEdgesOfEachDependency) {
  // Outside a capture: the status, and no arrays.
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_ACTIVE;
  const CUgraphNode* nodes = reinterpret_cast<const CUgraphNode*>(this);
  const CUgraphEdgeData* edges = reinterpret_cast<const CUgraphEdgeData*>(this);
  size_t count = 99;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, &status, nullptr, nullptr, &nodes, &edges, &count));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  EXPECT_EQ(nodes, nullptr);
  EXPECT_EQ(edges, nullptr);

  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_RELAXED));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data_, 1, 64, stream_));
  CUgraph graph = nullptr;
  cuuint64_t id = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, &status, &id, &graph, &nodes, &edges, &count));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(id, 0u);
  ASSERT_EQ(count, 1u);
  ASSERT_NE(edges, nullptr);
  const CUgraphEdgeData zero = {};
  EXPECT_EQ(std::memcmp(&edges[0], &zero, sizeof(zero)), 0);
  // Two more dependencies, set over default edges: three edges, all zero.
  CUgraphNode added[2] = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&added[0], graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&added[1], graph, nullptr, 0));
  const CUgraphEdgeData default_edges[2] = {};
  ASSERT_CU(CUDA_SUCCESS, cuStreamUpdateCaptureDependencies_v2(stream_, added, default_edges, 2,
                                                               CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, &status, nullptr, nullptr, &nodes, &edges, &count));
  ASSERT_EQ(count, 3u);
  for (size_t i = 0; i < count; ++i) {
    EXPECT_EQ(std::memcmp(&edges[i], &zero, sizeof(zero)), 0) << i;
  }
  // Null edge data is default edges too; SET replaces the dependencies.
  ASSERT_CU(CUDA_SUCCESS, cuStreamUpdateCaptureDependencies_v2(stream_, added, nullptr, 1,
                                                               CU_STREAM_SET_CAPTURE_DEPENDENCIES));
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, nullptr, &nodes, &edges, &count));
  ASSERT_EQ(count, 1u);
  EXPECT_EQ(nodes[0], added[0]);
  CUgraph captured = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream_, &captured));
  EXPECT_EQ(captured, graph);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(captured));
}

TEST_F(Cuda13CaptureConformance, EdgeDataFormsRejectBadArguments) {
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_RELAXED));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data_, 1, 64, stream_));
  // CUDA: edgeData_out needs dependencies_out.
  const CUgraphEdgeData* edges = nullptr;
  size_t count = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, nullptr, nullptr, &edges, &count));
  CUgraph graph = nullptr;
  const CUgraphNode* nodes = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, &graph, &nodes, nullptr, &count));
  CUgraphNode node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&node, graph, nullptr, 0));
  // No node type has a to_port, reserved bytes are zero, and types and
  // ports are CUDA's.
  CUgraphEdgeData to_port = {};
  to_port.to_port = 1;
  CUgraphEdgeData reserved = {};
  reserved.reserved[4] = 1;
  CUgraphEdgeData bad_type = {};
  bad_type.type = 9;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &to_port, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &reserved, 1, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &bad_type, 1, 0));
  const CUgraphEdgeData zero = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &zero, 1, 7));
  // Nothing changed: the memset is still the one dependency.
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, nullptr, &nodes, &edges, &count));
  ASSERT_EQ(count, 1u);
  EXPECT_NE(nodes[0], node);
  CUgraph captured = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream_, &captured));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(captured));
  // A destroyed stream is an invalid handle.
  CUstream gone = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&gone, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(gone));
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuStreamGetCaptureInfo_v3(gone, &status, nullptr, nullptr, nullptr, nullptr, nullptr));
}

// Programmatic edges (a kernel's early trigger or launch order) need
// device-side signalling that Vulkan compute lacks.
TEST_F(Cuda13CaptureConformance, ProgrammaticEdgesAreNotSupported) {
  ProvesLimitation();
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_RELAXED));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data_, 1, 64, stream_));
  CUgraph graph = nullptr;
  const CUgraphNode* nodes = nullptr;
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, &graph, &nodes, nullptr, &count));
  CUgraphNode node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&node, graph, nullptr, 0));
  CUgraphEdgeData programmatic = {};
  programmatic.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  programmatic.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &programmatic, 1, 0));
  CUgraphEdgeData launch_order = {};
  launch_order.from_port = CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
            cuStreamUpdateCaptureDependencies_v2(stream_, &node, &launch_order, 1, 0));
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetCaptureInfo_v3(stream_, nullptr, nullptr, nullptr, &nodes, nullptr, &count));
  EXPECT_EQ(count, 1u);
  CUgraph captured = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream_, &captured));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(captured));
}

TEST_F(Cuda13CaptureConformance, EventElapsedTimeV2MeasuresAsTheFirstForm) {
  CUevent start = nullptr, stop = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&start, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&stop, CU_EVENT_DEFAULT));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(start, stream_));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data_, 3, 64, stream_));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(stop, stream_));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(stop));
  float v1 = -1.0f, v2 = -1.0f;
  ASSERT_CU(CUDA_SUCCESS, cuEventElapsedTime(&v1, start, stop));
  ASSERT_CU(CUDA_SUCCESS, cuEventElapsedTime_v2(&v2, start, stop));
  EXPECT_GE(v2, 0.0f);
  EXPECT_EQ(v1, v2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventElapsedTime_v2(nullptr, start, stop));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(start));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(stop));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime_v2(&v2, start, stop));
}

using Cuda13GraphConformance = ContextTest;

bool AllZero(const CUgraphEdgeData* edges, size_t count) {
  const CUgraphEdgeData zero = {};
  for (size_t i = 0; i < count; ++i) {
    if (std::memcmp(&edges[i], &zero, sizeof(zero)) != 0) return false;
  }
  return true;
}

TEST_F(Cuda13GraphConformance, EdgeDataCallsAddQueryAndRemoveDefaultEdges) {
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUgraphNode a = nullptr, b = nullptr, c = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&a, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&c, graph, nullptr, 0));
  // a -> b and a -> c with zeroed edge data, b -> c with none (default).
  const CUgraphNode from[2] = {a, a};
  const CUgraphNode to[2] = {b, c};
  const CUgraphEdgeData zero[2] = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies_v2(graph, from, to, zero, 2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies_v2(graph, &b, &c, nullptr, 1));

  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges_v2(graph, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ(count, 3u);
  CUgraphNode edge_from[4] = {}, edge_to[4] = {};
  CUgraphEdgeData edges[4];
  std::memset(edges, 0xff, sizeof(edges));
  count = 4;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges_v2(graph, edge_from, edge_to, edges, &count));
  EXPECT_EQ(count, 3u);
  EXPECT_TRUE(AllZero(edges, 3));

  CUgraphNode nodes[2] = {};
  CUgraphEdgeData node_edges[2];
  std::memset(node_edges, 0xff, sizeof(node_edges));
  count = 2;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetDependencies_v2(c, nodes, node_edges, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_TRUE(AllZero(node_edges, 2));
  std::memset(node_edges, 0xff, sizeof(node_edges));
  count = 2;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetDependentNodes_v2(a, nodes, node_edges, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_TRUE(AllZero(node_edges, 2));

  ASSERT_CU(CUDA_SUCCESS, cuGraphRemoveDependencies_v2(graph, &b, &c, zero, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges_v2(graph, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

TEST_F(Cuda13GraphConformance, EdgeDataCallsRejectBadArgumentsAndChangeNothing) {
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUgraphNode a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&a, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies_v2(graph, &a, &b, nullptr, 1));
  // CUDA: edge data needs the node arrays it belongs to.
  CUgraphNode nodes[2] = {};
  CUgraphEdgeData edges[2] = {};
  size_t count = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphGetEdges_v2(graph, nullptr, nodes, edges, &count));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetDependencies_v2(b, nullptr, edges, &count));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetDependentNodes_v2(a, nullptr, edges, &count));
  // Edge data CUDA does not define, and removing an edge that cannot exist.
  CUgraphEdgeData to_port = {};
  to_port.to_port = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies_v2(graph, &b, &a, &to_port, 1));
  CUgraphEdgeData programmatic = {};
  programmatic.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphRemoveDependencies_v2(graph, &a, &b, &programmatic, 1));
  // The checks of the first forms still apply.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphGetEdges_v2(graph, nodes, nodes, edges, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies_v2(graph, nullptr, &a, nullptr, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges_v2(graph, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ(count, 1u);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

// Programmatic edges need device-side signalling Vulkan compute lacks.
TEST_F(Cuda13GraphConformance, ProgrammaticGraphEdgesAreNotSupported) {
  ProvesLimitation();
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUgraphNode a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&a, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, graph, nullptr, 0));
  CUgraphEdgeData programmatic = {};
  programmatic.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
  programmatic.from_port = CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuGraphAddDependencies_v2(graph, &a, &b, &programmatic, 1));
  size_t count = 9;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges_v2(graph, nullptr, nullptr, nullptr, &count));
  EXPECT_EQ(count, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

}  // namespace
}  // namespace streamhal::conformance
