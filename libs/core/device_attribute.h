// Backend-neutral device attributes. Each binding maps its own attribute
// enum (CUdevice_attribute, hipDeviceAttribute_t) onto these, so both APIs
// report the same numbers from the same DeviceProperties.
#ifndef STREAMHAL_CORE_DEVICE_ATTRIBUTE_H_
#define STREAMHAL_CORE_DEVICE_ATTRIBUTE_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/backend.h"

namespace streamhal {

enum class DeviceAttribute {
  kInvalid,      // not an attribute of the API: kInvalidValue
  kNotReported,  // a valid attribute this device model has no value for: 0
  kMaxThreadsPerBlock,
  kMaxBlockDimX,
  kMaxBlockDimY,
  kMaxBlockDimZ,
  kMaxGridDimX,
  kMaxGridDimY,
  kMaxGridDimZ,
  kMaxSharedMemoryPerBlock,
  kMaxSharedMemoryPerBlockOptin,
  kMaxSharedMemoryPerMultiprocessor,
  kTotalConstantMemory,
  kWarpSize,
  kMaxPitch,
  kMaxRegistersPerBlock,
  kMaxRegistersPerMultiprocessor,
  kClockRate,
  kMemoryClockRate,
  kGlobalMemoryBusWidth,
  kL2CacheSize,
  kTextureAlignment,
  kTexturePitchAlignment,
  kGpuOverlap,
  kAsyncEngineCount,
  kMultiprocessorCount,
  kMaxThreadsPerMultiprocessor,
  kMaxBlocksPerMultiprocessor,
  kKernelExecTimeout,
  kIntegrated,
  kCanMapHostMemory,
  kComputeMode,
  kConcurrentKernels,
  kEccEnabled,
  kPciBusId,
  kPciDeviceId,
  kPciDomainId,
  kTccDriver,
  kUnifiedAddressing,
  kComputeCapabilityMajor,
  kComputeCapabilityMinor,
  kStreamPrioritiesSupported,
  kGlobalL1CacheSupported,
  kLocalL1CacheSupported,
  kManagedMemory,
  kMultiGpuBoard,
  kMultiGpuBoardGroupId,
  kHostNativeAtomicSupported,
  kSingleToDoublePrecisionPerfRatio,
  kPageableMemoryAccess,
  kConcurrentManagedAccess,
  kComputePreemptionSupported,
  kCanUseHostPointerForRegisteredMem,
  kCooperativeLaunch,
  kCooperativeMultiDeviceLaunch,
  kHostRegisterSupported,
  kMemoryPoolsSupported,
  kMemoryPoolSupportedHandleTypes,
  kVirtualMemoryManagementSupported,
  kMaxPersistingL2CacheSize,
  kMaxAccessPolicyWindowSize,
  kReservedSharedMemoryPerBlock,
  kReadOnlyHostRegisterSupported,
  kIpcEventSupported,
  kTimelineSemaphoreInteropSupported,
  // Stream memory operations (cuStreamWaitValue32, ...): the basic set, the
  // 64-bit forms, the NOR condition, and flushing remote writes.
  kCanUseStreamMemOps,
  kCanUse64BitStreamMemOps,
  kCanUseStreamWaitValueNor,
  kCanFlushRemoteWrites,
  // streamhal extension: DeviceProperties::loop_iteration_limit.
  kLoopIterationLimit,
  // streamhal extension: DeviceProperties::backend_device_index, partition.
  kBackendDeviceIndex,
  kPartition,
};

// Writes the value of `attribute` of device `device` to `*value`.
// Errors: kNotInitialized, kInvalidValue (null value, kInvalid attribute),
// kInvalidDevice.
absl::Status GetDeviceAttribute(int* value, DeviceAttribute attribute, int device);

// The value GetDeviceAttribute reports for `attribute` of a device with
// properties `p`. Property structures (hipDeviceProp_t) fill every field
// that has an attribute twin from here, so the two never disagree.
int DeviceAttributeValue(const DeviceProperties& p, DeviceAttribute attribute);

// Everything known about a device (hipGetDeviceProperties).
absl::StatusOr<const DeviceProperties*> GetDeviceProperties(int device);

// cuDeviceGetProperties (deprecated CUdevprop): the same numbers
// GetDeviceAttribute reports for these attributes.
struct LegacyDeviceProperties {
  int max_threads_per_block = 0;
  int max_threads_dim[3] = {};
  int max_grid_size[3] = {};
  int shared_mem_per_block = 0;
  int total_constant_memory = 0;
  int simd_width = 0;  // the warp size
  int mem_pitch = 0;
  int regs_per_block = 0;
  int clock_rate = 0;
  int texture_align = 0;
};
absl::Status GetLegacyDeviceProperties(LegacyDeviceProperties* properties, int device);

// cuDeviceGetExecAffinitySupport: execution affinity (limiting a context
// to some multiprocessors; type 0, CU_EXEC_AFFINITY_TYPE_SM_COUNT, is the
// only one) is never supported: a Vulkan queue cannot be restricted so.
// `*supported` is 0; other types are kInvalidValue.
absl::Status GetExecAffinitySupport(int* supported, int type, int device);

// cuDeviceGetTexture1DLinearMaxWidth: the elements a texture over linear
// memory of `format` (a CUarray_format value) with `channels` channels may
// span. kInvalidValue for a null output or a format and channel count no
// texture reads.
absl::Status GetTexture1DLinearMaxWidth(size_t* width, uint32_t format, unsigned channels,
                                        int device);

// Name, UUID and memory size (cuDeviceGetName, cuDeviceGetUuid,
// cuDeviceTotalMem). `length` is the size of `name` in bytes; the name is
// truncated to fit and always NUL-terminated.
absl::Status GetDeviceName(char* name, int length, int device);
absl::Status GetDeviceUuid(uint8_t (*uuid)[16], int device);
absl::Status GetDeviceTotalMemory(size_t* bytes, int device);
absl::Status GetDeviceCount(int* count);
// cuDeviceGet: validates `ordinal` and writes it.
absl::Status GetDeviceHandle(int* device, int ordinal);

// PCI bus id in the "domain:bus:device.function" form CUDA uses
// ("0000:01:00.0"). kNotSupported when the device reports no PCI address.
absl::Status GetDevicePciBusId(char* pci_bus_id, int length, int device);
absl::Status GetDeviceByPciBusId(int* device, const char* pci_bus_id);

// Peer access between two devices: 1 where the backend can map one device's
// memory into the other at the same addresses (BackendDevice::CanAccessPeer;
// on Vulkan, partitions of one physical device), else 0. Both ordinals are
// validated; a device is not its own peer.
absl::Status CanAccessPeer(int* can_access, int device, int peer);

enum class PeerAttribute {
  kInvalid,
  kPerformanceRank,
  kAccessSupported,
  kNativeAtomicSupported,
  kArrayAccessSupported,
};

// cuDeviceGetP2PAttribute: the two devices must differ (CUDA gives
// CUDA_ERROR_INVALID_DEVICE for src == dst). ACCESS_SUPPORTED follows
// CanAccessPeer; native atomics and array access are 0, the rank 0.
absl::Status GetPeerAttribute(int* value, PeerAttribute attribute, int src, int dst);

// hipExtGetLinkTypeAndHopCount: the link between two devices, as a value of
// AMD's hsa_amd_link_info_type_t, and its hop count. Ordinals are checked
// first (kInvalidDevice), then the outputs (kInvalidValue); a device has no
// link to itself (kInvalidValue, as AMD's runtime answers), and devices that
// are not peers have no link (kInvalidHandle, AMD's answer when it finds
// none). Peers here are partitions of one physical device
// (STREAMHAL_VK_DEVICES_PER_GPU): AMD reports the partitions of one package
// (MI300's partition modes) as XGMI-linked, one hop apart, so those are the
// answers.
inline constexpr uint32_t kLinkTypeXgmi = 4;  // HSA_AMD_LINK_INFO_TYPE_XGMI
absl::Status GetPeerLink(uint32_t* link_type, uint32_t* hop_count, int device1, int device2);

}  // namespace streamhal

#endif  // STREAMHAL_CORE_DEVICE_ATTRIBUTE_H_
