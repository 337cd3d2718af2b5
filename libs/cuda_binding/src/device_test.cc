#include <cuda.h>

#include <array>
#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace {

class CudaDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cuInit(0), CUDA_SUCCESS); }
  void TearDown() override { ASSERT_EQ(cuHALDeinit(), CUDA_SUCCESS); }

  int Attribute(CUdevice_attribute attribute) {
    int value = -1;
    EXPECT_EQ(cuDeviceGetAttribute(&value, attribute, 0), CUDA_SUCCESS);
    return value;
  }
};

TEST_F(CudaDeviceTest, GetValidatesOrdinal) {
  CUdevice device = -1;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  EXPECT_EQ(device, 0);
  int count = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  EXPECT_EQ(cuDeviceGet(&device, count), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGet(&device, -1), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGet(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetCount(nullptr), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaDeviceTest, NameIsTruncatedAndTerminated) {
  char full[256];
  ASSERT_EQ(cuDeviceGetName(full, sizeof(full), 0), CUDA_SUCCESS);
  char small[5];
  std::memset(small, 'x', sizeof(small));
  ASSERT_EQ(cuDeviceGetName(small, sizeof(small), 0), CUDA_SUCCESS);
  EXPECT_EQ(std::string(small), std::string(full).substr(0, 4));
  EXPECT_EQ(cuDeviceGetName(nullptr, 10, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetName(full, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetName(full, sizeof(full), 99), CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaDeviceTest, UuidAndMemoryAreReal) {
  CUuuid uuid;
  std::memset(&uuid, 0, sizeof(uuid));
  ASSERT_EQ(cuDeviceGetUuid(&uuid, 0), CUDA_SUCCESS);
  std::array<char, 16> zero{};
  EXPECT_NE(std::memcmp(uuid.bytes, zero.data(), 16), 0);
  size_t bytes = 0;
  ASSERT_EQ(cuDeviceTotalMem(&bytes, 0), CUDA_SUCCESS);
  EXPECT_GT(bytes, size_t{64} << 20);
  EXPECT_EQ(cuDeviceGetUuid(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceTotalMem(nullptr, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(CudaDeviceTest, AttributesComeFromTheDevice) {
  const int threads = Attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  EXPECT_GE(threads, 64);
  EXPECT_GE(Attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), 64);
  EXPECT_LE(Attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X), threads);
  EXPECT_GE(Attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), 65535);
  EXPECT_GE(Attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK), 16384);
  const int warp = Attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  EXPECT_GE(warp, 1);
  EXPECT_EQ(warp & (warp - 1), 0) << "subgroup sizes are powers of two";
  EXPECT_GE(Attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 1);
  EXPECT_EQ(Attribute(CU_DEVICE_ATTRIBUTE_INTEGRATED), 1) << "lavapipe runs on the host";
  EXPECT_GE(Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), 1);
  // lavapipe's host-visible memory has one address on host and device, and
  // host memory it imports sits at its host address: managed memory, pools
  // and virtual memory management all work there.
  EXPECT_EQ(Attribute(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY), 1);
  EXPECT_EQ(Attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED), 1);
  EXPECT_EQ(Attribute(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), 1);
}

TEST_F(CudaDeviceTest, ComputeCapabilityMatchesAttributes) {
  int major = 0, minor = -1;
  ASSERT_EQ(cuDeviceComputeCapability(&major, &minor, 0), CUDA_SUCCESS);
  EXPECT_EQ(major, Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
  EXPECT_EQ(minor, Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
}

TEST_F(CudaDeviceTest, BadAttributeArguments) {
  int value = 0;
  EXPECT_EQ(cuDeviceGetAttribute(nullptr, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetAttribute(&value, static_cast<CUdevice_attribute>(0), 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 42),
            CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaDeviceTest, PeerQueries) {
  int can = -1;
  ASSERT_EQ(cuDeviceCanAccessPeer(&can, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(can, 0);
  EXPECT_EQ(cuDeviceCanAccessPeer(nullptr, 0, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceCanAccessPeer(&can, 0, 77), CUDA_ERROR_INVALID_DEVICE);
  int value = -1;
  EXPECT_EQ(cuDeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0),
            CUDA_ERROR_INVALID_DEVICE);
}

TEST_F(CudaDeviceTest, PciBusIdRoundTripsWhenReported) {
  char bus_id[32];
  const CUresult result = cuDeviceGetPCIBusId(bus_id, sizeof(bus_id), 0);
  if (result == CUDA_ERROR_NOT_SUPPORTED) {
    // lavapipe has no PCI address; the lookup of any id then fails.
    CUdevice device;
    EXPECT_EQ(cuDeviceGetByPCIBusId(&device, "0000:01:00.0"), CUDA_ERROR_INVALID_DEVICE);
  } else {
    ASSERT_EQ(result, CUDA_SUCCESS);
    CUdevice device = -1;
    ASSERT_EQ(cuDeviceGetByPCIBusId(&device, bus_id), CUDA_SUCCESS);
    EXPECT_EQ(device, 0);
  }
  CUdevice device;
  EXPECT_EQ(cuDeviceGetByPCIBusId(&device, "not a bus id"), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetByPCIBusId(nullptr, "0000:01:00.0"), CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
