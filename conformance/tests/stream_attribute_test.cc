// Rows: stream attributes (cuStreamGetAttribute, cuStreamSetAttribute,
// cuStreamCopyAttributes, cuCtxResetPersistingL2Cache), stream and context identities
// (cuStreamGetId, cuCtxGetId, cuStreamGetDevice) and cuEventRecordWithFlags. CUDA-only calls: HIP
// has no twins of these.
#include <cuda.h>

#include <cstdint>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using StreamAttributeConformance = ContextTest;
using IdentityConformance = ContextTest;
using EventRecordFlagsConformance = ContextTest;

TEST_F(StreamAttributeConformance, SetValuesAreReadBackAndCopied) {
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&b, 0));
  CUstreamAttrValue value = {};
  // Defaults: automatic synchronisation, domain 0, the default domain map,
  // the creation priority and an empty window.
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetAttribute(a, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &value));
  EXPECT_EQ(value.syncPolicy, CU_SYNC_POLICY_AUTO);
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetAttribute(a, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &value));
  EXPECT_EQ(value.memSyncDomain, CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT);
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetAttribute(a, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &value));
  EXPECT_EQ(value.memSyncDomainMap.default_, 0);
  EXPECT_EQ(value.memSyncDomainMap.remote, 1);
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetAttribute(a, CU_LAUNCH_ATTRIBUTE_PRIORITY, &value));
  EXPECT_EQ(value.priority, 0);
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamGetAttribute(a, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value));
  EXPECT_EQ(value.accessPolicyWindow.num_bytes, 0u);

  // Set, read back.
  value = {};
  value.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamSetAttribute(a, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &value));
  value = {};
  value.memSyncDomain = CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE;
  ASSERT_CU(CUDA_SUCCESS, cuStreamSetAttribute(a, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &value));
  value = {};
  value.memSyncDomainMap.default_ = 1;
  value.memSyncDomainMap.remote = 0;
  ASSERT_CU(CUDA_SUCCESS, cuStreamSetAttribute(a, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &value));
  int least = 0, greatest = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&least, &greatest));
  value = {};
  value.priority = greatest - 5;  // clamped, as at creation
  ASSERT_CU(CUDA_SUCCESS, cuStreamSetAttribute(a, CU_LAUNCH_ATTRIBUTE_PRIORITY, &value));
  int priority = 1;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetPriority(a, &priority));
  EXPECT_EQ(priority, greatest);
  value = {};
  value.accessPolicyWindow.hitRatio = 0.5f;
  value.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_STREAMING;
  value.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_NORMAL;
  ASSERT_CU(CUDA_SUCCESS,
            cuStreamSetAttribute(a, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value));

  for (CUstream stream : {a, b}) {
    if (stream == b) {
      ASSERT_CU(CUDA_SUCCESS, cuStreamCopyAttributes(b, a));
    }
    SCOPED_TRACE(stream == a ? "set" : "copied");
    ASSERT_CU(CUDA_SUCCESS,
              cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &value));
    EXPECT_EQ(value.syncPolicy, CU_SYNC_POLICY_BLOCKING_SYNC);
    ASSERT_CU(CUDA_SUCCESS,
              cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &value));
    EXPECT_EQ(value.memSyncDomain, CU_LAUNCH_MEM_SYNC_DOMAIN_REMOTE);
    ASSERT_CU(CUDA_SUCCESS,
              cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &value));
    EXPECT_EQ(value.memSyncDomainMap.default_, 1);
    EXPECT_EQ(value.memSyncDomainMap.remote, 0);
    ASSERT_CU(CUDA_SUCCESS,
              cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value));
    EXPECT_EQ(value.accessPolicyWindow.hitRatio, 0.5f);
    EXPECT_EQ(value.accessPolicyWindow.hitProp, CU_ACCESS_PROPERTY_STREAMING);
  }
  // The priority is the stream's own: not copied.
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetAttribute(b, CU_LAUNCH_ATTRIBUTE_PRIORITY, &value));
  EXPECT_EQ(value.priority, 0);
  // Work still runs on a stream with attributes.
  CUdeviceptr data = CudaUpload(std::vector<uint32_t>(4, 0));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 7, 4, a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(a));
  EXPECT_EQ(CudaDownload<uint32_t>(data, 4), std::vector<uint32_t>(4, 7));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(b));
}

TEST_F(StreamAttributeConformance, BadAttributesValuesAndStreamsAreRejected) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, 0));
  CUstreamAttrValue value = {};
  // Launch attributes that are not stream attributes.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &value));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, &value));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamGetAttribute(stream, CU_LAUNCH_ATTRIBUTE_PRIORITY, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_PRIORITY, nullptr));
  // Values outside their enumerations, and a window larger than the
  // device's maximum (0: no persisting L2 cache).
  value.syncPolicy = static_cast<CUsynchronizationPolicy>(9);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, &value));
  value = {};
  value.memSyncDomain = static_cast<CUlaunchMemSyncDomain>(2);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, &value));
  value = {};
  value.accessPolicyWindow.num_bytes = 4096;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value));
  value = {};
  value.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, &value));
  // Streams that do not exist.
  CUstream foreign = reinterpret_cast<CUstream>(context());
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuStreamGetAttribute(foreign, CU_LAUNCH_ATTRIBUTE_PRIORITY, &value));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamCopyAttributes(stream, foreign));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuStreamSetAttribute(stream, CU_LAUNCH_ATTRIBUTE_PRIORITY, &value));
}

// No persisting L2 cache (the window maximum is 0): resetting it has nothing
// to do, and needs a context.
TEST_F(StreamAttributeConformance, PersistingL2ResetHasNothingToReset) {
  int persisting = -1;
  ASSERT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&persisting, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, 0));
  EXPECT_EQ(persisting, 0);
  EXPECT_CU(CUDA_SUCCESS, cuCtxResetPersistingL2Cache());
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxResetPersistingL2Cache());
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(popped));
}

TEST_F(IdentityConformance, StreamsAndContextsHaveDistinctStableIds) {
  CUstream a = nullptr, b = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&b, 0));
  unsigned long long id_a = 0, id_b = 0, again = 0, legacy = 0;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(a, &id_a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(b, &id_b));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(a, &again));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(nullptr, &legacy));
  EXPECT_NE(id_a, id_b);
  EXPECT_EQ(id_a, again);
  EXPECT_NE(legacy, id_a);
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(CU_STREAM_LEGACY, &again));
  EXPECT_EQ(again, legacy);
  // A new stream never gets the id of a destroyed one.
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&a, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetId(a, &again));
  EXPECT_NE(again, id_a);

  CUdevice device = -1;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetDevice(a, &device));
  EXPECT_EQ(device, 0);
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetDevice(nullptr, &device));
  EXPECT_EQ(device, 0);

  unsigned long long context_id = 0, current_id = 0, other_id = 0;
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetId(context(), &context_id));
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetId(nullptr, &current_id));
  EXPECT_EQ(context_id, current_id);
  CUcontext other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&other, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxGetId(other, &other_id));
  EXPECT_NE(other_id, context_id);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(other));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetId(other, &other_id));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(a));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(b));
}

TEST_F(IdentityConformance, BadArgumentsAreRejected) {
  unsigned long long id = 0;
  CUdevice device = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxGetId(context(), nullptr));
  CUstream foreign = reinterpret_cast<CUstream>(context());
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetId(foreign, &id));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuStreamGetDevice(foreign, &device));
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetId(nullptr, &id));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(popped));
}

TEST_F(EventRecordFlagsConformance, BothFlagsRecordOutsideACapture) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr data = CudaUpload(std::vector<uint32_t>(64, 0));
  for (unsigned flags : {CU_EVENT_RECORD_DEFAULT, CU_EVENT_RECORD_EXTERNAL}) {
    SCOPED_TRACE(flags);
    CUevent event = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DEFAULT));
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, flags + 1, 64, stream));
    ASSERT_CU(CUDA_SUCCESS, cuEventRecordWithFlags(event, stream, flags));
    ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(event));
    EXPECT_CU(CUDA_SUCCESS, cuEventQuery(event));
    // The event covers the fill: it is done once the event is.
    std::vector<uint32_t> host(64);
    ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(host.data(), data, 64 * sizeof(uint32_t)));
    EXPECT_EQ(host, std::vector<uint32_t>(64, flags + 1));
    EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(event));
  }
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(EventRecordFlagsConformance, ExternalRecordInACaptureIsAnEventRecordNode) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DEFAULT));
  CUdeviceptr data = CudaUpload(std::vector<uint32_t>(16, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(data, 5, 16, stream));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecordWithFlags(event, stream, CU_EVENT_RECORD_EXTERNAL));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &graph));
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
  ASSERT_EQ(count, 2u);
  std::vector<CUgraphNode> nodes(count);
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nodes.data(), &count));
  int records = 0;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
    ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(node, &type));
    if (type == CU_GRAPH_NODE_TYPE_EVENT_RECORD) ++records;
  }
  EXPECT_EQ(records, 1);
  // Launched, the node records the event after the fill.
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(event));
  std::vector<uint32_t> host(16);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(host.data(), data, 16 * sizeof(uint32_t)));
  EXPECT_EQ(host, std::vector<uint32_t>(16, 5));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(event));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(EventRecordFlagsConformance, BadFlagsEventsAndStreamsAreRejected) {
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DEFAULT));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(event, nullptr, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(event, nullptr, 0x80000000u));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuEventRecordWithFlags(nullptr, nullptr, CU_EVENT_RECORD_EXTERNAL));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuEventRecordWithFlags(event, reinterpret_cast<CUstream>(context()), 0));
  ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(event));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuEventRecordWithFlags(event, nullptr, 0));
}

}  // namespace
}  // namespace streamhal::conformance
