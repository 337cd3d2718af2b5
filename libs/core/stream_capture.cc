#include "core/stream_capture.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "core/context.h"
#include "core/device.h"
#include "core/event.h"
#include "core/log.h"
#include "core/mutex.h"
#include "core/status.h"
#include "core/stream.h"

namespace streamhal {
namespace {

// Captures are rare and short: one lock guards every session, every
// stream's capture tail and every event's captured record.
Mutex& CaptureMutex() {
  static Mutex* mutex = new Mutex();
  return *mutex;
}

std::atomic<uint64_t> next_capture_id{1};
// Live sessions, for event records that outlive their capture.
std::vector<CaptureSession*>& LiveSessions() {
  static auto* sessions = new std::vector<CaptureSession*>();
  return *sessions;
}

thread_local CaptureMode thread_capture_mode = CaptureMode::kGlobal;

bool IsLive(uint64_t id) {
  for (CaptureSession* session : LiveSessions()) {
    if (session->id == id) return true;
  }
  return false;
}

// Ends `session`: every stream leaves it; returns the graph.
std::unique_ptr<Graph> Finish(CaptureSession* session) {
  for (Stream* stream : session->streams) {
    stream->capture_state().tail.clear();
    stream->capture_state().tail_handles.clear();
    stream->set_capture(nullptr);
  }
  auto& live = LiveSessions();
  live.erase(std::remove(live.begin(), live.end(), session), live.end());
  std::unique_ptr<Graph> graph = std::move(session->graph);
  delete session;
  return graph;
}

// Adds a node after `stream`'s tail and makes it the new tail.
absl::Status AddToTail(Stream* stream, GraphNodeType type, GraphNode::Params params) {
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  if (session == nullptr) {
    return Error(ErrorCode::kIllegalState, "the stream's capture ended concurrently");
  }
  if (session->invalidated) {
    return Error(ErrorCode::kStreamCaptureInvalidated,
                 "the capture was invalidated by an earlier error; end it");
  }
  Stream::CaptureState& state = stream->capture_state();
  GraphNode* node = session->graph->AddNode(type, std::move(params), state.tail);
  state.tail = {node};
  return absl::OkStatus();
}

void Invalidate(Stream* stream) {
  if (CaptureSession* session = stream->capture()) session->invalidated = true;
}

absl::StatusOr<CaptureMode> ToMode(int mode) {
  if (mode < 0 || mode > static_cast<int>(CaptureMode::kRelaxed)) {
    return Error(ErrorCode::kInvalidValue, "stream capture: unknown mode ", mode);
  }
  return static_cast<CaptureMode>(mode);
}

}  // namespace

absl::Status CaptureKernel(Stream* stream, uint64_t function, const LaunchConfig& config) {
  SH_ASSIGN_OR_RETURN(KernelNodeParams params, MakeKernelNodeParams(function, config));
  return AddToTail(stream, GraphNodeType::kKernel, std::move(params));
}

absl::Status CaptureCopy(Stream* stream, const Copy3DParams& copy) {
  SH_RETURN_IF_ERROR(ValidateCopy3D(copy));
  return AddToTail(stream, GraphNodeType::kMemcpy, copy);
}

absl::Status CaptureMemset(Stream* stream, const MemsetNodeParams& params) {
  SH_RETURN_IF_ERROR(ValidateMemset(params));
  return AddToTail(stream, GraphNodeType::kMemset, params);
}

absl::Status CaptureHostFunction(Stream* stream, void (*fn)(void*), void* data) {
  return AddToTail(stream, GraphNodeType::kHost, HostNodeParams{fn, data});
}

absl::Status CaptureMemAlloc(Stream* stream, uint64_t bytes, uint64_t* address) {
  Context* context = stream->context();
  if (bytes > context->device()->properties().max_allocation_size) {
    return Error(ErrorCode::kOutOfMemory, "cuMemAllocAsync: ", bytes,
                 " bytes exceeds the largest allocation");
  }
  SH_ASSIGN_OR_RETURN(std::shared_ptr<GraphMemory> memory, GraphMemory::Create(context, bytes));
  MemPoolProps props;
  props.location_id = context->device()->ordinal();
  const uint64_t at = memory->address();
  SH_RETURN_IF_ERROR(
      AddToTail(stream, GraphNodeType::kMemAlloc, MemAllocNodeParams{std::move(memory), props}));
  *address = at;
  return absl::OkStatus();
}

absl::Status CaptureMemFree(Stream* stream, uint64_t address) {
  MemFreeNodeParams params;
  {
    MutexLock lock(&CaptureMutex());
    CaptureSession* session = stream->capture();
    if (session == nullptr) {
      return Error(ErrorCode::kIllegalState, "the stream's capture ended concurrently");
    }
    absl::StatusOr<MemFreeNodeParams> made = MakeMemFreeNodeParams(*session->graph, address);
    if (!made.ok()) {
      return Error(ErrorCode::kInvalidValue, "cuMemFreeAsync: in a capturing stream, 0x",
                   absl::Hex(address),
                   " must be memory cuMemAllocAsync allocated in the same "
                   "capture and did not free yet");
    }
    params = *made;
  }
  return AddToTail(stream, GraphNodeType::kMemFree, params);
}

absl::Status CaptureEventRecord(Stream* stream, Event* event) {
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  if (session == nullptr) return Error(ErrorCode::kIllegalState, "the capture ended concurrently");
  Event::Captured captured;
  captured.capture_id = session->id;
  for (GraphNode* node : stream->capture_state().tail) captured.nodes.push_back(node->handle());
  event->set_captured(std::move(captured));
  return absl::OkStatus();
}

absl::Status CaptureExternalEventRecord(Stream* stream, uint64_t event) {
  return AddToTail(stream, GraphNodeType::kEventRecord, EventNodeParams{event});
}

absl::Status CaptureEventWait(Stream* stream, Event* event) {
  MutexLock lock(&CaptureMutex());
  std::optional<Event::Captured> captured = event->captured();
  CaptureSession* source = nullptr;
  for (CaptureSession* session : LiveSessions()) {
    if (captured.has_value() && session->id == captured->capture_id) source = session;
  }
  CaptureSession* session = stream->capture();
  if (source == nullptr) {
    // An event recorded outside any capture: a capturing stream cannot
    // depend on work outside its graph.
    Invalidate(stream);
    return Error(ErrorCode::kStreamCaptureIsolation,
                 "cuStreamWaitEvent: a capturing stream cannot wait on an event recorded "
                 "outside the capture");
  }
  if (session != nullptr && session != source) {
    Invalidate(stream);
    source->invalidated = true;
    return Error(ErrorCode::kStreamCaptureIsolation,
                 "cuStreamWaitEvent: the event belongs to another capture");
  }
  std::vector<GraphNode*> nodes;
  for (uint64_t handle : captured->nodes) {
    // A node destroyed meanwhile (cuGraphDestroyNode on the capture graph)
    // is simply not waited for.
    if (GraphNode* node = LookupAs<GraphNode>(handle)) nodes.push_back(node);
  }
  Stream::CaptureState& state = stream->capture_state();
  if (session == nullptr) {
    // A fork: the stream joins the capture after the event's nodes.
    if (stream->role() == StreamRole::kLegacy) {
      source->invalidated = true;
      return Error(ErrorCode::kStreamCaptureImplicit, "the legacy stream cannot join a capture");
    }
    stream->set_capture(source);
    source->streams.push_back(stream);
    state.tail = std::move(nodes);
    return absl::OkStatus();
  }
  for (GraphNode* node : nodes) {
    if (std::find(state.tail.begin(), state.tail.end(), node) == state.tail.end()) {
      state.tail.push_back(node);
    }
  }
  return absl::OkStatus();
}

absl::Status CaptureForbidden(Stream* stream, const char* what) {
  MutexLock lock(&CaptureMutex());
  Invalidate(stream);
  return Error(ErrorCode::kStreamCaptureUnsupported, what,
               " is not allowed while the stream is capturing; the capture is invalidated");
}

absl::Status CaptureImplicitSync(Stream* stream) {
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  if (session == nullptr || session->mode == CaptureMode::kRelaxed) return absl::OkStatus();
  session->invalidated = true;
  return Error(ErrorCode::kStreamCaptureImplicit,
               "the legacy stream would synchronise with a capturing blocking stream; "
               "the capture is invalidated");
}

bool EventIsCaptured(const Event& event) {
  std::optional<Event::Captured> captured = event.captured();
  if (!captured.has_value()) return false;
  MutexLock lock(&CaptureMutex());
  return IsLive(captured->capture_id);
}

void LeaveCapture(Stream* stream) {
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  if (session == nullptr) return;
  session->invalidated = true;
  if (session->origin == stream) {
    Log(LogLevel::kWarning, "a stream was destroyed while capturing; its capture is dropped");
    Finish(session);
    return;
  }
  auto& streams = session->streams;
  streams.erase(std::remove(streams.begin(), streams.end(), stream), streams.end());
  stream->capture_state().tail.clear();
  stream->set_capture(nullptr);
}

// --- Entry points ---

absl::Status StreamBeginCapture(uint64_t handle, int mode_value) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  SH_ASSIGN_OR_RETURN(CaptureMode mode, ToMode(mode_value));
  if (stream->role() == StreamRole::kLegacy) {
    return Error(ErrorCode::kStreamCaptureUnsupported,
                 "cuStreamBeginCapture: the legacy default stream cannot be captured");
  }
  MutexLock lock(&CaptureMutex());
  if (stream->capture() != nullptr) {
    return Error(ErrorCode::kIllegalState, "cuStreamBeginCapture: the stream is capturing already");
  }
  auto* session = new CaptureSession();
  session->id = next_capture_id.fetch_add(1);
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->origin = stream;
  session->graph = std::make_unique<Graph>(stream->context());
  session->streams.push_back(stream);
  LiveSessions().push_back(session);
  stream->capture_state().tail.clear();
  stream->set_capture(session);
  return absl::OkStatus();
}

absl::Status StreamEndCapture(uint64_t handle, HandleOut out) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (out.is_null()) return Error(ErrorCode::kInvalidValue, "cuStreamEndCapture: phGraph is null");
  std::unique_ptr<Graph> graph;
  {
    MutexLock lock(&CaptureMutex());
    CaptureSession* session = stream->capture();
    if (session == nullptr) {
      return Error(ErrorCode::kIllegalState, "cuStreamEndCapture: the stream is not capturing");
    }
    if (session->origin != stream) {
      // Only the stream that began the capture ends it; the capture stays.
      session->invalidated = true;
      return Error(ErrorCode::kStreamCaptureUnmatched,
                   "cuStreamEndCapture: the capture was begun on another stream");
    }
    if (session->mode != CaptureMode::kRelaxed && session->thread != std::this_thread::get_id()) {
      return Error(ErrorCode::kStreamCaptureWrongThread,
                   "cuStreamEndCapture: the capture was begun on another thread");
    }
    if (session->invalidated) {
      Finish(session);
      out.Set(0);
      return Error(ErrorCode::kStreamCaptureInvalidated,
                   "cuStreamEndCapture: the capture was invalidated by an earlier error");
    }
    // Every forked stream must have been joined: its tail lies behind the
    // origin's.
    absl::flat_hash_set<const GraphNode*> behind;
    std::vector<const GraphNode*> pending(stream->capture_state().tail.begin(),
                                          stream->capture_state().tail.end());
    while (!pending.empty()) {
      const GraphNode* node = pending.back();
      pending.pop_back();
      if (!behind.insert(node).second) continue;
      for (const GraphNode* dependency : node->dependencies()) pending.push_back(dependency);
    }
    for (Stream* other : session->streams) {
      if (other == stream) continue;
      for (const GraphNode* node : other->capture_state().tail) {
        if (!behind.contains(node)) {
          Finish(session);
          out.Set(0);
          return Error(ErrorCode::kStreamCaptureUnjoined,
                       "cuStreamEndCapture: a stream forked into the capture was not joined "
                       "back into the capturing stream");
        }
      }
    }
    graph = Finish(session);
  }
  Context* context = graph->context();
  out.Set(graph->handle());
  context->Adopt(std::move(graph));
  return absl::OkStatus();
}

absl::Status StreamIsCapturing(uint64_t handle, CaptureStatus* status) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (status == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuStreamIsCapturing: captureStatus is null");
  }
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  *status = session == nullptr     ? CaptureStatus::kNone
            : session->invalidated ? CaptureStatus::kInvalidated
                                   : CaptureStatus::kActive;
  if (session == nullptr && stream->role() == StreamRole::kLegacy) {
    for (CaptureSession* live : LiveSessions()) {
      if (live->mode != CaptureMode::kRelaxed && live->origin->context() == stream->context() &&
          live->origin->role() == StreamRole::kBlocking) {
        return Error(ErrorCode::kStreamCaptureImplicit,
                     "cuStreamIsCapturing: the legacy stream would synchronise with a capture");
      }
    }
  }
  return absl::OkStatus();
}

absl::Status StreamGetCaptureInfo(uint64_t handle, CaptureStatus* status, uint64_t* id,
                                  HandleOut graph, const uint64_t** dependencies, size_t* count) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  const CaptureStatus value = session == nullptr     ? CaptureStatus::kNone
                              : session->invalidated ? CaptureStatus::kInvalidated
                                                     : CaptureStatus::kActive;
  if (status != nullptr) *status = value;
  if (value != CaptureStatus::kActive) return absl::OkStatus();
  if (id != nullptr) *id = session->id;
  if (!graph.is_null()) graph.Set(session->graph->handle());
  Stream::CaptureState& state = stream->capture_state();
  state.tail_handles.clear();
  for (GraphNode* node : state.tail) state.tail_handles.push_back(node->handle());
  if (dependencies != nullptr) {
    *dependencies = state.tail_handles.empty() ? nullptr : state.tail_handles.data();
  }
  if (count != nullptr) *count = state.tail_handles.size();
  return absl::OkStatus();
}

absl::Status StreamUpdateCaptureDependencies(uint64_t handle, const uint64_t* dependencies,
                                             size_t count, unsigned flags) {
  SH_ASSIGN_OR_RETURN(Stream * stream, ResolveStream(handle));
  if (flags > 1) {
    return Error(ErrorCode::kInvalidValue, "cuStreamUpdateCaptureDependencies: unknown flags ",
                 flags);
  }
  if (dependencies == nullptr && count > 0) {
    return Error(ErrorCode::kInvalidValue,
                 "cuStreamUpdateCaptureDependencies: dependencies is null");
  }
  MutexLock lock(&CaptureMutex());
  CaptureSession* session = stream->capture();
  if (session == nullptr || session->invalidated) {
    return Error(ErrorCode::kIllegalState,
                 "cuStreamUpdateCaptureDependencies: the stream is not capturing");
  }
  std::vector<GraphNode*> nodes;
  for (size_t i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(GraphNode * node, ResolveGraphNode(dependencies[i]));
    if (node->graph() != session->graph.get()) {
      return Error(ErrorCode::kInvalidValue, "cuStreamUpdateCaptureDependencies: node ", i,
                   " is not in the capture's graph");
    }
    nodes.push_back(node);
  }
  Stream::CaptureState& state = stream->capture_state();
  if (flags == 1) state.tail.clear();
  for (GraphNode* node : nodes) {
    if (std::find(state.tail.begin(), state.tail.end(), node) == state.tail.end()) {
      state.tail.push_back(node);
    }
  }
  return absl::OkStatus();
}

absl::Status ThreadExchangeStreamCaptureMode(int* mode) {
  if (mode == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuThreadExchangeStreamCaptureMode: mode is null");
  }
  SH_ASSIGN_OR_RETURN(CaptureMode next, ToMode(*mode));
  *mode = static_cast<int>(thread_capture_mode);
  thread_capture_mode = next;
  return absl::OkStatus();
}

}  // namespace streamhal
