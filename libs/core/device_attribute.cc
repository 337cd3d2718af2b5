#include "core/device_attribute.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/array.h"
#include "core/device.h"
#include "core/pool_arena.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/virtual_memory.h"

namespace streamhal {
namespace {

int Clamp(uint64_t value) {
  return static_cast<int>(std::min<uint64_t>(value, std::numeric_limits<int>::max()));
}

}  // namespace

int DeviceAttributeValue(const DeviceProperties& p, DeviceAttribute attribute) {
  switch (attribute) {
    case DeviceAttribute::kMaxThreadsPerBlock: return p.max_threads_per_block;
    case DeviceAttribute::kMaxBlockDimX: return p.max_block_dim[0];
    case DeviceAttribute::kMaxBlockDimY: return p.max_block_dim[1];
    case DeviceAttribute::kMaxBlockDimZ: return p.max_block_dim[2];
    case DeviceAttribute::kMaxGridDimX: return p.max_grid_dim[0];
    case DeviceAttribute::kMaxGridDimY: return p.max_grid_dim[1];
    case DeviceAttribute::kMaxGridDimZ: return p.max_grid_dim[2];
    case DeviceAttribute::kMaxSharedMemoryPerBlock:
    case DeviceAttribute::kMaxSharedMemoryPerBlockOptin: return p.shared_memory_per_block;
    case DeviceAttribute::kMaxSharedMemoryPerMultiprocessor:
      return p.shared_memory_per_multiprocessor;
    case DeviceAttribute::kTotalConstantMemory: return p.total_constant_memory;
    case DeviceAttribute::kWarpSize: return p.warp_size;
    case DeviceAttribute::kMaxPitch: return Clamp(static_cast<uint64_t>(p.memory_pitch));
    case DeviceAttribute::kMaxRegistersPerBlock: return p.registers_per_block;
    case DeviceAttribute::kMaxRegistersPerMultiprocessor: return p.registers_per_multiprocessor;
    case DeviceAttribute::kClockRate: return p.clock_rate_khz;
    case DeviceAttribute::kMemoryClockRate: return p.memory_clock_rate_khz;
    case DeviceAttribute::kGlobalMemoryBusWidth: return p.memory_bus_width;
    case DeviceAttribute::kL2CacheSize: return p.l2_cache_size;
    case DeviceAttribute::kTextureAlignment: return p.texture_alignment;
    case DeviceAttribute::kTexturePitchAlignment: return p.texture_pitch_alignment;
    case DeviceAttribute::kGpuOverlap: return p.async_engine_count > 0 ? 1 : 0;
    case DeviceAttribute::kAsyncEngineCount: return p.async_engine_count;
    case DeviceAttribute::kMultiprocessorCount: return p.multiprocessor_count;
    case DeviceAttribute::kMaxThreadsPerMultiprocessor: return p.max_threads_per_multiprocessor;
    case DeviceAttribute::kMaxBlocksPerMultiprocessor: return p.max_blocks_per_multiprocessor;
    case DeviceAttribute::kIntegrated: return p.integrated ? 1 : 0;
    case DeviceAttribute::kCanMapHostMemory: return p.can_map_host_memory ? 1 : 0;
    case DeviceAttribute::kConcurrentKernels: return p.concurrent_kernels ? 1 : 0;
    case DeviceAttribute::kEccEnabled: return p.ecc_enabled ? 1 : 0;
    case DeviceAttribute::kPciBusId: return p.pci_bus_id;
    case DeviceAttribute::kPciDeviceId: return p.pci_device_id;
    case DeviceAttribute::kPciDomainId: return p.pci_domain_id;
    case DeviceAttribute::kUnifiedAddressing: return p.unified_addressing ? 1 : 0;
    case DeviceAttribute::kComputeCapabilityMajor: return p.compute_capability_major;
    case DeviceAttribute::kComputeCapabilityMinor: return p.compute_capability_minor;
    case DeviceAttribute::kStreamPrioritiesSupported: return 1;
    case DeviceAttribute::kGlobalL1CacheSupported:
    case DeviceAttribute::kLocalL1CacheSupported: return 1;
    case DeviceAttribute::kHostRegisterSupported: return p.can_map_host_memory ? 1 : 0;
    case DeviceAttribute::kComputeMode: return 0;  // CU_COMPUTEMODE_DEFAULT
    case DeviceAttribute::kSingleToDoublePrecisionPerfRatio: return 2;
    // Waits poll the word from the host (core/stream.h): they need memory
    // the host can map, which page-locked host memory always is.
    case DeviceAttribute::kCanUseStreamMemOps:
    case DeviceAttribute::kCanUse64BitStreamMemOps:
    case DeviceAttribute::kCanUseStreamWaitValueNor:
    case DeviceAttribute::kCanFlushRemoteWrites:
      return p.can_map_host_memory ? 1 : 0;
    // Stream-ordered allocation (core/mem_pool.h).
    case DeviceAttribute::kMemoryPoolsSupported:
      return 1;
    // Managed memory is host-visible memory mapped at its device address
    // (core/managed_memory.h): host and device may touch it concurrently.
    case DeviceAttribute::kManagedMemory:
    case DeviceAttribute::kConcurrentManagedAccess:
      return p.managed_memory ? 1 : 0;
    // Blocks may wait for each other only where the occupancy figures are
    // the blocks that really run at once (docs/kernel-abi.md).
    case DeviceAttribute::kCooperativeLaunch:
    case DeviceAttribute::kCooperativeMultiDeviceLaunch:
      return p.resident_blocks_exact ? 1 : 0;
    case DeviceAttribute::kLoopIterationLimit:
      return Clamp(p.loop_iteration_limit);
    case DeviceAttribute::kBackendDeviceIndex:
      return p.backend_device_index;
    case DeviceAttribute::kPartition:
      return p.partition;
    // Capabilities streamhal does not provide (yet); the conformance table
    // says which.
    case DeviceAttribute::kKernelExecTimeout:
    case DeviceAttribute::kTccDriver:
    case DeviceAttribute::kMultiGpuBoard:
    case DeviceAttribute::kMultiGpuBoardGroupId:
    case DeviceAttribute::kHostNativeAtomicSupported:
    // Kernels reach memory only through buffers: pageable memory that was
    // never registered is out of their reach.
    case DeviceAttribute::kPageableMemoryAccess:
    case DeviceAttribute::kComputePreemptionSupported:
    case DeviceAttribute::kCanUseHostPointerForRegisteredMem:
    case DeviceAttribute::kVirtualMemoryManagementSupported:
    case DeviceAttribute::kMemoryPoolSupportedHandleTypes:
    case DeviceAttribute::kMaxPersistingL2CacheSize:
    case DeviceAttribute::kMaxAccessPolicyWindowSize:
    case DeviceAttribute::kReservedSharedMemoryPerBlock:
    case DeviceAttribute::kReadOnlyHostRegisterSupported:
    case DeviceAttribute::kIpcEventSupported:
    case DeviceAttribute::kTimelineSemaphoreInteropSupported:
    case DeviceAttribute::kNotReported:
    case DeviceAttribute::kInvalid:
      return 0;
  }
  return 0;
}

absl::Status GetDeviceAttribute(int* value, DeviceAttribute attribute, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (value == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetAttribute: pi is null");
  }
  if (attribute == DeviceAttribute::kInvalid) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetAttribute: unknown attribute");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  // Probed on the device, not a property (core/virtual_memory.h).
  if (attribute == DeviceAttribute::kVirtualMemoryManagementSupported) {
    *value = VirtualMemorySupported(device) ? 1 : 0;
    return absl::OkStatus();
  }
  // Pools with shareable handles keep their blocks in shared files the
  // device imports (core/pool_arena.h): POSIX file descriptors or nothing.
  if (attribute == DeviceAttribute::kMemoryPoolSupportedHandleTypes) {
    *value = PoolArena::Supported(device) ? kMemHandleTypePosixFd : kMemHandleTypeNone;
    return absl::OkStatus();
  }
  *value = DeviceAttributeValue(device->properties(), attribute);
  return absl::OkStatus();
}

absl::StatusOr<const DeviceProperties*> GetDeviceProperties(int device_ordinal) {
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  return &device->properties();
}

absl::Status GetDeviceName(char* name, int length, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (name == nullptr || length <= 0) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetName: name is null or len is not positive");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  const std::string& full = device->properties().name;
  const size_t copied = std::min(full.size(), static_cast<size_t>(length) - 1);
  std::memcpy(name, full.data(), copied);
  name[copied] = '\0';
  return absl::OkStatus();
}

absl::Status GetDeviceUuid(uint8_t (*uuid)[16], int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (uuid == nullptr) return Error(ErrorCode::kInvalidValue, "cuDeviceGetUuid: uuid is null");
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  std::memcpy(*uuid, device->properties().uuid.data(), 16);
  return absl::OkStatus();
}

absl::Status GetDeviceTotalMemory(size_t* bytes, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (bytes == nullptr) return Error(ErrorCode::kInvalidValue, "cuDeviceTotalMem: bytes is null");
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  *bytes = static_cast<size_t>(device->properties().total_memory);
  return absl::OkStatus();
}

absl::Status GetLegacyDeviceProperties(LegacyDeviceProperties* properties, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (properties == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetProperties: prop is null");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  const DeviceProperties& p = device->properties();
  const auto value = [&](DeviceAttribute attribute) { return DeviceAttributeValue(p, attribute); };
  LegacyDeviceProperties out;
  out.max_threads_per_block = value(DeviceAttribute::kMaxThreadsPerBlock);
  out.max_threads_dim[0] = value(DeviceAttribute::kMaxBlockDimX);
  out.max_threads_dim[1] = value(DeviceAttribute::kMaxBlockDimY);
  out.max_threads_dim[2] = value(DeviceAttribute::kMaxBlockDimZ);
  out.max_grid_size[0] = value(DeviceAttribute::kMaxGridDimX);
  out.max_grid_size[1] = value(DeviceAttribute::kMaxGridDimY);
  out.max_grid_size[2] = value(DeviceAttribute::kMaxGridDimZ);
  out.shared_mem_per_block = value(DeviceAttribute::kMaxSharedMemoryPerBlock);
  out.total_constant_memory = value(DeviceAttribute::kTotalConstantMemory);
  out.simd_width = value(DeviceAttribute::kWarpSize);
  out.mem_pitch = value(DeviceAttribute::kMaxPitch);
  out.regs_per_block = value(DeviceAttribute::kMaxRegistersPerBlock);
  out.clock_rate = value(DeviceAttribute::kClockRate);
  out.texture_align = value(DeviceAttribute::kTextureAlignment);
  *properties = out;
  return absl::OkStatus();
}

absl::Status GetExecAffinitySupport(int* supported, int type, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (supported == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetExecAffinitySupport: pi is null");
  }
  if (type != 0) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetExecAffinitySupport: unknown type ", type);
  }
  SH_RETURN_IF_ERROR(GetDevice(device_ordinal).status());
  *supported = 0;
  return absl::OkStatus();
}

absl::Status GetTexture1DLinearMaxWidth(size_t* width, uint32_t format, unsigned channels,
                                        int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (width == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "cuDeviceGetTexture1DLinearMaxWidth: maxWidthInElements is null");
  }
  if (ArrayElementBytes(format, channels) == 0) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetTexture1DLinearMaxWidth: format 0x",
                 absl::Hex(format), " with ", channels,
                 " channels is no texel format (1, 2 or 4 channels of 8/16/32-bit integers, "
                 "half or float)");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  // A texture over linear memory is a texel buffer of whole elements.
  *width = static_cast<size_t>(device->properties().max_texel_buffer_elements);
  return absl::OkStatus();
}

absl::Status GetDeviceCount(int* count) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (count == nullptr) return Error(ErrorCode::kInvalidValue, "cuDeviceGetCount: count is null");
  SH_ASSIGN_OR_RETURN(*count, DeviceCount());
  return absl::OkStatus();
}

absl::Status GetDeviceHandle(int* device, int ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (device == nullptr) return Error(ErrorCode::kInvalidValue, "cuDeviceGet: device is null");
  SH_RETURN_IF_ERROR(GetDevice(ordinal).status());
  *device = ordinal;
  return absl::OkStatus();
}

absl::Status GetDevicePciBusId(char* pci_bus_id, int length, int device_ordinal) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (pci_bus_id == nullptr || length <= 0) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetPCIBusId: pciBusId is null or len <= 0");
  }
  SH_ASSIGN_OR_RETURN(Device * device, GetDevice(device_ordinal));
  const DeviceProperties& p = device->properties();
  if (!p.has_pci_info) {
    return Error(ErrorCode::kNotSupported, "cuDeviceGetPCIBusId: device ", device_ordinal,
                 " (", p.name, ") reports no PCI address");
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%04x:%02x:%02x.%x", p.pci_domain_id, p.pci_bus_id,
                p.pci_device_id, p.pci_function);
  const size_t copied = std::min(std::strlen(text), static_cast<size_t>(length) - 1);
  std::memcpy(pci_bus_id, text, copied);
  pci_bus_id[copied] = '\0';
  return absl::OkStatus();
}

absl::Status GetDeviceByPciBusId(int* device, const char* pci_bus_id) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (device == nullptr || pci_bus_id == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetByPCIBusId: null argument");
  }
  // Accepted forms (CUDA): [domain]:[bus]:[device].[function],
  // [domain]:[bus]:[device], [bus]:[device].[function]; all hexadecimal.
  unsigned domain = 0, bus = 0, dev = 0, function = 0;
  char tail = 0;
  const bool full =
      std::sscanf(pci_bus_id, "%x:%x:%x.%x%c", &domain, &bus, &dev, &function, &tail) == 4;
  const bool without_function =
      !full && std::sscanf(pci_bus_id, "%x:%x:%x%c", &domain, &bus, &dev, &tail) == 3;
  const bool without_domain = !full && !without_function &&
      std::sscanf(pci_bus_id, "%x:%x.%x%c", &bus, &dev, &function, &tail) == 3;
  if (!full && !without_function && !without_domain) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetByPCIBusId: '", pci_bus_id,
                 "' is not a PCI bus id");
  }
  if (without_domain) domain = 0;
  SH_ASSIGN_OR_RETURN(int count, DeviceCount());
  for (int i = 0; i < count; ++i) {
    SH_ASSIGN_OR_RETURN(Device * candidate, GetDevice(i));
    const DeviceProperties& p = candidate->properties();
    if (p.has_pci_info && static_cast<unsigned>(p.pci_domain_id) == domain &&
        static_cast<unsigned>(p.pci_bus_id) == bus &&
        static_cast<unsigned>(p.pci_device_id) == dev) {
      *device = i;
      return absl::OkStatus();
    }
  }
  return Error(ErrorCode::kInvalidDevice, "cuDeviceGetByPCIBusId: no device at ", pci_bus_id);
}

absl::Status CanAccessPeer(int* can_access, int device, int peer) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (can_access == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceCanAccessPeer: canAccessPeer is null");
  }
  SH_ASSIGN_OR_RETURN(Device * from, GetDevice(device));
  SH_ASSIGN_OR_RETURN(Device * to, GetDevice(peer));
  // A device is not its own peer (HIP: 0 when deviceId == peerDeviceId).
  *can_access = from != to && from->backend()->CanAccessPeer(to->backend()) ? 1 : 0;
  return absl::OkStatus();
}

absl::Status GetPeerAttribute(int* value, PeerAttribute attribute, int src, int dst) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  if (value == nullptr) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetP2PAttribute: value is null");
  }
  if (attribute == PeerAttribute::kInvalid) {
    return Error(ErrorCode::kInvalidValue, "cuDeviceGetP2PAttribute: unknown attribute");
  }
  SH_ASSIGN_OR_RETURN(Device * from, GetDevice(src));
  SH_ASSIGN_OR_RETURN(Device * to, GetDevice(dst));
  if (src == dst) {
    return Error(ErrorCode::kInvalidDevice,
                 "cuDeviceGetP2PAttribute: source and destination are the same device");
  }
  const bool access = from->backend()->CanAccessPeer(to->backend());
  switch (attribute) {
    case PeerAttribute::kAccessSupported:
      *value = access ? 1 : 0;
      break;
    case PeerAttribute::kPerformanceRank:
      // One kind of link only (partitions of one device): rank 0.
      *value = 0;
      break;
    default:
      // Atomics across devices and arrays (images) of a peer are not
      // offered: each device has its own VkDevice.
      *value = 0;
      break;
  }
  return absl::OkStatus();
}

absl::Status GetPeerLink(uint32_t* link_type, uint32_t* hop_count, int device1, int device2) {
  SH_RETURN_IF_ERROR(CheckInitialized());
  SH_ASSIGN_OR_RETURN(Device * from, GetDevice(device1));
  SH_ASSIGN_OR_RETURN(Device * to, GetDevice(device2));
  if (link_type == nullptr || hop_count == nullptr) {
    return Error(ErrorCode::kInvalidValue,
                 "hipExtGetLinkTypeAndHopCount: linktype or hopcount is null");
  }
  if (device1 == device2) {
    return Error(ErrorCode::kInvalidValue,
                 "hipExtGetLinkTypeAndHopCount: a device has no link to itself");
  }
  if (!from->backend()->CanAccessPeer(to->backend())) {
    return Error(ErrorCode::kInvalidHandle, "hipExtGetLinkTypeAndHopCount: devices ", device1,
                 " and ", device2, " are not peers, so no link joins them");
  }
  *link_type = kLinkTypeXgmi;
  *hop_count = 1;
  return absl::OkStatus();
}

}  // namespace streamhal
