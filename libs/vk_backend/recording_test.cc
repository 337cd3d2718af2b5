#include "vk_backend/recording.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "core/status.h"
#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/fault_injection.h"
#include "vk_backend/kernel.h"
#include "vk_backend/stream.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

using testing::LoadedKernel;
using testing::LoadGlslKernel;

constexpr char kPrelude[] = R"(#version 460
#extension GL_GOOGLE_include_directive : require
#define STREAMHAL_NO_DUNDER_NAMES
#include "streamhal/kernel.glsl"
STREAMHAL_DECLARE_PTR(uint);
)";

// v[i] += 1 for i < n (not atomic: runs are ordered by their stream).
constexpr char kIncrement[] = R"(
layout(push_constant) uniform Params { uint_ptr v; uint n; } p;
void main() {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.v.v[i] += 1u;
})";

// v[0] = 2 * v[0] + 1, one thread.
constexpr char kDoublePlusOne[] = R"(
layout(push_constant) uniform Params { uint_ptr v; } p;
void main() { p.v.v[0] = 2u * p.v.v[0] + 1u; })";

// v[0] += 10, one thread.
constexpr char kAddTen[] = R"(
layout(push_constant) uniform Params { uint_ptr v; } p;
void main() { p.v.v[0] += 10u; })";

// dst[i] += values[i]: 1 KiB of parameters, far above push-constant space.
constexpr char kBigParams[] = R"(
layout(push_constant) uniform Params { uint_ptr dst; uint values[254]; } p;
void main() {
  uint i = threadIdx.x;
  if (i < 254) p.dst.v[i] += p.values[i];
})";

// hits[blockIdx.x] += 1 over a grid wider than one dispatch.
constexpr char kCountBlocks[] = R"(
layout(push_constant) uniform Params { uint_ptr hits; } p;
void main() { atomicAdd(p.hits.v[blockIdx.x], 1u); })";

// total[0] += the sum of the bytes of words[0..8), one thread.
constexpr char kSumBytes[] = R"(
layout(push_constant) uniform Params { uint_ptr words; uint_ptr total; } p;
void main() {
  uint sum = 0u;
  for (uint k = 0u; k < 8u; ++k) {
    uint w = p.words.v[k];
    sum += (w & 0xffu) + ((w >> 8) & 0xffu) + ((w >> 16) & 0xffu) + (w >> 24);
  }
  p.total.v[0] += sum;
})";

// y[i] = 2 * x[i] for i < n.
constexpr char kDouble[] = R"(
layout(push_constant) uniform Params { uint_ptr x; uint_ptr y; uint n; } p;
void main() {
  uint i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y.v[i] = 2u * p.x.v[i];
})";

// counter[0] += 1 per thread, atomically.
constexpr char kAtomicCount[] = R"(
layout(push_constant) uniform Params { uint_ptr counter; } p;
void main() { atomicAdd(p.counter.v[0], 1u); })";

uint32_t* Words(const std::unique_ptr<BackendAllocation>& allocation) {
  return static_cast<uint32_t*>(allocation->host_pointer());
}
uint8_t* Bytes(const std::unique_ptr<BackendAllocation>& allocation) {
  return static_cast<uint8_t*>(allocation->host_pointer());
}

DispatchParams Dispatch(const LoadedKernel& kernel, std::array<uint32_t, 3> grid,
                        std::array<uint32_t, 3> block, const void* params) {
  DispatchParams dispatch;
  dispatch.kernel = kernel.kernel.get();
  dispatch.grid = grid;
  dispatch.block = block;
  dispatch.params = params;
  return dispatch;
}

// A host function that blocks its stream until Release().
class Gate {
 public:
  static void Hold(void* gate) { static_cast<Gate*>(gate)->opened_.WaitForNotification(); }
  void Release() { opened_.Notify(); }

 private:
  absl::Notification opened_;
};

class RecordingTest : public testing::LavapipeTest {
 protected:
  LoadedKernel Load(const char* body, bool params_in_uniform = false) {
    auto kernel = LoadGlslKernel(device(), std::string(kPrelude) + body, params_in_uniform);
    EXPECT_TRUE(kernel.ok()) << kernel.status();
    return kernel.ok() ? *std::move(kernel) : LoadedKernel{};
  }
  std::unique_ptr<BackendRecorder> NewRecorder() {
    auto recorder = device()->CreateRecorder();
    EXPECT_TRUE(recorder.ok()) << recorder.status();
    return recorder.ok() ? *std::move(recorder) : nullptr;
  }
  static std::shared_ptr<BackendRecording> Finish(BackendRecorder* recorder) {
    auto recording = recorder->Finish();
    EXPECT_TRUE(recording.ok()) << recording.status();
    return recording.ok() ? *std::move(recording) : nullptr;
  }
  // A recording of one increment of v[0..n).
  std::shared_ptr<BackendRecording> RecordIncrement(const LoadedKernel& increment,
                                                    BackendAllocation* v, uint32_t n) {
    struct {
      uint64_t v;
      uint32_t n;
    } params = {v->device_address(), n};
    auto recorder = NewRecorder();
    EXPECT_TRUE(
        recorder->RecordDispatch(Dispatch(increment, {(n + 63) / 64, 1, 1}, {64, 1, 1}, &params))
            .ok());
    return Finish(recorder.get());
  }
  // A recording of 64 atomic increments of *counter (two blocks of 32).
  std::shared_ptr<BackendRecording> RecordCount(const LoadedKernel& count,
                                                BackendAllocation* counter) {
    const uint64_t params = counter->device_address();
    auto recorder = NewRecorder();
    EXPECT_TRUE(recorder->RecordDispatch(Dispatch(count, {2, 1, 1}, {32, 1, 1}, &params)).ok());
    return Finish(recorder.get());
  }
};

// A grid larger than the device's workgroup-count limit is recorded as several
// dispatches whose blocks all see their global block index. (Kept apart from
// the thousand-run test below: 65,538 one-thread blocks a run are slow on
// lavapipe under the sanitizers.)
TEST_F(RecordingTest, AGridSplitAcrossDispatchesRunsEveryBlockEachRun) {
  const uint32_t max_x = device()->vk_properties().limits.maxComputeWorkGroupCount[0];
  const uint32_t split_blocks = max_x + 3;  // two dispatches
  constexpr uint32_t kRuns = 3;
  LoadedKernel count_blocks = Load(kCountBlocks);
  ASSERT_TRUE(static_cast<VulkanKernel*>(count_blocks.kernel.get())->needs_grid_info());
  auto hits = Allocate(uint64_t{split_blocks} * 4);
  std::memset(hits->host_pointer(), 0, uint64_t{split_blocks} * 4);
  auto recorder = NewRecorder();
  const uint64_t hits_address = hits->device_address();
  ASSERT_TRUE(
      recorder
          ->RecordDispatch(Dispatch(count_blocks, {split_blocks, 1, 1}, {1, 1, 1}, &hits_address))
          .ok());
  auto recording = Finish(recorder.get());
  ASSERT_NE(recording, nullptr);
  auto stream = NewStream();
  for (uint32_t run = 0; run < kRuns; ++run) {
    ASSERT_TRUE(stream->RecordExecute(recording).ok()) << run;
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (uint32_t i = 0; i < split_blocks; ++i) ASSERT_EQ(Words(hits)[i], kRuns) << i;
}

TEST_F(RecordingTest, ARecordingRunAThousandTimesGivesExactResults) {
  constexpr uint32_t kN = 1000;
  constexpr uint32_t kRuns = 1000;
  LoadedKernel increment = Load(kIncrement);
  LoadedKernel big = Load(kBigParams, /*params_in_uniform=*/true);
  LoadedKernel sum_bytes = Load(kSumBytes);
  ASSERT_TRUE(big.layout.params_in_uniform_buffer);

  auto a = Allocate(kN * 4), b = Allocate(256 * 4), c = Allocate(kN * 4), d = Allocate(kN * 4 + 8);
  auto s = Allocate(32), total = Allocate(4);
  std::memset(a->host_pointer(), 0, kN * 4);
  std::memset(b->host_pointer(), 0, 256 * 4);
  std::memset(d->host_pointer(), 0xEE, kN * 4 + 8);
  std::memset(s->host_pointer(), 0x55, 32);
  *Words(total) = 0;

  auto recorder = NewRecorder();
  struct {
    uint64_t v;
    uint32_t n;
  } increment_params = {a->device_address(), kN};
  ASSERT_TRUE(recorder
                  ->RecordDispatch(
                      Dispatch(increment, {(kN + 63) / 64, 1, 1}, {64, 1, 1}, &increment_params))
                  .ok());
  struct {
    uint64_t dst;
    uint32_t values[254];
  } big_params;
  big_params.dst = b->device_address();
  for (uint32_t i = 0; i < 254; ++i) big_params.values[i] = i + 1;
  ASSERT_TRUE(recorder->RecordDispatch(Dispatch(big, {1, 1, 1}, {256, 1, 1}, &big_params)).ok());
  // The parameter block was copied: changing it now changes nothing.
  std::memset(big_params.values, 0, sizeof(big_params.values));
  ASSERT_TRUE(recorder->RecordFill(BufferRange{s.get(), 0}, 0, 4, 8).ok());
  recorder->RecordBarrier();
  // Bytes [1, 14) = 1 (unaligned at both ends), [18, 24) = 01 02 01 02 ...
  // (a 2-byte element edge), after the zero fill above.
  ASSERT_TRUE(recorder->RecordFill(BufferRange{s.get(), 1}, 0x01, 1, 13).ok());
  ASSERT_TRUE(recorder->RecordFill(BufferRange{s.get(), 18}, 0x0201, 2, 3).ok());
  ASSERT_TRUE(recorder->RecordCopy(BufferRange{c.get(), 0}, BufferRange{a.get(), 0}, kN * 4).ok());
  recorder->RecordBarrier();
  struct {
    uint64_t words, total;
  } sum_params = {s->device_address(), total->device_address()};
  ASSERT_TRUE(
      recorder->RecordDispatch(Dispatch(sum_bytes, {1, 1, 1}, {1, 1, 1}, &sum_params)).ok());
  ASSERT_TRUE(
      recorder->RecordCopy(BufferRange{d.get(), 3}, BufferRange{c.get(), 1}, kN * 4 - 1).ok());
  auto recording = Finish(recorder.get());
  ASSERT_NE(recording, nullptr);
  EXPECT_GT(static_cast<VulkanRecording*>(recording.get())->scratch_bytes(), 1024u);

  auto stream = NewStream();
  for (uint32_t run = 0; run < kRuns; ++run) {
    ASSERT_TRUE(stream->RecordExecute(recording).ok()) << run;
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(static_cast<VulkanStream*>(stream.get())->submitted_point(), kRuns);

  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(Words(a)[i], kRuns) << i;
  for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(Words(c)[i], kRuns) << i;
  for (uint32_t i = 0; i < 254; ++i) ASSERT_EQ(Words(b)[i], kRuns * (i + 1)) << i;
  EXPECT_EQ(Words(b)[254], 0u);
  // Each run sums 13 ones and three 0x0201 elements.
  EXPECT_EQ(*Words(total), kRuns * (13 + 3 * 3));
  const uint8_t expected_s[32] = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0,
                                  0, 0, 1, 2, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < 32; ++i) EXPECT_EQ(Bytes(s)[i], expected_s[i]) << i;
  std::vector<uint8_t> c_bytes(Bytes(c), Bytes(c) + kN * 4);
  for (uint32_t i = 0; i < kN * 4 + 8; ++i) {
    const uint8_t expected = i >= 3 && i < kN * 4 + 2 ? c_bytes[i - 2] : 0xEE;
    ASSERT_EQ(Bytes(d)[i], expected) << i;
  }
}

TEST_F(RecordingTest, ABarrierOrdersADependentPair) {
  constexpr uint32_t kN = 1 << 16;
  constexpr uint32_t kRuns = 50;
  LoadedKernel increment = Load(kIncrement);
  LoadedKernel twice = Load(kDouble);
  auto x = Allocate(kN * 4), y = Allocate(kN * 4);
  std::memset(x->host_pointer(), 0, kN * 4);
  std::memset(y->host_pointer(), 0, kN * 4);
  auto recorder = NewRecorder();
  struct {
    uint64_t v;
    uint32_t n;
  } increment_params = {x->device_address(), kN};
  struct {
    uint64_t x, y;
    uint32_t n;
  } double_params = {x->device_address(), y->device_address(), kN};
  ASSERT_TRUE(
      recorder->RecordDispatch(Dispatch(increment, {kN / 64, 1, 1}, {64, 1, 1}, &increment_params))
          .ok());
  recorder->RecordBarrier();
  ASSERT_TRUE(
      recorder->RecordDispatch(Dispatch(twice, {kN / 64, 1, 1}, {64, 1, 1}, &double_params)).ok());
  auto recording = Finish(recorder.get());
  auto stream = NewStream();
  for (uint32_t run = 1; run <= kRuns; ++run) {
    ASSERT_TRUE(stream->RecordExecute(recording).ok());
    if (run % 10 != 0) continue;
    ASSERT_TRUE(Synchronize(stream.get()).ok());
    for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(Words(y)[i], 2 * run) << run << " " << i;
  }
}

TEST_F(RecordingTest, OneRecordingRunsOnTwoStreamsAtOnce) {
  constexpr uint32_t kRuns = 100;
  LoadedKernel count = Load(kAtomicCount);
  auto counter = Allocate(4);
  *Words(counter) = 0;
  auto recording = RecordCount(count, counter.get());
  auto first = NewStream();
  auto second = NewStream();
  // Both streams are held, so runs of the one command buffer pile up
  // pending on both.
  Gate gate;
  ASSERT_TRUE(first->RecordHostFunction(&Gate::Hold, &gate).ok());
  ASSERT_TRUE(second->RecordHostFunction(&Gate::Hold, &gate).ok());
  for (uint32_t run = 0; run < kRuns; ++run) {
    ASSERT_TRUE(first->RecordExecute(recording).ok());
    ASSERT_TRUE(second->RecordExecute(recording).ok());
    if (run == 5) gate.Release();
  }
  ASSERT_TRUE(Synchronize(first.get()).ok());
  ASSERT_TRUE(Synchronize(second.get()).ok());
  EXPECT_EQ(*Words(counter), 2 * kRuns * 64);
}

// A recording runs at many points, so it cannot write a stream's completion
// marker: a wait for its point that needs only the results goes to the
// timeline, and still sees the results.
TEST_F(RecordingTest, AResultsWaitForARunUsesTheTimeline) {
  LoadedKernel count = Load(kAtomicCount);
  auto counter = Allocate(4);
  *Words(counter) = 0;
  auto recording = RecordCount(count, counter.get());
  auto stream = NewStream();
  auto* vk_stream = static_cast<VulkanStream*>(stream.get());
  for (uint32_t run = 1; run <= 3; ++run) {
    ASSERT_TRUE(stream->RecordExecute(recording).ok());
    const uint64_t point = vk_stream->submitted_point();
    EXPECT_FALSE(vk_stream->IsMarked(point));
    ASSERT_TRUE(
        stream->Wait(point, WaitPolicy{1'000'000'000, /*yield=*/true, Completion::kResults}).ok());
    EXPECT_EQ(*Words(counter), run * 64);
    EXPECT_TRUE(*stream->IsComplete(point, Completion::kResults));
  }
}

TEST_F(RecordingTest, DroppingTheRecordingWhileItRunsIsSafe) {
  LoadedKernel increment = Load(kIncrement);
  auto v = Allocate(256 * 4);
  std::memset(v->host_pointer(), 0, 256 * 4);
  auto stream = NewStream();
  Gate gate;
  ASSERT_TRUE(stream->RecordHostFunction(&Gate::Hold, &gate).ok());
  std::weak_ptr<BackendRecording> watched;
  {
    struct {
      uint64_t v;
      uint32_t n;
    } params = {v->device_address(), 256};
    auto recorder = NewRecorder();
    ASSERT_TRUE(recorder->RecordDispatch(Dispatch(increment, {4, 1, 1}, {64, 1, 1}, &params)).ok());
    recorder->RecordBarrier();
    ASSERT_TRUE(recorder->RecordFill(BufferRange{v.get(), 1}, 0x7F, 1, 2).ok());  // edges only
    std::shared_ptr<BackendRecording> recording = Finish(recorder.get());
    watched = recording;
    ASSERT_TRUE(stream->RecordExecute(recording).ok());
    ASSERT_TRUE(stream->RecordExecute(recording).ok());
    // The recorder and the recording go out of scope here, runs pending.
  }
  EXPECT_FALSE(watched.expired()) << "the stream must keep a pending recording alive";
  gate.Release();
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  // Incremented twice; bytes 1 and 2 filled after each increment.
  EXPECT_EQ(Words(v)[0], 0x007F7F02u) << std::hex << Words(v)[0];
  for (int i = 1; i < 256; ++i) ASSERT_EQ(Words(v)[i], 2u) << i;
  stream.reset();
  EXPECT_TRUE(watched.expired());
}

TEST_F(RecordingTest, AnEmptyRecordingRunsInStreamOrder) {
  auto recorder = NewRecorder();
  auto recording = Finish(recorder.get());
  ASSERT_NE(recording, nullptr);
  EXPECT_EQ(static_cast<VulkanRecording*>(recording.get())->scratch_bytes(), 0u);
  auto buffer = Allocate(64);
  auto stream = NewStream();
  auto* vulkan = static_cast<VulkanStream*>(stream.get());
  ASSERT_TRUE(stream->RecordFill(BufferRange{buffer.get(), 0}, 4, 4, 4).ok());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(stream->RecordExecute(recording).ok());
  ASSERT_TRUE(
      stream->RecordCopy(BufferRange{buffer.get(), 32}, BufferRange{buffer.get(), 0}, 16).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  // The fill's batch, one point per run, then the copy's batch.
  EXPECT_EQ(vulkan->submitted_point(), 102u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Words(buffer)[8 + i], 4u) << i;
}

TEST_F(RecordingTest, RunsInterleaveWithStreamCommandsInStreamOrder) {
  LoadedKernel double_plus_one = Load(kDoublePlusOne);
  LoadedKernel add_ten = Load(kAddTen);
  auto v = Allocate(4);
  const uint64_t params = v->device_address();
  auto recorder = NewRecorder();
  ASSERT_TRUE(
      recorder->RecordDispatch(Dispatch(double_plus_one, {1, 1, 1}, {1, 1, 1}, &params)).ok());
  auto recording = Finish(recorder.get());
  auto stream = NewStream();
  ASSERT_TRUE(stream->RecordFill(BufferRange{v.get(), 0}, 3, 4, 1).ok());
  uint32_t expected = 3;
  std::vector<uint32_t> seen(40, 0), wanted(40, 0);
  // More runs and batches than the stream keeps in flight.
  for (int i = 0; i < 40; ++i) {
    ASSERT_TRUE(stream->RecordExecute(recording).ok());
    expected = 2 * expected + 1;
    ASSERT_TRUE(stream->RecordDispatch(Dispatch(add_ten, {1, 1, 1}, {1, 1, 1}, &params)).ok());
    expected += 10;
    ASSERT_TRUE(stream->RecordDownload(&seen[i], BufferRange{v.get(), 0}, 4).ok());
    wanted[i] = expected;
  }
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(seen, wanted);
  EXPECT_EQ(*Words(v), expected);
}

struct HostWrite {
  uint32_t* at = nullptr;
  uint32_t value = 0;
  static void Run(void* data) {
    auto* write = static_cast<HostWrite*>(data);
    *write->at = write->value;
  }
};

TEST_F(RecordingTest, ARunSeesWhatAHostFunctionBeforeItWrote) {
  auto pinned = Allocate(16, MemoryKind::kHostPinned);
  auto dst = Allocate(16);
  std::memset(pinned->host_pointer(), 0, 16);
  std::memset(dst->host_pointer(), 0, 16);
  auto recorder = NewRecorder();
  ASSERT_TRUE(
      recorder->RecordCopy(BufferRange{dst.get(), 0}, BufferRange{pinned.get(), 0}, 4).ok());
  auto recording = Finish(recorder.get());
  auto stream = NewStream();
  HostWrite write{Words(pinned), 1234};
  ASSERT_TRUE(stream->RecordHostFunction(&HostWrite::Run, &write).ok());
  ASSERT_TRUE(stream->RecordExecute(recording).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(*Words(dst), 1234u);
}

TEST_F(RecordingTest, AFailedSubmissionLosesNothing) {
  LoadedKernel increment = Load(kIncrement);
  auto v = Allocate(64 * 4), flag = Allocate(4);
  std::memset(v->host_pointer(), 0, 64 * 4);
  *Words(flag) = 0;
  auto recording = RecordIncrement(increment, v.get(), 64);
  auto producer = NewStream();
  auto consumer = NewStream();
  auto* vulkan = static_cast<VulkanStream*>(consumer.get());

  // Submitted at once: the caller hears of the failure, and the point is
  // not consumed.
  InjectFault(FaultSite::kQueueSubmit, 1, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  const absl::Status failed = consumer->RecordExecute(recording);
  bool fired = FaultFired();
  ClearFaults();
  ASSERT_TRUE(fired);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(vulkan->submitted_point(), 0u) << "the point was consumed";

  // Held back behind a producer that a host function holds (the host thread
  // submits the runs once the producer's point is reached): a failed
  // submission is reported once, by the next wait, and the run after it
  // still waits for the producer. No ASSERT before the gate opens: the
  // streams' teardown waits for it.
  Gate gate;
  EXPECT_TRUE(producer->RecordHostFunction(&Gate::Hold, &gate).ok());
  EXPECT_TRUE(producer->RecordFill(BufferRange{flag.get(), 0}, 1, 4, 1).ok());
  auto produced = producer->Flush();
  EXPECT_TRUE(produced.ok());
  EXPECT_TRUE(consumer->RecordWait(producer.get(), produced.value_or(0)).ok());
  EXPECT_TRUE(consumer->RecordExecute(recording).ok());
  EXPECT_TRUE(consumer->RecordExecute(recording).ok());
  auto consumed = consumer->Flush();
  EXPECT_TRUE(consumed.ok());
  EXPECT_EQ(consumed.value_or(0), 2u);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto done = consumer->IsComplete(consumed.value_or(0));
  EXPECT_TRUE(done.ok());
  EXPECT_FALSE(done.value_or(true)) << "the run lost its wait for the producer";
  // Once the gate opens, the producer's batch is the first submission and
  // the consumer's first run the second.
  InjectFault(FaultSite::kQueueSubmit, 2, VK_ERROR_OUT_OF_DEVICE_MEMORY);
  gate.Release();
  const absl::Status reported = consumer->Wait(consumed.value_or(0));
  fired = FaultFired();
  ClearFaults();
  EXPECT_TRUE(fired);
  EXPECT_FALSE(reported.ok());
  ASSERT_TRUE(consumer->Wait(consumed.value_or(0)).ok()) << "the failure is reported once";
  EXPECT_EQ(*Words(flag), 1u);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(Words(v)[i], 1u) << i;
}

TEST_F(RecordingTest, FinishCanBeRetriedAfterAFailure) {
  auto buffer = Allocate(64);
  std::memset(buffer->host_pointer(), 0, 64);
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->RecordFill(BufferRange{buffer.get(), 5}, 0xAB, 1, 6).ok());
  InjectFault(FaultSite::kBeginCommandBuffer, 1, VK_ERROR_OUT_OF_HOST_MEMORY);
  auto failed = recorder->Finish();
  ClearFaults();
  EXPECT_FALSE(failed.ok());
  auto recording = Finish(recorder.get());
  ASSERT_NE(recording, nullptr);
  auto stream = NewStream();
  ASSERT_TRUE(stream->RecordExecute(recording).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(Bytes(buffer)[i], i >= 5 && i < 11 ? 0xAB : 0) << i;
  }
}

TEST_F(RecordingTest, ARecorderStartsAfreshAfterFinish) {
  auto buffer = Allocate(64);
  std::memset(buffer->host_pointer(), 0, 64);
  auto recorder = NewRecorder();
  ASSERT_TRUE(recorder->RecordFill(BufferRange{buffer.get(), 0}, 1, 4, 1).ok());
  auto first = Finish(recorder.get());
  ASSERT_TRUE(recorder->RecordFill(BufferRange{buffer.get(), 4}, 2, 4, 1).ok());
  auto second = Finish(recorder.get());
  auto stream = NewStream();
  ASSERT_TRUE(stream->RecordExecute(second).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(Words(buffer)[0], 0u);
  EXPECT_EQ(Words(buffer)[1], 2u);
  ASSERT_TRUE(stream->RecordExecute(first).ok());
  ASSERT_TRUE(Synchronize(stream.get()).ok());
  EXPECT_EQ(Words(buffer)[0], 1u);
}

}  // namespace
}  // namespace streamhal::vk
