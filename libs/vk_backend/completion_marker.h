// Completion markers: a word of host-visible memory per stream that each of
// its batches overwrites with its own point, as its last command.
//
// Why: a host thread that polls for completion would otherwise poll the
// stream's timeline semaphore, and vkGetSemaphoreCounterValue takes the
// driver's semaphore lock, which the driver's queue thread needs to signal
// it (lavapipe: every poll contends with the signal it waits for). And the
// work is done, its results in memory, before the driver gets round to the
// signal: on lavapipe the batch's last command runs, then the queue thread
// flushes, creates a fence and signals. A plain load of the marker sees the
// end of the work at once and takes nobody's lock.
//
// A marker answers only "are the results there" (Completion::kResults):
// Vulkan (and its validation layer) still counts the submission as pending
// until the timeline says otherwise, so nothing the batch used may be
// destroyed or reused on the marker's word.
//
// The word holds the low 32 bits of the point; MarkerReached compares them
// with a 32-bit wrap, which is exact while the last marked point is within
// 2^31 of the point asked about (VulkanStream keeps unmarked runs shorter;
// an answer for a point far older is "not reached", and the caller then
// asks the timeline).
#ifndef STREAMHAL_VK_BACKEND_COMPLETION_MARKER_H_
#define STREAMHAL_VK_BACKEND_COMPLETION_MARKER_H_

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "core/mutex.h"

namespace streamhal::vk {

// One stream's marker: where batches write it, and where the host reads it.
struct CompletionMarker {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  std::atomic<uint32_t>* word = nullptr;  // in the host mapping; the host only reads it

  bool valid() const { return word != nullptr; }
  uint32_t Load() const { return word->load(std::memory_order_acquire); }
};

// Whether a marker that reads `seen` shows that `point` has completed.
inline bool MarkerReached(uint32_t seen, uint64_t point) {
  return static_cast<int32_t>(seen - static_cast<uint32_t>(point)) >= 0;
}

// The markers of one VkDevice: 64-byte slots (one cache line each, so that
// pollers of different streams do not share a line) in pages of
// host-visible, host-coherent memory. Pages are not counted in the heap
// (a few KiB, never cuMemGetInfo's business) and live as long as this.
// Thread-safe.
class CompletionMarkers {
 public:
  CompletionMarkers(VkDevice device, const VkPhysicalDeviceMemoryProperties& memory);
  ~CompletionMarkers();
  CompletionMarkers(const CompletionMarkers&) = delete;
  CompletionMarkers& operator=(const CompletionMarkers&) = delete;

  // A slot reading 0. kNotSupported when the device has no host-visible,
  // host-coherent memory (the stream then waits on its timeline alone).
  absl::StatusOr<CompletionMarker> Acquire();
  // Returns a slot; its stream's batches must have completed.
  void Release(const CompletionMarker& marker);

  static constexpr VkDeviceSize kSlotBytes = 64;
  static constexpr VkDeviceSize kPageBytes = 4096;

 private:
  struct Page {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint8_t* host = nullptr;
  };
  absl::Status AddPage() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);

  const VkDevice device_;
  int32_t memory_type_ = -1;  // -1: none usable
  Mutex mutex_;
  std::vector<Page> pages_ ABSL_GUARDED_BY(mutex_);
  std::vector<CompletionMarker> free_ ABSL_GUARDED_BY(mutex_);
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_COMPLETION_MARKER_H_
