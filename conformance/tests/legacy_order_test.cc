// Rows: the synchronous copies and fills (cuMemcpy*, cuMemsetD*, their HIP
// forms) against pending work on a blocking stream. CUDA's legacy default
// stream waits for all earlier work of every blocking stream of its context,
// and the synchronous calls run on it; so does HIP's null stream. Each test
// holds a blocking stream behind a closed gate with a launch queued after
// the gate, makes one synchronous call on another thread, and checks that
// the call neither returned before the gate opened nor saw (or was
// overwritten by) the wrong side of the launch.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

constexpr uint32_t kCount = 65536;
constexpr size_t kBytes = kCount * sizeof(float);

class LegacyOrderConformance : public ContextTest {
 protected:
  void SetUp() override {
    ContextTest::SetUp();
    if (HasFatalFailure()) return;
    function_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(function_, nullptr);
    ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&blocking_, CU_STREAM_DEFAULT));
    initial_ = Iota(kCount);
    data_ = CudaUpload(initial_);
    ASSERT_NE(data_, 0u);
  }
  void TearDown() override {
    if (blocking_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(blocking_));
    }
    if (data_ != 0) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(data_));
    }
    if (module_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module_));
    }
    ContextTest::TearDown();
  }

  // Queues, on the blocking stream, a host function that waits for the gate
  // and then data_ = data_ * 3 - 1. Runs `call` (a synchronous entry point on
  // the legacy stream) on another thread, opens the gate once the stream is
  // held at it and 50 ms have passed, and returns the call's result.
  // `returned_early` says whether the call came back before the gate opened.
  int RunBehindGatedLaunch(const std::function<int()>& call) {
    return RunBehindGatedLaunchOn(blocking_, call);
  }
  // The same with the gate and the launch on `held` (the legacy stream, for
  // the per-thread default stream's rules).
  int RunBehindGatedLaunchOn(CUstream held, const std::function<int()>& call) {
    // What data_ holds once the launch has run.
    launched_.clear();
    for (float value : Contents(data_)) launched_.push_back(value * 3.0f - 1.0f);
    struct Gate {
      std::atomic<bool> entered{false};
      std::atomic<bool> open{false};
    } gate;
    auto wait = [](void* raw) {
      auto* g = static_cast<Gate*>(raw);
      g->entered.store(true);
      while (!g->open.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    EXPECT_CU(CUDA_SUCCESS, cuLaunchHostFunc(held, wait, &gate));
    float scale = 3.0f, offset = -1.0f;
    uint32_t n = kCount;
    void* params[] = {&data_, &scale, &offset, &n};
    EXPECT_CU(CUDA_SUCCESS,
              cuLaunchKernel(function_, kCount / 256, 1, 1, 256, 1, 1, 0, held, params, nullptr));
    std::atomic<bool> done{false};
    int result = -1;
    std::thread caller([&] {
      result = call();
      done.store(true);
    });
    for (int i = 0; i < 2000 && !gate.entered.load(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_TRUE(gate.entered.load()) << "the blocking stream never reached its host function";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    returned_early_ = done.load();
    gate.open.store(true);
    caller.join();
    EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(held));
    return result;
  }

  std::vector<float> Contents(CUdeviceptr pointer) {
    std::vector<float> values(kCount);
    EXPECT_CU(CUDA_SUCCESS, cuCtxSynchronize());
    EXPECT_CU(CUDA_SUCCESS, cuMemcpyDtoH(values.data(), pointer, kBytes));
    return values;
  }

  // The calls run on another thread, which needs the test's context.
  std::function<int()> OnTestContext(std::function<int()> call) {
    CUcontext context = this->context();
    return [context, call] {
      if (cuCtxSetCurrent(context) != CUDA_SUCCESS) return -2;
      return call();
    };
  }

  // A synchronous read of data_ sees the launch.
  void ExpectReadSeesLaunch(const std::function<int(void* host)>& read) {
    std::vector<float> host(kCount, -7.0f);
    const int result = RunBehindGatedLaunch(OnTestContext([&] { return read(host.data()); }));
    EXPECT_EQ(result, 0);
    EXPECT_FALSE(returned_early_) << "the call returned while the blocking stream was held";
    EXPECT_EQ(host, launched_) << "the call read the data from before the launch";
  }

  // A synchronous write of data_ lands after the launch: the final contents
  // are what the write put there, not the launch applied to it. Copies from
  // pageable memory block the host until they are done; fills of device
  // memory need not (CUDA: "asynchronous with respect to the host").
  enum class Blocks { kYes, kMayReturnEarly };
  void ExpectWriteLandsAfterLaunch(const std::function<int()>& write,
                                   const std::vector<float>& written,
                                   Blocks blocks = Blocks::kYes) {
    const int result = RunBehindGatedLaunch(OnTestContext(write));
    EXPECT_EQ(result, 0);
    if (blocks == Blocks::kYes) {
      EXPECT_FALSE(returned_early_) << "the call returned while the blocking stream was held";
    }
    EXPECT_EQ(Contents(data_), written) << "the launch ran after the synchronous write";
  }

  void* hip_data() const { return AsHipPointer(data_); }

  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  CUstream blocking_ = nullptr;
  CUdeviceptr data_ = 0;
  std::vector<float> initial_;
  std::vector<float> launched_;
  bool returned_early_ = false;
};

std::vector<float> Filled(float value) { return std::vector<float>(kCount, value); }

float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// --- Reads -------------------------------------------------------------------------

TEST_F(LegacyOrderConformance, CuMemcpyDtoHWaitsForBlockingStreams) {
  ExpectReadSeesLaunch([&](void* host) { return int{cuMemcpyDtoH(host, data_, kBytes)}; });
}

TEST_F(LegacyOrderConformance, HipMemcpyDtoHWaitsForBlockingStreams) {
  ExpectReadSeesLaunch([&](void* host) { return int{hipMemcpyDtoH(host, hip_data(), kBytes)}; });
}

TEST_F(LegacyOrderConformance, CuMemcpyInferredReadWaitsForBlockingStreams) {
  if (DeviceAttribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) != 1) {
    GTEST_SKIP() << "no unified addressing";
  }
  ExpectReadSeesLaunch(
      [&](void* host) { return int{cuMemcpy(AsCudaPointer(host), data_, kBytes)}; });
}

TEST_F(LegacyOrderConformance, HipMemcpyReadWaitsForBlockingStreams) {
  ExpectReadSeesLaunch(
      [&](void* host) { return int{hipMemcpy(host, hip_data(), kBytes, hipMemcpyDeviceToHost)}; });
  ExpectReadSeesLaunch(
      [&](void* host) { return int{hipMemcpy(host, hip_data(), kBytes, hipMemcpyDefault)}; });
}

TEST_F(LegacyOrderConformance, CuMemcpyDtoHAsyncOnTheNullStreamWaitsForBlockingStreams) {
  // Pageable destination: complete on return, and on the legacy stream.
  ExpectReadSeesLaunch(
      [&](void* host) { return int{cuMemcpyDtoHAsync(host, data_, kBytes, nullptr)}; });
}

TEST_F(LegacyOrderConformance, PerThreadStreamReadsWaitForTheLegacyStream) {
  // CUDA: the per-thread default stream is not non-blocking; it waits for
  // the legacy stream's earlier work like any blocking stream.
  std::vector<float> host(kCount, -7.0f);
  const int result = RunBehindGatedLaunchOn(
      CU_STREAM_LEGACY, OnTestContext([&] {
        return int{cuMemcpyDtoHAsync(host.data(), data_, kBytes, CU_STREAM_PER_THREAD)};
      }));
  EXPECT_EQ(result, 0);
  EXPECT_FALSE(returned_early_) << "the copy returned while the legacy stream was held";
  EXPECT_EQ(host, launched_) << "the copy read the data from before the launch";
}

// --- Writes ------------------------------------------------------------------------

TEST_F(LegacyOrderConformance, CuMemcpyHtoDWaitsForBlockingStreams) {
  const std::vector<float> ones = Filled(1.0f);
  ExpectWriteLandsAfterLaunch([&] { return int{cuMemcpyHtoD(data_, ones.data(), kBytes)}; }, ones);
}

TEST_F(LegacyOrderConformance, HipMemcpyHtoDWaitsForBlockingStreams) {
  std::vector<float> ones = Filled(1.0f);
  ExpectWriteLandsAfterLaunch([&] { return int{hipMemcpyHtoD(hip_data(), ones.data(), kBytes)}; },
                              ones);
}

TEST_F(LegacyOrderConformance, CuMemcpyInferredWriteWaitsForBlockingStreams) {
  if (DeviceAttribute(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING) != 1) {
    GTEST_SKIP() << "no unified addressing";
  }
  const std::vector<float> ones = Filled(1.0f);
  ExpectWriteLandsAfterLaunch(
      [&] { return int{cuMemcpy(data_, AsCudaPointer(ones.data()), kBytes)}; }, ones);
}

TEST_F(LegacyOrderConformance, HipMemcpyWriteWaitsForBlockingStreams) {
  const std::vector<float> ones = Filled(1.0f);
  ExpectWriteLandsAfterLaunch(
      [&] { return int{hipMemcpy(hip_data(), ones.data(), kBytes, hipMemcpyHostToDevice)}; }, ones);
  const std::vector<float> twos = Filled(2.0f);
  ExpectWriteLandsAfterLaunch(
      [&] { return int{hipMemcpy(hip_data(), twos.data(), kBytes, hipMemcpyDefault)}; }, twos);
}

TEST_F(LegacyOrderConformance, CuMemcpyHtoDAsyncOnTheNullStreamWaitsForBlockingStreams) {
  const std::vector<float> ones = Filled(1.0f);
  ExpectWriteLandsAfterLaunch(
      [&] {
        CUresult result = cuMemcpyHtoDAsync(data_, ones.data(), kBytes, nullptr);
        return int{result == CUDA_SUCCESS ? cuStreamSynchronize(nullptr) : result};
      },
      ones);
}

TEST_F(LegacyOrderConformance, HipMemcpyAsyncOnTheNullStreamWaitsForBlockingStreams) {
  ExpectReadSeesLaunch([&](void* host) {
    const hipError_t result =
        hipMemcpyAsync(host, hip_data(), kBytes, hipMemcpyDeviceToHost, nullptr);
    return int{result == hipSuccess ? hipStreamSynchronize(nullptr) : result};
  });
}

// --- Synchronising and querying the null stream ------------------------------------

TEST_F(LegacyOrderConformance, NullStreamSynchronizeWaitsForBlockingStreams) {
  for (int api = 0; api < 2; ++api) {
    SCOPED_TRACE(api == 0 ? "cuStreamSynchronize" : "hipStreamSynchronize");
    const int result = RunBehindGatedLaunch(OnTestContext([api] {
      return api == 0 ? int{cuStreamSynchronize(nullptr)} : int{hipStreamSynchronize(nullptr)};
    }));
    EXPECT_EQ(result, 0);
    EXPECT_FALSE(returned_early_) << "the null stream was synchronised while a blocking stream ran";
  }
}

TEST_F(LegacyOrderConformance, NullStreamQueryReportsBlockingStreamsWork) {
  EXPECT_EQ(RunBehindGatedLaunch(OnTestContext([] { return int{cuStreamQuery(nullptr)}; })),
            int{CUDA_ERROR_NOT_READY});
  EXPECT_EQ(RunBehindGatedLaunch(OnTestContext([] { return int{hipStreamQuery(nullptr)}; })),
            int{hipErrorNotReady});
  ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(blocking_));
  EXPECT_CU(CUDA_SUCCESS, cuStreamQuery(nullptr));
  EXPECT_HIP(hipSuccess, hipStreamQuery(nullptr));
}

// --- Device to device --------------------------------------------------------------

TEST_F(LegacyOrderConformance, DeviceToDeviceCopiesWaitForBlockingStreams) {
  CUdeviceptr cuda_copy = 0, hip_copy = 0;
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&cuda_copy, kBytes));
  ASSERT_CU(CUDA_SUCCESS, cuMemAlloc(&hip_copy, kBytes));
  // The copies do not block the host (CUDA), so only the contents count.
  RunBehindGatedLaunch(OnTestContext([&] { return int{cuMemcpyDtoD(cuda_copy, data_, kBytes)}; }));
  EXPECT_EQ(Contents(cuda_copy), launched_);
  RunBehindGatedLaunch(OnTestContext(
      [&] { return int{hipMemcpyDtoD(AsHipPointer(hip_copy), hip_data(), kBytes)}; }));
  EXPECT_EQ(Contents(hip_copy), launched_);
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(cuda_copy));
  EXPECT_CU(CUDA_SUCCESS, cuMemFree(hip_copy));
}

// --- Fills -------------------------------------------------------------------------

TEST_F(LegacyOrderConformance, CudaFillsWaitForBlockingStreams) {
  ExpectWriteLandsAfterLaunch([&] { return int{cuMemsetD8(data_, 0x3f, kBytes)}; },
                              Filled(FromBits(0x3f3f3f3f)), Blocks::kMayReturnEarly);
  ExpectWriteLandsAfterLaunch([&] { return int{cuMemsetD16(data_, 0x4040, kBytes / 2)}; },
                              Filled(FromBits(0x40404040)), Blocks::kMayReturnEarly);
  ExpectWriteLandsAfterLaunch([&] { return int{cuMemsetD32(data_, 0x41200000, kCount)}; },
                              Filled(10.0f), Blocks::kMayReturnEarly);
}

TEST_F(LegacyOrderConformance, HipFillsWaitForBlockingStreams) {
  ExpectWriteLandsAfterLaunch([&] { return int{hipMemset(hip_data(), 0x3f, kBytes)}; },
                              Filled(FromBits(0x3f3f3f3f)), Blocks::kMayReturnEarly);
  ExpectWriteLandsAfterLaunch([&] { return int{hipMemsetD8(hip_data(), 0x3e, kBytes)}; },
                              Filled(FromBits(0x3e3e3e3e)), Blocks::kMayReturnEarly);
  ExpectWriteLandsAfterLaunch([&] { return int{hipMemsetD16(hip_data(), 0x4040, kBytes / 2)}; },
                              Filled(FromBits(0x40404040)), Blocks::kMayReturnEarly);
  ExpectWriteLandsAfterLaunch([&] { return int{hipMemsetD32(hip_data(), 0x41200000, kCount)}; },
                              Filled(10.0f), Blocks::kMayReturnEarly);
}

}  // namespace
}  // namespace streamhal::conformance
