// Texture and surface views as kernels bind them (kernel ABI v2).
//
// A view is one VkImageView of an array's image (level 0; all of it or a
// range of its layers) and, for a texture, one VkSampler. Both are made
// once per texture or surface object, on the first launch that binds it,
// and pushed with vkCmdPushDescriptorSetKHR at set 2 of each launch that
// uses them (kernel.h), so binding a texture allocates nothing per launch.
// The view shares its image: a stream that has a launch pending keeps the
// view, and so the image, alive until that launch has completed.
#ifndef STREAMHAL_VK_BACKEND_RESOURCE_VIEW_H_
#define STREAMHAL_VK_BACKEND_RESOURCE_VIEW_H_

#include <vulkan/vulkan.h>

#include <memory>

#include "absl/status/statusor.h"
#include "core/backend.h"

namespace streamhal::vk {

class VulkanAllocation;
class VulkanDevice;

class VulkanResourceView final : public BackendResourceView {
 public:
  // kNotSupported when the device cannot sample (filter linearly) or store
  // the view's format, or has no push descriptors; kInvalidValue when the
  // layers or dimension do not fit the image.
  static absl::StatusOr<std::shared_ptr<VulkanResourceView>> Create(
      VulkanDevice* device, std::shared_ptr<BackendImage> image, const BindingViewDesc& desc);
  // A texture view of a new image of `image` (one level, 2-D) that each
  // dispatch binding it first fills from its staging source (a texture
  // over pitched memory; backend.h).
  static absl::StatusOr<std::shared_ptr<VulkanResourceView>> CreateStaged(
      VulkanDevice* device, const ImageDesc& image, const BindingViewDesc& desc);
  // A uniform texel buffer view of `size` bytes of `allocation` from
  // `offset` (tex1Dfetch over linear memory).
  static absl::StatusOr<std::shared_ptr<VulkanResourceView>> CreateBuffer(
      VulkanDevice* device, const VulkanAllocation& allocation, uint64_t offset, uint64_t size,
      ArrayFormat format, uint32_t channels, bool normalized);
  ~VulkanResourceView() override;
  VulkanResourceView(const VulkanResourceView&) = delete;
  VulkanResourceView& operator=(const VulkanResourceView&) = delete;

  VkDescriptorType descriptor_type() const { return type_; }
  VkImageView view() const { return view_; }
  VkSampler sampler() const { return sampler_; }  // null for surfaces
  VkBufferView buffer_view() const { return buffer_view_; }  // texel buffers only

  // Staged views: the copy into the image that a dispatch binding the view
  // records first (`staged()` false: none).
  void SetStagingSource(const ImageBufferSide& source) override;
  bool staged() const { return staged_; }
  VkImage staged_image() const;
  VkBuffer staging_buffer() const { return staging_buffer_; }
  const VkBufferImageCopy& staging_region() const { return staging_region_; }

 private:
  explicit VulkanResourceView(VkDevice device) : device_(device) {}
  // The sampler `desc` describes for a view of `format`.
  absl::Status CreateSampler(VulkanDevice* device, const BindingViewDesc& desc, VkFormat format);

  const VkDevice device_;
  std::shared_ptr<BackendImage> image_;
  VkDescriptorType type_ = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  VkImageView view_ = VK_NULL_HANDLE;
  VkSampler sampler_ = VK_NULL_HANDLE;
  VkBufferView buffer_view_ = VK_NULL_HANDLE;
  bool staged_ = false;
  VkBuffer staging_buffer_ = VK_NULL_HANDLE;
  VkBufferImageCopy staging_region_ = {};
};

// The descriptor type a kernel's binding of `kind` has.
VkDescriptorType DescriptorTypeOf(ResourceKind kind);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_RESOURCE_VIEW_H_
