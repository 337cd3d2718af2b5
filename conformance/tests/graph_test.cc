// Rows: graphs (cuGraph*) and stream capture (cuStream*Capture*), through
// the CUDA API. Every graph really runs on the device: results are read
// back and compared with the same work done on streams.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

constexpr uint32_t kN = 1024;

// scale_offset's parameters for one buffer: data = data * scale + offset.
struct ScaleOffset {
  CUdeviceptr data = 0;
  float scale = 1.0f;
  float offset = 1.0f;
  uint32_t n = kN;
  void* params[4] = {&data, &scale, &offset, &n};

  CUDA_KERNEL_NODE_PARAMS Node(CUfunction function) {
    CUDA_KERNEL_NODE_PARAMS node = {};
    node.func = function;
    node.gridDimX = (n + 63) / 64;
    node.gridDimY = 1;
    node.gridDimZ = 1;
    node.blockDimX = 64;
    node.blockDimY = 1;
    node.blockDimZ = 1;
    node.kernelParams = params;
    return node;
  }
};

CUDA_MEMCPY3D DeviceCopy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  CUDA_MEMCPY3D copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = src;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = dst;
  copy.WidthInBytes = bytes;
  copy.Height = 1;
  copy.Depth = 1;
  return copy;
}

CUDA_MEMSET_NODE_PARAMS Fill32(CUdeviceptr dst, float value, size_t count) {
  CUDA_MEMSET_NODE_PARAMS memset = {};
  memset.dst = dst;
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  memset.value = bits;
  memset.elementSize = 4;
  memset.width = count;
  memset.height = 1;
  return memset;
}

class GraphConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    function_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(function_, nullptr);
  }
  CUdeviceptr Buffer(float value) {
    CUdeviceptr pointer = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, kN * sizeof(float)));
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(pointer, Bits(value), kN));
    return pointer;
  }
  static uint32_t Bits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    return bits;
  }
  std::vector<float> Read(CUdeviceptr pointer) { return CudaDownload<float>(pointer, kN); }
  // A graph of one increment (scale 1, offset `offset`) of `data`.
  CUgraph IncrementGraph(ScaleOffset* args, CUgraphNode* node = nullptr) {
    CUgraph graph = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
    CUDA_KERNEL_NODE_PARAMS params = args->Node(function_);
    CUgraphNode kernel = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&kernel, graph, nullptr, 0, &params));
    if (node != nullptr) *node = kernel;
    return graph;
  }

  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
};

// --- Explicit graphs ---------------------------------------------------------------

std::atomic<float> host_seen{0};
void ReadPinned(void* data) { host_seen.store(*static_cast<float*>(data)); }

TEST_F(GraphConformance, ExplicitGraphRunsEveryNodeKindInDependencyOrder) {
  CUdeviceptr a = Buffer(0), b = Buffer(0);
  float* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(reinterpret_cast<void**>(&pinned), kN * sizeof(float)));
  std::vector<float> pageable(kN, 0.0f);
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  // fill a = 1 -> a = 2a + 1 = 3 -> b = a -> b = b + 1 = 4 -> pinned = b,
  // pageable = b -> host node reads pinned.
  CUgraphNode fill, scale, copy, increment, to_pinned, to_pageable, host, empty;
  CUDA_MEMSET_NODE_PARAMS memset = Fill32(a, 1.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fill, graph, nullptr, 0, &memset, context()));
  ScaleOffset scale_args{a, 2.0f, 1.0f};
  CUDA_KERNEL_NODE_PARAMS scale_params = scale_args.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&scale, graph, &fill, 1, &scale_params));
  CUDA_MEMCPY3D d2d = DeviceCopy(b, a, kN * sizeof(float));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&copy, graph, &scale, 1, &d2d, context()));
  ScaleOffset inc_args{b, 1.0f, 1.0f};
  CUDA_KERNEL_NODE_PARAMS inc_params = inc_args.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&increment, graph, &copy, 1, &inc_params));
  CUDA_MEMCPY3D d2h = DeviceCopy(0, b, kN * sizeof(float));
  d2h.dstMemoryType = CU_MEMORYTYPE_HOST;
  d2h.dstHost = pinned;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&to_pinned, graph, &increment, 1, &d2h, context()));
  d2h.dstHost = pageable.data();
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphAddMemcpyNode(&to_pageable, graph, &increment, 1, &d2h, context()));
  CUDA_HOST_NODE_PARAMS host_params = {ReadPinned, pinned};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddHostNode(&host, graph, &to_pinned, 1, &host_params));
  CUgraphNode joins[2] = {host, to_pageable};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&empty, graph, joins, 2));

  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  host_seen.store(0);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Read(a), std::vector<float>(kN, 3.0f));
  EXPECT_EQ(Read(b), std::vector<float>(kN, 4.0f));
  EXPECT_EQ(std::vector<float>(pinned, pinned + kN), std::vector<float>(kN, 4.0f));
  EXPECT_EQ(pageable, std::vector<float>(kN, 4.0f));
  EXPECT_EQ(host_seen.load(), 4.0f);

  // The exec outlives its graph.
  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(Read(b), std::vector<float>(kN, 4.0f));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

TEST_F(GraphConformance, RelaunchedAThousandTimesOnTwoStreamsStaysExact) {
  ScaleOffset args{Buffer(0)};
  CUgraph graph = IncrementGraph(&args);
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiateWithFlags(&exec, graph, 0));
  CUstream streams[2] = {};
  for (CUstream& s : streams) ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
  // Launches of one exec are ordered whatever the stream.
  for (int i = 0; i < 1000; ++i) ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, streams[i / 100 % 2]));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1000.0f));
  // Destroying an exec with launches in flight is safe.
  for (int i = 0; i < 10; ++i) ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, streams[0]));
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(streams[0]));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1010.0f));
  for (CUstream s : streams) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

TEST_F(GraphConformance, ExecUpdatesTakeEffectOnTheNextLaunchOnly) {
  ScaleOffset args{Buffer(0)};
  CUgraphNode node = nullptr;
  CUgraph graph = IncrementGraph(&args, &node);
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1.0f));

  // Exec SetParams: offset 10 from the next launch on; the graph keeps 1.
  ScaleOffset ten{args.data, 1.0f, 10.0f};
  CUDA_KERNEL_NODE_PARAMS params = ten.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecKernelNodeSetParams(exec, node, &params));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1.0f));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 11.0f));

  // cuGraphExecUpdate from a graph of the same shape: offset 100.
  ScaleOffset hundred{args.data, 1.0f, 100.0f};
  CUgraph same = IncrementGraph(&hundred);
  CUgraphExecUpdateResultInfo info = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecUpdate(exec, same, &info));
  EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 111.0f));

  // A different topology is refused and changes nothing.
  CUgraphNode extra = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&extra, same, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, cuGraphExecUpdate(exec, same, &info));
  EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 211.0f));

  // Disabled nodes do nothing until enabled again.
  unsigned enabled = 7;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeSetEnabled(exec, node, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetEnabled(exec, node, &enabled));
  EXPECT_EQ(enabled, 0u);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 211.0f));
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeSetEnabled(exec, node, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 311.0f));

  cuuint64_t flags = 9;
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecGetFlags(exec, &flags));
  EXPECT_EQ(flags, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(same));
}

TEST_F(GraphConformance, ChildGraphsAndEventNodesOrderWorkAcrossGraphs) {
  CUdeviceptr data = Buffer(0);
  // child: two increments in a row.
  CUgraph child = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&child, 0));
  ScaleOffset inc{data};
  CUDA_KERNEL_NODE_PARAMS inc_params = inc.Node(function_);
  CUgraphNode first, second;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&first, child, nullptr, 0, &inc_params));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&second, child, &first, 1, &inc_params));
  // parent: fill 5 -> child (+2) -> x10 -> event record.
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  CUgraph parent = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&parent, 0));
  CUgraphNode fill, child_node, times_ten, record;
  CUDA_MEMSET_NODE_PARAMS five = Fill32(data, 5.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fill, parent, nullptr, 0, &five, context()));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddChildGraphNode(&child_node, parent, &fill, 1, child));
  ScaleOffset ten{data, 10.0f, 0.0f};
  CUDA_KERNEL_NODE_PARAMS ten_params = ten.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&times_ten, parent, &child_node, 1, &ten_params));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventRecordNode(&record, parent, &times_ten, 1, event));
  CUgraph embedded = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphChildGraphNodeGetGraph(child_node, &embedded));
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(embedded, nullptr, &count));
  EXPECT_EQ(count, 2u);
  CUevent got = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(record, &got));
  EXPECT_EQ(got, event);

  // consumer, on another stream: wait for the event -> +1.
  CUgraph consumer = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&consumer, 0));
  CUgraphNode wait, after;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventWaitNode(&wait, consumer, nullptr, 0, event));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&after, consumer, &wait, 1, &inc_params));

  CUgraphExec parent_exec = nullptr, consumer_exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&parent_exec, parent, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&consumer_exec, consumer, 0));
  CUstream s1 = nullptr, s2 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(parent_exec, s1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(consumer_exec, s2));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(s2));
  EXPECT_EQ(Read(data), std::vector<float>(kN, 71.0f));  // (5 + 2) * 10 + 1

  // Exec child update: the child now adds 3 per node (same shape).
  CUgraph child3 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphClone(&child3, child));
  ScaleOffset inc3{data, 1.0f, 3.0f};
  CUDA_KERNEL_NODE_PARAMS inc3_params = inc3.Node(function_);
  for (CUgraphNode original : {first, second}) {
    CUgraphNode copy = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuGraphNodeFindInClone(&copy, original, child3));
    ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeSetParams(copy, &inc3_params));
  }
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecChildGraphNodeSetParams(parent_exec, child_node, child3));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(parent_exec, s1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(s1));
  EXPECT_EQ(Read(data), std::vector<float>(kN, 110.0f));  // (5 + 6) * 10

  for (CUgraphExec e : {parent_exec, consumer_exec}) EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(e));
  for (CUgraph g : {child, parent, consumer, child3}) EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(g));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s1));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s2));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(event));
}

TEST_F(GraphConformance, NodesAndEdgesCanBeListedChangedAndPrinted) {
  ScaleOffset args{Buffer(0)};
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUgraphNode a, b, c;
  CUDA_KERNEL_NODE_PARAMS params = args.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&a, graph, nullptr, 0, &params));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, graph, &a, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&c, graph, nullptr, 0));
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 3u);
  CUgraphNode nodes[4] = {};
  count = 4;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nodes, &count));
  EXPECT_EQ(count, 3u);
  EXPECT_EQ(nodes[0], a);
  EXPECT_EQ(nodes[3], nullptr);
  count = 1;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(graph, nodes, &count));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(nodes[0], a);
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetRootNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 2u);
  CUgraphNode from[2] = {}, to[2] = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges(graph, nullptr, nullptr, &count));
  EXPECT_EQ(count, 1u);
  count = 2;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges(graph, from, to, &count));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(from[0], a);
  EXPECT_EQ(to[0], b);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies(graph, &b, &c, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddDependencies(graph, &b, &c, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetDependencies(c, nodes, &(count = 1)));
  EXPECT_EQ(nodes[0], b);
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetDependentNodes(a, nullptr, &count));
  EXPECT_EQ(count, 1u);
  ASSERT_CU(CUDA_SUCCESS, cuGraphRemoveDependencies(graph, &b, &c, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphRemoveDependencies(graph, &b, &c, 1));
  CUgraphNodeType type;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(a, &type));
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_KERNEL);
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(b, &type));
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_EMPTY);

  // Kernel node parameters read back, arguments included.
  CUDA_KERNEL_NODE_PARAMS read = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphKernelNodeGetParams(a, &read));
  EXPECT_EQ(read.func, function_);
  EXPECT_EQ(read.gridDimX, params.gridDimX);
  EXPECT_EQ(read.blockDimX, 64u);
  ASSERT_NE(read.kernelParams, nullptr);
  EXPECT_EQ(*static_cast<CUdeviceptr*>(read.kernelParams[0]), args.data);
  EXPECT_EQ(*static_cast<float*>(read.kernelParams[2]), 1.0f);

  // Graphviz: every node with its kind; the kernel by name.
  const std::string path = WriteTempFile("graph.dot", std::string());
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphDebugDotPrint(graph, path.c_str(), CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_NE(text.str().find("digraph"), std::string::npos);
  EXPECT_NE(text.str().find("scale_offset"), std::string::npos);
  EXPECT_NE(text.str().find("empty"), std::string::npos);
  EXPECT_NE(text.str().find("->"), std::string::npos);

  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroyNode(b));
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
  EXPECT_EQ(count, 2u);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(b, &type));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

TEST_F(GraphConformance, BadGraphsAndNodesGetClearErrors) {
  ScaleOffset args{Buffer(0)};
  CUgraph graph = nullptr, other = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&other, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(nullptr, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphCreate(&graph, 1));
  CUgraphNode a, b, foreign;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&a, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&b, graph, &a, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&foreign, other, nullptr, 0));
  CUgraphNode out = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&out, graph, &foreign, 1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&out, graph, nullptr, 1));
  CUgraphNode twice[2] = {a, a};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&out, graph, twice, 2));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&out, nullptr, nullptr, 0));

  // Parameters are checked when the node is added, as cuLaunchKernel would.
  CUDA_KERNEL_NODE_PARAMS params = args.Node(function_);
  params.blockDimX = 100000;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(&out, graph, nullptr, 0, &params));
  params = args.Node(function_);
  params.kernelParams = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddKernelNode(&out, graph, nullptr, 0, &params));
  CUDA_MEMCPY3D copy = DeviceCopy(args.data, args.data + 4, kN * sizeof(float));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemcpyNode(&out, graph, nullptr, 0, &copy, context()));
  CUDA_MEMSET_NODE_PARAMS memset = Fill32(args.data, 0.0f, kN);
  memset.elementSize = 3;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuGraphAddMemsetNode(&out, graph, nullptr, 0, &memset, context()));
  CUDA_HOST_NODE_PARAMS host = {nullptr, nullptr};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddHostNode(&out, graph, nullptr, 0, &host));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemFreeNode(&out, graph, nullptr, 0, args.data));

  // A cycle fails instantiation, naming a node of it.
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddDependencies(graph, &b, &a, 1));
  CUgraphExec exec = nullptr;
  CUDA_GRAPH_INSTANTIATE_PARAMS instantiate = {};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiateWithParams(&exec, graph, &instantiate));
  EXPECT_EQ(instantiate.result_out, CUDA_GRAPH_INSTANTIATE_INVALID_STRUCTURE);
  EXPECT_TRUE(instantiate.hErrNode_out == a || instantiate.hErrNode_out == b);
  ASSERT_CU(CUDA_SUCCESS, cuGraphRemoveDependencies(graph, &b, &a, 1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiateWithParams(&exec, graph, &instantiate));
  EXPECT_EQ(instantiate.result_out, CUDA_GRAPH_INSTANTIATE_SUCCESS);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecKernelNodeSetParams(exec, a, &params));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphNodeSetEnabled(exec, foreign, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(exec, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(exec));

  // A kernel node whose module is unloaded: instantiation and launch fail.
  CUmodule module = nullptr;
  CUfunction doomed = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  CUDA_KERNEL_NODE_PARAMS doomed_params = args.Node(doomed);
  CUgraph kernel_graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&kernel_graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&out, kernel_graph, nullptr, 0, &doomed_params));
  CUgraphExec kernel_exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&kernel_exec, kernel_graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(kernel_exec, 0));
  CUgraphExec again = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphInstantiate(&again, kernel_graph, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(kernel_exec));

  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddEmptyNode(&out, graph, nullptr, 0));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(other));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(kernel_graph));
  // Still working.
  ScaleOffset fresh{Buffer(0)};
  CUgraph ok = IncrementGraph(&fresh);
  CUgraphExec ok_exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&ok_exec, ok, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(ok_exec, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(0));
  EXPECT_EQ(Read(fresh.data), std::vector<float>(kN, 1.0f));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(ok_exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(ok));
}

std::atomic<int> host_calls{0};
void CountCall(void* data) { host_calls.fetch_add(*static_cast<int*>(data)); }

// Every node kind's parameters read back as set, and the exec forms change
// the next launch only, through the CUDA API.
TEST_F(GraphConformance, NodeParametersReadBackAndExecSettersChangeTheNextLaunch) {
  CUdeviceptr a = Buffer(0), b = Buffer(0);
  float* pinned = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocHost(reinterpret_cast<void**>(&pinned), kN * sizeof(float)));
  CUevent e1 = nullptr, e2 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  // fill a = 2 -> copy b = a -> copy pinned = b -> host(+1) -> record e1;
  // a wait on e1 first.
  CUgraphNode wait, fill, copy, download, host, record;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventWaitNode(&wait, graph, nullptr, 0, e1));
  CUDA_MEMSET_NODE_PARAMS memset = Fill32(a, 2.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fill, graph, &wait, 1, &memset, context()));
  CUDA_MEMCPY3D d2d = DeviceCopy(b, a, kN * sizeof(float));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&copy, graph, &fill, 1, &d2d, context()));
  CUDA_MEMCPY3D d2h = DeviceCopy(0, b, kN * sizeof(float));
  d2h.dstMemoryType = CU_MEMORYTYPE_HOST;
  d2h.dstHost = pinned;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&download, graph, &copy, 1, &d2h, context()));
  int one = 1, ten = 10;
  CUDA_HOST_NODE_PARAMS host_params = {CountCall, &one};
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddHostNode(&host, graph, &download, 1, &host_params));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEventRecordNode(&record, graph, &host, 1, e1));

  // Read back.
  CUDA_MEMSET_NODE_PARAMS memset_read = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(fill, &memset_read));
  EXPECT_EQ(memset_read.dst, a);
  EXPECT_EQ(memset_read.value, Bits(2.0f));
  EXPECT_EQ(memset_read.elementSize, 4u);
  EXPECT_EQ(memset_read.width, kN);
  CUDA_MEMCPY3D copy_read = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(download, &copy_read));
  EXPECT_EQ(copy_read.dstMemoryType, CU_MEMORYTYPE_HOST);
  EXPECT_EQ(copy_read.dstHost, pinned);
  EXPECT_EQ(copy_read.srcDevice, b);
  EXPECT_EQ(copy_read.WidthInBytes, kN * sizeof(float));
  CUDA_HOST_NODE_PARAMS host_read = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphHostNodeGetParams(host, &host_read));
  EXPECT_EQ(host_read.fn, &CountCall);
  EXPECT_EQ(host_read.userData, &one);
  CUevent event = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(wait, &event));
  EXPECT_EQ(event, e1);
  // The graph's own setters; wrong node kinds are refused.
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeSetEvent(wait, e2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(wait, &event));
  EXPECT_EQ(event, e2);
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeSetEvent(record, e2));
  ASSERT_CU(CUDA_SUCCESS, cuGraphEventRecordNodeGetEvent(record, &event));
  EXPECT_EQ(event, e2);
  memset = Fill32(a, 3.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeSetParams(fill, &memset));
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemcpyNodeSetParams(copy, &d2d));
  ASSERT_CU(CUDA_SUCCESS, cuGraphHostNodeSetParams(host, &host_params));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphMemsetNodeSetParams(copy, &memset));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphHostNodeGetParams(fill, &host_read));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphEventRecordNodeGetEvent(wait, &event));

  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS,
            cuGraphInstantiate(&exec, graph, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuGraphUpload(exec, stream));
  host_calls.store(0);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(std::vector<float>(pinned, pinned + kN), std::vector<float>(kN, 3.0f));
  EXPECT_EQ(host_calls.load(), 1);
  ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(e2));

  // Exec setters: fill 5, copy into pinned from a directly, host +10,
  // events swapped back; the graph keeps its own parameters.
  memset = Fill32(a, 5.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecMemsetNodeSetParams(exec, fill, &memset, context()));
  CUDA_MEMCPY3D from_a = d2h;
  from_a.srcDevice = a;
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecMemcpyNodeSetParams(exec, download, &from_a, context()));
  CUDA_HOST_NODE_PARAMS ten_params = {CountCall, &ten};
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecHostNodeSetParams(exec, host, &ten_params));
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecEventWaitNodeSetEvent(exec, wait, e1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecEventRecordNodeSetEvent(exec, record, e1));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphExecHostNodeSetParams(exec, fill, &ten_params));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(host_calls.load(), 1);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(std::vector<float>(pinned, pinned + kN), std::vector<float>(kN, 5.0f));
  EXPECT_EQ(host_calls.load(), 11);
  ASSERT_CU(CUDA_SUCCESS, cuEventQuery(e1));
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(fill, &memset_read));
  EXPECT_EQ(memset_read.value, Bits(3.0f));
  cuuint64_t flags = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecGetFlags(exec, &flags));
  EXPECT_EQ(flags, static_cast<cuuint64_t>(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH));

  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  for (CUevent e : {e1, e2}) EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(e));
  EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(pinned));
}

// --- Stream capture ------------------------------------------------------------------

// The same pipeline three ways: on streams, as a captured multi-stream graph
// and as an explicit graph: fill a = 1, b = 2; a = 3a + 1 on s1 while
// b = b + 5 on s2; a = a + b... as copies: c = a then c = 2c + 0.
TEST_F(GraphConformance, CapturedStreamsExplicitGraphsAndStreamsGiveTheSameResults) {
  auto run = [&](int how) {
    CUdeviceptr a = Buffer(0), b = Buffer(0), c = Buffer(0);
    CUstream s1 = nullptr, s2 = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
    EXPECT_CU(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
    CUevent fork = nullptr, join = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
    EXPECT_CU(CUDA_SUCCESS, cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
    ScaleOffset on_a{a, 3.0f, 1.0f}, on_b{b, 1.0f, 5.0f}, on_c{c, 2.0f, 0.0f};
    auto issue = [&] {
      EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(a, Bits(1.0f), kN, s1));
      EXPECT_CU(CUDA_SUCCESS, cuMemsetD32Async(b, Bits(2.0f), kN, s1));
      EXPECT_CU(CUDA_SUCCESS, cuEventRecord(fork, s1));
      EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(s2, fork, 0));
      EXPECT_CU(CUDA_SUCCESS,
                cuLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, s1, on_a.params, nullptr));
      EXPECT_CU(CUDA_SUCCESS,
                cuLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, s2, on_b.params, nullptr));
      EXPECT_CU(CUDA_SUCCESS, cuEventRecord(join, s2));
      EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(s1, join, 0));
      EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(c, b, kN * sizeof(float), s1));
      EXPECT_CU(CUDA_SUCCESS,
                cuLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, s1, on_c.params, nullptr));
    };
    if (how == 0) {
      issue();
      EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    } else {
      CUgraph graph = nullptr;
      if (how == 1) {
        EXPECT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
        issue();
        CUstreamCaptureStatus status;
        EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing(s2, &status));
        EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
        EXPECT_CU(CUDA_SUCCESS, cuStreamEndCapture(s1, &graph));
        EXPECT_CU(CUDA_SUCCESS, cuStreamIsCapturing(s2, &status));
        EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
        size_t count = 0;
        EXPECT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
        EXPECT_EQ(count, 6u);
        // Nothing ran while capturing.
        EXPECT_EQ(Read(a), std::vector<float>(kN, 0.0f));
      } else {
        EXPECT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
        CUgraphNode fa, fb, ka, kb, copy, kc;
        CUDA_MEMSET_NODE_PARAMS one = Fill32(a, 1.0f, kN), two = Fill32(b, 2.0f, kN);
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fa, graph, nullptr, 0, &one, context()));
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fb, graph, &fa, 1, &two, context()));
        CUDA_KERNEL_NODE_PARAMS pa = on_a.Node(function_), pb = on_b.Node(function_),
                                pc = on_c.Node(function_);
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&ka, graph, &fb, 1, &pa));
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&kb, graph, &fb, 1, &pb));
        CUgraphNode both[2] = {ka, kb};
        CUDA_MEMCPY3D d2d = DeviceCopy(c, b, kN * sizeof(float));
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&copy, graph, both, 2, &d2d, context()));
        EXPECT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&kc, graph, &copy, 1, &pc));
      }
      CUgraphExec exec = nullptr;
      EXPECT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
      EXPECT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, s1));
      EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(s1));
      EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
      EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
    }
    std::vector<float> result = Read(a);
    std::vector<float> more = Read(c);
    result.insert(result.end(), more.begin(), more.end());
    for (CUstream s : {s1, s2}) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
    for (CUevent e : {fork, join}) EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(e));
    return result;
  };
  const std::vector<float> streams = run(0);
  ASSERT_EQ(streams.size(), 2 * kN);
  EXPECT_EQ(streams[0], 4.0f);
  EXPECT_EQ(streams[kN], 14.0f);
  EXPECT_EQ(run(1), streams);
  EXPECT_EQ(run(2), streams);
}

TEST_F(GraphConformance, CaptureReportsItsStateAndDependencies) {
  ScaleOffset args{Buffer(0)};
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUstreamCaptureStatus status;
  ASSERT_CU(CUDA_SUCCESS, cuStreamIsCapturing(stream, &status));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, stream, args.params, nullptr));
  cuuint64_t id = 0;
  CUgraph graph = nullptr;
  const CUgraphNode* deps = nullptr;
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(id, 0u);
  ASSERT_EQ(count, 1u);
  CUgraphNodeType type;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(deps[0], &type));
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_KERNEL);
  // A node added by hand joins the stream's dependencies.
  CUgraphNode empty = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddEmptyNode(&empty, graph, nullptr, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamUpdateCaptureDependencies(stream, &empty, 1,
                                                            CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(count, 2u);
  ASSERT_CU(CUDA_SUCCESS, cuStreamUpdateCaptureDependencies(stream, &empty, 1,
                                                            CU_STREAM_SET_CAPTURE_DEPENDENCIES));
  ASSERT_CU(CUDA_SUCCESS, cuStreamGetCaptureInfo(stream, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(count, 1u);
  ASSERT_CU(CUDA_SUCCESS, cuLaunchHostFunc(stream, ReadPinned, &args.scale));
  CUgraph captured = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &captured));
  EXPECT_EQ(captured, graph);
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetEdges(captured, nullptr, nullptr, &count));
  EXPECT_EQ(count, 1u);  // empty -> host; the kernel is a root
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, captured, 0));
  host_seen.store(0);
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_EQ(host_seen.load(), 1.0f);
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1.0f));
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  ASSERT_CU(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
  EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
  ASSERT_CU(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&mode));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(captured));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

TEST_F(GraphConformance, ForbiddenCallsWhileCapturingGiveTheDocumentedErrors) {
  ScaleOffset args{Buffer(0)};
  CUstream s1 = nullptr, s2 = nullptr, blocking = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&blocking, CU_STREAM_DEFAULT));
  CUgraph graph = nullptr;
  // The legacy stream cannot be captured.
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            cuStreamBeginCapture(CU_STREAM_LEGACY, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_ILLEGAL_STATE, cuStreamEndCapture(s1, &graph));

  // A synchronisation invalidates the capture.
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamSynchronize(s1));
  CUstreamCaptureStatus status;
  ASSERT_CU(CUDA_SUCCESS, cuStreamIsCapturing(s1, &status));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_INVALIDATED);
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
            cuLaunchKernel(function_, 1, 1, 1, 64, 1, 1, 0, s1, args.params, nullptr));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &graph));
  EXPECT_EQ(graph, nullptr);

  // cuStreamAddCallback's callback runs once; capture users take
  // cuLaunchHostFunc.
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
            cuStreamAddCallback(
                s1, [](CUstream, CUresult, void*) {}, nullptr, 0));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &graph));

  // So does a query of the stream.
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(s1));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &graph));

  // A forked stream that is not joined back.
  CUevent fork = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(fork, s1));
  // An event recorded in a capture cannot be queried or waited on by the host.
  EXPECT_CU(CUDA_ERROR_CAPTURED_EVENT, cuEventQuery(fork));
  EXPECT_CU(CUDA_ERROR_CAPTURED_EVENT, cuEventSynchronize(fork));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(s2, fork, 0));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function_, 1, 1, 1, 64, 1, 1, 0, s2, args.params, nullptr));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, cuStreamEndCapture(s2, &graph));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &graph));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(fork, s1));
  ASSERT_CU(CUDA_SUCCESS, cuStreamWaitEvent(s2, fork, 0));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function_, 1, 1, 1, 64, 1, 1, 0, s2, args.params, nullptr));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, cuStreamEndCapture(s1, &graph));
  ASSERT_CU(CUDA_SUCCESS, cuStreamIsCapturing(s2, &status));
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_NONE);

  // Ending from another thread.
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  CUresult from_other = CUDA_SUCCESS;
  std::thread other([&] {
    cuCtxSetCurrent(context());
    from_other = cuStreamEndCapture(s1, &graph);
  });
  other.join();
  EXPECT_EQ(from_other, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(s1, &graph));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));

  // The legacy stream would synchronise with a capturing blocking stream.
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(blocking, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(
      CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
      cuLaunchKernel(function_, 1, 1, 1, 64, 1, 1, 0, CU_STREAM_LEGACY, args.params, nullptr));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(blocking, &graph));

  // Waiting in a capture on an event recorded outside it.
  CUevent outside = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&outside, CU_EVENT_DISABLE_TIMING));
  ASSERT_CU(CUDA_SUCCESS, cuEventRecord(outside, s2));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cuStreamWaitEvent(s1, outside, 0));
  EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &graph));

  // Everything still works afterwards.
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(args.data, 0, kN));
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, s1, args.params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(s1));
  EXPECT_EQ(Read(args.data), std::vector<float>(kN, 1.0f));
  for (CUevent e : {fork, outside}) EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(e));
  for (CUstream s : {s1, s2, blocking}) EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(s));
}

// An allocation node's memory: fixed when the node is made, used by nodes
// between it and the free node, on every launch.
// The graph memory attributes follow the allocation nodes' memory: it is
// used from the node's creation until the last graph holding it goes; the
// high watermark keeps the peak until it is reset (to 0 only). Nothing is
// cached, so reserved equals used and a trim keeps the numbers.
TEST_F(GraphConformance, GraphMemAttributesFollowAllocationNodes) {
  auto cuda_get = [](CUgraphMem_attribute attribute) {
    cuuint64_t value = ~0ull;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetGraphMemAttribute(0, attribute, &value));
    return value;
  };
  auto hip_get = [](hipGraphMemAttributeType attribute) {
    uint64_t value = ~0ull;
    EXPECT_HIP(hipSuccess, hipDeviceGetGraphMemAttribute(0, attribute, &value));
    return value;
  };
  cuuint64_t zero = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &zero));
  const cuuint64_t before = cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT);
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH), before);

  constexpr size_t kBytes = 1 << 20;
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS alloc = {};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  alloc.bytesize = kBytes;
  CUgraphNode alloc_node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc));
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), before + kBytes);
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT), before + kBytes);
  EXPECT_EQ(hip_get(hipGraphMemAttrUsedMemCurrent), before + kBytes);
  EXPECT_EQ(hip_get(hipGraphMemAttrReservedMemHigh), before + kBytes);
  // An executable graph shares the memory; a trim returns nothing.
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGraphMemTrim(0));
  EXPECT_HIP(hipSuccess, hipDeviceGraphMemTrim(0));
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), before + kBytes);
  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), before + kBytes);
  ASSERT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT), before);
  EXPECT_EQ(hip_get(hipGraphMemAttrReservedMemCurrent), before);
  // The peak stays until reset; HIP resets it the same way.
  EXPECT_EQ(cuda_get(CU_GRAPH_MEM_ATTR_USED_MEM_HIGH), before + kBytes);
  uint64_t hip_zero = 0;
  ASSERT_HIP(hipSuccess,
             hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrReservedMemHigh, &hip_zero));
  EXPECT_EQ(hip_get(hipGraphMemAttrUsedMemHigh), before);
}

TEST_F(GraphConformance, GraphMemAttributesRejectBadArguments) {
  cuuint64_t value = 0;
  uint64_t hip_value = 0;
  // Bad devices and null values (the sweep passes unknown attributes from C).
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
              cuDeviceGetGraphMemAttribute(-1, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &value),
              hipDeviceGetGraphMemAttribute(-1, hipGraphMemAttrUsedMemCurrent, &hip_value));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
              cuDeviceSetGraphMemAttribute(9999, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &value),
              hipDeviceSetGraphMemAttribute(9999, hipGraphMemAttrUsedMemHigh, &hip_value));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGraphMemTrim(9999), hipDeviceGraphMemTrim(-1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceGetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, nullptr),
              hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemCurrent, nullptr));
  // Only the high watermarks can be set, and only to 0.
  value = 0;
  hip_value = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, &value),
              hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrReservedMemCurrent, &hip_value));
  value = 5;
  hip_value = 5;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, &value),
              hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &hip_value));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceSetGraphMemAttribute(0, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, nullptr),
              hipDeviceSetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, nullptr));
}

TEST_F(GraphConformance, MemAllocAndFreeNodesBracketTheWorkThatUsesTheMemory) {
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS alloc = {};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  alloc.bytesize = kN * sizeof(float);
  CUmemAccessDesc access = {{CU_MEM_LOCATION_TYPE_DEVICE, 0}, CU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  alloc.accessDescs = &access;
  alloc.accessDescCount = 1;
  CUgraphNode alloc_node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemAllocNode(&alloc_node, graph, nullptr, 0, &alloc));
  ASSERT_NE(alloc.dptr, 0u);
  // fill 2, scale by 3 plus 1, copy out to ordinary memory, free.
  CUgraphNode fill = nullptr, kernel = nullptr, copy = nullptr, free_node = nullptr;
  CUDA_MEMSET_NODE_PARAMS memset = Fill32(alloc.dptr, 2.0f, kN);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemsetNode(&fill, graph, &alloc_node, 1, &memset, context()));
  ScaleOffset args;
  args.data = alloc.dptr;
  args.scale = 3.0f;
  CUDA_KERNEL_NODE_PARAMS kernel_params = args.Node(function_);
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddKernelNode(&kernel, graph, &fill, 1, &kernel_params));
  CUdeviceptr out = Buffer(0.0f);
  CUDA_MEMCPY3D copy_params = DeviceCopy(out, alloc.dptr, kN * sizeof(float));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemcpyNode(&copy, graph, &kernel, 1, &copy_params, context()));
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemFreeNode(&free_node, graph, &copy, 1, alloc.dptr));

  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(alloc_node, &type));
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_ALLOC);
  ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(free_node, &type));
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_MEM_FREE);
  CUDA_MEM_ALLOC_NODE_PARAMS read = {};
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemAllocNodeGetParams(alloc_node, &read));
  EXPECT_EQ(read.dptr, alloc.dptr);
  EXPECT_EQ(read.bytesize, alloc.bytesize);
  EXPECT_EQ(read.poolProps.location.id, 0);
  CUdeviceptr freed = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphMemFreeNodeGetParams(free_node, &freed));
  EXPECT_EQ(freed, alloc.dptr);

  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 3; ++launch) {
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, kN));
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, nullptr));
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
    for (float value : Read(out)) ASSERT_EQ(value, 7.0f);
  }
  // Freed once in the graph only, and only the graph's own allocations.
  CUgraphNode again = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemFreeNode(&again, graph, nullptr, 0, alloc.dptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemFreeNode(&again, graph, nullptr, 0, out));
  // Wrong node kinds and bad parameters.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphMemAllocNodeGetParams(free_node, &read));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphMemFreeNodeGetParams(alloc_node, &freed));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphMemAllocNodeGetParams(alloc_node, nullptr));
  CUDA_MEM_ALLOC_NODE_PARAMS bad = alloc;
  bad.bytesize = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&again, graph, nullptr, 0, &bad));
  bad = alloc;
  bad.poolProps.location.id = 9;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&again, graph, nullptr, 0, &bad));
  bad = alloc;
  bad.accessDescs = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&again, graph, nullptr, 0, &bad));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemAllocNode(&again, graph, nullptr, 0, nullptr));
  // A graph with memory nodes does not become a child graph.
  CUgraph parent = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&parent, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuGraphAddChildGraphNode(&again, parent, nullptr, 0, graph));

  // The executable graph keeps the memory after the graph is gone.
  ASSERT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, kN));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  for (float value : Read(out)) ASSERT_EQ(value, 7.0f);
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(parent));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
}

// CUDA lets a program free an allocation its graph does not free with
// cuMemFree or cuMemFreeAsync after a launch; here the memory stays with the
// graph (core/graph_memory.h) and those calls refuse it.
TEST_F(GraphConformance, GraphMemoryIsFreedOnlyWithItsGraph) {
  ProvesLimitation();
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphCreate(&graph, 0));
  CUDA_MEM_ALLOC_NODE_PARAMS alloc = {};
  alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  alloc.poolProps.location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  alloc.bytesize = 4096;
  CUgraphNode node = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphAddMemAllocNode(&node, graph, nullptr, 0, &alloc));
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
  // The memory is usable after the launch, as CUDA promises...
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(alloc.dptr, 7, 1024));
  uint32_t word = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&word, alloc.dptr + 4092, 4));
  EXPECT_EQ(word, 7u);
  // ...but not the program's to free.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFree(alloc.dptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(alloc.dptr, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
}

// cuMemAllocAsync and cuMemFreeAsync in a capturing stream become
// allocation and free nodes.
TEST_F(GraphConformance, CapturedStreamOrderedAllocationBecomesMemoryNodes) {
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr out = Buffer(0.0f);
  CUdeviceptr plain = Buffer(0.0f);
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUdeviceptr scratch = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAllocAsync(&scratch, kN * sizeof(float), stream));
  ASSERT_NE(scratch, 0u);
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32Async(scratch, Bits(5.0f), kN, stream));
  ScaleOffset args;
  args.data = scratch;
  args.scale = 2.0f;
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernel(function_, (kN + 63) / 64, 1, 1, 64, 1, 1, 0, stream,
                                         args.params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoDAsync(out, scratch, kN * sizeof(float), stream));
  // Memory from outside the capture cannot be freed inside it.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(plain, stream));
  ASSERT_CU(CUDA_SUCCESS, cuMemFreeAsync(scratch, stream));
  CUgraph graph = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamEndCapture(stream, &graph));
  size_t count = 0;
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nullptr, &count));
  std::vector<CUgraphNode> nodes(count);
  ASSERT_CU(CUDA_SUCCESS, cuGraphGetNodes(graph, nodes.data(), &count));
  int allocs = 0, frees = 0;
  for (CUgraphNode node : nodes) {
    CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
    ASSERT_CU(CUDA_SUCCESS, cuGraphNodeGetType(node, &type));
    allocs += type == CU_GRAPH_NODE_TYPE_MEM_ALLOC;
    frees += type == CU_GRAPH_NODE_TYPE_MEM_FREE;
  }
  EXPECT_EQ(allocs, 1);
  EXPECT_EQ(frees, 1);
  CUgraphExec exec = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {
    ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(out, 0, kN));
    ASSERT_CU(CUDA_SUCCESS, cuGraphLaunch(exec, stream));
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
    for (float value : Read(out)) ASSERT_EQ(value, 11.0f);
  }
  EXPECT_CU(CUDA_SUCCESS, cuGraphExecDestroy(exec));
  EXPECT_CU(CUDA_SUCCESS, cuGraphDestroy(graph));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(out));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(plain));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
}

}  // namespace
}  // namespace streamhal::conformance
