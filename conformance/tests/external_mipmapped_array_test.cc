// Rows: Vulkan interop, mipmapped arrays (cuExternalMemoryGetMappedMipmappedArray,
// hipExternalMemoryGetMappedMipmappedArray). The test is a plain Vulkan
// program beside streamhal: it creates an exportable image with a VkDevice
// of its own (the parameters streamhal gives an array of the same
// descriptor), fills each level through a staging buffer, hands it over in
// VK_IMAGE_LAYOUT_GENERAL and exports its memory as an opaque descriptor;
// streamhal maps it as a mipmapped array, copies and textures read the
// levels, and the plain Vulkan side reads back what CUDA wrote.
#include <cuda.h>
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "plain_vulkan_device.h"

namespace streamhal::conformance {
namespace {

constexpr uint32_t kWidth = 16;
constexpr uint32_t kHeight = 8;
constexpr uint32_t kLevels = 3;

uint32_t LevelExtent(uint32_t extent, uint32_t level) {
  return extent >> level > 0 ? extent >> level : 1;
}

// Distinct values per level and texel.
std::vector<float> LevelTexels(uint32_t level, float base) {
  const uint32_t w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
  std::vector<float> texels;
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) texels.push_back(base + level * 100.0f + y * w + x);
  }
  return texels;
}

// A plain Vulkan device on the physical device that has `uuid`, with one
// exportable R32_SFLOAT 2-D image of kLevels levels in memory of its own.
class PlainVulkanImage {
 public:
  bool Open(const CUuuid& uuid) {
    if (!vulkan_.Open(uuid)) return false;
    const VkDevice device = vulkan_.device();

    // What streamhal creates for a 2-D float array with
    // CUDA_ARRAY3D_SURFACE_LDST (docs/architecture.md, "Vulkan interop").
    VkExternalMemoryImageCreateInfo external = {
        VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO};
    external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkImageCreateInfo image_info = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    image_info.pNext = &external;
    image_info.flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT;
    image_info.imageType = VK_IMAGE_TYPE_2D;
    image_info.format = VK_FORMAT_R32_SFLOAT;
    image_info.extent = {kWidth, kHeight, 1};
    image_info.mipLevels = kLevels;
    image_info.arrayLayers = 1;
    image_info.samples = VK_SAMPLE_COUNT_1_BIT;
    image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
    image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT;
    image_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    image_info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    if (vkCreateImage(device, &image_info, nullptr, &image_) != VK_SUCCESS) return false;
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(device, image_, &requirements);
    // The memory type streamhal uses for device memory: the first
    // DEVICE_LOCAL one.
    const int type =
        vulkan_.MemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0) return false;
    memory_ = vulkan_.AllocateExportable(requirements.size, static_cast<uint32_t>(type));
    if (memory_ == VK_NULL_HANDLE) return false;
    size_ = requirements.size;
    if (vkBindImageMemory(device, image_, memory_, 0) != VK_SUCCESS) return false;

    // A host-visible staging buffer as large as all levels.
    VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.size = StagingBytes();
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (vkCreateBuffer(device, &buffer_info, nullptr, &staging_) != VK_SUCCESS) return false;
    vkGetBufferMemoryRequirements(device, staging_, &requirements);
    const int host_type =
        vulkan_.MemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (host_type < 0) return false;
    VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<uint32_t>(host_type);
    if (vkAllocateMemory(device, &allocate, nullptr, &staging_memory_) != VK_SUCCESS) return false;
    if (vkBindBufferMemory(device, staging_, staging_memory_, 0) != VK_SUCCESS) return false;
    if (vkMapMemory(device, staging_memory_, 0, VK_WHOLE_SIZE, 0, &staging_mapped_) != VK_SUCCESS) {
      return false;
    }
    VkCommandPoolCreateInfo pool_info = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = 0;
    return vkCreateCommandPool(device, &pool_info, nullptr, &pool_) == VK_SUCCESS;
  }

  // Writes LevelTexels(level, base) into every level, then hands the image
  // over in GENERAL (released to VK_QUEUE_FAMILY_EXTERNAL).
  bool Fill(float base) {
    for (uint32_t level = 0; level < kLevels; ++level) {
      const std::vector<float> texels = LevelTexels(level, base);
      std::memcpy(static_cast<char*>(staging_mapped_) + LevelOffset(level), texels.data(),
                  texels.size() * sizeof(float));
    }
    return Submit([&](VkCommandBuffer cb) {
      Barrier(cb, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
              VK_QUEUE_FAMILY_IGNORED, VK_QUEUE_FAMILY_IGNORED);
      for (uint32_t level = 0; level < kLevels; ++level) {
        const VkBufferImageCopy copy = Region(level);
        vkCmdCopyBufferToImage(cb, staging_, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                               &copy);
      }
      Barrier(cb, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, 0,
              VK_QUEUE_FAMILY_EXTERNAL);
    });
  }

  // Takes the image back from VK_QUEUE_FAMILY_EXTERNAL, reads `level` and
  // hands the image over again.
  std::vector<float> Read(uint32_t level) {
    std::vector<float> texels(LevelExtent(kWidth, level) * LevelExtent(kHeight, level), -1.0f);
    const bool ok = Submit([&](VkCommandBuffer cb) {
      Barrier(cb, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, VK_QUEUE_FAMILY_EXTERNAL, 0);
      const VkBufferImageCopy copy = Region(level);
      vkCmdCopyImageToBuffer(cb, image_, VK_IMAGE_LAYOUT_GENERAL, staging_, 1, &copy);
      Barrier(cb, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL, 0, VK_QUEUE_FAMILY_EXTERNAL);
    });
    if (ok) {
      std::memcpy(texels.data(), static_cast<char*>(staging_mapped_) + LevelOffset(level),
                  texels.size() * sizeof(float));
    }
    return texels;
  }

  // A new descriptor of the image's memory (the caller owns it).
  int ExportFd() const { return vulkan_.ExportFd(memory_); }

  VkDeviceSize size() const { return size_; }

  ~PlainVulkanImage() {
    if (vulkan_.device() != VK_NULL_HANDLE) {
      vkDeviceWaitIdle(vulkan_.device());
      if (pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(vulkan_.device(), pool_, nullptr);
      if (staging_ != VK_NULL_HANDLE) vkDestroyBuffer(vulkan_.device(), staging_, nullptr);
      if (staging_memory_ != VK_NULL_HANDLE)
        vkFreeMemory(vulkan_.device(), staging_memory_, nullptr);
      if (image_ != VK_NULL_HANDLE) vkDestroyImage(vulkan_.device(), image_, nullptr);
      if (memory_ != VK_NULL_HANDLE) vkFreeMemory(vulkan_.device(), memory_, nullptr);
    }
  }

 private:
  static VkDeviceSize LevelOffset(uint32_t level) {
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < level; ++l) {
      offset += LevelExtent(kWidth, l) * LevelExtent(kHeight, l) * sizeof(float);
    }
    return offset;
  }
  static VkDeviceSize StagingBytes() { return LevelOffset(kLevels); }
  static VkBufferImageCopy Region(uint32_t level) {
    VkBufferImageCopy copy = {};
    copy.bufferOffset = LevelOffset(level);
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
    copy.imageExtent = {LevelExtent(kWidth, level), LevelExtent(kHeight, level), 1};
    return copy;
  }
  void Barrier(VkCommandBuffer cb, VkImageLayout from, VkImageLayout to, uint32_t src_family,
               uint32_t dst_family) const {
    VkImageMemoryBarrier barrier = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.oldLayout = from;
    barrier.newLayout = to;
    barrier.srcQueueFamilyIndex = src_family;
    barrier.dstQueueFamilyIndex = dst_family;
    barrier.image = image_;
    barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         0, 0, nullptr, 0, nullptr, 1, &barrier);
  }
  template <typename Record>
  bool Submit(Record record) {
    VkCommandBufferAllocateInfo allocate = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (vkAllocateCommandBuffers(vulkan_.device(), &allocate, &cb) != VK_SUCCESS) return false;
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &begin);
    record(cb);
    vkEndCommandBuffer(cb);
    VkSubmitInfo submit = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cb;
    const bool ok = vkQueueSubmit(vulkan_.queue(), 1, &submit, VK_NULL_HANDLE) == VK_SUCCESS &&
                    vkQueueWaitIdle(vulkan_.queue()) == VK_SUCCESS;
    vkFreeCommandBuffers(vulkan_.device(), pool_, 1, &cb);
    return ok;
  }

  PlainVulkanDevice vulkan_;  // first: destroyed after what was made on it
  VkImage image_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  VkBuffer staging_ = VK_NULL_HANDLE;
  VkDeviceMemory staging_memory_ = VK_NULL_HANDLE;
  void* staging_mapped_ = nullptr;
  VkCommandPool pool_ = VK_NULL_HANDLE;
};

class ExternalMipmappedArrayConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    CUuuid uuid;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&uuid, 0));
    ASSERT_TRUE(vulkan_.Open(uuid)) << "no exportable optimal-tiling float image";
    ASSERT_TRUE(vulkan_.Fill(0.0f));
  }

  CUexternalMemory Import() {
    const int fd = vulkan_.ExportFd();
    EXPECT_GE(fd, 0);
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
    desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    desc.handle.fd = fd;
    desc.size = vulkan_.size();
    CUexternalMemory external = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuImportExternalMemory(&external, &desc));
    return external;
  }

  static CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC MipmapDesc() {
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc{};
    desc.arrayDesc.Width = kWidth;
    desc.arrayDesc.Height = kHeight;
    desc.arrayDesc.Format = CU_AD_FORMAT_FLOAT;
    desc.arrayDesc.NumChannels = 1;
    desc.arrayDesc.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    desc.numLevels = kLevels;
    return desc;
  }

  PlainVulkanImage vulkan_;
};

std::vector<float> ReadLevel(CUarray array, uint32_t level) {
  const uint32_t w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
  std::vector<float> texels(w * h, -1.0f);
  CUDA_MEMCPY3D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = array;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = texels.data();
  c.dstPitch = w * sizeof(float);
  c.dstHeight = h;
  c.WidthInBytes = w * sizeof(float);
  c.Height = h;
  c.Depth = 1;
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy3D(&c));
  return texels;
}

TEST_F(ExternalMipmappedArrayConformance, CopiesReadEachLevelTheExporterWrote) {
  CUexternalMemory external = Import();
  ASSERT_NE(external, nullptr);
  const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc = MipmapDesc();
  CUmipmappedArray mipmap = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, &desc));
  for (uint32_t level = 0; level < kLevels; ++level) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    CUarray array = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&array, mipmap, level));
    CUDA_ARRAY3D_DESCRIPTOR shape;
    ASSERT_CU(CUDA_SUCCESS, cuArray3DGetDescriptor(&shape, array));
    EXPECT_EQ(shape.Width, LevelExtent(kWidth, level));
    EXPECT_EQ(shape.Height, LevelExtent(kHeight, level));
    EXPECT_EQ(ReadLevel(array, level), LevelTexels(level, 0.0f));
  }
  // CUDA: the mapped array outlives the memory object until the user frees it.
  ASSERT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
  CUarray last = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&last, mipmap, kLevels - 1));
  EXPECT_EQ(ReadLevel(last, kLevels - 1), LevelTexels(kLevels - 1, 0.0f));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmap));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuMipmappedArrayDestroy(mipmap));
}

TEST_F(ExternalMipmappedArrayConformance, Tex2DLodSamplesTheExportersLevels) {
  CUexternalMemory external = Import();
  ASSERT_NE(external, nullptr);
  const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc = MipmapDesc();
  CUmipmappedArray mipmap = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, &desc));
  CUDA_RESOURCE_DESC r;
  std::memset(&r, 0, sizeof(r));
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  r.res.mipmap.hMipmappedArray = mipmap;
  CUDA_TEXTURE_DESC t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
  t.filterMode = CU_TR_FILTER_MODE_POINT;
  t.flags = CU_TRSF_NORMALIZED_COORDINATES;
  t.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
  t.maxMipmapLevelClamp = kLevels - 1;
  CUtexObject tex = 0;
  ASSERT_CU(CUDA_SUCCESS, cuTexObjectCreate(&tex, &r, &t, nullptr));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kSampleLodGlsl, "sample_lod", &module);
  ASSERT_NE(f, nullptr);
  // Each level's texel centres, at that level.
  std::vector<float> coords, want;
  for (uint32_t level = 0; level < kLevels; ++level) {
    const uint32_t w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
    const std::vector<float> texels = LevelTexels(level, 0.0f);
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        coords.insert(coords.end(), {(x + 0.5f) / w, (y + 0.5f) / h, static_cast<float>(level)});
        want.push_back(texels[y * w + x]);
      }
    }
  }
  const uint32_t n = static_cast<uint32_t>(want.size());
  CUdeviceptr d_coords = 0, d_out = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_coords, coords.size() * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&d_out, n * 4));
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyHtoD(d_coords, coords.data(), coords.size() * 4));
  void* params[] = {&tex, &d_coords, &d_out, const_cast<uint32_t*>(&n)};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  std::vector<float> got(n, -1.0f);
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(got.data(), d_out, n * 4));
  EXPECT_EQ(got, want);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_coords));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(d_out));
  EXPECT_CU(CUDA_SUCCESS, cuTexObjectDestroy(tex));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmap));
  EXPECT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
}

TEST_F(ExternalMipmappedArrayConformance, TheExporterReadsWhatCudaWroteIntoALevel) {
  CUexternalMemory external = Import();
  ASSERT_NE(external, nullptr);
  const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc = MipmapDesc();
  CUmipmappedArray mipmap = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, &desc));
  CUarray array = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&array, mipmap, 1));
  const uint32_t w = LevelExtent(kWidth, 1), h = LevelExtent(kHeight, 1);
  const std::vector<float> written = LevelTexels(1, 5000.0f);
  CUDA_MEMCPY2D c;
  std::memset(&c, 0, sizeof(c));
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = written.data();
  c.srcPitch = w * sizeof(float);
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = array;
  c.WidthInBytes = w * sizeof(float);
  c.Height = h;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpy2D(&c));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(vulkan_.Read(1), written);
  // The other levels are untouched.
  EXPECT_EQ(vulkan_.Read(0), LevelTexels(0, 0.0f));
  EXPECT_EQ(vulkan_.Read(2), LevelTexels(2, 0.0f));
  EXPECT_CU(CUDA_SUCCESS, cuMipmappedArrayDestroy(mipmap));
  EXPECT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
}

TEST_F(ExternalMipmappedArrayConformance, BadInputIsRefusedAndLosesNothing) {
  CUexternalMemory external = Import();
  ASSERT_NE(external, nullptr);
  const int descriptors = OpenDescriptorCount();
  CUmipmappedArray mipmap = nullptr;
  const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC good = MipmapDesc();
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuExternalMemoryGetMappedMipmappedArray(nullptr, external, &good));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, nullptr));
  const auto refused = [&](const char* what, auto change) {
    SCOPED_TRACE(what);
    CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC desc = MipmapDesc();
    change(&desc);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, &desc));
    EXPECT_EQ(mipmap, nullptr);
  };
  refused("no levels", [](auto* d) { d->numLevels = 0; });
  refused("more levels than the chain", [](auto* d) { d->numLevels = 6; });
  refused("three channels", [](auto* d) { d->arrayDesc.NumChannels = 3; });
  refused("no format", [](auto* d) { d->arrayDesc.Format = static_cast<CUarray_format>(0x77); });
  refused("width 0", [](auto* d) { d->arrayDesc.Width = 0; });
  refused("sparse", [](auto* d) { d->arrayDesc.Flags |= CUDA_ARRAY3D_SPARSE; });
  refused("unknown flag", [](auto* d) { d->arrayDesc.Flags |= 0x10000; });
  refused("offset past the end", [&](auto* d) { d->offset = vulkan_.size(); });
  // The exporter's image and this one cannot be the same: this one needs
  // more memory than there is, or starts where no image may.
  refused("an image larger than the memory", [](auto* d) {
    d->arrayDesc.Width = 256;
    d->arrayDesc.Height = 256;
  });
  refused("more levels than the memory holds", [](auto* d) {
    d->arrayDesc.Width = 64;
    d->arrayDesc.Height = 64;
    d->numLevels = 7;
  });
  refused("an unaligned offset", [](auto* d) { d->offset = 4; });
  EXPECT_EQ(OpenDescriptorCount(), descriptors);
  ASSERT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuExternalMemoryGetMappedMipmappedArray(&mipmap, external, &good));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuExternalMemoryGetMappedMipmappedArray(&mipmap, nullptr, &good));
  EXPECT_EQ(mipmap, nullptr);
}

TEST_F(ExternalMipmappedArrayConformance, HipFormsMapAndReadTheLevels) {
  const int fd = vulkan_.ExportFd();
  ASSERT_GE(fd, 0);
  hipExternalMemoryHandleDesc handle{};
  handle.type = hipExternalMemoryHandleTypeOpaqueFd;
  handle.handle.fd = fd;
  handle.size = vulkan_.size();
  hipExternalMemory_t external = nullptr;
  ASSERT_HIP(hipSuccess, hipImportExternalMemory(&external, &handle));
  hipExternalMemoryMipmappedArrayDesc desc{};
  desc.formatDesc = {32, 0, 0, 0, hipChannelFormatKindFloat};
  desc.extent = hipExtent{kWidth, kHeight, 0};
  desc.flags = hipArraySurfaceLoadStore;
  desc.numLevels = kLevels;
  hipMipmappedArray_t mipmap = nullptr;
  ASSERT_HIP(hipSuccess, hipExternalMemoryGetMappedMipmappedArray(&mipmap, external, &desc));
  for (uint32_t level = 0; level < kLevels; ++level) {
    SCOPED_TRACE(testing::Message() << "level " << level);
    hipArray_t array = nullptr;
    ASSERT_HIP(hipSuccess, hipGetMipmappedArrayLevel(&array, mipmap, level));
    const uint32_t w = LevelExtent(kWidth, level), h = LevelExtent(kHeight, level);
    std::vector<float> got(w * h, -1.0f);
    ASSERT_HIP(hipSuccess, hipMemcpy2DFromArray(got.data(), w * 4, array, 0, 0, w * 4, h,
                                                hipMemcpyDeviceToHost));
    EXPECT_EQ(got, LevelTexels(level, 0.0f));
  }
  hipMipmappedArray_t none = nullptr;
  desc.numLevels = 0;
  EXPECT_HIP(hipErrorInvalidValue,
             hipExternalMemoryGetMappedMipmappedArray(&none, external, &desc));
  EXPECT_HIP(hipErrorInvalidValue,
             hipExternalMemoryGetMappedMipmappedArray(&none, external, nullptr));
  EXPECT_HIP(hipSuccess, hipDestroyExternalMemory(external));
  EXPECT_HIP(hipErrorInvalidHandle,
             hipExternalMemoryGetMappedMipmappedArray(&none, external, &desc));
  EXPECT_EQ(none, nullptr);
  EXPECT_HIP(hipSuccess, hipMipmappedArrayDestroy(mipmap));
}

}  // namespace
}  // namespace streamhal::conformance
