/* Vulkan interop with the CUDA driver API, in C: a plain Vulkan program
 * (its own VkInstance and VkDevice) allocates a buffer's memory as
 * exportable, writes input through its mapping and exports the memory as an
 * opaque file descriptor. streamhal imports it (cuImportExternalMemory),
 * maps a buffer over it and runs a kernel on it; once the stream is done,
 * the Vulkan side reads the kernel's results through its own mapping.
 *
 * The two sides agree on the device by UUID (cuDeviceGetUuid against
 * VkPhysicalDeviceIDProperties::deviceUUID) and on the memory type: the
 * first DEVICE_LOCAL type that backs the buffer, which is the type
 * streamhal uses for device memory. Where the device can also export a
 * semaphore as a file descriptor, cuWaitExternalSemaphoresAsync /
 * cuSignalExternalSemaphoresAsync would order the two sides on the device;
 * lavapipe cannot, so this example orders them on the host
 * (cuStreamSynchronize).
 *
 * Usage: cuda_vulkan_interop [kernels.elf]; prints PASSED. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define CHECK(call)                                                                \
  do {                                                                             \
    CUresult result_ = (call);                                                     \
    if (result_ != CUDA_SUCCESS) {                                                 \
      const char* name_ = "?";                                                     \
      cuGetErrorName(result_, &name_);                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, name_); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

#define VK_CHECK(call)                                                                   \
  do {                                                                                   \
    VkResult result_ = (call);                                                           \
    if (result_ != VK_SUCCESS) {                                                         \
      fprintf(stderr, "%s:%d: %s failed: VkResult %d\n", __FILE__, __LINE__, #call, \
              (int)result_);                                                             \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

enum { kN = 1 << 16, kBlock = 256 };

/* The plain Vulkan side. */
struct Vulkan {
  VkInstance instance;
  VkPhysicalDevice physical;
  VkDevice device;
  VkBuffer buffer;
  VkDeviceMemory memory;
  VkDeviceSize size;
  float* mapped;
};

static void VulkanOpen(struct Vulkan* vk, const CUuuid* uuid, VkDeviceSize bytes) {
  memset(vk, 0, sizeof(*vk));
  VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo instance_info = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  VK_CHECK(vkCreateInstance(&instance_info, NULL, &vk->instance));
  uint32_t count = 0;
  VK_CHECK(vkEnumeratePhysicalDevices(vk->instance, &count, NULL));
  VkPhysicalDevice* devices = calloc(count, sizeof(VkPhysicalDevice));
  VK_CHECK(vkEnumeratePhysicalDevices(vk->instance, &count, devices));
  for (uint32_t i = 0; i < count; ++i) {
    VkPhysicalDeviceIDProperties id = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
    VkPhysicalDeviceProperties2 properties = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    properties.pNext = &id;
    vkGetPhysicalDeviceProperties2(devices[i], &properties);
    if (memcmp(id.deviceUUID, uuid->bytes, VK_UUID_SIZE) == 0) vk->physical = devices[i];
  }
  free(devices);
  if (vk->physical == VK_NULL_HANDLE) {
    fprintf(stderr, "no Vulkan device has CUDA device 0's UUID\n");
    exit(1);
  }
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME};
  VkDeviceCreateInfo device_info = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue;
  device_info.enabledExtensionCount = 1;
  device_info.ppEnabledExtensionNames = extensions;
  VK_CHECK(vkCreateDevice(vk->physical, &device_info, NULL, &vk->device));

  VkExternalMemoryBufferCreateInfo external = {VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO};
  external.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo buffer_info = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.pNext = &external;
  buffer_info.size = bytes;
  buffer_info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VK_CHECK(vkCreateBuffer(vk->device, &buffer_info, NULL, &vk->buffer));
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(vk->device, vk->buffer, &requirements);
  VkPhysicalDeviceMemoryProperties memory_properties;
  vkGetPhysicalDeviceMemoryProperties(vk->physical, &memory_properties);
  int type = -1;
  for (uint32_t i = 0; i < memory_properties.memoryTypeCount && type < 0; ++i) {
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (memory_properties.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) {
      type = (int)i;
    }
  }
  if (type < 0 || !(memory_properties.memoryTypes[type].propertyFlags &
                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
    /* A discrete GPU would stage through a host-visible buffer here. */
    fprintf(stderr, "the device memory type is not host-visible; this example maps it\n");
    exit(1);
  }
  VkExportMemoryAllocateInfo export_info = {VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO};
  export_info.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkMemoryAllocateInfo allocate = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate.pNext = &export_info;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = (uint32_t)type;
  VK_CHECK(vkAllocateMemory(vk->device, &allocate, NULL, &vk->memory));
  vk->size = requirements.size;
  VK_CHECK(vkBindBufferMemory(vk->device, vk->buffer, vk->memory, 0));
  VK_CHECK(vkMapMemory(vk->device, vk->memory, 0, VK_WHOLE_SIZE, 0, (void**)&vk->mapped));
}

static int VulkanExport(const struct Vulkan* vk) {
  PFN_vkGetMemoryFdKHR get_fd =
      (PFN_vkGetMemoryFdKHR)vkGetDeviceProcAddr(vk->device, "vkGetMemoryFdKHR");
  VkMemoryGetFdInfoKHR info = {VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR};
  info.memory = vk->memory;
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  VK_CHECK(get_fd(vk->device, &info, &fd));
  return fd;
}

static void VulkanClose(struct Vulkan* vk) {
  vkUnmapMemory(vk->device, vk->memory);
  vkDestroyBuffer(vk->device, vk->buffer, NULL);
  vkFreeMemory(vk->device, vk->memory, NULL);
  vkDestroyDevice(vk->device, NULL);
  vkDestroyInstance(vk->instance, NULL);
}

int main(int argc, char** argv) {
  const char* kernels = argc > 1 ? argv[1] : KERNELS_PATH;
  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUuuid uuid;
  CHECK(cuDeviceGetUuid(&uuid, device));
  CUcontext context;
  CHECK(cuCtxCreate(&context, 0, device));
  CUmodule module;
  CHECK(cuModuleLoad(&module, kernels));
  CUfunction scale_offset;
  CHECK(cuModuleGetFunction(&scale_offset, module, "scale_offset"));

  /* Vulkan writes the input. */
  struct Vulkan vk;
  VulkanOpen(&vk, &uuid, kN * sizeof(float));
  for (uint32_t i = 0; i < kN; ++i) vk.mapped[i] = (float)i;

  /* CUDA imports the memory; the descriptor is the driver's from here. */
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC memory_desc;
  memset(&memory_desc, 0, sizeof(memory_desc));
  memory_desc.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  memory_desc.handle.fd = VulkanExport(&vk);
  memory_desc.size = vk.size;
  CUexternalMemory external;
  CHECK(cuImportExternalMemory(&external, &memory_desc));
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC buffer_desc;
  memset(&buffer_desc, 0, sizeof(buffer_desc));
  buffer_desc.size = kN * sizeof(float);
  CUdeviceptr data;
  CHECK(cuExternalMemoryGetMappedBuffer(&data, external, &buffer_desc));

  /* A kernel on the shared buffer: data = 3 * data + 0.5. */
  CUstream stream;
  CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  float scale = 3.0f, offset = 0.5f;
  uint32_t n = kN;
  void* args[] = {&data, &scale, &offset, &n};
  CHECK(cuLaunchKernel(scale_offset, kN / kBlock, 1, 1, kBlock, 1, 1, 0, stream, args, NULL));
  CHECK(cuStreamSynchronize(stream));

  /* Vulkan reads the results through its own mapping. */
  int errors = 0;
  for (uint32_t i = 0; i < kN; ++i) {
    if (vk.mapped[i] != (float)i * 3.0f + 0.5f) ++errors;
  }

  CHECK(cuMemFree(data));
  CHECK(cuDestroyExternalMemory(external));
  CHECK(cuStreamDestroy(stream));
  CHECK(cuModuleUnload(module));
  CHECK(cuCtxDestroy(context));
  VulkanClose(&vk);
  if (errors != 0) {
    fprintf(stderr, "%d of %d values wrong\n", errors, kN);
    return 1;
  }
  printf("cuda_vulkan_interop: a kernel changed %d floats of Vulkan memory: PASSED\n", kN);
  return 0;
}
