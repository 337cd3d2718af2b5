#include "core/stream.h"

#include <thread>
#include <vector>

#include "core/context.h"
#include "core/event.h"
#include "core/memory.h"
#include "core/runtime.h"
#include "core/status.h"
#include "core/testing/fake_backend.h"
#include "core/transfer.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

struct Opaque;
using Handle = Opaque*;

class StreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::InstallFakeBackend(1);
    ASSERT_TRUE(Init(0).ok());
    ASSERT_TRUE(CreateContext(HandleOut(&ctx_), 0, 0).ok());
  }
  void TearDown() override { ASSERT_TRUE(Deinit().ok()); }
  uint64_t NewStream(unsigned flags = 0, int priority = 0) {
    Handle stream = nullptr;
    EXPECT_TRUE(StreamCreate(HandleOut(&stream), flags, priority).ok());
    return HandleValue(stream);
  }
  uint64_t NewEvent(unsigned flags = 0) {
    Handle event = nullptr;
    EXPECT_TRUE(EventCreate(HandleOut(&event), flags).ok());
    return HandleValue(event);
  }
  Handle ctx_ = nullptr;
};

TEST_F(StreamTest, CreateQueryDestroy) {
  const uint64_t stream = NewStream(kStreamNonBlocking, -7);
  unsigned flags = 9;
  ASSERT_TRUE(StreamGetFlags(stream, &flags).ok());
  EXPECT_EQ(flags, kStreamNonBlocking);
  int priority = 0;
  ASSERT_TRUE(StreamGetPriority(stream, &priority).ok());
  EXPECT_EQ(priority, -1) << "clamped to the greatest priority";
  Handle context = nullptr;
  ASSERT_TRUE(StreamGetContext(stream, HandleOut(&context)).ok());
  EXPECT_EQ(context, ctx_);
  EXPECT_TRUE(StreamQuery(stream).ok());
  EXPECT_TRUE(StreamSynchronize(stream).ok());
  ASSERT_TRUE(StreamDestroy(stream).ok());
  EXPECT_EQ(ErrorCodeOf(StreamDestroy(stream)), ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(StreamQuery(stream)), ErrorCode::kInvalidHandle);
}

TEST_F(StreamTest, BadArguments) {
  Handle stream = nullptr;
  EXPECT_EQ(ErrorCodeOf(StreamCreate(HandleOut(&stream), 0x8, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamCreate(HandleOut(static_cast<Handle*>(nullptr)), 0, 0)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamDestroy(0)), ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(StreamDestroy(kStreamLegacy)), ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(StreamDestroy(kStreamPerThread)), ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(StreamGetFlags(0, nullptr)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWaitEvent(0, 0, 0)), ErrorCode::kInvalidHandle);
}

TEST_F(StreamTest, PerThreadStreamsDifferPerThread) {
  auto per_thread = [] {
    return ResolveStream(kStreamPerThread);
  };
  auto mine = per_thread();
  ASSERT_TRUE(mine.ok());
  EXPECT_EQ(*per_thread(), *mine) << "stable within a thread";
  Stream* theirs = nullptr;
  std::thread other([&] {
    ASSERT_TRUE(PushContext(HandleValue(ctx_)).ok());
    theirs = *per_thread();
  });
  other.join();
  EXPECT_NE(theirs, *mine);
  EXPECT_EQ((*mine)->role(), StreamRole::kBlocking);
  EXPECT_EQ((*ResolveStream(0))->role(), StreamRole::kLegacy);
}

TEST_F(StreamTest, HostFunctionsRunInOrder) {
  const uint64_t stream = NewStream();
  std::vector<int> order;
  auto push = [](void* data) { static_cast<std::vector<int>*>(data)->push_back(1); };
  ASSERT_TRUE(LaunchHostFunc(stream, push, &order).ok());
  ASSERT_TRUE(StreamSynchronize(stream).ok());
  EXPECT_EQ(order.size(), 1u);
  EXPECT_EQ(ErrorCodeOf(LaunchHostFunc(stream, nullptr, nullptr)), ErrorCode::kInvalidValue);
}

// cuMemFreeAsync reads the settled point without the stream's lock: it is
// the last flush's point exactly while nothing has been recorded since.
TEST_F(StreamTest, TheSettledPointIsTheLastFlushWhileNothingIsRecorded) {
  const uint64_t handle = NewStream();
  Stream* stream = LookupAs<Stream>(handle);
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->SettledPoint(), 0u) << "nothing recorded yet";
  auto nothing = [](void*) {};
  ASSERT_TRUE(LaunchHostFunc(handle, nothing, nullptr).ok());
  EXPECT_EQ(stream->SettledPoint(), Stream::kUnsettled);
  absl::StatusOr<uint64_t> point = stream->Flush();
  ASSERT_TRUE(point.ok());
  EXPECT_GT(*point, 0u);
  EXPECT_EQ(stream->SettledPoint(), *point);
  ASSERT_TRUE(LaunchHostFunc(handle, nothing, nullptr).ok());
  EXPECT_EQ(stream->SettledPoint(), Stream::kUnsettled);
  ASSERT_TRUE(StreamSynchronize(handle).ok());
  EXPECT_GT(stream->SettledPoint(), *point);
  EXPECT_NE(stream->SettledPoint(), Stream::kUnsettled);
}

TEST_F(StreamTest, EventsAndElapsedTime) {
  const uint64_t start = NewEvent();
  const uint64_t end = NewEvent();
  const uint64_t untimed = NewEvent(kEventDisableTiming);
  EXPECT_TRUE(EventQuery(start).ok()) << "never recorded is complete";
  float ms = -1;
  EXPECT_EQ(ErrorCodeOf(EventElapsedTime(&ms, start, end)), ErrorCode::kInvalidHandle);
  ASSERT_TRUE(EventRecord(start, 0).ok());
  ASSERT_TRUE(EventRecord(end, 0).ok());
  ASSERT_TRUE(EventRecord(untimed, 0).ok());
  ASSERT_TRUE(EventSynchronize(end).ok());
  ASSERT_TRUE(EventElapsedTime(&ms, start, end).ok());
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(ErrorCodeOf(EventElapsedTime(&ms, start, untimed)), ErrorCode::kInvalidHandle);
  EXPECT_EQ(ErrorCodeOf(EventElapsedTime(nullptr, start, end)), ErrorCode::kInvalidValue);
  const uint64_t stream = NewStream();
  EXPECT_TRUE(StreamWaitEvent(stream, end, 0).ok());
  EXPECT_EQ(ErrorCodeOf(StreamWaitEvent(stream, end, 1)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(EventDestroy(start).ok());
  EXPECT_EQ(ErrorCodeOf(EventQuery(start)), ErrorCode::kInvalidHandle);
  Handle event = nullptr;
  EXPECT_EQ(ErrorCodeOf(EventCreate(HandleOut(&event), kEventInterprocess)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(EventCreate(HandleOut(&event), 0x80)), ErrorCode::kInvalidValue);
}

TEST_F(StreamTest, LegacyAndBlockingStreamsCopyInOrder) {
  // On the fake backend commands execute at once, so this checks that the
  // implicit waits are recorded without error through every stream kind.
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 64, false).ok());
  const uint64_t blocking = NewStream();
  const uint64_t non_blocking = NewStream(kStreamNonBlocking);
  for (uint64_t s : {uint64_t{0}, blocking, kStreamLegacy, non_blocking, kStreamPerThread, blocking}) {
    ASSERT_TRUE(Memset(dptr, 1, 1, 64, s, Sync::kAsync).ok());
  }
  ASSERT_TRUE(SynchronizeCurrentContext().ok());
}

struct WaitCase {
  MemOpApi api;
  int operation;
  unsigned flags;
  uint64_t value;
  uint64_t mask;
  uint64_t word;
  bool holds;
};

TEST(MemOpWaitHoldsTest, ConditionsFollowEachApi) {
  constexpr uint64_t kAll = ~uint64_t{0};
  const MemOpApi cu = MemOpApi::kCuda;
  const MemOpApi hip = MemOpApi::kHip;
  const WaitCase cases[] = {
      // CUDA's GEQ is cyclic in the operation's width.
      {cu, kMemOpWaitValue32, kWaitValueGeq, 10, kAll, 10, true},
      {cu, kMemOpWaitValue32, kWaitValueGeq, 10, kAll, 9, false},
      {cu, kMemOpWaitValue32, kWaitValueGeq, 10, kAll, 0xFFFFFFF0, false},
      {cu, kMemOpWaitValue32, kWaitValueGeq, 0xFFFFFFF0, kAll, 5, true},
      {cu, kMemOpWaitValue64, kWaitValueGeq, 10, kAll, 0xFFFFFFF0, true},
      {cu, kMemOpWaitValue64, kWaitValueGeq, 10, kAll, ~uint64_t{15}, false},
      {cu, kMemOpWaitValue32, kWaitValueGeq | kWaitValueFlush, 3, kAll, 3, true},
      // Bits above 32 are not part of a 32-bit word.
      {cu, kMemOpWaitValue32, kWaitValueEq, 5, kAll, 0x700000005, true},
      {cu, kMemOpWaitValue64, kWaitValueEq, 5, kAll, 0x700000005, false},
      {cu, kMemOpWaitValue32, kWaitValueAnd, 0x4, kAll, 0xB, false},
      {cu, kMemOpWaitValue32, kWaitValueAnd, 0x4, kAll, 0x6, true},
      {cu, kMemOpWaitValue32, kWaitValueNor, 0xC, kAll, 0xFFFFFFF3, false},
      {cu, kMemOpWaitValue32, kWaitValueNor, 0xC, kAll, 0xFFFFFFF1, true},
      {cu, kMemOpWaitValue64, kWaitValueNor, 0xC, kAll, 0xFFFFFFF3, true},
      // CUDA ignores the mask.
      {cu, kMemOpWaitValue32, kWaitValueEq, 5, 0xF, 0x15, false},
      // HIP's Gte is plain and masked.
      {hip, kMemOpWaitValue32, kWaitValueGeq, 10, kAll, 0xFFFFFFF0, true},
      {hip, kMemOpWaitValue32, kWaitValueGeq, 8, 0xF, 0xF0, false},
      {hip, kMemOpWaitValue32, kWaitValueGeq, 8, 0xF, 0x19, true},
      {hip, kMemOpWaitValue32, kWaitValueEq, 5, 0xF, 0xABC5, true},
      {hip, kMemOpWaitValue32, kWaitValueEq, 5, 0xF, 0x1236, false},
      {hip, kMemOpWaitValue32, kWaitValueAnd, 0xFF, 0x0F, 0xF0, false},
      {hip, kMemOpWaitValue32, kWaitValueAnd, 0xFF, 0x0F, 0x01, true},
      // NOR over the masked bits only (AMD's runtime).
      {hip, kMemOpWaitValue32, kWaitValueNor, 0x3, 0xF, 0xC, false},
      {hip, kMemOpWaitValue32, kWaitValueNor, 0x3, 0xF, 0x8, true},
      {hip, kMemOpWaitValue64, kWaitValueEq, 0x500000000, 0xFFFFFFFF00000000, 0x512345678, true},
      {hip, kMemOpWaitValue64, kWaitValueEq, 0x500000000, 0xFFFFFFFF00000000, 0x400000005, false},
  };
  for (const WaitCase& c : cases) {
    const StreamMemOp op{c.operation, 0, c.value, c.mask, c.flags};
    EXPECT_EQ(MemOpWaitHolds(op, c.word, c.api), c.holds)
        << (c.api == cu ? "CUDA" : "HIP") << " operation " << c.operation << " flags 0x" << std::hex
        << c.flags << " value 0x" << c.value << " mask 0x" << c.mask << " word 0x" << c.word;
  }
}

TEST_F(StreamTest, MemOpsAreValidatedBeforeAnythingIsRecorded) {
  uint64_t dptr = 0;
  ASSERT_TRUE(MemAlloc(&dptr, 64, false).ok());
  ASSERT_TRUE(Memset(dptr, 0, 1, 64, 0, Sync::kBlocking).ok());
  const uint64_t stream = NewStream();
  const MemOpApi cu = MemOpApi::kCuda;
  const MemOpApi hip = MemOpApi::kHip;
  // The fake backend runs host functions at once: only waits that hold.
  EXPECT_TRUE(StreamWaitValue(stream, dptr, 0, ~uint64_t{0}, kWaitValueGeq, 4, cu).ok());
  EXPECT_TRUE(StreamWriteValue(stream, dptr + 8, 0x1122334455667788, 0, 8, cu).ok());
  EXPECT_TRUE(
      StreamWaitValue(stream, dptr + 8, 0x1122334455667788, ~uint64_t{0}, kWaitValueEq, 8, hip)
          .ok());
  EXPECT_EQ(ErrorCodeOf(StreamWaitValue(stream, dptr + 2, 0, 0, 0, 4, cu)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWriteValue(stream, dptr + 4, 0, 0, 8, hip)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWaitValue(stream, dptr, 0, 0, kWaitValueNor + 1, 4, cu)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWaitValue(stream, dptr, 0, 0, kWaitValueFlush, 4, hip)),
            ErrorCode::kInvalidValue);
  EXPECT_TRUE(StreamWriteValue(stream, dptr, 0, kWriteValueNoMemoryBarrier, 4, cu).ok());
  EXPECT_EQ(ErrorCodeOf(StreamWriteValue(stream, dptr, 0, kWriteValueNoMemoryBarrier, 4, hip)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWriteValue(stream, dptr + 64, 0, 0, 4, cu)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(StreamWriteValue(0x7654320, dptr, 0, 0, 4, cu)), ErrorCode::kInvalidHandle);

  // A batch with a bad operation records none of its operations.
  std::vector<StreamMemOp> ops = {{kMemOpWriteValue32, dptr + 16, 7, 0, 0},
                                  {kMemOpBarrier, 0, 0, 0, kMemoryBarrierDevice},
                                  {kMemOpFlushRemoteWrites, 0, 0, 0, 0},
                                  {kMemOpBarrier, 0, 0, 0, 2}};
  auto batch = [&](unsigned count, const void* params, unsigned flags, MemOpApi api) {
    return StreamBatchMemOp(
        stream, count, params, [&](unsigned i) { return ops[i]; }, flags, api);
  };
  EXPECT_EQ(ErrorCodeOf(batch(4, ops.data(), 0, cu)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(batch(0, ops.data(), 0, cu)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(batch(1, nullptr, 0, cu)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(batch(1, ops.data(), 1, hip)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(batch(256, ops.data(), 0, cu)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(batch(257, ops.data(), 0, hip)), ErrorCode::kInvalidValue);
  uint32_t word = 0;
  ASSERT_TRUE(Memcpy(reinterpret_cast<uintptr_t>(&word), dptr + 16, 4, CopyKind::kDeviceToHost, 0,
                     Sync::kBlocking)
                  .ok());
  EXPECT_EQ(word, 0u);
  EXPECT_TRUE(batch(3, ops.data(), 0, hip).ok());
  ASSERT_TRUE(Memcpy(reinterpret_cast<uintptr_t>(&word), dptr + 16, 4, CopyKind::kDeviceToHost, 0,
                     Sync::kBlocking)
                  .ok());
  EXPECT_EQ(word, 7u);
}

}  // namespace
}  // namespace streamhal
