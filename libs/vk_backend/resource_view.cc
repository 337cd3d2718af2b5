#include "vk_backend/resource_view.h"

#include <algorithm>
#include <utility>

#include "core/status.h"
#include "vk_backend/allocator.h"
#include "vk_backend/device.h"
#include "vk_backend/image.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// The format a view reads an image of `base` format as: integers of 8 and
// 16 bits as normalised floats (CUDA's cudaReadModeNormalizedFloat), 8-bit
// unsigned ones as sRGB. VK_FORMAT_UNDEFINED when there is no such form.
VkFormat ViewFormat(VkFormat base, bool normalized, bool srgb) {
  struct Row {
    VkFormat integer, unorm, srgb;
  };
  static constexpr Row kRows[] = {
      {VK_FORMAT_R8_UINT, VK_FORMAT_R8_UNORM, VK_FORMAT_R8_SRGB},
      {VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8_SRGB},
      {VK_FORMAT_R8G8B8A8_UINT, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB},
      {VK_FORMAT_R8_SINT, VK_FORMAT_R8_SNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8_SNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R8G8B8A8_SINT, VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16_UINT, VK_FORMAT_R16_UNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16_UNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16_SINT, VK_FORMAT_R16_SNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16_SNORM, VK_FORMAT_UNDEFINED},
      {VK_FORMAT_R16G16B16A16_SINT, VK_FORMAT_R16G16B16A16_SNORM, VK_FORMAT_UNDEFINED},
  };
  if (!normalized && !srgb) return base;
  for (const Row& row : kRows) {
    if (row.integer == base) return srgb ? row.srgb : row.unorm;
  }
  return VK_FORMAT_UNDEFINED;
}

uint64_t ElementBytes(ArrayFormat format) {
  switch (format) {
    case ArrayFormat::kUint8:
    case ArrayFormat::kSint8:
      return 1;
    case ArrayFormat::kUint16:
    case ArrayFormat::kSint16:
    case ArrayFormat::kHalf:
      return 2;
    default:
      return 4;
  }
}

VkImageViewType ViewType(ViewDimension dimension) {
  switch (dimension) {
    case ViewDimension::k1D:
      return VK_IMAGE_VIEW_TYPE_1D;
    case ViewDimension::k2D:
      return VK_IMAGE_VIEW_TYPE_2D;
    case ViewDimension::k3D:
      return VK_IMAGE_VIEW_TYPE_3D;
    case ViewDimension::kCube:
      return VK_IMAGE_VIEW_TYPE_CUBE;
    case ViewDimension::k1DArray:
      return VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    case ViewDimension::k2DArray:
      return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case ViewDimension::kCubeArray:
      return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    case ViewDimension::kBuffer:
      break;
  }
  return VK_IMAGE_VIEW_TYPE_2D;
}

// Whether a view of `dimension` can show an image of `type`.
bool Fits(ViewDimension dimension, VkImageType type) {
  switch (dimension) {
    case ViewDimension::k1D:
    case ViewDimension::k1DArray:
      return type == VK_IMAGE_TYPE_1D;
    case ViewDimension::k3D:
      return type == VK_IMAGE_TYPE_3D;
    case ViewDimension::kBuffer:
      return false;
    default:
      return type == VK_IMAGE_TYPE_2D;
  }
}

VkSamplerAddressMode AddressMode(SamplerAddress address) {
  switch (address) {
    case SamplerAddress::kWrap:
      return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case SamplerAddress::kMirror:
      return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case SamplerAddress::kBorder:
      return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case SamplerAddress::kClamp:
      break;
  }
  return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

VkBorderColor Border(BorderColor color, bool integer) {
  switch (color) {
    case BorderColor::kOpaqueBlack:
      return integer ? VK_BORDER_COLOR_INT_OPAQUE_BLACK : VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
    case BorderColor::kOpaqueWhite:
      return integer ? VK_BORDER_COLOR_INT_OPAQUE_WHITE : VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    case BorderColor::kTransparentBlack:
    case BorderColor::kCustom:  // set by CreateSampler
      break;
  }
  return integer ? VK_BORDER_COLOR_INT_TRANSPARENT_BLACK : VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
}

}  // namespace

VkDescriptorType DescriptorTypeOf(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kStorageImage:
      return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case ResourceKind::kTexelBuffer:
      return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    case ResourceKind::kSampledImage:
      break;
  }
  return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
}

absl::StatusOr<std::shared_ptr<VulkanResourceView>> VulkanResourceView::CreateBuffer(
    VulkanDevice* device, const VulkanAllocation& allocation, uint64_t offset, uint64_t size,
    ArrayFormat format, uint32_t channels, bool normalized) {
  if (!device->features().push_descriptor) {
    return Error(ErrorCode::kNotSupported,
                 "the device has no VK_KHR_push_descriptor; kernels cannot bind textures");
  }
  const VkFormat vk_format = ViewFormat(ImageFormat(format, channels), normalized, false);
  if (vk_format == VK_FORMAT_UNDEFINED) {
    return Error(ErrorCode::kInvalidValue, "the texels have no normalised form");
  }
  VkFormatProperties properties = {};
  vkGetPhysicalDeviceFormatProperties(device->physical_device(), vk_format, &properties);
  if ((properties.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) == 0) {
    return Error(ErrorCode::kNotSupported, "the device cannot read texels of Vulkan format ",
                 static_cast<int>(vk_format), " from a texel buffer");
  }
  const VkPhysicalDeviceLimits& limits = device->vk_properties().limits;
  const uint64_t element = ElementBytes(format) * channels;
  if (size / element > limits.maxTexelBufferElements) {
    return Error(ErrorCode::kNotSupported, "a linear texture of ", size / element,
                 " texels exceeds the device's ", limits.maxTexelBufferElements);
  }
  const VkDevice vk_device = device->device();
  std::shared_ptr<VulkanResourceView> view(new VulkanResourceView(vk_device));
  view->type_ = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  VkBufferViewCreateInfo info = {VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  info.buffer = allocation.buffer();
  info.format = vk_format;
  info.offset = allocation.buffer_offset() + offset;
  info.range = size;
  SH_VK_RETURN_IF_ERROR(vkCreateBufferView(vk_device, &info, nullptr, &view->buffer_view_),
                        "vkCreateBufferView");
  return view;
}

absl::StatusOr<std::shared_ptr<VulkanResourceView>> VulkanResourceView::Create(
    VulkanDevice* device, std::shared_ptr<BackendImage> image, const BindingViewDesc& desc) {
  if (!device->features().push_descriptor) {
    return Error(ErrorCode::kNotSupported,
                 "the device has no VK_KHR_push_descriptor; kernels cannot bind textures");
  }
  const auto* vk_image = static_cast<const VulkanImage*>(image.get());
  const bool storage = desc.kind == ResourceKind::kStorageImage;
  if (!Fits(desc.dimension, vk_image->type())) {
    return Error(ErrorCode::kInvalidValue, "the kernel's texture or surface dimension does not ",
                 "match the array's shape");
  }
  const VkFormat format = ViewFormat(vk_image->format(), desc.normalized, desc.srgb);
  if (format == VK_FORMAT_UNDEFINED) {
    return Error(ErrorCode::kInvalidValue, "the array's texels have no ",
                 desc.srgb ? "sRGB" : "normalised", " form");
  }
  VkFormatProperties properties = {};
  vkGetPhysicalDeviceFormatProperties(device->physical_device(), format, &properties);
  VkFormatFeatureFlags needed =
      storage ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT : VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  if (!storage && desc.sampler.linear) needed |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  if ((properties.optimalTilingFeatures & needed) != needed) {
    return Error(ErrorCode::kNotSupported, "the device cannot ",
                 storage               ? "read and write"
                 : desc.sampler.linear ? "filter linearly"
                                       : "sample",
                 " texels of Vulkan format ", static_cast<int>(format));
  }

  const VkDevice vk_device = device->device();
  std::shared_ptr<VulkanResourceView> view(new VulkanResourceView(vk_device));
  view->type_ = DescriptorTypeOf(desc.kind);
  // The image may allow more usages than this view's format supports
  // (storage, for an sRGB view): the view asks only for its own.
  VkImageViewUsageCreateInfo usage = {VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
  usage.usage = storage ? VK_IMAGE_USAGE_STORAGE_BIT : VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImageViewCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  info.pNext = &usage;
  info.image = vk_image->image();
  info.viewType = ViewType(desc.dimension);
  info.format = format;
  info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, desc.first_level, desc.level_count,
                           desc.first_layer, desc.layer_count};
  SH_VK_RETURN_IF_ERROR(vkCreateImageView(vk_device, &info, nullptr, &view->view_),
                        "vkCreateImageView");
  if (!storage) {
    SH_RETURN_IF_ERROR(view->CreateSampler(device, desc, format));
  }
  view->image_ = std::move(image);
  return view;
}

absl::Status VulkanResourceView::CreateSampler(VulkanDevice* device, const BindingViewDesc& desc,
                                               VkFormat format) {
  const SamplerDesc& s = desc.sampler;
  const bool integer = desc.numeric != TexelNumeric::kFloat;
  VkSamplerCreateInfo sampler = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sampler.magFilter = s.linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sampler.minFilter = sampler.magFilter;
  sampler.mipmapMode =
      s.mipmap_linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sampler.addressModeU = AddressMode(s.address[0]);
  sampler.addressModeV = AddressMode(s.address[1]);
  sampler.addressModeW = AddressMode(s.address[2]);
  const float bias_limit = device->vk_properties().limits.maxSamplerLodBias;
  sampler.mipLodBias = std::clamp(s.level_bias, -bias_limit, bias_limit);
  sampler.minLod = s.min_level;
  sampler.maxLod = s.max_level;
  sampler.unnormalizedCoordinates = s.normalized_coordinates ? VK_FALSE : VK_TRUE;
  VkSamplerCustomBorderColorCreateInfoEXT custom = {
      VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  if (s.border == BorderColor::kCustom) {
    if (!device->features().custom_border_color) {
      return Error(ErrorCode::kNotSupported,
                   "the device has no VK_EXT_custom_border_color; border colours other than ",
                   "(0,0,0,0), (0,0,0,1) and (1,1,1,1) cannot be sampled");
    }
    if (integer) {
      for (int i = 0; i < 4; ++i) {
        custom.customBorderColor.int32[i] = static_cast<int32_t>(s.border_color[i]);
      }
    } else {
      for (int i = 0; i < 4; ++i) custom.customBorderColor.float32[i] = s.border_color[i];
    }
    custom.format = format;
    sampler.pNext = &custom;
    sampler.borderColor =
        integer ? VK_BORDER_COLOR_INT_CUSTOM_EXT : VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  } else {
    sampler.borderColor = Border(s.border, integer);
  }
  SH_VK_RETURN_IF_ERROR(vkCreateSampler(device_, &sampler, nullptr, &sampler_), "vkCreateSampler");
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<VulkanResourceView>> VulkanResourceView::CreateStaged(
    VulkanDevice* device, const ImageDesc& image, const BindingViewDesc& desc) {
  SH_ASSIGN_OR_RETURN(std::unique_ptr<VulkanImage> made, VulkanImage::Create(device, image));
  SH_ASSIGN_OR_RETURN(std::shared_ptr<VulkanResourceView> view,
                      Create(device, std::shared_ptr<BackendImage>(std::move(made)), desc));
  view->staged_ = true;
  VkBufferImageCopy& region = view->staging_region_;
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {static_cast<uint32_t>(image.width),
                        static_cast<uint32_t>(std::max<uint64_t>(image.height, 1)), 1};
  return view;
}

void VulkanResourceView::SetStagingSource(const ImageBufferSide& source) {
  const auto* allocation = static_cast<const VulkanAllocation*>(source.range.allocation);
  staging_buffer_ = allocation->buffer();
  staging_region_.bufferOffset = allocation->buffer_offset() + source.range.offset;
  staging_region_.bufferRowLength = static_cast<uint32_t>(source.row_texels);
  staging_region_.bufferImageHeight = 0;
}

VkImage VulkanResourceView::staged_image() const {
  return static_cast<const VulkanImage*>(image_.get())->image();
}

VulkanResourceView::~VulkanResourceView() {
  if (buffer_view_ != VK_NULL_HANDLE) vkDestroyBufferView(device_, buffer_view_, nullptr);
  if (sampler_ != VK_NULL_HANDLE) vkDestroySampler(device_, sampler_, nullptr);
  if (view_ != VK_NULL_HANDLE) vkDestroyImageView(device_, view_, nullptr);
}

}  // namespace streamhal::vk
