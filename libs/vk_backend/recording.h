// Work recorded once and run many times (design decision 10: graphs are
// compiled, a launch is a submission).
//
// A VulkanRecorder encodes commands exactly as a stream does (encode.h,
// command_list.h): pipelines, descriptor sets and push constants are
// resolved when a command is recorded. What a stream keeps in its staging
// ring, reused as points complete, a recording must keep for as long as it
// lives, because it is run long after it was recorded: big parameter blocks
// and fill edges are gathered while recording and copied at Finish into one
// host-visible allocation of the recording's own, bound through a
// descriptor set of its own, and the commands are then pointed at it.
//
// Finish translates the commands once into a primary command buffer that
// may be pending several times at once (SIMULTANEOUS_USE: a graph launched
// again before its previous launch finished, possibly on another stream).
// Unlike a stream's batch, commands are ordered only where RecordBarrier
// says (Ordering::kAtBarriers); the whole recording starts with a barrier
// that makes host writes visible and orders it after earlier work, and ends
// with one that makes its writes visible to the host.
//
// A stream runs a recording by submitting its command buffer as a batch of
// its own (VulkanStream::RecordExecute), which keeps the recording alive
// until that batch has completed. The pipelines, globals sets and buffers
// the commands name belong to kernels and allocations that core keeps alive
// for as long as the recording exists.
#ifndef STREAMHAL_VK_BACKEND_RECORDING_H_
#define STREAMHAL_VK_BACKEND_RECORDING_H_

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "core/backend.h"
#include "vk_backend/allocator.h"
#include "vk_backend/command_list.h"

namespace streamhal::vk {

class VulkanDevice;

class VulkanRecording final : public streamhal::BackendRecording {
 public:
  ~VulkanRecording() override;
  VulkanRecording(const VulkanRecording&) = delete;
  VulkanRecording& operator=(const VulkanRecording&) = delete;

  // Ended, and submittable any number of times, also concurrently.
  VkCommandBuffer command_buffer() const { return command_buffer_; }
  // Bytes of the recording's own host-visible scratch (0: none) (tests).
  uint64_t scratch_bytes() const { return scratch_ != nullptr ? scratch_->size() : 0; }

 private:
  friend class VulkanRecorder;
  explicit VulkanRecording(VkDevice device) : device_(device) {}

  const VkDevice device_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer command_buffer_ = VK_NULL_HANDLE;
  // Parameter blocks and fill edges that the commands read.
  std::unique_ptr<VulkanAllocation> scratch_;
  // Binds scratch_ at set 1 for parameter blocks in a uniform buffer.
  VkDescriptorPool descriptor_pool_ = VK_NULL_HANDLE;
  // Textures and surfaces its launches bind.
  std::vector<std::shared_ptr<BackendResourceView>> views_;
};

class VulkanRecorder final : public streamhal::BackendRecorder {
 public:
  static absl::StatusOr<std::unique_ptr<VulkanRecorder>> Create(VulkanDevice* device);
  VulkanRecorder(const VulkanRecorder&) = delete;
  VulkanRecorder& operator=(const VulkanRecorder&) = delete;

  absl::Status RecordDispatch(const DispatchParams& params) override;
  absl::Status RecordCopy(BufferRange dst, BufferRange src, uint64_t size) override;
  absl::Status RecordFill(BufferRange dst, uint32_t pattern, uint32_t element_size,
                          uint64_t count) override;
  absl::Status RecordCopyBox(BufferRange dst, BufferRange src, const CopyBox& box) override;
  void RecordBarrier() override;
  // On success the recorder is empty again and may record another
  // recording; on failure it keeps what was recorded (Finish may be retried).
  absl::StatusOr<std::shared_ptr<BackendRecording>> Finish() override;

 private:
  explicit VulkanRecorder(VulkanDevice* device);

  // Reserves `size` bytes of scratch aligned to `alignment` and returns
  // their offset from the scratch's start.
  uint64_t Reserve(uint64_t size, uint64_t alignment);
  // Creates the recording's scratch, points the commands at it and records
  // the command buffer.
  absl::Status Build(VulkanRecording* recording);

  VulkanDevice* const device_;
  const VkDevice vk_device_;
  const std::array<uint32_t, 3> max_groups_;
  const uint64_t uniform_alignment_;
  CommandFunctions cmd_;

  CommandList commands_;
  // The scratch's bytes until Finish; commands that read it hold offsets
  // into it (and VK_NULL_HANDLE where its buffer and descriptor set go).
  std::vector<uint8_t> scratch_;
  std::vector<std::shared_ptr<BackendResourceView>> views_;
  bool params_in_scratch_ = false;  // a parameter block is, so a set is needed
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_RECORDING_H_
