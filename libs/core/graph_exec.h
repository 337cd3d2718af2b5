// Instantiated graphs (CUgraphExec, hipGraphExec_t): a graph compiled once
// into backend work and launched on streams (design decision 10).
//
// Instantiation flattens child graphs, orders the nodes topologically and
// cuts the order into steps: runs of device nodes (kernels, copies between
// device or page-locked memory, fills, empty nodes) become one
// BackendRecording each, with a barrier only where a node depends on a node
// recorded since the last barrier; host nodes, event records and waits, and
// copies from or to pageable host memory are steps of their own, done on the
// stream at launch. A launch replays the steps on the stream: a recording is
// one submission, nothing is re-recorded.
//
// The exec keeps its own copy of every node's parameters. Exec SetParams
// calls and cuGraphExecUpdate change that copy and mark the step that holds
// the node; the next launch re-records only marked steps. Runs in flight keep
// the recordings they use alive, so an update never touches them.
#ifndef STREAMHAL_CORE_GRAPH_EXEC_H_
#define STREAMHAL_CORE_GRAPH_EXEC_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "core/backend.h"
#include "core/graph.h"
#include "core/handle.h"
#include "core/mutex.h"

namespace streamhal {

class Context;
class Stream;

// CUgraphInstantiate_flags.
inline constexpr uint64_t kGraphInstantiateAutoFreeOnLaunch = 1;
inline constexpr uint64_t kGraphInstantiateUpload = 2;
inline constexpr uint64_t kGraphInstantiateDeviceLaunch = 4;
inline constexpr uint64_t kGraphInstantiateUseNodePriority = 8;

// CUgraphInstantiateResult.
enum class InstantiateResult : int {
  kSuccess = 0,
  kError = 1,
  kInvalidStructure = 2,
  kNodeOperationNotSupported = 3,
  kMultipleContextsNotSupported = 4,
};

// CUgraphExecUpdateResult.
enum class ExecUpdateResult : int {
  kSuccess = 0,
  kError = 1,
  kTopologyChanged = 2,
  kNodeTypeChanged = 3,
  kFunctionChanged = 4,
  kParametersChanged = 5,
  kNotSupported = 6,
  kUnsupportedFunctionChange = 7,
  kAttributesChanged = 8,
};

class GraphExec : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kGraphExec;

  // One node of the flattened graph.
  struct Node {
    GraphNodeType type = GraphNodeType::kEmpty;
    GraphNode::Params params;  // never ChildGraphParams: children are flattened
    std::vector<uint32_t> dependencies;
    bool enabled = true;
    uint32_t step = 0;  // the step that holds it
  };

  GraphExec(Context* context, uint64_t flags);
  ~GraphExec() override;

  Context* context() const { return context_; }
  uint64_t flags() const { return flags_; }
  size_t node_count() const { return nodes_.size(); }
  size_t step_count() const { return steps_.size(); }
  size_t recording_count() const;

  // Flattens `graph` into this exec; kInvalidValue with the offending node
  // in `*error_node` and a message naming the nodes of a cycle.
  absl::Status Build(const Graph& graph, uint64_t* error_node);
  // Makes every step's recording current (re-records marked ones, and all of
  // them once memory was freed or a module unloaded since they were made).
  absl::Status Prepare() ABSL_LOCKS_EXCLUDED(mutex_);
  absl::Status Launch(Stream* stream) ABSL_LOCKS_EXCLUDED(mutex_);

  // The exec's node for a node of the graph it was made from (or updated
  // from), or kInvalidValue.
  absl::StatusOr<Node*> NodeFor(uint64_t graph_node, GraphNodeType type);
  // Replaces a node's parameters (validated by the caller); takes effect at
  // the next launch.
  void SetParams(Node* node, GraphNode::Params params) ABSL_LOCKS_EXCLUDED(mutex_);
  void SetEnabled(Node* node, bool enabled) ABSL_LOCKS_EXCLUDED(mutex_);

  // cuGraphExecUpdate: `graph` must have the shape this exec was made from.
  absl::Status Update(const Graph& graph, ExecUpdateResult* result, uint64_t* error_node,
                      uint64_t* error_from) ABSL_LOCKS_EXCLUDED(mutex_);
  // cuGraphExecChildGraphNodeSetParams: `child` must have the shape of the
  // graph that child node held at instantiation.
  absl::Status UpdateChild(uint64_t child_node, const Graph& child) ABSL_LOCKS_EXCLUDED(mutex_);

 private:
  enum class StepKind { kRecording, kHost, kEventRecord, kEventWait, kHostCopy };
  struct Step {
    StepKind kind = StepKind::kRecording;
    std::vector<uint32_t> nodes;  // in recording order
    std::shared_ptr<BackendRecording> recording;
    bool dirty = true;
  };

  // The shape of one graph level as instantiated, for updates: its nodes in
  // graph order (their exec indices), each one's type, its dependencies as
  // positions in that order, and for child graph nodes the child's shape.
  struct Shape {
    std::vector<uint32_t> members;
    std::vector<GraphNodeType> types;
    std::vector<std::vector<uint32_t>> dependencies;
    std::vector<int> child_shape;  // index into shapes_, -1 for other nodes
  };

  // Appends `graph`'s nodes; `entry` are the nodes its roots depend on.
  // Returns the indices of its leaves; `*shape_index` receives its shape.
  std::vector<uint32_t> Flatten(const Graph& graph, const std::vector<uint32_t>& entry,
                                size_t* shape_index);
  absl::Status CompareShape(const Graph& graph, size_t shape_index, ExecUpdateResult* result,
                            uint64_t* error_node, uint64_t* error_from);
  void ApplyShape(const Graph& graph, size_t shape_index) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  absl::Status Record(Step& step) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  absl::Status RecordNode(BackendRecorder& recorder, const Node& node);
  absl::Status RunHostCopy(const Node& node, Stream* stream);

  Context* const context_;
  const uint64_t flags_;
  std::vector<Node> nodes_;
  // Graph node handle -> index into nodes_ (the source graph's nodes, and
  // those of graphs it was updated from).
  absl::flat_hash_map<uint64_t, uint32_t> index_of_;
  std::vector<Shape> shapes_;
  size_t top_shape_ = 0;
  // Exec index of a child graph node's completion -> the child's shape.
  absl::flat_hash_map<uint32_t, size_t> child_shape_of_;

  Mutex mutex_;
  std::vector<Step> steps_ ABSL_GUARDED_BY(mutex_);
  uint64_t recorded_generation_ ABSL_GUARDED_BY(mutex_) = 0;
  // Where the exec was last launched: later launches on other streams wait
  // for it (CUDA orders launches of one exec).
  uint64_t last_stream_ ABSL_GUARDED_BY(mutex_) = 0;
  uint64_t last_point_ ABSL_GUARDED_BY(mutex_) = 0;
};

absl::StatusOr<GraphExec*> ResolveGraphExec(uint64_t exec);

// --- Validated entry points ---
absl::Status GraphInstantiate(HandleOut out, uint64_t graph, uint64_t flags,
                              InstantiateResult* result, uint64_t* error_node, std::string* log);
absl::Status GraphExecDestroy(uint64_t exec);
absl::Status GraphLaunch(uint64_t exec, uint64_t stream);
absl::Status GraphUpload(uint64_t exec, uint64_t stream);
absl::Status GraphExecGetFlags(uint64_t exec, uint64_t* flags);
absl::Status GraphExecUpdate(uint64_t exec, uint64_t graph, ExecUpdateResult* result,
                             uint64_t* error_node, uint64_t* error_from);
absl::Status GraphExecKernelNodeSetParams(uint64_t exec, uint64_t node, uint64_t function,
                                          const LaunchConfig& config);
absl::Status GraphExecMemcpyNodeSetParams(uint64_t exec, uint64_t node, const Copy3DParams& params);
absl::Status GraphExecMemsetNodeSetParams(uint64_t exec, uint64_t node,
                                          const MemsetNodeParams& params);
absl::Status GraphExecHostNodeSetParams(uint64_t exec, uint64_t node, const HostNodeParams& params);
absl::Status GraphExecEventNodeSetEvent(uint64_t exec, uint64_t node, GraphNodeType type,
                                        uint64_t event);
// Only the child's parameters may change, not its shape.
absl::Status GraphExecChildGraphNodeSetParams(uint64_t exec, uint64_t node, uint64_t child);
absl::Status GraphNodeSetEnabled(uint64_t exec, uint64_t node, bool enabled);
absl::Status GraphNodeGetEnabled(uint64_t exec, uint64_t node, bool* enabled);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GRAPH_EXEC_H_
