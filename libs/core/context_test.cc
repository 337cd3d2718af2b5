#include "core/context.h"

#include <thread>

#include "core/runtime.h"
#include "core/stream.h"
#include "core/status.h"
#include "core/testing/fake_backend.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

struct OpaqueCtx;
using Ctx = OpaqueCtx*;

uint64_t Value(Ctx ctx) { return HandleValue(ctx); }

class ContextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::InstallFakeBackend(2);
    ASSERT_TRUE(Init(0).ok());
  }
  void TearDown() override { ASSERT_TRUE(Deinit().ok()); }

  Ctx Create(int device = 0, unsigned flags = 0) {
    Ctx ctx = nullptr;
    EXPECT_TRUE(CreateContext(HandleOut(&ctx), flags, device).ok());
    return ctx;
  }
  Ctx Current() {
    Ctx ctx = nullptr;
    EXPECT_TRUE(GetCurrentContext(HandleOut(&ctx)).ok());
    return ctx;
  }
};

TEST(RuntimeTest, CallsBeforeInitReportNotInitialized) {
  ASSERT_FALSE(IsInitialized());
  EXPECT_EQ(ErrorCodeOf(DeviceCount().status()), ErrorCode::kNotInitialized);
  Ctx ctx = nullptr;
  EXPECT_EQ(ErrorCodeOf(CreateContext(HandleOut(&ctx), 0, 0)), ErrorCode::kNotInitialized);
  EXPECT_EQ(ErrorCodeOf(Deinit()), ErrorCode::kNotInitialized);
}

TEST(RuntimeTest, InitRejectsNonZeroFlags) {
  testing::InstallFakeBackend(1);
  EXPECT_EQ(ErrorCodeOf(Init(1)), ErrorCode::kInvalidValue);
  EXPECT_FALSE(IsInitialized());
}

TEST(RuntimeTest, NoDeviceWhenNoBackendFindsOne) {
  testing::InstallFakeBackend(0);
  EXPECT_EQ(ErrorCodeOf(Init(0)), ErrorCode::kNoDevice);
  EXPECT_FALSE(IsInitialized());
}

TEST(RuntimeTest, InitDeinitInitAgain) {
  testing::InstallFakeBackend(3);
  ASSERT_TRUE(Init(0).ok());
  EXPECT_EQ(*DeviceCount(), 3);
  ASSERT_TRUE(Deinit().ok());
  testing::InstallFakeBackend(1);
  ASSERT_TRUE(Init(0).ok());
  EXPECT_EQ(*DeviceCount(), 1);
  ASSERT_TRUE(Deinit().ok());
}

TEST_F(ContextTest, DeviceOrdinalsAreValidated) {
  EXPECT_TRUE(GetDevice(1).ok());
  EXPECT_EQ(ErrorCodeOf(GetDevice(2).status()), ErrorCode::kInvalidDevice);
  EXPECT_EQ(ErrorCodeOf(GetDevice(-1).status()), ErrorCode::kInvalidDevice);
}

TEST_F(ContextTest, CreateMakesContextCurrent) {
  Ctx ctx = Create(1);
  EXPECT_EQ(Current(), ctx);
  int device = -1;
  ASSERT_TRUE(GetContextDevice(&device).ok());
  EXPECT_EQ(device, 1);
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
  EXPECT_EQ(Current(), nullptr);
}

TEST_F(ContextTest, CreateValidatesArguments) {
  EXPECT_EQ(ErrorCodeOf(CreateContext(HandleOut(static_cast<Ctx*>(nullptr)), 0, 0)),
            ErrorCode::kInvalidValue);
  Ctx ctx = nullptr;
  EXPECT_EQ(ErrorCodeOf(CreateContext(HandleOut(&ctx), 0, 7)), ErrorCode::kInvalidDevice);
  EXPECT_EQ(ErrorCodeOf(CreateContext(HandleOut(&ctx), kCtxSchedSpin | kCtxSchedYield, 0)),
            ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(CreateContext(HandleOut(&ctx), 0x100, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(Current(), nullptr);
}

TEST_F(ContextTest, FlagsAreKept) {
  Ctx ctx = Create(0, kCtxSchedBlockingSync | kCtxMapHost);
  unsigned flags = 0;
  ASSERT_TRUE(GetContextFlags(&flags).ok());
  EXPECT_EQ(flags, kCtxSchedBlockingSync | kCtxMapHost);
  ASSERT_TRUE(SetContextFlags(kCtxSchedYield).ok());
  ASSERT_TRUE(GetContextFlags(&flags).ok());
  EXPECT_EQ(flags, kCtxSchedYield);
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
}

TEST_F(ContextTest, PushPopIsLastInFirstOut) {
  Ctx a = Create();
  Ctx b = Create();
  EXPECT_EQ(Current(), b);
  Ctx popped = nullptr;
  ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());
  EXPECT_EQ(popped, b);
  EXPECT_EQ(Current(), a);
  ASSERT_TRUE(PushContext(Value(b)).ok());
  EXPECT_EQ(Current(), b);
  ASSERT_TRUE(PopContext(HandleOut(static_cast<Ctx*>(nullptr))).ok());
  ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());
  EXPECT_EQ(popped, a);
  EXPECT_EQ(ErrorCodeOf(PopContext(HandleOut(&popped))), ErrorCode::kInvalidContext);
  ASSERT_TRUE(DestroyContext(Value(a)).ok());
  ASSERT_TRUE(DestroyContext(Value(b)).ok());
}

TEST_F(ContextTest, SetCurrentReplacesTopAndNullPops) {
  Ctx a = Create();
  Ctx b = Create();
  ASSERT_TRUE(SetCurrentContext(Value(a)).ok());  // stack: a, a
  EXPECT_EQ(Current(), a);
  ASSERT_TRUE(SetCurrentContext(0).ok());  // stack: a
  EXPECT_EQ(Current(), a);
  ASSERT_TRUE(SetCurrentContext(0).ok());  // stack: empty
  EXPECT_EQ(Current(), nullptr);
  ASSERT_TRUE(SetCurrentContext(0).ok());  // still empty, still fine
  ASSERT_TRUE(DestroyContext(Value(a)).ok());
  ASSERT_TRUE(DestroyContext(Value(b)).ok());
}

TEST_F(ContextTest, UseAfterDestroyAndDoubleDestroyAreErrors) {
  Ctx ctx = Create();
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
  EXPECT_EQ(ErrorCodeOf(DestroyContext(Value(ctx))), ErrorCode::kInvalidContext);
  EXPECT_EQ(ErrorCodeOf(PushContext(Value(ctx))), ErrorCode::kInvalidContext);
  EXPECT_EQ(ErrorCodeOf(SetCurrentContext(Value(ctx))), ErrorCode::kInvalidContext);
  EXPECT_EQ(ErrorCodeOf(DestroyContext(0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(PushContext(0)), ErrorCode::kInvalidContext);
  EXPECT_EQ(ErrorCodeOf(PushContext(0xdeadbeef)), ErrorCode::kInvalidContext);
}

TEST_F(ContextTest, DestroyedContextBelowTopStaysButIsUnusable) {
  Ctx below = Create();
  Ctx top = Create();
  ASSERT_TRUE(DestroyContext(Value(below)).ok());
  EXPECT_EQ(Current(), top);  // destroying a non-current context pops nothing
  Ctx popped = nullptr;
  ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());
  EXPECT_EQ(popped, top);
  EXPECT_EQ(Current(), below);  // still on the stack
  int device = 0;
  EXPECT_EQ(ErrorCodeOf(GetContextDevice(&device)), ErrorCode::kContextIsDestroyed);
  EXPECT_EQ(ErrorCodeOf(SynchronizeCurrentContext()), ErrorCode::kContextIsDestroyed);
  ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());
  EXPECT_EQ(popped, below);
  ASSERT_TRUE(DestroyContext(Value(top)).ok());
}

TEST_F(ContextTest, StacksArePerThreadAndContextsMigrate) {
  Ctx ctx = Create();
  Ctx popped = nullptr;
  ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());  // float it
  std::thread worker([&] {
    EXPECT_EQ(Current(), nullptr);  // a new thread starts with an empty stack
    ASSERT_TRUE(PushContext(Value(popped)).ok());
    EXPECT_EQ(Current(), ctx);
    int device = -1;
    EXPECT_TRUE(GetContextDevice(&device).ok());
    EXPECT_EQ(device, 0);
    ASSERT_TRUE(PopContext(HandleOut(&popped)).ok());
  });
  worker.join();
  EXPECT_EQ(Current(), nullptr);
  ASSERT_TRUE(PushContext(Value(popped)).ok());
  EXPECT_EQ(Current(), ctx);
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
}

TEST_F(ContextTest, DestroyedWhileCurrentOnAnotherThread) {
  Ctx ctx = Create();
  std::thread other([&] {
    ASSERT_TRUE(PushContext(Value(ctx)).ok());
  });
  other.join();
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
  std::thread later([&] {
    ASSERT_TRUE(PushContext(Value(ctx)).ok() == false);
  });
  later.join();
}

TEST_F(ContextTest, LimitsHaveDefaultsAndCanBeSet) {
  Ctx ctx = Create();
  size_t value = 0;
  ASSERT_TRUE(GetContextLimit(&value, static_cast<int>(Limit::kStackSize)).ok());
  EXPECT_EQ(value, 1024u);
  ASSERT_TRUE(SetContextLimit(static_cast<int>(Limit::kMallocHeapSize), 1 << 24).ok());
  ASSERT_TRUE(GetContextLimit(&value, static_cast<int>(Limit::kMallocHeapSize)).ok());
  EXPECT_EQ(value, size_t{1} << 24);
  EXPECT_EQ(ErrorCodeOf(GetContextLimit(&value, 99)), ErrorCode::kUnsupportedLimit);
  EXPECT_EQ(ErrorCodeOf(GetContextLimit(nullptr, 0)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(SetContextLimit(static_cast<int>(Limit::kPersistingL2CacheSize), 4096)),
            ErrorCode::kUnsupportedLimit);
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
}

TEST_F(ContextTest, ApiVersionAndPriorityRange) {
  unsigned version = 0;
  EXPECT_EQ(ErrorCodeOf(GetContextApiVersion(0, &version)), ErrorCode::kInvalidContext);
  Ctx ctx = Create();
  ASSERT_TRUE(GetContextApiVersion(Value(ctx), &version).ok());
  EXPECT_EQ(version, kContextApiVersion);
  int least = 5, greatest = 5;
  ASSERT_TRUE(GetStreamPriorityRange(&least, &greatest).ok());
  EXPECT_EQ(least, 0);
  EXPECT_LT(greatest, least);
  EXPECT_TRUE(GetStreamPriorityRange(nullptr, nullptr).ok());
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
}

TEST_F(ContextTest, SynchronizeWaitsForEveryStreamNotTheWholeDevice) {
  Ctx ctx = Create();
  uint64_t streams[2] = {};
  ASSERT_TRUE(StreamCreate(HandleOut(&streams[0]), 0, 0).ok());
  ASSERT_TRUE(StreamCreate(HandleOut(&streams[1]), 0, 0).ok());
  const int waits_before = testing::FakeStreamWaitCount();
  const int idle_before = testing::FakeWaitIdleCount();
  ASSERT_TRUE(SynchronizeCurrentContext().ok());
  EXPECT_GE(testing::FakeStreamWaitCount() - waits_before, 2);
  // Other contexts' work on the device is not waited for.
  EXPECT_EQ(testing::FakeWaitIdleCount(), idle_before);
  ASSERT_TRUE(StreamDestroy(streams[0]).ok());
  ASSERT_TRUE(StreamDestroy(streams[1]).ok());
  ASSERT_TRUE(DestroyContext(Value(ctx)).ok());
}

TEST_F(ContextTest, AttachDetachCountsUsage) {
  Ctx ctx = Create();
  Ctx attached = nullptr;
  ASSERT_TRUE(AttachContext(HandleOut(&attached), 0).ok());
  EXPECT_EQ(attached, ctx);
  EXPECT_EQ(ErrorCodeOf(AttachContext(HandleOut(&attached), 1)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(DetachContext(Value(ctx)).ok());  // usage 2 -> 1
  EXPECT_EQ(Current(), ctx);
  ASSERT_TRUE(DetachContext(Value(ctx)).ok());  // usage 1 -> 0: destroyed
  EXPECT_EQ(Current(), nullptr);
  EXPECT_EQ(ErrorCodeOf(DetachContext(Value(ctx))), ErrorCode::kInvalidContext);
}

TEST_F(ContextTest, DetachRequiresTheCurrentContext) {
  Ctx a = Create();
  Ctx b = Create();
  EXPECT_EQ(ErrorCodeOf(DetachContext(Value(a))), ErrorCode::kInvalidContext);
  ASSERT_TRUE(DestroyContext(Value(b)).ok());
  ASSERT_TRUE(DestroyContext(Value(a)).ok());
}

TEST_F(ContextTest, PrimaryContextIsReferenceCounted) {
  unsigned flags = 1;
  int active = 1;
  ASSERT_TRUE(GetPrimaryContextState(0, &flags, &active).ok());
  EXPECT_EQ(active, 0);
  Ctx first = nullptr, second = nullptr;
  ASSERT_TRUE(RetainPrimaryContext(HandleOut(&first), 0).ok());
  ASSERT_TRUE(RetainPrimaryContext(HandleOut(&second), 0).ok());
  EXPECT_EQ(first, second);
  EXPECT_EQ(Current(), nullptr);  // retain does not make it current
  ASSERT_TRUE(GetPrimaryContextState(0, &flags, &active).ok());
  EXPECT_EQ(active, 1);
  ASSERT_TRUE(ReleasePrimaryContext(0).ok());
  ASSERT_TRUE(GetPrimaryContextState(0, &flags, &active).ok());
  EXPECT_EQ(active, 1);
  ASSERT_TRUE(ReleasePrimaryContext(0).ok());
  ASSERT_TRUE(GetPrimaryContextState(0, &flags, &active).ok());
  EXPECT_EQ(active, 0);
  EXPECT_EQ(ErrorCodeOf(ReleasePrimaryContext(0)), ErrorCode::kInvalidContext);
  EXPECT_EQ(ErrorCodeOf(PushContext(Value(first))), ErrorCode::kInvalidContext);
}

TEST_F(ContextTest, PrimaryContextCannotBeDestroyedDirectly) {
  Ctx primary = nullptr;
  ASSERT_TRUE(RetainPrimaryContext(HandleOut(&primary), 1).ok());
  EXPECT_EQ(ErrorCodeOf(DestroyContext(Value(primary))), ErrorCode::kInvalidContext);
  ASSERT_TRUE(ReleasePrimaryContext(1).ok());
}

TEST_F(ContextTest, PrimaryFlagsAndReset) {
  ASSERT_TRUE(SetPrimaryContextFlags(0, kCtxSchedBlockingSync).ok());
  EXPECT_EQ(ErrorCodeOf(SetPrimaryContextFlags(0, 0x3)), ErrorCode::kInvalidValue);
  EXPECT_EQ(ErrorCodeOf(SetPrimaryContextFlags(9, 0)), ErrorCode::kInvalidDevice);
  Ctx primary = nullptr;
  ASSERT_TRUE(RetainPrimaryContext(HandleOut(&primary), 0).ok());
  ASSERT_TRUE(PushContext(Value(primary)).ok());
  unsigned flags = 0;
  ASSERT_TRUE(GetContextFlags(&flags).ok());
  EXPECT_EQ(flags, kCtxSchedBlockingSync);
  ASSERT_TRUE(ResetPrimaryContext(0).ok());
  int active = 1;
  ASSERT_TRUE(GetPrimaryContextState(0, &flags, &active).ok());
  EXPECT_EQ(active, 0);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(ErrorCodeOf(GetContextFlags(&flags)), ErrorCode::kContextIsDestroyed);
  EXPECT_EQ(ErrorCodeOf(GetPrimaryContextState(0, nullptr, &active)), ErrorCode::kInvalidValue);
  ASSERT_TRUE(PopContext(HandleOut(&primary)).ok());
}

TEST_F(ContextTest, RuntimeUsesPrimaryContextOfChosenDevice) {
  int device = -1;
  ASSERT_TRUE(RuntimeGetDevice(&device).ok());
  EXPECT_EQ(device, 0);
  ASSERT_TRUE(RuntimeSetDevice(1).ok());
  ASSERT_TRUE(RuntimeGetDevice(&device).ok());
  EXPECT_EQ(device, 1);
  Ctx primary = nullptr;
  ASSERT_TRUE(RetainPrimaryContext(HandleOut(&primary), 1).ok());
  EXPECT_EQ(Current(), primary);
  EXPECT_EQ(ErrorCodeOf(RuntimeSetDevice(2)), ErrorCode::kInvalidDevice);
  ASSERT_TRUE(ReleasePrimaryContext(1).ok());
  // The runtime's own reference keeps it alive.
  unsigned flags = 0;
  int active = 0;
  ASSERT_TRUE(GetPrimaryContextState(1, &flags, &active).ok());
  EXPECT_EQ(active, 1);
  ASSERT_TRUE(RuntimeResetDevice().ok());
  ASSERT_TRUE(GetPrimaryContextState(1, &flags, &active).ok());
  EXPECT_EQ(active, 0);
  // The next runtime call brings up a fresh primary context lazily.
  auto context = RuntimeCurrentContext();
  ASSERT_TRUE(context.ok());
  EXPECT_EQ((*context)->device()->ordinal(), 1);
  EXPECT_TRUE((*context)->is_primary());
}

TEST_F(ContextTest, DeinitInvalidatesEveryHandle) {
  Ctx ctx = Create();
  ASSERT_TRUE(Deinit().ok());
  ASSERT_TRUE(Init(0).ok());
  EXPECT_EQ(Current(), nullptr);  // the old stack is gone
  EXPECT_EQ(ErrorCodeOf(PushContext(Value(ctx))), ErrorCode::kInvalidContext);
}

}  // namespace
}  // namespace streamhal
