// Rows: the scheduling flags of contexts (cuCtxCreate, cuCtxSetFlags,
// cuDevicePrimaryCtxSetFlags, hipSetDeviceFlags / hipGetDeviceFlags) and
// CU_EVENT_BLOCKING_SYNC. Each flag only changes how the host waits, so the
// tests check that every wait under every flag really waits: the kernels
// write mapped host memory that the test reads right after the wait, with
// no copy (which would wait on its own) in between.
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

constexpr unsigned kScheduleFlags[] = {CU_CTX_SCHED_AUTO, CU_CTX_SCHED_SPIN, CU_CTX_SCHED_YIELD,
                                       CU_CTX_SCHED_BLOCKING_SYNC};
constexpr int kValues = 64;
// Pairs of launches that undo each other (x -> 2x + 1, then x -> x/2 - 0.5):
// enough work that a wait returning early would see intermediate values.
constexpr int kPairs = 200;

// scale_offset launched on mapped host memory in the current context.
class MappedWork {
 public:
  MappedWork() {
    function_ = LoadCudaKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    EXPECT_CU(CUDA_SUCCESS,
              cuMemHostAlloc(&host_, kValues * sizeof(float), CU_MEMHOSTALLOC_DEVICEMAP));
    if (host_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuMemHostGetDevicePointer(&device_, host_, 0));
    }
  }
  ~MappedWork() {
    if (host_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuMemFreeHost(host_));
    }
    if (module_ != nullptr) {
      EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module_));
    }
  }
  bool ok() const { return function_ != nullptr && device_ != 0; }
  float* values() const { return static_cast<float*>(host_); }

  // Sets every value to 1, then queues work that leaves 3 in each.
  void Launch(CUstream stream) {
    for (int i = 0; i < kValues; ++i) values()[i] = 1.0f;
    float two = 2.0f, one = 1.0f, half = 0.5f, minus_half = -0.5f;
    unsigned n = kValues;
    void* forward[] = {&device_, &two, &one, &n};
    void* backward[] = {&device_, &half, &minus_half, &n};
    for (int i = 0; i < kPairs; ++i) {
      ASSERT_CU(CUDA_SUCCESS,
                cuLaunchKernel(function_, 1, 1, 1, kValues, 1, 1, 0, stream, forward, nullptr));
      ASSERT_CU(CUDA_SUCCESS,
                cuLaunchKernel(function_, 1, 1, 1, kValues, 1, 1, 0, stream, backward, nullptr));
    }
    ASSERT_CU(CUDA_SUCCESS,
              cuLaunchKernel(function_, 1, 1, 1, kValues, 1, 1, 0, stream, forward, nullptr));
  }
  // The same through HIP.
  void LaunchHip(hipStream_t stream) {
    for (int i = 0; i < kValues; ++i) values()[i] = 1.0f;
    float two = 2.0f, one = 1.0f, half = 0.5f, minus_half = -0.5f;
    unsigned n = kValues;
    void* forward[] = {&device_, &two, &one, &n};
    void* backward[] = {&device_, &half, &minus_half, &n};
    auto* function = reinterpret_cast<hipFunction_t>(function_);
    for (int i = 0; i < kPairs; ++i) {
      ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, 1, 1, 1, kValues, 1, 1, 0, stream,
                                                   forward, nullptr));
      ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, 1, 1, 1, kValues, 1, 1, 0, stream,
                                                   backward, nullptr));
    }
    ASSERT_HIP(hipSuccess, hipModuleLaunchKernel(function, 1, 1, 1, kValues, 1, 1, 0, stream,
                                                 forward, nullptr));
  }
  // Whether the work has finished, read straight from the mapped memory.
  void ExpectDone(unsigned flag) const {
    for (int i = 0; i < kValues; ++i) {
      ASSERT_EQ(values()[i], 3.0f) << "value " << i << " under scheduling flag " << flag;
    }
  }

 private:
  CUmodule module_ = nullptr;
  CUfunction function_ = nullptr;
  void* host_ = nullptr;
  CUdeviceptr device_ = 0;
};

using SchedulingConformance = DriverTest;

TEST_F(SchedulingConformance, EachScheduleFlagIsStoredAndReturned) {
  for (unsigned flag : kScheduleFlags) {
    CUcontext context = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, flag | CU_CTX_MAP_HOST, 0));
    unsigned cu_flags = 0;
    EXPECT_CU(CUDA_SUCCESS, cuCtxGetFlags(&cu_flags));
    EXPECT_EQ(cu_flags, flag | CU_CTX_MAP_HOST);
    unsigned hip_flags = 0;
    EXPECT_HIP(hipSuccess, hipCtxGetFlags(&hip_flags));
    EXPECT_EQ(hip_flags, flag | CU_CTX_MAP_HOST);
    // cuCtxSetFlags replaces them.
    ASSERT_CU(CUDA_SUCCESS, cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC));
    EXPECT_CU(CUDA_SUCCESS, cuCtxGetFlags(&cu_flags));
    EXPECT_EQ(cu_flags, unsigned{CU_CTX_SCHED_BLOCKING_SYNC});
    ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  }
}

TEST_F(SchedulingConformance, TwoScheduleFlagsAtOnceAreInvalid) {
  const unsigned pairs[] = {CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD,
                            CU_CTX_SCHED_SPIN | CU_CTX_SCHED_BLOCKING_SYNC,
                            CU_CTX_SCHED_YIELD | CU_CTX_SCHED_BLOCKING_SYNC, CU_CTX_SCHED_MASK};
  for (unsigned flags : pairs) {
    CUcontext context = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxCreate(&context, flags, 0));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuDevicePrimaryCtxSetFlags(0, flags));
    EXPECT_HIP(hipErrorInvalidValue, hipSetDeviceFlags(flags));
  }
  CUcontext context = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, CU_CTX_SCHED_SPIN, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuCtxSetFlags(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD));
  // A rejected change leaves the flags as they were.
  unsigned flags = 0;
  EXPECT_CU(CUDA_SUCCESS, cuCtxGetFlags(&flags));
  EXPECT_EQ(flags, unsigned{CU_CTX_SCHED_SPIN});
  unsigned active = 0;
  int is_active = 0;
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &active, &is_active));
  EXPECT_EQ(active, 0u);
  ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
}

TEST_F(SchedulingConformance, StreamSynchronizeWaitsUnderEachFlag) {
  for (unsigned flag : kScheduleFlags) {
    CUcontext context = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, flag, 0));
    {
      MappedWork work;
      ASSERT_TRUE(work.ok());
      CUstream stream = nullptr;
      ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
      work.Launch(stream);
      ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(stream));
      work.ExpectDone(flag);
      // The legacy stream's synchronisation too.
      work.Launch(nullptr);
      ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
      work.ExpectDone(flag);
      ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
    }
    ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  }
}

TEST_F(SchedulingConformance, ContextSynchronizeWaitsUnderEachFlag) {
  for (unsigned flag : kScheduleFlags) {
    CUcontext context = nullptr;
    ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, flag, 0));
    {
      MappedWork work;
      ASSERT_TRUE(work.ok());
      work.Launch(nullptr);
      ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
      work.ExpectDone(flag);
    }
    ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
  }
}

// CUDA: an event created with CU_EVENT_BLOCKING_SYNC makes its waiter sleep
// whatever the context's flag; other events follow the context's flag.
TEST_F(SchedulingConformance, EventSynchronizeWaitsUnderEachFlag) {
  for (unsigned flag : kScheduleFlags) {
    for (unsigned event_flags : {unsigned{CU_EVENT_DEFAULT}, unsigned{CU_EVENT_BLOCKING_SYNC}}) {
      CUcontext context = nullptr;
      ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&context, flag, 0));
      {
        MappedWork work;
        ASSERT_TRUE(work.ok());
        CUevent event = nullptr;
        ASSERT_CU(CUDA_SUCCESS, cuEventCreate(&event, event_flags));
        work.Launch(nullptr);
        ASSERT_CU(CUDA_SUCCESS, cuEventRecord(event, nullptr));
        ASSERT_CU(CUDA_SUCCESS, cuEventSynchronize(event));
        work.ExpectDone(flag);
        EXPECT_CU(CUDA_SUCCESS, cuEventQuery(event));
        ASSERT_CU(CUDA_SUCCESS, cuEventDestroy(event));
      }
      ASSERT_CU(CUDA_SUCCESS, cuCtxDestroy(context));
    }
  }
}

TEST_F(SchedulingConformance, PrimaryContextFlagsApplyToTheLiveContext) {
  CUcontext primary = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&primary, 0));
  ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(primary));
  for (unsigned flag : kScheduleFlags) {
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0, flag));
    unsigned state_flags = 0;
    int active = 0;
    ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &state_flags, &active));
    EXPECT_EQ(state_flags, flag);
    EXPECT_EQ(active, 1);
    unsigned flags = 0;
    ASSERT_CU(CUDA_SUCCESS, cuCtxGetFlags(&flags));
    EXPECT_EQ(flags, flag);
    MappedWork work;
    ASSERT_TRUE(work.ok());
    work.Launch(nullptr);
    ASSERT_CU(CUDA_SUCCESS, cuStreamSynchronize(nullptr));
    work.ExpectDone(flag);
  }
  ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

using HipDeviceFlagsConformance = DriverTest;

// AMD: hipSetDeviceFlags sets the flags of the current device's primary
// context; hipGetDeviceFlags reads them back.
TEST_F(HipDeviceFlagsConformance, SetDeviceFlagsSetsThePrimaryContextsFlags) {
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  for (unsigned flag : {hipDeviceScheduleAuto, hipDeviceScheduleSpin, hipDeviceScheduleYield,
                        hipDeviceScheduleBlockingSync}) {
    const unsigned flags = flag | hipDeviceMapHost;
    ASSERT_HIP(hipSuccess, hipSetDeviceFlags(flags));
    unsigned read = 0;
    EXPECT_HIP(hipSuccess, hipGetDeviceFlags(&read));
    EXPECT_EQ(read, flags);
    unsigned state_flags = 0;
    int active = 0;
    EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &state_flags, &active));
    EXPECT_EQ(state_flags, flags);
    EXPECT_EQ(active, 1);
    // The primary context is current (hipSetDevice), and has them too.
    EXPECT_HIP(hipSuccess, hipCtxGetFlags(&read));
    EXPECT_EQ(read, flags);
  }
  ASSERT_HIP(hipSuccess, hipSetDeviceFlags(hipDeviceLmemResizeToMax));
  unsigned read = 0;
  EXPECT_HIP(hipSuccess, hipGetDeviceFlags(&read));
  EXPECT_EQ(read, unsigned{hipDeviceLmemResizeToMax});
}

TEST_F(HipDeviceFlagsConformance, DeviceFlagsWorkBeforeAnyContextExists) {
  // Set before the primary context is created, used when it is.
  ASSERT_HIP(hipSuccess, hipSetDeviceFlags(hipDeviceScheduleSpin));
  unsigned state_flags = 0;
  int active = 1;
  EXPECT_CU(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &state_flags, &active));
  EXPECT_EQ(state_flags, unsigned{hipDeviceScheduleSpin});
  EXPECT_EQ(active, 0);
  ASSERT_HIP(hipSuccess, hipSetDevice(0));
  unsigned flags = 0;
  EXPECT_HIP(hipSuccess, hipCtxGetFlags(&flags));
  EXPECT_EQ(flags, unsigned{hipDeviceScheduleSpin});
}

TEST_F(HipDeviceFlagsConformance, BadFlagsAreRejectedAndChangeNothing) {
  ASSERT_HIP(hipSuccess, hipSetDeviceFlags(hipDeviceScheduleYield));
  EXPECT_HIP(hipErrorInvalidValue, hipSetDeviceFlags(0x1000));
  EXPECT_HIP(hipErrorInvalidValue,
             hipSetDeviceFlags(hipDeviceScheduleSpin | hipDeviceScheduleBlockingSync));
  unsigned flags = 0;
  EXPECT_HIP(hipSuccess, hipGetDeviceFlags(&flags));
  EXPECT_EQ(flags, unsigned{hipDeviceScheduleYield});
  EXPECT_HIP(hipErrorInvalidValue, hipGetDeviceFlags(nullptr));
}

TEST_F(HipDeviceFlagsConformance, SynchronizeWaitsUnderEachDeviceFlag) {
  for (unsigned flag : {hipDeviceScheduleAuto, hipDeviceScheduleSpin, hipDeviceScheduleYield,
                        hipDeviceScheduleBlockingSync}) {
    ASSERT_HIP(hipSuccess, hipSetDevice(0));
    ASSERT_HIP(hipSuccess, hipSetDeviceFlags(flag));
    {
      MappedWork work;
      ASSERT_TRUE(work.ok());
      work.LaunchHip(nullptr);
      ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
      work.ExpectDone(flag);
      work.LaunchHip(nullptr);
      ASSERT_HIP(hipSuccess, hipStreamSynchronize(nullptr));
      work.ExpectDone(flag);
    }
  }
}

}  // namespace
}  // namespace streamhal::conformance
