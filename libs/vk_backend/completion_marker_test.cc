#include "vk_backend/completion_marker.h"

#include <set>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "vk_backend/device.h"
#include "vk_backend/test_device.h"

namespace streamhal::vk {
namespace {

TEST(MarkerReachedTest, ComparesTheLowBitsWithWrap) {
  EXPECT_TRUE(MarkerReached(5, 5));
  EXPECT_TRUE(MarkerReached(6, 5));
  EXPECT_FALSE(MarkerReached(4, 5));
  EXPECT_FALSE(MarkerReached(0, 1));
  // Point 2^32 + 1 written, 2^32 - 1 asked about: reached across the wrap.
  EXPECT_TRUE(MarkerReached(1, (uint64_t{1} << 32) - 1));
  // Point 2^32 - 1 written, 2^32 + 2 asked about: not yet.
  EXPECT_FALSE(MarkerReached(0xFFFFFFFFu, (uint64_t{1} << 32) + 2));
  // Within 2^31 either way.
  EXPECT_TRUE(MarkerReached(0x80000000u - 1, 0));
  EXPECT_FALSE(MarkerReached(0, 0x7FFFFFFFu));
}

using CompletionMarkersTest = testing::LavapipeTest;

TEST_F(CompletionMarkersTest, SlotsAreDistinctZeroedCacheLinesOverPages) {
  CompletionMarkers markers(device()->device(), device()->memory_properties());
  constexpr int kCount = CompletionMarkers::kPageBytes / CompletionMarkers::kSlotBytes + 1;
  std::vector<CompletionMarker> taken;
  std::set<std::pair<VkBuffer, VkDeviceSize>> places;
  std::set<VkBuffer> pages;
  for (int i = 0; i < kCount; ++i) {
    absl::StatusOr<CompletionMarker> marker = markers.Acquire();
    ASSERT_TRUE(marker.ok()) << marker.status();
    EXPECT_EQ(marker->Load(), 0u);
    EXPECT_EQ(marker->offset % CompletionMarkers::kSlotBytes, 0u);
    EXPECT_LT(marker->offset, CompletionMarkers::kPageBytes);
    places.emplace(marker->buffer, marker->offset);
    pages.insert(marker->buffer);
    taken.push_back(*marker);
  }
  EXPECT_EQ(places.size(), static_cast<size_t>(kCount));
  EXPECT_EQ(pages.size(), 2u);
  // A returned slot comes back zeroed.
  taken[3].word->store(1234, std::memory_order_relaxed);
  markers.Release(taken[3]);
  absl::StatusOr<CompletionMarker> again = markers.Acquire();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->word, taken[3].word);
  EXPECT_EQ(again->Load(), 0u);
}

}  // namespace
}  // namespace streamhal::vk
