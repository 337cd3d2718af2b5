// Rows: HIP-only entry points AMD programs use (hip/hip_ext.h and the hipExt*
// functions of hip_runtime_api.h, hipChooseDevice, hipSetValidDevices,
// hipMemAllocHost, hipExtGetLastError, hipProfilerStart/Stop).
#include <hip/hip_ext.h>
#include <hip/hip_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using HipExtConformance = DriverTest;

TEST_F(HipExtConformance, ExtLaunchKernelRunsInBlocksAndRecordsItsEvents) {
  hipModule_t module = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleLoadData(&module, kScaleOffsetGlsl));
  hipFunction_t f = nullptr;
  ASSERT_HIP(hipSuccess, hipModuleGetFunction(&f, module, "scale_offset"));
  constexpr unsigned kN = 1000;
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, kN * sizeof(float)));
  ASSERT_HIP(hipSuccess, hipMemsetD32(data, 0, kN));
  hipEvent_t start = nullptr, stop = nullptr;
  ASSERT_HIP(hipSuccess, hipEventCreate(&start));
  ASSERT_HIP(hipSuccess, hipEventCreate(&stop));
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  float scale = 2.0f, offset = 5.0f;
  unsigned n = kN;
  void* args[] = {&data, &scale, &offset, &n};
  // Sizes are blocks (unlike hipExtModuleLaunchKernel's work-items).
  ASSERT_HIP(hipSuccess,
             hipExtLaunchKernel(f, dim3(16), dim3(64), args, 0, stream, start, stop, 0));
  ASSERT_HIP(hipSuccess,
             hipExtLaunchKernel(f, dim3(16), dim3(64), args, 0, stream, nullptr, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipEventSynchronize(stop));
  float ms = -1;
  ASSERT_HIP(hipSuccess, hipEventElapsedTime(&ms, start, stop));
  EXPECT_GE(ms, 0.0f);
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  std::vector<float> back(kN);
  ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), data, kN * sizeof(float), hipMemcpyDeviceToHost));
  // (0 * 2 + 5) * 2 + 5 everywhere: both launches covered all 1000 elements.
  EXPECT_EQ(back, std::vector<float>(kN, 15.0f));
  EXPECT_HIP(hipErrorInvalidHandle,
             hipExtLaunchKernel(nullptr, dim3(1), dim3(1), args, 0, stream, nullptr, nullptr, 0));
  EXPECT_HIP(hipErrorInvalidValue,
             hipExtLaunchKernel(f, dim3(1), dim3(0), args, 0, stream, nullptr, nullptr, 0));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(stream));
  ASSERT_HIP(hipSuccess, hipEventDestroy(start));
  ASSERT_HIP(hipSuccess, hipEventDestroy(stop));
  ASSERT_HIP(hipSuccess, hipFree(data));
  ASSERT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST_F(HipExtConformance, StreamsKeepAndReportTheirComputeUnitMask) {
  hipDeviceProp_t props;
  ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&props, 0));
  ASSERT_GE(props.multiProcessorCount, 1);
  // A stream made without a mask reports every unit.
  hipStream_t plain = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&plain));
  uint32_t all[2] = {0xdeadbeef, 0xdeadbeef};
  ASSERT_HIP(hipSuccess, hipExtStreamGetCUMask(plain, 2, all));
  const int units = props.multiProcessorCount;
  for (int unit = 0; unit < 64; ++unit) {
    EXPECT_EQ((all[unit / 32] >> (unit % 32)) & 1u, unit < units ? 1u : 0u) << "unit " << unit;
  }
  // A partial mask is kept and given back; work on the stream runs.
  const uint32_t half[1] = {0x1};
  hipStream_t masked = nullptr;
  ASSERT_HIP(hipSuccess, hipExtStreamCreateWithCUMask(&masked, 1, half));
  uint32_t back[2] = {0xffffffff, 0xffffffff};
  ASSERT_HIP(hipSuccess, hipExtStreamGetCUMask(masked, 2, back));
  EXPECT_EQ(back[0], 0x1u);
  EXPECT_EQ(back[1], 0u);
  void* data = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&data, 4096));
  ASSERT_HIP(hipSuccess, hipMemsetD32Async(data, 7, 1024, masked));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(masked));
  std::vector<uint32_t> words(1024);
  ASSERT_HIP(hipSuccess, hipMemcpy(words.data(), data, 4096, hipMemcpyDeviceToHost));
  EXPECT_EQ(words, std::vector<uint32_t>(1024, 7u));
  // Bad arguments.
  const uint32_t none[1] = {0};
  hipStream_t bad = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamCreateWithCUMask(&bad, 1, none));
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamCreateWithCUMask(&bad, 0, half));
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamCreateWithCUMask(&bad, 1, nullptr));
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamCreateWithCUMask(nullptr, 1, half));
  EXPECT_EQ(bad, nullptr);
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamGetCUMask(masked, 0, back));
  EXPECT_HIP(hipErrorInvalidValue, hipExtStreamGetCUMask(masked, 1, nullptr));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(masked));
  EXPECT_HIP(hipErrorInvalidHandle, hipExtStreamGetCUMask(masked, 2, back));
  ASSERT_HIP(hipSuccess, hipStreamDestroy(plain));
  ASSERT_HIP(hipSuccess, hipFree(data));
}

// A Vulkan queue cannot be limited to some compute units: a partial mask is
// accepted and reported, but the stream's work may run on every unit.
TEST_F(HipExtConformance, APartialMaskIsKeptButNotEnforced) {
  ProvesLimitation();
  const uint32_t first_unit[1] = {0x1};
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipExtStreamCreateWithCUMask(&stream, 1, first_unit));
  uint32_t back = 0;
  ASSERT_HIP(hipSuccess, hipExtStreamGetCUMask(stream, 1, &back));
  EXPECT_EQ(back, 0x1u);
  ASSERT_HIP(hipSuccess, hipStreamDestroy(stream));
}

TEST_F(HipExtConformance, ExtMallocWithFlagsGivesDeviceMemoryForCoarseGrainedFlags) {
  for (unsigned flags : {hipDeviceMallocDefault, hipDeviceMallocContiguous}) {
    void* p = nullptr;
    ASSERT_HIP(hipSuccess, hipExtMallocWithFlags(&p, 4096, flags));
    ASSERT_NE(p, nullptr);
    std::vector<uint8_t> in(4096), out(4096);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 13 + flags);
    ASSERT_HIP(hipSuccess, hipMemcpy(p, in.data(), in.size(), hipMemcpyHostToDevice));
    ASSERT_HIP(hipSuccess, hipMemcpy(out.data(), p, out.size(), hipMemcpyDeviceToHost));
    EXPECT_EQ(in, out);
    size_t size = 0;
    ASSERT_HIP(hipSuccess, hipMemPtrGetInfo(p, &size));
    EXPECT_EQ(size, 4096u);
    ASSERT_HIP(hipSuccess, hipFree(p));
  }
  void* p = nullptr;
  EXPECT_HIP(hipErrorInvalidValue, hipExtMallocWithFlags(&p, 4096, 0x40));
  EXPECT_EQ(p, nullptr);
  EXPECT_HIP(hipSuccess, hipExtMallocWithFlags(&p, 0, hipDeviceMallocDefault));
  EXPECT_EQ(p, nullptr);
}

// Fine-grained memory (host and device see each other's writes while a
// kernel runs) is not something a Vulkan device promises.
TEST_F(HipExtConformance, ExtMallocWithFlagsRefusesFineGrainedMemory) {
  ProvesLimitation();
  for (unsigned flags :
       {hipDeviceMallocFinegrained, hipMallocSignalMemory, hipDeviceMallocUncached}) {
    void* p = nullptr;
    EXPECT_HIP(hipErrorNotSupported, hipExtMallocWithFlags(&p, 4096, flags)) << flags;
    EXPECT_EQ(p, nullptr);
  }
}

TEST_F(HipExtConformance, HostAllocationsUnderTheirOtherNamesArePageLocked) {
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_HIP(hipSuccess, hipMemAllocHost(&a, 4096));
  ASSERT_HIP(hipSuccess, hipExtHostAlloc(&b, 4096, hipHostAllocMapped));
  for (void* host : {a, b}) {
    unsigned flags = ~0u;
    ASSERT_HIP(hipSuccess, hipHostGetFlags(&flags, host));
    std::memset(host, 0x5a, 4096);
    void* device = nullptr;
    ASSERT_HIP(hipSuccess, hipMalloc(&device, 4096));
    ASSERT_HIP(hipSuccess, hipMemcpy(device, host, 4096, hipMemcpyHostToDevice));
    std::vector<uint8_t> back(4096);
    ASSERT_HIP(hipSuccess, hipMemcpy(back.data(), device, 4096, hipMemcpyDeviceToHost));
    EXPECT_EQ(back, std::vector<uint8_t>(4096, 0x5a));
    ASSERT_HIP(hipSuccess, hipFree(device));
  }
  ASSERT_HIP(hipSuccess, hipHostFree(a));
  ASSERT_HIP(hipSuccess, hipHostFree(b));
  EXPECT_HIP(hipErrorInvalidValue, hipMemAllocHost(nullptr, 4096));
}

TEST_F(HipExtConformance, ChooseDevicePicksTheBestMatch) {
  int count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&count));
  hipDeviceProp_t wanted;
  std::memset(&wanted, 0, sizeof(wanted));
  int device = -1;
  // Nothing asked for: any device, the first.
  ASSERT_HIP(hipSuccess, hipChooseDevice(&device, &wanted));
  EXPECT_EQ(device, 0);
  // Asking for the last device's exact name finds it.
  hipDeviceProp_t last;
  ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&last, count - 1));
  std::memcpy(wanted.name, last.name, sizeof(wanted.name));
  wanted.major = last.major;
  ASSERT_HIP(hipSuccess, hipChooseDevice(&device, &wanted));
  hipDeviceProp_t chosen;
  ASSERT_HIP(hipSuccess, hipGetDeviceProperties(&chosen, device));
  EXPECT_STREQ(chosen.name, last.name);
  EXPECT_HIP(hipErrorInvalidValue, hipChooseDevice(nullptr, &wanted));
  EXPECT_HIP(hipErrorInvalidValue, hipChooseDevice(&device, nullptr));
}

TEST_F(HipExtConformance, SetValidDevicesMakesTheFirstCurrent) {
  int count = 0;
  ASSERT_HIP(hipSuccess, hipGetDeviceCount(&count));
  int list[] = {count - 1};
  ASSERT_HIP(hipSuccess, hipSetValidDevices(list, 1));
  int device = -1;
  ASSERT_HIP(hipSuccess, hipGetDevice(&device));
  EXPECT_EQ(device, count - 1);
  int bad[] = {count};
  EXPECT_HIP(hipErrorInvalidDevice, hipSetValidDevices(bad, 1));
  int twice[] = {0, 0};
  EXPECT_HIP(hipErrorInvalidValue, hipSetValidDevices(twice, 2));
  EXPECT_HIP(hipErrorInvalidValue, hipSetValidDevices(nullptr, 1));
  EXPECT_HIP(hipErrorInvalidValue, hipSetValidDevices(list, -1));
  // An empty list goes back to the default device.
  ASSERT_HIP(hipSuccess, hipSetValidDevices(nullptr, 0));
  ASSERT_HIP(hipSuccess, hipGetDevice(&device));
  EXPECT_EQ(device, 0);
}

TEST_F(HipExtConformance, ExtGetLastErrorGivesTheLatestResultAndResetsIt) {
  void* p = nullptr;
  ASSERT_HIP(hipErrorInvalidValue, hipMalloc(nullptr, 16));
  // hipExtGetLastError: the latest call's result, success included.
  EXPECT_HIP(hipErrorInvalidValue, hipExtGetLastError());
  EXPECT_HIP(hipSuccess, hipExtGetLastError());
  ASSERT_HIP(hipErrorInvalidValue, hipMalloc(nullptr, 16));
  ASSERT_HIP(hipSuccess, hipMalloc(&p, 16));
  EXPECT_HIP(hipSuccess, hipExtGetLastError());
  // hipGetLastError still has the error the success did not clear.
  EXPECT_HIP(hipErrorInvalidValue, hipGetLastError());
  ASSERT_HIP(hipSuccess, hipFree(p));
}

TEST_F(HipExtConformance, ProfilerMarkersSucceed) {
  EXPECT_HIP(hipSuccess, hipProfilerStart());
  EXPECT_HIP(hipSuccess, hipProfilerStop());
}

}  // namespace
}  // namespace streamhal::conformance
