#include "vk_backend/image.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "core/mutex.h"
#include "core/status.h"
#include "vk_backend/allocator.h"
#include "vk_backend/device.h"
#include "vk_backend/vk_status.h"

namespace streamhal::vk {
namespace {

// Formats by element type, for 1, 2 and 4 channels.
struct FormatRow {
  ArrayFormat format;
  VkFormat vk[3];
};
constexpr FormatRow kFormats[] = {
    {ArrayFormat::kUint8, {VK_FORMAT_R8_UINT, VK_FORMAT_R8G8_UINT, VK_FORMAT_R8G8B8A8_UINT}},
    {ArrayFormat::kUint16,
     {VK_FORMAT_R16_UINT, VK_FORMAT_R16G16_UINT, VK_FORMAT_R16G16B16A16_UINT}},
    {ArrayFormat::kUint32,
     {VK_FORMAT_R32_UINT, VK_FORMAT_R32G32_UINT, VK_FORMAT_R32G32B32A32_UINT}},
    {ArrayFormat::kSint8, {VK_FORMAT_R8_SINT, VK_FORMAT_R8G8_SINT, VK_FORMAT_R8G8B8A8_SINT}},
    {ArrayFormat::kSint16,
     {VK_FORMAT_R16_SINT, VK_FORMAT_R16G16_SINT, VK_FORMAT_R16G16B16A16_SINT}},
    {ArrayFormat::kSint32,
     {VK_FORMAT_R32_SINT, VK_FORMAT_R32G32_SINT, VK_FORMAT_R32G32B32A32_SINT}},
    {ArrayFormat::kHalf,
     {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R16G16B16A16_SFLOAT}},
    {ArrayFormat::kFloat,
     {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT}},
};

const char* TypeName(VkImageType type) {
  switch (type) {
    case VK_IMAGE_TYPE_1D:
      return "1-D";
    case VK_IMAGE_TYPE_2D:
      return "2-D";
    default:
      return "3-D";
  }
}

}  // namespace

VkFormat ImageFormat(ArrayFormat format, uint32_t channels) {
  const int column = channels == 1 ? 0 : channels == 2 ? 1 : channels == 4 ? 2 : -1;
  if (column < 0) return VK_FORMAT_UNDEFINED;
  for (const FormatRow& row : kFormats) {
    if (row.format == format) return row.vk[column];
  }
  return VK_FORMAT_UNDEFINED;
}

absl::StatusOr<std::unique_ptr<VulkanImage>> VulkanImage::Create(
    VulkanDevice* device, const ImageDesc& desc, const BackendDevice::ExportedMemory* import) {
  // An import's descriptor is ours until vkAllocateMemory takes it.
  int import_fd = import != nullptr ? import->fd : -1;
  struct FdCloser {
    int* fd;
    ~FdCloser() {
      if (*fd >= 0) close(*fd);
    }
  } closer{&import_fd};
  SH_RETURN_IF_ERROR(device->EnsureLogicalDevice());
  if (import != nullptr && !device->features().external_memory_fd) {
    return Error(ErrorCode::kNotSupported,
                 "array: the device cannot import memory as opaque descriptors");
  }
  auto image = std::unique_ptr<VulkanImage>(new VulkanImage(device));
  image->desc_ = desc;
  const VkFormat format = ImageFormat(desc.format, desc.channels);
  if (format == VK_FORMAT_UNDEFINED) {
    return Error(ErrorCode::kInvalidValue, "array: format 0x",
                 absl::Hex(static_cast<uint32_t>(desc.format)), " with ", desc.channels,
                 " channels has no device format");
  }
  image->format_ = format;
  // CUDA's shapes: height 0 is 1-D, depth 0 is 2-D; layered and cubemap
  // arrays keep their layers in `depth`.
  const bool layers = desc.layered || desc.cubemap;
  const uint64_t layer_count = layers ? desc.depth : 1;
  VkImageType type = VK_IMAGE_TYPE_3D;
  VkImageViewType view = VK_IMAGE_VIEW_TYPE_3D;
  if (desc.height == 0) {
    type = VK_IMAGE_TYPE_1D;
    view = desc.layered ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D;
  } else if (desc.depth == 0 || layers) {
    type = VK_IMAGE_TYPE_2D;
    view = desc.cubemap ? (desc.layered ? VK_IMAGE_VIEW_TYPE_CUBE_ARRAY : VK_IMAGE_VIEW_TYPE_CUBE)
                        : (desc.layered ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D);
  }
  image->type_ = type;
  image->view_type_ = view;

  // What the device can do with the format.
  VkFormatProperties format_properties;
  vkGetPhysicalDeviceFormatProperties(device->physical_device(), format, &format_properties);
  VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT |
                                VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
  if (desc.storage) needed |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
  if ((format_properties.optimalTilingFeatures & needed) != needed) {
    return Error(ErrorCode::kInvalidValue, "array: the device cannot ",
                 desc.storage ? "sample, copy and store" : "sample and copy", " format ",
                 static_cast<int>(format), " (", desc.channels, " channels of CUarray_format 0x",
                 absl::Hex(static_cast<uint32_t>(desc.format)), ")");
  }
  VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                            VK_IMAGE_USAGE_SAMPLED_BIT;
  if (desc.storage) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
  VkImageCreateFlags flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
  if (desc.cubemap) flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
  VkImageFormatProperties limits;
  const VkResult supported = vkGetPhysicalDeviceImageFormatProperties(
      device->physical_device(), format, type, VK_IMAGE_TILING_OPTIMAL, usage, flags, &limits);
  if (supported == VK_ERROR_FORMAT_NOT_SUPPORTED) {
    return Error(ErrorCode::kInvalidValue, "array: the device has no ", TypeName(type),
                 desc.cubemap ? " cubemap" : "", " images of format ", static_cast<int>(format),
                 " with this usage");
  }
  SH_VK_RETURN_IF_ERROR(supported, "vkGetPhysicalDeviceImageFormatProperties");
  if (import != nullptr) {
    // Whether images of this format and usage can live in imported memory.
    VkPhysicalDeviceExternalImageFormatInfo external_info = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO};
    external_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkPhysicalDeviceImageFormatInfo2 format_info = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2};
    format_info.pNext = &external_info;
    format_info.format = format;
    format_info.type = type;
    format_info.tiling = VK_IMAGE_TILING_OPTIMAL;
    format_info.usage = usage;
    format_info.flags = flags;
    VkExternalImageFormatProperties external_properties = {
        VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
    VkImageFormatProperties2 properties = {VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
    properties.pNext = &external_properties;
    const VkResult external = vkGetPhysicalDeviceImageFormatProperties2(device->physical_device(),
                                                                        &format_info, &properties);
    const VkExternalMemoryFeatureFlags features =
        external_properties.externalMemoryProperties.externalMemoryFeatures;
    if (external == VK_ERROR_FORMAT_NOT_SUPPORTED ||
        (external == VK_SUCCESS && (features & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT) == 0)) {
      return Error(ErrorCode::kNotSupported, "array: the device cannot import ", TypeName(type),
                   " images of format ", static_cast<int>(format), " from opaque descriptors");
    }
    SH_VK_RETURN_IF_ERROR(external, "vkGetPhysicalDeviceImageFormatProperties2");
    if ((features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT) != 0 && !import->dedicated) {
      return Error(ErrorCode::kInvalidValue, "array: the device imports such images only from ",
                   "dedicated memory (CUDA_EXTERNAL_MEMORY_DEDICATED)");
    }
  }
  const uint64_t width = desc.width;
  const uint64_t height = std::max<uint64_t>(desc.height, 1);
  const uint64_t depth = type == VK_IMAGE_TYPE_3D ? desc.depth : 1;
  if (width > limits.maxExtent.width || height > limits.maxExtent.height ||
      depth > limits.maxExtent.depth || layer_count > limits.maxArrayLayers ||
      desc.levels > limits.maxMipLevels) {
    return Error(ErrorCode::kInvalidValue, "array: ", width, " x ", height, " x ", depth, " (",
                 layer_count, " layers, ", desc.levels, " levels) exceeds the device's ",
                 TypeName(type), " image limit of ", limits.maxExtent.width, " x ",
                 limits.maxExtent.height, " x ", limits.maxExtent.depth, " (",
                 limits.maxArrayLayers, " layers, ", limits.maxMipLevels, " levels)");
  }

  VkImageCreateInfo info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.flags = flags;
  info.imageType = type;
  info.format = format;
  info.extent = {static_cast<uint32_t>(width), static_cast<uint32_t>(height),
                 static_cast<uint32_t>(depth)};
  info.mipLevels = desc.levels;
  info.arrayLayers = static_cast<uint32_t>(layer_count);
  info.samples = VK_SAMPLE_COUNT_1_BIT;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkExternalMemoryImageCreateInfo external_image = {
      VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO};
  external_image.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (import != nullptr) info.pNext = &external_image;
  const VkDevice vk_device = device->device();
  SH_VK_RETURN_IF_ERROR(vkCreateImage(vk_device, &info, nullptr, &image->image_), "vkCreateImage");
  if (import != nullptr) {
    SH_RETURN_IF_ERROR(image->BindImported(*import, &import_fd));
    SH_RETURN_IF_ERROR(image->TransitionToGeneral(/*acquire=*/true));
    return image;
  }

  // Memory from the allocator's device pool: the image takes its bytes
  // like any cuMemAlloc. Padding to the buffer-image granularity on both
  // ends keeps neighbouring buffers off the image's pages.
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(vk_device, image->image_, &requirements);
  MemoryAllocator& allocator = device->allocator();
  const uint32_t memory_type = allocator.pool(MemoryKind::kDevice).memory_type();
  if ((requirements.memoryTypeBits & (1u << memory_type)) == 0) {
    return Error(ErrorCode::kNotSupported,
                 "array: images cannot live in the device's allocation memory type");
  }
  const uint64_t granularity =
      std::max<uint64_t>(device->vk_properties().limits.bufferImageGranularity, 1);
  const uint64_t alignment = std::max<uint64_t>(requirements.alignment, granularity);
  const uint64_t padded =
      (requirements.size + alignment - 1 + granularity - 1) / granularity * granularity;
  SH_ASSIGN_OR_RETURN(image->memory_,
                      allocator.Allocate(padded, MemoryKind::kDevice, /*shareable=*/false));
  const uint64_t base = image->memory_->buffer_offset();
  const uint64_t offset = (base + alignment - 1) / alignment * alignment;
  SH_VK_RETURN_IF_ERROR(
      vkBindImageMemory(vk_device, image->image_, image->memory_->block()->memory(), offset),
      "vkBindImageMemory");
  image->bytes_ = requirements.size;
  SH_RETURN_IF_ERROR(image->TransitionToGeneral(/*acquire=*/false));
  return image;
}

absl::Status VulkanImage::BindImported(const BackendDevice::ExportedMemory& import, int* fd) {
  const VkDevice vk_device = device_->device();
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(vk_device, image_, &requirements);
  // Another API's memory: allocated, as for mapped buffers, from the type
  // this device uses for device memory (docs/architecture.md).
  const uint32_t memory_type = device_->allocator().pool(MemoryKind::kDevice).memory_type();
  if ((requirements.memoryTypeBits & (1u << memory_type)) == 0) {
    return Error(ErrorCode::kNotSupported,
                 "array: images cannot live in the device's allocation memory type");
  }
  // The exporter's image was laid out by its own requirements; an image
  // that needs more bytes or a coarser alignment than the memory gives at
  // this offset cannot be the same image.
  if (import.offset % requirements.alignment != 0 || import.offset > import.memory_size ||
      requirements.size > import.memory_size - import.offset) {
    return Error(ErrorCode::kInvalidValue, "array: the image needs ", requirements.size,
                 " bytes aligned to ", requirements.alignment, ", but the ", import.memory_size,
                 "-byte external memory gives it offset ", import.offset);
  }
  VkMemoryDedicatedAllocateInfo dedicated = {VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
  dedicated.image = image_;
  VkImportMemoryFdInfoKHR import_info = {VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR};
  import_info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  import_info.fd = *fd;
  if (import.dedicated) import_info.pNext = &dedicated;
  VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = &import_info;
  allocate.allocationSize = import.memory_size;  // an import takes the exporter's size
  allocate.memoryTypeIndex = memory_type;
  const VkResult allocated = vkAllocateMemory(vk_device, &allocate, nullptr, &imported_memory_);
  if (allocated == VK_ERROR_INVALID_EXTERNAL_HANDLE) {
    return Error(ErrorCode::kInvalidValue, "array: the device cannot import this memory");
  }
  SH_VK_RETURN_IF_ERROR(allocated, "vkAllocateMemory");
  *fd = -1;  // Vulkan owns the descriptor now
  SH_VK_RETURN_IF_ERROR(vkBindImageMemory(vk_device, image_, imported_memory_, import.offset),
                        "vkBindImageMemory");
  bytes_ = requirements.size;
  return absl::OkStatus();
}

absl::Status VulkanImage::TransitionToGeneral(bool acquire) {
  const VkDevice vk_device = device_->device();
  VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = device_->queue_family_index();
  VkCommandPool pool = VK_NULL_HANDLE;
  SH_VK_RETURN_IF_ERROR(vkCreateCommandPool(vk_device, &pool_info, nullptr, &pool),
                        "vkCreateCommandPool");
  VkFence fence = VK_NULL_HANDLE;
  absl::Status status = [&]() -> absl::Status {
    VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer command_buffer = VK_NULL_HANDLE;
    SH_VK_RETURN_IF_ERROR(vkAllocateCommandBuffers(vk_device, &allocate, &command_buffer),
                          "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SH_VK_RETURN_IF_ERROR(vkBeginCommandBuffer(command_buffer, &begin), "vkBeginCommandBuffer");
    // The image's only layout change: streams then order their copies and
    // kernels on it with global memory barriers alone.
    VkImageMemoryBarrier barrier = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcAccessMask = 0;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
                            VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    if (acquire) {
      // The exporter's texels, taken over from outside the device. The
      // old layout stays UNDEFINED: a new VkImage has no other layout the
      // validation layer accepts, and the acquire, not the layout, is what
      // hands over the contents (lavapipe keeps every layout alike).
      barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_EXTERNAL;
      barrier.dstQueueFamilyIndex = device_->queue_family_index();
    }
    barrier.image = image_;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                VK_REMAINING_ARRAY_LAYERS};
    vkCmdPipelineBarrier(command_buffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                         0, nullptr, 0, nullptr, 1, &barrier);
    SH_VK_RETURN_IF_ERROR(vkEndCommandBuffer(command_buffer), "vkEndCommandBuffer");
    VkFenceCreateInfo fence_info = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    SH_VK_RETURN_IF_ERROR(vkCreateFence(vk_device, &fence_info, nullptr, &fence), "vkCreateFence");
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &command_buffer;
    uint64_t submission = 0;
    {
      MutexLock lock(device_->queue_mutex());
      submission = device_->NextSubmission();
      SH_VK_RETURN_IF_ERROR(vkQueueSubmit(device_->queue(), 1, &submit, fence), "vkQueueSubmit");
    }
    // No lock held across the wait.
    SH_VK_RETURN_IF_ERROR(vkWaitForFences(vk_device, 1, &fence, VK_TRUE, UINT64_MAX),
                          "vkWaitForFences");
    device_->SubmissionCompleted(submission);
    return absl::OkStatus();
  }();
  if (fence != VK_NULL_HANDLE) vkDestroyFence(vk_device, fence, nullptr);
  vkDestroyCommandPool(vk_device, pool, nullptr);
  return status;
}

VulkanImage::~VulkanImage() {
  // Core synchronises the context before it destroys an array, so no
  // pending command names the image.
  if (image_ != VK_NULL_HANDLE) vkDestroyImage(device_->device(), image_, nullptr);
  memory_.reset();
  if (imported_memory_ != VK_NULL_HANDLE) {
    vkFreeMemory(device_->device(), imported_memory_, nullptr);
  }
}

}  // namespace streamhal::vk
