// Rows: stream capture through HIP (hipStreamBeginCapture ...
// hipStreamEndCapture): the same two-stream pipeline run on streams and as
// a captured graph gives the same results; the documented capture errors.
#include <hip/hip_runtime_api.h>

#include <vector>

#include "conformance_kernels.h"
#include "conformance_util.h"

namespace streamhal::conformance {
namespace {

constexpr unsigned kN = 1024;

class HipCaptureConformance : public DriverTest {
 protected:
  void SetUp() override {
    DriverTest::SetUp();
    if (HasFatalFailure()) return;
    function_ = LoadHipKernel(kScaleOffsetGlsl, "scale_offset", &module_);
    ASSERT_NE(function_, nullptr);
    ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&s1_, hipStreamNonBlocking));
    ASSERT_HIP(hipSuccess, hipStreamCreateWithFlags(&s2_, hipStreamNonBlocking));
    ASSERT_HIP(hipSuccess, hipEventCreateWithFlags(&fork_, hipEventDisableTiming));
    ASSERT_HIP(hipSuccess, hipEventCreateWithFlags(&join_, hipEventDisableTiming));
  }
  void TearDown() override {
    for (hipStream_t s : {s1_, s2_}) EXPECT_HIP(hipSuccess, hipStreamDestroy(s));
    for (hipEvent_t e : {fork_, join_}) EXPECT_HIP(hipSuccess, hipEventDestroy(e));
    DriverTest::TearDown();
  }
  void Launch(hipStream_t stream, void** data, float scale, float offset) {
    scale_ = scale;
    offset_ = offset;
    void* args[] = {data, &scale_, &offset_, &n_};
    EXPECT_HIP(hipSuccess,
               hipModuleLaunchKernel(function_, kN / 64, 1, 1, 64, 1, 1, 0, stream, args, nullptr));
  }
  // a = 1; fork: a = 2a + 1 on s1, b = 3 on s2 (fill) then b = b + 4; join;
  // c = b copied, c = c * a... as scale: c = 10c.
  void Issue(void** a, void** b, void** c) {
    EXPECT_HIP(hipSuccess, hipMemsetD32Async(*a, static_cast<int>(0x3f800000u), kN, s1_));  // 1.0f
    EXPECT_HIP(hipSuccess, hipEventRecord(fork_, s1_));
    EXPECT_HIP(hipSuccess, hipStreamWaitEvent(s2_, fork_, 0));
    Launch(s1_, a, 2.0f, 1.0f);
    EXPECT_HIP(hipSuccess, hipMemsetD32Async(*b, static_cast<int>(0x40400000u), kN, s2_));  // 3.0f
    Launch(s2_, b, 1.0f, 4.0f);
    EXPECT_HIP(hipSuccess, hipEventRecord(join_, s2_));
    EXPECT_HIP(hipSuccess, hipStreamWaitEvent(s1_, join_, 0));
    EXPECT_HIP(hipSuccess,
               hipMemcpyAsync(*c, *b, kN * sizeof(float), hipMemcpyDeviceToDevice, s1_));
    Launch(s1_, c, 10.0f, 0.0f);
  }
  std::vector<float> Read(void* pointer) {
    std::vector<float> values(kN);
    EXPECT_HIP(hipSuccess,
               hipMemcpy(values.data(), pointer, kN * sizeof(float), hipMemcpyDeviceToHost));
    return values;
  }

  hipModule_t module_ = nullptr;
  hipFunction_t function_ = nullptr;
  hipStream_t s1_ = nullptr, s2_ = nullptr;
  hipEvent_t fork_ = nullptr, join_ = nullptr;
  float scale_ = 1.0f, offset_ = 0.0f;
  unsigned n_ = kN;
};

TEST_F(HipCaptureConformance, ACapturedPipelineMatchesTheSameWorkOnStreams) {
  void *a = nullptr, *b = nullptr, *c = nullptr;
  for (void** p : {&a, &b, &c}) ASSERT_HIP(hipSuccess, hipMalloc(p, kN * sizeof(float)));
  Issue(&a, &b, &c);
  ASSERT_HIP(hipSuccess, hipDeviceSynchronize());
  const std::vector<float> a_streams = Read(a), c_streams = Read(c);
  EXPECT_EQ(a_streams, std::vector<float>(kN, 3.0f));
  EXPECT_EQ(c_streams, std::vector<float>(kN, 70.0f));
  for (void* p : {a, b, c}) ASSERT_HIP(hipSuccess, hipMemset(p, 0, kN * sizeof(float)));

  ASSERT_HIP(hipSuccess, hipStreamBeginCapture(s1_, hipStreamCaptureModeGlobal));
  Issue(&a, &b, &c);
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  unsigned long long id = 0;
  ASSERT_HIP(hipSuccess, hipStreamGetCaptureInfo(s2_, &status, &id));
  EXPECT_EQ(status, hipStreamCaptureStatusActive);
  EXPECT_NE(id, 0u);
  hipGraph_t graph = nullptr;
  const hipGraphNode_t* deps = nullptr;
  size_t count = 0;
  ASSERT_HIP(hipSuccess, hipStreamGetCaptureInfo_v2(s1_, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(count, 1u);
  hipGraph_t captured = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamEndCapture(s1_, &captured));
  EXPECT_EQ(captured, graph);
  ASSERT_HIP(hipSuccess, hipStreamIsCapturing(s1_, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusNone);
  EXPECT_EQ(Read(c), std::vector<float>(kN, 0.0f));  // nothing ran while capturing
  size_t nodes = 0;
  ASSERT_HIP(hipSuccess, hipGraphGetNodes(captured, nullptr, &nodes));
  EXPECT_EQ(nodes, 6u);
  hipGraphExec_t exec = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphInstantiate(&exec, captured, nullptr, nullptr, 0));
  for (int i = 0; i < 3; ++i) ASSERT_HIP(hipSuccess, hipGraphLaunch(exec, s1_));
  ASSERT_HIP(hipSuccess, hipStreamSynchronize(s1_));
  EXPECT_EQ(Read(a), a_streams);
  EXPECT_EQ(Read(c), c_streams);
  EXPECT_HIP(hipSuccess, hipGraphExecDestroy(exec));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(captured));
  for (void* p : {a, b, c}) EXPECT_HIP(hipSuccess, hipFree(p));
}

TEST_F(HipCaptureConformance, CaptureErrorsAndDependenciesFollowTheDocumentation) {
  void* a = nullptr;
  ASSERT_HIP(hipSuccess, hipMalloc(&a, kN * sizeof(float)));
  hipGraph_t graph = nullptr;
  EXPECT_HIP(hipErrorStreamCaptureUnsupported,
             hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal));
  // A synchronisation invalidates the capture.
  ASSERT_HIP(hipSuccess, hipStreamBeginCapture(s1_, hipStreamCaptureModeGlobal));
  EXPECT_HIP(hipErrorStreamCaptureUnsupported, hipStreamSynchronize(s1_));
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  ASSERT_HIP(hipSuccess, hipStreamIsCapturing(s1_, &status));
  EXPECT_EQ(status, hipStreamCaptureStatusInvalidated);
  EXPECT_HIP(hipErrorStreamCaptureInvalidated, hipStreamEndCapture(s1_, &graph));
  // A fork that is not joined.
  ASSERT_HIP(hipSuccess, hipStreamBeginCapture(s1_, hipStreamCaptureModeRelaxed));
  ASSERT_HIP(hipSuccess, hipEventRecord(fork_, s1_));
  EXPECT_HIP(hipErrorCapturedEvent, hipEventQuery(fork_));
  ASSERT_HIP(hipSuccess, hipStreamWaitEvent(s2_, fork_, 0));
  Launch(s2_, &a, 1.0f, 1.0f);
  EXPECT_HIP(hipErrorStreamCaptureUnjoined, hipStreamEndCapture(s1_, &graph));
  // Dependencies set by hand.
  ASSERT_HIP(hipSuccess, hipStreamBeginCapture(s1_, hipStreamCaptureModeGlobal));
  Launch(s1_, &a, 1.0f, 1.0f);
  const hipGraphNode_t* deps = nullptr;
  size_t count = 0;
  unsigned long long id = 0;
  ASSERT_HIP(hipSuccess, hipStreamGetCaptureInfo_v2(s1_, &status, &id, &graph, &deps, &count));
  ASSERT_EQ(count, 1u);
  hipGraphNode_t empty = nullptr;
  ASSERT_HIP(hipSuccess, hipGraphAddEmptyNode(&empty, graph, nullptr, 0));
  ASSERT_HIP(hipSuccess,
             hipStreamUpdateCaptureDependencies(s1_, &empty, 1, hipStreamAddCaptureDependencies));
  ASSERT_HIP(hipSuccess, hipStreamGetCaptureInfo_v2(s1_, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(count, 2u);
  ASSERT_HIP(hipSuccess,
             hipStreamUpdateCaptureDependencies(s1_, &empty, 1, hipStreamSetCaptureDependencies));
  ASSERT_HIP(hipSuccess, hipStreamGetCaptureInfo_v2(s1_, &status, &id, &graph, &deps, &count));
  EXPECT_EQ(count, 1u);
  EXPECT_HIP(hipErrorInvalidValue, hipStreamUpdateCaptureDependencies(s1_, &empty, 1, 7));
  hipGraph_t captured = nullptr;
  ASSERT_HIP(hipSuccess, hipStreamEndCapture(s1_, &captured));
  EXPECT_HIP(hipSuccess, hipGraphDestroy(captured));
  hipStreamCaptureMode mode = hipStreamCaptureModeRelaxed;
  ASSERT_HIP(hipSuccess, hipThreadExchangeStreamCaptureMode(&mode));
  EXPECT_EQ(mode, hipStreamCaptureModeGlobal);
  ASSERT_HIP(hipSuccess, hipThreadExchangeStreamCaptureMode(&mode));
  EXPECT_HIP(hipErrorInvalidValue, hipThreadExchangeStreamCaptureMode(nullptr));
  EXPECT_HIP(hipSuccess, hipFree(a));
}

}  // namespace
}  // namespace streamhal::conformance
