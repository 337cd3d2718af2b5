// Stream capture (cuStreamBeginCapture ... cuStreamEndCapture): while a
// stream captures, the work issued to it becomes nodes of a graph instead of
// running. Each capturing stream has a set of tail nodes that its next node
// depends on; an event recorded in a capturing stream remembers that tail,
// and a stream that waits on it joins the capture with it (a fork), or adds
// it to its own tail (a join). Ending the capture on the stream that began
// it returns the graph, once every forked stream has been joined back.
//
// The entry points that issue work (launch.cc, transfer.cc, stream.cc,
// event.cc) check Stream::capture() after resolving their stream and hand
// the work to the Capture* functions here instead of recording it.
#ifndef STREAMHAL_CORE_STREAM_CAPTURE_H_
#define STREAMHAL_CORE_STREAM_CAPTURE_H_

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "core/graph.h"
#include "core/handle.h"
#include "core/launch_params.h"

namespace streamhal {

class Event;
class Stream;

// CUstreamCaptureMode.
enum class CaptureMode : int { kGlobal = 0, kThreadLocal = 1, kRelaxed = 2 };
// CUstreamCaptureStatus.
enum class CaptureStatus : int { kNone = 0, kActive = 1, kInvalidated = 2 };

// One capture in progress: its graph and the streams taking part.
struct CaptureSession {
  uint64_t id = 0;
  CaptureMode mode = CaptureMode::kGlobal;
  std::thread::id thread;  // that began it (thread-local mode)
  Stream* origin = nullptr;
  std::unique_ptr<Graph> graph;
  std::vector<Stream*> streams;  // the origin first
  bool invalidated = false;
};

// --- Work issued to a capturing stream (the stream's capture() is set) ---
absl::Status CaptureKernel(Stream* stream, uint64_t function, const LaunchConfig& config);
absl::Status CaptureCopy(Stream* stream, const Copy3DParams& copy);
absl::Status CaptureMemset(Stream* stream, const MemsetNodeParams& params);
absl::Status CaptureHostFunction(Stream* stream, void (*fn)(void*), void* data);
// cuMemAllocAsync in a capturing stream: an allocation node of `bytes` on
// the capture's device; its address goes to `*address`.
absl::Status CaptureMemAlloc(Stream* stream, uint64_t bytes, uint64_t* address);
// cuMemFreeAsync in a capturing stream: a free node, for memory an
// allocation node of the same capture made (kInvalidValue otherwise).
absl::Status CaptureMemFree(Stream* stream, uint64_t address);
absl::Status CaptureEventRecord(Stream* stream, Event* event);
// cuEventRecordWithFlags(CU_EVENT_RECORD_EXTERNAL) in a capture: an event
// record node after the stream's tail, as cuGraphAddEventRecordNode adds.
absl::Status CaptureExternalEventRecord(Stream* stream, uint64_t event);
// A wait by `stream` (capturing or not) on an event recorded in a capture.
absl::Status CaptureEventWait(Stream* stream, Event* event);
// A call that cannot be captured (a synchronisation, a synchronous copy):
// invalidates the capture and returns kStreamCaptureUnsupported.
absl::Status CaptureForbidden(Stream* stream, const char* what);
// The legacy stream is about to order itself after `stream`, which
// captures: invalidates that capture unless it is relaxed and returns
// kStreamCaptureImplicit (OK when relaxed).
absl::Status CaptureImplicitSync(Stream* stream);
// Whether `event` was last recorded in a capture that is still going on.
bool EventIsCaptured(const Event& event);
// A stream that is destroyed while it captures leaves the capture, which is
// invalidated.
void LeaveCapture(Stream* stream);

// --- Validated entry points ---
absl::Status StreamBeginCapture(uint64_t stream, int mode);
absl::Status StreamEndCapture(uint64_t stream, HandleOut graph);
absl::Status StreamIsCapturing(uint64_t stream, CaptureStatus* status);
// CUDA 12 form: every output may be null. `*dependencies` stays valid until
// the next call that changes the stream's capture.
absl::Status StreamGetCaptureInfo(uint64_t stream, CaptureStatus* status, uint64_t* id,
                                  HandleOut graph, const uint64_t** dependencies, size_t* count);
// flags: 0 adds to the stream's tail, 1 replaces it.
absl::Status StreamUpdateCaptureDependencies(uint64_t stream, const uint64_t* dependencies,
                                             size_t count, unsigned flags);
// cuThreadExchangeStreamCaptureMode for the calling thread.
absl::Status ThreadExchangeStreamCaptureMode(int* mode);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_STREAM_CAPTURE_H_
