// Rows: Vulkan interop, memory (cuImportExternalMemory,
// cuExternalMemoryGetMappedBuffer, cuDestroyExternalMemory). The test is a
// plain Vulkan program beside streamhal: it allocates exportable memory with
// a VkDevice of its own on the same physical device, writes it through its
// own mapping, exports it as an opaque file descriptor; streamhal imports
// it, a kernel changes it, and the plain Vulkan side reads the result.
#include <cuda.h>
#include <fcntl.h>
#include <hip/hip_runtime_api.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"
#include "plain_vulkan_device.h"

namespace streamhal::conformance {
namespace {

// A plain Vulkan device on the physical device that has `uuid`, and one
// exportable, host-mapped memory object of `size` bytes.
class PlainVulkan {
 public:
  bool Open(const CUuuid& uuid, VkDeviceSize size) {
    if (!vulkan_.Open(uuid)) return false;
    const VkDevice device = vulkan_.device();
    // The memory type streamhal uses for device memory: the first
    // DEVICE_LOCAL type that backs storage buffers (docs/architecture.md).
    VkExternalMemoryBufferCreateInfo external = {
        VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
    external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
    VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    buffer_info.pNext = &external;
    buffer_info.size = size;
    buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(device, &buffer_info, nullptr, &buffer_) != VK_SUCCESS) return false;
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(device, buffer_, &requirements);
    const int type =
        vulkan_.MemoryType(requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0 || (vulkan_.memory_properties().memoryTypes[type].propertyFlags &
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == 0) {
      return false;  // the test reads through a mapping
    }
    memory_ = vulkan_.AllocateExportable(requirements.size, static_cast<uint32_t>(type));
    if (memory_ == VK_NULL_HANDLE) return false;
    size_ = requirements.size;
    if (vkBindBufferMemory(device, buffer_, memory_, 0) != VK_SUCCESS) return false;
    return vkMapMemory(device, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_) == VK_SUCCESS;
  }

  // A new descriptor of the memory (the caller owns it).
  int ExportFd() const { return vulkan_.ExportFd(memory_); }

  float* floats() const { return static_cast<float*>(mapped_); }
  VkDeviceSize size() const { return size_; }

  ~PlainVulkan() {
    if (buffer_ != VK_NULL_HANDLE) vkDestroyBuffer(vulkan_.device(), buffer_, nullptr);
    if (memory_ != VK_NULL_HANDLE) vkFreeMemory(vulkan_.device(), memory_, nullptr);
  }

 private:
  PlainVulkanDevice vulkan_;  // first: destroyed after what was made on it
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

class ExternalMemoryConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    CUuuid uuid;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&uuid, 0));
    ASSERT_TRUE(vulkan_.Open(uuid, kBytes)) << "no exportable host-visible device memory";
    scale_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
  }
  void TearDown() override {
    if (module_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module_));
    }
    ContextTest::TearDown();
  }

  CUDA_EXTERNAL_MEMORY_HANDLE_DESC Desc(int fd) const {
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
    desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    desc.handle.fd = fd;
    desc.size = vulkan_.size();
    return desc;
  }

  static constexpr VkDeviceSize kBytes = 1 << 20;
  PlainVulkan vulkan_;
  CUmodule module_ = nullptr;
  CUfunction scale_ = nullptr;
};

TEST_F(ExternalMemoryConformance, KernelsChangeMemoryAPlainVulkanDeviceReads) {
  constexpr uint32_t kN = 16384;
  constexpr uint64_t kOffset = 4096;
  float* host = vulkan_.floats();
  for (uint32_t i = 0; i < kOffset / 4 + kN; ++i) host[i] = static_cast<float>(i);
  const int descriptors = OpenDescriptorCount();
  const int fd = vulkan_.ExportFd();
  ASSERT_GE(fd, 0);
  CUexternalMemory external = nullptr;
  const CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc = Desc(fd);
  ASSERT_CU(CUDA_SUCCESS, cuImportExternalMemory(&external, &desc));
  // CUDA: the descriptor is the driver's now.
  EXPECT_EQ(fcntl(fd, F_GETFD), -1);
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer{};
  buffer.offset = kOffset;
  buffer.size = kN * sizeof(float);
  CUdeviceptr data = 0;
  ASSERT_CU(CUDA_SUCCESS, cuExternalMemoryGetMappedBuffer(&data, external, &buffer));
  // The kernel sees what the Vulkan side wrote, and changes it.
  float factor = 2.0f, offset = 1.0f;
  uint32_t n = kN;
  void* params[] = {&data, &factor, &offset, &n};
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(scale_, kN / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  for (uint32_t i = 0; i < kN; ++i) {
    ASSERT_EQ(host[kOffset / 4 + i], static_cast<float>(kOffset / 4 + i) * 2.0f + 1.0f) << i;
  }
  for (uint32_t i = 0; i < kOffset / 4; ++i) ASSERT_EQ(host[i], static_cast<float>(i)) << i;
  // A second buffer over the whole memory: its own range, the same bytes.
  buffer.offset = 0;
  buffer.size = vulkan_.size();
  CUdeviceptr whole = 0;
  ASSERT_CU(CUDA_SUCCESS, cuExternalMemoryGetMappedBuffer(&whole, external, &buffer));
  EXPECT_NE(whole, data);
  float value = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemcpyDtoH(&value, whole + kOffset, sizeof(value)));
  EXPECT_EQ(value, static_cast<float>(kOffset / 4) * 2.0f + 1.0f);
  // Mapped buffers outlive the object; each is freed with cuMemFree.
  ASSERT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
  ASSERT_CU(CUDA_SUCCESS, cuMemsetD32(whole, 0x40400000, 1));  // 3.0f
  EXPECT_EQ(host[0], 3.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(data));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(whole));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalMemory(external));
  EXPECT_EQ(OpenDescriptorCount(), descriptors);
}

TEST_F(ExternalMemoryConformance, BadDescriptorsAreRefusedAndTheCallerKeepsTheFd) {
  CUexternalMemory external = nullptr;
  const int fd = vulkan_.ExportFd();
  ASSERT_GE(fd, 0);
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc = Desc(fd);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(nullptr, &desc));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, nullptr));
  desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&external, &desc));
  desc.type = static_cast<CUexternalMemoryHandleType>(0);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, &desc));
  desc = Desc(fd);
  desc.size = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, &desc));
  desc = Desc(fd);
  desc.flags = 0x2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, &desc));
  desc = Desc(-1);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, &desc));
  // A descriptor that is no Vulkan memory.
  int pipe_ends[2] = {-1, -1};
  ASSERT_EQ(pipe(pipe_ends), 0);
  desc = Desc(pipe_ends[0]);
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&external, &desc));
  EXPECT_NE(fcntl(pipe_ends[0], F_GETFD), -1);  // still the caller's
  close(pipe_ends[0]);
  close(pipe_ends[1]);
  EXPECT_EQ(external, nullptr);
  // Nothing failed took the good descriptor: it still imports.
  EXPECT_NE(fcntl(fd, F_GETFD), -1);
  desc = Desc(fd);
  ASSERT_CU(CUDA_SUCCESS, cuImportExternalMemory(&external, &desc));
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer{};
  CUdeviceptr data = 0;
  buffer.size = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&data, external, &buffer));
  buffer.offset = vulkan_.size() - 256;
  buffer.size = 512;  // past the end
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&data, external, &buffer));
  buffer.offset = 0;
  buffer.size = 256;
  buffer.flags = 1;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&data, external, &buffer));
  buffer.flags = 0;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(nullptr, external, &buffer));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&data, external, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuExternalMemoryGetMappedBuffer(&data, nullptr, &buffer));
  EXPECT_EQ(data, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuDestroyExternalMemory(external));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuExternalMemoryGetMappedBuffer(&data, external, &buffer));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuDestroyExternalMemory(nullptr));
}

TEST_F(ExternalMemoryConformance, HipImportsAndMapsTheSameWay) {
  unsigned char* host = reinterpret_cast<unsigned char*>(vulkan_.floats());
  std::memset(host, 0, 8192);
  const int fd = vulkan_.ExportFd();
  ASSERT_GE(fd, 0);
  hipExternalMemoryHandleDesc desc{};
  desc.type = hipExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = vulkan_.size();
  hipExternalMemory_t external = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipImportExternalMemory(nullptr, &desc));
  ASSERT_HIP(hipSuccess, hipImportExternalMemory(&external, &desc));
  hipExternalMemoryBufferDesc buffer{};
  buffer.offset = 4096;
  buffer.size = 4096;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipExternalMemoryGetMappedBuffer(&data, external, &buffer));
  ASSERT_HIP(hipSuccess, hipMemset(data, 0x5a, 4096));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  for (int i = 0; i < 8192; ++i) ASSERT_EQ(host[i], i < 4096 ? 0 : 0x5a) << i;
  buffer.size = vulkan_.size();  // past the end from offset 4096
  void* too_far = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipExternalMemoryGetMappedBuffer(&too_far, external, &buffer));
  EXPECT_HIP(hipSuccess, hipDestroyExternalMemory(external));
  EXPECT_HIP(hipErrorInvalidHandle, hipDestroyExternalMemory(external));
  EXPECT_HIP(hipSuccess, hipFree(data));
}

}  // namespace
}  // namespace streamhal::conformance
