// Rows: cooperative launches (cuLaunchCooperativeKernel /
// hipModuleLaunchCooperativeKernel, cuLaunchKernelEx with
// CU_LAUNCH_ATTRIBUTE_COOPERATIVE, hipLaunchCooperativeKernel, the
// multi-device forms and hipExtLaunchMultiKernelMultiDevice). A kernel
// barriers 100 times across the grid with the prelude's grid_sync(): each
// round every block writes a word, and after the barrier every block checks
// the words of all blocks. The grid that runs at once (from the occupancy
// figures) is accepted, one block more is
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE; the same grid launched without
// co-residency gives up instead of hanging (grid_sync's bounded wait).
#include <cuda.h>
#include <hip/hip_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

using CooperativeConformance = ContextTest;

constexpr uint32_t kRounds = 100;
constexpr uint32_t kThreads = 64;
constexpr uint32_t kMaxBlocks = 64;  // the kernel's word array holds 2 x 64 words

// Each round r, thread 0 of block b writes r * 1000 + b + 1 into this round's
// half of `words`; after grid_sync() the block's threads check every block's
// word. Per block: mismatches seen, grid_sync() calls that returned false.
#define SH_GRID_ROUNDS_KERNEL(NAME)                                                              \
  "#version 460\n"                                                                               \
  "#extension GL_GOOGLE_include_directive : require\n"                                           \
  "#include \"streamhal/kernel.glsl\"\n"                                                         \
  "layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer words_ptr "      \
  "{ uint v[]; };\n"                                                                             \
  "STREAMHAL_DECLARE_PTR(uint);\n"                                                               \
  "layout(push_constant) uniform Params { words_ptr words; uint_ptr result; uint rounds; } p;\n" \
  "void " NAME                                                                                   \
  "() {\n"                                                                                       \
  "  uint blocks = gridDim.x;\n"                                                                 \
  "  uint block = blockIdx.x;\n"                                                                 \
  "  uint t = gl_LocalInvocationIndex;\n"                                                        \
  "  uint bad = 0u, failed = 0u;\n"                                                              \
  "  for (uint r = 0u; r < p.rounds; ++r) {\n"                                                   \
  "    uint half_base = (r & 1u) * 64u;\n"                                                       \
  "    if (t == 0u) p.words.v[half_base + block] = r * 1000u + block + 1u;\n"                    \
  "    if (!grid_sync()) failed += 1u;\n"                                                        \
  "    if (t < blocks && p.words.v[half_base + t] != r * 1000u + t + 1u) bad += 1u;\n"           \
  "  }\n"                                                                                        \
  "  atomicAdd(p.result.v[2u * block], bad);\n"                                                  \
  "  atomicAdd(p.result.v[2u * block + 1u], failed);\n"                                          \
  "}\n"

const char kGridRoundsGlsl[] = SH_GRID_ROUNDS_KERNEL("main");

// A second kernel for hipExtLaunchMultiKernelMultiDevice: writes its block
// count plus `add` into result[0].
const char kOtherGlsl[] =
    "#version 460\n"
    "#extension GL_GOOGLE_include_directive : require\n"
    "#include \"streamhal/kernel.glsl\"\n"
    "STREAMHAL_DECLARE_PTR(uint);\n"
    "layout(push_constant) uniform Params { uint_ptr words; uint_ptr result; uint add; } p;\n"
    "void main() {\n"
    "  if (gl_GlobalInvocationID.x == 0u) p.result.v[0] = gridDim.x + p.add;\n"
    "}\n";

// GLSL images name the entry point "main".
constexpr const char* kEntry = "main";

bool CooperativeExpected() {
  int loop_limit = 0;
  EXPECT_CU(CUDA_SUCCESS,
            cuDeviceGetAttribute(&loop_limit, CU_DEVICE_ATTRIBUTE_HAL_LOOP_ITERATION_LIMIT, 0));
  return loop_limit == 65535;  // llvmpipe, where the occupancy figures are exact
}

int ResidentGrid(CUfunction function) {
  int per_multiprocessor = 0;
  EXPECT_CU(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, function,
                                                                      kThreads, 0));
  return per_multiprocessor * DeviceAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
}

// The buffers of one run of the rounds kernel in the current context.
class Rounds {
 public:
  explicit Rounds(uint32_t blocks) : blocks_(blocks) {
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&words_, 2 * kMaxBlocks * sizeof(uint32_t)));
    EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&result_, 2 * kMaxBlocks * sizeof(uint32_t)));
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(words_, 0, 2 * kMaxBlocks));
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(result_, 0xffffffffu, 2 * kMaxBlocks));
    EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(result_, 0, 2 * blocks));
  }
  ~Rounds() {
    (void)cuMemFree(words_);
    (void)cuMemFree(result_);
  }
  void** params() { return params_; }
  uint32_t blocks() const { return blocks_; }
  // Mismatches and failed barriers over all blocks; `ran` is false when
  // nothing wrote the results (the launch was refused).
  struct Outcome {
    bool ran = false;
    uint32_t bad = 0;
    uint32_t failed = 0;
  };
  Outcome Read() {
    Outcome outcome;
    std::vector<uint32_t> result = CudaDownload<uint32_t>(result_, 2 * kMaxBlocks);
    std::vector<uint32_t> words = CudaDownload<uint32_t>(words_, 2 * kMaxBlocks);
    outcome.ran = std::any_of(words.begin(), words.end(), [](uint32_t w) { return w != 0; });
    for (uint32_t b = 0; b < blocks_; ++b) {
      outcome.bad += result[2 * b];
      outcome.failed += result[2 * b + 1];
    }
    return outcome;
  }
  // Every block passed every barrier and saw every block's word.
  void ExpectAllRoundsHeld() {
    const Outcome outcome = Read();
    EXPECT_TRUE(outcome.ran);
    EXPECT_EQ(outcome.failed, 0u) << "grid_sync() gave up";
    EXPECT_EQ(outcome.bad, 0u) << "a block read a word before its writer reached the barrier";
  }
  void ExpectNotRun() { EXPECT_FALSE(Read().ran); }

 private:
  uint32_t blocks_;
  CUdeviceptr words_ = 0;
  CUdeviceptr result_ = 0;
  uint32_t rounds_ = kRounds;
  void* params_[3] = {&words_, &result_, &rounds_};
};

TEST_F(CooperativeConformance, DeviceReportsCooperativeLaunchWhereBlocksAreResidentTogether) {
  const int expected = CooperativeExpected() ? 1 : 0;
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH), expected);
  EXPECT_EQ(DeviceAttribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH), expected);
  int hip_value = -1;
  EXPECT_HIP(hipSuccess, hipDeviceGetAttribute(&hip_value, hipDeviceAttributeCooperativeLaunch, 0));
  EXPECT_EQ(hip_value, expected);
  EXPECT_HIP(hipSuccess,
             hipDeviceGetAttribute(&hip_value, hipDeviceAttributeCooperativeMultiDeviceLaunch, 0));
  EXPECT_EQ(hip_value, expected);
}

TEST_F(CooperativeConformance, CudaGridBarrierHoldsForAHundredRoundsAtTheResidentMaximum) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(f);
  ASSERT_GE(grid, 1);
  ASSERT_LE(grid, static_cast<int>(kMaxBlocks));
  Rounds run(grid);
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchCooperativeKernel(f, grid, 1, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  run.ExpectAllRoundsHeld();
  // The barrier's words start afresh for each launch: a second run holds too.
  Rounds again(grid);
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchCooperativeKernel(f, grid, 1, 1, kThreads, 1, 1, 0, nullptr, again.params()));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  again.ExpectAllRoundsHeld();
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(CooperativeConformance, HipGridBarrierHoldsForAHundredRoundsAtTheResidentMaximum) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  hipModule_t module = nullptr;
  hipFunction_t f = LoadHipKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(reinterpret_cast<CUfunction>(f));
  ASSERT_GE(grid, 1);
  Rounds run(grid);
  hipStream_t stream = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamCreate(&stream));
  ASSERT_HIP(hipSuccess, hipModuleLaunchCooperativeKernel(f, grid, 1, 1, kThreads, 1, 1, 0, stream,
                                                          run.params()));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(stream));
  run.ExpectAllRoundsHeld();
  EXPECT_HIP(hipSuccess, hipStreamDestroy(stream));
  EXPECT_HIP(hipSuccess, hipModuleUnload(module));
}

TEST_F(CooperativeConformance, LaunchKernelExCooperativeAttributeRunsTheGridBarrier) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(f);
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attribute.value.cooperative = 1;
  CUlaunchConfig config = {};
  config.gridDimX = grid;
  config.gridDimY = config.gridDimZ = 1;
  config.blockDimX = kThreads;
  config.blockDimY = config.blockDimZ = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  Rounds run(grid);
  ASSERT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&config, f, run.params(), nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  run.ExpectAllRoundsHeld();
  // One block more than runs at once.
  Rounds too_many(grid + 1);
  config.gridDimX = grid + 1;
  EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
            cuLaunchKernelEx(&config, f, too_many.params(), nullptr));
  // cooperative = 0 is an ordinary launch.
  attribute.value.cooperative = 0;
  config.gridDimX = 1;
  Rounds ordinary(1);
  EXPECT_CU(CUDA_SUCCESS, cuLaunchKernelEx(&config, f, ordinary.params(), nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  too_many.ExpectNotRun();
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(CooperativeConformance, OneBlockMoreThanRunsAtOnceIsTooLarge) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(f) + 1;
  Rounds run(grid);
  EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
            cuLaunchCooperativeKernel(f, grid, 1, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  // In y and z too: the grid's blocks count, not its x extent.
  EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
            cuLaunchCooperativeKernel(f, 1, grid, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  EXPECT_HIP(hipErrorCooperativeLaunchTooLarge,
             hipModuleLaunchCooperativeKernel(reinterpret_cast<hipFunction_t>(f), 1, 1, grid,
                                              kThreads, 1, 1, 0, nullptr, run.params()));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  run.ExpectNotRun();
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// Without a cooperative launch nothing proves co-residency, so grid_sync()
// does not wait at all: in an ordinary launch (here one block more than runs
// at once, which would never pass a real barrier) it returns false at once,
// and the kernel ends.
TEST_F(CooperativeConformance, GridSyncInAnOrdinaryLaunchReturnsFalseInsteadOfWaiting) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(f) + 1;
  Rounds run(grid);
  ASSERT_CU(CUDA_SUCCESS,
            cuLaunchKernel(f, grid, 1, 1, kThreads, 1, 1, 0, nullptr, run.params(), nullptr));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  const Rounds::Outcome outcome = run.Read();
  EXPECT_TRUE(outcome.ran);
  EXPECT_EQ(outcome.failed, grid * kThreads * kRounds);  // every call, every thread
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

TEST_F(CooperativeConformance, BadArgumentsAreRejectedAndNothingRuns) {
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  hipFunction_t hf = reinterpret_cast<hipFunction_t>(f);
  Rounds run(1);
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLaunchCooperativeKernel(nullptr, 1, 1, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  EXPECT_HIP(
      HipEquivalent(CUDA_ERROR_INVALID_HANDLE),
      hipModuleLaunchCooperativeKernel(nullptr, 1, 1, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchCooperativeKernel(f, 0, 1, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchCooperativeKernel(f, 1, 1, 1, 4096, 1, 1, 0, nullptr, run.params()));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchCooperativeKernel(f, 1, 1, 1, kThreads, 1, 1, 0, nullptr, nullptr));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
            cuLaunchCooperativeKernel(f, 1, 1, 1, kThreads, 1, 1, 1u << 30, nullptr, run.params()));
  EXPECT_HIP(
      HipEquivalent(CUDA_ERROR_INVALID_VALUE),
      hipModuleLaunchCooperativeKernel(hf, 1, 0, 1, kThreads, 1, 1, 0, nullptr, run.params()));
  CUstream destroyed = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&destroyed, 0));
  ASSERT_CU(CUDA_SUCCESS, cuStreamDestroy(destroyed));
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE,
            cuLaunchCooperativeKernel(f, 1, 1, 1, kThreads, 1, 1, 0, destroyed, run.params()));
  ASSERT_CU(CUDA_SUCCESS, cuCtxSynchronize());
  run.ExpectNotRun();
  // Refused while capturing a graph (the barrier's words are per launch).
  CUstream stream = nullptr;
  ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  ASSERT_CU(CUDA_SUCCESS, cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_RELAXED));
  if (CooperativeExpected()) {
    EXPECT_CU(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
              cuLaunchCooperativeKernel(f, 1, 1, 1, kThreads, 1, 1, 0, stream, run.params()));
  }
  CUgraph graph = nullptr;
  (void)cuStreamEndCapture(stream, &graph);
  if (graph != nullptr) (void)cuGraphDestroy(graph);
  EXPECT_CU(CUDA_SUCCESS, cuStreamDestroy(stream));
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// --- Host-function form (hipLaunchCooperativeKernel) -----------------------------------

volatile int g_stub_calls = 0;
void grid_rounds(void*, void*, uint32_t) { g_stub_calls = g_stub_calls + 1; }
void other_kernel(void*, void*, uint32_t) { g_stub_calls = g_stub_calls + 2; }
void NotAKernel() { g_stub_calls = g_stub_calls + 3; }

// A registration of one GLSL image with one kernel ("main") under `stub`.
class Registration {
 public:
  Registration(const void* image, const void* stub) {
    wrapper_ = {0x48495046u, 1u, image, nullptr};
    modules_ = __hipRegisterFatBinary(&wrapper_);
    __hipRegisterFunction(modules_, stub, const_cast<char*>(kEntry), kEntry, 0, nullptr, nullptr,
                          nullptr, nullptr, nullptr);
  }
  ~Registration() { __hipUnregisterFatBinary(modules_); }

 private:
  struct {
    uint32_t magic;
    uint32_t version;
    const void* binary;
    void* unused;
  } wrapper_;
  void** modules_ = nullptr;
};

TEST_F(CooperativeConformance, HipLaunchCooperativeKernelTakesTheHostStub) {
  if (!CooperativeExpected()) GTEST_SKIP() << "no cooperative launches on this device";
  Registration registration(kGridRoundsGlsl, reinterpret_cast<const void*>(&grid_rounds));
  CUmodule module = nullptr;
  CUfunction f = LoadCudaKernel(kGridRoundsGlsl, kEntry, &module);
  ASSERT_NE(f, nullptr);
  const int grid = ResidentGrid(f);
  Rounds run(grid);
  ASSERT_HIP(hipSuccess,
             hipLaunchCooperativeKernel(reinterpret_cast<const void*>(&grid_rounds), dim3(grid),
                                        dim3(kThreads), run.params(), 0, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  run.ExpectAllRoundsHeld();
  Rounds too_many(grid + 1);
  EXPECT_HIP(hipErrorCooperativeLaunchTooLarge,
             hipLaunchCooperativeKernel(reinterpret_cast<const void*>(&grid_rounds), dim3(grid + 1),
                                        dim3(kThreads), too_many.params(), 0, nullptr));
  EXPECT_HIP(hipErrorInvalidDeviceFunction,
             hipLaunchCooperativeKernel(reinterpret_cast<const void*>(&NotAKernel), dim3(1),
                                        dim3(kThreads), too_many.params(), 0, nullptr));
  EXPECT_HIP(
      hipErrorInvalidDeviceFunction,
      hipLaunchCooperativeKernel(nullptr, dim3(1), dim3(kThreads), too_many.params(), 0, nullptr));
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  too_many.ExpectNotRun();
  EXPECT_CU(CUDA_SUCCESS, cuModuleUnload(module));
}

// --- Multi-device forms --------------------------------------------------------------

// Sets an environment variable for the life of the object.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = std::string(old);
    setenv(name, value, 1);
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

// Two devices (one lavapipe device presented twice), a context, module and
// stream on each; the launches of one test use both.
class MultiDeviceCooperativeConformance : public UninitializedTest {
 protected:
  void SetUp() override {
    UninitializedTest::SetUp();
    ASSERT_CU(CUDA_SUCCESS, cuInit(0));
    int count = 0;
    ASSERT_CU(CUDA_SUCCESS, cuDeviceGetCount(&count));
    ASSERT_GE(count, 2);
    for (int d = 0; d < 2; ++d) {
      ASSERT_CU(CUDA_SUCCESS, cuCtxCreate(&side_[d].context, 0, d));
      side_[d].function = LoadCudaKernel(kGridRoundsGlsl, kEntry, &side_[d].module);
      side_[d].other = LoadCudaKernel(kOtherGlsl, kEntry, &side_[d].other_module);
      ASSERT_NE(side_[d].function, nullptr);
      ASSERT_NE(side_[d].other, nullptr);
      ASSERT_CU(CUDA_SUCCESS, cuStreamCreate(&side_[d].stream, CU_STREAM_NON_BLOCKING));
      CUcontext popped = nullptr;
      ASSERT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
    }
    ASSERT_CU(CUDA_SUCCESS, cuCtxPushCurrent(side_[0].context));
    cooperative_ = DeviceAttribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH) == 1;
  }
  void TearDown() override {
    for (Side& side : side_) {
      if (side.context != nullptr) {
        EXPECT_CU(CUDA_SUCCESS, cuCtxDestroy(side.context));
      }
    }
    UninitializedTest::TearDown();
  }
  // Runs `body` with `d`'s context current.
  void In(int d, const std::function<void()>& body) {
    EXPECT_CU(CUDA_SUCCESS, cuCtxPushCurrent(side_[d].context));
    body();
    CUcontext popped = nullptr;
    EXPECT_CU(CUDA_SUCCESS, cuCtxPopCurrent(&popped));
  }
  CUDA_LAUNCH_PARAMS Params(int d, uint32_t grid, void** params) {
    CUDA_LAUNCH_PARAMS p = {};
    p.function = side_[d].function;
    p.gridDimX = grid;
    p.gridDimY = p.gridDimZ = 1;
    p.blockDimX = kThreads;
    p.blockDimY = p.blockDimZ = 1;
    p.hStream = side_[d].stream;
    p.kernelParams = params;
    return p;
  }

  struct Side {
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUmodule other_module = nullptr;
    CUfunction function = nullptr;
    CUfunction other = nullptr;
    CUstream stream = nullptr;
  };
  ScopedEnv split_{"STREAMHAL_VK_DEVICES_PER_GPU", "2"};
  Side side_[2];
  bool cooperative_ = false;
};

TEST_F(MultiDeviceCooperativeConformance, CudaMultiDeviceLaunchRunsTheBarrierOnEachDevice) {
  if (!cooperative_) GTEST_SKIP() << "no cooperative launches on this device";
  const int grid = ResidentGrid(side_[0].function);
  std::optional<Rounds> runs[2];
  In(0, [&] { runs[0].emplace(grid); });
  In(1, [&] { runs[1].emplace(grid); });
  CUDA_LAUNCH_PARAMS list[2] = {Params(0, grid, runs[0]->params()),
                                Params(1, grid, runs[1]->params())};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchCooperativeKernelMultiDevice(list, 2, 0));
  // Without the post-launch flag the call returns with both kernels done.
  In(0, [&] { runs[0]->ExpectAllRoundsHeld(); });
  In(1, [&] { runs[1]->ExpectAllRoundsHeld(); });
  // Both sync flags: the launches are only ordered in their streams.
  std::optional<Rounds> again[2];
  In(0, [&] { again[0].emplace(grid); });
  In(1, [&] { again[1].emplace(grid); });
  CUDA_LAUNCH_PARAMS list2[2] = {Params(0, grid, again[0]->params()),
                                 Params(1, grid, again[1]->params())};
  ASSERT_CU(CUDA_SUCCESS, cuLaunchCooperativeKernelMultiDevice(
                              list2, 2,
                              CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_PRE_LAUNCH_SYNC |
                                  CUDA_COOPERATIVE_LAUNCH_MULTI_DEVICE_NO_POST_LAUNCH_SYNC));
  for (int d = 0; d < 2; ++d) {
    In(d, [&] {
      EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(side_[d].stream));
      again[d]->ExpectAllRoundsHeld();
    });
  }
  In(0, [&] {
    runs[0].reset();
    again[0].reset();
  });
  In(1, [&] {
    runs[1].reset();
    again[1].reset();
  });
}

TEST_F(MultiDeviceCooperativeConformance, HipMultiDeviceLaunchesRunOnEachDevice) {
  if (!cooperative_) GTEST_SKIP() << "no cooperative launches on this device";
  const int grid = ResidentGrid(side_[0].function);
  std::optional<Rounds> runs[2];
  In(0, [&] { runs[0].emplace(grid); });
  In(1, [&] { runs[1].emplace(grid); });
  hipFunctionLaunchParams list[2] = {};
  for (int d = 0; d < 2; ++d) {
    list[d].function = reinterpret_cast<hipFunction_t>(side_[d].function);
    list[d].gridDimX = grid;
    list[d].gridDimY = list[d].gridDimZ = 1;
    list[d].blockDimX = kThreads;
    list[d].blockDimY = list[d].blockDimZ = 1;
    list[d].hStream = reinterpret_cast<hipStream_t>(side_[d].stream);
    list[d].kernelParams = runs[d]->params();
  }
  ASSERT_HIP(hipSuccess, hipModuleLaunchCooperativeKernelMultiDevice(list, 2, 0));
  In(0, [&] { runs[0]->ExpectAllRoundsHeld(); });
  In(1, [&] { runs[1]->ExpectAllRoundsHeld(); });

  // The host-function forms: a registered image, resolved in each context.
  Registration rounds(kGridRoundsGlsl, reinterpret_cast<const void*>(&grid_rounds));
  Registration other(kOtherGlsl, reinterpret_cast<const void*>(&other_kernel));
  std::optional<Rounds> again[2];
  In(0, [&] { again[0].emplace(grid); });
  In(1, [&] { again[1].emplace(grid); });
  hipLaunchParams host[2] = {};
  for (int d = 0; d < 2; ++d) {
    host[d].func = reinterpret_cast<void*>(&grid_rounds);
    host[d].gridDim = dim3(grid);
    host[d].blockDim = dim3(kThreads);
    host[d].args = again[d]->params();
    host[d].stream = reinterpret_cast<hipStream_t>(side_[d].stream);
  }
  ASSERT_HIP(hipSuccess, hipLaunchCooperativeKernelMultiDevice(host, 2, 0));
  In(0, [&] { again[0]->ExpectAllRoundsHeld(); });
  In(1, [&] { again[1]->ExpectAllRoundsHeld(); });

  // hipExtLaunchMultiKernelMultiDevice: different kernels, ordinary launches.
  CUdeviceptr result[2] = {0, 0};
  uint32_t add[2] = {10, 20};
  void* args[2][3];
  for (int d = 0; d < 2; ++d) {
    In(d, [&] {
      EXPECT_CU(CUDA_SUCCESS, cuMemAlloc(&result[d], 4));
      EXPECT_CU(CUDA_SUCCESS, cuMemsetD32(result[d], 0, 1));
    });
    args[d][0] = &result[d];
    args[d][1] = &result[d];
    args[d][2] = &add[d];
    host[d].func = reinterpret_cast<void*>(&other_kernel);
    host[d].gridDim = dim3(d + 2);
    host[d].blockDim = dim3(kThreads);
    host[d].args = args[d];
  }
  ASSERT_HIP(hipSuccess, hipExtLaunchMultiKernelMultiDevice(host, 2, 0));
  for (int d = 0; d < 2; ++d) {
    In(d, [&] {
      EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(side_[d].stream));
      EXPECT_EQ(CudaDownload<uint32_t>(result[d], 1)[0], static_cast<uint32_t>(d + 2 + add[d]));
      EXPECT_CU(CUDA_SUCCESS, cuMemFree(result[d]));
    });
  }
  In(0, [&] {
    runs[0].reset();
    again[0].reset();
  });
  In(1, [&] {
    runs[1].reset();
    again[1].reset();
  });
}

TEST_F(MultiDeviceCooperativeConformance, MultiDeviceLaunchesRejectBadListsAndLaunchNothing) {
  std::optional<Rounds> runs[2];
  In(0, [&] { runs[0].emplace(1); });
  In(1, [&] { runs[1].emplace(1); });
  CUDA_LAUNCH_PARAMS list[2] = {Params(0, 1, runs[0]->params()), Params(1, 1, runs[1]->params())};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(nullptr, 2, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(list, 0, 0));
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(list, 2, 0x4));
  // Two launches on one device.
  CUDA_LAUNCH_PARAMS same[2] = {list[0], list[0]};
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(same, 2, 0));
  // Grids that differ.
  CUDA_LAUNCH_PARAMS differ[2] = {list[0], list[1]};
  differ[1].gridDimX = 2;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(differ, 2, 0));
  // Kernels that differ.
  differ[1] = list[1];
  differ[1].function = side_[1].other;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(differ, 2, 0));
  // A null stream names no device.
  differ[1] = list[1];
  differ[1].hStream = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(differ, 2, 0));
  // A function of the other device than its stream.
  differ[1] = list[1];
  differ[1].function = side_[0].function;
  EXPECT_CU(CUDA_ERROR_INVALID_HANDLE, cuLaunchCooperativeKernelMultiDevice(differ, 2, 0));
  // Missing parameters in the second launch: the first did not run either.
  differ[1] = list[1];
  differ[1].kernelParams = nullptr;
  EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(differ, 2, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipModuleLaunchCooperativeKernelMultiDevice(nullptr, 2, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipLaunchCooperativeKernelMultiDevice(nullptr, 2, 0));
  hipLaunchParams host[1] = {};
  EXPECT_HIP(hipErrorInvalidValue, hipLaunchCooperativeKernelMultiDevice(host, -1, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipExtLaunchMultiKernelMultiDevice(nullptr, 1, 0));
  EXPECT_HIP(hipErrorInvalidValue, hipExtLaunchMultiKernelMultiDevice(host, 1, 0x2));
  host[0].func = reinterpret_cast<void*>(&NotAKernel);
  host[0].gridDim = dim3(1);
  host[0].blockDim = dim3(kThreads);
  host[0].stream = reinterpret_cast<hipStream_t>(side_[0].stream);
  host[0].args = runs[0]->params();
  EXPECT_HIP(hipErrorInvalidDeviceFunction, hipExtLaunchMultiKernelMultiDevice(host, 1, 0));
  if (cooperative_) {
    // Too large on one device refuses the whole list.
    CUDA_LAUNCH_PARAMS large[2] = {list[0], list[1]};
    const int grid = ResidentGrid(side_[0].function) + 1;
    large[0].gridDimX = large[1].gridDimX = grid;
    EXPECT_CU(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
              cuLaunchCooperativeKernelMultiDevice(large, 2, 0));
  }
  for (int d = 0; d < 2; ++d) {
    In(d, [&] {
      EXPECT_CU(CUDA_SUCCESS, cuStreamSynchronize(side_[d].stream));
      runs[d]->ExpectNotRun();
      runs[d].reset();
    });
  }
}

}  // namespace
}  // namespace streamhal::conformance
