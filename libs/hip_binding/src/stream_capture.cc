// Stream capture (hipStreamBeginCapture ... hipStreamEndCapture).
#include "core/stream_capture.h"

#include <hip/hip_runtime_api.h>

#include "call.h"
#include "core/c_enum.h"
#include "core/handle.h"

using streamhal::HandleOut;
using streamhal::HandleValue;
using streamhal::hip::RuntimeCall;

extern "C" {

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  return RuntimeCall([&] {
    return streamhal::StreamBeginCapture(HandleValue(stream), streamhal::EnumArgument(mode));
  });
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t* graph) {
  return RuntimeCall(
      [&] { return streamhal::StreamEndCapture(HandleValue(stream), HandleOut(graph)); });
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus* status) {
  return RuntimeCall([&] {
    streamhal::CaptureStatus value = streamhal::CaptureStatus::kNone;
    absl::Status result =
        streamhal::StreamIsCapturing(HandleValue(stream), status != nullptr ? &value : nullptr);
    if (status != nullptr) *status = static_cast<hipStreamCaptureStatus>(value);
    return result;
  });
}

hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus* status,
                                      unsigned long long* id, hipGraph_t* graph,
                                      const hipGraphNode_t** dependencies, size_t* count) {
  return RuntimeCall([&] {
    streamhal::CaptureStatus value = streamhal::CaptureStatus::kNone;
    uint64_t capture_id = 0;
    const uint64_t* nodes = nullptr;
    absl::Status result =
        streamhal::StreamGetCaptureInfo(HandleValue(stream), &value, &capture_id, HandleOut(graph),
                                        dependencies != nullptr ? &nodes : nullptr, count);
    if (result.ok()) {
      if (status != nullptr) *status = static_cast<hipStreamCaptureStatus>(value);
      if (id != nullptr && value == streamhal::CaptureStatus::kActive) *id = capture_id;
      if (dependencies != nullptr) *dependencies = reinterpret_cast<const hipGraphNode_t*>(nodes);
    }
    return result;
  });
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus* status,
                                   unsigned long long* id) {
  if (status == nullptr) return hipErrorInvalidValue;
  return hipStreamGetCaptureInfo_v2(stream, status, id, nullptr, nullptr, nullptr);
}

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t* dependencies,
                                              size_t count, unsigned int flags) {
  return RuntimeCall([&] {
    return streamhal::StreamUpdateCaptureDependencies(
        HandleValue(stream), reinterpret_cast<const uint64_t*>(dependencies), count, flags);
  });
}

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode* mode) {
  if (mode == nullptr) return hipErrorInvalidValue;
  return RuntimeCall([&] {
    int value = streamhal::EnumArgument(*mode);
    absl::Status result = streamhal::ThreadExchangeStreamCaptureMode(&value);
    if (result.ok()) *mode = static_cast<hipStreamCaptureMode>(value);
    return result;
  });
}

}  // extern "C"
