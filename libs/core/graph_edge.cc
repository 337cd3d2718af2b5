#include "core/graph_edge.h"

#include <memory>
#include <vector>

#include "core/graph.h"
#include "core/mutex.h"
#include "core/status.h"

namespace streamhal {
namespace {

// CUgraphDependencyType and CU_GRAPH_KERNEL_NODE_PORT_* limits.
constexpr uint8_t kLastDependencyType = 1;  // CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC
constexpr uint8_t kLastKernelPort = 2;      // CU_GRAPH_KERNEL_NODE_PORT_LAUNCH_ORDER

}  // namespace

absl::Status CheckDefaultEdges(const GraphEdgeData* edges, size_t count, const char* what) {
  if (edges == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < count; ++i) {
    const GraphEdgeData& edge = edges[i];
    bool reserved = false;
    for (uint8_t byte : edge.reserved) reserved |= byte != 0;
    // CUDA: no node type defines a to_port, and the reserved bytes are zero.
    if (edge.to_port != 0 || reserved || edge.type > kLastDependencyType ||
        edge.from_port > kLastKernelPort) {
      return Error(ErrorCode::kInvalidValue, what, ": edge ", i,
                   " has a to_port, reserved bytes or a type or from_port CUDA does not define");
    }
    if (edge.type != 0 || edge.from_port != 0) {
      return Error(ErrorCode::kNotSupported, what, ": edge ", i,
                   " is programmatic; only default edges are supported");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDefaultEdgesOf(const uint64_t* from, const uint64_t* to,
                                 const GraphEdgeData* edges, size_t count, const char* what) {
  if (edges == nullptr || from == nullptr) return absl::OkStatus();
  for (size_t i = 0; i < count; ++i) {
    if (LookupAs<GraphNode>(from[i]) == nullptr) return absl::OkStatus();
    if (to != nullptr && LookupAs<GraphNode>(to[i]) == nullptr) return absl::OkStatus();
    SH_RETURN_IF_ERROR(CheckDefaultEdges(edges + i, 1, what));
  }
  return absl::OkStatus();
}

const GraphEdgeData* DefaultEdges(size_t count) {
  if (count == 0) return nullptr;
  // One zeroed array that only grows; the arrays handed out before stay
  // alive (and zero), so no caller's pointer dangles.
  static Mutex* mutex = new Mutex;
  static auto* arrays = new std::vector<std::unique_ptr<GraphEdgeData[]>>;
  static size_t capacity = 0;
  MutexLock lock(mutex);
  if (count > capacity) {
    const size_t grown = count > 2 * capacity ? count : 2 * capacity;
    arrays->push_back(std::make_unique<GraphEdgeData[]>(grown));  // value-initialised: zero
    capacity = grown;
  }
  return arrays->back().get();
}

void WriteDefaultEdges(GraphEdgeData* edges, size_t count) {
  if (edges == nullptr) return;
  for (size_t i = 0; i < count; ++i) edges[i] = GraphEdgeData{};
}

absl::Status StreamGetCaptureInfoWithEdges(uint64_t stream, CaptureStatus* status, uint64_t* id,
                                           HandleOut graph, const uint64_t** dependencies,
                                           const GraphEdgeData** edges, size_t* count) {
  // CUDA: edgeData_out needs dependencies_out.
  if (edges != nullptr && dependencies == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuStreamGetCaptureInfo_v3: edgeData_out is given without dependencies_out");
  }
  CaptureStatus value = CaptureStatus::kNone;
  size_t number = 0;
  const uint64_t* nodes = nullptr;
  SH_RETURN_IF_ERROR(StreamGetCaptureInfo(stream, &value, id, graph,
                                          dependencies != nullptr ? &nodes : nullptr, &number));
  if (status != nullptr) *status = value;
  // As the CUDA 12 form: the arrays are null outside an active capture.
  const bool active = value == CaptureStatus::kActive;
  if (dependencies != nullptr) *dependencies = active ? nodes : nullptr;
  if (edges != nullptr) *edges = active ? DefaultEdges(number) : nullptr;
  if (active && count != nullptr) *count = number;
  return absl::OkStatus();
}

absl::Status StreamUpdateCaptureDependenciesWithEdges(uint64_t stream, const uint64_t* dependencies,
                                                      const GraphEdgeData* edges, size_t count,
                                                      unsigned flags) {
  SH_RETURN_IF_ERROR(CheckDefaultEdgesOf(dependencies, nullptr, edges, count,
                                         "cuStreamUpdateCaptureDependencies_v2"));
  return StreamUpdateCaptureDependencies(stream, dependencies, count, flags);
}

}  // namespace streamhal
