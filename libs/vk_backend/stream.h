// A CUDA stream on Vulkan (design decision 4: streams batch).
//
// Record* validate nothing (core did) and append a compact command to the
// stream's CommandList; Flush records the list into a command buffer from
// the stream's own pool, submits it and signals the stream's timeline
// semaphore to the next point (1, 2, 3, ...). Ordering:
//  * across submissions: each submission waits on the stream's own previous
//    point (a semaphore wait covers all memory of earlier work), so batches
//    run in order without tying this stream to others on the same queue;
//  * inside a command buffer: a global memory barrier (compute and transfer,
//    writes -> reads and writes) between every two commands. CUDA orders
//    every operation of a stream after the previous one, and nothing tells
//    the backend that two kernels touch disjoint memory, so the barrier is
//    never skipped. The pieces of one split launch are one CUDA launch and
//    get no barrier between them;
//  * at the end of every command buffer a barrier makes device writes
//    visible to the host, which reads mapped memory after a Wait; after a
//    wait on a host function's point, a host-to-device barrier makes what
//    the function wrote visible to later commands.
// A recording (recording.h; RecordExecute) is a batch of its own: pending
// commands are flushed first, then the recording's prerecorded command
// buffer is submitted like any batch, and the in-flight ring keeps the
// recording alive until its point is reached.
//
// Command buffers are recycled through a small ring (each remembers the
// point it signals); a batch is flushed on its own after
// kMaxCommandsPerBatch commands to bound its size. Host-visible scratch
// (uploads, downloads, fill edges, big parameter blocks) comes from a
// per-stream StagingRing, reused as points complete; it is written when a
// command is appended, so a pageable source has been read when the call
// returns, as CUDA requires.
//
// Other streams' points (RecordWait) become extra semaphore waits of the
// next submission. A host function takes a point of its own: the stream's
// host thread (started on first use) waits for the work before it, runs the
// function and then signals that point from the host, and the next
// submission waits for it like for any earlier point. No submission is
// queued before every point it waits for has its signal queued or made
// (Timeline::submitted): a queue waiting for a host function would hold up
// the other streams' work behind it, which may be the very work the
// function waits for (a stream memory wait released by another stream's
// write). Such a batch is handed to the host thread, which submits it once
// those points are reached.
#ifndef STREAMHAL_VK_BACKEND_STREAM_H_
#define STREAMHAL_VK_BACKEND_STREAM_H_

#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"
#include "vk_backend/allocator.h"
#include "vk_backend/command_list.h"
#include "vk_backend/completion_marker.h"
#include "vk_backend/staging.h"
#include "vk_backend/timeline.h"
#include "vk_backend/timestamps.h"

namespace streamhal::vk {

class VulkanDevice;

class VulkanStream final : public streamhal::BackendStream {
 public:
  // Commands recorded before a batch is submitted on its own.
  static constexpr uint32_t kMaxCommandsPerBatch = 1024;
  // Command buffers in flight before recording waits for the oldest.
  static constexpr size_t kMaxBatchesInFlight = 16;
  // Batches in flight before starting one reclaims those that completed.
  static constexpr size_t kReclaimBatches = 4;
  // Points in a row that may go by without a batch writing the completion
  // marker (recordings and host functions do not): the 32-bit marker then
  // stays within 2^31 of any point asked about (completion_marker.h).
  static constexpr uint64_t kMaxUnmarkedRun = uint64_t{1} << 29;
  // Bytes of the staging ring; larger requests get their own allocation.
  static constexpr uint64_t kStagingRingBytes = 1 << 20;

  static absl::StatusOr<std::unique_ptr<VulkanStream>> Create(VulkanDevice* device);
  // Submits what is recorded and waits for all of it (CUDA: destroying a
  // stream lets its work complete).
  ~VulkanStream() override;
  VulkanStream(const VulkanStream&) = delete;
  VulkanStream& operator=(const VulkanStream&) = delete;

  absl::Status RecordDispatch(const DispatchParams& params) override;
  absl::Status RecordCopy(BufferRange dst, BufferRange src, uint64_t size) override;
  absl::Status RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                          uint64_t count) override;
  absl::Status RecordUpload(BufferRange dst, const void* src, uint64_t size) override;
  absl::Status RecordDownload(void* dst, BufferRange src, uint64_t size) override;
  absl::Status RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) override;
  absl::Status RecordUploadBox(BufferRange dst, const void* src, const CopyBox& box) override;
  absl::Status RecordDownloadBox(void* dst, BufferRange src, const CopyBox& box) override;
  absl::Status RecordFillRows(BufferRange dst, uint32_t pattern, uint32_t element_size,
                              uint64_t count, uint64_t pitch, uint64_t rows) override;
  absl::Status RecordBufferToImage(BackendImage* dst, const ImageBox& box,
                                   const ImageBufferSide& src) override;
  absl::Status RecordImageToBuffer(const ImageBufferSide& dst, BackendImage* src,
                                   const ImageBox& box) override;
  absl::Status RecordImageToImage(BackendImage* dst, const ImageBox& dst_box, BackendImage* src,
                                  const ImageBox& box) override;
  absl::StatusOr<uint64_t> Flush() override;
  using BackendStream::Wait;
  absl::Status Wait(uint64_t point, const WaitPolicy& policy) override;
  using BackendStream::IsComplete;
  absl::StatusOr<bool> IsComplete(uint64_t point, Completion completion) override;

  absl::Status RecordWait(BackendStream* other, uint64_t point) override;
  absl::StatusOr<uint64_t> RecordTimestamp() override;
  absl::StatusOr<uint64_t> ReadTimestamp(uint64_t id) override;
  absl::Status RecordHostFunction(void (*fn)(void*), void* data) override;
  // Flushes what is recorded, then submits the recording's command buffer
  // as a batch of its own (one point).
  absl::Status RecordExecute(std::shared_ptr<BackendRecording> recording) override;

  // The timeline semaphore whose value is this stream's completed point.
  const std::shared_ptr<Timeline>& timeline() const { return timeline_; }
  // Whether batches write a completion marker (the device has host-visible
  // coherent memory), and the marker.
  bool has_completion_marker() const { return marker_.valid(); }
  const CompletionMarker& completion_marker() const { return marker_; }
  // Whether the batch of `point` writes the marker (false for points too
  // old to tell). Any thread.
  bool IsMarked(uint64_t point) const;
  // Tests: a shorter unmarked run than kMaxUnmarkedRun.
  void SetMaxUnmarkedRunForTesting(uint64_t points) { max_unmarked_run_ = points; }
  // The last point submitted (recording thread only).
  uint64_t submitted_point() const { return submitted_point_; }
  // Command buffers created so far (tests).
  size_t command_buffer_count() const { return command_buffer_count_; }

 private:
  struct Staged {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t buffer_offset = 0;
    uint8_t* host = nullptr;
  };
  struct Batch {
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    uint64_t point = 0;
    // The device's number for it; set by the host thread for a batch it
    // submits.
    std::atomic<uint64_t> submission{0};
    // Other streams' timelines the submission waits on, kept alive until
    // it has completed.
    std::vector<TimelineWait> waits;
    // Set when the batch runs a recording (RecordExecute): the command
    // buffer is the recording's, kept alive here until the batch is
    // reclaimed (once it has completed, by the next Flush, a full ring or
    // the stream's destruction).
    std::shared_ptr<BackendRecording> recording;
    // Textures and surfaces its launches bind (kept alive as the recording).
    std::vector<std::shared_ptr<BackendResourceView>> views;
  };
  // A host function, or (fn null) a batch to submit once its waits are
  // reached.
  struct HostTask {
    void (*fn)(void*) = nullptr;
    void* data = nullptr;
    uint64_t after = 0;               // this stream's point to wait for
    std::vector<TimelineWait> waits;  // other streams' points
    uint64_t point = 0;               // signalled once fn has returned / by the batch
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;  // the batch
    Batch* batch = nullptr;                           // its record in in_flight_
    TimestampRing* timestamps = nullptr;              // where it may write timestamps
  };
  // Packed rows in staging, delivered to `dst` at box.DstRow offsets (a 1-D
  // download is one row).
  struct PendingDownload {
    uint64_t point = 0;
    const uint8_t* staging = nullptr;
    void* dst = nullptr;
    CopyBox box;
  };
  struct Retired {
    uint64_t point = 0;
    std::unique_ptr<VulkanAllocation> allocation;
  };

  explicit VulkanStream(VulkanDevice* device);

  // The point the batch being recorded will signal.
  uint64_t current_point() const { return submitted_point_ + 1; }
  // Scratch for `size` bytes, usable by the current batch.
  absl::StatusOr<Staged> Stage(uint64_t size, uint64_t alignment);
  // Scratch in the ring only (waits for space when it is full); returns the
  // offset from the ring's start.
  absl::StatusOr<uint64_t> StageInRing(uint64_t size, uint64_t alignment);
  absl::Status EnsureRing();
  absl::StatusOr<VkDescriptorSet> ParamsSet();

  // Appends a command (see CommandList::Append); the first after a wait on a
  // host function imports the host's writes.
  template <typename T>
  T* Append(uint32_t trailing = 0, uint8_t** trailing_out = nullptr) {
    return commands_.Append<T>(std::exchange(host_writes_to_import_, false), trailing,
                               trailing_out);
  }
  // Flushes a full batch.
  absl::Status EndCommand();
  // Appends the commands of a pitched copy between buffers (no EndCommand:
  // staging a caller reserved for the current batch stays in it).
  void AppendBoxCopy(VkBuffer dst, uint64_t dst_base, VkBuffer src, uint64_t src_base,
                     const CopyBox& box);
  // Makes room for one more batch in flight: when kMaxBatchesInFlight are,
  // reclaims what completed, or else waits for the oldest.
  absl::Status ReserveBatch();
  // A command buffer to record the next batch into, begun (room reserved).
  absl::StatusOr<VkCommandBuffer> StartBatch();
  // Submits `command_buffer` (which writes the completion marker if
  // `marked`) to signal the next point, after the stream's
  // previous point and the pending waits, and records it as in flight
  // (room must be reserved). On failure nothing changes: the point, the
  // waits and the command buffer are the caller's again. When a wait's
  // signal is not queued yet, the host thread submits the batch later.
  absl::StatusOr<Batch*> Submit(VkCommandBuffer command_buffer, bool marked);
  // Records the commands accepted since the last submission (maybe none)
  // into a command buffer and submits it; Flush without the empty check.
  absl::StatusOr<uint64_t> SubmitBatch();
  // Records whether the batch of `point` writes the completion marker, and
  // keeps runs of unmarked points short: before an unmarked point would end
  // a run of max_unmarked_run_, submits an empty marked batch.
  void NoteMarked(uint64_t point, bool marked);
  absl::Status KeepMarkerClose();
  // The point up to which results are in memory: the timeline's value, or
  // the marker's where it is ahead (it runs ahead of the signal).
  absl::StatusOr<uint64_t> ResultsPoint() const;
  // Queues `command_buffer`, which waits for this stream's point `after` and
  // for `waits` and signals `point`, and numbers it in `*submission`. Any
  // thread.
  VkResult QueueSubmit(VkCommandBuffer command_buffer, uint64_t after,
                       const std::vector<TimelineWait>& waits, uint64_t point,
                       std::atomic<uint64_t>* submission);
  // Hands a task to the host thread (started on first use).
  void PushHostTask(HostTask task);
  // Forgets the batch being recorded (it failed and is reported as failed):
  // its commands and the downloads waiting for `point`.
  void DropBatch(uint64_t point);
  // Recycles what completed up to `completed` (recording thread only).
  void Reclaim(uint64_t completed);
  // Copies finished downloads to their destinations (any thread).
  void Deliver(uint64_t completed);
  absl::StatusOr<uint64_t> CompletedPoint() const { return timeline_->Value(); }
  absl::Status WaitForPoint(uint64_t point) const { return timeline_->WaitFor(point); }
  // The host thread's loop.
  void RunHostTasks();
  // OK, or why the host thread had to skip a host function (its wait for
  // earlier work failed: a lost device). Reported from then on by Flush,
  // Wait and IsComplete, so the skipped function's failure reaches a caller.
  // Before that, once, why a held-back batch could not be submitted.
  absl::Status HostFailure();
  // The host thread could not submit a held-back batch: drops it, keeps the
  // failure for the next caller, reaches its point.
  void DropHeldBatch(const HostTask& task, absl::Status failure);

  VulkanDevice* const device_;
  const VkDevice vk_device_;
  const std::array<uint32_t, 3> max_groups_;
  const uint64_t uniform_alignment_;

  CommandFunctions cmd_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::shared_ptr<Timeline> timeline_;

  // This stream's completion marker (invalid where the device has none).
  CompletionMarker marker_;
  // For the last kMarkedSlots points, slot point % kMarkedSlots holds the
  // point if its batch writes the marker (written at submission).
  static constexpr size_t kMarkedSlots = 64;
  std::array<std::atomic<uint64_t>, kMarkedSlots> marked_points_{};

  // Recording state; core serialises recording and Flush per stream.
  CommandList commands_;  // accepted since the last submission
  uint64_t submitted_point_ = 0;
  uint64_t last_marked_point_ = 0;
  uint64_t max_unmarked_run_ = kMaxUnmarkedRun;
  // Batches submitted and not yet reclaimed, oldest first, in a fixed ring:
  // at most kMaxBatchesInFlight command buffers exist, so submitting
  // allocates nothing.
  Batch& OldestBatch() { return in_flight_[in_flight_head_]; }
  void PopOldestBatch();
  Batch& PushBatch();
  std::array<Batch, kMaxBatchesInFlight> in_flight_;
  size_t in_flight_head_ = 0;
  size_t in_flight_count_ = 0;
  std::vector<VkCommandBuffer> free_command_buffers_;
  size_t command_buffer_count_ = 0;
  std::unique_ptr<StagingRing> ring_;
  std::deque<Retired> retired_;  // dedicated staging, freed when its point completes
  // Waits recorded since the last submission.
  std::vector<TimelineWait> pending_waits_;
  // Views the commands since the last submission bind.
  std::vector<std::shared_ptr<BackendResourceView>> pending_views_;
  // Set once a wait covers a host function's point: the next command first
  // makes host writes visible to the device (a semaphore signalled from the
  // host orders the host's writes but does not make them visible).
  bool host_writes_to_import_ = false;
  // Whether this stream ever ran a host function; other streams waiting on
  // it then import host writes too.
  std::atomic<bool> runs_host_functions_{false};
  std::unique_ptr<TimestampRing> timestamps_;
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  VkDescriptorSet params_set_ = VK_NULL_HANDLE;

  // Downloads waiting for their point; Wait and IsComplete deliver them from
  // any thread.
  Mutex pending_mutex_;
  std::deque<PendingDownload> pending_ ABSL_GUARDED_BY(pending_mutex_);
  std::atomic<size_t> pending_count_{0};

  // Host functions, run in order on host_thread_.
  mutable Mutex host_mutex_;
  std::deque<HostTask> host_tasks_ ABSL_GUARDED_BY(host_mutex_);
  bool stop_host_thread_ ABSL_GUARDED_BY(host_mutex_) = false;
  CondVar host_ready_;  // signalled when a task arrives or the thread must stop
  std::thread host_thread_;
  std::atomic<bool> host_failed_{false};
  absl::Status host_failure_ ABSL_GUARDED_BY(host_mutex_);
  // A held-back batch the host thread could not submit, reported once.
  std::atomic<bool> dropped_{false};
  absl::Status dropped_failure_ ABSL_GUARDED_BY(host_mutex_);
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_STREAM_H_
