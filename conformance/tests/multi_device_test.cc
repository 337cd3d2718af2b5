// Several devices on one machine: STREAMHAL_VK_DEVICES_PER_GPU presents each
// physical device as N devices (each its own VkDevice), and
// CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES pick and order the devices as
// NVIDIA and AMD document. Rows: cuDeviceGetCount, cuDeviceGet,
// cuDeviceGetUuid (visibility is how a user meets them on a shared machine).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

// Sets an environment variable for the life of the object, restoring the
// previous value (or its absence) after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = std::string(old);
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_.has_value()) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

struct Seen {
  std::array<uint8_t, 16> uuid;
  int backend_index;
  int partition;
  std::string name;
};

// Initialises the driver afresh and describes every device it presents.
std::vector<Seen> Enumerate() {
  (void)cuHALDeinit();
  std::vector<Seen> seen;
  if (cuInit(0) != CUDA_SUCCESS) return seen;
  int count = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDeviceGetCount(&count));
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGet(&device, i));
    Seen s{};
    CUuuid uuid;
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetUuid(&uuid, device));
    std::memcpy(s.uuid.data(), uuid.bytes, 16);
    EXPECT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&s.backend_index, CU_DEVICE_ATTRIBUTE_HAL_BACKEND_DEVICE_INDEX,
                                   device));
    EXPECT_CU(CUDA_SUCCESS,
              cuDeviceGetAttribute(&s.partition, CU_DEVICE_ATTRIBUTE_HAL_PARTITION, device));
    char name[256] = {};
    EXPECT_CU(CUDA_SUCCESS, cuDeviceGetName(name, sizeof(name), device));
    s.name = name;
    // HIP sees the same list.
    hipUUID hip_uuid;
    EXPECT_EQ(hipSuccess, hipDeviceGetUuid(&hip_uuid, i));
    EXPECT_EQ(0, std::memcmp(hip_uuid.bytes, uuid.bytes, 16)) << "device " << i;
    seen.push_back(s);
  }
  int hip_count = 0;
  EXPECT_EQ(hipSuccess, hipGetDeviceCount(&hip_count));
  EXPECT_EQ(hip_count, count);
  return seen;
}

std::string UuidText(const std::array<uint8_t, 16>& uuid) {
  std::string out = "GPU-";
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    out += kHex[uuid[i] >> 4];
    out += kHex[uuid[i] & 15];
    if (i == 3 || i == 5 || i == 7 || i == 9) out += '-';
  }
  return out;
}

// Runs vector_add on `device` in a context of its own; true when the sums
// are right.
bool VectorAddWorksOn(CUdevice device) {
  CUcontext context = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuCtxCreate(&context, 0, device));
  if (context == nullptr) return false;
  CUmodule module = nullptr;
  CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
  constexpr uint32_t kN = 1000;
  std::vector<float> a(kN), b(kN), c(kN, -1.0f);
  for (uint32_t i = 0; i < kN; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(3 * i + static_cast<uint32_t>(device));
  }
  CUdeviceptr da = 0, db = 0, dc = 0;
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&da, kN * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&db, kN * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&dc, kN * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(da, a.data(), kN * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(db, b.data(), kN * 4));
  uint32_t n = kN;
  void* params[] = {&da, &db, &dc, &n};
  EXPECT_CU(CUDA_SUCCESS,
            cuLaunchKernel(function, (kN + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(c.data(), dc, kN * 4));
  bool right = function != nullptr;
  for (uint32_t i = 0; i < kN; ++i) right = right && c[i] == a[i] + b[i];
  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dc);
  if (module != nullptr) cuModuleUnload(module);
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  return right;
}

class MultiDeviceConformance : public UninitializedTest {
 protected:
  ScopedEnv no_cuda_{"CUDA_VISIBLE_DEVICES", nullptr};
  ScopedEnv no_hip_{"HIP_VISIBLE_DEVICES", nullptr};
  ScopedEnv no_split_{"STREAMHAL_VK_DEVICES_PER_GPU", nullptr};
};

TEST_F(MultiDeviceConformance, DevicesPerGpuPresentsEachPhysicalDeviceAsSeveral) {
  const std::vector<Seen> single = Enumerate();
  ASSERT_GE(single.size(), 1u);
  std::vector<Seen> split;
  {
    ScopedEnv two("STREAMHAL_VK_DEVICES_PER_GPU", "2");
    split = Enumerate();
    ASSERT_EQ(split.size(), 2 * single.size());
    for (size_t i = 0; i < single.size(); ++i) {
      const Seen& first = split[2 * i];
      const Seen& second = split[2 * i + 1];
      EXPECT_EQ(first.name, single[i].name);
      EXPECT_EQ(second.name, single[i].name);
      EXPECT_EQ(first.backend_index, single[i].backend_index);
      EXPECT_EQ(second.backend_index, single[i].backend_index);
      EXPECT_EQ(first.partition, 0);
      EXPECT_EQ(second.partition, 1);
      EXPECT_EQ(first.uuid, single[i].uuid);  // partition 0 keeps the driver's UUID
      EXPECT_NE(second.uuid, first.uuid);
    }
    // Each partition is a device of its own: contexts, memory and kernels.
    EXPECT_TRUE(VectorAddWorksOn(0));
    EXPECT_TRUE(VectorAddWorksOn(1));
  }
  // Bad values present each device once (with a warning), and the process
  // goes on.
  {
    ScopedEnv bad("STREAMHAL_VK_DEVICES_PER_GPU", "lots");
    EXPECT_EQ(Enumerate().size(), single.size());
  }
  EXPECT_EQ(Enumerate().size(), single.size());
  (void)cuHALDeinit();
}

TEST_F(MultiDeviceConformance, VisibleDevicesSelectAndOrderByOrdinalAndUuid) {
  ScopedEnv two("STREAMHAL_VK_DEVICES_PER_GPU", "2");
  const std::vector<Seen> all = Enumerate();
  ASSERT_GE(all.size(), 2u);
  {
    ScopedEnv visible("CUDA_VISIBLE_DEVICES", "1");
    const std::vector<Seen> seen = Enumerate();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].uuid, all[1].uuid);
    EXPECT_EQ(seen[0].partition, 1);
    EXPECT_TRUE(VectorAddWorksOn(0));
  }
  {
    ScopedEnv visible("CUDA_VISIBLE_DEVICES", "1,0");
    const std::vector<Seen> seen = Enumerate();
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0].uuid, all[1].uuid);
    EXPECT_EQ(seen[1].uuid, all[0].uuid);
  }
  {
    // A UUID prefix, in the form nvidia-smi prints it.
    const std::string uuid = UuidText(all[1].uuid);
    ScopedEnv visible("CUDA_VISIBLE_DEVICES", uuid.c_str());
    const std::vector<Seen> seen = Enumerate();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].uuid, all[1].uuid);
  }
  {
    // An invalid entry hides it and everything after it.
    ScopedEnv visible("CUDA_VISIBLE_DEVICES", "0,99,1");
    const std::vector<Seen> seen = Enumerate();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].uuid, all[0].uuid);
  }
  {
    // HIP's setting wins over CUDA's: one device list serves both APIs.
    ScopedEnv cuda("CUDA_VISIBLE_DEVICES", "0");
    ScopedEnv hip("HIP_VISIBLE_DEVICES", "1");
    const std::vector<Seen> seen = Enumerate();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0].uuid, all[1].uuid);
  }
  (void)cuHALDeinit();
}

TEST_F(MultiDeviceConformance, HidingEveryDeviceIsNoDeviceAndRecoverable) {
  for (const char* spec : {"-1", "", "GPU-nothing-like-it"}) {
    SCOPED_TRACE(spec);
    {
      ScopedEnv visible("CUDA_VISIBLE_DEVICES", spec);
      (void)cuHALDeinit();
      EXPECT_CU(CUDA_ERROR_NO_DEVICE, cuInit(0));
      int count = -1;
      EXPECT_CU(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&count));
      EXPECT_EQ(hipErrorNoDevice, hipGetDeviceCount(&count));
    }
    // Nothing is lost: with the setting gone, the devices are back.
    EXPECT_GE(Enumerate().size(), 1u);
  }
  (void)cuHALDeinit();
}

// Two devices (one lavapipe device presented twice), a context on each.
class PeerCopyConformance : public MultiDeviceConformance {
 protected:
  void SetUp() override {
    MultiDeviceConformance::SetUp();
    (void)cuHALDeinit();
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    int count = 0;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&count));
    ASSERT_GE(count, 2);
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&ctx1_, 0, 1));
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&ctx0_, 0, 0));  // current
  }
  void TearDown() override {
    if (ctx0_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(ctx0_));
    }
    if (ctx1_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(ctx1_));
    }
    MultiDeviceConformance::TearDown();
  }

  CUdeviceptr AllocIn(CUcontext context, size_t bytes) {
    EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context));
    CUdeviceptr pointer = 0;
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&pointer, bytes));
    CUcontext popped = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
    return pointer;
  }
  std::vector<uint32_t> Read(CUcontext context, CUdeviceptr pointer, size_t count) {
    std::vector<uint32_t> out(count, 0xdeadbeef);
    EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context));
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(out.data(), pointer, count * 4));
    CUcontext popped = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
    return out;
  }
  void Write(CUcontext context, CUdeviceptr pointer, const std::vector<uint32_t>& values) {
    EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context));
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(pointer, values.data(), values.size() * 4));
    CUcontext popped = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  }

  ScopedEnv split_{"STREAMHAL_VK_DEVICES_PER_GPU", "2"};
  CUcontext ctx0_ = nullptr;
  CUcontext ctx1_ = nullptr;
};

std::vector<uint32_t> Pattern(size_t count, uint32_t seed) {
  std::vector<uint32_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(i * 2654435761u) ^ seed;
  return values;
}

TEST_F(PeerCopyConformance, CudaPeerCopiesMoveBytesBothWays) {
  constexpr size_t kCount = 1 << 16;
  const CUdeviceptr on0 = AllocIn(ctx0_, kCount * 4);
  const CUdeviceptr on1 = AllocIn(ctx1_, kCount * 4);
  const std::vector<uint32_t> first = Pattern(kCount, 1), second = Pattern(kCount, 2);
  Write(ctx0_, on0, first);
  // Synchronous; ctx0 is current.
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyPeer(on1, ctx1_, on0, ctx0_, kCount * 4));
  EXPECT_EQ(Read(ctx1_, on1, kCount), first);
  // Async in a stream of device 1, after a copy of device 1 in that stream:
  // ordered behind it.
  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoDAsync(on1, second.data(), kCount * 4, stream));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyPeerAsync(on0 + 4, ctx0_, on1, ctx1_, (kCount - 1) * 4, stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  CUcontext popped = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  std::vector<uint32_t> expected = first;
  for (size_t i = 1; i < kCount; ++i) expected[i] = second[i - 1];
  EXPECT_EQ(Read(ctx0_, on0, kCount), expected);
  // Unified addressing: cuMemcpy and cuMemcpyDtoD infer nothing about
  // devices and still copy between them, from either side.
  Write(ctx0_, on0, first);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpy(on1, on0, kCount * 4));
  EXPECT_EQ(Read(ctx1_, on1, kCount), first);
  Write(ctx1_, on1, second);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoD(on0, on1, kCount * 4));
  EXPECT_EQ(Read(ctx0_, on0, kCount), second);
  // Host copies to and from the other device's memory, from ctx0.
  std::vector<uint32_t> back(kCount, 0);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(on1, first.data(), kCount * 4));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(back.data(), on1, kCount * 4));
  EXPECT_EQ(back, first);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyPeer(on0, ctx0_, on1, ctx1_, 0));  // nothing to do
  cuMemFree(on0);
  cuMemFree(on1);
}

// cuMemcpy3DPeer checks that each device end is memory of its context's
// device; a 3-D copy between two devices is a documented limitation (the
// 1-D cuMemcpyPeer crosses devices).
TEST_F(PeerCopyConformance, ThreeDimensionalPeerCopiesStayOnOneDevice) {
  ProvesLimitation();
  constexpr size_t kCount = 256;
  const CUdeviceptr on0 = AllocIn(ctx0_, kCount * 4);
  const CUdeviceptr on1 = AllocIn(ctx1_, kCount * 4);
  Write(ctx0_, on0, Pattern(kCount, 3));
  Write(ctx1_, on1, std::vector<uint32_t>(kCount, 0));
  CUDA_MEMCPY3D_PEER copy = {};
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = on0;
  copy.srcContext = ctx0_;
  copy.srcPitch = 64;
  copy.srcHeight = 4;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = on1;
  copy.dstContext = ctx1_;
  copy.dstPitch = 64;
  copy.dstHeight = 4;
  copy.WidthInBytes = 64;
  copy.Height = 4;
  copy.Depth = 4;
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemcpy3DPeer(&copy));
  EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuMemcpy3DPeerAsync(&copy, nullptr));
  // A context that is not the memory's: invalid.
  copy.dstContext = ctx0_;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(&copy));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  EXPECT_EQ(Read(ctx1_, on1, kCount), std::vector<uint32_t>(kCount, 0));
}

TEST_F(PeerCopyConformance, HipPeerCopiesMoveBytesBothWays) {
  constexpr size_t kCount = 4096;
  const CUdeviceptr on0 = AllocIn(ctx0_, kCount * 4);
  const CUdeviceptr on1 = AllocIn(ctx1_, kCount * 4);
  const std::vector<uint32_t> first = Pattern(kCount, 3), second = Pattern(kCount, 4);
  Write(ctx1_, on1, first);
  EXPECT_EQ(hipSuccess, hipMemcpyPeer(AsHipPointer(on0), 0, AsHipPointer(on1), 1, kCount * 4));
  EXPECT_EQ(Read(ctx0_, on0, kCount), first);
  Write(ctx0_, on0, second);
  hipStream_t stream = nullptr;
  ASSERT_EQ(hipSuccess, hipStreamCreate(&stream));
  EXPECT_EQ(hipSuccess,
            hipMemcpyPeerAsync(AsHipPointer(on1), 1, AsHipPointer(on0), 0, kCount * 4, stream));
  EXPECT_EQ(hipSuccess, hipStreamSynchronize(stream));
  EXPECT_EQ(hipSuccess, hipStreamDestroy(stream));
  EXPECT_EQ(Read(ctx1_, on1, kCount), second);
  cuMemFree(on0);
  cuMemFree(on1);
}

TEST_F(PeerCopyConformance, PeerCopiesRejectBadArgumentsAndLoseNothing) {
  constexpr size_t kCount = 256;
  const CUdeviceptr on0 = AllocIn(ctx0_, kCount * 4);
  const CUdeviceptr on1 = AllocIn(ctx1_, kCount * 4);
  const std::vector<uint32_t> first = Pattern(kCount, 5);
  Write(ctx0_, on0, first);
  Write(ctx1_, on1, std::vector<uint32_t>(kCount, 7));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyPeer(on1, nullptr, on0, ctx0_, kCount * 4));
  EXPECT_CU(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyPeer(on1, ctx1_, on0, nullptr, kCount * 4));
  // A pointer that is not memory of its context's device.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(on1, ctx0_, on0, ctx0_, kCount * 4));
  // Past the end of an allocation; not device memory at all.
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(on1, ctx1_, on0, ctx0_, kCount * 4 + 4));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(on1, ctx1_, 0, ctx0_, 4));
  EXPECT_EQ(hipErrorInvalidDevice,
            hipMemcpyPeer(AsHipPointer(on1), 99, AsHipPointer(on0), 0, kCount * 4));
  EXPECT_EQ(hipErrorInvalidDevice,
            hipMemcpyPeer(AsHipPointer(on1), 1, AsHipPointer(on0), -1, kCount * 4));
  EXPECT_EQ(Read(ctx1_, on1, kCount), std::vector<uint32_t>(kCount, 7));
  // Nothing was lost: a good copy still works.
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyPeer(on1, ctx1_, on0, ctx0_, kCount * 4));
  EXPECT_EQ(Read(ctx1_, on1, kCount), first);
  cuMemFree(on0);
  cuMemFree(on1);
}

// A stream of device 1 waits for an event of device 0: the copy after the
// wait sees everything the kernels before the event wrote, though the
// kernels take long enough that an unordered copy would not.
TEST_F(PeerCopyConformance, StreamsWaitForEventsOfAnotherDevice) {
  constexpr uint32_t kCount = 1 << 22;
  constexpr int kLaunches = 8;
  const CUdeviceptr on0 = AllocIn(ctx0_, kCount * 4);
  const CUdeviceptr on1 = AllocIn(ctx1_, kCount * 4);
  std::vector<float> ones(kCount, 1.0f);
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyHtoD(on0, ones.data(), kCount * 4));
  CUmodule module = nullptr;
  CUfunction scale = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module);
  ASSERT_NE(scale, nullptr);
  CUstream stream0 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream0, CU_STREAM_NON_BLOCKING));
  CUevent done = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
  float factor = 1.0f, offset = 1.0f;
  uint32_t n = kCount;
  CUdeviceptr data = on0;
  void* params[] = {&data, &factor, &offset, &n};
  for (int i = 0; i < kLaunches; ++i) {
    EXPECT_CU(CUDA_SUCCESS,
              cuLaunchKernel(scale, kCount / 256, 1, 1, 256, 1, 1, 0, stream0, params, nullptr));
  }
  EXPECT_CU(CUDA_SUCCESS, cuEventRecord(done, stream0));

  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  CUstream stream1 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream1, CU_STREAM_NON_BLOCKING));
  EXPECT_CU(CUDA_SUCCESS, cuStreamWaitEvent(stream1, done, 0));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyPeerAsync(on1, ctx1_, on0, ctx0_, kCount * 4, stream1));
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream1));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream1));
  CUcontext popped = nullptr;
  EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));

  std::vector<float> result(kCount, 0.0f);
  EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(result.data(), on1, kCount * 4));
  EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  size_t wrong = 0;
  for (float value : result) wrong += value != 1.0f + kLaunches;
  EXPECT_EQ(wrong, 0u);
  EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream0));
  EXPECT_CU(CUDA_SUCCESS, cuEventDestroy(done));
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream0));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
  cuMemFree(on0);
  cuMemFree(on1);
}

// --- Peer access: partitions of one physical device import each other's
// memory at the same device addresses, so a kernel on device 1 uses a
// CUdeviceptr of device 0 directly once access is enabled.

hipCtx_t AsHip(CUcontext context) { return reinterpret_cast<hipCtx_t>(context); }

class PeerAccessConformance : public PeerCopyConformance {
 protected:
  // c = a + b by vector_add, launched in `context` (a module of its own).
  void VectorAddIn(CUcontext context, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, uint32_t n) {
    ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(context));
    CUmodule module = nullptr;
    CUfunction function = LoadCudaKernel(kVectorAddGlsl, "vector_add", &module);
    EXPECT_NE(function, nullptr);
    void* params[] = {&a, &b, &c, &n};
    EXPECT_CU(CUDA_SUCCESS,
              cuLaunchKernel(function, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
    EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    if (module != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
    }
    CUcontext popped = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  }
  std::vector<float> ReadFloats(CUcontext context, CUdeviceptr pointer, size_t count) {
    std::vector<uint32_t> bits = Read(context, pointer, count);
    std::vector<float> out(count);
    std::memcpy(out.data(), bits.data(), count * 4);
    return out;
  }
  void WriteFloats(CUcontext context, CUdeviceptr pointer, const std::vector<float>& values) {
    std::vector<uint32_t> bits(values.size());
    std::memcpy(bits.data(), values.data(), values.size() * 4);
    Write(context, pointer, bits);
  }
};

TEST_F(PeerAccessConformance, PartitionsOfOneDeviceArePeersThroughBothApis) {
  for (int a = 0; a < 2; ++a) {
    for (int b = 0; b < 2; ++b) {
      int cuda_can = -1, hip_can = -1, cuda_attr = -1, hip_attr = -1;
      EXPECT_CU(CUDA_SUCCESS, cuDeviceCanAccessPeer(&cuda_can, a, b));
      EXPECT_HIP(hipSuccess, hipDeviceCanAccessPeer(&hip_can, a, b));
      // A device is not its own peer.
      EXPECT_EQ(cuda_can, a != b ? 1 : 0) << a << " -> " << b;
      EXPECT_EQ(hip_can, cuda_can);
      if (a == b) continue;
      EXPECT_CU(CUDA_SUCCESS, cuDeviceGetP2PAttribute(
                                  &cuda_attr, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, a, b));
      EXPECT_HIP(hipSuccess,
                 hipDeviceGetP2PAttribute(&hip_attr, hipDevP2PAttrAccessSupported, a, b));
      EXPECT_EQ(cuda_attr, 1);
      EXPECT_EQ(hip_attr, 1);
      EXPECT_CU(CUDA_SUCCESS, cuDeviceGetP2PAttribute(
                                  &cuda_attr, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, a, b));
      EXPECT_EQ(cuda_attr, 0);
    }
  }
}

// hipExtGetLinkTypeAndHopCount: the partitions of one device are one hop
// apart over the link AMD reports between partitions of one package, XGMI
// (hsa_amd_link_info_type_t value 4), in both directions.
TEST_F(PeerAccessConformance, HipLinkTypeAndHopCountDescribeThePartitionLink) {
  constexpr uint32_t kXgmi = 4;  // HSA_AMD_LINK_INFO_TYPE_XGMI
  for (int a = 0; a < 2; ++a) {
    const int b = 1 - a;
    uint32_t link_type = 99, hop_count = 99;
    EXPECT_HIP(hipSuccess, hipExtGetLinkTypeAndHopCount(a, b, &link_type, &hop_count));
    EXPECT_EQ(link_type, kXgmi) << a << " -> " << b;
    EXPECT_EQ(hop_count, 1u) << a << " -> " << b;
  }
}

// Bad ordinals are hipErrorInvalidDevice, null outputs and a device paired
// with itself hipErrorInvalidValue; nothing is written on failure.
TEST_F(PeerAccessConformance, HipLinkTypeAndHopCountRejectBadArguments) {
  uint32_t link_type = 99, hop_count = 99;
  EXPECT_HIP(hipErrorInvalidDevice, hipExtGetLinkTypeAndHopCount(-1, 0, &link_type, &hop_count));
  EXPECT_HIP(hipErrorInvalidDevice, hipExtGetLinkTypeAndHopCount(0, -1, &link_type, &hop_count));
  EXPECT_HIP(hipErrorInvalidDevice, hipExtGetLinkTypeAndHopCount(2, 0, &link_type, &hop_count));
  EXPECT_HIP(hipErrorInvalidDevice, hipExtGetLinkTypeAndHopCount(0, 9999, &link_type, &hop_count));
  EXPECT_HIP(hipErrorInvalidValue, hipExtGetLinkTypeAndHopCount(0, 1, nullptr, &hop_count));
  EXPECT_HIP(hipErrorInvalidValue, hipExtGetLinkTypeAndHopCount(0, 1, &link_type, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipExtGetLinkTypeAndHopCount(0, 1, nullptr, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipExtGetLinkTypeAndHopCount(1, 1, &link_type, &hop_count));
  EXPECT_EQ(link_type, 99u);
  EXPECT_EQ(hop_count, 99u);
}

// Memory of device 0 allocated before and after enabling (pool blocks and a
// block of its own) is read and written by a kernel of device 1.
TEST_F(PeerAccessConformance, KernelsOfOneDeviceUsePeerMemoryOnceEnabled) {
  constexpr uint32_t kN = 4096;
  constexpr size_t kLarge = 48u << 20;            // above half a pool block: a block of its own
  const CUdeviceptr a0 = AllocIn(ctx0_, kN * 4);  // before enabling
  const CUdeviceptr b1 = AllocIn(ctx1_, kN * 4);
  std::vector<float> a = Iota(kN, 1.0f), b = Iota(kN, 3.0f);
  WriteFloats(ctx0_, a0, a);
  WriteFloats(ctx1_, b1, b);

  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  EXPECT_CU(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0_, 0));
  EXPECT_CU(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cuCtxEnablePeerAccess(ctx0_, 0));
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));

  const CUdeviceptr c0 = AllocIn(ctx0_, kN * 4);    // after enabling
  const CUdeviceptr big0 = AllocIn(ctx0_, kLarge);  // after enabling, dedicated
  // Device 1 reads device 0's a0 and writes device 0's c0.
  VectorAddIn(ctx1_, a0, b1, c0, kN);
  std::vector<float> c = ReadFloats(ctx0_, c0, kN);
  size_t wrong = 0;
  for (uint32_t i = 0; i < kN; ++i) wrong += c[i] != a[i] + b[i];
  EXPECT_EQ(wrong, 0u);
  // ... and the far end of the large allocation.
  const CUdeviceptr tail = big0 + kLarge - kN * 4;
  VectorAddIn(ctx1_, c0, a0, tail, kN);
  c = ReadFloats(ctx0_, tail, kN);
  wrong = 0;
  for (uint32_t i = 0; i < kN; ++i) wrong += c[i] != 2 * a[i] + b[i];
  EXPECT_EQ(wrong, 0u);

  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx0_));
  EXPECT_CU(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(ctx0_));
  // Enabled again, and left enabled: destroying the contexts drops it.
  EXPECT_CU(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx0_, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(big0));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(c0));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(a0));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(b1));
}

// Access is one way (CUDA: enabling lets the current context reach the
// peer's memory), per context pair, and refused for the context itself.
TEST_F(PeerAccessConformance, EnablingIsPerDirectionAndRejectsBadArguments) {
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  EXPECT_BOTH(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(ctx0_, 1),
              hipCtxEnablePeerAccess(AsHip(ctx0_), 1));
  EXPECT_BOTH(CUDA_ERROR_INVALID_DEVICE, cuCtxEnablePeerAccess(ctx1_, 0),
              hipCtxEnablePeerAccess(AsHip(ctx1_), 0));
  EXPECT_BOTH(CUDA_ERROR_INVALID_CONTEXT, cuCtxEnablePeerAccess(nullptr, 0),
              hipCtxEnablePeerAccess(nullptr, 0));
  EXPECT_HIP(hipSuccess, hipCtxEnablePeerAccess(AsHip(ctx0_), 0));
  EXPECT_HIP(hipErrorPeerAccessAlreadyEnabled, hipCtxEnablePeerAccess(AsHip(ctx0_), 0));
  CUcontext popped = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  // The other direction is its own link.
  EXPECT_CU(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(ctx1_));  // ctx0_ current
  EXPECT_CU(CUDA_SUCCESS, cuCtxEnablePeerAccess(ctx1_, 0));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDisablePeerAccess(ctx1_));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(ctx1_));
  EXPECT_HIP(hipSuccess, hipCtxDisablePeerAccess(AsHip(ctx0_)));
  EXPECT_HIP(hipErrorPeerAccessNotEnabled, hipCtxDisablePeerAccess(AsHip(ctx0_)));
  // A second context of device 1 is not a peer of device 1.
  CUcontext other1 = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&other1, 0, 1));  // current now
  EXPECT_CU(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, cuCtxEnablePeerAccess(ctx1_, 0));
  EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(other1));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
}

// hipDeviceEnablePeerAccess: the current device's context reaches the
// peer device's primary context, whose hipMalloc memory a kernel uses.
TEST_F(PeerAccessConformance, HipDevicesEnablePeerAccessAndKernelsUsePeerMemory) {
  constexpr uint32_t kN = 2048;
  std::vector<float> a = Iota(kN, 1.0f), b = Iota(kN, 5.0f);
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  void* a0 = nullptr;
  void* c0 = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a0, kN * 4));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(a0, a.data(), kN * 4));
  ASSERT_HIP(hipSuccess, hipSetDevice(1));
  EXPECT_HIP(hipErrorInvalidValue, hipDeviceEnablePeerAccess(0, 2));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceEnablePeerAccess(2, 0));
  EXPECT_HIP(hipErrorInvalidDevice, hipDeviceEnablePeerAccess(1, 0));  // itself
  EXPECT_HIP(hipErrorPeerAccessNotEnabled, hipDeviceDisablePeerAccess(0));
  ASSERT_HIP(hipSuccess, hipDeviceEnablePeerAccess(0, 0));
  EXPECT_HIP(hipErrorPeerAccessAlreadyEnabled, hipDeviceEnablePeerAccess(0, 0));
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  ASSERT_HIP(hipSuccess, hipMalloc(&c0, kN * 4));  // after enabling
  ASSERT_HIP(hipSuccess, hipSetDevice(1));
  void* b1 = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&b1, kN * 4));
  ASSERT_HIP(hipSuccess, hipMemcpyHtoD(b1, b.data(), kN * 4));
  hipModule_t module = nullptr;
  hipFunction_t function = LoadHipKernel(kVectorAddGlsl, "vector_add", &module);
  ASSERT_NE(function, nullptr);
  uint32_t n = kN;
  void* params[] = {&a0, &b1, &c0, &n};
  EXPECT_HIP(hipSuccess, hipModuleLaunchKernel(function, (kN + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr,
                                               params, nullptr));
  EXPECT_HIP(hipSuccess, hipDeviceSynchronize());
  EXPECT_HIP(hipSuccess, hipDeviceDisablePeerAccess(0));
  EXPECT_HIP(hipErrorPeerAccessNotEnabled, hipDeviceDisablePeerAccess(0));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
  EXPECT_HIP(hipSuccess, hipFree(b1));
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  std::vector<float> c(kN, -1.0f);
  EXPECT_HIP(hipSuccess, hipMemcpyDtoH(c.data(), c0, kN * 4));
  size_t wrong = 0;
  for (uint32_t i = 0; i < kN; ++i) wrong += c[i] != a[i] + b[i];
  EXPECT_EQ(wrong, 0u);
  EXPECT_HIP(hipSuccess, hipFree(a0));
  EXPECT_HIP(hipSuccess, hipFree(c0));
}

}  // namespace
}  // namespace streamhal::conformance
