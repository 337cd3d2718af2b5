// The commands a stream has accepted since its last submission, in a compact
// form of streamhal's own, and their translation into a Vulkan command
// buffer when the stream submits.
//
// Why not record into the Vulkan command buffer at once: CUDA orders every
// operation of a stream after the previous one, so each command needs a
// pipeline barrier, and recording one costs more than the dispatch it orders
// on some drivers (lavapipe deep-copies every command into its own heap
// allocations). Appending a command here is a bump of a pointer into memory
// reused from batch to batch, so cuLaunchKernel returns after validation and
// a copy of its parameters; the Vulkan calls happen once per batch, at the
// synchronisation point that submits it (design decision 4). Dawn's command
// encoders work the same way.
//
// Everything a command names (pipelines, buffers, descriptor sets, staging)
// is resolved when it is appended and stays alive until the batch completes:
// freeing memory and unloading modules synchronise the context first.
#ifndef STREAMHAL_VK_BACKEND_COMMAND_LIST_H_
#define STREAMHAL_VK_BACKEND_COMMAND_LIST_H_

#include <vulkan/vulkan.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>

namespace streamhal::vk {

class TimestampRing;

enum class CommandType : uint8_t {
  kDispatch,
  kCopy,
  kCopyRegions,
  kFill,
  kTimestamp,
  kBarrier,
  kImageCopy,
};

// A texture or surface a launch pushes at set 2 (kernel ABI v2).
struct PushedResource {
  uint32_t binding;
  VkDescriptorType type;
  VkImageView view;
  VkSampler sampler;         // null for storage images and texel buffers
  VkBufferView buffer_view;  // texel buffers only
};

// At most this many texture and surface parameters per kernel (the
// smallest maxPushDescriptors Vulkan allows).
inline constexpr uint32_t kMaxPushedResources = 32;

// One launch (possibly split into several dispatches). Followed in the list
// by `push_size` bytes of push constants: the parameter block and, when the
// kernel reads it, the grid info for the first piece; then, at the next
// multiple of 8 bytes, `resource_count` PushedResource.
struct DispatchCommand {
  static constexpr CommandType kType = CommandType::kDispatch;
  VkPipeline pipeline;
  VkPipelineLayout layout;
  std::array<uint32_t, 3> grid;
  std::array<uint32_t, 3> block;
  VkDescriptorSet sets[2];
  uint32_t set_count;
  uint32_t first_set;
  uint32_t dynamic_offset_count;  // 0 or 1
  uint32_t dynamic_offset;
  uint32_t push_size;
  uint32_t grid_info_offset;  // where the grid info words start in the push block
  uint32_t resource_count;    // textures and surfaces pushed at set 2
  bool needs_grid_info;
};

// Where a DispatchCommand's PushedResource start after its push bytes.
constexpr uint32_t PushedResourcesOffset(uint32_t push_size) { return (push_size + 7) & ~7u; }

// A buffer-to-buffer copy (device copies, uploads from staging, downloads to
// staging).
struct CopyCommand {
  static constexpr CommandType kType = CommandType::kCopy;
  VkBuffer src;
  VkBuffer dst;
  VkBufferCopy region;
};

// One vkCmdCopyBuffer of many regions (the rows of a pitched copy: one CUDA
// operation, so no barrier between them). Followed in the list by
// `region_count` VkBufferCopy.
struct CopyRegionsCommand {
  static constexpr CommandType kType = CommandType::kCopyRegions;
  VkBuffer src;
  VkBuffer dst;
  uint32_t region_count;
};

// A fill: the word-aligned middle by vkCmdFillBuffer, up to two unaligned
// edges copied from staged bytes. The pieces are disjoint.
struct FillCommand {
  static constexpr CommandType kType = CommandType::kFill;
  VkBuffer dst;
  VkDeviceSize fill_offset;
  VkDeviceSize fill_size;  // 0: no middle
  uint32_t fill_word;
  uint32_t edge_count;
  VkBuffer edge_src;
  VkBufferCopy edges[2];
};

// A copy with an image end (CUDA arrays). Images rest in
// VK_IMAGE_LAYOUT_GENERAL (image.h); the copy moves them to the transfer
// layout and back around itself, so the global barriers that order a
// stream's commands order everything else on them.
struct ImageCopyCommand {
  static constexpr CommandType kType = CommandType::kImageCopy;
  enum class Kind : uint8_t { kBufferToImage, kImageToBuffer, kImageToImage } kind;
  VkBuffer buffer;  // the linear end, if any
  VkImage src_image;
  VkImage dst_image;
  VkBufferImageCopy buffer_region;  // kBufferToImage, kImageToBuffer
  VkImageCopy image_region;         // kImageToImage
};

// A device timestamp into slot `slot` of the stream's TimestampRing.
struct TimestampCommand {
  static constexpr CommandType kType = CommandType::kTimestamp;
  uint32_t slot;
};

// Orders every command after it behind every command before it (recordings
// only: see Ordering::kAtBarriers).
struct BarrierCommand {
  static constexpr CommandType kType = CommandType::kBarrier;
};

// Which commands a translation orders after which.
enum class Ordering {
  // A stream's batch: each command after the previous one (CUDA stream
  // order). Barrier commands add nothing.
  kSequential,
  // A recording (recording.h): only a barrier command orders the commands
  // after it behind those before it (a graph's edges); commands between two
  // barriers may run in any order or overlap. The whole list starts after
  // the work submitted before it and sees the host's writes.
  kAtBarriers,
};

// The device's command entry points, fetched once so recording skips the
// loader's trampolines.
struct CommandFunctions {
  PFN_vkCmdBindPipeline bind_pipeline = nullptr;
  PFN_vkCmdBindDescriptorSets bind_descriptor_sets = nullptr;
  PFN_vkCmdPushConstants push_constants = nullptr;
  PFN_vkCmdDispatch dispatch = nullptr;
  PFN_vkCmdCopyBuffer copy_buffer = nullptr;
  PFN_vkCmdFillBuffer fill_buffer = nullptr;
  PFN_vkCmdCopyBufferToImage copy_buffer_to_image = nullptr;
  PFN_vkCmdCopyImageToBuffer copy_image_to_buffer = nullptr;
  PFN_vkCmdCopyImage copy_image = nullptr;
  PFN_vkCmdPipelineBarrier pipeline_barrier = nullptr;
  PFN_vkCmdPipelineBarrier2 pipeline_barrier2 = nullptr;  // with synchronization2
  PFN_vkCmdPushDescriptorSetKHR push_descriptor_set = nullptr;  // with VK_KHR_push_descriptor

  // Loads them from `device`; false if a core entry point is missing.
  bool Load(VkDevice device, bool synchronization2, bool vulkan13, bool push_descriptor);
};

// What translation needs besides the commands.
struct RecordTarget {
  VkCommandBuffer command_buffer = VK_NULL_HANDLE;
  const CommandFunctions* functions = nullptr;
  std::array<uint32_t, 3> max_groups = {};  // one dispatch's limits
  TimestampRing* timestamps = nullptr;      // needed once a timestamp is appended
  // Where a stream batch writes its point last (completion_marker.h); none
  // for recordings, which run at many points.
  VkBuffer marker_buffer = VK_NULL_HANDLE;
  VkDeviceSize marker_offset = 0;
  uint32_t marker_value = 0;
};

class CommandList {
 public:
  CommandList() = default;
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;

  // Appends a command of type T followed by `trailing` bytes (returned in
  // `*trailing_out` when non-null). `import_host_writes`: before this
  // command, make what the host wrote visible to the device (after a wait on
  // a host function). The pointers stay valid until the next Append or
  // Clear. Memory grows geometrically and is kept across Clear, so a stream
  // in a steady state never allocates here.
  template <typename T>
  T* Append(bool import_host_writes, uint32_t trailing = 0, uint8_t** trailing_out = nullptr) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kAlign);
    const size_t size = RoundUp(sizeof(Header)) + RoundUp(sizeof(T)) + RoundUp(trailing);
    if (used_ + size > capacity_) Grow(used_ + size);
    uint8_t* at = storage_.get() + used_;
    new (at) Header{T::kType, import_host_writes, static_cast<uint32_t>(size)};
    uint8_t* payload = at + RoundUp(sizeof(Header));
    if (trailing_out != nullptr) *trailing_out = payload + RoundUp(sizeof(T));
    used_ += size;
    ++count_;
    return new (payload) T();
  }

  size_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Bytes in use and reserved (tests).
  size_t used_bytes() const { return used_; }
  size_t capacity_bytes() const { return capacity_; }
  // Forgets the commands, keeps the memory.
  void Clear() {
    used_ = 0;
    count_ = 0;
  }

  // Records every command into `target.command_buffer`, ordered as
  // `ordering` says (kSequential: a barrier between every two commands; the
  // pieces of one split launch and of one fill are one CUDA operation and
  // get none between them), and ends with a barrier that makes device
  // writes visible to the host.
  void RecordInto(const RecordTarget& target, Ordering ordering = Ordering::kSequential) const;

  // Calls fn(type, payload) for each command in order, with a payload that
  // may be changed (a recording points its commands at its scratch memory
  // once that exists).
  template <typename Fn>
  void ForEachMutable(Fn&& fn) {
    for (size_t at = 0; at < used_;) {
      auto* header = reinterpret_cast<Header*>(storage_.get() + at);
      fn(header->type, storage_.get() + at + RoundUp(sizeof(Header)));
      at += header->size;
    }
  }

  // Calls fn(type, payload) for each command in order (tests).
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (size_t at = 0; at < used_;) {
      const auto* header = reinterpret_cast<const Header*>(storage_.get() + at);
      fn(header->type, storage_.get() + at + RoundUp(sizeof(Header)));
      at += header->size;
    }
  }

 private:
  static constexpr size_t kAlign = 8;
  struct Header {
    CommandType type;
    bool import_host_writes;
    uint32_t size;  // of the whole record
  };
  static constexpr size_t RoundUp(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }
  void Grow(size_t needed);

  std::unique_ptr<uint8_t[]> storage_;
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t count_ = 0;
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_COMMAND_LIST_H_
