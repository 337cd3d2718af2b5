// Device management (hipGetDeviceCount, hipDeviceGet*, hipGetDeviceProperties,
// hipSetDevice, ...).
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "call.h"
#include "core/c_enum.h"
#include "core/device_attribute.h"
#include "core/peer_access.h"

using streamhal::DeviceAttribute;
using streamhal::hip::Call;
using streamhal::hip::RuntimeCall;

namespace {

// `attribute` is the caller's hipDeviceAttribute_t read as an int
// (core/c_enum.h): C callers may pass numbers outside the enum.
DeviceAttribute ToCore(int attribute) {
  switch (attribute) {
    case hipDeviceAttributeMaxThreadsPerBlock: return DeviceAttribute::kMaxThreadsPerBlock;
    case hipDeviceAttributeMaxBlockDimX: return DeviceAttribute::kMaxBlockDimX;
    case hipDeviceAttributeMaxBlockDimY: return DeviceAttribute::kMaxBlockDimY;
    case hipDeviceAttributeMaxBlockDimZ: return DeviceAttribute::kMaxBlockDimZ;
    case hipDeviceAttributeMaxGridDimX: return DeviceAttribute::kMaxGridDimX;
    case hipDeviceAttributeMaxGridDimY: return DeviceAttribute::kMaxGridDimY;
    case hipDeviceAttributeMaxGridDimZ: return DeviceAttribute::kMaxGridDimZ;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      return DeviceAttribute::kMaxSharedMemoryPerBlock;
    case hipDeviceAttributeSharedMemPerBlockOptin:
      return DeviceAttribute::kMaxSharedMemoryPerBlockOptin;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
    case hipDeviceAttributeSharedMemPerMultiprocessor:
      return DeviceAttribute::kMaxSharedMemoryPerMultiprocessor;
    case hipDeviceAttributeTotalConstantMemory: return DeviceAttribute::kTotalConstantMemory;
    case hipDeviceAttributeWarpSize: return DeviceAttribute::kWarpSize;
    case hipDeviceAttributeMaxPitch: return DeviceAttribute::kMaxPitch;
    case hipDeviceAttributeMaxRegistersPerBlock: return DeviceAttribute::kMaxRegistersPerBlock;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor:
      return DeviceAttribute::kMaxRegistersPerMultiprocessor;
    case hipDeviceAttributeClockRate:
    case hipDeviceAttributeClockInstructionRate:
      return DeviceAttribute::kClockRate;
    case hipDeviceAttributeMemoryClockRate: return DeviceAttribute::kMemoryClockRate;
    case hipDeviceAttributeMemoryBusWidth: return DeviceAttribute::kGlobalMemoryBusWidth;
    case hipDeviceAttributeL2CacheSize: return DeviceAttribute::kL2CacheSize;
    case hipDeviceAttributeTextureAlignment: return DeviceAttribute::kTextureAlignment;
    case hipDeviceAttributeTexturePitchAlignment: return DeviceAttribute::kTexturePitchAlignment;
    case hipDeviceAttributeDeviceOverlap: return DeviceAttribute::kGpuOverlap;
    case hipDeviceAttributeAsyncEngineCount: return DeviceAttribute::kAsyncEngineCount;
    case hipDeviceAttributeMultiprocessorCount:
    case hipDeviceAttributePhysicalMultiProcessorCount:
      return DeviceAttribute::kMultiprocessorCount;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor:
      return DeviceAttribute::kMaxThreadsPerMultiprocessor;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor:
      return DeviceAttribute::kMaxBlocksPerMultiprocessor;
    case hipDeviceAttributeKernelExecTimeout: return DeviceAttribute::kKernelExecTimeout;
    case hipDeviceAttributeIntegrated: return DeviceAttribute::kIntegrated;
    case hipDeviceAttributeCanMapHostMemory: return DeviceAttribute::kCanMapHostMemory;
    case hipDeviceAttributeComputeMode: return DeviceAttribute::kComputeMode;
    case hipDeviceAttributeConcurrentKernels: return DeviceAttribute::kConcurrentKernels;
    case hipDeviceAttributeEccEnabled: return DeviceAttribute::kEccEnabled;
    case hipDeviceAttributePciBusId: return DeviceAttribute::kPciBusId;
    case hipDeviceAttributePciDeviceId: return DeviceAttribute::kPciDeviceId;
    case hipDeviceAttributePciDomainID: return DeviceAttribute::kPciDomainId;
    case hipDeviceAttributeTccDriver: return DeviceAttribute::kTccDriver;
    case hipDeviceAttributeUnifiedAddressing: return DeviceAttribute::kUnifiedAddressing;
    case hipDeviceAttributeComputeCapabilityMajor: return DeviceAttribute::kComputeCapabilityMajor;
    case hipDeviceAttributeComputeCapabilityMinor: return DeviceAttribute::kComputeCapabilityMinor;
    case hipDeviceAttributeStreamPrioritiesSupported:
      return DeviceAttribute::kStreamPrioritiesSupported;
    case hipDeviceAttributeGlobalL1CacheSupported: return DeviceAttribute::kGlobalL1CacheSupported;
    case hipDeviceAttributeLocalL1CacheSupported: return DeviceAttribute::kLocalL1CacheSupported;
    case hipDeviceAttributeManagedMemory: return DeviceAttribute::kManagedMemory;
    case hipDeviceAttributeIsMultiGpuBoard: return DeviceAttribute::kMultiGpuBoard;
    case hipDeviceAttributeMultiGpuBoardGroupID: return DeviceAttribute::kMultiGpuBoardGroupId;
    case hipDeviceAttributeHostNativeAtomicSupported:
      return DeviceAttribute::kHostNativeAtomicSupported;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio:
      return DeviceAttribute::kSingleToDoublePrecisionPerfRatio;
    case hipDeviceAttributePageableMemoryAccess: return DeviceAttribute::kPageableMemoryAccess;
    case hipDeviceAttributeConcurrentManagedAccess:
      return DeviceAttribute::kConcurrentManagedAccess;
    case hipDeviceAttributeComputePreemptionSupported:
      return DeviceAttribute::kComputePreemptionSupported;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem:
      return DeviceAttribute::kCanUseHostPointerForRegisteredMem;
    case hipDeviceAttributeCooperativeLaunch: return DeviceAttribute::kCooperativeLaunch;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch:
      return DeviceAttribute::kCooperativeMultiDeviceLaunch;
    case hipDeviceAttributeHostRegisterSupported: return DeviceAttribute::kHostRegisterSupported;
    case hipDeviceAttributeMemoryPoolsSupported: return DeviceAttribute::kMemoryPoolsSupported;
    case hipDeviceAttributeMemoryPoolSupportedHandleTypes:
      return DeviceAttribute::kMemoryPoolSupportedHandleTypes;
    case hipDeviceAttributeVirtualMemoryManagementSupported:
      return DeviceAttribute::kVirtualMemoryManagementSupported;
    case hipDeviceAttributePersistingL2CacheMaxSize:
      return DeviceAttribute::kMaxPersistingL2CacheSize;
    case hipDeviceAttributeAccessPolicyMaxWindowSize:
      return DeviceAttribute::kMaxAccessPolicyWindowSize;
    case hipDeviceAttributeReservedSharedMemPerBlock:
      return DeviceAttribute::kReservedSharedMemoryPerBlock;
    case hipDeviceAttributeCanUseStreamWaitValue:
      return DeviceAttribute::kCanUseStreamMemOps;
    case hipDeviceAttributeHalLoopIterationLimit:
      return DeviceAttribute::kLoopIterationLimit;
    case hipDeviceAttributeHalBackendDeviceIndex:
      return DeviceAttribute::kBackendDeviceIndex;
    case hipDeviceAttributeHalPartition:
      return DeviceAttribute::kPartition;
    default:
      break;
  }
  // Other enumerators of the CUDA-compatible and AMD-specific ranges are
  // real attributes without a value in this device model.
  const bool cuda_range = attribute >= hipDeviceAttributeCudaCompatibleBegin &&
                          attribute < hipDeviceAttributeCudaCompatibleEnd &&
                          attribute <= hipDeviceAttributeVirtualMemoryManagementSupported;
  const bool amd_range = attribute >= hipDeviceAttributeAmdSpecificBegin &&
                         attribute < hipDeviceAttributeAmdSpecificEnd;
  return cuda_range || amd_range ? DeviceAttribute::kNotReported : DeviceAttribute::kInvalid;
}

streamhal::PeerAttribute ToPeerAttribute(int attribute) {
  switch (attribute) {
    case hipDevP2PAttrPerformanceRank: return streamhal::PeerAttribute::kPerformanceRank;
    case hipDevP2PAttrAccessSupported: return streamhal::PeerAttribute::kAccessSupported;
    case hipDevP2PAttrNativeAtomicSupported:
      return streamhal::PeerAttribute::kNativeAtomicSupported;
    case hipDevP2PAttrHipArrayAccessSupported:
      return streamhal::PeerAttribute::kArrayAccessSupported;
  }
  return streamhal::PeerAttribute::kInvalid;
}

// hipLimit_t has only the first three of CUDA's limits (0..2, same
// numbers); hipLimitRange and anything else is unsupported. `limit` is the
// caller's hipLimit_t read as an int (core/c_enum.h).
int ToCoreLimit(int limit) {
  return limit >= hipLimitStackSize && limit <= hipLimitMallocHeapSize ? limit : -1;
}

template <size_t N>
void CopyName(char (&dst)[N], const std::string& src) {
  const size_t n = std::min(src.size(), N - 1);
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

// hipDeviceProp_t from the core's device properties. Every field with a
// hipDeviceAttribute_t twin takes the attribute's value, so a program that
// reads either sees the same number (memPitch included: the attribute is an
// int, so the field holds the int's value).
void FillProperties(hipDeviceProp_t* prop, const streamhal::DeviceProperties& p) {
  std::memset(prop, 0, sizeof(*prop));
  auto attr = [&](int attribute) { return streamhal::DeviceAttributeValue(p, ToCore(attribute)); };
  auto size = [&](int attribute) { return static_cast<size_t>(attr(attribute)); };
  CopyName(prop->name, p.name);
  std::memcpy(prop->uuid.bytes, p.uuid.data(), sizeof(prop->uuid.bytes));
  prop->totalGlobalMem = p.total_memory;
  prop->sharedMemPerBlock = size(hipDeviceAttributeMaxSharedMemoryPerBlock);
  prop->regsPerBlock = attr(hipDeviceAttributeMaxRegistersPerBlock);
  prop->warpSize = attr(hipDeviceAttributeWarpSize);
  prop->memPitch = size(hipDeviceAttributeMaxPitch);
  prop->maxThreadsPerBlock = attr(hipDeviceAttributeMaxThreadsPerBlock);
  prop->maxThreadsDim[0] = attr(hipDeviceAttributeMaxBlockDimX);
  prop->maxThreadsDim[1] = attr(hipDeviceAttributeMaxBlockDimY);
  prop->maxThreadsDim[2] = attr(hipDeviceAttributeMaxBlockDimZ);
  prop->maxGridSize[0] = attr(hipDeviceAttributeMaxGridDimX);
  prop->maxGridSize[1] = attr(hipDeviceAttributeMaxGridDimY);
  prop->maxGridSize[2] = attr(hipDeviceAttributeMaxGridDimZ);
  prop->clockRate = attr(hipDeviceAttributeClockRate);
  prop->totalConstMem = size(hipDeviceAttributeTotalConstantMemory);
  prop->major = attr(hipDeviceAttributeComputeCapabilityMajor);
  prop->minor = attr(hipDeviceAttributeComputeCapabilityMinor);
  prop->textureAlignment = size(hipDeviceAttributeTextureAlignment);
  prop->texturePitchAlignment = size(hipDeviceAttributeTexturePitchAlignment);
  prop->deviceOverlap = attr(hipDeviceAttributeDeviceOverlap);
  prop->multiProcessorCount = attr(hipDeviceAttributeMultiprocessorCount);
  prop->kernelExecTimeoutEnabled = attr(hipDeviceAttributeKernelExecTimeout);
  prop->integrated = attr(hipDeviceAttributeIntegrated);
  prop->canMapHostMemory = attr(hipDeviceAttributeCanMapHostMemory);
  prop->computeMode = attr(hipDeviceAttributeComputeMode);
  prop->concurrentKernels = attr(hipDeviceAttributeConcurrentKernels);
  prop->ECCEnabled = attr(hipDeviceAttributeEccEnabled);
  prop->pciBusID = attr(hipDeviceAttributePciBusId);
  prop->pciDeviceID = attr(hipDeviceAttributePciDeviceId);
  prop->pciDomainID = attr(hipDeviceAttributePciDomainID);
  prop->tccDriver = attr(hipDeviceAttributeTccDriver);
  prop->asyncEngineCount = attr(hipDeviceAttributeAsyncEngineCount);
  prop->unifiedAddressing = attr(hipDeviceAttributeUnifiedAddressing);
  prop->memoryClockRate = attr(hipDeviceAttributeMemoryClockRate);
  prop->memoryBusWidth = attr(hipDeviceAttributeMemoryBusWidth);
  prop->l2CacheSize = attr(hipDeviceAttributeL2CacheSize);
  prop->persistingL2CacheMaxSize = attr(hipDeviceAttributePersistingL2CacheMaxSize);
  prop->maxThreadsPerMultiProcessor = attr(hipDeviceAttributeMaxThreadsPerMultiProcessor);
  prop->streamPrioritiesSupported = attr(hipDeviceAttributeStreamPrioritiesSupported);
  prop->globalL1CacheSupported = attr(hipDeviceAttributeGlobalL1CacheSupported);
  prop->localL1CacheSupported = attr(hipDeviceAttributeLocalL1CacheSupported);
  prop->sharedMemPerMultiprocessor = size(hipDeviceAttributeSharedMemPerMultiprocessor);
  prop->regsPerMultiprocessor = attr(hipDeviceAttributeMaxRegistersPerMultiprocessor);
  prop->managedMemory = attr(hipDeviceAttributeManagedMemory);
  prop->isMultiGpuBoard = attr(hipDeviceAttributeIsMultiGpuBoard);
  prop->multiGpuBoardGroupID = attr(hipDeviceAttributeMultiGpuBoardGroupID);
  prop->hostNativeAtomicSupported = attr(hipDeviceAttributeHostNativeAtomicSupported);
  prop->singleToDoublePrecisionPerfRatio = attr(hipDeviceAttributeSingleToDoublePrecisionPerfRatio);
  prop->pageableMemoryAccess = attr(hipDeviceAttributePageableMemoryAccess);
  prop->concurrentManagedAccess = attr(hipDeviceAttributeConcurrentManagedAccess);
  prop->computePreemptionSupported = attr(hipDeviceAttributeComputePreemptionSupported);
  prop->canUseHostPointerForRegisteredMem =
      attr(hipDeviceAttributeCanUseHostPointerForRegisteredMem);
  prop->cooperativeLaunch = attr(hipDeviceAttributeCooperativeLaunch);
  prop->cooperativeMultiDeviceLaunch = attr(hipDeviceAttributeCooperativeMultiDeviceLaunch);
  prop->sharedMemPerBlockOptin = size(hipDeviceAttributeSharedMemPerBlockOptin);
  prop->maxBlocksPerMultiProcessor = attr(hipDeviceAttributeMaxBlocksPerMultiProcessor);
  prop->accessPolicyMaxWindowSize = attr(hipDeviceAttributeAccessPolicyMaxWindowSize);
  prop->reservedSharedMemPerBlock = size(hipDeviceAttributeReservedSharedMemPerBlock);
  prop->hostRegisterSupported = attr(hipDeviceAttributeHostRegisterSupported);
  prop->memoryPoolsSupported = attr(hipDeviceAttributeMemoryPoolsSupported);
  prop->maxSharedMemoryPerMultiProcessor = size(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor);
  prop->clockInstructionRate = attr(hipDeviceAttributeClockInstructionRate);
  // The architecture name names the backend device, not an AMD ISA.
  CopyName(prop->gcnArchName, p.backend_name + ":" + p.driver_name);
}

// How many of the properties `wanted` asks for (its non-zero fields) the
// device with properties `have` meets: at least the count or size asked
// for, the same compute capability, a name containing the one asked for.
int MatchScore(const hipDeviceProp_t& wanted, const hipDeviceProp_t& have) {
  int score = 0;
  auto at_least = [&](auto want, auto got) {
    if (want != 0 && got >= want) ++score;
  };
  if (wanted.name[0] != '\0' && std::strstr(have.name, wanted.name) != nullptr) ++score;
  if (wanted.major != 0 && wanted.major == have.major) {
    ++score;
    if (wanted.minor != 0 && have.minor >= wanted.minor) ++score;
  }
  at_least(wanted.totalGlobalMem, have.totalGlobalMem);
  at_least(wanted.sharedMemPerBlock, have.sharedMemPerBlock);
  at_least(wanted.maxThreadsPerBlock, have.maxThreadsPerBlock);
  at_least(wanted.multiProcessorCount, have.multiProcessorCount);
  at_least(wanted.clockRate, have.clockRate);
  at_least(wanted.totalConstMem, have.totalConstMem);
  at_least(wanted.warpSize, have.warpSize);
  return score;
}

}  // namespace

extern "C" {

hipError_t hipGetDeviceCount(int* count) {
  return Call([&] { return streamhal::GetDeviceCount(count); });
}

hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  return Call([&] { return streamhal::GetDeviceHandle(device, ordinal); });
}

hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
  return Call([&] { return streamhal::GetDeviceName(name, len, device); });
}

hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device) {
  auto* bytes = uuid != nullptr ? reinterpret_cast<uint8_t(*)[16]>(uuid->bytes) : nullptr;
  return Call([&] { return streamhal::GetDeviceUuid(bytes, device); });
}

hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  return Call([&] { return streamhal::GetDeviceTotalMemory(bytes, device); });
}

hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int device) {
  const DeviceAttribute attribute = ToCore(streamhal::EnumArgument(attr));
  return Call([&] { return streamhal::GetDeviceAttribute(pi, attribute, device); });
}

hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
  return Call([&]() -> absl::Status {
    SH_RETURN_IF_ERROR(
        streamhal::GetDeviceAttribute(major, DeviceAttribute::kComputeCapabilityMajor, device));
    return streamhal::GetDeviceAttribute(minor, DeviceAttribute::kComputeCapabilityMinor, device);
  });
}

hipError_t hipChooseDevice(int* device, const hipDeviceProp_t* prop) {
  return Call([&]() -> absl::Status {
    if (device == nullptr || prop == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipChooseDevice: device and prop must not be null");
    }
    int count = 0;
    SH_RETURN_IF_ERROR(streamhal::GetDeviceCount(&count));
    int best = 0, best_score = -1;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      SH_ASSIGN_OR_RETURN(const streamhal::DeviceProperties* properties,
                          streamhal::GetDeviceProperties(ordinal));
      hipDeviceProp_t have;
      FillProperties(&have, *properties);
      const int score = MatchScore(*prop, have);
      if (score > best_score) best = ordinal, best_score = score;
    }
    *device = best;
    return absl::OkStatus();
  });
}

// The first valid device becomes the current one; streamhal keeps no other
// preference order, since every runtime call works on the current device.
hipError_t hipSetValidDevices(int* device_arr, int len) {
  return Call([&]() -> absl::Status {
    int count = 0;
    SH_RETURN_IF_ERROR(streamhal::GetDeviceCount(&count));
    if (len < 0 || len > count || (len > 0 && device_arr == nullptr)) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipSetValidDevices: len is out of range or device_arr is null");
    }
    for (int i = 0; i < len; ++i) {
      if (device_arr[i] < 0 || device_arr[i] >= count) {
        return streamhal::Error(streamhal::ErrorCode::kInvalidDevice,
                                "hipSetValidDevices: no device ", device_arr[i]);
      }
      for (int j = 0; j < i; ++j) {
        if (device_arr[j] == device_arr[i]) {
          return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                                  "hipSetValidDevices: device ", device_arr[i], " is listed twice");
        }
      }
    }
    return streamhal::RuntimeSetDevice(len > 0 ? device_arr[0] : 0);
  });
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  return Call([&]() -> absl::Status {
    if (prop == nullptr) {
      return streamhal::Error(streamhal::ErrorCode::kInvalidValue,
                              "hipGetDeviceProperties: prop is null");
    }
    SH_ASSIGN_OR_RETURN(const streamhal::DeviceProperties* properties,
                        streamhal::GetDeviceProperties(device));
    FillProperties(prop, *properties);
    return absl::OkStatus();
  });
}

hipError_t hipDeviceCanAccessPeer(int* can_access_peer, int device, int peer_device) {
  return Call([&] { return streamhal::CanAccessPeer(can_access_peer, device, peer_device); });
}

// The current device's context gains access to the peer device's primary
// context (AMD: peer access is between devices).
hipError_t hipDeviceEnablePeerAccess(int peer_device, unsigned int flags) {
  return streamhal::hip::RuntimeCall(
      [&] { return streamhal::EnablePeerAccessToDevice(peer_device, flags); });
}

hipError_t hipDeviceDisablePeerAccess(int peer_device) {
  return streamhal::hip::RuntimeCall(
      [&] { return streamhal::DisablePeerAccessToDevice(peer_device); });
}

// AMD's answer for partitions of one package: XGMI, one hop (core says why).
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t* linktype,
                                        uint32_t* hopcount) {
  return Call([&] { return streamhal::GetPeerLink(linktype, hopcount, device1, device2); });
}

hipError_t hipDeviceGetP2PAttribute(int* value, hipDeviceP2PAttr attr, int src_device,
                                    int dst_device) {
  const streamhal::PeerAttribute attribute = ToPeerAttribute(streamhal::EnumArgument(attr));
  return Call(
      [&] { return streamhal::GetPeerAttribute(value, attribute, src_device, dst_device); });
}

hipError_t hipDeviceGetPCIBusId(char* pci_bus_id, int len, int device) {
  return Call([&] { return streamhal::GetDevicePciBusId(pci_bus_id, len, device); });
}

hipError_t hipDeviceGetByPCIBusId(int* device, const char* pci_bus_id) {
  return Call([&] { return streamhal::GetDeviceByPciBusId(device, pci_bus_id); });
}

hipError_t hipSetDevice(int device) {
  return Call([&] { return streamhal::RuntimeSetDevice(device); });
}

hipError_t hipGetDevice(int* device) {
  return Call([&] { return streamhal::RuntimeGetDevice(device); });
}

hipError_t hipSetDeviceFlags(unsigned flags) {
  return Call([&] { return streamhal::RuntimeSetDeviceFlags(flags); });
}

hipError_t hipGetDeviceFlags(unsigned int* flags) {
  return Call([&] { return streamhal::RuntimeGetDeviceFlags(flags); });
}

hipError_t hipDeviceSynchronize(void) {
  return RuntimeCall([] { return streamhal::SynchronizeCurrentContext(); });
}

hipError_t hipDeviceReset(void) {
  return Call([] { return streamhal::RuntimeResetDevice(); });
}

hipError_t hipDeviceGetLimit(size_t* value, enum hipLimit_t limit) {
  const int core_limit = ToCoreLimit(streamhal::EnumArgument(limit));
  return RuntimeCall([&] { return streamhal::GetContextLimit(value, core_limit); });
}

hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value) {
  const int core_limit = ToCoreLimit(streamhal::EnumArgument(limit));
  return RuntimeCall([&] { return streamhal::SetContextLimit(core_limit, value); });
}

hipError_t hipDeviceGetStreamPriorityRange(int* least_priority, int* greatest_priority) {
  return RuntimeCall(
      [&] { return streamhal::GetStreamPriorityRange(least_priority, greatest_priority); });
}

}  // extern "C"
