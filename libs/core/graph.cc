#include "core/graph.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/context.h"
#include "core/event.h"
#include "core/launch.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/status.h"

namespace streamhal {

const char* GraphNodeTypeName(GraphNodeType type) {
  switch (type) {
    case GraphNodeType::kKernel:
      return "kernel";
    case GraphNodeType::kMemcpy:
      return "memcpy";
    case GraphNodeType::kMemset:
      return "memset";
    case GraphNodeType::kHost:
      return "host";
    case GraphNodeType::kChildGraph:
      return "graph";
    case GraphNodeType::kEmpty:
      return "empty";
    case GraphNodeType::kEventWait:
      return "event wait";
    case GraphNodeType::kEventRecord:
      return "event record";
    case GraphNodeType::kMemAlloc:
      return "mem alloc";
    case GraphNodeType::kMemFree:
      return "mem free";
  }
  return "unknown";
}

// --- GraphNode ---

GraphNode::GraphNode(Graph* graph, GraphNodeType type, Params params)
    : Object(kKind), graph_(graph), type_(type), params_(std::move(params)) {}

void** GraphNode::KernelParamPointers() {
  param_pointers_.clear();
  const auto& kernel = std::get<KernelNodeParams>(params_);
  Function* function = LookupAs<Function>(kernel.function);
  if (function == nullptr) return nullptr;
  for (const ParamInfo& param : function->info().params) {
    param_pointers_.push_back(const_cast<uint8_t*>(kernel.param_block.data()) + param.offset);
  }
  return param_pointers_.empty() ? nullptr : param_pointers_.data();
}

// --- Graph ---

Graph::Graph(Context* context, GraphNode* owner)
    : Object(kKind), context_(context), owner_(owner) {}

Graph::~Graph() = default;

GraphNode* Graph::AddNode(GraphNodeType type, GraphNode::Params params,
                          absl::Span<GraphNode* const> dependencies) {
  nodes_.push_back(std::make_unique<GraphNode>(this, type, std::move(params)));
  GraphNode* node = nodes_.back().get();
  if (type == GraphNodeType::kChildGraph) {
    // The child was made before its owner existed; re-own a copy.
    auto& child = std::get<ChildGraphParams>(node->params_);
    child.graph = child.graph->Clone(node, nullptr);
  }
  for (GraphNode* dependency : dependencies) AddEdge(dependency, node);
  ++version_;
  return node;
}

bool Graph::HasEdge(const GraphNode* from, const GraphNode* to) {
  return std::find(to->dependencies_.begin(), to->dependencies_.end(), from) !=
         to->dependencies_.end();
}

void Graph::AddEdge(GraphNode* from, GraphNode* to) {
  to->dependencies_.push_back(from);
  from->dependents_.push_back(to);
  ++version_;
}

void Graph::RemoveEdge(GraphNode* from, GraphNode* to) {
  auto erase = [](std::vector<GraphNode*>& list, GraphNode* node) {
    list.erase(std::remove(list.begin(), list.end(), node), list.end());
  };
  erase(to->dependencies_, from);
  erase(from->dependents_, to);
  ++version_;
}

void Graph::RemoveNode(GraphNode* node) {
  for (GraphNode* dependency : std::vector<GraphNode*>(node->dependencies_)) {
    RemoveEdge(dependency, node);
  }
  for (GraphNode* dependent : std::vector<GraphNode*>(node->dependents_)) {
    RemoveEdge(node, dependent);
  }
  nodes_.erase(std::find_if(nodes_.begin(), nodes_.end(),
                            [node](const auto& owned) { return owned.get() == node; }));
  ++version_;
}

std::unique_ptr<Graph> Graph::Clone(
    GraphNode* owner, std::vector<std::pair<const GraphNode*, GraphNode*>>* map) const {
  auto copy = std::make_unique<Graph>(context_, owner);
  absl::flat_hash_map<const GraphNode*, GraphNode*> copies;
  for (const auto& node : nodes_) {
    GraphNode::Params params;
    if (node->type() == GraphNodeType::kChildGraph) {
      params = ChildGraphParams{};
    } else {
      std::visit(
          [&params](const auto& value) {
            using T = std::decay_t<decltype(value)>;
            if constexpr (!std::is_same_v<T, ChildGraphParams>) params = value;
          },
          node->params());
    }
    copy->nodes_.push_back(
        std::make_unique<GraphNode>(copy.get(), node->type(), std::move(params)));
    GraphNode* cloned = copy->nodes_.back().get();
    cloned->cloned_from_ = node->handle();
    if (node->type() == GraphNodeType::kChildGraph) {
      std::get<ChildGraphParams>(cloned->params_).graph =
          node->as<ChildGraphParams>().graph->Clone(cloned, map);
    }
    copies[node.get()] = cloned;
    if (map != nullptr) map->emplace_back(node.get(), cloned);
  }
  for (const auto& node : nodes_) {
    for (GraphNode* dependency : node->dependencies()) {
      copy->AddEdge(copies[dependency], copies[node.get()]);
    }
  }
  return copy;
}

std::vector<GraphNode*> Graph::TopologicalOrder(std::vector<GraphNode*>* cycle) const {
  // Kahn's algorithm, taking ready nodes in the order they were added so the
  // order (and so the recording) is stable.
  absl::flat_hash_map<const GraphNode*, size_t> waiting;
  std::vector<GraphNode*> order;
  order.reserve(nodes_.size());
  for (const auto& node : nodes_) {
    waiting[node.get()] = node->dependencies().size();
    if (node->dependencies().empty()) order.push_back(node.get());
  }
  for (size_t i = 0; i < order.size(); ++i) {
    for (GraphNode* dependent : order[i]->dependents()) {
      if (--waiting[dependent] == 0) order.push_back(dependent);
    }
  }
  if (order.size() == nodes_.size()) return order;
  if (cycle != nullptr) {
    cycle->clear();
    for (const auto& node : nodes_) {
      if (waiting[node.get()] > 0) cycle->push_back(node.get());
    }
  }
  return {};
}

// --- Resolution and checks ---

absl::StatusOr<Graph*> ResolveGraph(uint64_t handle) {
  HandleState state;
  Graph* graph = LookupAs<Graph>(handle, &state);
  if (graph == nullptr) {
    return Error(ErrorCode::kInvalidValue, "graph 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a graph", " has been destroyed"));
  }
  return graph;
}

absl::StatusOr<GraphNode*> ResolveGraphNode(uint64_t handle) {
  HandleState state;
  GraphNode* node = LookupAs<GraphNode>(handle, &state);
  if (node == nullptr) {
    return Error(ErrorCode::kInvalidValue, "graph node 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a graph node", " has been destroyed"));
  }
  return node;
}

absl::StatusOr<KernelNodeParams> MakeKernelNodeParams(uint64_t function_handle,
                                                      const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(Function * function, ResolveFunction(function_handle));
  if (function->module()->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidValue,
                 "kernel node: the function belongs to a module of another device");
  }
  SH_RETURN_IF_ERROR(ValidateLaunchDimensions(*function, config));
  KernelNodeParams params;
  params.function = function_handle;
  params.grid = config.grid;
  params.block = config.block;
  params.shared_bytes = config.shared_bytes;
  params.param_block.assign(std::max<uint32_t>(function->info().param_block_size, 1), 0);
  SH_RETURN_IF_ERROR(BuildParams(function->info(), config, params.param_block.data()));
  return params;
}

namespace {

// The bytes a copy end spans from its first byte to its last.
absl::StatusOr<uint64_t> Footprint(const CopyEnd& end, const Copy3DParams& copy, const char* what) {
  uint64_t row_end = 0;  // x + width
  if (__builtin_add_overflow(end.x, copy.width, &row_end)) {
    return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " x + width overflows");
  }
  if (copy.height > 1 || copy.depth > 1) {
    if (end.pitch < row_end) {
      return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " pitch ", end.pitch,
                   " is smaller than x + width = ", row_end);
    }
  }
  if (copy.depth > 1 && (end.height < end.y || end.height - end.y < copy.height)) {
    return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " height ", end.height,
                 " is smaller than y + Height");
  }
  // Last byte: ((z + depth - 1) * height + y + Height - 1) * pitch + x + width.
  uint64_t rows = 0, bytes = 0;
  if (__builtin_add_overflow(end.z, copy.depth - 1, &rows) ||
      __builtin_mul_overflow(rows, end.height, &rows) ||
      __builtin_add_overflow(rows, end.y, &rows) ||
      __builtin_add_overflow(rows, copy.height - 1, &rows) ||
      __builtin_mul_overflow(rows, end.pitch, &bytes) ||
      __builtin_add_overflow(bytes, row_end, &bytes)) {
    return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " extent overflows");
  }
  return bytes;
}

absl::Status ValidateEndType(const CopyEnd& end, const char* what) {
  switch (end.type) {
    case MemoryType::kHost:
    case MemoryType::kDevice:
    case MemoryType::kUnified:
      return absl::OkStatus();
    case MemoryType::kArray:
      // Arrays come with cuArrayCreate (issue 12); an array end will be
      // one more case here and in the copy's execution.
      return Error(ErrorCode::kNotSupported, "memcpy3D: ", what,
                   " is a CUDA array; arrays are not available yet");
    default:
      return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " memory type ",
                   static_cast<int>(end.type), " is unknown");
  }
}

absl::Status ValidateEnd(const CopyEnd& end, const Copy3DParams& copy, const char* what) {
  SH_RETURN_IF_ERROR(ValidateEndType(end, what));
  if (end.address == 0) return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what, " is null");
  SH_ASSIGN_OR_RETURN(uint64_t bytes, Footprint(end, copy, what));
  if (end.type == MemoryType::kDevice) {
    SH_RETURN_IF_ERROR(ResolveDeviceRange(end.address, bytes, what).status());
  } else if (end.type == MemoryType::kUnified) {
    const ResolvedPointer first = ResolveAnyRange(end.address, 1);
    if (first.is_device() && !ResolveAnyRange(end.address, bytes).is_device()) {
      return Error(ErrorCode::kInvalidValue, "memcpy3D: ", what,
                   " runs past the end of its allocation");
    }
  }
  return absl::OkStatus();
}

}  // namespace

uint64_t CopyRowOffset(const CopyEnd& end, uint64_t y, uint64_t z) {
  return ((end.z + z) * end.height + end.y + y) * end.pitch + end.x;
}

uint64_t CopyEndSpan(const CopyEnd& end, const Copy3DParams& copy) {
  return CopyRowOffset(end, copy.height - 1, copy.depth - 1) + copy.width;
}

absl::Status ValidateCopy3D(const Copy3DParams& copy, bool allow_empty) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  const bool empty = copy.width == 0 || copy.height == 0 || copy.depth == 0;
  if (empty && allow_empty) {
    SH_RETURN_IF_ERROR(ValidateEndType(copy.src, "source"));
    return ValidateEndType(copy.dst, "destination");
  }
  if (empty) {
    return Error(ErrorCode::kInvalidValue,
                 "memcpy3D: WidthInBytes, Height and Depth must be "
                 "positive");
  }
  SH_RETURN_IF_ERROR(ValidateEnd(copy.src, copy, "source"));
  SH_RETURN_IF_ERROR(ValidateEnd(copy.dst, copy, "destination"));
  return absl::OkStatus();
}

absl::Status ValidateMemset(const MemsetNodeParams& params) {
  SH_RETURN_IF_ERROR(CurrentContext().status());
  const uint32_t size = params.element_size;
  if (size != 1 && size != 2 && size != 4) {
    return Error(ErrorCode::kInvalidValue, "memset node: elementSize ", size, " is not 1, 2 or 4");
  }
  if (params.width == 0 || params.height == 0) {
    return Error(ErrorCode::kInvalidValue, "memset node: width and height must be positive");
  }
  if (params.dst % size != 0) {
    return Error(ErrorCode::kInvalidValue, "memset node: dst 0x", absl::Hex(params.dst),
                 " is not aligned to ", size, " bytes");
  }
  if (params.width > UINT64_MAX / size) {
    return Error(ErrorCode::kInvalidValue, "memset node: width ", params.width, " is too large");
  }
  const uint64_t row_bytes = params.width * size;
  if (params.height > 1 && params.pitch < row_bytes) {
    return Error(ErrorCode::kInvalidValue, "memset node: pitch ", params.pitch,
                 " is smaller than a row (", row_bytes, " bytes)");
  }
  if (params.height > 1 && params.height - 1 > (UINT64_MAX - row_bytes) / params.pitch) {
    return Error(ErrorCode::kInvalidValue, "memset node: ", params.height, " rows of pitch ",
                 params.pitch, " overflow");
  }
  const uint64_t bytes = (params.height - 1) * params.pitch + row_bytes;
  return ResolveDeviceRange(params.dst, bytes, "memset node: destination").status();
}

// --- Entry points ---

namespace {

absl::StatusOr<std::vector<GraphNode*>> ResolveDependencies(Graph* graph,
                                                            const uint64_t* dependencies,
                                                            size_t count) {
  if (dependencies == nullptr && count != 0) {
    return Error(ErrorCode::kInvalidValue, "graph: dependencies is null but numDependencies is ",
                 count);
  }
  // Dependencies are distinct nodes of the graph: more than it has is wrong
  // before any of them is read.
  if (count > graph->nodes().size()) {
    return Error(ErrorCode::kInvalidValue, "graph: numDependencies ", count, " exceeds the ",
                 graph->nodes().size(), " nodes of the graph");
  }
  std::vector<GraphNode*> nodes;
  nodes.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(dependencies[i]));
    if (node->graph() != graph) {
      return Error(ErrorCode::kInvalidValue, "graph: dependency ", i,
                   " is a node of another graph");
    }
    if (std::find(nodes.begin(), nodes.end(), node) != nodes.end()) {
      return Error(ErrorCode::kInvalidValue, "graph: dependency ", i, " is listed twice");
    }
    nodes.push_back(node);
  }
  return nodes;
}

absl::Status AddNode(HandleOut out, uint64_t graph_handle, const uint64_t* dependencies,
                     size_t count, GraphNodeType type, GraphNode::Params params) {
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "graph: phGraphNode is null");
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(graph_handle));
  SH_ASSIGN_OR_RETURN(std::vector<GraphNode*> nodes,
                      ResolveDependencies(graph, dependencies, count));
  GraphNode* node = graph->AddNode(type, std::move(params), nodes);
  out.Set(node->handle());
  return absl::OkStatus();
}

// Writes up to `*count` handles of `list` (see GraphGetNodes).
template <typename List, typename Handle>
absl::Status FillList(const List& list, Handle handle_of, uint64_t* items, size_t* count) {
  if (count == nullptr) return Error(ErrorCode::kInvalidValue, "graph: the count is null");
  if (items == nullptr) {
    *count = list.size();
    return absl::OkStatus();
  }
  const size_t written = std::min(*count, list.size());
  for (size_t i = 0; i < *count; ++i) items[i] = i < written ? handle_of(list[i]) : 0;
  *count = written;
  return absl::OkStatus();
}

}  // namespace

absl::Status GraphCreate(HandleOut out, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuGraphCreate: phGraph is null");
  if (flags != 0) return Error(ErrorCode::kInvalidValue, "cuGraphCreate: flags must be 0");
  auto graph = std::make_unique<Graph>(context);
  out.Set(graph->handle());
  context->Adopt(std::move(graph));
  return absl::OkStatus();
}

absl::Status GraphDestroy(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  if (graph->owner() != nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphDestroy: the graph belongs to a child graph node");
  }
  graph->context()->Destroy(graph);
  return absl::OkStatus();
}

absl::Status GraphClone(HandleOut out, uint64_t handle) {
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuGraphClone: phGraphClone is null");
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  std::unique_ptr<Graph> copy = graph->Clone(nullptr, nullptr);
  out.Set(copy->handle());
  graph->context()->Adopt(std::move(copy));
  return absl::OkStatus();
}

absl::Status GraphNodeFindInClone(HandleOut out, uint64_t original, uint64_t clone_handle) {
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuGraphNodeFindInClone: null");
  SH_ASSIGN_OR_RETURN(Graph * clone, ResolveGraph(clone_handle));
  // The original may be gone by now; the clone remembers its handle.
  for (const auto& node : clone->nodes()) {
    if (node->cloned_from() == original && original != 0) {
      out.Set(node->handle());
      return absl::OkStatus();
    }
  }
  return Error(ErrorCode::kInvalidValue,
               "cuGraphNodeFindInClone: the node has no copy in this graph");
}

absl::Status GraphAddKernelNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, uint64_t function, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(KernelNodeParams params, MakeKernelNodeParams(function, config));
  return AddNode(out, graph, dependencies, count, GraphNodeType::kKernel, std::move(params));
}

absl::Status GraphAddMemcpyNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, const Copy3DParams& params) {
  SH_RETURN_IF_ERROR(ValidateCopy3D(params));
  return AddNode(out, graph, dependencies, count, GraphNodeType::kMemcpy, params);
}

absl::Status GraphAddMemsetNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, const MemsetNodeParams& params) {
  SH_RETURN_IF_ERROR(ValidateMemset(params));
  return AddNode(out, graph, dependencies, count, GraphNodeType::kMemset, params);
}

absl::Status GraphAddHostNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                              size_t count, const HostNodeParams& params) {
  if (params.fn == nullptr) return Error(ErrorCode::kInvalidValue, "host node: fn is null");
  return AddNode(out, graph, dependencies, count, GraphNodeType::kHost, params);
}

absl::Status GraphAddEmptyNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                               size_t count) {
  return AddNode(out, graph, dependencies, count, GraphNodeType::kEmpty, std::monostate{});
}

absl::Status GraphAddChildGraphNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                    size_t count, uint64_t child_handle) {
  SH_ASSIGN_OR_RETURN(Graph * child, ResolveGraph(child_handle));
  if (child_handle == graph) {
    return Error(ErrorCode::kInvalidValue, "child graph node: a graph cannot contain itself");
  }
  // CUDA: a graph with memory nodes can become a child only by moving it
  // (CUDA 12.9's ownership field), which this entry point cannot ask for.
  for (const auto& node : child->nodes()) {
    if (node->type() == GraphNodeType::kMemAlloc || node->type() == GraphNodeType::kMemFree) {
      return Error(ErrorCode::kInvalidValue,
                   "child graph node: the child graph has memory allocation or free nodes");
    }
  }
  // AddNode re-owns a clone; this one only carries the shape there.
  ChildGraphParams params{child->Clone(nullptr, nullptr)};
  return AddNode(out, graph, dependencies, count, GraphNodeType::kChildGraph, std::move(params));
}

absl::Status GraphAddEventRecordNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                     size_t count, uint64_t event) {
  SH_RETURN_IF_ERROR(ResolveEvent(event).status());
  return AddNode(out, graph, dependencies, count, GraphNodeType::kEventRecord,
                 EventNodeParams{event});
}

absl::Status GraphAddEventWaitNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                   size_t count, uint64_t event) {
  SH_RETURN_IF_ERROR(ResolveEvent(event).status());
  return AddNode(out, graph, dependencies, count, GraphNodeType::kEventWait,
                 EventNodeParams{event});
}

absl::Status GraphAddMemAllocNode(HandleOut out, uint64_t graph_handle,
                                  const uint64_t* dependencies, size_t count,
                                  const MemPoolProps& props, absl::Span<const MemAccessDesc> access,
                                  uint64_t bytes, uint64_t* address) {
  if (out.is_null() || address == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuGraphAddMemAllocNode: a pointer argument is null");
  }
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(graph_handle));
  SH_RETURN_IF_ERROR(ResolveDependencies(graph, dependencies, count).status());
  if (bytes == 0) return Error(ErrorCode::kInvalidValue, "cuGraphAddMemAllocNode: bytesize is 0");
  if (props.allocation_type != kMemAllocationTypePinned ||
      props.location_type != kMemLocationTypeDevice || props.handle_types != kMemHandleTypeNone) {
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphAddMemAllocNode: poolProps must ask for pinned memory of a device, "
                 "without shareable handle types");
  }
  Context* context = graph->context();
  if (props.location_id != context->device()->ordinal()) {
    return Error(ErrorCode::kInvalidValue, "cuGraphAddMemAllocNode: the graph belongs to device ",
                 context->device()->ordinal(), ", not device ", props.location_id);
  }
  for (const MemAccessDesc& desc : access) {
    if (desc.location_type != kMemLocationTypeDevice || desc.location_id < 0 ||
        (desc.flags != kMemAccessProtNone && desc.flags != kMemAccessProtRead &&
         desc.flags != kMemAccessProtReadWrite)) {
      return Error(ErrorCode::kInvalidValue, "cuGraphAddMemAllocNode: a bad access descriptor");
    }
    const bool own = desc.location_id == context->device()->ordinal();
    if (own && desc.flags != kMemAccessProtReadWrite) {
      return Error(ErrorCode::kInvalidValue,
                   "cuGraphAddMemAllocNode: the allocating device always has read-write access");
    }
    if (!own && desc.flags != kMemAccessProtNone) {
      return Error(ErrorCode::kNotSupported, "cuGraphAddMemAllocNode: device ", desc.location_id,
                   " cannot access memory of device ", context->device()->ordinal(),
                   " (no peer access)");
    }
  }
  if (bytes > context->device()->properties().max_allocation_size) {
    return Error(ErrorCode::kOutOfMemory, "cuGraphAddMemAllocNode: ", bytes,
                 " bytes exceeds the largest allocation");
  }
  SH_ASSIGN_OR_RETURN(std::shared_ptr<GraphMemory> memory, GraphMemory::Create(context, bytes));
  *address = memory->address();
  return AddNode(out, graph_handle, dependencies, count, GraphNodeType::kMemAlloc,
                 MemAllocNodeParams{std::move(memory), props});
}

absl::StatusOr<MemFreeNodeParams> MakeMemFreeNodeParams(const Graph& graph, uint64_t address) {
  bool allocated = false;
  for (const auto& node : graph.nodes()) {
    if (node->type() == GraphNodeType::kMemAlloc &&
        node->as<MemAllocNodeParams>().memory->address() == address) {
      allocated = true;
    } else if (node->type() == GraphNodeType::kMemFree &&
               node->as<MemFreeNodeParams>().address == address) {
      return Error(ErrorCode::kInvalidValue, "cuGraphAddMemFreeNode: 0x", absl::Hex(address),
                   " is freed by another node of the graph already");
    }
  }
  if (!allocated) {
    return Error(ErrorCode::kInvalidValue, "cuGraphAddMemFreeNode: 0x", absl::Hex(address),
                 " is not the address of an allocation node of this graph");
  }
  return MemFreeNodeParams{address};
}

absl::Status GraphAddMemFreeNode(HandleOut out, uint64_t graph_handle, const uint64_t* dependencies,
                                 size_t count, uint64_t address) {
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "graph: phGraphNode is null");
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(graph_handle));
  SH_ASSIGN_OR_RETURN(MemFreeNodeParams params, MakeMemFreeNodeParams(*graph, address));
  return AddNode(out, graph_handle, dependencies, count, GraphNodeType::kMemFree, params);
}

absl::Status GraphMemAllocNodeGetParams(uint64_t handle, MemPoolProps* props, uint64_t* bytes,
                                        uint64_t* address) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kMemAlloc));
  if (props == nullptr || bytes == nullptr || address == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuGraphMemAllocNodeGetParams: params_out is null");
  }
  const MemAllocNodeParams& params = node->as<MemAllocNodeParams>();
  *props = params.pool_props;
  *bytes = params.memory->bytes();
  *address = params.memory->address();
  return absl::OkStatus();
}

absl::Status GraphMemFreeNodeGetParams(uint64_t handle, uint64_t* address) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kMemFree));
  if (address == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuGraphMemFreeNodeGetParams: dptr_out is null");
  }
  *address = node->as<MemFreeNodeParams>().address;
  return absl::OkStatus();
}

absl::Status GraphGetNodes(uint64_t handle, uint64_t* items, size_t* count) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  return FillList(
      graph->nodes(), [](const auto& node) { return node->handle(); }, items, count);
}

absl::Status GraphGetRootNodes(uint64_t handle, uint64_t* items, size_t* count) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  std::vector<GraphNode*> roots;
  for (const auto& node : graph->nodes()) {
    if (node->dependencies().empty()) roots.push_back(node.get());
  }
  return FillList(
      roots, [](GraphNode* node) { return node->handle(); }, items, count);
}

absl::Status GraphGetEdges(uint64_t handle, uint64_t* from, uint64_t* to, size_t* count) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  if (count == nullptr) return Error(ErrorCode::kInvalidValue, "cuGraphGetEdges: numEdges is null");
  if ((from == nullptr) != (to == nullptr)) {
    return Error(ErrorCode::kInvalidValue, "cuGraphGetEdges: from and to must both be given");
  }
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  for (const auto& node : graph->nodes()) {
    for (GraphNode* dependency : node->dependencies()) {
      edges.emplace_back(dependency->handle(), node->handle());
    }
  }
  if (from == nullptr) {
    *count = edges.size();
    return absl::OkStatus();
  }
  const size_t written = std::min(*count, edges.size());
  for (size_t i = 0; i < *count; ++i) {
    from[i] = i < written ? edges[i].first : 0;
    to[i] = i < written ? edges[i].second : 0;
  }
  *count = written;
  return absl::OkStatus();
}

absl::Status GraphNodeGetDependencies(uint64_t handle, uint64_t* items, size_t* count) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(handle));
  return FillList(
      node->dependencies(), [](GraphNode* n) { return n->handle(); }, items, count);
}

absl::Status GraphNodeGetDependentNodes(uint64_t handle, uint64_t* items, size_t* count) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(handle));
  return FillList(
      node->dependents(), [](GraphNode* n) { return n->handle(); }, items, count);
}

absl::Status GraphNodeGetType(uint64_t handle, GraphNodeType* type) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(handle));
  if (type == nullptr) return Error(ErrorCode::kInvalidValue, "cuGraphNodeGetType: type is null");
  *type = node->type();
  return absl::OkStatus();
}

namespace {

absl::StatusOr<std::vector<std::pair<GraphNode*, GraphNode*>>> ResolveEdges(
    Graph* graph, const uint64_t* from, const uint64_t* to, size_t count, const char* api) {
  if (count > 0 && (from == nullptr || to == nullptr)) {
    return Error(ErrorCode::kInvalidValue, api, ": from and to must not be null");
  }
  std::vector<std::pair<GraphNode*, GraphNode*>> edges;
  for (size_t i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(GraphNode * a, ResolveGraphNode(from[i]));
    SH_ASSIGN_OR_RETURN(GraphNode * b, ResolveGraphNode(to[i]));
    if (a->graph() != graph || b->graph() != graph) {
      return Error(ErrorCode::kInvalidValue, api, ": edge ", i, " names a node of another graph");
    }
    if (a == b)
      return Error(ErrorCode::kInvalidValue, api, ": edge ", i, " joins a node to itself");
    edges.emplace_back(a, b);
  }
  return edges;
}

}  // namespace

absl::Status GraphAddDependencies(uint64_t handle, const uint64_t* from, const uint64_t* to,
                                  size_t count) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  SH_ASSIGN_OR_RETURN(auto edges, ResolveEdges(graph, from, to, count, "cuGraphAddDependencies"));
  for (size_t i = 0; i < edges.size(); ++i) {
    const bool repeated =
        Graph::HasEdge(edges[i].first, edges[i].second) ||
        std::find(edges.begin(), edges.begin() + i, edges[i]) != edges.begin() + i;
    if (repeated) {
      return Error(ErrorCode::kInvalidValue, "cuGraphAddDependencies: edge ", i, " exists already");
    }
  }
  for (const auto& [a, b] : edges) graph->AddEdge(a, b);
  return absl::OkStatus();
}

absl::Status GraphRemoveDependencies(uint64_t handle, const uint64_t* from, const uint64_t* to,
                                     size_t count) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  SH_ASSIGN_OR_RETURN(auto edges,
                      ResolveEdges(graph, from, to, count, "cuGraphRemoveDependencies"));
  for (size_t i = 0; i < edges.size(); ++i) {
    if (!Graph::HasEdge(edges[i].first, edges[i].second)) {
      return Error(ErrorCode::kInvalidValue, "cuGraphRemoveDependencies: edge ", i,
                   " does not exist");
    }
  }
  for (const auto& [a, b] : edges) graph->RemoveEdge(a, b);
  return absl::OkStatus();
}

absl::Status GraphDestroyNode(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(handle));
  node->graph()->RemoveNode(node);
  return absl::OkStatus();
}

absl::StatusOr<GraphNode*> GraphNodeOfType(uint64_t handle, GraphNodeType type) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(handle));
  if (node->type() != type) {
    return Error(ErrorCode::kInvalidValue, "graph node 0x", absl::Hex(handle), " is a ",
                 GraphNodeTypeName(node->type()), " node, not a ", GraphNodeTypeName(type),
                 " node");
  }
  return node;
}

absl::Status GraphKernelNodeSetParams(uint64_t handle, uint64_t function,
                                      const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kKernel));
  SH_ASSIGN_OR_RETURN(KernelNodeParams params, MakeKernelNodeParams(function, config));
  node->mutable_params() = std::move(params);
  return absl::OkStatus();
}

absl::Status GraphMemcpyNodeSetParams(uint64_t handle, const Copy3DParams& params) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kMemcpy));
  SH_RETURN_IF_ERROR(ValidateCopy3D(params));
  node->mutable_params() = params;
  return absl::OkStatus();
}

absl::Status GraphMemsetNodeSetParams(uint64_t handle, const MemsetNodeParams& params) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kMemset));
  SH_RETURN_IF_ERROR(ValidateMemset(params));
  node->mutable_params() = params;
  return absl::OkStatus();
}

absl::Status GraphHostNodeSetParams(uint64_t handle, const HostNodeParams& params) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kHost));
  if (params.fn == nullptr) return Error(ErrorCode::kInvalidValue, "host node: fn is null");
  node->mutable_params() = params;
  return absl::OkStatus();
}

absl::Status GraphEventNodeSetEvent(uint64_t handle, GraphNodeType type, uint64_t event) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, type));
  SH_RETURN_IF_ERROR(ResolveEvent(event).status());
  node->mutable_params() = EventNodeParams{event};
  return absl::OkStatus();
}

absl::Status GraphChildGraphNodeGetGraph(uint64_t handle, HandleOut out) {
  SH_ASSIGN_OR_RETURN(GraphNode * node, GraphNodeOfType(handle, GraphNodeType::kChildGraph));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuGraphChildGraphNodeGetGraph: null");
  out.Set(node->as<ChildGraphParams>().graph->handle());
  return absl::OkStatus();
}

// --- Graphviz ---

namespace {

std::string NodeLabel(const GraphNode& node) {
  std::string label = absl::StrCat(GraphNodeTypeName(node.type()));
  std::visit(
      [&label](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, KernelNodeParams>) {
          Function* function = LookupAs<Function>(p.function);
          absl::StrAppend(&label, "\\n", function ? function->info().name : "(unloaded)",
                          "\\ngrid (", p.grid[0], ",", p.grid[1], ",", p.grid[2], ") block (",
                          p.block[0], ",", p.block[1], ",", p.block[2], ")\\nshared ",
                          p.shared_bytes, " B, params ", p.param_block.size(), " B");
        } else if constexpr (std::is_same_v<T, Copy3DParams>) {
          absl::StrAppend(&label, "\\n", p.width, " x ", p.height, " x ", p.depth, " bytes",
                          "\\nsrc 0x", absl::Hex(p.src.address), " (type ",
                          static_cast<int>(p.src.type), ", pitch ", p.src.pitch, ")\\ndst 0x",
                          absl::Hex(p.dst.address), " (type ", static_cast<int>(p.dst.type),
                          ", pitch ", p.dst.pitch, ")");
        } else if constexpr (std::is_same_v<T, MemsetNodeParams>) {
          absl::StrAppend(&label, "\\ndst 0x", absl::Hex(p.dst), " value 0x", absl::Hex(p.value),
                          "\\n", p.height, " rows of ", p.width, " x ", p.element_size,
                          " B, pitch ", p.pitch);
        } else if constexpr (std::is_same_v<T, HostNodeParams>) {
          absl::StrAppend(&label, "\\nfn ", Ptr(reinterpret_cast<const void*>(p.fn)), " data ",
                          Ptr(p.data));
        } else if constexpr (std::is_same_v<T, EventNodeParams>) {
          absl::StrAppend(&label, "\\nevent 0x", absl::Hex(p.event));
        } else if constexpr (std::is_same_v<T, ChildGraphParams>) {
          absl::StrAppend(&label, "\\n", p.graph->nodes().size(), " nodes");
        } else if constexpr (std::is_same_v<T, MemAllocNodeParams>) {
          absl::StrAppend(&label, "\\n", p.memory->bytes(), " bytes at 0x",
                          absl::Hex(p.memory->address()), " on device ",
                          p.memory->device_ordinal());
        } else if constexpr (std::is_same_v<T, MemFreeNodeParams>) {
          absl::StrAppend(&label, "\\nfree 0x", absl::Hex(p.address));
        }
      },
      node.params());
  return label;
}

void AppendGraph(const Graph& graph, const std::string& prefix, std::string* dot) {
  for (const auto& node : graph.nodes()) {
    const std::string id = absl::StrCat(prefix, "n", absl::Hex(node->handle()));
    absl::StrAppend(dot, "  \"", id,
                    "\" [shape=", node->type() == GraphNodeType::kKernel ? "box" : "ellipse",
                    " label=\"", NodeLabel(*node), "\"];\n");
    for (GraphNode* dependency : node->dependencies()) {
      absl::StrAppend(dot, "  \"", prefix, "n", absl::Hex(dependency->handle()), "\" -> \"", id,
                      "\";\n");
    }
    if (node->type() == GraphNodeType::kChildGraph) {
      const std::string child_prefix = absl::StrCat(id, "_");
      absl::StrAppend(dot, "  subgraph \"cluster_", id, "\" {\n  label=\"child of ", id, "\";\n");
      AppendGraph(*node->as<ChildGraphParams>().graph, child_prefix, dot);
      absl::StrAppend(dot, "  }\n");
    }
  }
}

}  // namespace

absl::StatusOr<std::string> GraphDotText(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(handle));
  std::string dot = absl::StrCat("digraph streamhal_graph_", absl::Hex(handle), " {\n");
  AppendGraph(*graph, "", &dot);
  absl::StrAppend(&dot, "}\n");
  return dot;
}

absl::Status GraphDebugDotPrint(uint64_t handle, const char* path, unsigned /*flags*/) {
  if (path == nullptr) return Error(ErrorCode::kInvalidValue, "cuGraphDebugDotPrint: path is null");
  SH_ASSIGN_OR_RETURN(std::string dot, GraphDotText(handle));
  std::FILE* file = std::fopen(path, "w");
  if (file == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuGraphDebugDotPrint: cannot write ", path);
  }
  const bool written = std::fwrite(dot.data(), 1, dot.size(), file) == dot.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    return Error(ErrorCode::kInvalidValue, "cuGraphDebugDotPrint: writing ", path, " failed");
  }
  return absl::OkStatus();
}

}  // namespace streamhal
