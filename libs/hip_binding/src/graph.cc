// Graphs (hipGraph*): HIP's structures to core's and back. A hipGraph_t is
// the CUgraph of the same core object, as contexts are.
#include "core/graph.h"

#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "call.h"
#include "copy_params.h"
#include "core/c_enum.h"
#include "core/context.h"
#include "core/graph_exec.h"
#include "core/graph_memory.h"
#include "core/handle.h"
#include "core/launch_params.h"
#include "core/mem_pool.h"
#include "core/status.h"

using streamhal::Copy3DParams;
using streamhal::CopyEnd;
using streamhal::EnumArgument;
using streamhal::ErrorCode;
using streamhal::GraphNodeType;
using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::MemoryType;
using streamhal::ToApiHandle;
using streamhal::hip::Address;
using streamhal::hip::EndTypes;
using streamhal::hip::Pointer;
using streamhal::hip::RuntimeCall;
using streamhal::hip::ToCopy;
using streamhal::hip::ToEnd;
using streamhal::hip::ToSymbolCopy;

namespace {

// Node handle arrays: hipGraphNode_t values are handle values already.
const uint64_t* Handles(const hipGraphNode_t* nodes) {
  static_assert(sizeof(hipGraphNode_t) == sizeof(uint64_t));
  return reinterpret_cast<const uint64_t*>(nodes);
}
uint64_t* Handles(hipGraphNode_t* nodes) { return reinterpret_cast<uint64_t*>(nodes); }

absl::Status ToLaunch(const hipKernelNodeParams* p, uint64_t* function,
                      streamhal::LaunchConfig* config) {
  if (p == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue, "kernel node: pNodeParams is null");
  }
  if (p->func == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue,
                            "kernel node: func is null (it is a hipFunction_t from "
                            "hipModuleGetFunction)");
  }
  *function = HandleValue(p->func);
  config->grid = {p->gridDim.x, p->gridDim.y, p->gridDim.z};
  config->block = {p->blockDim.x, p->blockDim.y, p->blockDim.z};
  config->shared_bytes = p->sharedMemBytes;
  config->kernel_params = p->kernelParams;
  streamhal::DecodeExtra(p->extra, HIP_LAUNCH_PARAM_END, config);
  return absl::OkStatus();
}

// A 1-D copy as AMD describes one: a single row of `count` bytes.
absl::StatusOr<Copy3DParams> ToCopy1D(void* dst, const void* src, size_t count,
                                      const hipMemcpyKind& kind) {
  MemoryType src_type, dst_type;
  SH_RETURN_IF_ERROR(EndTypes(EnumArgument(kind), &src_type, &dst_type));
  const hipPos origin = make_hipPos(0, 0, 0);
  Copy3DParams copy;
  copy.src = ToEnd(src_type, make_hipPitchedPtr(const_cast<void*>(src), count, count, 1), origin);
  copy.dst = ToEnd(dst_type, make_hipPitchedPtr(dst, count, count, 1), origin);
  copy.width = count;
  return copy;
}

hipMemcpyKind KindOf(MemoryType src, MemoryType dst) {
  const bool src_host = src == MemoryType::kHost, src_device = src == MemoryType::kDevice;
  const bool dst_host = dst == MemoryType::kHost, dst_device = dst == MemoryType::kDevice;
  if (src_host && dst_host) return hipMemcpyHostToHost;
  if (src_host && dst_device) return hipMemcpyHostToDevice;
  if (src_device && dst_host) return hipMemcpyDeviceToHost;
  if (src_device && dst_device) return hipMemcpyDeviceToDevice;
  return hipMemcpyDefault;  // an end's type is unified
}

// The node keeps no hipPitchedPtr::xsize: it reads back as the pitch.
void FromCopy(const Copy3DParams& copy, hipMemcpy3DParms* p) {
  *p = hipMemcpy3DParms{};
  auto fill = [](const CopyEnd& end, hipPitchedPtr* ptr, hipPos* pos) {
    *ptr = make_hipPitchedPtr(Pointer(end.address), end.pitch, end.pitch, end.height);
    *pos = make_hipPos(end.x, end.y, end.z);
  };
  fill(copy.src, &p->srcPtr, &p->srcPos);
  fill(copy.dst, &p->dstPtr, &p->dstPos);
  p->extent = make_hipExtent(copy.width, copy.height, copy.depth);
  p->kind = KindOf(copy.src.type, copy.dst.type);
}

// HIP_MEMCPY3D back from a node (hipDrvGraphMemcpyNodeGetParams): each end's
// memory type and its host or device pointer; arrays are no node ends.
void FromCopy(const Copy3DParams& copy, HIP_MEMCPY3D* p) {
  *p = HIP_MEMCPY3D{};
  auto type = [](MemoryType t) {
    switch (t) {
      case MemoryType::kHost:
        return hipMemoryTypeHost;
      case MemoryType::kDevice:
        return hipMemoryTypeDevice;
      case MemoryType::kArray:
        return hipMemoryTypeArray;
      default:
        return hipMemoryTypeUnified;
    }
  };
  p->srcMemoryType = type(copy.src.type);
  if (copy.src.type == MemoryType::kHost) {
    p->srcHost = Pointer(copy.src.address);
  } else {
    p->srcDevice = Pointer(copy.src.address);
  }
  p->srcXInBytes = copy.src.x;
  p->srcY = copy.src.y;
  p->srcZ = copy.src.z;
  p->srcPitch = copy.src.pitch;
  p->srcHeight = copy.src.height;
  p->dstMemoryType = type(copy.dst.type);
  if (copy.dst.type == MemoryType::kHost) {
    p->dstHost = Pointer(copy.dst.address);
  } else {
    p->dstDevice = Pointer(copy.dst.address);
  }
  p->dstXInBytes = copy.dst.x;
  p->dstY = copy.dst.y;
  p->dstZ = copy.dst.z;
  p->dstPitch = copy.dst.pitch;
  p->dstHeight = copy.dst.height;
  p->WidthInBytes = copy.width;
  p->Height = copy.height;
  p->Depth = copy.depth;
}

// The hipDrvGraph* forms name a context, which AMD requires (a null one is
// hipErrorInvalidValue); the node works in the graph's context as CUDA's
// cuGraphAddMemcpyNode does, so the context is only checked.
absl::Status CheckContext(hipCtx_t ctx, const char* api) {
  if (ctx == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue, api, ": ctx is null");
  }
  return streamhal::ResolveContext(HandleValue(ctx)).status();
}

absl::StatusOr<streamhal::MemsetNodeParams> ToMemset(const hipMemsetParams* p) {
  if (p == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue, "memset node: pMemsetParams is null");
  }
  streamhal::MemsetNodeParams memset;
  memset.dst = Address(p->dst);
  memset.pitch = p->pitch;
  memset.value = p->value;
  memset.element_size = p->elementSize;
  memset.width = p->width;
  memset.height = p->height;
  return memset;
}

absl::StatusOr<streamhal::HostNodeParams> ToHost(const hipHostNodeParams* p) {
  if (p == nullptr) {
    return streamhal::Error(ErrorCode::kInvalidValue, "host node: pNodeParams is null");
  }
  return streamhal::HostNodeParams{p->fn, p->userData};
}

// Runs `get` on the node when it has the asked type and `out` is given.
template <typename Out, typename Get>
hipError_t GetParams(hipGraphNode_t node, GraphNodeType type, Out* out, Get get) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::GraphNode * found,
                        streamhal::GraphNodeOfType(HandleValue(node), type));
    if (out == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "graph node parameters: output is null");
    }
    get(*found, out);
    return absl::OkStatus();
  });
}

}  // namespace

extern "C" {

// --- Graphs and nodes ---

hipError_t hipGraphCreate(hipGraph_t* pGraph, unsigned int flags) {
  return RuntimeCall([&] { return streamhal::GraphCreate(HandleOut(pGraph), flags); });
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
  return RuntimeCall([&] { return streamhal::GraphDestroy(HandleValue(graph)); });
}

hipError_t hipGraphClone(hipGraph_t* pGraphClone, hipGraph_t originalGraph) {
  return RuntimeCall(
      [&] { return streamhal::GraphClone(HandleOut(pGraphClone), HandleValue(originalGraph)); });
}

hipError_t hipGraphNodeFindInClone(hipGraphNode_t* pNode, hipGraphNode_t originalNode,
                                   hipGraph_t clonedGraph) {
  return RuntimeCall([&] {
    return streamhal::GraphNodeFindInClone(HandleOut(pNode), HandleValue(originalNode),
                                           HandleValue(clonedGraph));
  });
}

hipError_t hipGraphAddKernelNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipKernelNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    uint64_t function = 0;
    streamhal::LaunchConfig config;
    SH_RETURN_IF_ERROR(ToLaunch(pNodeParams, &function, &config));
    return streamhal::GraphAddKernelNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, function, config);
  });
}

hipError_t hipGraphAddMemcpyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipMemcpy3DParms* pCopyParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(pCopyParams));
    return streamhal::GraphAddMemcpyNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, copy);
  });
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies, size_t numDependencies,
                                   void* dst, const void* src, size_t count, hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy1D(dst, src, count, kind));
    return streamhal::GraphAddMemcpyNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, copy);
  });
}

hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t* pDependencies,
                                         size_t numDependencies, const void* symbol,
                                         const void* src, size_t count, size_t offset,
                                         hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy,
                        ToSymbolCopy(symbol, const_cast<void*>(src), count, offset,
                                     EnumArgument(kind), /*to_symbol=*/true));
    return streamhal::GraphAddMemcpyNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, copy);
  });
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t* pDependencies,
                                           size_t numDependencies, void* dst, const void* symbol,
                                           size_t count, size_t offset, hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToSymbolCopy(symbol, dst, count, offset,
                                                        EnumArgument(kind), /*to_symbol=*/false));
    return streamhal::GraphAddMemcpyNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, copy);
  });
}

hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t* dependencies, size_t numDependencies,
                                    const HIP_MEMCPY3D* copyParams, hipCtx_t ctx) {
  return RuntimeCall([&]() -> absl::Status {
    SH_RETURN_IF_ERROR(CheckContext(ctx, "hipDrvGraphAddMemcpyNode"));
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(copyParams));
    return streamhal::GraphAddMemcpyNode(HandleOut(phGraphNode), HandleValue(hGraph),
                                         Handles(dependencies), numDependencies, copy);
  });
}

hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t* dependencies, size_t numDependencies,
                                    const hipMemsetParams* memsetParams, hipCtx_t ctx) {
  return RuntimeCall([&]() -> absl::Status {
    SH_RETURN_IF_ERROR(CheckContext(ctx, "hipDrvGraphAddMemsetNode"));
    SH_ASSIGN_OR_RETURN(streamhal::MemsetNodeParams memset, ToMemset(memsetParams));
    return streamhal::GraphAddMemsetNode(HandleOut(phGraphNode), HandleValue(hGraph),
                                         Handles(dependencies), numDependencies, memset);
  });
}

hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t* phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t* dependencies, size_t numDependencies,
                                     hipDeviceptr_t dptr) {
  return RuntimeCall([&] {
    return streamhal::GraphAddMemFreeNode(HandleOut(phGraphNode), HandleValue(hGraph),
                                          Handles(dependencies), numDependencies, Address(dptr));
  });
}

hipError_t hipGraphAddMemsetNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                 const hipGraphNode_t* pDependencies, size_t numDependencies,
                                 const hipMemsetParams* pMemsetParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::MemsetNodeParams memset, ToMemset(pMemsetParams));
    return streamhal::GraphAddMemsetNode(HandleOut(pGraphNode), HandleValue(graph),
                                         Handles(pDependencies), numDependencies, memset);
  });
}

hipError_t hipGraphAddHostNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                               const hipGraphNode_t* pDependencies, size_t numDependencies,
                               const hipHostNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::HostNodeParams host, ToHost(pNodeParams));
    return streamhal::GraphAddHostNode(HandleOut(pGraphNode), HandleValue(graph),
                                       Handles(pDependencies), numDependencies, host);
  });
}

hipError_t hipGraphAddEmptyNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                const hipGraphNode_t* pDependencies, size_t numDependencies) {
  return RuntimeCall([&] {
    return streamhal::GraphAddEmptyNode(HandleOut(pGraphNode), HandleValue(graph),
                                        Handles(pDependencies), numDependencies);
  });
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t* pDependencies, size_t numDependencies,
                                     hipGraph_t childGraph) {
  return RuntimeCall([&] {
    return streamhal::GraphAddChildGraphNode(HandleOut(pGraphNode), HandleValue(graph),
                                             Handles(pDependencies), numDependencies,
                                             HandleValue(childGraph));
  });
}

hipError_t hipGraphAddEventRecordNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t* pDependencies, size_t numDependencies,
                                      hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphAddEventRecordNode(HandleOut(pGraphNode), HandleValue(graph),
                                              Handles(pDependencies), numDependencies,
                                              HandleValue(event));
  });
}

hipError_t hipGraphAddEventWaitNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                    const hipGraphNode_t* pDependencies, size_t numDependencies,
                                    hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphAddEventWaitNode(HandleOut(pGraphNode), HandleValue(graph),
                                            Handles(pDependencies), numDependencies,
                                            HandleValue(event));
  });
}

hipError_t hipGraphAddMemAllocNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                   const hipGraphNode_t* pDependencies, size_t numDependencies,
                                   hipMemAllocNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    if (pNodeParams == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipGraphAddMemAllocNode: params are null");
    }
    SH_ASSIGN_OR_RETURN(
        std::vector<streamhal::MemAccessDesc> access,
        streamhal::ToMemAccessDescs(pNodeParams->accessDescs, pNodeParams->accessDescCount));
    uint64_t address = 0;
    SH_RETURN_IF_ERROR(streamhal::GraphAddMemAllocNode(
        HandleOut(pGraphNode), HandleValue(graph), Handles(pDependencies), numDependencies,
        streamhal::ToMemPoolProps(pNodeParams->poolProps), access, pNodeParams->bytesize,
        &address));
    pNodeParams->dptr = Pointer(address);
    return absl::OkStatus();
  });
}

hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    if (pNodeParams == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipGraphMemAllocNodeGetParams: params are null");
    }
    streamhal::MemPoolProps props;
    uint64_t bytes = 0, address = 0;
    SH_RETURN_IF_ERROR(
        streamhal::GraphMemAllocNodeGetParams(HandleValue(node), &props, &bytes, &address));
    *pNodeParams = hipMemAllocNodeParams{};
    pNodeParams->poolProps.allocType = static_cast<hipMemAllocationType>(props.allocation_type);
    pNodeParams->poolProps.handleTypes =
        static_cast<hipMemAllocationHandleType>(props.handle_types);
    pNodeParams->poolProps.location.type = static_cast<hipMemLocationType>(props.location_type);
    pNodeParams->poolProps.location.id = props.location_id;
    pNodeParams->poolProps.maxSize = props.max_size;
    pNodeParams->bytesize = bytes;
    pNodeParams->dptr = Pointer(address);
    return absl::OkStatus();
  });
}

hipError_t hipGraphAddMemFreeNode(hipGraphNode_t* pGraphNode, hipGraph_t graph,
                                  const hipGraphNode_t* pDependencies, size_t numDependencies,
                                  void* dev_ptr) {
  return RuntimeCall([&] {
    return streamhal::GraphAddMemFreeNode(HandleOut(pGraphNode), HandleValue(graph),
                                          Handles(pDependencies), numDependencies,
                                          Address(dev_ptr));
  });
}

// AMD writes the address into the pointer dev_ptr points to.
hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void* dev_ptr) {
  return RuntimeCall([&]() -> absl::Status {
    if (dev_ptr == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipGraphMemFreeNodeGetParams: dev_ptr is null");
    }
    uint64_t address = 0;
    SH_RETURN_IF_ERROR(streamhal::GraphMemFreeNodeGetParams(HandleValue(node), &address));
    *static_cast<void**>(dev_ptr) = Pointer(address);
    return absl::OkStatus();
  });
}

hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void* value) {
  return streamhal::hip::Call([&] {
    return streamhal::DeviceGetGraphMemAttribute(device, EnumArgument(attr),
                                                 static_cast<uint64_t*>(value));
  });
}

hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void* value) {
  return streamhal::hip::Call([&] {
    return streamhal::DeviceSetGraphMemAttribute(device, EnumArgument(attr),
                                                 static_cast<const uint64_t*>(value));
  });
}

hipError_t hipDeviceGraphMemTrim(int device) {
  return streamhal::hip::Call([&] { return streamhal::DeviceGraphMemTrim(device); });
}

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t* nodes, size_t* numNodes) {
  return RuntimeCall(
      [&] { return streamhal::GraphGetNodes(HandleValue(graph), Handles(nodes), numNodes); });
}

hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t* pRootNodes,
                                size_t* pNumRootNodes) {
  return RuntimeCall([&] {
    return streamhal::GraphGetRootNodes(HandleValue(graph), Handles(pRootNodes), pNumRootNodes);
  });
}

hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t* from, hipGraphNode_t* to,
                            size_t* numEdges) {
  return RuntimeCall([&] {
    return streamhal::GraphGetEdges(HandleValue(graph), Handles(from), Handles(to), numEdges);
  });
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType* pType) {
  return RuntimeCall([&]() -> absl::Status {
    if (pType == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipGraphNodeGetType: pType is null");
    }
    GraphNodeType type;
    SH_RETURN_IF_ERROR(streamhal::GraphNodeGetType(HandleValue(node), &type));
    // Core's node types have hipGraphNodeType's values.
    *pType = static_cast<hipGraphNodeType>(type);
    return absl::OkStatus();
  });
}

hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t* pDependencies,
                                       size_t* pNumDependencies) {
  return RuntimeCall([&] {
    return streamhal::GraphNodeGetDependencies(HandleValue(node), Handles(pDependencies),
                                               pNumDependencies);
  });
}

hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t* pDependentNodes,
                                         size_t* pNumDependentNodes) {
  return RuntimeCall([&] {
    return streamhal::GraphNodeGetDependentNodes(HandleValue(node), Handles(pDependentNodes),
                                                 pNumDependentNodes);
  });
}

hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                   const hipGraphNode_t* to, size_t numDependencies) {
  return RuntimeCall([&] {
    return streamhal::GraphAddDependencies(HandleValue(graph), Handles(from), Handles(to),
                                           numDependencies);
  });
}

hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t* from,
                                      const hipGraphNode_t* to, size_t numDependencies) {
  return RuntimeCall([&] {
    return streamhal::GraphRemoveDependencies(HandleValue(graph), Handles(from), Handles(to),
                                              numDependencies);
  });
}

hipError_t hipGraphDestroyNode(hipGraphNode_t node) {
  return RuntimeCall([&] { return streamhal::GraphDestroyNode(HandleValue(node)); });
}

// --- Node parameters ---

hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams* pNodeParams) {
  return GetParams(node, GraphNodeType::kKernel, pNodeParams,
                   [](streamhal::GraphNode& found, hipKernelNodeParams* out) {
                     const auto& p = found.as<streamhal::KernelNodeParams>();
                     *out = hipKernelNodeParams{};
                     out->func = ToApiHandle<void*>(p.function);
                     out->gridDim = dim3(p.grid[0], p.grid[1], p.grid[2]);
                     out->blockDim = dim3(p.block[0], p.block[1], p.block[2]);
                     out->sharedMemBytes = p.shared_bytes;
                     out->kernelParams = found.KernelParamPointers();
                     out->extra = nullptr;
                   });
}

hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node,
                                       const hipKernelNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    uint64_t function = 0;
    streamhal::LaunchConfig config;
    SH_RETURN_IF_ERROR(ToLaunch(pNodeParams, &function, &config));
    return streamhal::GraphKernelNodeSetParams(HandleValue(node), function, config);
  });
}

hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms* pNodeParams) {
  return GetParams(node, GraphNodeType::kMemcpy, pNodeParams,
                   [](streamhal::GraphNode& found, hipMemcpy3DParms* out) {
                     FromCopy(found.as<Copy3DParams>(), out);
                   });
}

hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(pNodeParams));
    return streamhal::GraphMemcpyNodeSetParams(HandleValue(node), copy);
  });
}

hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void* dst, const void* src,
                                         size_t count, hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy1D(dst, src, count, kind));
    return streamhal::GraphMemcpyNodeSetParams(HandleValue(node), copy);
  });
}

hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void* symbol,
                                               const void* src, size_t count, size_t offset,
                                               hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy,
                        ToSymbolCopy(symbol, const_cast<void*>(src), count, offset,
                                     EnumArgument(kind), /*to_symbol=*/true));
    return streamhal::GraphMemcpyNodeSetParams(HandleValue(node), copy);
  });
}

hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void* dst, const void* symbol,
                                                 size_t count, size_t offset, hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToSymbolCopy(symbol, dst, count, offset,
                                                        EnumArgument(kind), /*to_symbol=*/false));
    return streamhal::GraphMemcpyNodeSetParams(HandleValue(node), copy);
  });
}

hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t hNode, HIP_MEMCPY3D* nodeParams) {
  return GetParams(hNode, GraphNodeType::kMemcpy, nodeParams,
                   [](streamhal::GraphNode& found, HIP_MEMCPY3D* out) {
                     FromCopy(found.as<Copy3DParams>(), out);
                   });
}

hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t hNode, const HIP_MEMCPY3D* nodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(nodeParams));
    return streamhal::GraphMemcpyNodeSetParams(HandleValue(hNode), copy);
  });
}

hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams* pNodeParams) {
  return GetParams(node, GraphNodeType::kMemset, pNodeParams,
                   [](streamhal::GraphNode& found, hipMemsetParams* out) {
                     const auto& p = found.as<streamhal::MemsetNodeParams>();
                     *out = hipMemsetParams{};
                     out->dst = Pointer(p.dst);
                     out->elementSize = p.element_size;
                     out->height = p.height;
                     out->pitch = p.pitch;
                     out->value = p.value;
                     out->width = p.width;
                   });
}

hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::MemsetNodeParams memset, ToMemset(pNodeParams));
    return streamhal::GraphMemsetNodeSetParams(HandleValue(node), memset);
  });
}

hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams* pNodeParams) {
  return GetParams(node, GraphNodeType::kHost, pNodeParams,
                   [](streamhal::GraphNode& found, hipHostNodeParams* out) {
                     const auto& p = found.as<streamhal::HostNodeParams>();
                     out->fn = p.fn;
                     out->userData = p.data;
                   });
}

hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::HostNodeParams host, ToHost(pNodeParams));
    return streamhal::GraphHostNodeSetParams(HandleValue(node), host);
  });
}

hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t* pGraph) {
  return RuntimeCall(
      [&] { return streamhal::GraphChildGraphNodeGetGraph(HandleValue(node), HandleOut(pGraph)); });
}

hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out) {
  return GetParams(node, GraphNodeType::kEventRecord, event_out,
                   [](streamhal::GraphNode& found, hipEvent_t* out) {
                     *out = ToApiHandle<hipEvent_t>(found.as<streamhal::EventNodeParams>().event);
                   });
}

hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphEventNodeSetEvent(HandleValue(node), GraphNodeType::kEventRecord,
                                             HandleValue(event));
  });
}

hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t* event_out) {
  return GetParams(node, GraphNodeType::kEventWait, event_out,
                   [](streamhal::GraphNode& found, hipEvent_t* out) {
                     *out = ToApiHandle<hipEvent_t>(found.as<streamhal::EventNodeParams>().event);
                   });
}

hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphEventNodeSetEvent(HandleValue(node), GraphNodeType::kEventWait,
                                             HandleValue(event));
  });
}

hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char* path, unsigned int flags) {
  return RuntimeCall(
      [&] { return streamhal::GraphDebugDotPrint(HandleValue(graph), path, flags); });
}

// --- Executable graphs ---

// HIP's log buffer gets the failure's message (empty on success), cut to
// bufferSize - 1 characters and NUL-terminated.
hipError_t hipGraphInstantiate(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                               hipGraphNode_t* pErrorNode, char* pLogBuffer, size_t bufferSize) {
  uint64_t error_node = 0;
  std::string log;
  const hipError_t result = RuntimeCall([&] {
    absl::Status status = streamhal::GraphInstantiate(HandleOut(pGraphExec), HandleValue(graph), 0,
                                                      nullptr, &error_node, &log);
    if (!status.ok() && log.empty()) log = std::string(status.message());
    return status;
  });
  if (pErrorNode != nullptr) *pErrorNode = ToApiHandle<hipGraphNode_t>(error_node);
  if (pLogBuffer != nullptr && bufferSize > 0) {
    const size_t length = std::min(log.size(), bufferSize - 1);
    std::memcpy(pLogBuffer, log.data(), length);
    pLogBuffer[length] = '\0';
  }
  return result;
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                                        unsigned long long flags) {
  return RuntimeCall([&] {
    return streamhal::GraphInstantiate(HandleOut(pGraphExec), HandleValue(graph), flags, nullptr,
                                       nullptr, nullptr);
  });
}

hipError_t hipGraphInstantiateWithParams(hipGraphExec_t* pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams* instantiateParams) {
  return RuntimeCall([&]() -> absl::Status {
    if (instantiateParams == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipGraphInstantiateWithParams: instantiateParams is null");
    }
    streamhal::InstantiateResult result = streamhal::InstantiateResult::kError;
    uint64_t error_node = 0;
    const uint64_t flags = instantiateParams->flags;
    absl::Status status = streamhal::GraphInstantiate(HandleOut(pGraphExec), HandleValue(graph),
                                                      flags, &result, &error_node, nullptr);
    if (status.ok() && (flags & hipGraphInstantiateFlagUpload) != 0) {
      status = streamhal::GraphUpload(HandleValue(*pGraphExec),
                                      HandleValue(instantiateParams->uploadStream));
    }
    // Core's results have hipGraphInstantiateResult's values.
    instantiateParams->result_out = static_cast<hipGraphInstantiateResult>(result);
    instantiateParams->errNode_out = ToApiHandle<hipGraphNode_t>(error_node);
    return status;
  });
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  return RuntimeCall([&] { return streamhal::GraphExecDestroy(HandleValue(graphExec)); });
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  return RuntimeCall(
      [&] { return streamhal::GraphLaunch(HandleValue(graphExec), HandleValue(stream)); });
}

hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream) {
  return RuntimeCall(
      [&] { return streamhal::GraphUpload(HandleValue(graphExec), HandleValue(stream)); });
}

hipError_t hipGraphExecGetFlags(hipGraphExec_t graphExec, unsigned long long* flags) {
  return RuntimeCall([&]() -> absl::Status {
    if (flags == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue, "hipGraphExecGetFlags: flags is null");
    }
    uint64_t value = 0;
    SH_RETURN_IF_ERROR(streamhal::GraphExecGetFlags(HandleValue(graphExec), &value));
    *flags = value;
    return absl::OkStatus();
  });
}

// AMD's form (CUDA 11's): the failing node and the result come back through
// two pointers; the result is required, the node optional.
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph,
                              hipGraphNode_t* hErrorNode_out,
                              hipGraphExecUpdateResult* updateResult_out) {
  return RuntimeCall([&]() -> absl::Status {
    if (updateResult_out == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipGraphExecUpdate: updateResult_out is null");
    }
    streamhal::ExecUpdateResult result = streamhal::ExecUpdateResult::kError;
    uint64_t error_node = 0;
    absl::Status status = streamhal::GraphExecUpdate(HandleValue(hGraphExec), HandleValue(hGraph),
                                                     &result, &error_node, nullptr);
    // Core's results have hipGraphExecUpdateResult's values; HIP has none
    // past hipGraphExecUpdateErrorUnsupportedFunctionChange.
    *updateResult_out = result > streamhal::ExecUpdateResult::kUnsupportedFunctionChange
                            ? hipGraphExecUpdateError
                            : static_cast<hipGraphExecUpdateResult>(result);
    if (hErrorNode_out != nullptr) *hErrorNode_out = ToApiHandle<hipGraphNode_t>(error_node);
    return status;
  });
}

hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    uint64_t function = 0;
    streamhal::LaunchConfig config;
    SH_RETURN_IF_ERROR(ToLaunch(pNodeParams, &function, &config));
    return streamhal::GraphExecKernelNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   function, config);
  });
}

hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           hipMemcpy3DParms* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(pNodeParams));
    return streamhal::GraphExecMemcpyNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   copy);
  });
}

hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                             void* dst, const void* src, size_t count,
                                             hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy1D(dst, src, count, kind));
    return streamhal::GraphExecMemcpyNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   copy);
  });
}

hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const void* symbol, const void* src,
                                                   size_t count, size_t offset,
                                                   hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy,
                        ToSymbolCopy(symbol, const_cast<void*>(src), count, offset,
                                     EnumArgument(kind), /*to_symbol=*/true));
    return streamhal::GraphExecMemcpyNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   copy);
  });
}

hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                     void* dst, const void* symbol, size_t count,
                                                     size_t offset, hipMemcpyKind kind) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToSymbolCopy(symbol, dst, count, offset,
                                                        EnumArgument(kind), /*to_symbol=*/false));
    return streamhal::GraphExecMemcpyNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   copy);
  });
}

hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMCPY3D* copyParams, hipCtx_t ctx) {
  return RuntimeCall([&]() -> absl::Status {
    SH_RETURN_IF_ERROR(CheckContext(ctx, "hipDrvGraphExecMemcpyNodeSetParams"));
    SH_ASSIGN_OR_RETURN(Copy3DParams copy, ToCopy(copyParams));
    return streamhal::GraphExecMemcpyNodeSetParams(HandleValue(hGraphExec), HandleValue(hNode),
                                                   copy);
  });
}

hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const hipMemsetParams* memsetParams, hipCtx_t ctx) {
  return RuntimeCall([&]() -> absl::Status {
    SH_RETURN_IF_ERROR(CheckContext(ctx, "hipDrvGraphExecMemsetNodeSetParams"));
    SH_ASSIGN_OR_RETURN(streamhal::MemsetNodeParams memset, ToMemset(memsetParams));
    return streamhal::GraphExecMemsetNodeSetParams(HandleValue(hGraphExec), HandleValue(hNode),
                                                   memset);
  });
}

hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::MemsetNodeParams memset, ToMemset(pNodeParams));
    return streamhal::GraphExecMemsetNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                   memset);
  });
}

hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams* pNodeParams) {
  return RuntimeCall([&]() -> absl::Status {
    SH_ASSIGN_OR_RETURN(streamhal::HostNodeParams host, ToHost(pNodeParams));
    return streamhal::GraphExecHostNodeSetParams(HandleValue(hGraphExec), HandleValue(node), host);
  });
}

hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                               hipGraph_t childGraph) {
  return RuntimeCall([&] {
    return streamhal::GraphExecChildGraphNodeSetParams(HandleValue(hGraphExec), HandleValue(node),
                                                       HandleValue(childGraph));
  });
}

hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphExecEventNodeSetEvent(HandleValue(hGraphExec), HandleValue(hNode),
                                                 GraphNodeType::kEventRecord, HandleValue(event));
  });
}

hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                             hipEvent_t event) {
  return RuntimeCall([&] {
    return streamhal::GraphExecEventNodeSetEvent(HandleValue(hGraphExec), HandleValue(hNode),
                                                 GraphNodeType::kEventWait, HandleValue(event));
  });
}

hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int isEnabled) {
  return RuntimeCall([&] {
    return streamhal::GraphNodeSetEnabled(HandleValue(hGraphExec), HandleValue(hNode),
                                          isEnabled != 0);
  });
}

hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                  unsigned int* isEnabled) {
  return RuntimeCall([&]() -> absl::Status {
    if (isEnabled == nullptr) {
      return streamhal::Error(ErrorCode::kInvalidValue,
                              "hipGraphNodeGetEnabled: isEnabled is null");
    }
    bool enabled = false;
    SH_RETURN_IF_ERROR(
        streamhal::GraphNodeGetEnabled(HandleValue(hGraphExec), HandleValue(hNode), &enabled));
    *isEnabled = enabled ? 1 : 0;
    return absl::OkStatus();
  });
}

}  // extern "C"
