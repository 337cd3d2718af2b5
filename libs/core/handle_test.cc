#include "core/handle.h"

#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace streamhal {
namespace {

class FakeStream : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kStream;
  FakeStream() : Object(kKind) {}
};

class FakeEvent : public Object {
 public:
  static constexpr ObjectKind kKind = ObjectKind::kEvent;
  FakeEvent() : Object(kKind) {}
};

TEST(HandleTest, LiveHandleResolvesToItsObject) {
  FakeStream stream;
  HandleState state;
  EXPECT_EQ(LookupAs<FakeStream>(stream.handle(), &state), &stream);
  EXPECT_EQ(state, HandleState::kLive);
}

TEST(HandleTest, NullHandleIsNull) {
  HandleState state;
  EXPECT_EQ(LookupHandle(0, ObjectKind::kStream, &state), nullptr);
  EXPECT_EQ(state, HandleState::kNull);
}

TEST(HandleTest, DestroyedHandleIsReportedAsDestroyed) {
  auto stream = std::make_unique<FakeStream>();
  const uint64_t handle = stream->handle();
  stream.reset();
  HandleState state;
  EXPECT_EQ(LookupAs<FakeStream>(handle, &state), nullptr);
  EXPECT_EQ(state, HandleState::kDestroyed);
}

TEST(HandleTest, ReusedSlotDoesNotResurrectOldHandle) {
  auto first = std::make_unique<FakeStream>();
  const uint64_t old_handle = first->handle();
  first.reset();
  // Create many objects so that the old slot is certainly reused.
  std::vector<std::unique_ptr<FakeStream>> many;
  for (int i = 0; i < 5000; ++i) many.push_back(std::make_unique<FakeStream>());
  for (const auto& stream : many) EXPECT_NE(stream->handle(), old_handle);
  EXPECT_EQ(LookupAs<FakeStream>(old_handle), nullptr);
}

TEST(HandleTest, WrongKindIsInvalid) {
  FakeStream stream;
  HandleState state;
  EXPECT_EQ(LookupAs<FakeEvent>(stream.handle(), &state), nullptr);
  EXPECT_EQ(state, HandleState::kInvalid);
}

TEST(HandleTest, ForeignValuesAreInvalid) {
  int local = 0;
  HandleState state;
  EXPECT_EQ(LookupHandle(reinterpret_cast<uintptr_t>(&local), ObjectKind::kStream, &state),
            nullptr);
  EXPECT_EQ(state, HandleState::kInvalid);
  EXPECT_EQ(LookupHandle(~uint64_t{0}, ObjectKind::kStream, &state), nullptr);
  EXPECT_EQ(LookupHandle(0x1, ObjectKind::kStream, &state), nullptr);
}

TEST(HandleTest, HandlesAvoidStreamSentinels) {
  FakeStream stream;
  EXPECT_GT(stream.handle(), uint64_t{2});
}

TEST(HandleTest, ConcurrentCreateAndDestroyKeepsTableConsistent) {
  const uint64_t before = LiveObjectCount();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([] {
      for (int i = 0; i < 2000; ++i) {
        FakeStream stream;
        ASSERT_EQ(LookupAs<FakeStream>(stream.handle()), &stream);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(LiveObjectCount(), before);
}

TEST(HandleTest, HandleOutWritesPointerSizedSlot) {
  struct Opaque;
  Opaque* slot = nullptr;
  HandleOut out(&slot);
  EXPECT_FALSE(out.is_null());
  out.Set(0x1234);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(slot), 0x1234u);
  EXPECT_TRUE(HandleOut(static_cast<Opaque**>(nullptr)).is_null());
}

}  // namespace
}  // namespace streamhal
