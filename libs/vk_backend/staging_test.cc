#include "vk_backend/staging.h"

#include "gtest/gtest.h"

namespace streamhal::vk {
namespace {

// The ring's bookkeeping does not touch its backing memory.
StagingRing Ring(uint64_t capacity) { return StagingRing(nullptr, capacity); }

TEST(StagingRingTest, HandsOutAlignedRangesInOrder) {
  StagingRing ring = Ring(1024);
  EXPECT_EQ(ring.Allocate(10, 16, 1), 0u);
  EXPECT_EQ(ring.Allocate(10, 16, 1), 16u);
  EXPECT_EQ(ring.Allocate(100, 256, 2), 256u);
  EXPECT_EQ(ring.oldest_point(), 1u);
}

TEST(StagingRingTest, FullRingWaitsForThePointsToComplete) {
  StagingRing ring = Ring(1000);
  EXPECT_EQ(ring.Allocate(400, 4, 1), 0u);
  EXPECT_EQ(ring.Allocate(400, 4, 2), 400u);
  EXPECT_FALSE(ring.Allocate(400, 4, 3).has_value());
  ring.Release(1);
  // [0, 400) is free again: the ring wraps.
  EXPECT_EQ(ring.Allocate(400, 4, 3), 0u);
  EXPECT_FALSE(ring.Allocate(1, 4, 3).has_value());  // [800, 1000) is wasted past the wrap
  ring.Release(2);
  EXPECT_EQ(ring.Allocate(500, 4, 4), 400u);
  ring.Release(4);
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.Allocate(1000, 4, 5), 0u);
  EXPECT_FALSE(ring.Allocate(1001, 4, 6).has_value());
}

TEST(StagingRingTest, ReleasingEverythingStartsOver) {
  StagingRing ring = Ring(100);
  EXPECT_EQ(ring.Allocate(60, 4, 1), 0u);
  ring.Release(1);
  EXPECT_TRUE(ring.empty());
  EXPECT_EQ(ring.Allocate(80, 4, 2), 0u);
}

}  // namespace
}  // namespace streamhal::vk
