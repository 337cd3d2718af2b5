// Graphs (cuGraph*): CUDA's structures to core's and back.
#include "core/graph.h"

#include <cuda.h>

#include <string>
#include <vector>

#include "copy_params.h"
#include "core/c_enum.h"
#include "core/graph_edge.h"
#include "core/graph_exec.h"
#include "core/graph_memory.h"
#include "core/handle.h"
#include "core/mem_pool.h"
#include "core/status.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::ToApiHandle;
using streamhal::cuda::ToCUresult;

namespace {

// Node handle arrays: CUgraphNode values are handle values already.
const uint64_t* Handles(const CUgraphNode* nodes) {
  static_assert(sizeof(CUgraphNode) == sizeof(uint64_t));
  return reinterpret_cast<const uint64_t*>(nodes);
}
uint64_t* Handles(CUgraphNode* nodes) { return reinterpret_cast<uint64_t*>(nodes); }

absl::Status ToLaunch(const CUDA_KERNEL_NODE_PARAMS* p, uint64_t* function,
                      streamhal::LaunchConfig* config) {
  if (p == nullptr) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "kernel node: nodeParams is null");
  }
  if (p->func == nullptr) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                            "kernel node: func is null (CUkernel library kernels are not "
                            "available)");
  }
  *function = HandleValue(p->func);
  config->grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
  config->block = {p->blockDimX, p->blockDimY, p->blockDimZ};
  config->shared_bytes = p->sharedMemBytes;
  config->kernel_params = p->kernelParams;
  streamhal::DecodeExtra(p->extra, CU_LAUNCH_PARAM_END, config);
  return absl::OkStatus();
}

absl::StatusOr<streamhal::MemsetNodeParams> ToMemset(const CUDA_MEMSET_NODE_PARAMS* p) {
  if (p == nullptr) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                            "memset node: memsetParams is null");
  }
  streamhal::MemsetNodeParams memset;
  memset.dst = p->dst;
  memset.pitch = p->pitch;
  memset.value = p->value;
  memset.element_size = p->elementSize;
  memset.width = p->width;
  memset.height = p->height;
  return memset;
}

absl::StatusOr<streamhal::HostNodeParams> ToHost(const CUDA_HOST_NODE_PARAMS* p) {
  if (p == nullptr) {
    return streamhal::Error(streamhal::ErrorCode::kInvalidValue, "host node: nodeParams is null");
  }
  return streamhal::HostNodeParams{p->fn, p->userData};
}

}  // namespace

extern "C" {

// --- Graphs and nodes ---

CUresult cuGraphCreate(CUgraph* graph, unsigned int flags) {
  return ToCUresult(streamhal::GraphCreate(HandleOut(graph), flags));
}

CUresult cuGraphDestroy(CUgraph graph) {
  return ToCUresult(streamhal::GraphDestroy(HandleValue(graph)));
}

CUresult cuGraphClone(CUgraph* clone, CUgraph original) {
  return ToCUresult(streamhal::GraphClone(HandleOut(clone), HandleValue(original)));
}

CUresult cuGraphNodeFindInClone(CUgraphNode* node, CUgraphNode original, CUgraph clone) {
  return ToCUresult(
      streamhal::GraphNodeFindInClone(HandleOut(node), HandleValue(original), HandleValue(clone)));
}

CUresult cuGraphAddKernelNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                              size_t count, const CUDA_KERNEL_NODE_PARAMS* params) {
  uint64_t function = 0;
  streamhal::LaunchConfig config;
  if (absl::Status s = ToLaunch(params, &function, &config); !s.ok()) return ToCUresult(s);
  return ToCUresult(streamhal::GraphAddKernelNode(HandleOut(node), HandleValue(graph),
                                                  Handles(dependencies), count, function, config));
}

CUresult cuGraphAddMemcpyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                              size_t count, const CUDA_MEMCPY3D* params, CUcontext) {
  absl::StatusOr<streamhal::Copy3DParams> copy = streamhal::cuda::ToCopy(params);
  if (!copy.ok()) return ToCUresult(copy.status());
  return ToCUresult(streamhal::GraphAddMemcpyNode(HandleOut(node), HandleValue(graph),
                                                  Handles(dependencies), count, *copy));
}

CUresult cuGraphAddMemsetNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                              size_t count, const CUDA_MEMSET_NODE_PARAMS* params, CUcontext) {
  absl::StatusOr<streamhal::MemsetNodeParams> memset = ToMemset(params);
  if (!memset.ok()) return ToCUresult(memset.status());
  return ToCUresult(streamhal::GraphAddMemsetNode(HandleOut(node), HandleValue(graph),
                                                  Handles(dependencies), count, *memset));
}

CUresult cuGraphAddHostNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                            size_t count, const CUDA_HOST_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::HostNodeParams> host = ToHost(params);
  if (!host.ok()) return ToCUresult(host.status());
  return ToCUresult(streamhal::GraphAddHostNode(HandleOut(node), HandleValue(graph),
                                                Handles(dependencies), count, *host));
}

CUresult cuGraphAddEmptyNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                             size_t count) {
  return ToCUresult(streamhal::GraphAddEmptyNode(HandleOut(node), HandleValue(graph),
                                                 Handles(dependencies), count));
}

CUresult cuGraphAddChildGraphNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                  size_t count, CUgraph child) {
  return ToCUresult(streamhal::GraphAddChildGraphNode(
      HandleOut(node), HandleValue(graph), Handles(dependencies), count, HandleValue(child)));
}

CUresult cuGraphAddEventRecordNode(CUgraphNode* node, CUgraph graph,
                                   const CUgraphNode* dependencies, size_t count, CUevent event) {
  return ToCUresult(streamhal::GraphAddEventRecordNode(
      HandleOut(node), HandleValue(graph), Handles(dependencies), count, HandleValue(event)));
}

CUresult cuGraphAddEventWaitNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                 size_t count, CUevent event) {
  return ToCUresult(streamhal::GraphAddEventWaitNode(
      HandleOut(node), HandleValue(graph), Handles(dependencies), count, HandleValue(event)));
}

CUresult cuGraphAddMemAllocNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                                size_t count, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  absl::StatusOr<std::vector<streamhal::MemAccessDesc>> access =
      streamhal::ToMemAccessDescs(params->accessDescs, params->accessDescCount);
  if (!access.ok()) return ToCUresult(access.status());
  uint64_t address = 0;
  const CUresult result = ToCUresult(streamhal::GraphAddMemAllocNode(
      HandleOut(node), HandleValue(graph), Handles(dependencies), count,
      streamhal::ToMemPoolProps(params->poolProps), *access, params->bytesize, &address));
  if (result == CUDA_SUCCESS) params->dptr = address;
  return result;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode node, CUDA_MEM_ALLOC_NODE_PARAMS* params) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  streamhal::MemPoolProps props;
  uint64_t bytes = 0, address = 0;
  const CUresult result = ToCUresult(
      streamhal::GraphMemAllocNodeGetParams(HandleValue(node), &props, &bytes, &address));
  if (result != CUDA_SUCCESS) return result;
  *params = CUDA_MEM_ALLOC_NODE_PARAMS{};
  params->poolProps.allocType = static_cast<CUmemAllocationType>(props.allocation_type);
  params->poolProps.handleTypes = static_cast<CUmemAllocationHandleType>(props.handle_types);
  params->poolProps.location.type = static_cast<CUmemLocationType>(props.location_type);
  params->poolProps.location.id = props.location_id;
  params->poolProps.maxSize = props.max_size;
  params->bytesize = bytes;
  params->dptr = address;
  return CUDA_SUCCESS;
}

CUresult cuGraphAddMemFreeNode(CUgraphNode* node, CUgraph graph, const CUgraphNode* dependencies,
                               size_t count, CUdeviceptr dptr) {
  return ToCUresult(streamhal::GraphAddMemFreeNode(HandleOut(node), HandleValue(graph),
                                                   Handles(dependencies), count, dptr));
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode node, CUdeviceptr* dptr) {
  uint64_t address = 0;
  const CUresult result = ToCUresult(
      streamhal::GraphMemFreeNodeGetParams(HandleValue(node), dptr ? &address : nullptr));
  if (result == CUDA_SUCCESS) *dptr = address;
  return result;
}

CUresult cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  return ToCUresult(streamhal::DeviceGetGraphMemAttribute(device, streamhal::EnumArgument(attr),
                                                          static_cast<uint64_t*>(value)));
}

CUresult cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr, void* value) {
  return ToCUresult(streamhal::DeviceSetGraphMemAttribute(device, streamhal::EnumArgument(attr),
                                                          static_cast<const uint64_t*>(value)));
}

CUresult cuDeviceGraphMemTrim(CUdevice device) {
  return ToCUresult(streamhal::DeviceGraphMemTrim(device));
}

CUresult cuGraphGetNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
  return ToCUresult(streamhal::GraphGetNodes(HandleValue(graph), Handles(nodes), count));
}

CUresult cuGraphGetRootNodes(CUgraph graph, CUgraphNode* nodes, size_t* count) {
  return ToCUresult(streamhal::GraphGetRootNodes(HandleValue(graph), Handles(nodes), count));
}

CUresult cuGraphGetEdges(CUgraph graph, CUgraphNode* from, CUgraphNode* to, size_t* count) {
  return ToCUresult(
      streamhal::GraphGetEdges(HandleValue(graph), Handles(from), Handles(to), count));
}

CUresult cuGraphNodeGetType(CUgraphNode node, CUgraphNodeType* type) {
  if (type == nullptr) return CUDA_ERROR_INVALID_VALUE;
  streamhal::GraphNodeType core_type;
  CUresult result = ToCUresult(streamhal::GraphNodeGetType(HandleValue(node), &core_type));
  if (result == CUDA_SUCCESS) *type = static_cast<CUgraphNodeType>(core_type);
  return result;
}

CUresult cuGraphNodeGetDependencies(CUgraphNode node, CUgraphNode* dependencies, size_t* count) {
  return ToCUresult(
      streamhal::GraphNodeGetDependencies(HandleValue(node), Handles(dependencies), count));
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode node, CUgraphNode* dependents, size_t* count) {
  return ToCUresult(
      streamhal::GraphNodeGetDependentNodes(HandleValue(node), Handles(dependents), count));
}

CUresult cuGraphAddDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                size_t count) {
  return ToCUresult(
      streamhal::GraphAddDependencies(HandleValue(graph), Handles(from), Handles(to), count));
}

CUresult cuGraphRemoveDependencies(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                   size_t count) {
  return ToCUresult(
      streamhal::GraphRemoveDependencies(HandleValue(graph), Handles(from), Handles(to), count));
}

// The edge-data forms (CUDA 12.3; the plain names in CUDA 13.0). Every edge
// is a default edge: queries return zeroed data for each slot they fill.

CUresult cuGraphGetEdges_v2(CUgraph graph, CUgraphNode* from, CUgraphNode* to,
                            CUgraphEdgeData* edges, size_t* count) {
  // CUDA: edgeData needs from and to.
  if (edges != nullptr && (from == nullptr || to == nullptr)) return CUDA_ERROR_INVALID_VALUE;
  const size_t capacity = count != nullptr ? *count : 0;
  const CUresult result = cuGraphGetEdges(graph, from, to, count);
  if (result == CUDA_SUCCESS) {
    streamhal::WriteDefaultEdges(reinterpret_cast<streamhal::GraphEdgeData*>(edges), capacity);
  }
  return result;
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode node, CUgraphNode* dependencies,
                                       CUgraphEdgeData* edges, size_t* count) {
  if (edges != nullptr && dependencies == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const size_t capacity = count != nullptr ? *count : 0;
  const CUresult result = cuGraphNodeGetDependencies(node, dependencies, count);
  if (result == CUDA_SUCCESS) {
    streamhal::WriteDefaultEdges(reinterpret_cast<streamhal::GraphEdgeData*>(edges), capacity);
  }
  return result;
}

CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode node, CUgraphNode* dependents,
                                         CUgraphEdgeData* edges, size_t* count) {
  if (edges != nullptr && dependents == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const size_t capacity = count != nullptr ? *count : 0;
  const CUresult result = cuGraphNodeGetDependentNodes(node, dependents, count);
  if (result == CUDA_SUCCESS) {
    streamhal::WriteDefaultEdges(reinterpret_cast<streamhal::GraphEdgeData*>(edges), capacity);
  }
  return result;
}

CUresult cuGraphAddDependencies_v2(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                   const CUgraphEdgeData* edges, size_t count) {
  const CUresult checked = ToCUresult(streamhal::CheckDefaultEdgesOf(
      reinterpret_cast<const uint64_t*>(from), reinterpret_cast<const uint64_t*>(to),
      reinterpret_cast<const streamhal::GraphEdgeData*>(edges), count,
      "cuGraphAddDependencies_v2"));
  if (checked != CUDA_SUCCESS) return checked;
  return cuGraphAddDependencies(graph, from, to, count);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph graph, const CUgraphNode* from, const CUgraphNode* to,
                                      const CUgraphEdgeData* edges, size_t count) {
  const CUresult checked = ToCUresult(streamhal::CheckDefaultEdgesOf(
      reinterpret_cast<const uint64_t*>(from), reinterpret_cast<const uint64_t*>(to),
      reinterpret_cast<const streamhal::GraphEdgeData*>(edges), count,
      "cuGraphRemoveDependencies_v2"));
  // A programmatic edge cannot exist here, so removing one names no edge.
  if (checked == CUDA_ERROR_NOT_SUPPORTED) return CUDA_ERROR_INVALID_VALUE;
  if (checked != CUDA_SUCCESS) return checked;
  return cuGraphRemoveDependencies(graph, from, to, count);
}

CUresult cuGraphDestroyNode(CUgraphNode node) {
  return ToCUresult(streamhal::GraphDestroyNode(HandleValue(node)));
}

// --- Node parameters ---

CUresult cuGraphKernelNodeGetParams(CUgraphNode node, CUDA_KERNEL_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::GraphNode*> found =
      streamhal::GraphNodeOfType(HandleValue(node), streamhal::GraphNodeType::kKernel);
  if (!found.ok()) return ToCUresult(found.status());
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const auto& p = (*found)->as<streamhal::KernelNodeParams>();
  *params = CUDA_KERNEL_NODE_PARAMS{};
  params->func = ToApiHandle<CUfunction>(p.function);
  params->gridDimX = p.grid[0];
  params->gridDimY = p.grid[1];
  params->gridDimZ = p.grid[2];
  params->blockDimX = p.block[0];
  params->blockDimY = p.block[1];
  params->blockDimZ = p.block[2];
  params->sharedMemBytes = p.shared_bytes;
  params->kernelParams = (*found)->KernelParamPointers();
  return CUDA_SUCCESS;
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode node, const CUDA_KERNEL_NODE_PARAMS* params) {
  uint64_t function = 0;
  streamhal::LaunchConfig config;
  if (absl::Status s = ToLaunch(params, &function, &config); !s.ok()) return ToCUresult(s);
  return ToCUresult(streamhal::GraphKernelNodeSetParams(HandleValue(node), function, config));
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode node, CUDA_MEMCPY3D* params) {
  absl::StatusOr<streamhal::GraphNode*> found =
      streamhal::GraphNodeOfType(HandleValue(node), streamhal::GraphNodeType::kMemcpy);
  if (!found.ok()) return ToCUresult(found.status());
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  streamhal::cuda::FromCopy((*found)->as<streamhal::Copy3DParams>(), params);
  return CUDA_SUCCESS;
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode node, const CUDA_MEMCPY3D* params) {
  absl::StatusOr<streamhal::Copy3DParams> copy = streamhal::cuda::ToCopy(params);
  if (!copy.ok()) return ToCUresult(copy.status());
  return ToCUresult(streamhal::GraphMemcpyNodeSetParams(HandleValue(node), *copy));
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode node, CUDA_MEMSET_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::GraphNode*> found =
      streamhal::GraphNodeOfType(HandleValue(node), streamhal::GraphNodeType::kMemset);
  if (!found.ok()) return ToCUresult(found.status());
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const auto& p = (*found)->as<streamhal::MemsetNodeParams>();
  params->dst = p.dst;
  params->pitch = p.pitch;
  params->value = p.value;
  params->elementSize = p.element_size;
  params->width = p.width;
  params->height = p.height;
  return CUDA_SUCCESS;
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode node, const CUDA_MEMSET_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::MemsetNodeParams> memset = ToMemset(params);
  if (!memset.ok()) return ToCUresult(memset.status());
  return ToCUresult(streamhal::GraphMemsetNodeSetParams(HandleValue(node), *memset));
}

CUresult cuGraphHostNodeGetParams(CUgraphNode node, CUDA_HOST_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::GraphNode*> found =
      streamhal::GraphNodeOfType(HandleValue(node), streamhal::GraphNodeType::kHost);
  if (!found.ok()) return ToCUresult(found.status());
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const auto& p = (*found)->as<streamhal::HostNodeParams>();
  params->fn = p.fn;
  params->userData = p.data;
  return CUDA_SUCCESS;
}

CUresult cuGraphHostNodeSetParams(CUgraphNode node, const CUDA_HOST_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::HostNodeParams> host = ToHost(params);
  if (!host.ok()) return ToCUresult(host.status());
  return ToCUresult(streamhal::GraphHostNodeSetParams(HandleValue(node), *host));
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph* graph) {
  return ToCUresult(streamhal::GraphChildGraphNodeGetGraph(HandleValue(node), HandleOut(graph)));
}

namespace {

CUresult GetEvent(CUgraphNode node, streamhal::GraphNodeType type, CUevent* event) {
  absl::StatusOr<streamhal::GraphNode*> found = streamhal::GraphNodeOfType(HandleValue(node), type);
  if (!found.ok()) return ToCUresult(found.status());
  if (event == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *event = ToApiHandle<CUevent>((*found)->as<streamhal::EventNodeParams>().event);
  return CUDA_SUCCESS;
}

}  // namespace

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode node, CUevent* event) {
  return GetEvent(node, streamhal::GraphNodeType::kEventRecord, event);
}

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode node, CUevent event) {
  return ToCUresult(streamhal::GraphEventNodeSetEvent(
      HandleValue(node), streamhal::GraphNodeType::kEventRecord, HandleValue(event)));
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode node, CUevent* event) {
  return GetEvent(node, streamhal::GraphNodeType::kEventWait, event);
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode node, CUevent event) {
  return ToCUresult(streamhal::GraphEventNodeSetEvent(
      HandleValue(node), streamhal::GraphNodeType::kEventWait, HandleValue(event)));
}

CUresult cuGraphDebugDotPrint(CUgraph graph, const char* path, unsigned int flags) {
  return ToCUresult(streamhal::GraphDebugDotPrint(HandleValue(graph), path, flags));
}

// --- Executable graphs ---

CUresult cuGraphInstantiate(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
  return ToCUresult(streamhal::GraphInstantiate(HandleOut(exec), HandleValue(graph), flags, nullptr,
                                                nullptr, nullptr));
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph, unsigned long long flags) {
  return cuGraphInstantiate(exec, graph, flags);
}

CUresult cuGraphInstantiateWithParams(CUgraphExec* exec, CUgraph graph,
                                      CUDA_GRAPH_INSTANTIATE_PARAMS* params) {
  if (params == nullptr) return CUDA_ERROR_INVALID_VALUE;
  streamhal::InstantiateResult result = streamhal::InstantiateResult::kError;
  uint64_t error_node = 0;
  absl::Status status = streamhal::GraphInstantiate(HandleOut(exec), HandleValue(graph),
                                                    params->flags, &result, &error_node, nullptr);
  if (status.ok() && (params->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) != 0) {
    status = streamhal::GraphUpload(HandleValue(*exec), HandleValue(params->hUploadStream));
  }
  params->result_out = static_cast<CUgraphInstantiateResult>(result);
  params->hErrNode_out = ToApiHandle<CUgraphNode>(error_node);
  return ToCUresult(status);
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  return ToCUresult(streamhal::GraphExecDestroy(HandleValue(exec)));
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  return ToCUresult(streamhal::GraphLaunch(HandleValue(exec), HandleValue(stream)));
}

CUresult cuGraphUpload(CUgraphExec exec, CUstream stream) {
  return ToCUresult(streamhal::GraphUpload(HandleValue(exec), HandleValue(stream)));
}

CUresult cuGraphExecGetFlags(CUgraphExec exec, cuuint64_t* flags) {
  uint64_t value = 0;
  if (flags == nullptr) return CUDA_ERROR_INVALID_VALUE;
  CUresult result = ToCUresult(streamhal::GraphExecGetFlags(HandleValue(exec), &value));
  if (result == CUDA_SUCCESS) *flags = value;
  return result;
}

CUresult cuGraphExecUpdate(CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo* info) {
  if (info == nullptr) return CUDA_ERROR_INVALID_VALUE;
  streamhal::ExecUpdateResult result = streamhal::ExecUpdateResult::kError;
  uint64_t error_node = 0;
  uint64_t error_from = 0;
  absl::Status status = streamhal::GraphExecUpdate(HandleValue(exec), HandleValue(graph), &result,
                                                   &error_node, &error_from);
  info->result = static_cast<CUgraphExecUpdateResult>(result);
  info->errorNode = ToApiHandle<CUgraphNode>(error_node);
  info->errorFromNode = ToApiHandle<CUgraphNode>(error_from);
  return ToCUresult(status);
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_KERNEL_NODE_PARAMS* params) {
  uint64_t function = 0;
  streamhal::LaunchConfig config;
  if (absl::Status s = ToLaunch(params, &function, &config); !s.ok()) return ToCUresult(s);
  return ToCUresult(streamhal::GraphExecKernelNodeSetParams(HandleValue(exec), HandleValue(node),
                                                            function, config));
}

CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_MEMCPY3D* params, CUcontext) {
  absl::StatusOr<streamhal::Copy3DParams> copy = streamhal::cuda::ToCopy(params);
  if (!copy.ok()) return ToCUresult(copy.status());
  return ToCUresult(
      streamhal::GraphExecMemcpyNodeSetParams(HandleValue(exec), HandleValue(node), *copy));
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                        const CUDA_MEMSET_NODE_PARAMS* params, CUcontext) {
  absl::StatusOr<streamhal::MemsetNodeParams> memset = ToMemset(params);
  if (!memset.ok()) return ToCUresult(memset.status());
  return ToCUresult(
      streamhal::GraphExecMemsetNodeSetParams(HandleValue(exec), HandleValue(node), *memset));
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec exec, CUgraphNode node,
                                      const CUDA_HOST_NODE_PARAMS* params) {
  absl::StatusOr<streamhal::HostNodeParams> host = ToHost(params);
  if (!host.ok()) return ToCUresult(host.status());
  return ToCUresult(
      streamhal::GraphExecHostNodeSetParams(HandleValue(exec), HandleValue(node), *host));
}

CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec exec, CUgraphNode node, CUgraph child) {
  return ToCUresult(streamhal::GraphExecChildGraphNodeSetParams(
      HandleValue(exec), HandleValue(node), HandleValue(child)));
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return ToCUresult(streamhal::GraphExecEventNodeSetEvent(HandleValue(exec), HandleValue(node),
                                                          streamhal::GraphNodeType::kEventRecord,
                                                          HandleValue(event)));
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec exec, CUgraphNode node, CUevent event) {
  return ToCUresult(streamhal::GraphExecEventNodeSetEvent(HandleValue(exec), HandleValue(node),
                                                          streamhal::GraphNodeType::kEventWait,
                                                          HandleValue(event)));
}

CUresult cuGraphNodeSetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int enabled) {
  return ToCUresult(
      streamhal::GraphNodeSetEnabled(HandleValue(exec), HandleValue(node), enabled != 0));
}

CUresult cuGraphNodeGetEnabled(CUgraphExec exec, CUgraphNode node, unsigned int* enabled) {
  if (enabled == nullptr) return CUDA_ERROR_INVALID_VALUE;
  bool value = false;
  CUresult result =
      ToCUresult(streamhal::GraphNodeGetEnabled(HandleValue(exec), HandleValue(node), &value));
  if (result == CUDA_SUCCESS) *enabled = value ? 1 : 0;
  return result;
}

}  // extern "C"
