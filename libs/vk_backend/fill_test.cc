#include "vk_backend/fill.h"

#include <vector>

#include "gtest/gtest.h"

namespace streamhal::vk {
namespace {

TEST(FillTest, PatternsRepeatOverAWord) {
  EXPECT_EQ(ReplicatePattern(0x123456AB, 1), 0xABABABABu);
  EXPECT_EQ(ReplicatePattern(0x1234BEEF, 2), 0xBEEFBEEFu);
  EXPECT_EQ(ReplicatePattern(0x12345678, 4), 0x12345678u);
}

// Applies a plan to a byte array the way the stream records it.
std::vector<uint8_t> Apply(const FillPlan& plan, size_t size) {
  std::vector<uint8_t> bytes(size, 0xEE);
  for (uint64_t i = 0; i < plan.fill_size; ++i) {
    bytes[plan.fill_offset + i] = static_cast<uint8_t>(plan.fill_word >> (8 * (i % 4)));
  }
  for (int e = 0; e < plan.edge_count; ++e) {
    for (uint32_t k = 0; k < plan.edges[e].size; ++k) {
      bytes[plan.edges[e].offset + k] = plan.edges[e].bytes[k];
    }
  }
  return bytes;
}

TEST(FillTest, PlansCoverExactlyTheRange) {
  const uint32_t pattern = 0xA1B2C3D4;
  for (uint32_t element : {1u, 2u, 4u}) {
    for (uint64_t offset = 0; offset < 16; offset += element) {
      for (uint64_t count = 1; count < 20; ++count) {
        const FillPlan plan = PlanFill(offset, pattern, element, count);
        EXPECT_EQ(plan.fill_offset % 4, 0u);
        EXPECT_EQ(plan.fill_size % 4, 0u);
        for (int e = 0; e < plan.edge_count; ++e) EXPECT_LT(plan.edges[e].size, 4u);
        const std::vector<uint8_t> bytes = Apply(plan, 128);
        for (uint64_t i = 0; i < 128; ++i) {
          uint8_t expected = 0xEE;
          if (i >= offset && i < offset + count * element) {
            expected = static_cast<uint8_t>(pattern >> (8 * ((i - offset) % element)));
          }
          ASSERT_EQ(bytes[i], expected) << "element " << element << " offset " << offset
                                        << " count " << count << " byte " << i;
        }
      }
    }
  }
}

TEST(FillTest, AlignedFillsNeedNoEdges) {
  const FillPlan plan = PlanFill(256, 7, 4, 1000);
  EXPECT_EQ(plan.edge_count, 0);
  EXPECT_EQ(plan.fill_offset, 256u);
  EXPECT_EQ(plan.fill_size, 4000u);
}

}  // namespace
}  // namespace streamhal::vk
