// streamhal-info: every device as the CUDA driver API and the HIP API see it
// (in the spirit of deviceQuery and vulkaninfo). Exits non-zero when no
// usable device exists.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

void PrintCudaDevice(CUdevice device) {
  char name[256] = {};
  cuDeviceGetName(name, sizeof(name), device);
  CUuuid uuid;
  cuDeviceGetUuid(&uuid, device);
  size_t memory = 0;
  cuDeviceTotalMem(&memory, device);
  std::printf("CUDA device %d: %s\n  UUID: ", device, name);
  for (int i = 0; i < 16; ++i) {
    std::printf("%02x%s", static_cast<unsigned char>(uuid.bytes[i]),
                i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
  }
  std::printf("\n  total memory: %zu MiB\n", memory >> 20);
  int backend_index = 0, partition = 0;
  cuDeviceGetAttribute(&backend_index, CU_DEVICE_ATTRIBUTE_HAL_BACKEND_DEVICE_INDEX, device);
  cuDeviceGetAttribute(&partition, CU_DEVICE_ATTRIBUTE_HAL_PARTITION, device);
  std::printf("  Vulkan physical device %d, partition %d\n", backend_index, partition);
  struct Row {
    const char* label;
    CUdevice_attribute attribute;
  };
  static const Row kRows[] = {
      {"compute capability major", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {"compute capability minor", CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
      {"multiprocessors", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
      {"warp size", CU_DEVICE_ATTRIBUTE_WARP_SIZE},
      {"max threads per block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {"max block x", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
      {"max block y", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
      {"max block z", CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
      {"max grid x", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
      {"max grid y", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
      {"max grid z", CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
      {"shared memory per block", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {"total constant memory", CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
      {"clock rate (kHz)", CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {"integrated", CU_DEVICE_ATTRIBUTE_INTEGRATED},
      {"can map host memory", CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY},
      {"unified addressing", CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING},
      {"concurrent kernels", CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS},
      {"PCI domain", CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID},
      {"PCI bus", CU_DEVICE_ATTRIBUTE_PCI_BUS_ID},
      {"PCI device", CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID},
  };
  for (const Row& row : kRows) {
    int value = 0;
    if (cuDeviceGetAttribute(&value, row.attribute, device) == CUDA_SUCCESS) {
      std::printf("  %-26s %d\n", row.label, value);
    }
  }
  int loop_limit = 0;
  if (cuDeviceGetAttribute(&loop_limit, CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT, device) ==
          CUDA_SUCCESS &&
      loop_limit > 0) {
    std::printf(
        "  %-26s %d per kernel invocation, all loops together; longer loops end early\n"
        "  %-26s without an error and leave wrong results: spread long loops over threads\n",
        "loop iteration limit", loop_limit, "");
  }
}

void PrintHipDevice(int device) {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, device) != hipSuccess) return;
  std::printf("HIP device %d: %s\n", device, prop.name);
  std::printf("  gcnArchName: %s\n", prop.gcnArchName);
  std::printf("  totalGlobalMem: %zu MiB\n", prop.totalGlobalMem >> 20);
  std::printf("  major.minor: %d.%d\n", prop.major, prop.minor);
  std::printf("  multiProcessorCount: %d\n", prop.multiProcessorCount);
  std::printf("  warpSize: %d\n", prop.warpSize);
  std::printf("  maxThreadsPerBlock: %d\n", prop.maxThreadsPerBlock);
  std::printf("  maxThreadsDim: %d x %d x %d\n", prop.maxThreadsDim[0], prop.maxThreadsDim[1],
              prop.maxThreadsDim[2]);
  std::printf("  maxGridSize: %d x %d x %d\n", prop.maxGridSize[0], prop.maxGridSize[1],
              prop.maxGridSize[2]);
  std::printf("  sharedMemPerBlock: %zu\n", prop.sharedMemPerBlock);
  std::printf("  clockRate (kHz): %d\n", prop.clockRate);
}

}  // namespace

int main() {
  const CUresult init = cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char* name = "?";
    cuGetErrorName(init, &name);
    std::fprintf(stderr,
                 "streamhal-info: no usable Vulkan device (%s). A device needs Vulkan 1.2 with "
                 "bufferDeviceAddress, timelineSemaphore and shaderInt64; on a machine without a "
                 "GPU install Mesa's lavapipe (mesa-vulkan-drivers).\n",
                 name);
    return 1;
  }
  int driver = 0;
  cuDriverGetVersion(&driver);
  int hip_version = 0;
  hipRuntimeGetVersion(&hip_version);
  int count = 0;
  cuDeviceGetCount(&count);
  std::printf("streamhal: CUDA driver API %d.%d, HIP %d; %d device(s)\n", driver / 1000,
              (driver % 1000) / 10, hip_version, count);
  // Which setting chose the devices (core/device_visibility.h: HIP's wins).
  for (const char* variable :
       {"HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "STREAMHAL_VK_DEVICES_PER_GPU"}) {
    if (const char* value = std::getenv(variable)) std::printf("%s=%s\n", variable, value);
  }
  std::printf("\n");
  for (int i = 0; i < count; ++i) {
    PrintCudaDevice(i);
    PrintHipDevice(i);
    std::printf("\n");
  }
  return count > 0 ? 0 : 1;
}
