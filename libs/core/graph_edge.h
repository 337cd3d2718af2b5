// Dependency edges with data (CUDA 12.3's CUgraphEdgeData), as the edge-data
// forms of the capture calls take and return them (cuStreamGetCaptureInfo_v3,
// cuStreamUpdateCaptureDependencies_v2; the plain names in CUDA 13.0).
//
// Every edge streamhal keeps is a default edge: all zero, the whole upstream
// node completes before the downstream node starts and its memory is
// visible there. Programmatic edges (a kernel's early trigger or launch
// order) would need device-side signalling that Vulkan compute lacks; asking
// for one is kNotSupported.
#ifndef STREAMHAL_CORE_GRAPH_EDGE_H_
#define STREAMHAL_CORE_GRAPH_EDGE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "core/handle.h"
#include "core/stream_capture.h"

namespace streamhal {

// CUgraphEdgeData's layout.
struct GraphEdgeData {
  uint8_t from_port;
  uint8_t to_port;
  uint8_t type;
  uint8_t reserved[5];
};
static_assert(sizeof(GraphEdgeData) == 8);

// Checks `count` edges (null: all default): fields outside CUDA's ranges or
// non-zero reserved bytes are kInvalidValue, valid edges other than default
// ones kNotSupported.
absl::Status CheckDefaultEdges(const GraphEdgeData* edges, size_t count, const char* what);

// As CheckDefaultEdges, for the edges of `count` dependencies whose nodes
// are `from[i]` (and `to[i]`, when `to` is not null): edge i is read only
// once the node handles at i name live graph nodes. A bad node handle ends
// the check (OK): the call it guards reports it, so a count larger than
// the caller's arrays stops at the first bad handle, as the forms without
// edge data do, rather than reading past the edges.
absl::Status CheckDefaultEdgesOf(const uint64_t* from, const uint64_t* to,
                                 const GraphEdgeData* edges, size_t count, const char* what);

// `count` default edges (null for 0), valid for the life of the process and
// never written again, so any number of callers may hold them.
const GraphEdgeData* DefaultEdges(size_t count);

// cuStreamGetCaptureInfo_v3: StreamGetCaptureInfo plus `*edges`, the edge of
// each dependency. `edges` needs `dependencies`.
absl::Status StreamGetCaptureInfoWithEdges(uint64_t stream, CaptureStatus* status, uint64_t* id,
                                           HandleOut graph, const uint64_t** dependencies,
                                           const GraphEdgeData** edges, size_t* count);
// cuStreamUpdateCaptureDependencies_v2: `edges` (may be null) must be
// default edges.
absl::Status StreamUpdateCaptureDependenciesWithEdges(uint64_t stream, const uint64_t* dependencies,
                                                      const GraphEdgeData* edges, size_t count,
                                                      unsigned flags);

// Writes `count` default edges to `edges` (may be null): the edge data of
// the edges or dependencies a graph query returned.
void WriteDefaultEdges(GraphEdgeData* edges, size_t count);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_GRAPH_EDGE_H_
