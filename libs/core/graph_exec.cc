#include "core/graph_exec.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/context.h"
#include "core/event.h"
#include "core/log.h"
#include "core/memory.h"
#include "core/module.h"
#include "core/status.h"
#include "core/stream.h"
#include "core/texture.h"
#include "core/transfer.h"

namespace streamhal {
namespace {

// A copy of a node's parameters; a child graph has none of its own (it is
// flattened).
GraphNode::Params CopyParams(const GraphNode::Params& params) {
  GraphNode::Params copy;
  std::visit(
      [&copy](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (!std::is_same_v<T, ChildGraphParams>) copy = value;
      },
      params);
  return copy;
}

// Where one end of a copy lies, for the whole span it covers.
struct ResolvedEnd {
  ResolvedPointer pointer;  // allocation null: pageable host memory
  uint64_t address = 0;     // the end's base (host pointer or device address)
};

absl::StatusOr<ResolvedEnd> ResolveEnd(const CopyEnd& end, const Copy3DParams& copy,
                                       const char* what) {
  const uint64_t span = CopyEndSpan(end, copy);
  ResolvedEnd resolved;
  resolved.address = end.address;
  if (end.type == MemoryType::kDevice) {
    SH_ASSIGN_OR_RETURN(resolved.pointer, ResolveDeviceRange(end.address, span, what));
  } else if (end.type == MemoryType::kHost) {
    resolved.pointer = ResolveHostRange(reinterpret_cast<const void*>(end.address), span);
  } else if (end.type == MemoryType::kUnified) {
    resolved.pointer = ResolveAnyRange(end.address, span);
  } else {
    return Error(ErrorCode::kNotSupported, "memcpy node: arrays are not available yet");
  }
  return resolved;
}

bool IsPageable(const CopyEnd& end, const Copy3DParams& copy) {
  if (end.type == MemoryType::kDevice) return false;
  return ResolveAnyRange(end.address, CopyEndSpan(end, copy)).allocation == nullptr;
}

bool IsDeviceWork(const GraphExec::Node& node) {
  switch (node.type) {
    case GraphNodeType::kKernel:
    case GraphNodeType::kMemset:
    case GraphNodeType::kEmpty:
      return true;
    case GraphNodeType::kMemcpy: {
      const auto& copy = std::get<Copy3DParams>(node.params);
      return !IsPageable(copy.src, copy) && !IsPageable(copy.dst, copy);
    }
    default:
      return false;
  }
}

}  // namespace

GraphExec::GraphExec(Context* context, uint64_t flags)
    : Object(kKind), context_(context), flags_(flags) {}

GraphExec::~GraphExec() = default;

size_t GraphExec::recording_count() const {
  MutexLock lock(const_cast<Mutex*>(&mutex_));
  size_t count = 0;
  for (const Step& step : steps_) count += step.recording != nullptr ? 1 : 0;
  return count;
}

std::vector<uint32_t> GraphExec::Flatten(const Graph& graph, const std::vector<uint32_t>& entry,
                                         size_t* shape_index) {
  const std::vector<GraphNode*> order = graph.TopologicalOrder(nullptr);
  absl::flat_hash_map<const GraphNode*, uint32_t> done;  // node -> exec index of its completion
  absl::flat_hash_map<const GraphNode*, size_t> child_shapes;
  for (GraphNode* node : order) {
    std::vector<uint32_t> dependencies;
    for (GraphNode* dependency : node->dependencies()) dependencies.push_back(done[dependency]);
    if (node->dependencies().empty()) dependencies = entry;
    Node flat;
    if (node->type() == GraphNodeType::kChildGraph) {
      size_t child_shape = 0;
      flat.dependencies = Flatten(*node->as<ChildGraphParams>().graph, dependencies, &child_shape);
      child_shapes[node] = child_shape;
      flat.type = GraphNodeType::kEmpty;  // completes when the child's leaves have
    } else {
      // Allocation and free nodes order their neighbours only: the memory
      // exists from the node's creation (core/graph_memory.h), and the
      // executable graph keeps it alive through the parameters.
      const bool memory_node =
          node->type() == GraphNodeType::kMemAlloc || node->type() == GraphNodeType::kMemFree;
      flat.type = memory_node ? GraphNodeType::kEmpty : node->type();
      flat.params = CopyParams(node->params());
      flat.dependencies = std::move(dependencies);
    }
    const auto index = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(std::move(flat));
    if (node->type() == GraphNodeType::kChildGraph) child_shape_of_[index] = child_shapes[node];
    done[node] = index;
    index_of_[node->handle()] = index;
  }
  Shape shape;
  absl::flat_hash_map<const GraphNode*, uint32_t> position;
  for (const auto& node : graph.nodes()) {
    position[node.get()] = static_cast<uint32_t>(shape.members.size());
    shape.members.push_back(done[node.get()]);
  }
  std::vector<uint32_t> leaves;
  for (const auto& node : graph.nodes()) {
    std::vector<uint32_t> dependencies;
    for (GraphNode* dependency : node->dependencies()) dependencies.push_back(position[dependency]);
    shape.dependencies.push_back(std::move(dependencies));
    auto child = child_shapes.find(node.get());
    shape.child_shape.push_back(child == child_shapes.end() ? -1 : static_cast<int>(child->second));
    shape.types.push_back(node->type());
    if (node->dependents().empty()) leaves.push_back(done[node.get()]);
  }
  *shape_index = shapes_.size();
  shapes_.push_back(std::move(shape));
  if (graph.nodes().empty()) return entry;
  return leaves;
}

absl::Status GraphExec::Build(const Graph& graph, uint64_t* error_node) {
  // Every level must be acyclic before anything is flattened.
  std::vector<const Graph*> pending = {&graph};
  while (!pending.empty()) {
    const Graph* level = pending.back();
    pending.pop_back();
    std::vector<GraphNode*> cycle;
    level->TopologicalOrder(&cycle);
    if (!cycle.empty()) {
      std::string names;
      for (GraphNode* node : cycle) {
        absl::StrAppend(&names, names.empty() ? "" : ", ", GraphNodeTypeName(node->type()),
                        " node 0x", absl::Hex(node->handle()));
      }
      Log(LogLevel::kError, "graph instantiation: the dependencies form a cycle through ", names);
      if (error_node != nullptr) *error_node = cycle.front()->handle();
      return Error(ErrorCode::kInvalidValue,
                   "graph instantiation: the dependencies form a cycle through ", names);
    }
    for (const auto& node : level->nodes()) {
      if (node->type() == GraphNodeType::kChildGraph) {
        pending.push_back(node->as<ChildGraphParams>().graph.get());
      }
    }
  }
  size_t top = 0;
  Flatten(graph, {}, &top);
  top_shape_ = top;

  // Order: Kahn's algorithm preferring device work, so host-side nodes cut
  // the device work into as few recordings as the edges allow.
  std::vector<uint32_t> waiting(nodes_.size());
  std::vector<std::vector<uint32_t>> dependents(nodes_.size());
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    waiting[i] = static_cast<uint32_t>(nodes_[i].dependencies.size());
    for (uint32_t dependency : nodes_[i].dependencies) dependents[dependency].push_back(i);
  }
  std::deque<uint32_t> ready_device, ready_host;
  auto make_ready = [&](uint32_t i) {
    (IsDeviceWork(nodes_[i]) ? ready_device : ready_host).push_back(i);
  };
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    if (waiting[i] == 0) make_ready(i);
  }
  MutexLock lock(&mutex_);
  steps_.clear();
  while (!ready_device.empty() || !ready_host.empty()) {
    uint32_t i;
    if (!ready_device.empty()) {
      i = ready_device.front();
      ready_device.pop_front();
      if (steps_.empty() || steps_.back().kind != StepKind::kRecording) steps_.emplace_back();
    } else {
      i = ready_host.front();
      ready_host.pop_front();
      Step step;
      switch (nodes_[i].type) {
        case GraphNodeType::kHost:
          step.kind = StepKind::kHost;
          break;
        case GraphNodeType::kEventRecord:
          step.kind = StepKind::kEventRecord;
          break;
        case GraphNodeType::kEventWait:
          step.kind = StepKind::kEventWait;
          break;
        default:
          step.kind = StepKind::kHostCopy;
          break;
      }
      steps_.push_back(std::move(step));
    }
    steps_.back().nodes.push_back(i);
    nodes_[i].step = static_cast<uint32_t>(steps_.size() - 1);
    for (uint32_t dependent : dependents[i]) {
      if (--waiting[dependent] == 0) make_ready(dependent);
    }
  }
  return absl::OkStatus();
}

absl::Status GraphExec::RecordNode(BackendRecorder& recorder, const Node& node) {
  switch (node.type) {
    case GraphNodeType::kKernel: {
      const auto& p = std::get<KernelNodeParams>(node.params);
      Function* function = LookupAs<Function>(p.function);
      if (function == nullptr) {
        return Error(ErrorCode::kInvalidValue,
                     "graph: a kernel node's function was unloaded with its module");
      }
      DispatchParams dispatch;
      dispatch.kernel = function->backend();
      dispatch.grid = p.grid;
      dispatch.block = p.block;
      dispatch.dynamic_shared_bytes = p.shared_bytes;
      dispatch.params = p.param_block.data();
      if (function->globals() != nullptr) dispatch.globals = function->globals()->backend.get();
      // Textures and surfaces are bound as the graph is instantiated; the
      // recording keeps their views.
      LaunchResources resources;
      if (!function->info().resources.empty()) {
        SH_RETURN_IF_ERROR(ResolveLaunchResources(*function, p.param_block.data(), &resources));
        dispatch.resources = resources.data();
      }
      return recorder.RecordDispatch(dispatch);
    }
    case GraphNodeType::kMemset: {
      const auto& p = std::get<MemsetNodeParams>(node.params);
      const uint64_t row = p.width * p.element_size;
      SH_ASSIGN_OR_RETURN(ResolvedPointer to,
                          ResolveDeviceRange(p.dst, (p.height - 1) * p.pitch + row,
                                             "graph memset node: destination"));
      return recorder.RecordFillRows(BufferRange{to.allocation->backend.get(), to.offset}, p.value,
                                     p.element_size, p.width, p.pitch, p.height);
    }
    case GraphNodeType::kMemcpy: {
      const auto& p = std::get<Copy3DParams>(node.params);
      SH_ASSIGN_OR_RETURN(ResolvedEnd src, ResolveEnd(p.src, p, "graph memcpy node: source"));
      SH_ASSIGN_OR_RETURN(ResolvedEnd dst, ResolveEnd(p.dst, p, "graph memcpy node: destination"));
      if (src.pointer.allocation == nullptr || dst.pointer.allocation == nullptr) {
        return Error(ErrorCode::kInvalidValue,
                     "graph memcpy node: page-locked memory it used was unregistered");
      }
      CopyBox box;
      box.width = p.width;
      box.height = p.height;
      box.depth = p.depth;
      box.dst_pitch = p.dst.pitch;
      box.dst_slice_pitch = p.dst.pitch * p.dst.height;
      box.src_pitch = p.src.pitch;
      box.src_slice_pitch = p.src.pitch * p.src.height;
      const BufferRange to{dst.pointer.allocation->backend.get(),
                           dst.pointer.offset + CopyRowOffset(p.dst, 0, 0)};
      const BufferRange from{src.pointer.allocation->backend.get(),
                             src.pointer.offset + CopyRowOffset(p.src, 0, 0)};
      if (box.rows() == 1) return recorder.RecordCopy(to, from, box.width);
      return recorder.RecordCopyBox(to, from, box);
    }
    default:
      return absl::OkStatus();
  }
}

absl::Status GraphExec::Record(Step& step) {
  if (step.kind != StepKind::kRecording) {
    step.dirty = false;
    return absl::OkStatus();
  }
  SH_ASSIGN_OR_RETURN(std::unique_ptr<BackendRecorder> recorder,
                      context_->device()->backend()->CreateRecorder());
  const uint32_t step_index = nodes_[step.nodes.front()].step;
  // epoch[i]: the number of barriers recorded before node i's commands; a
  // dependent needs a barrier while that is still the current count.
  absl::flat_hash_map<uint32_t, int64_t> epoch;
  int64_t barriers = 0;
  bool any = false;
  for (uint32_t i : step.nodes) {
    const Node& node = nodes_[i];
    int64_t needed = -1;
    for (uint32_t dependency : node.dependencies) {
      if (nodes_[dependency].step != step_index) continue;  // ordered by the stream
      needed = std::max(needed, epoch[dependency]);
    }
    const bool records = node.enabled && node.type != GraphNodeType::kEmpty;
    if (!records) {
      epoch[i] = needed;  // complete when its dependencies are
      continue;
    }
    if (needed >= barriers) {
      recorder->RecordBarrier();
      ++barriers;
    }
    SH_RETURN_IF_ERROR(RecordNode(*recorder, node));
    epoch[i] = barriers;
    any = true;
  }
  if (!any) {
    step.recording = nullptr;
  } else {
    SH_ASSIGN_OR_RETURN(step.recording, recorder->Finish());
  }
  step.dirty = false;
  return absl::OkStatus();
}

absl::Status GraphExec::Prepare() {
  MutexLock lock(&mutex_);
  const uint64_t generation = ResourceGeneration();
  const bool stale = generation != recorded_generation_;
  for (Step& step : steps_) {
    if (step.dirty || stale) SH_RETURN_IF_ERROR(Record(step));
  }
  recorded_generation_ = generation;
  return absl::OkStatus();
}

absl::Status GraphExec::RunHostCopy(const Node& node, Stream* stream) {
  // Pageable memory: the copy as a stream runs it (the host reads or writes
  // it as the launch is issued).
  return RunCopy3D(stream, std::get<Copy3DParams>(node.params), Sync::kAsync);
}

absl::Status GraphExec::Launch(Stream* stream) {
  SH_RETURN_IF_ERROR(Prepare());
  MutexLock lock(&mutex_);
  // Launches of one exec are ordered, whatever streams they use.
  if (last_stream_ != 0 && last_stream_ != stream->handle()) {
    if (Stream* previous = LookupAs<Stream>(last_stream_)) {
      SH_ASSIGN_OR_RETURN(bool complete, previous->IsComplete(last_point_));
      if (!complete) {
        SH_RETURN_IF_ERROR(stream->Record([&](BackendStream* backend) {
          return backend->RecordWait(previous->backend(), last_point_);
        }));
      }
    }
  }
  for (const Step& step : steps_) {
    switch (step.kind) {
      case StepKind::kRecording:
        if (step.recording == nullptr) break;
        SH_RETURN_IF_ERROR(stream->Record(
            [&](BackendStream* backend) { return backend->RecordExecute(step.recording); }));
        break;
      case StepKind::kHost:
        for (uint32_t i : step.nodes) {
          const auto& p = std::get<HostNodeParams>(nodes_[i].params);
          SH_RETURN_IF_ERROR(stream->Record(
              [&](BackendStream* backend) { return backend->RecordHostFunction(p.fn, p.data); }));
        }
        break;
      case StepKind::kEventRecord:
        for (uint32_t i : step.nodes) {
          SH_RETURN_IF_ERROR(
              EventRecord(std::get<EventNodeParams>(nodes_[i].params).event, stream->handle()));
        }
        break;
      case StepKind::kEventWait:
        for (uint32_t i : step.nodes) {
          SH_RETURN_IF_ERROR(StreamWaitEvent(stream->handle(),
                                             std::get<EventNodeParams>(nodes_[i].params).event, 0));
        }
        break;
      case StepKind::kHostCopy:
        for (uint32_t i : step.nodes) {
          if (nodes_[i].enabled) SH_RETURN_IF_ERROR(RunHostCopy(nodes_[i], stream));
        }
        break;
    }
  }
  SH_ASSIGN_OR_RETURN(last_point_, stream->Flush());
  last_stream_ = stream->handle();
  return absl::OkStatus();
}

absl::StatusOr<GraphExec::Node*> GraphExec::NodeFor(uint64_t graph_node, GraphNodeType type) {
  auto it = index_of_.find(graph_node);
  if (graph_node == 0 || it == index_of_.end()) {
    return Error(ErrorCode::kInvalidValue, "graph node 0x", absl::Hex(graph_node),
                 " is not a node of the graph this exec was instantiated from");
  }
  Node* node = &nodes_[it->second];
  if (node->type != type) {
    return Error(ErrorCode::kInvalidValue, "graph node 0x", absl::Hex(graph_node), " is a ",
                 GraphNodeTypeName(node->type), " node, not a ", GraphNodeTypeName(type), " node");
  }
  return node;
}

void GraphExec::SetParams(Node* node, GraphNode::Params params) {
  MutexLock lock(&mutex_);
  node->params = std::move(params);
  steps_[node->step].dirty = true;
}

void GraphExec::SetEnabled(Node* node, bool enabled) {
  MutexLock lock(&mutex_);
  if (node->enabled == enabled) return;
  node->enabled = enabled;
  steps_[node->step].dirty = true;
}

absl::Status GraphExec::CompareShape(const Graph& graph, size_t shape_index,
                                     ExecUpdateResult* result, uint64_t* error_node,
                                     uint64_t* error_from) {
  const Shape& shape = shapes_[shape_index];
  auto fail = [&](ExecUpdateResult why, const GraphNode* node, const GraphNode* from,
                  const char* what) {
    *result = why;
    if (error_node != nullptr) *error_node = node != nullptr ? node->handle() : 0;
    if (error_from != nullptr) *error_from = from != nullptr ? from->handle() : 0;
    return Error(ErrorCode::kGraphExecUpdateFailure, "cuGraphExecUpdate: ", what);
  };
  if (graph.nodes().size() != shape.members.size()) {
    return fail(ExecUpdateResult::kTopologyChanged, nullptr, nullptr,
                "the graph has a different number of nodes");
  }
  absl::flat_hash_map<const GraphNode*, uint32_t> position;
  for (uint32_t i = 0; i < graph.nodes().size(); ++i) position[graph.nodes()[i].get()] = i;
  for (uint32_t i = 0; i < graph.nodes().size(); ++i) {
    const GraphNode& node = *graph.nodes()[i];
    if (node.type() != shape.types[i]) {
      return fail(ExecUpdateResult::kNodeTypeChanged, &node, nullptr, "a node's type changed");
    }
    std::vector<uint32_t> dependencies;
    for (GraphNode* dependency : node.dependencies()) dependencies.push_back(position[dependency]);
    if (dependencies != shape.dependencies[i]) {
      return fail(ExecUpdateResult::kTopologyChanged, &node,
                  node.dependencies().empty() ? nullptr : node.dependencies().front(),
                  "a node's dependencies changed");
    }
    if (node.type() == GraphNodeType::kChildGraph) {
      SH_RETURN_IF_ERROR(CompareShape(*node.as<ChildGraphParams>().graph,
                                      static_cast<size_t>(shape.child_shape[i]), result, error_node,
                                      error_from));
    } else if (node.type() == GraphNodeType::kKernel) {
      Function* function = LookupAs<Function>(node.as<KernelNodeParams>().function);
      if (function == nullptr || function->module()->context() != context_) {
        return fail(ExecUpdateResult::kUnsupportedFunctionChange, &node, nullptr,
                    "a kernel node's function belongs to another context or was unloaded");
      }
    } else if (node.type() == GraphNodeType::kMemAlloc || node.type() == GraphNodeType::kMemFree) {
      // CUDA: memory nodes cannot change in an update.
      const GraphNode::Params& before = nodes_[shape.members[i]].params;
      const bool same =
          node.type() == GraphNodeType::kMemAlloc
              ? std::get<MemAllocNodeParams>(before).memory == node.as<MemAllocNodeParams>().memory
              : std::get<MemFreeNodeParams>(before).address == node.as<MemFreeNodeParams>().address;
      if (!same) {
        return fail(ExecUpdateResult::kParametersChanged, &node, nullptr,
                    "a memory allocation or free node changed");
      }
    } else if (node.type() == GraphNodeType::kMemcpy) {
      // The copy must stay the kind of step it was (device work or a copy
      // through pageable memory).
      Node candidate;
      candidate.type = GraphNodeType::kMemcpy;
      candidate.params = node.as<Copy3DParams>();
      if (IsDeviceWork(candidate) != IsDeviceWork(nodes_[shape.members[i]])) {
        return fail(ExecUpdateResult::kParametersChanged, &node, nullptr,
                    "a memcpy node changed between pageable and device-accessible memory");
      }
    }
  }
  return absl::OkStatus();
}

void GraphExec::ApplyShape(const Graph& graph, size_t shape_index) {
  const Shape& shape = shapes_[shape_index];
  for (uint32_t i = 0; i < graph.nodes().size(); ++i) {
    const GraphNode& node = *graph.nodes()[i];
    const uint32_t index = shape.members[i];
    index_of_[node.handle()] = index;
    if (node.type() == GraphNodeType::kChildGraph) {
      ApplyShape(*node.as<ChildGraphParams>().graph, static_cast<size_t>(shape.child_shape[i]));
      continue;
    }
    nodes_[index].params = CopyParams(node.params());
    steps_[nodes_[index].step].dirty = true;
  }
}

absl::Status GraphExec::Update(const Graph& graph, ExecUpdateResult* result, uint64_t* error_node,
                               uint64_t* error_from) {
  *result = ExecUpdateResult::kSuccess;
  if (error_node != nullptr) *error_node = 0;
  if (error_from != nullptr) *error_from = 0;
  SH_RETURN_IF_ERROR(CompareShape(graph, top_shape_, result, error_node, error_from));
  MutexLock lock(&mutex_);
  ApplyShape(graph, top_shape_);
  return absl::OkStatus();
}

absl::Status GraphExec::UpdateChild(uint64_t child_node, const Graph& child) {
  auto it = index_of_.find(child_node);
  auto shape = it == index_of_.end() ? child_shape_of_.end() : child_shape_of_.find(it->second);
  if (child_node == 0 || shape == child_shape_of_.end()) {
    return Error(ErrorCode::kInvalidValue, "cuGraphExecChildGraphNodeSetParams: node 0x",
                 absl::Hex(child_node), " is not a child graph node of this exec's graph");
  }
  ExecUpdateResult result;
  absl::Status same = CompareShape(child, shape->second, &result, nullptr, nullptr);
  if (!same.ok()) {
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphExecChildGraphNodeSetParams: the graph's shape differs: ", same.message());
  }
  MutexLock lock(&mutex_);
  ApplyShape(child, shape->second);
  return absl::OkStatus();
}

// --- Entry points ---

absl::StatusOr<GraphExec*> ResolveGraphExec(uint64_t handle) {
  HandleState state;
  GraphExec* exec = LookupAs<GraphExec>(handle, &state);
  if (exec == nullptr) {
    return Error(ErrorCode::kInvalidValue, "graph exec 0x", absl::Hex(handle),
                 HandleProblem(state, " is not a graph exec", " has been destroyed"));
  }
  return exec;
}

absl::Status GraphInstantiate(HandleOut out, uint64_t graph_handle, uint64_t flags,
                              InstantiateResult* result, uint64_t* error_node, std::string* log) {
  if (result != nullptr) *result = InstantiateResult::kError;
  if (error_node != nullptr) *error_node = 0;
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  if (out.is_null())
    return Error(ErrorCode::kInvalidValue, "cuGraphInstantiate: phGraphExec is null");
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(graph_handle));
  constexpr uint64_t kKnown = kGraphInstantiateAutoFreeOnLaunch | kGraphInstantiateUpload |
                              kGraphInstantiateDeviceLaunch | kGraphInstantiateUseNodePriority;
  if ((flags & ~kKnown) != 0) {
    return Error(ErrorCode::kInvalidValue, "cuGraphInstantiate: unknown flags 0x",
                 absl::Hex(flags));
  }
  if ((flags & kGraphInstantiateDeviceLaunch) != 0) {
    if (result != nullptr) *result = InstantiateResult::kNodeOperationNotSupported;
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphInstantiate: device-side graph launch is not available on Vulkan");
  }
  auto exec = std::make_unique<GraphExec>(context, flags);
  absl::Status built = exec->Build(*graph, error_node);
  if (built.ok()) built = exec->Prepare();
  if (!built.ok()) {
    if (result != nullptr) {
      *result = error_node != nullptr && *error_node != 0 ? InstantiateResult::kInvalidStructure
                                                          : InstantiateResult::kError;
    }
    if (log != nullptr) *log = std::string(built.message());
    return built;
  }
  if (result != nullptr) *result = InstantiateResult::kSuccess;
  out.Set(exec->handle());
  context->Adopt(std::move(exec));
  return absl::OkStatus();
}

absl::Status GraphExecDestroy(uint64_t handle) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(handle));
  // Runs in flight keep their recordings alive; nothing waits here.
  exec->context()->Destroy(exec);
  return absl::OkStatus();
}

absl::Status GraphLaunch(uint64_t exec_handle, uint64_t stream_handle) {
  SH_ASSIGN_OR_RETURN(Context * context, CurrentContext());
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(stream_handle));
  if (exec->context()->device() != context->device()) {
    return Error(ErrorCode::kInvalidValue, "cuGraphLaunch: the exec belongs to another device");
  }
  return exec->Launch(stream);
}

absl::Status GraphUpload(uint64_t exec_handle, uint64_t stream_handle) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_RETURN_IF_ERROR(ResolveStream(stream_handle).status());
  // Recording is the upload: the command buffers live in memory the device
  // reads directly.
  return exec->Prepare();
}

absl::Status GraphExecGetFlags(uint64_t handle, uint64_t* flags) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(handle));
  if (flags == nullptr) return Error(ErrorCode::kInvalidValue, "cuGraphExecGetFlags: null");
  *flags = exec->flags();
  return absl::OkStatus();
}

absl::Status GraphExecUpdate(uint64_t exec_handle, uint64_t graph_handle, ExecUpdateResult* result,
                             uint64_t* error_node, uint64_t* error_from) {
  ExecUpdateResult ignored;
  if (result == nullptr) result = &ignored;
  *result = ExecUpdateResult::kError;
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(Graph * graph, ResolveGraph(graph_handle));
  return exec->Update(*graph, result, error_node, error_from);
}

absl::Status GraphExecKernelNodeSetParams(uint64_t exec_handle, uint64_t node_handle,
                                          uint64_t function, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, GraphNodeType::kKernel));
  SH_ASSIGN_OR_RETURN(KernelNodeParams params, MakeKernelNodeParams(function, config));
  exec->SetParams(node, std::move(params));
  return absl::OkStatus();
}

absl::Status GraphExecMemcpyNodeSetParams(uint64_t exec_handle, uint64_t node_handle,
                                          const Copy3DParams& params) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, GraphNodeType::kMemcpy));
  SH_RETURN_IF_ERROR(ValidateCopy3D(params));
  GraphExec::Node candidate;
  candidate.type = GraphNodeType::kMemcpy;
  candidate.params = params;
  if (IsDeviceWork(candidate) != IsDeviceWork(*node)) {
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphExecMemcpyNodeSetParams: the copy cannot change between pageable and "
                 "device-accessible memory");
  }
  exec->SetParams(node, params);
  return absl::OkStatus();
}

absl::Status GraphExecMemsetNodeSetParams(uint64_t exec_handle, uint64_t node_handle,
                                          const MemsetNodeParams& params) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, GraphNodeType::kMemset));
  SH_RETURN_IF_ERROR(ValidateMemset(params));
  exec->SetParams(node, params);
  return absl::OkStatus();
}

absl::Status GraphExecHostNodeSetParams(uint64_t exec_handle, uint64_t node_handle,
                                        const HostNodeParams& params) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, GraphNodeType::kHost));
  if (params.fn == nullptr) return Error(ErrorCode::kInvalidValue, "host node: fn is null");
  exec->SetParams(node, params);
  return absl::OkStatus();
}

absl::Status GraphExecEventNodeSetEvent(uint64_t exec_handle, uint64_t node_handle,
                                        GraphNodeType type, uint64_t event) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, type));
  SH_RETURN_IF_ERROR(ResolveEvent(event).status());
  exec->SetParams(node, EventNodeParams{event});
  return absl::OkStatus();
}

absl::Status GraphExecChildGraphNodeSetParams(uint64_t exec_handle, uint64_t node_handle,
                                              uint64_t child_handle) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(Graph * child, ResolveGraph(child_handle));
  return exec->UpdateChild(node_handle, *child);
}

absl::Status GraphNodeSetEnabled(uint64_t exec_handle, uint64_t node_handle, bool enabled) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphNode * source, ResolveGraphNode(node_handle));
  const GraphNodeType type = source->type();
  if (type != GraphNodeType::kKernel && type != GraphNodeType::kMemcpy &&
      type != GraphNodeType::kMemset) {
    return Error(ErrorCode::kInvalidValue,
                 "cuGraphNodeSetEnabled: only kernel, memcpy and memset nodes can be disabled");
  }
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, type));
  exec->SetEnabled(node, enabled);
  return absl::OkStatus();
}

absl::Status GraphNodeGetEnabled(uint64_t exec_handle, uint64_t node_handle, bool* enabled) {
  SH_ASSIGN_OR_RETURN(GraphExec * exec, ResolveGraphExec(exec_handle));
  SH_ASSIGN_OR_RETURN(GraphNode * source, ResolveGraphNode(node_handle));
  if (enabled == nullptr) return Error(ErrorCode::kInvalidValue, "cuGraphNodeGetEnabled: null");
  SH_ASSIGN_OR_RETURN(GraphExec::Node * node, exec->NodeFor(node_handle, source->type()));
  *enabled = node->enabled;
  return absl::OkStatus();
}

}  // namespace streamhal
