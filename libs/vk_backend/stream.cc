#include "vk_backend/stream.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>

#include "core/log.h"
#include "core/module.h"
#include "core/status.h"
#include "vk_backend/device.h"
#include "vk_backend/encode.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/fill.h"
#include "vk_backend/image.h"
#include "vk_backend/kernel.h"
#include "vk_backend/recording.h"
#include "vk_backend/resource_view.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// Semaphore waits of one submission kept on the stack (own point plus the
// other streams waited on); more spill to the heap.
constexpr size_t kMaxInlineWaits = 8;

VulkanAllocation* AsVulkan(BackendAllocation* allocation) {
  return static_cast<VulkanAllocation*>(allocation);
}

}  // namespace

VulkanStream::VulkanStream(VulkanDevice* device)
    : device_(device),
      vk_device_(device->device()),
      max_groups_{device->vk_properties().limits.maxComputeWorkGroupCount[0],
                  device->vk_properties().limits.maxComputeWorkGroupCount[1],
                  device->vk_properties().limits.maxComputeWorkGroupCount[2]},
      uniform_alignment_(
          std::max<uint64_t>(16, device->vk_properties().limits.minUniformBufferOffsetAlignment)) {}

absl::StatusOr<std::unique_ptr<VulkanStream>> VulkanStream::Create(VulkanDevice* device) {
  std::unique_ptr<VulkanStream> stream(new VulkanStream(device));
  if (!stream->cmd_.Load(stream->vk_device_, device->features().synchronization2,
                         device->api_version() >= VK_API_VERSION_1_3,
                         device->features().push_descriptor)) {
    return Error(ErrorCode::kNotSupported, "the device lacks core command entry points");
  }
  VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags =
      VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device->queue_family_index();
  SH_VK_RETURN_IF_ERROR(
      vkCreateCommandPool(stream->vk_device_, &pool_info, nullptr, &stream->pool_),
      "vkCreateCommandPool");
  SH_ASSIGN_OR_RETURN(stream->timeline_, Timeline::Create(device));
  // Without one (no host-visible coherent memory) waits use the timeline.
  absl::StatusOr<CompletionMarker> marker = device->completion_markers().Acquire();
  if (marker.ok()) stream->marker_ = *marker;
  return stream;
}

VulkanStream::~VulkanStream() {
  if (!commands_.empty()) {
    absl::StatusOr<uint64_t> flushed = Flush();
    if (!flushed.ok()) Log(LogLevel::kWarning, "stream teardown: ", flushed.status().message());
  }
  if (submitted_point_ > 0) {
    absl::Status waited = WaitForPoint(submitted_point_);
    if (!waited.ok()) {
      Log(LogLevel::kWarning, "stream teardown: ", waited.message());
      // The device is lost; once it is idle, freeing is safe.
      MutexLock lock(device_->queue_mutex());
      vkDeviceWaitIdle(vk_device_);
    }
    Deliver(submitted_point_);
  }
  if (host_thread_.joinable()) {
    {
      MutexLock lock(&host_mutex_);
      stop_host_thread_ = true;
      host_ready_.Signal();
    }
    host_thread_.join();
  }
  // Everything submitted has finished (waited for above).
  while (in_flight_count_ > 0) {
    device_->SubmissionCompleted(OldestBatch().submission.load(std::memory_order_acquire));
    PopOldestBatch();
  }
  pending_waits_.clear();
  retired_.clear();
  ring_.reset();
  device_->completion_markers().Release(marker_);
  if (descriptor_pool_ != VK_NULL_HANDLE) {
    vkDestroyDescriptorPool(vk_device_, descriptor_pool_, nullptr);
  }
  timestamps_.reset();
  if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(vk_device_, pool_, nullptr);
}

// --- Points ---

absl::Status VulkanStream::Wait(uint64_t point, const WaitPolicy& policy) {
  if (point > 0) {
    if (policy.completion == Completion::kResults && IsMarked(point)) {
      // Polls the marker, which takes no lock the driver needs to finish,
      // and sees the work end before the driver signals it. One
      // fault-injection site, like a timeline wait.
      const VkResult injected = InjectedFault(FaultSite::kWait);
      if (injected != VK_SUCCESS) return VkResultToStatus(injected, "vkWaitSemaphores");
      if (!PollFor(policy, [&] { return MarkerReached(marker_.Load(), point); })) {
        SH_RETURN_IF_ERROR(timeline_->WaitFor(point));
      }
    } else {
      SH_RETURN_IF_ERROR(timeline_->WaitFor(point, policy));
    }
  }
  SH_RETURN_IF_ERROR(HostFailure());
  Deliver(point);
  return absl::OkStatus();
}

absl::StatusOr<bool> VulkanStream::IsComplete(uint64_t point, Completion completion) {
  SH_ASSIGN_OR_RETURN(uint64_t completed,
                      completion == Completion::kResults ? ResultsPoint() : CompletedPoint());
  SH_RETURN_IF_ERROR(HostFailure());
  Deliver(completed);
  return completed >= point;
}

absl::StatusOr<uint64_t> VulkanStream::ResultsPoint() const {
  SH_ASSIGN_OR_RETURN(uint64_t reached, CompletedPoint());
  if (!marker_.valid()) return reached;
  const uint32_t ahead = marker_.Load() - static_cast<uint32_t>(reached);
  return static_cast<int32_t>(ahead) > 0 ? reached + ahead : reached;
}

bool VulkanStream::IsMarked(uint64_t point) const {
  return marker_.valid() &&
         marked_points_[point % kMarkedSlots].load(std::memory_order_acquire) == point;
}

void VulkanStream::NoteMarked(uint64_t point, bool marked) {
  marked_points_[point % kMarkedSlots].store(marked ? point : 0, std::memory_order_release);
  if (marked) last_marked_point_ = point;
}

absl::Status VulkanStream::KeepMarkerClose() {
  if (!marker_.valid() || current_point() - last_marked_point_ < max_unmarked_run_) {
    return absl::OkStatus();
  }
  // Work recorded before goes first, and carries the marker.
  SH_RETURN_IF_ERROR(Flush().status());
  if (current_point() - last_marked_point_ < max_unmarked_run_) return absl::OkStatus();
  return SubmitBatch().status();  // nothing but the marker
}

absl::Status VulkanStream::HostFailure() {
  if (dropped_.load(std::memory_order_acquire)) {
    MutexLock lock(&host_mutex_);
    if (dropped_.exchange(false, std::memory_order_acq_rel)) {
      return std::exchange(dropped_failure_, absl::OkStatus());
    }
  }
  if (!host_failed_.load(std::memory_order_acquire)) return absl::OkStatus();
  MutexLock lock(&host_mutex_);
  return host_failure_;
}

void VulkanStream::Deliver(uint64_t completed) {
  if (pending_count_.load(std::memory_order_acquire) == 0) return;
  MutexLock lock(&pending_mutex_);
  // The copy happens before the entry leaves the list, so once no entry of a
  // point is left, its staging memory may be reused.
  while (!pending_.empty() && pending_.front().point <= completed) {
    const PendingDownload& download = pending_.front();
    const CopyBox& box = download.box;
    if (PlanBox(box).count == 1) {
      std::memcpy(download.dst, download.staging, box.bytes());
    } else {
      for (uint64_t row = 0; row < box.rows(); ++row) {
        std::memcpy(static_cast<uint8_t*>(download.dst) + box.DstRow(row),
                    download.staging + row * box.width, box.width);
      }
    }
    pending_.pop_front();
    pending_count_.fetch_sub(1, std::memory_order_release);
  }
}

void VulkanStream::Reclaim(uint64_t completed) {
  Deliver(completed);
  while (in_flight_count_ > 0 && OldestBatch().point <= completed) {
    // A recording's command buffer stays with the recording.
    if (OldestBatch().recording == nullptr) {
      free_command_buffers_.push_back(OldestBatch().command_buffer);
    }
    device_->SubmissionCompleted(OldestBatch().submission.load(std::memory_order_acquire));
    PopOldestBatch();
  }
  if (ring_ != nullptr) ring_->Release(completed);
  while (!retired_.empty() && retired_.front().point <= completed) retired_.pop_front();
}

// --- Batches ---

void VulkanStream::PopOldestBatch() {
  // Releases the other streams' timelines it kept alive, and the recording
  // it ran (which may destroy it).
  OldestBatch().waits.clear();
  OldestBatch().recording.reset();
  OldestBatch().views.clear();
  in_flight_head_ = (in_flight_head_ + 1) % kMaxBatchesInFlight;
  --in_flight_count_;
}

VulkanStream::Batch& VulkanStream::PushBatch() {
  // StartBatch never has more command buffers than the ring holds.
  return in_flight_[(in_flight_head_ + in_flight_count_++) % kMaxBatchesInFlight];
}

absl::Status VulkanStream::ReserveBatch() {
  if (in_flight_count_ < kMaxBatchesInFlight) return absl::OkStatus();
  SH_ASSIGN_OR_RETURN(uint64_t completed, CompletedPoint());
  Reclaim(completed);
  if (in_flight_count_ < kMaxBatchesInFlight) return absl::OkStatus();
  // Back-pressure: the host is too far ahead of the device.
  const uint64_t oldest = OldestBatch().point;
  SH_RETURN_IF_ERROR(WaitForPoint(oldest));
  Reclaim(oldest);
  return absl::OkStatus();
}

absl::StatusOr<VkCommandBuffer> VulkanStream::StartBatch() {
  // Reclaiming reads the timeline, which takes the driver's semaphore lock;
  // right after a wait that the completion marker answered, the driver's
  // queue thread may still hold it to signal the batch waited for. So
  // completed batches are reclaimed a few at a time, once kReclaimBatches
  // are in flight, and their command buffers reused.
  if (in_flight_count_ >= kReclaimBatches) {
    SH_ASSIGN_OR_RETURN(uint64_t completed, CompletedPoint());
    Reclaim(completed);
  }
  SH_RETURN_IF_ERROR(ReserveBatch());
  // With a free slot, the stream's command buffers (in flight or free) stay
  // within kMaxBatchesInFlight.
  if (free_command_buffers_.empty()) {
    VkCommandBufferAllocateInfo info = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    info.commandPool = pool_;
    info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    info.commandBufferCount = 1;
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    SH_VK_RETURN_IF_ERROR(vkAllocateCommandBuffers(vk_device_, &info, &command_buffer),
                          "vkAllocateCommandBuffers");
    free_command_buffers_.push_back(command_buffer);
    ++command_buffer_count_;
  }
  VkCommandBuffer command_buffer = free_command_buffers_.back();
  VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  // The pool's RESET_COMMAND_BUFFER flag lets Begin reset it implicitly.
  VkResult begun = InjectedFault(FaultSite::kBeginCommandBuffer);
  if (begun == VK_SUCCESS) begun = vkBeginCommandBuffer(command_buffer, &begin);
  SH_VK_RETURN_IF_ERROR(begun, "vkBeginCommandBuffer");
  free_command_buffers_.pop_back();
  return command_buffer;
}

absl::Status VulkanStream::EndCommand() {
  if (commands_.count() >= kMaxCommandsPerBatch) return Flush().status();
  return absl::OkStatus();
}

void VulkanStream::DropBatch(uint64_t point) {
  // The point is never signalled: downloads recorded for it would read
  // staging that no copy wrote, and timestamps reserved for it would read
  // ticks no query wrote. The next batch reuses the point number.
  commands_.Clear();
  pending_views_.clear();
  if (timestamps_ != nullptr) timestamps_->Abandon(point);
  // The dropped commands may have carried the import of a host function's
  // writes; the next command does it instead (one barrier too many at worst).
  host_writes_to_import_ = true;
  MutexLock lock(&pending_mutex_);
  while (!pending_.empty() && pending_.back().point == point) {
    pending_.pop_back();
    pending_count_.fetch_sub(1, std::memory_order_release);
  }
}

absl::StatusOr<uint64_t> VulkanStream::Flush() {
  if (absl::Status failed = HostFailure(); !failed.ok()) {
    // Nothing recorded after the failure runs; the list does not grow.
    DropBatch(current_point());
    return failed;
  }
  if (commands_.empty()) return submitted_point_;
  return SubmitBatch();
}

absl::StatusOr<uint64_t> VulkanStream::SubmitBatch() {
  const uint64_t point = current_point();
  absl::StatusOr<VkCommandBuffer> started = StartBatch();
  if (!started.ok()) {
    // The caller hears of the failure now, so the batch must not run later.
    DropBatch(point);
    return started.status();
  }
  const VkCommandBuffer command_buffer = *started;
  RecordTarget target{command_buffer, &cmd_, max_groups_, timestamps_.get()};
  if (marker_.valid()) {
    target.marker_buffer = marker_.buffer;
    target.marker_offset = marker_.offset;
    target.marker_value = static_cast<uint32_t>(point);
  }
  commands_.RecordInto(target);
  commands_.Clear();
  const VkResult ended = vkEndCommandBuffer(command_buffer);
  absl::Status submitted = VkResultToStatus(ended, "vkEndCommandBuffer");
  if (submitted.ok()) submitted = Submit(command_buffer, marker_.valid()).status();
  if (!submitted.ok()) {
    free_command_buffers_.push_back(command_buffer);
    DropBatch(point);
    return submitted;
  }
  return point;
}

absl::Status VulkanStream::RecordExecute(std::shared_ptr<BackendRecording> recording) {
  // Work recorded before runs first: it is submitted on its own, ahead.
  SH_RETURN_IF_ERROR(Flush().status());
  SH_RETURN_IF_ERROR(KeepMarkerClose());
  // Reclaims only when the in-flight ring is full: reading the timeline
  // costs as much as the rest of this call (about 2 us on lavapipe), and a
  // run needs no command buffer or staging from the stream.
  SH_RETURN_IF_ERROR(ReserveBatch());
  const auto* run = static_cast<const VulkanRecording*>(recording.get());
  // The recording's own entry barrier imports what a host function wrote,
  // so host_writes_to_import_ is settled once it is submitted.
  SH_ASSIGN_OR_RETURN(Batch * batch, Submit(run->command_buffer(), /*marked=*/false));
  // Its command buffer is the recording's: Reclaim drops the reference
  // instead of reusing the buffer.
  batch->recording = std::move(recording);
  host_writes_to_import_ = false;
  return absl::OkStatus();
}

absl::StatusOr<VulkanStream::Batch*> VulkanStream::Submit(VkCommandBuffer command_buffer,
                                                          bool marked) {
  const uint64_t point = current_point();
  // A wait for a point whose signal is not queued yet (a host function's,
  // or a batch the host thread still holds) would stall the queue for every
  // stream: the host thread submits such a batch once the points are
  // reached.
  bool defer = submitted_point_ > timeline_->submitted();
  for (const TimelineWait& wait : pending_waits_) {
    if (wait.value > wait.timeline->submitted()) defer = true;
  }
  std::atomic<uint64_t> submission{0};
  if (!defer) {
    const VkResult result =
        QueueSubmit(command_buffer, submitted_point_, pending_waits_, point, &submission);
    if (result != VK_SUCCESS) return VkResultToStatus(result, "submitting a stream batch");
  }
  Batch& batch = PushBatch();
  batch.command_buffer = command_buffer;
  batch.point = point;
  batch.submission.store(submission.load(std::memory_order_relaxed), std::memory_order_release);
  // Swapped, not moved: both vectors keep their capacity from batch to batch.
  batch.waits.swap(pending_waits_);
  pending_waits_.clear();
  batch.views.swap(pending_views_);
  pending_views_.clear();
  if (defer) {
    HostTask task;
    task.after = submitted_point_;
    task.waits = batch.waits;
    task.point = point;
    task.command_buffer = command_buffer;
    task.batch = &batch;
    task.timestamps = timestamps_.get();
    PushHostTask(std::move(task));
  }
  NoteMarked(point, marked);
  submitted_point_ = point;
  return &batch;
}

VkResult VulkanStream::QueueSubmit(VkCommandBuffer command_buffer, uint64_t after,
                                   const std::vector<TimelineWait>& waits, uint64_t point,
                                   std::atomic<uint64_t>* submission) {
  // The stream's own previous point (ordering), then other streams'.
  VkSemaphore wait_semaphores[kMaxInlineWaits];
  uint64_t wait_values[kMaxInlineWaits];
  VkPipelineStageFlags wait_stages[kMaxInlineWaits];
  std::vector<VkSemaphore> more_semaphores;
  std::vector<uint64_t> more_values;
  std::vector<VkPipelineStageFlags> more_stages;
  const size_t wait_count = (after > 0 ? 1 : 0) + waits.size();
  VkSemaphore* semaphores = wait_semaphores;
  uint64_t* values = wait_values;
  VkPipelineStageFlags* stages = wait_stages;
  if (wait_count > kMaxInlineWaits) {
    more_semaphores.resize(wait_count);
    more_values.resize(wait_count);
    more_stages.resize(wait_count);
    semaphores = more_semaphores.data();
    values = more_values.data();
    stages = more_stages.data();
  }
  size_t n = 0;
  if (after > 0) {
    semaphores[n] = timeline_->handle();
    values[n++] = after;
  }
  for (const TimelineWait& wait : waits) {
    semaphores[n] = wait.timeline->handle();
    values[n++] = wait.value;
  }
  for (size_t i = 0; i < n; ++i) stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  const VkSemaphore signal = timeline_->handle();
  VkTimelineSemaphoreSubmitInfo timeline_info = {VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  timeline_info.waitSemaphoreValueCount = static_cast<uint32_t>(n);
  timeline_info.pWaitSemaphoreValues = values;
  timeline_info.signalSemaphoreValueCount = 1;
  timeline_info.pSignalSemaphoreValues = &point;
  VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO, &timeline_info};
  submit.waitSemaphoreCount = static_cast<uint32_t>(n);
  submit.pWaitSemaphores = semaphores;
  submit.pWaitDstStageMask = stages;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &command_buffer;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &signal;
  MutexLock lock(device_->queue_mutex());
  VkResult result = InjectedFault(FaultSite::kQueueSubmit);
  if (result != VK_SUCCESS) return result;
  // Numbered before it is queued: a batch the host thread submits may
  // finish, and its record be reused, before this thread goes on.
  submission->store(device_->NextSubmission(), std::memory_order_release);
  result = vkQueueSubmit(device_->queue(), 1, &submit, VK_NULL_HANDLE);
  if (result != VK_SUCCESS) return result;
  timeline_->MarkSubmitted(point);
  return VK_SUCCESS;
}

// --- Ordering with other streams and the host ---

namespace {

// A point of another device's stream that a host function waits for.
struct ForeignWait {
  std::shared_ptr<Timeline> timeline;
  uint64_t point;
};
void WaitForForeignPoint(void* data) {
  std::unique_ptr<ForeignWait> wait(static_cast<ForeignWait*>(data));
  absl::Status waited = wait->timeline->WaitFor(wait->point);
  if (!waited.ok()) Log(LogLevel::kError, "waiting for another device: ", waited.message());
}

}  // namespace

absl::Status VulkanStream::RecordWait(BackendStream* other, uint64_t point) {
  auto* source = static_cast<VulkanStream*>(other);
  if (source == this || point == 0) return absl::OkStatus();  // stream order covers it
  if (source->runs_host_functions_.load(std::memory_order_acquire)) host_writes_to_import_ = true;
  SH_ASSIGN_OR_RETURN(uint64_t reached, source->timeline_->Value());
  if (reached >= point) return absl::OkStatus();
  if (source->device_ != device_) {
    // A queue cannot wait on another VkDevice's semaphore: the host waits,
    // as a host function of this stream, so later work here still follows.
    auto* wait = new ForeignWait{source->timeline_, point};
    absl::Status recorded = RecordHostFunction(&WaitForForeignPoint, wait);
    if (!recorded.ok()) delete wait;
    return recorded;
  }
  // The wait joins the next submission, which may also hold work recorded
  // before this call; that work only starts later, which CUDA allows.
  for (TimelineWait& wait : pending_waits_) {
    if (wait.timeline == source->timeline_) {
      wait.value = std::max(wait.value, point);
      return absl::OkStatus();
    }
  }
  pending_waits_.push_back(TimelineWait{source->timeline_, point});
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> VulkanStream::RecordTimestamp() {
  if (timestamps_ == nullptr) {
    SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> results,
                        device_->allocator().Allocate(TimestampRing::kSlots * sizeof(uint64_t),
                                                      MemoryKind::kHostPinned));
    SH_ASSIGN_OR_RETURN(
        timestamps_,
        TimestampRing::Create(vk_device_, device_->timestamp_valid_bits(),
                              device_->vk_properties().limits.timestampPeriod, std::move(results)));
  }
  const TimestampRing::Reservation reserved = timestamps_->Reserve(current_point());
  Append<TimestampCommand>()->slot = reserved.slot;
  SH_RETURN_IF_ERROR(EndCommand());
  return reserved.id;
}

absl::StatusOr<uint64_t> VulkanStream::ReadTimestamp(uint64_t id) {
  // Set by the first RecordTimestamp, before any id exists.
  if (timestamps_ == nullptr) {
    return Error(ErrorCode::kInvalidValue, "no timestamp was recorded on this stream");
  }
  // The ticks are copied to host memory before the batch's marker.
  SH_ASSIGN_OR_RETURN(uint64_t completed, ResultsPoint());
  return timestamps_->Read(id, completed);
}

absl::Status VulkanStream::RecordHostFunction(void (*fn)(void*), void* data) {
  // CUDA: the function runs once all earlier work has finished, and later
  // work waits for it. It gets a point of its own, signalled from the host.
  SH_RETURN_IF_ERROR(KeepMarkerClose());
  SH_ASSIGN_OR_RETURN(uint64_t after, Flush());
  HostTask task;
  task.fn = fn;
  task.data = data;
  task.after = after;
  task.waits = std::move(pending_waits_);
  pending_waits_.clear();
  task.point = ++submitted_point_;
  NoteMarked(task.point, /*marked=*/false);
  runs_host_functions_.store(true, std::memory_order_release);
  host_writes_to_import_ = true;
  PushHostTask(std::move(task));
  return absl::OkStatus();
}

void VulkanStream::PushHostTask(HostTask task) {
  if (!host_thread_.joinable()) host_thread_ = std::thread([this] { RunHostTasks(); });
  MutexLock lock(&host_mutex_);
  host_tasks_.push_back(std::move(task));
  host_ready_.Signal();
}

void VulkanStream::RunHostTasks() {
  while (true) {
    HostTask task;
    {
      MutexLock lock(&host_mutex_);
      while (!stop_host_thread_ && host_tasks_.empty()) host_ready_.Wait(&host_mutex_);
      if (host_tasks_.empty()) return;  // stopping, and nothing left
      task = std::move(host_tasks_.front());
      host_tasks_.pop_front();
    }
    absl::Status waited = WaitForPoint(task.after);
    if (waited.ok()) waited = WaitForAll(vk_device_, task.waits);
    if (task.fn == nullptr && waited.ok()) {
      // A held-back batch: its waits are reached, so the queue will not
      // stall on it. Its own signal marks its point.
      const VkResult result = QueueSubmit(task.command_buffer, task.after, task.waits, task.point,
                                          &task.batch->submission);
      if (result != VK_SUCCESS) {
        DropHeldBatch(task, VkResultToStatus(result, "submitting a stream batch"));
      }
      continue;
    }
    if (waited.ok()) {
      task.fn(task.data);
    } else {
      // The device is lost: the prerequisites never finish.
      const char* what = task.fn == nullptr ? "a stream batch" : "a host function";
      Log(LogLevel::kError, what, " was skipped: ", waited.message());
      {
        MutexLock lock(&host_mutex_);
        if (host_failure_.ok()) {
          host_failure_ = Error(ErrorCodeOf(waited), what, " was skipped: ", waited.message());
        }
        host_failed_.store(true, std::memory_order_release);
      }
      // Wait once more, for the result only: on a lost device it returns at
      // once, and where the failure was not the device's (fault injection)
      // the point must not be signalled while the work before it still
      // holds a pending signal of the same semaphore.
      if (!WaitForPoint(task.after).ok() || !WaitForAll(vk_device_, task.waits).ok()) {
        Log(LogLevel::kError, "host function: the device is lost");
      }
    }
    task.waits.clear();
    // Signalled even when skipped, so waiters see the failure instead of
    // hanging.
    absl::Status signalled = timeline_->Signal(task.point);
    if (!signalled.ok()) Log(LogLevel::kError, "host function: ", signalled.message());
  }
}

void VulkanStream::DropHeldBatch(const HostTask& task, absl::Status failure) {
  // As when a submission fails on the recording thread: the batch's work,
  // downloads and timestamps are dropped, the caller who next flushes or
  // waits hears of it once, and the stream goes on. Its point is reached
  // from the host (every earlier point has been), so nobody waits forever.
  Log(LogLevel::kError, "a stream batch was dropped: ", failure.message());
  if (task.timestamps != nullptr) task.timestamps->Abandon(task.point);
  {
    MutexLock lock(&pending_mutex_);
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->point == task.point) {
        it = pending_.erase(it);
        pending_count_.fetch_sub(1, std::memory_order_release);
      } else {
        ++it;
      }
    }
  }
  {
    MutexLock lock(&host_mutex_);
    if (dropped_failure_.ok()) dropped_failure_ = std::move(failure);
    dropped_.store(true, std::memory_order_release);
  }
  absl::Status signalled = timeline_->Signal(task.point);
  if (!signalled.ok()) Log(LogLevel::kError, "dropped stream batch: ", signalled.message());
}

// --- Staging ---

absl::Status VulkanStream::EnsureRing() {
  if (ring_ != nullptr) return absl::OkStatus();
  // The tail slack keeps every parameter descriptor range (kMaxParamBlockBytes
  // from a dynamic offset inside the ring) within the allocation.
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> backing,
                      device_->allocator().Allocate(kStagingRingBytes + kMaxParamBlockBytes,
                                                    MemoryKind::kHostPinned));
  ring_ = std::make_unique<StagingRing>(std::move(backing), kStagingRingBytes);
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> VulkanStream::StageInRing(uint64_t size, uint64_t alignment) {
  SH_RETURN_IF_ERROR(EnsureRing());
  while (true) {
    if (auto offset = ring_->Allocate(size, alignment, current_point())) return *offset;
    SH_ASSIGN_OR_RETURN(uint64_t completed, CompletedPoint());
    Reclaim(completed);
    if (auto offset = ring_->Allocate(size, alignment, current_point())) return *offset;
    if (ring_->empty()) {
      return Error(ErrorCode::kOutOfMemory, size, " bytes do not fit the staging ring");
    }
    // Full of work that has not finished: submit the batch that holds the
    // oldest range if it is still recording, then wait for it.
    const uint64_t oldest = ring_->oldest_point();
    if (oldest > submitted_point_) SH_RETURN_IF_ERROR(Flush().status());
    SH_RETURN_IF_ERROR(WaitForPoint(oldest));
    Reclaim(oldest);
  }
}

absl::StatusOr<VulkanStream::Staged> VulkanStream::Stage(uint64_t size, uint64_t alignment) {
  if (size > kStagingRingBytes / 4) {
    SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanAllocation> allocation,
                        device_->allocator().Allocate(size, MemoryKind::kHostPinned));
    Staged staged{allocation->buffer(), allocation->buffer_offset(),
                  static_cast<uint8_t*>(allocation->host_pointer())};
    retired_.push_back(Retired{current_point(), std::move(allocation)});
    return staged;
  }
  SH_ASSIGN_OR_RETURN(uint64_t offset, StageInRing(size, alignment));
  return Staged{ring_->backing()->buffer(), ring_->backing()->buffer_offset() + offset,
                ring_->host(offset)};
}

absl::StatusOr<VkDescriptorSet> VulkanStream::ParamsSet() {
  if (params_set_ != VK_NULL_HANDLE) return params_set_;
  SH_RETURN_IF_ERROR(EnsureRing());
  if (descriptor_pool_ != VK_NULL_HANDLE) {  // left by an earlier try that failed
    vkDestroyDescriptorPool(vk_device_, descriptor_pool_, nullptr);
    descriptor_pool_ = VK_NULL_HANDLE;
  }
  SH_ASSIGN_OR_RETURN(params_set_,
                      CreateParamsSet(vk_device_, device_->kernel_objects().params_layout(),
                                      *ring_->backing(), &descriptor_pool_));
  return params_set_;
}

// --- Recording ---

absl::Status VulkanStream::RecordDispatch(const DispatchParams& params) {
  SH_ASSIGN_OR_RETURN(const ResolvedLaunch launch, ResolveLaunch(params, max_groups_));
  // Scratch first: making room may submit the current batch.
  VkDescriptorSet params_set = VK_NULL_HANDLE;
  uint32_t dynamic_offset = 0;
  const KernelLayout& layout = launch.kernel->layout();
  if (layout.params_in_uniform_buffer) {
    SH_ASSIGN_OR_RETURN(params_set, ParamsSet());
    SH_ASSIGN_OR_RETURN(uint64_t offset, StageInRing(layout.param_block_size, uniform_alignment_));
    std::memcpy(ring_->host(offset), params.params, layout.param_block_size);
    dynamic_offset = static_cast<uint32_t>(offset);
  }
  const size_t resources = layout.resources.size();
  for (size_t i = 0; i < resources; ++i) {
    const auto* view = static_cast<const VulkanResourceView*>(params.resources[i].get());
    if (view->staged()) EncodeStagingCopy(*view, Append<ImageCopyCommand>());
  }
  uint8_t* push = nullptr;
  DispatchCommand* c = Append<DispatchCommand>(LaunchTrailingBytes(launch), &push);
  EncodeLaunch(launch, params, params_set, dynamic_offset, c, push);
  if (resources > 0) {
    pending_views_.insert(pending_views_.end(), std::make_move_iterator(params.resources),
                          std::make_move_iterator(params.resources + resources));
  }
  return EndCommand();
}

absl::Status VulkanStream::RecordCopy(BufferRange dst, BufferRange src, uint64_t size) {
  *Append<CopyCommand>() = EncodeCopy(dst, src, size);
  return EndCommand();
}

namespace {

// Where `box` lies in an image: layers of layered images, depth of 3-D ones.
void ImageRegion(const VulkanImage* image, const ImageBox& box, VkImageSubresourceLayers* layers,
                 VkOffset3D* offset, VkExtent3D* extent) {
  const bool three_d = image->type() == VK_IMAGE_TYPE_3D;
  *layers = {VK_IMAGE_ASPECT_COLOR_BIT, box.level, three_d ? 0 : static_cast<uint32_t>(box.z),
             three_d ? 1 : static_cast<uint32_t>(box.depth)};
  *offset = {static_cast<int32_t>(box.x), static_cast<int32_t>(box.y),
             three_d ? static_cast<int32_t>(box.z) : 0};
  *extent = {static_cast<uint32_t>(box.width), static_cast<uint32_t>(box.height),
             three_d ? static_cast<uint32_t>(box.depth) : 1};
}

VkBufferImageCopy BufferRegion(const ImageBufferSide& side, const VulkanImage* image,
                               const ImageBox& box) {
  VkBufferImageCopy region = {};
  region.bufferOffset = AsVulkan(side.range.allocation)->buffer_offset() + side.range.offset;
  region.bufferRowLength = static_cast<uint32_t>(side.row_texels);
  region.bufferImageHeight = static_cast<uint32_t>(side.slice_rows);
  ImageRegion(image, box, &region.imageSubresource, &region.imageOffset, &region.imageExtent);
  return region;
}

}  // namespace

absl::Status VulkanStream::RecordBufferToImage(BackendImage* dst, const ImageBox& box,
                                               const ImageBufferSide& src) {
  const auto* image = static_cast<const VulkanImage*>(dst);
  ImageCopyCommand* c = Append<ImageCopyCommand>();
  c->kind = ImageCopyCommand::Kind::kBufferToImage;
  c->buffer = AsVulkan(src.range.allocation)->buffer();
  c->dst_image = image->image();
  c->buffer_region = BufferRegion(src, image, box);
  return EndCommand();
}

absl::Status VulkanStream::RecordImageToBuffer(const ImageBufferSide& dst, BackendImage* src,
                                               const ImageBox& box) {
  const auto* image = static_cast<const VulkanImage*>(src);
  ImageCopyCommand* c = Append<ImageCopyCommand>();
  c->kind = ImageCopyCommand::Kind::kImageToBuffer;
  c->buffer = AsVulkan(dst.range.allocation)->buffer();
  c->src_image = image->image();
  c->buffer_region = BufferRegion(dst, image, box);
  return EndCommand();
}

absl::Status VulkanStream::RecordImageToImage(BackendImage* dst, const ImageBox& dst_box,
                                              BackendImage* src, const ImageBox& box) {
  const auto* from = static_cast<const VulkanImage*>(src);
  const auto* to = static_cast<const VulkanImage*>(dst);
  ImageCopyCommand* c = Append<ImageCopyCommand>();
  c->kind = ImageCopyCommand::Kind::kImageToImage;
  c->src_image = from->image();
  c->dst_image = to->image();
  VkExtent3D ignored;
  ImageRegion(from, box, &c->image_region.srcSubresource, &c->image_region.srcOffset,
              &c->image_region.extent);
  ImageRegion(to, dst_box, &c->image_region.dstSubresource, &c->image_region.dstOffset, &ignored);
  // Between a 3-D image and layers, depth counts the layers (Vulkan 1.1).
  if (from->type() == VK_IMAGE_TYPE_3D || to->type() == VK_IMAGE_TYPE_3D) {
    c->image_region.extent.depth = static_cast<uint32_t>(box.depth);
  }
  return EndCommand();
}

absl::Status VulkanStream::RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                      uint64_t count) {
  VulkanAllocation* to = AsVulkan(dst.allocation);
  const FillPlan plan = PlanFill(to->buffer_offset() + dst.offset, pattern, element_size, count);
  Staged edges;
  if (plan.edge_count > 0) {
    SH_ASSIGN_OR_RETURN(edges, Stage(kFillEdgeBytes, 4));
    WriteFillEdges(plan, edges.host);
  }
  EncodeFill(to->buffer(), plan, edges.buffer, edges.buffer_offset, Append<FillCommand>());
  return EndCommand();
}

absl::Status VulkanStream::RecordUpload(BufferRange dst, const void* src, uint64_t size) {
  VulkanAllocation* to = AsVulkan(dst.allocation);
  // CUDA: a pageable source is read before the call returns.
  SH_ASSIGN_OR_RETURN(Staged staged, Stage(size, 16));
  std::memcpy(staged.host, src, size);
  *Append<CopyCommand>() = CopyCommand{
      staged.buffer, to->buffer(), {staged.buffer_offset, to->buffer_offset() + dst.offset, size}};
  return EndCommand();
}

absl::Status VulkanStream::RecordDownload(void* dst, BufferRange src, uint64_t size) {
  VulkanAllocation* from = AsVulkan(src.allocation);
  SH_ASSIGN_OR_RETURN(Staged staged, Stage(size, 16));
  *Append<CopyCommand>() =
      CopyCommand{from->buffer(),
                  staged.buffer,
                  {from->buffer_offset() + src.offset, staged.buffer_offset, size}};
  {
    MutexLock lock(&pending_mutex_);
    pending_.push_back(PendingDownload{current_point(), staged.host, dst, CopyBox{size}});
    pending_count_.fetch_add(1, std::memory_order_release);
  }
  return EndCommand();
}

void VulkanStream::AppendBoxCopy(VkBuffer dst, uint64_t dst_base, VkBuffer src, uint64_t src_base,
                                 const CopyBox& box) {
  const BoxPieces pieces = PlanBox(box);
  for (uint64_t first = 0; first < pieces.count; first += kMaxRegionsPerCommand) {
    const auto count = static_cast<uint32_t>(std::min(kMaxRegionsPerCommand, pieces.count - first));
    uint8_t* regions = nullptr;
    CopyRegionsCommand* c =
        Append<CopyRegionsCommand>(count * static_cast<uint32_t>(sizeof(VkBufferCopy)), &regions);
    *c = CopyRegionsCommand{src, dst, count};
    EncodeBoxRegions(box, pieces, src_base, dst_base, first, count,
                     reinterpret_cast<VkBufferCopy*>(regions));
  }
}

absl::Status VulkanStream::RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) {
  VulkanAllocation* to = AsVulkan(dst.allocation);
  VulkanAllocation* from = AsVulkan(src.allocation);
  AppendBoxCopy(to->buffer(), to->buffer_offset() + dst.offset, from->buffer(),
                from->buffer_offset() + src.offset, box);
  return EndCommand();
}

absl::Status VulkanStream::RecordUploadBox(BufferRange dst, const void* src, const CopyBox& box) {
  VulkanAllocation* to = AsVulkan(dst.allocation);
  // CUDA: a pageable source is read before the call returns. Its rows are
  // packed into staging, then copied to theirs by one command.
  SH_ASSIGN_OR_RETURN(Staged staged, Stage(box.bytes(), 16));
  const auto* from = static_cast<const uint8_t*>(src);
  for (uint64_t row = 0; row < box.rows(); ++row) {
    std::memcpy(staged.host + row * box.width, from + box.SrcRow(row), box.width);
  }
  CopyBox packed = box;
  packed.src_pitch = box.width;
  packed.src_slice_pitch = box.width * box.height;
  AppendBoxCopy(to->buffer(), to->buffer_offset() + dst.offset, staged.buffer, staged.buffer_offset,
                packed);
  return EndCommand();
}

absl::Status VulkanStream::RecordDownloadBox(void* dst, BufferRange src, const CopyBox& box) {
  VulkanAllocation* from = AsVulkan(src.allocation);
  SH_ASSIGN_OR_RETURN(Staged staged, Stage(box.bytes(), 16));
  CopyBox packed = box;
  packed.dst_pitch = box.width;
  packed.dst_slice_pitch = box.width * box.height;
  AppendBoxCopy(staged.buffer, staged.buffer_offset, from->buffer(),
                from->buffer_offset() + src.offset, packed);
  CopyBox unpack = box;  // from the packed rows in staging to the host's
  unpack.src_pitch = box.width;
  unpack.src_slice_pitch = box.width * box.height;
  {
    MutexLock lock(&pending_mutex_);
    pending_.push_back(PendingDownload{current_point(), staged.host, dst, unpack});
    pending_count_.fetch_add(1, std::memory_order_release);
  }
  return EndCommand();
}

absl::Status VulkanStream::RecordFillRows(BufferRange dst, uint32_t pattern, uint32_t element_size,
                                          uint64_t count, uint64_t pitch, uint64_t rows) {
  const uint64_t row_bytes = count * element_size;
  if (rows == 1 || pitch == row_bytes) {
    return RecordFill(dst, pattern, element_size, count * rows);
  }
  // Wide rows: a fill each (vkCmdFillBuffer; the per-command cost is small
  // next to the row).
  if (row_bytes > kStagingRingBytes / 4) {
    return BackendStream::RecordFillRows(dst, pattern, element_size, count, pitch, rows);
  }
  // Narrow rows: one row of the pattern in staging, copied to every row by
  // one command (source regions may repeat).
  SH_ASSIGN_OR_RETURN(Staged staged, Stage(row_bytes, 16));
  for (uint64_t i = 0; i < row_bytes; ++i) {
    staged.host[i] = static_cast<uint8_t>(pattern >> (8 * (i % element_size)));
  }
  CopyBox box;
  box.width = row_bytes;
  box.height = rows;
  box.dst_pitch = pitch;
  box.src_pitch = 0;
  VulkanAllocation* to = AsVulkan(dst.allocation);
  AppendBoxCopy(to->buffer(), to->buffer_offset() + dst.offset, staged.buffer, staged.buffer_offset,
                box);
  return EndCommand();
}

}  // namespace streamhal::vk
