// Stream capture (cuStreamBeginCapture ... cuStreamEndCapture).
#include "core/stream_capture.h"

#include <cuda.h>

#include "core/c_enum.h"
#include "core/graph_edge.h"
#include "core/handle.h"
#include "core/status.h"
#include "result.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::cuda::ToCUresult;

extern "C" {

CUresult cuStreamBeginCapture(CUstream stream, CUstreamCaptureMode mode) {
  return ToCUresult(
      streamhal::StreamBeginCapture(HandleValue(stream), streamhal::EnumArgument(mode)));
}

CUresult cuStreamEndCapture(CUstream stream, CUgraph* graph) {
  return ToCUresult(streamhal::StreamEndCapture(HandleValue(stream), HandleOut(graph)));
}

CUresult cuStreamIsCapturing(CUstream stream, CUstreamCaptureStatus* status) {
  streamhal::CaptureStatus value = streamhal::CaptureStatus::kNone;
  absl::Status result =
      streamhal::StreamIsCapturing(HandleValue(stream), status ? &value : nullptr);
  if (status != nullptr) *status = static_cast<CUstreamCaptureStatus>(value);
  return ToCUresult(result);
}

CUresult cuStreamGetCaptureInfo(CUstream stream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                CUgraph* graph, const CUgraphNode** dependencies, size_t* count) {
  streamhal::CaptureStatus value = streamhal::CaptureStatus::kNone;
  uint64_t capture_id = 0;
  const uint64_t* nodes = nullptr;
  absl::Status result =
      streamhal::StreamGetCaptureInfo(HandleValue(stream), &value, &capture_id, HandleOut(graph),
                                      dependencies != nullptr ? &nodes : nullptr, count);
  if (result.ok()) {
    if (status != nullptr) *status = static_cast<CUstreamCaptureStatus>(value);
    if (id != nullptr && value == streamhal::CaptureStatus::kActive) *id = capture_id;
    if (dependencies != nullptr) *dependencies = reinterpret_cast<const CUgraphNode*>(nodes);
  }
  return ToCUresult(result);
}

CUresult cuStreamUpdateCaptureDependencies(CUstream stream, CUgraphNode* dependencies, size_t count,
                                           unsigned int flags) {
  return ToCUresult(streamhal::StreamUpdateCaptureDependencies(
      HandleValue(stream), reinterpret_cast<const uint64_t*>(dependencies), count, flags));
}

static_assert(sizeof(CUgraphEdgeData) == sizeof(streamhal::GraphEdgeData) &&
              alignof(CUgraphEdgeData) == alignof(streamhal::GraphEdgeData));

CUresult cuStreamGetCaptureInfo_v3(CUstream stream, CUstreamCaptureStatus* status, cuuint64_t* id,
                                   CUgraph* graph, const CUgraphNode** dependencies,
                                   const CUgraphEdgeData** edges, size_t* count) {
  streamhal::CaptureStatus value = streamhal::CaptureStatus::kNone;
  uint64_t capture_id = 0;
  const uint64_t* nodes = nullptr;
  const streamhal::GraphEdgeData* edge_data = nullptr;
  absl::Status result = streamhal::StreamGetCaptureInfoWithEdges(
      HandleValue(stream), &value, &capture_id, HandleOut(graph),
      dependencies != nullptr ? &nodes : nullptr, edges != nullptr ? &edge_data : nullptr, count);
  if (result.ok()) {
    if (status != nullptr) *status = static_cast<CUstreamCaptureStatus>(value);
    if (id != nullptr && value == streamhal::CaptureStatus::kActive) *id = capture_id;
    if (dependencies != nullptr) *dependencies = reinterpret_cast<const CUgraphNode*>(nodes);
    if (edges != nullptr) *edges = reinterpret_cast<const CUgraphEdgeData*>(edge_data);
  }
  return ToCUresult(result);
}

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream stream, CUgraphNode* dependencies,
                                              const CUgraphEdgeData* dependencyData, size_t count,
                                              unsigned int flags) {
  return ToCUresult(streamhal::StreamUpdateCaptureDependenciesWithEdges(
      HandleValue(stream), reinterpret_cast<const uint64_t*>(dependencies),
      reinterpret_cast<const streamhal::GraphEdgeData*>(dependencyData), count, flags));
}

CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  if (mode == nullptr) return CUDA_ERROR_INVALID_VALUE;
  int value = streamhal::EnumArgument(*mode);
  CUresult result = ToCUresult(streamhal::ThreadExchangeStreamCaptureMode(&value));
  if (result == CUDA_SUCCESS) *mode = static_cast<CUstreamCaptureMode>(value);
  return result;
}

}  // extern "C"
