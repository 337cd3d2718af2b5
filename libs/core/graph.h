// Graphs (cuGraph*, hipGraph*): work described as nodes and dependency
// edges, built by hand or captured from streams, then instantiated into a
// GraphExec (graph_exec.h) that replays it. This file holds the graph, its
// nodes and their parameters, and the validated entry points that build and
// inspect graphs. Graphs are not thread-safe, as in CUDA: the caller
// serialises calls on one graph.
#ifndef STREAMHAL_CORE_GRAPH_H_
#define STREAMHAL_CORE_GRAPH_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/graph_memory.h"
#include "core/handle.h"
#include "core/launch_params.h"
#include "core/mem_pool.h"

namespace streamhal {

class Context;
class Graph;

// CUgraphNodeType / hipGraphNodeType values.
enum class GraphNodeType : int {
  kKernel = 0,
  kMemcpy = 1,
  kMemset = 2,
  kHost = 3,
  kChildGraph = 4,
  kEmpty = 5,
  kEventWait = 6,
  kEventRecord = 7,
  kMemAlloc = 10,
  kMemFree = 11,
};
const char* GraphNodeTypeName(GraphNodeType type);

// A kernel launch: the function and configuration, and the parameter block
// laid out when the node was set (kernelParams are read then, as in CUDA).
struct KernelNodeParams {
  uint64_t function = 0;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t shared_bytes = 0;
  std::vector<uint8_t> param_block;
};

// CUmemorytype values.
enum class MemoryType : int { kHost = 1, kDevice = 2, kArray = 3, kUnified = 4 };

// One end of a 3-D copy (CUDA_MEMCPY3D's src or dst half): `address` is a
// host pointer or a device address as `type` says; the copy starts at byte
// x, row y, slice z of a volume with rows of `pitch` bytes and slices of
// `height` rows.
struct CopyEnd {
  MemoryType type = MemoryType::kDevice;
  uint64_t address = 0;
  uint64_t x = 0;
  uint64_t y = 0;
  uint64_t z = 0;
  uint64_t pitch = 0;
  uint64_t height = 0;
};

// A 1-D, 2-D or 3-D copy of `depth` slices of `height` rows of `width`
// bytes between linear memories (CUDA_MEMCPY3D without arrays).
struct Copy3DParams {
  CopyEnd src;
  CopyEnd dst;
  uint64_t width = 0;
  uint64_t height = 1;
  uint64_t depth = 1;
};

// Where row y of slice z of a copy starts on `end`, in bytes from its
// address; and the bytes from its address to the copy's last byte there.
// Both assume a copy that ValidateCopy3D accepted.
uint64_t CopyRowOffset(const CopyEnd& end, uint64_t y, uint64_t z);
uint64_t CopyEndSpan(const CopyEnd& end, const Copy3DParams& copy);

// CUDA_MEMSET_NODE_PARAMS: `height` rows of `width` elements of
// `element_size` (1, 2 or 4) bytes, `pitch` bytes apart.
struct MemsetNodeParams {
  uint64_t dst = 0;
  uint64_t pitch = 0;
  uint32_t value = 0;
  uint32_t element_size = 1;
  uint64_t width = 0;
  uint64_t height = 1;
};

struct HostNodeParams {
  void (*fn)(void*) = nullptr;
  void* data = nullptr;
};

struct EventNodeParams {
  uint64_t event = 0;
};

// An allocation node: its memory, fixed when the node was made and shared
// with clones and executable graphs (core/graph_memory.h), and the pool
// properties it was asked for.
struct MemAllocNodeParams {
  std::shared_ptr<GraphMemory> memory;
  MemPoolProps pool_props;
};

// A free node: the address of an allocation node's memory in the same graph.
struct MemFreeNodeParams {
  uint64_t address = 0;
};

// A child graph node owns its own copy of the graph it was given.
struct ChildGraphParams {
  std::unique_ptr<Graph> graph;
};

class GraphNode : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kGraphNode;
  using Params =
      std::variant<std::monostate, KernelNodeParams, Copy3DParams, MemsetNodeParams, HostNodeParams,
                   EventNodeParams, ChildGraphParams, MemAllocNodeParams, MemFreeNodeParams>;

  GraphNode(Graph* graph, GraphNodeType type, Params params);

  Graph* graph() const { return graph_; }
  GraphNodeType type() const { return type_; }
  const Params& params() const { return params_; }
  Params& mutable_params() { return params_; }
  template <typename T>
  const T& as() const {
    return std::get<T>(params_);
  }
  // Edges, in the order they were added.
  const std::vector<GraphNode*>& dependencies() const { return dependencies_; }
  const std::vector<GraphNode*>& dependents() const { return dependents_; }

  // The node this one was cloned from (cuGraphNodeFindInClone), by handle.
  uint64_t cloned_from() const { return cloned_from_; }

  // Argument pointers into the parameter block, one per kernel parameter
  // (cuGraphKernelNodeGetParams returns them as kernelParams).
  void** KernelParamPointers();

 private:
  friend class Graph;
  Graph* const graph_;
  const GraphNodeType type_;
  Params params_;
  std::vector<GraphNode*> dependencies_;
  std::vector<GraphNode*> dependents_;
  uint64_t cloned_from_ = 0;
  std::vector<void*> param_pointers_;
};

class Graph : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kGraph;

  // `owner`: the child graph node that embeds this graph, if any.
  explicit Graph(Context* context, GraphNode* owner = nullptr);
  ~Graph() override;

  Context* context() const { return context_; }
  GraphNode* owner() const { return owner_; }
  // Nodes in the order they were added.
  const std::vector<std::unique_ptr<GraphNode>>& nodes() const { return nodes_; }
  // Bumped by every change of nodes or edges (exec updates compare shapes).
  uint64_t version() const { return version_; }

  // Adds a node depending on `dependencies` (validated by the caller: live
  // nodes of this graph, no duplicates).
  GraphNode* AddNode(GraphNodeType type, GraphNode::Params params,
                     absl::Span<GraphNode* const> dependencies);
  void RemoveNode(GraphNode* node);
  // Whether from -> to is an edge.
  static bool HasEdge(const GraphNode* from, const GraphNode* to);
  void AddEdge(GraphNode* from, GraphNode* to);
  void RemoveEdge(GraphNode* from, GraphNode* to);

  // A deep copy (child graphs included); `map`, when given, receives
  // (original node, copy) pairs for every node at every level.
  std::unique_ptr<Graph> Clone(GraphNode* owner,
                               std::vector<std::pair<const GraphNode*, GraphNode*>>* map) const;
  // The nodes in an order where every node follows its dependencies, or the
  // nodes of a cycle in `*cycle` (and an empty result).
  std::vector<GraphNode*> TopologicalOrder(std::vector<GraphNode*>* cycle) const;

 private:
  Context* const context_;
  GraphNode* const owner_;
  std::vector<std::unique_ptr<GraphNode>> nodes_;
  uint64_t version_ = 0;
};

// Resolves graph and node handles; kInvalidValue otherwise (CUDA's code for
// bad graph objects).
absl::StatusOr<Graph*> ResolveGraph(uint64_t graph);
absl::StatusOr<GraphNode*> ResolveGraphNode(uint64_t node);

// --- Parameter checks shared with stream capture and exec updates ---

// Validates a launch as cuLaunchKernel would and lays out its parameters.
absl::StatusOr<KernelNodeParams> MakeKernelNodeParams(uint64_t function,
                                                      const LaunchConfig& config);
// Checks a copy as cuMemcpy3D and cuGraphAddMemcpyNode do (arrays are
// kNotSupported). With `allow_empty`, a copy with a zero extent passes once
// its memory types are known (cuMemcpy2D/3D do nothing then); graph nodes
// must not be empty.
absl::Status ValidateCopy3D(const Copy3DParams& params, bool allow_empty = false);
absl::Status ValidateMemset(const MemsetNodeParams& params);

// --- Validated entry points ---
// `dependencies` are node handles; null with a non-zero count is invalid.

absl::Status GraphCreate(HandleOut out, unsigned flags);
absl::Status GraphDestroy(uint64_t graph);
absl::Status GraphClone(HandleOut out, uint64_t graph);
absl::Status GraphNodeFindInClone(HandleOut out, uint64_t original, uint64_t clone);

absl::Status GraphAddKernelNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, uint64_t function, const LaunchConfig& config);
absl::Status GraphAddMemcpyNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, const Copy3DParams& params);
absl::Status GraphAddMemsetNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                size_t count, const MemsetNodeParams& params);
absl::Status GraphAddHostNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                              size_t count, const HostNodeParams& params);
absl::Status GraphAddEmptyNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                               size_t count);
absl::Status GraphAddChildGraphNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                    size_t count, uint64_t child);
absl::Status GraphAddEventRecordNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                     size_t count, uint64_t event);
absl::Status GraphAddEventWaitNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                   size_t count, uint64_t event);
// An allocation node of `bytes` on the pool properties' device (the graph's
// device); its address, fixed from now on, goes to `*address`.
// `access`: which devices may use it (the graph's own device read-write;
// other devices need peer access, kNotSupported).
absl::Status GraphAddMemAllocNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                  size_t count, const MemPoolProps& props,
                                  absl::Span<const MemAccessDesc> access, uint64_t bytes,
                                  uint64_t* address);
// A free node for the memory of an allocation node of the same graph that no
// other free node frees.
absl::Status GraphAddMemFreeNode(HandleOut out, uint64_t graph, const uint64_t* dependencies,
                                 size_t count, uint64_t address);
absl::Status GraphMemAllocNodeGetParams(uint64_t node, MemPoolProps* props, uint64_t* bytes,
                                        uint64_t* address);
absl::Status GraphMemFreeNodeGetParams(uint64_t node, uint64_t* address);
// Shared with stream capture: the node parameters for freeing `address` in
// `graph`, checked as GraphAddMemFreeNode checks them.
absl::StatusOr<MemFreeNodeParams> MakeMemFreeNodeParams(const Graph& graph, uint64_t address);

// Lists: with `items` null, `*count` receives the total; otherwise up to
// `*count` handles are written, the rest of the array set to 0, and
// `*count` receives the number written.
absl::Status GraphGetNodes(uint64_t graph, uint64_t* items, size_t* count);
absl::Status GraphGetRootNodes(uint64_t graph, uint64_t* items, size_t* count);
absl::Status GraphGetEdges(uint64_t graph, uint64_t* from, uint64_t* to, size_t* count);
absl::Status GraphNodeGetDependencies(uint64_t node, uint64_t* items, size_t* count);
absl::Status GraphNodeGetDependentNodes(uint64_t node, uint64_t* items, size_t* count);
absl::Status GraphNodeGetType(uint64_t node, GraphNodeType* type);
absl::Status GraphAddDependencies(uint64_t graph, const uint64_t* from, const uint64_t* to,
                                  size_t count);
absl::Status GraphRemoveDependencies(uint64_t graph, const uint64_t* from, const uint64_t* to,
                                     size_t count);
absl::Status GraphDestroyNode(uint64_t node);

// Node parameters. Get returns the node when it has the asked type.
absl::StatusOr<GraphNode*> GraphNodeOfType(uint64_t node, GraphNodeType type);
absl::Status GraphKernelNodeSetParams(uint64_t node, uint64_t function, const LaunchConfig& config);
absl::Status GraphMemcpyNodeSetParams(uint64_t node, const Copy3DParams& params);
absl::Status GraphMemsetNodeSetParams(uint64_t node, const MemsetNodeParams& params);
absl::Status GraphHostNodeSetParams(uint64_t node, const HostNodeParams& params);
absl::Status GraphEventNodeSetEvent(uint64_t node, GraphNodeType type, uint64_t event);
absl::Status GraphChildGraphNodeGetGraph(uint64_t node, HandleOut out);

// cuGraphDebugDotPrint: writes a Graphviz file naming every node's kind and
// parameters. `flags` selects detail as CU_GRAPH_DEBUG_DOT_FLAGS does (all
// shown whatever the flags).
absl::Status GraphDebugDotPrint(uint64_t graph, const char* path, unsigned flags);
// The same text (tests).
absl::StatusOr<std::string> GraphDotText(uint64_t graph);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GRAPH_H_
