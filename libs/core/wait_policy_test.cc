#include "core/wait_policy.h"

#include "core/context.h"
#include "gtest/gtest.h"

namespace streamhal {
namespace {

WaitEnvironment Gpu(int contexts, int processors) {
  return WaitEnvironment{contexts, processors, /*device_on_host=*/false};
}
WaitEnvironment Cpu(int contexts, int processors) {
  return WaitEnvironment{contexts, processors, /*device_on_host=*/true};
}

TEST(WaitPolicyTest, BlockingSyncSleepsAtOnce) {
  for (const WaitEnvironment& environment : {Gpu(1, 8), Cpu(1, 2)}) {
    const WaitPolicy policy = WaitPolicyForFlags(kCtxSchedBlockingSync | kCtxMapHost, environment);
    EXPECT_EQ(policy.poll_ns, 0u);
  }
}

TEST(WaitPolicyTest, SpinAndYieldNeverSleepOnADeviceOfItsOwn) {
  WaitPolicy spin = WaitPolicyForFlags(kCtxSchedSpin, Gpu(1, 8));
  EXPECT_EQ(spin.poll_ns, WaitPolicy::kPollForever);
  EXPECT_FALSE(spin.yield);
  WaitPolicy yield = WaitPolicyForFlags(kCtxSchedYield, Gpu(1, 8));
  EXPECT_EQ(yield.poll_ns, WaitPolicy::kPollForever);
  EXPECT_TRUE(yield.yield);
}

TEST(WaitPolicyTest, SpinAndYieldAreBoundedOnADeviceOnTheHost) {
  WaitPolicy spin = WaitPolicyForFlags(kCtxSchedSpin, Cpu(1, 2));
  EXPECT_EQ(spin.poll_ns, kHostDevicePollNs);
  EXPECT_FALSE(spin.yield);
  WaitPolicy yield = WaitPolicyForFlags(kCtxSchedYield, Cpu(1, 2));
  EXPECT_EQ(yield.poll_ns, kHostDevicePollNs);
  EXPECT_TRUE(yield.yield);
}

// CUDA: AUTO spins while active contexts <= logical processors, else yields.
TEST(WaitPolicyTest, AutoFollowsCudasHeuristicThenSleeps) {
  WaitPolicy few = WaitPolicyForFlags(kCtxSchedAuto, Gpu(2, 4));
  EXPECT_EQ(few.poll_ns, kAutoPollNs);
  EXPECT_FALSE(few.yield);
  WaitPolicy equal = WaitPolicyForFlags(kCtxSchedAuto, Gpu(4, 4));
  EXPECT_FALSE(equal.yield);
  WaitPolicy many = WaitPolicyForFlags(kCtxSchedAuto, Gpu(5, 4));
  EXPECT_EQ(many.poll_ns, kAutoPollNs);
  EXPECT_TRUE(many.yield);
}

// On a device that runs on the host: briefly, spinning first only where
// CUDA's heuristic would spin.
TEST(WaitPolicyTest, AutoPollsBrieflyOnADeviceOnTheHost) {
  for (const WaitEnvironment& environment : {Cpu(1, 16), Cpu(2, 2), Cpu(40, 2)}) {
    const WaitPolicy policy = WaitPolicyForFlags(kCtxSchedAuto, environment);
    EXPECT_EQ(policy.poll_ns, kHostAutoPollNs);
    EXPECT_LT(kHostAutoPollNs, kHostDevicePollNs);
    EXPECT_TRUE(policy.yield);
    const bool spins_first = environment.active_contexts <= environment.logical_processors;
    EXPECT_EQ(policy.spin_ns, spins_first ? kHostAutoSpinNs : 0u);
    EXPECT_LT(kHostAutoSpinNs, kHostAutoPollNs);
  }
}

}  // namespace
}  // namespace streamhal
