// Rows: device management through both APIs (cuDeviceGet*, hipDeviceGet*,
// hipGetDeviceProperties, peer queries, PCI bus ids, compute capability) and
// HIP's runtime device selection (hipSetDevice, hipGetDevice,
// hipDeviceSynchronize, hipDeviceReset).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using DeviceConformance = DriverTest;

TEST_F(DeviceConformance, GetGivesTheSameOrdinalsThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    CUdevice cuda_device = -1;
    hipDevice_t hip_device = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGet(&cuda_device, ordinal));
    EXPECT_HIP(hipSuccess, hipDeviceGet(&hip_device, ordinal));
    EXPECT_EQ(cuda_device, ordinal);
    EXPECT_EQ(hip_device, cuda_device);
  }
}

TEST_F(DeviceConformance, GetRejectsBadOrdinalsAndNull) {
  CUdevice cuda_device;
  hipDevice_t hip_device;
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&cuda_device, device_count()),
              hipDeviceGet(&hip_device, device_count()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGet(&cuda_device, -1),
              hipDeviceGet(&hip_device, -1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGet(nullptr, 0), hipDeviceGet(nullptr, 0));
}

TEST_F(DeviceConformance, CountIsTheSameThroughBothApis) {
  int cuda_count = 0, hip_count = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetCount(&cuda_count));
  EXPECT_HIP(hipSuccess, hipGetDeviceCount(&hip_count));
  EXPECT_EQ(cuda_count, hip_count);
  EXPECT_GE(cuda_count, 1);
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetCount(nullptr), hipGetDeviceCount(nullptr));
}

TEST_F(DeviceConformance, NameIsTheSameThroughBothApisAndTruncates) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    char cuda_name[256], hip_name[256];
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(cuda_name, sizeof(cuda_name), ordinal));
    ASSERT_HIP(hipSuccess, hipDeviceGetName(hip_name, sizeof(hip_name), ordinal));
    EXPECT_STREQ(cuda_name, hip_name);
    EXPECT_GT(std::strlen(cuda_name), 0u);
    // A short buffer gets a terminated prefix (CUDA: "up to len characters").
    char cuda_short[5], hip_short[5];
    std::memset(cuda_short, 'x', sizeof(cuda_short));
    std::memset(hip_short, 'x', sizeof(hip_short));
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(cuda_short, sizeof(cuda_short), ordinal));
    ASSERT_HIP(hipSuccess, hipDeviceGetName(hip_short, sizeof(hip_short), ordinal));
    EXPECT_EQ(std::string(cuda_short), std::string(cuda_name).substr(0, 4));
    EXPECT_STREQ(cuda_short, hip_short);
  }
}

TEST_F(DeviceConformance, NameRejectsBadArguments) {
  char name[64];
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(nullptr, 64, 0),
              hipDeviceGetName(nullptr, 64, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetName(name, 0, 0), hipDeviceGetName(name, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetName(name, 64, device_count()),
              hipDeviceGetName(name, 64, device_count()));
}

TEST_F(DeviceConformance, UuidIsTheSameThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    CUuuid cuda_uuid;
    hipUUID hip_uuid;
    std::memset(&cuda_uuid, 0, sizeof(cuda_uuid));
    std::memset(&hip_uuid, 0xff, sizeof(hip_uuid));
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&cuda_uuid, ordinal));
    ASSERT_HIP(hipSuccess, hipDeviceGetUuid(&hip_uuid, ordinal));
    EXPECT_EQ(std::memcmp(cuda_uuid.bytes, hip_uuid.bytes, 16), 0);
    const char zero[16] = {};
    EXPECT_NE(std::memcmp(cuda_uuid.bytes, zero, 16), 0) << "a UUID is never all zero";
  }
}

TEST_F(DeviceConformance, UuidRejectsBadArguments) {
  CUuuid cuda_uuid;
  hipUUID hip_uuid;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetUuid(nullptr, 0), hipDeviceGetUuid(nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetUuid(&cuda_uuid, device_count()),
              hipDeviceGetUuid(&hip_uuid, device_count()));
}

TEST_F(DeviceConformance, TotalMemoryIsTheSameThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    size_t cuda_bytes = 0, hip_bytes = 0;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceTotalMem(&cuda_bytes, ordinal));
    ASSERT_HIP(hipSuccess, hipDeviceTotalMem(&hip_bytes, ordinal));
    EXPECT_EQ(cuda_bytes, hip_bytes);
    EXPECT_GT(cuda_bytes, size_t{0});
  }
}

TEST_F(DeviceConformance, TotalMemoryRejectsBadArguments) {
  size_t bytes;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceTotalMem(nullptr, 0),
              hipDeviceTotalMem(nullptr, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceTotalMem(&bytes, device_count()),
              hipDeviceTotalMem(&bytes, device_count()));
}

struct AttributePair {
  CUdevice_attribute cuda;
  hipDeviceAttribute_t hip;
  const char* name;
};

#define SH_ATTRIBUTE(cuda, hip) \
  { CU_DEVICE_ATTRIBUTE_##cuda, hipDeviceAttribute##hip, #cuda }

constexpr AttributePair kAttributes[] = {
    SH_ATTRIBUTE(MAX_THREADS_PER_BLOCK, MaxThreadsPerBlock),
    SH_ATTRIBUTE(MAX_BLOCK_DIM_X, MaxBlockDimX),
    SH_ATTRIBUTE(MAX_BLOCK_DIM_Y, MaxBlockDimY),
    SH_ATTRIBUTE(MAX_BLOCK_DIM_Z, MaxBlockDimZ),
    SH_ATTRIBUTE(MAX_GRID_DIM_X, MaxGridDimX),
    SH_ATTRIBUTE(MAX_GRID_DIM_Y, MaxGridDimY),
    SH_ATTRIBUTE(MAX_GRID_DIM_Z, MaxGridDimZ),
    SH_ATTRIBUTE(MAX_SHARED_MEMORY_PER_BLOCK, MaxSharedMemoryPerBlock),
    SH_ATTRIBUTE(MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, MaxSharedMemoryPerMultiprocessor),
    SH_ATTRIBUTE(TOTAL_CONSTANT_MEMORY, TotalConstantMemory),
    SH_ATTRIBUTE(WARP_SIZE, WarpSize),
    SH_ATTRIBUTE(MAX_PITCH, MaxPitch),
    SH_ATTRIBUTE(MAX_REGISTERS_PER_BLOCK, MaxRegistersPerBlock),
    SH_ATTRIBUTE(CLOCK_RATE, ClockRate),
    SH_ATTRIBUTE(MEMORY_CLOCK_RATE, MemoryClockRate),
    SH_ATTRIBUTE(GLOBAL_MEMORY_BUS_WIDTH, MemoryBusWidth),
    SH_ATTRIBUTE(L2_CACHE_SIZE, L2CacheSize),
    SH_ATTRIBUTE(TEXTURE_ALIGNMENT, TextureAlignment),
    SH_ATTRIBUTE(ASYNC_ENGINE_COUNT, AsyncEngineCount),
    SH_ATTRIBUTE(MULTIPROCESSOR_COUNT, MultiprocessorCount),
    SH_ATTRIBUTE(MAX_THREADS_PER_MULTIPROCESSOR, MaxThreadsPerMultiProcessor),
    SH_ATTRIBUTE(MAX_BLOCKS_PER_MULTIPROCESSOR, MaxBlocksPerMultiProcessor),
    SH_ATTRIBUTE(INTEGRATED, Integrated),
    SH_ATTRIBUTE(CAN_MAP_HOST_MEMORY, CanMapHostMemory),
    SH_ATTRIBUTE(COMPUTE_MODE, ComputeMode),
    SH_ATTRIBUTE(CONCURRENT_KERNELS, ConcurrentKernels),
    SH_ATTRIBUTE(ECC_ENABLED, EccEnabled),
    SH_ATTRIBUTE(PCI_BUS_ID, PciBusId),
    SH_ATTRIBUTE(PCI_DEVICE_ID, PciDeviceId),
    SH_ATTRIBUTE(PCI_DOMAIN_ID, PciDomainID),
    SH_ATTRIBUTE(UNIFIED_ADDRESSING, UnifiedAddressing),
    SH_ATTRIBUTE(COMPUTE_CAPABILITY_MAJOR, ComputeCapabilityMajor),
    SH_ATTRIBUTE(COMPUTE_CAPABILITY_MINOR, ComputeCapabilityMinor),
    SH_ATTRIBUTE(STREAM_PRIORITIES_SUPPORTED, StreamPrioritiesSupported),
    SH_ATTRIBUTE(MANAGED_MEMORY, ManagedMemory),
    SH_ATTRIBUTE(COOPERATIVE_LAUNCH, CooperativeLaunch),
    SH_ATTRIBUTE(HOST_REGISTER_SUPPORTED, HostRegisterSupported),
    SH_ATTRIBUTE(MEMORY_POOLS_SUPPORTED, MemoryPoolsSupported),
};

#undef SH_ATTRIBUTE

TEST_F(DeviceConformance, AttributesAreTheSameThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    for (const AttributePair& attribute : kAttributes) {
      int cuda_value = -1, hip_value = -2;
      EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&cuda_value, attribute.cuda, ordinal))
          << attribute.name;
      EXPECT_HIP(hipSuccess, hipDeviceGetAttribute(&hip_value, attribute.hip, ordinal))
          << attribute.name;
      EXPECT_EQ(cuda_value, hip_value) << attribute.name << " of device " << ordinal;
    }
  }
}

TEST_F(DeviceConformance, AttributesDescribeAUsableDevice) {
  auto value = [](CUdevice_attribute attribute) {
    int v = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&v, attribute, 0));
    return v;
  };
  const int threads = value(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  EXPECT_GE(threads, 64);
  EXPECT_GE(value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), 64);
  EXPECT_LE(value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), threads);
  EXPECT_GE(value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), 65535);
  EXPECT_GE(value(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK), 16384);
  const int warp = value(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  EXPECT_GE(warp, 1);
  EXPECT_EQ(warp & (warp - 1), 0) << "subgroup sizes are powers of two";
  EXPECT_GE(value(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 1);
  EXPECT_GE(value(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), 1);
  // Capabilities streamhal does not provide are reported as absent.
  EXPECT_EQ(value(CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH), 0);
  // Cooperative launches across devices work wherever they work on one.
  EXPECT_EQ(value(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH),
            value(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH));
}

TEST_F(DeviceConformance, AttributeRejectsBadArguments) {
  int value = 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0),
              hipDeviceGetAttribute(nullptr, hipDeviceAttributeWarpSize, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX, 0),
              hipDeviceGetAttribute(&value, hipDeviceAttributeCudaCompatibleEnd, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetAttribute(&value, static_cast<CUdevice_attribute>(0), 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
              cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device_count()),
              hipDeviceGetAttribute(&value, hipDeviceAttributeWarpSize, device_count()));
}

TEST_F(DeviceConformance, HipPropertiesAgreeWithTheCudaQueries) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    hipDeviceProp_t props;
    ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&props, ordinal));
    auto value = [ordinal](CUdevice_attribute attribute) {
      int v = -1;
      EXPECT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&v, attribute, ordinal));
      return v;
    };
    char name[256];
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetName(name, sizeof(name), ordinal));
    EXPECT_STREQ(props.name, name);
    CUuuid uuid;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&uuid, ordinal));
    EXPECT_EQ(std::memcmp(props.uuid.bytes, uuid.bytes, 16), 0);
    size_t total = 0;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceTotalMem(&total, ordinal));
    EXPECT_EQ(props.totalGlobalMem, total);
    EXPECT_EQ(props.maxThreadsPerBlock, value(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
    EXPECT_EQ(props.maxThreadsDim[0], value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
    EXPECT_EQ(props.maxThreadsDim[1], value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y));
    EXPECT_EQ(props.maxThreadsDim[2], value(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
    EXPECT_EQ(props.maxGridSize[0], value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
    EXPECT_EQ(props.maxGridSize[1], value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
    EXPECT_EQ(props.maxGridSize[2], value(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
    EXPECT_EQ(props.warpSize, value(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
    EXPECT_EQ(props.multiProcessorCount, value(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    EXPECT_EQ(props.major, value(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
    EXPECT_EQ(props.minor, value(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    EXPECT_EQ(props.clockRate, value(CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
    EXPECT_EQ(static_cast<int>(props.sharedMemPerBlock),
              value(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    EXPECT_EQ(props.regsPerBlock, value(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
    EXPECT_EQ(props.l2CacheSize, value(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    EXPECT_EQ(props.integrated, value(CU_DEVICE_ATTRIBUTE_INTEGRATED));
    EXPECT_EQ(props.maxThreadsPerMultiProcessor,
              value(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR));
    EXPECT_EQ(props.concurrentKernels, value(CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS));
    EXPECT_EQ(props.unifiedAddressing, value(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING));
  }
}

// A hipDeviceProp_t field and the attribute that reports the same thing.
struct Twin {
  const char* field;
  long long property;
  hipDeviceAttribute_t attribute;
};

template <typename T>
Twin MakeTwin(const char* field, T property, hipDeviceAttribute_t attribute) {
  return Twin{field, static_cast<long long>(property), attribute};
}

// Every hipDeviceProp_t field with a hipDeviceAttribute_t twin holds the
// attribute's value: a program may read either (AMD's HIP tests do both).
TEST_F(DeviceConformance, HipPropertiesEqualTheirAttributeTwins) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    hipDeviceProp_t props;
    ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&props, ordinal));
#define SH_TWIN(field, attribute) MakeTwin(#field, props.field, hipDeviceAttribute##attribute)
    const Twin twins[] = {
        SH_TWIN(maxThreadsPerBlock, MaxThreadsPerBlock),
        SH_TWIN(maxThreadsDim[0], MaxBlockDimX),
        SH_TWIN(maxThreadsDim[1], MaxBlockDimY),
        SH_TWIN(maxThreadsDim[2], MaxBlockDimZ),
        SH_TWIN(maxGridSize[0], MaxGridDimX),
        SH_TWIN(maxGridSize[1], MaxGridDimY),
        SH_TWIN(maxGridSize[2], MaxGridDimZ),
        SH_TWIN(sharedMemPerBlock, MaxSharedMemoryPerBlock),
        SH_TWIN(sharedMemPerBlockOptin, SharedMemPerBlockOptin),
        SH_TWIN(sharedMemPerMultiprocessor, SharedMemPerMultiprocessor),
        SH_TWIN(maxSharedMemoryPerMultiProcessor, MaxSharedMemoryPerMultiprocessor),
        SH_TWIN(totalConstMem, TotalConstantMemory),
        SH_TWIN(warpSize, WarpSize),
        SH_TWIN(memPitch, MaxPitch),
        SH_TWIN(regsPerBlock, MaxRegistersPerBlock),
        SH_TWIN(regsPerMultiprocessor, MaxRegistersPerMultiprocessor),
        SH_TWIN(clockRate, ClockRate),
        SH_TWIN(clockInstructionRate, ClockInstructionRate),
        SH_TWIN(memoryClockRate, MemoryClockRate),
        SH_TWIN(memoryBusWidth, MemoryBusWidth),
        SH_TWIN(l2CacheSize, L2CacheSize),
        SH_TWIN(persistingL2CacheMaxSize, PersistingL2CacheMaxSize),
        SH_TWIN(textureAlignment, TextureAlignment),
        SH_TWIN(texturePitchAlignment, TexturePitchAlignment),
        SH_TWIN(deviceOverlap, DeviceOverlap),
        SH_TWIN(asyncEngineCount, AsyncEngineCount),
        SH_TWIN(multiProcessorCount, MultiprocessorCount),
        SH_TWIN(maxThreadsPerMultiProcessor, MaxThreadsPerMultiProcessor),
        SH_TWIN(maxBlocksPerMultiProcessor, MaxBlocksPerMultiProcessor),
        SH_TWIN(kernelExecTimeoutEnabled, KernelExecTimeout),
        SH_TWIN(integrated, Integrated),
        SH_TWIN(canMapHostMemory, CanMapHostMemory),
        SH_TWIN(computeMode, ComputeMode),
        SH_TWIN(concurrentKernels, ConcurrentKernels),
        SH_TWIN(ECCEnabled, EccEnabled),
        SH_TWIN(pciBusID, PciBusId),
        SH_TWIN(pciDeviceID, PciDeviceId),
        SH_TWIN(pciDomainID, PciDomainID),
        SH_TWIN(tccDriver, TccDriver),
        SH_TWIN(unifiedAddressing, UnifiedAddressing),
        SH_TWIN(major, ComputeCapabilityMajor),
        SH_TWIN(minor, ComputeCapabilityMinor),
        SH_TWIN(streamPrioritiesSupported, StreamPrioritiesSupported),
        SH_TWIN(globalL1CacheSupported, GlobalL1CacheSupported),
        SH_TWIN(localL1CacheSupported, LocalL1CacheSupported),
        SH_TWIN(managedMemory, ManagedMemory),
        SH_TWIN(isMultiGpuBoard, IsMultiGpuBoard),
        SH_TWIN(multiGpuBoardGroupID, MultiGpuBoardGroupID),
        SH_TWIN(hostNativeAtomicSupported, HostNativeAtomicSupported),
        SH_TWIN(singleToDoublePrecisionPerfRatio, SingleToDoublePrecisionPerfRatio),
        SH_TWIN(pageableMemoryAccess, PageableMemoryAccess),
        SH_TWIN(concurrentManagedAccess, ConcurrentManagedAccess),
        SH_TWIN(computePreemptionSupported, ComputePreemptionSupported),
        SH_TWIN(canUseHostPointerForRegisteredMem, CanUseHostPointerForRegisteredMem),
        SH_TWIN(cooperativeLaunch, CooperativeLaunch),
        SH_TWIN(cooperativeMultiDeviceLaunch, CooperativeMultiDeviceLaunch),
        SH_TWIN(accessPolicyMaxWindowSize, AccessPolicyMaxWindowSize),
        SH_TWIN(reservedSharedMemPerBlock, ReservedSharedMemPerBlock),
        SH_TWIN(hostRegisterSupported, HostRegisterSupported),
        SH_TWIN(memoryPoolsSupported, MemoryPoolsSupported),
        SH_TWIN(maxTexture1D, MaxTexture1DWidth),
        SH_TWIN(maxTexture1DLinear, MaxTexture1DLinear),
        SH_TWIN(maxTexture2D[0], MaxTexture2DWidth),
        SH_TWIN(maxTexture2D[1], MaxTexture2DHeight),
        SH_TWIN(maxTexture3D[0], MaxTexture3DWidth),
        SH_TWIN(maxTexture3D[1], MaxTexture3DHeight),
        SH_TWIN(maxTexture3D[2], MaxTexture3DDepth),
        SH_TWIN(isLargeBar, IsLargeBar),
        SH_TWIN(asicRevision, AsicRevision),
        SH_TWIN(cooperativeMultiDeviceUnmatchedFunc, CooperativeMultiDeviceUnmatchedFunc),
        SH_TWIN(cooperativeMultiDeviceUnmatchedGridDim, CooperativeMultiDeviceUnmatchedGridDim),
        SH_TWIN(cooperativeMultiDeviceUnmatchedBlockDim, CooperativeMultiDeviceUnmatchedBlockDim),
        SH_TWIN(cooperativeMultiDeviceUnmatchedSharedMem, CooperativeMultiDeviceUnmatchedSharedMem),
    };
#undef SH_TWIN
    for (const Twin& twin : twins) {
      int value = -1;
      ASSERT_HIP(hipSuccess, hipDeviceGetAttribute(&value, twin.attribute, ordinal)) << twin.field;
      EXPECT_EQ(twin.property, static_cast<long long>(value)) << twin.field;
    }
    // The pitch fits the int it is reported in (it was 2^31 once).
    EXPECT_GT(static_cast<int>(props.memPitch), 0);
  }
}

TEST_F(DeviceConformance, HipPropertiesRejectBadArguments) {
  hipDeviceProp_t props;
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceProperties(nullptr, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipGetDeviceProperties(&props, device_count()));
  EXPECT_HIP(hipErrorInvalidDevice, hipGetDeviceProperties(&props, -1));
}

TEST_F(DeviceConformance, ComputeCapabilityIsTheSameThroughBothApis) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    int cuda_major = -1, cuda_minor = -1, hip_major = -2, hip_minor = -2;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceComputeCapability(&cuda_major, &cuda_minor, ordinal));
    ASSERT_HIP(hipSuccess, hipDeviceComputeCapability(&hip_major, &hip_minor, ordinal));
    EXPECT_EQ(cuda_major, hip_major);
    EXPECT_EQ(cuda_minor, hip_minor);
    int attribute_major = -3, attribute_minor = -3;
    ASSERT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&attribute_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                   ordinal));
    ASSERT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&attribute_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                   ordinal));
    EXPECT_EQ(cuda_major, attribute_major);
    EXPECT_EQ(cuda_minor, attribute_minor);
  }
}

TEST_F(DeviceConformance, ComputeCapabilityRejectsBadArguments) {
  int major, minor;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceComputeCapability(nullptr, &minor, 0),
              hipDeviceComputeCapability(nullptr, &minor, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceComputeCapability(&major, &minor, device_count()),
              hipDeviceComputeCapability(&major, &minor, device_count()));
}

TEST_F(DeviceConformance, CanAccessPeerAgreesThroughBothApis) {
  // A device is never its own peer; other pairs answer alike in both APIs
  // (pairs that are peers: multi_device_test.cc).
  for (int a = 0; a < device_count(); ++a) {
    for (int b = 0; b < device_count(); ++b) {
      int cuda_can = -1, hip_can = -1;
      EXPECT_CU(CUDA_SUCCESS, cuDeviceCanAccessPeer(&cuda_can, a, b));
      EXPECT_HIP(hipSuccess, hipDeviceCanAccessPeer(&hip_can, a, b));
      EXPECT_TRUE(cuda_can == 0 || cuda_can == 1);
      if (a == b) {
        EXPECT_EQ(cuda_can, 0);
      }
      EXPECT_EQ(hip_can, cuda_can);
    }
  }
}

TEST_F(DeviceConformance, CanAccessPeerRejectsBadArguments) {
  int can;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(nullptr, 0, 0),
              hipDeviceCanAccessPeer(nullptr, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, 0, device_count()),
              hipDeviceCanAccessPeer(&can, 0, device_count()));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&can, -1, 0),
              hipDeviceCanAccessPeer(&can, -1, 0));
}

TEST_F(DeviceConformance, P2PAttributesFollowCanAccessPeerThroughBothApis) {
  // A device paired with itself is CUDA_ERROR_INVALID_DEVICE, as CUDA
  // documents; a pair of distinct devices reports access as
  // cuDeviceCanAccessPeer does.
  int cuda_value = -1, hip_value = -1;
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE,
              cuDeviceGetP2PAttribute(&cuda_value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0),
              hipDeviceGetP2PAttribute(&hip_value, hipDevP2PAttrAccessSupported, 0, 0));
  if (device_count() >= 2) {
    int can = -1;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceCanAccessPeer(&can, 0, 1));
    EXPECT_CU(CUDA_SUCCESS,
              cuDeviceGetP2PAttribute(&cuda_value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
    EXPECT_HIP(hipSuccess,
               hipDeviceGetP2PAttribute(&hip_value, hipDevP2PAttrAccessSupported, 0, 1));
    EXPECT_EQ(cuda_value, can);
    EXPECT_EQ(hip_value, can);
  }
}

TEST_F(DeviceConformance, P2PAttributesRejectBadArguments) {
  int value;
  const int other = device_count() >= 2 ? 1 : 0;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE,
              cuDeviceGetP2PAttribute(nullptr, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, other),
              hipDeviceGetP2PAttribute(nullptr, hipDevP2PAttrAccessSupported, 0, other));
  // CUDA's attributes start at 1. (Every value in the range of HIP's
  // enumeration is an attribute.)
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuDeviceGetP2PAttribute(&value, static_cast<CUdevice_P2PAttribute>(0), 0, other));
  EXPECT_BOTH(
      CUDA_ERROR_INVALID_DEVICE,
      cuDeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, device_count()),
      hipDeviceGetP2PAttribute(&value, hipDevP2PAttrAccessSupported, 0, device_count()));
}

TEST_F(DeviceConformance, PciBusIdRoundTripsWhereTheDeviceHasOne) {
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    char cuda_id[32] = {}, hip_id[32] = {};
    const CUresult cuda_result = cuDeviceGetPCIBusId(cuda_id, sizeof(cuda_id), ordinal);
    const hipError_t hip_result = hipDeviceGetPCIBusId(hip_id, sizeof(hip_id), ordinal);
    EXPECT_EQ(hip_result, HipEquivalent(cuda_result));
    if (cuda_result == CUDA_ERROR_NOT_SUPPORTED) continue;  // the limitation test's case
    ASSERT_CU(CUDA_SUCCESS, cuda_result);
    EXPECT_STREQ(cuda_id, hip_id);
    CUdevice cuda_device = -1;
    int hip_device = -1;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetByPCIBusId(&cuda_device, cuda_id));
    ASSERT_HIP(hipSuccess, hipDeviceGetByPCIBusId(&hip_device, hip_id));
    EXPECT_EQ(cuda_device, ordinal);
    EXPECT_EQ(hip_device, ordinal);
  }
}

TEST_F(DeviceConformance, PciBusIdIsNotSupportedWithoutAPciAddress) {
  ProvesLimitation();
  // The bus id comes from the Vulkan driver (VK_EXT_pci_bus_info). A device
  // without one (lavapipe) reports CUDA_ERROR_NOT_SUPPORTED through both
  // APIs, and a lookup by id never finds it.
  for (int ordinal = 0; ordinal < device_count(); ++ordinal) {
    char id[32];
    const CUresult cuda_result = cuDeviceGetPCIBusId(id, sizeof(id), ordinal);
    if (cuda_result != CUDA_ERROR_NOT_SUPPORTED) {
      EXPECT_CU(CUDA_SUCCESS, cuda_result);
      continue;
    }
    EXPECT_HIP(hipErrorNotSupported, hipDeviceGetPCIBusId(id, sizeof(id), ordinal));
    int domain = -1, bus = -1, device = -1;
    ASSERT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, ordinal));
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, ordinal));
    ASSERT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&device, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, ordinal));
    char guess[32];
    std::snprintf(guess, sizeof(guess), "%04x:%02x:%02x.0", domain, bus, device);
    CUdevice cuda_found = -1;
    int hip_found = -1;
    if (cuDeviceGetByPCIBusId(&cuda_found, guess) == CUDA_SUCCESS) {
      EXPECT_NE(cuda_found, ordinal) << guess;
    }
    if (hipDeviceGetByPCIBusId(&hip_found, guess) == hipSuccess) {
      EXPECT_NE(hip_found, ordinal) << guess;
    }
  }
}

TEST_F(DeviceConformance, PciBusIdRejectsBadArguments) {
  char id[32];
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(nullptr, 32, 0),
              hipDeviceGetPCIBusId(nullptr, 32, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(id, 0, 0),
              hipDeviceGetPCIBusId(id, 0, 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(id, 32, device_count()),
              hipDeviceGetPCIBusId(id, 32, device_count()));
  CUdevice cuda_device;
  int hip_device;
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&cuda_device, "not a bus id"),
              hipDeviceGetByPCIBusId(&hip_device, "not a bus id"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(nullptr, "0000:01:00.0"),
              hipDeviceGetByPCIBusId(nullptr, "0000:01:00.0"));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&cuda_device, nullptr),
              hipDeviceGetByPCIBusId(&hip_device, nullptr));
  // PCI domain 0x7fff is not one a machine assigns to its devices.
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetByPCIBusId(&cuda_device, "7fff:fe:1f.7"),
              hipDeviceGetByPCIBusId(&hip_device, "7fff:fe:1f.7"));
}

using RuntimeDeviceConformance = DriverTest;

TEST_F(RuntimeDeviceConformance, SetDeviceMakesThePrimaryContextCurrent) {
  for (int ordinal = device_count() - 1; ordinal >= 0; --ordinal) {
    ASSERT_HIP(hipSuccess, hipSetDevice(ordinal));
    int device = -1;
    ASSERT_HIP(hipSuccess, hipGetDevice(&device));
    EXPECT_EQ(device, ordinal);
    // The runtime's context is the device's primary context, as the CUDA
    // driver API sees it.
    CUcontext primary = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, ordinal));
    EXPECT_EQ(Object(CudaCurrent()), Object(primary));
    EXPECT_EQ(Object(HipCurrent()), Object(primary));
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(ordinal));
    CUdevice context_device = -1;
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetDevice(&context_device));
    EXPECT_EQ(context_device, ordinal);
  }
}

TEST_F(RuntimeDeviceConformance, GetDeviceDefaultsToZeroAndFollowsTheCurrentContext) {
  int device = -1;
  ASSERT_HIP(hipSuccess, hipGetDevice(&device));
  EXPECT_EQ(device, 0);
  const int last = device_count() - 1;
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, last));
  ASSERT_HIP(hipSuccess, hipGetDevice(&device));
  EXPECT_EQ(device, last);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(RuntimeDeviceConformance, SetAndGetDeviceRejectBadArguments) {
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(device_count()));
  EXPECT_HIP(hipErrorInvalidDevice, hipSetDevice(-1));
  EXPECT_HIP(hipErrorInvalidValue, hipGetDevice(nullptr));
  // A rejected hipSetDevice changes nothing.
  int device = -1;
  ASSERT_HIP(hipSuccess, hipGetDevice(&device));
  EXPECT_EQ(device, 0);
  EXPECT_EQ(CudaCurrent(), nullptr);
}

TEST_F(RuntimeDeviceConformance, DeviceSynchronizeBringsUpThePrimaryContext) {
  EXPECT_EQ(CudaCurrent(), nullptr);
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  EXPECT_EQ(Object(HipCurrent()), Object(primary));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
  // It also synchronises a context made through the CUDA API.
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, 0));
  EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(RuntimeDeviceConformance, DeviceSynchronizeReportsADestroyedCurrentContext) {
  CUcontext below = nullptr, top = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&below, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&top, 0, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(below));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  // `below` is current again but destroyed.
  EXPECT_BOTH(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize(), hipDeviceSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(top));
}

TEST_F(RuntimeDeviceConformance, DeviceResetDestroysThePrimaryContext) {
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  const hipCtx_t before = HipCurrent();
  ASSERT_NE(before, nullptr);
  unsigned flags = 0;
  int active = 0;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 1);
  ASSERT_HIP(hipSuccess, hipDeviceReset());
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 0);
  // The old handle is dead for both APIs.
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxPushCurrent(reinterpret_cast<CUcontext>(before)),
              hipCtxPushCurrent(before));
  // The next runtime call brings up a fresh primary context.
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &flags, &active));
  EXPECT_EQ(active, 1);
}

}  // namespace
}  // namespace streamhal::conformance
