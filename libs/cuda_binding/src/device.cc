// Device management (cuDevice*).
#include <cuda.h>

#include <cstdint>

#include "core/c_enum.h"
#include "core/device_attribute.h"
#include "result.h"

using streamhal::DeviceAttribute;
using streamhal::cuda::ToCUresult;

namespace {

// `attribute` is the caller's CUdevice_attribute read as an int
// (core/c_enum.h): C callers may pass numbers outside the enum.
DeviceAttribute ToCore(int attribute) {
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return DeviceAttribute::kMaxThreadsPerBlock;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: return DeviceAttribute::kMaxBlockDimX;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return DeviceAttribute::kMaxBlockDimY;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return DeviceAttribute::kMaxBlockDimZ;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return DeviceAttribute::kMaxGridDimX;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: return DeviceAttribute::kMaxGridDimY;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return DeviceAttribute::kMaxGridDimZ;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
      return DeviceAttribute::kMaxSharedMemoryPerBlock;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
      return DeviceAttribute::kMaxSharedMemoryPerBlockOptin;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
      return DeviceAttribute::kMaxSharedMemoryPerMultiprocessor;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return DeviceAttribute::kTotalConstantMemory;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return DeviceAttribute::kWarpSize;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return DeviceAttribute::kMaxPitch;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK: return DeviceAttribute::kMaxRegistersPerBlock;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
      return DeviceAttribute::kMaxRegistersPerMultiprocessor;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return DeviceAttribute::kClockRate;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return DeviceAttribute::kMemoryClockRate;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return DeviceAttribute::kGlobalMemoryBusWidth;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return DeviceAttribute::kL2CacheSize;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return DeviceAttribute::kTextureAlignment;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return DeviceAttribute::kTexturePitchAlignment;
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: return DeviceAttribute::kGpuOverlap;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: return DeviceAttribute::kAsyncEngineCount;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return DeviceAttribute::kMultiprocessorCount;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
      return DeviceAttribute::kMaxThreadsPerMultiprocessor;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
      return DeviceAttribute::kMaxBlocksPerMultiprocessor;
    case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT: return DeviceAttribute::kKernelExecTimeout;
    case CU_DEVICE_ATTRIBUTE_INTEGRATED: return DeviceAttribute::kIntegrated;
    case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY: return DeviceAttribute::kCanMapHostMemory;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: return DeviceAttribute::kComputeMode;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: return DeviceAttribute::kConcurrentKernels;
    case CU_DEVICE_ATTRIBUTE_ECC_ENABLED: return DeviceAttribute::kEccEnabled;
    case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return DeviceAttribute::kPciBusId;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return DeviceAttribute::kPciDeviceId;
    case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return DeviceAttribute::kPciDomainId;
    case CU_DEVICE_ATTRIBUTE_TCC_DRIVER: return DeviceAttribute::kTccDriver;
    case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING: return DeviceAttribute::kUnifiedAddressing;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      return DeviceAttribute::kComputeCapabilityMajor;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      return DeviceAttribute::kComputeCapabilityMinor;
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
      return DeviceAttribute::kStreamPrioritiesSupported;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
      return DeviceAttribute::kGlobalL1CacheSupported;
    case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
      return DeviceAttribute::kLocalL1CacheSupported;
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return DeviceAttribute::kManagedMemory;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD: return DeviceAttribute::kMultiGpuBoard;
    case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID:
      return DeviceAttribute::kMultiGpuBoardGroupId;
    case CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED:
      return DeviceAttribute::kHostNativeAtomicSupported;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
      return DeviceAttribute::kSingleToDoublePrecisionPerfRatio;
    case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: return DeviceAttribute::kPageableMemoryAccess;
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
      return DeviceAttribute::kConcurrentManagedAccess;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED:
      return DeviceAttribute::kComputePreemptionSupported;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
      return DeviceAttribute::kCanUseHostPointerForRegisteredMem;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return DeviceAttribute::kCooperativeLaunch;
    case CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH:
      return DeviceAttribute::kCooperativeMultiDeviceLaunch;
    case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED: return DeviceAttribute::kHostRegisterSupported;
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED: return DeviceAttribute::kMemoryPoolsSupported;
    case CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES:
      return DeviceAttribute::kMemoryPoolSupportedHandleTypes;
    case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
      return DeviceAttribute::kVirtualMemoryManagementSupported;
    case CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE:
      return DeviceAttribute::kMaxPersistingL2CacheSize;
    case CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE:
      return DeviceAttribute::kMaxAccessPolicyWindowSize;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
      return DeviceAttribute::kReservedSharedMemoryPerBlock;
    case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
      return DeviceAttribute::kReadOnlyHostRegisterSupported;
    case CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED: return DeviceAttribute::kIpcEventSupported;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1:
      return DeviceAttribute::kCanUseStreamMemOps;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
      return DeviceAttribute::kCanUse64BitStreamMemOps;
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1:
    case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
      return DeviceAttribute::kCanUseStreamWaitValueNor;
    case CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES:
      return DeviceAttribute::kCanFlushRemoteWrites;
    case CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT:
      return DeviceAttribute::kLoopIterationLimit;
    case CU_DEVICE_ATTRIBUTE_HAL_BACKEND_DEVICE_INDEX:
      return DeviceAttribute::kBackendDeviceIndex;
    case CU_DEVICE_ATTRIBUTE_HAL_PARTITION:
      return DeviceAttribute::kPartition;
    default:
      break;
  }
  // Every other enumerator is a real attribute (textures, surfaces, ...)
  // this device model has no value for; anything outside the enum is not.
  return attribute >= 1 && attribute < static_cast<int>(CU_DEVICE_ATTRIBUTE_MAX)
             ? DeviceAttribute::kNotReported
             : DeviceAttribute::kInvalid;
}

streamhal::PeerAttribute ToPeerAttribute(int attribute) {
  switch (attribute) {
    case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
      return streamhal::PeerAttribute::kPerformanceRank;
    case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
      return streamhal::PeerAttribute::kAccessSupported;
    case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
      return streamhal::PeerAttribute::kNativeAtomicSupported;
    case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
      return streamhal::PeerAttribute::kArrayAccessSupported;
    default:
      return streamhal::PeerAttribute::kInvalid;
  }
}

}  // namespace

extern "C" {

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  return ToCUresult(streamhal::GetDeviceHandle(device, ordinal));
}

CUresult cuDeviceGetCount(int* count) { return ToCUresult(streamhal::GetDeviceCount(count)); }

CUresult cuDeviceGetName(char* name, int len, CUdevice dev) {
  return ToCUresult(streamhal::GetDeviceName(name, len, dev));
}

CUresult cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  auto* bytes = uuid != nullptr ? reinterpret_cast<uint8_t(*)[16]>(uuid->bytes) : nullptr;
  return ToCUresult(streamhal::GetDeviceUuid(bytes, dev));
}

CUresult cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  return ToCUresult(streamhal::GetDeviceTotalMemory(bytes, dev));
}

CUresult cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  const DeviceAttribute attribute = ToCore(streamhal::EnumArgument(attrib));
  return ToCUresult(streamhal::GetDeviceAttribute(pi, attribute, dev));
}

CUresult cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  CUresult result = ToCUresult(
      streamhal::GetDeviceAttribute(major, DeviceAttribute::kComputeCapabilityMajor, dev));
  if (result != CUDA_SUCCESS) return result;
  return ToCUresult(
      streamhal::GetDeviceAttribute(minor, DeviceAttribute::kComputeCapabilityMinor, dev));
}

CUresult cuDeviceCanAccessPeer(int* can_access_peer, CUdevice dev, CUdevice peer_dev) {
  return ToCUresult(streamhal::CanAccessPeer(can_access_peer, dev, peer_dev));
}

CUresult cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice src_device,
                                 CUdevice dst_device) {
  const streamhal::PeerAttribute attribute = ToPeerAttribute(streamhal::EnumArgument(attrib));
  return ToCUresult(streamhal::GetPeerAttribute(value, attribute, src_device, dst_device));
}

CUresult cuDeviceGetPCIBusId(char* pci_bus_id, int len, CUdevice dev) {
  return ToCUresult(streamhal::GetDevicePciBusId(pci_bus_id, len, dev));
}

CUresult cuDeviceGetByPCIBusId(CUdevice* dev, const char* pci_bus_id) {
  return ToCUresult(streamhal::GetDeviceByPciBusId(dev, pci_bus_id));
}

CUresult cuDeviceGetProperties(CUdevprop* prop, CUdevice dev) {
  streamhal::LegacyDeviceProperties properties;
  const absl::Status status =
      streamhal::GetLegacyDeviceProperties(prop != nullptr ? &properties : nullptr, dev);
  if (!status.ok()) return ToCUresult(status);
  prop->maxThreadsPerBlock = properties.max_threads_per_block;
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = properties.max_threads_dim[i];
    prop->maxGridSize[i] = properties.max_grid_size[i];
  }
  prop->sharedMemPerBlock = properties.shared_mem_per_block;
  prop->totalConstantMemory = properties.total_constant_memory;
  prop->SIMDWidth = properties.simd_width;
  prop->memPitch = properties.mem_pitch;
  prop->regsPerBlock = properties.regs_per_block;
  prop->clockRate = properties.clock_rate;
  prop->textureAlign = properties.texture_align;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements, CUarray_format format,
                                            unsigned numChannels, CUdevice dev) {
  return ToCUresult(streamhal::GetTexture1DLinearMaxWidth(
      maxWidthInElements, static_cast<uint32_t>(streamhal::EnumArgument(format)), numChannels,
      dev));
}

CUresult cuDeviceGetExecAffinitySupport(int* pi, CUexecAffinityType type, CUdevice dev) {
  return ToCUresult(streamhal::GetExecAffinitySupport(pi, streamhal::EnumArgument(type), dev));
}

}  // extern "C"
