// CUDA arrays as Vulkan images.
//
// An array is one VkImage with optimal tiling, bound to memory the
// allocator sub-allocates (so cuMemGetInfo counts it like cuMemAlloc). It
// rests in VK_IMAGE_LAYOUT_GENERAL from creation to destruction: sampled
// reads and storage access accept GENERAL, and a copy moves it to the
// transfer layout and back around itself (command_list.h), so no stream has
// to know what another did to it. The image is created MUTABLE_FORMAT so a
// texture object can later view integer texels as normalised or sRGB
// (CUDA's read modes).
#ifndef STREAMHAL_VK_BACKEND_IMAGE_H_
#define STREAMHAL_VK_BACKEND_IMAGE_H_

#include <vulkan/vulkan.h>

#include <memory>

#include "absl/status/statusor.h"
#include "core/backend.h"

namespace streamhal::vk {

class VulkanDevice;
class VulkanAllocation;

// The Vulkan format of an array's texels (the integer or float format of
// the CUDA element type, 1, 2 or 4 components); VK_FORMAT_UNDEFINED for
// combinations CUDA does not define.
VkFormat ImageFormat(ArrayFormat format, uint32_t channels);

class VulkanImage final : public BackendImage {
 public:
  // Validates `desc` against the device's format properties and limits
  // (kInvalidValue naming what does not fit), creates the image, binds it
  // and moves it to VK_IMAGE_LAYOUT_GENERAL (one small submission).
  //
  // With `import` (BackendDevice::ImportImage, which owns its descriptor),
  // the image is created for opaque-descriptor memory and bound at
  // `import->offset` of an import of its own, then acquired from
  // VK_QUEUE_FAMILY_EXTERNAL into GENERAL (the exporter releases it there).
  // Vulkan keeps no layout across devices and a new image has none but
  // UNDEFINED, so the acquire names UNDEFINED as its old layout.
  static absl::StatusOr<std::unique_ptr<VulkanImage>> Create(
      VulkanDevice* device, const ImageDesc& desc,
      const BackendDevice::ExportedMemory* import = nullptr);
  ~VulkanImage() override;

  uint64_t bytes() const override { return bytes_; }
  VkImage image() const { return image_; }
  VkFormat format() const { return format_; }
  VkImageType type() const { return type_; }
  const ImageDesc& desc() const { return desc_; }
  // What a texture or surface view of the whole image is (later rounds).
  VkImageViewType view_type() const { return view_type_; }

 private:
  explicit VulkanImage(VulkanDevice* device) : device_(device) {}
  // `acquire`: the image is imported and its texels kept (see Create).
  absl::Status TransitionToGeneral(bool acquire);
  // Binds the image to an import of `import` (`*fd` its descriptor, set to
  // -1 once Vulkan owns it), checking the image fits at the offset.
  absl::Status BindImported(const BackendDevice::ExportedMemory& import, int* fd);

  VulkanDevice* const device_;
  ImageDesc desc_;
  VkImage image_ = VK_NULL_HANDLE;
  VkFormat format_ = VK_FORMAT_UNDEFINED;
  VkImageType type_ = VK_IMAGE_TYPE_2D;
  VkImageViewType view_type_ = VK_IMAGE_VIEW_TYPE_2D;
  uint64_t bytes_ = 0;
  std::unique_ptr<VulkanAllocation> memory_;
  // An imported image's own import of the external memory (owned).
  VkDeviceMemory imported_memory_ = VK_NULL_HANDLE;
};

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_IMAGE_H_
