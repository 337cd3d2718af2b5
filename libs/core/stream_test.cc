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
  EXPECT_EQ(ErrorCodeOf(EventCreate(HandleOut(&event), kEventInterprocess | kEventDisableTiming)),
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

}  // namespace
}  // namespace streamhal
