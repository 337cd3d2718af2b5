// Modules, kernels and their pipelines.
//
// A kernel's pipeline layout (kernel ABI v1):
//   push constants [0, N): the parameter block (unless it lives in a uniform
//       buffer) followed by the grid info of split launches (grid_split.h);
//   set 0, binding 0: the module's globals block (storage buffer), when used;
//   set 1, binding 0: the parameter block as a dynamic uniform buffer, when
//       it exceeds the push-constant limit (core rewrote the module so);
//   set 2, binding i: the texture or surface of parameter i (kernel ABI v2),
//       a push-descriptor set written at each launch. Sets 0 and 1 are then
//       present, empty where the kernel has no globals or uniform block.
// Pipelines are specialised per launch shape (block size through SpecId 0-2,
// dynamic shared bytes through SpecId 3) and created on first use.
#ifndef STREAMHAL_VK_BACKEND_KERNEL_H_
#define STREAMHAL_VK_BACKEND_KERNEL_H_

#include <vulkan/vulkan.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/backend.h"
#include "core/mutex.h"
#include "vk_backend/allocator.h"
#include "vk_backend/entry_point_module.h"

namespace streamhal::vk {

class VulkanDevice;

// Objects every kernel of a device shares.
class KernelObjects {
 public:
  static absl::StatusOr<std::unique_ptr<KernelObjects>> Create(VkDevice device);
  ~KernelObjects();
  KernelObjects(const KernelObjects&) = delete;
  KernelObjects& operator=(const KernelObjects&) = delete;

  VkPipelineCache pipeline_cache() const { return pipeline_cache_; }
  VkDescriptorSetLayout globals_layout() const { return globals_layout_; }
  VkDescriptorSetLayout empty_layout() const { return empty_layout_; }
  VkDescriptorSetLayout params_layout() const { return params_layout_; }

 private:
  explicit KernelObjects(VkDevice device) : device_(device) {}
  const VkDevice device_;
  VkPipelineCache pipeline_cache_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout globals_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout empty_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout params_layout_ = VK_NULL_HANDLE;
};

// A VkShaderModule shared by a module and the kernels that use it as is, so
// kernels may outlive their module.
class ShaderModule {
 public:
  static absl::StatusOr<std::shared_ptr<ShaderModule>> Create(VkDevice device,
                                                              const std::vector<uint32_t>& spirv);
  ~ShaderModule();
  ShaderModule(const ShaderModule&) = delete;
  ShaderModule& operator=(const ShaderModule&) = delete;
  VkShaderModule handle() const { return module_; }

 private:
  explicit ShaderModule(VkDevice device) : device_(device) {}
  const VkDevice device_;
  VkShaderModule module_ = VK_NULL_HANDLE;
};

class VulkanModule final : public streamhal::BackendModule {
 public:
  static absl::StatusOr<std::unique_ptr<VulkanModule>> Create(VulkanDevice* device,
                                                              const std::vector<uint32_t>& spirv);
  const std::vector<uint32_t>& spirv() const { return spirv_; }
  // The whole module as a shader module, created on first use: kernels of a
  // module with several entry points get a shader module of their own.
  // Thread-safe.
  absl::StatusOr<std::shared_ptr<ShaderModule>> Shader() ABSL_LOCKS_EXCLUDED(mutex_);
  // The module indexed once for its kernels, built on first use. Thread-safe.
  absl::StatusOr<const EntryPointIndex*> Index() ABSL_LOCKS_EXCLUDED(mutex_);

 private:
  explicit VulkanModule(VkDevice device) : device_(device) {}
  const VkDevice device_;
  std::vector<uint32_t> spirv_;
  Mutex mutex_;
  std::shared_ptr<ShaderModule> shader_ ABSL_GUARDED_BY(mutex_);
  std::unique_ptr<EntryPointIndex> index_ ABSL_GUARDED_BY(mutex_);
};

// What selects a pipeline of a kernel.
struct PipelineKey {
  std::array<uint32_t, 3> block = {1, 1, 1};
  uint32_t shared_bytes = 0;  // the SpecId 3 value; 0 when the kernel has none
  // SpecId 4 and 5 (low and high words): a cooperative launch's grid
  // barrier; 0 for other launches, which leave the constants at their default.
  uint64_t grid_barrier = 0;

  bool operator==(const PipelineKey& other) const {
    return block == other.block && shared_bytes == other.shared_bytes &&
           grid_barrier == other.grid_barrier;
  }
  template <typename H>
  friend H AbslHashValue(H h, const PipelineKey& key) {
    return H::combine(std::move(h), key.block[0], key.block[1], key.block[2], key.shared_bytes,
                      key.grid_barrier);
  }
};

class VulkanKernel final : public streamhal::BackendKernel {
 public:
  static absl::StatusOr<std::unique_ptr<VulkanKernel>> Create(VulkanDevice* device,
                                                              VulkanModule* module,
                                                              const KernelLayout& layout);
  ~VulkanKernel() override;
  VulkanKernel(const VulkanKernel&) = delete;
  VulkanKernel& operator=(const VulkanKernel&) = delete;

  int max_threads_per_block() const override { return max_threads_per_block_; }

  const KernelLayout& layout() const { return layout_; }
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }

  // Push constants: the parameter bytes at 0 (rounded up to 4; 0 when the
  // parameters are in a uniform buffer), the grid info at grid_info_offset()
  // when needs_grid_info(), and push_size() bytes in all.
  uint32_t push_param_bytes() const { return push_param_bytes_; }
  bool needs_grid_info() const { return needs_grid_info_; }
  uint32_t grid_info_offset() const { return grid_info_offset_; }
  uint32_t push_size() const { return push_size_; }
  // False when the kernel reads its grid position but could not be
  // rewritten: it then only launches grids that fit in one dispatch.
  bool can_split() const { return can_split_; }

  // The key a launch uses (dynamic shared bytes rounded as the ABI says).
  PipelineKey KeyFor(const std::array<uint32_t, 3>& block, uint32_t dynamic_shared_bytes) const {
    PipelineKey key;
    key.block = block;
    if (layout_.has_dynamic_shared_spec) {
      key.shared_bytes = dynamic_shared_bytes < 16 ? 16 : (dynamic_shared_bytes + 15) & ~15u;
    }
    return key;
  }
  // The pipeline last used, if it matches `key` (lock-free); else null.
  VkPipeline LastPipeline(const PipelineKey& key) const {
    const PipelineEntry* last = last_pipeline_.load(std::memory_order_acquire);
    return last != nullptr && last->key == key ? last->pipeline : VK_NULL_HANDLE;
  }
  // The pipeline for `key`, created on first use. Thread-safe.
  absl::StatusOr<VkPipeline> GetPipeline(const PipelineKey& key);

  // The descriptor set binding `globals` at set 0. Thread-safe; the last one
  // is returned without a lock.
  absl::StatusOr<VkDescriptorSet> GlobalsSet(const VulkanAllocation& globals) {
    const GlobalsEntry* last = last_globals_.load(std::memory_order_acquire);
    if (last != nullptr && last->buffer == globals.buffer() &&
        last->offset == globals.buffer_offset() && last->size == globals.size()) {
      return last->set;
    }
    return GlobalsSetSlow(globals);
  }

  // Pipelines created so far (tests).
  size_t pipeline_count();

 private:
  struct PipelineEntry {
    PipelineKey key;
    VkPipeline pipeline = VK_NULL_HANDLE;
  };
  struct GlobalsEntry {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t offset = 0;
    uint64_t size = 0;
    VkDescriptorSet set = VK_NULL_HANDLE;
  };

  VulkanKernel(VulkanDevice* device, const KernelLayout& layout);
  absl::StatusOr<VkDescriptorSet> GlobalsSetSlow(const VulkanAllocation& globals);

  VulkanDevice* const device_;
  const VkDevice vk_device_;
  const KernelLayout layout_;
  int max_threads_per_block_ = 0;
  std::shared_ptr<ShaderModule> shader_;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout resource_layout_ = VK_NULL_HANDLE;  // set 2, when used
  uint32_t push_param_bytes_ = 0;
  bool needs_grid_info_ = false;
  uint32_t grid_info_offset_ = 0;
  uint32_t push_size_ = 0;
  bool can_split_ = true;

  Mutex mutex_;
  // Entries are never removed before the kernel dies, so pointers to them
  // (last_pipeline_, last_globals_) stay valid.
  absl::flat_hash_map<PipelineKey, std::unique_ptr<PipelineEntry>> pipelines_
      ABSL_GUARDED_BY(mutex_);
  std::atomic<const PipelineEntry*> last_pipeline_{nullptr};
  std::vector<std::unique_ptr<GlobalsEntry>> globals_sets_ ABSL_GUARDED_BY(mutex_);
  std::vector<VkDescriptorPool> descriptor_pools_ ABSL_GUARDED_BY(mutex_);
  std::atomic<const GlobalsEntry*> last_globals_{nullptr};
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_KERNEL_H_
