#include "vk_backend/command_list.h"

#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace streamhal::vk {
namespace {

struct Seen {
  CommandType type;
  const uint8_t* payload;
};

std::vector<Seen> Commands(const CommandList& list) {
  std::vector<Seen> seen;
  list.ForEach([&](CommandType type, const uint8_t* payload) { seen.push_back({type, payload}); });
  return seen;
}

TEST(CommandListTest, CommandsComeBackInOrderWithTheirFields) {
  CommandList list;
  EXPECT_TRUE(list.empty());
  list.Append<TimestampCommand>(false)->slot = 7;
  CopyCommand* copy = list.Append<CopyCommand>(true);
  copy->region = {1, 2, 3};
  FillCommand* fill = list.Append<FillCommand>(false);
  fill->fill_word = 0xabcd;
  fill->edge_count = 2;

  ASSERT_EQ(list.count(), 3u);
  const std::vector<Seen> seen = Commands(list);
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].type, CommandType::kTimestamp);
  EXPECT_EQ(reinterpret_cast<const TimestampCommand*>(seen[0].payload)->slot, 7u);
  EXPECT_EQ(seen[1].type, CommandType::kCopy);
  EXPECT_EQ(reinterpret_cast<const CopyCommand*>(seen[1].payload)->region.size, 3u);
  EXPECT_EQ(seen[2].type, CommandType::kFill);
  EXPECT_EQ(reinterpret_cast<const FillCommand*>(seen[2].payload)->fill_word, 0xabcdu);
}

TEST(CommandListTest, TrailingBytesFollowTheirCommand) {
  CommandList list;
  uint8_t* push = nullptr;
  DispatchCommand* dispatch = list.Append<DispatchCommand>(false, 13, &push);
  ASSERT_NE(push, nullptr);
  dispatch->push_size = 13;
  for (int i = 0; i < 13; ++i) push[i] = static_cast<uint8_t>(100 + i);
  list.Append<TimestampCommand>(false)->slot = 1;

  const std::vector<Seen> seen = Commands(list);
  ASSERT_EQ(seen.size(), 2u);
  const auto* read = reinterpret_cast<const DispatchCommand*>(seen[0].payload);
  EXPECT_EQ(read->push_size, 13u);
  const uint8_t* bytes = seen[0].payload + ((sizeof(DispatchCommand) + 7) & ~size_t{7});
  for (int i = 0; i < 13; ++i) EXPECT_EQ(bytes[i], 100 + i) << i;
  // The next record starts aligned after the trailing bytes.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(seen[1].payload) % 8, 0u);
  EXPECT_EQ(reinterpret_cast<const TimestampCommand*>(seen[1].payload)->slot, 1u);
}

TEST(CommandListTest, GrowingKeepsEarlierCommands) {
  CommandList list;
  constexpr uint32_t kCount = 5000;  // several times the first block
  for (uint32_t i = 0; i < kCount; ++i) list.Append<TimestampCommand>(false)->slot = i;
  uint32_t expected = 0;
  list.ForEach([&](CommandType type, const uint8_t* payload) {
    ASSERT_EQ(type, CommandType::kTimestamp);
    EXPECT_EQ(reinterpret_cast<const TimestampCommand*>(payload)->slot, expected++);
  });
  EXPECT_EQ(expected, kCount);
}

TEST(CommandListTest, ClearKeepsTheMemoryForTheNextBatch) {
  CommandList list;
  for (int i = 0; i < 100; ++i) list.Append<CopyCommand>(false);
  const size_t capacity = list.capacity_bytes();
  const size_t used = list.used_bytes();
  ASSERT_GT(capacity, 0u);
  list.Clear();
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(list.used_bytes(), 0u);
  EXPECT_TRUE(Commands(list).empty());
  for (int i = 0; i < 100; ++i) list.Append<CopyCommand>(false);
  EXPECT_EQ(list.capacity_bytes(), capacity);
  EXPECT_EQ(list.used_bytes(), used);
}

TEST(CommandListTest, AppendedCommandsStartZeroed) {
  CommandList list;
  // Dirty the memory, then reuse it.
  std::memset(list.Append<FillCommand>(false), 0xff, sizeof(FillCommand));
  list.Clear();
  FillCommand* fill = list.Append<FillCommand>(false);
  EXPECT_EQ(fill->edge_count, 0u);
  EXPECT_EQ(fill->fill_size, 0u);
}

// What RecordInto asked of Vulkan, one letter per call: E entry barrier
// (from the host and earlier work), O ordering barrier, I host import
// barrier, X host export barrier, C copy, F fill.
std::string g_calls;

VKAPI_ATTR void VKAPI_CALL FakeBarrier(VkCommandBuffer, VkPipelineStageFlags src,
                                       VkPipelineStageFlags dst, VkDependencyFlags, uint32_t,
                                       const VkMemoryBarrier*, uint32_t,
                                       const VkBufferMemoryBarrier*, uint32_t,
                                       const VkImageMemoryBarrier*) {
  const bool from_host = (src & VK_PIPELINE_STAGE_HOST_BIT) != 0;
  const bool from_work = (src & ~VK_PIPELINE_STAGE_HOST_BIT) != 0;
  if (dst & VK_PIPELINE_STAGE_HOST_BIT) {
    g_calls += 'X';
  } else if (from_host) {
    g_calls += from_work ? 'E' : 'I';
  } else {
    g_calls += 'O';
  }
}
VKAPI_ATTR void VKAPI_CALL FakeCopy(VkCommandBuffer, VkBuffer, VkBuffer, uint32_t,
                                    const VkBufferCopy*) {
  g_calls += 'C';
}
VKAPI_ATTR void VKAPI_CALL FakeFill(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize,
                                    uint32_t) {
  g_calls += 'F';
}

std::string Translate(const CommandList& list, Ordering ordering) {
  CommandFunctions functions;
  functions.pipeline_barrier = &FakeBarrier;
  functions.copy_buffer = &FakeCopy;
  functions.fill_buffer = &FakeFill;
  g_calls.clear();
  list.RecordInto(RecordTarget{VK_NULL_HANDLE, &functions, {1, 1, 1}, nullptr}, ordering);
  return g_calls;
}

void AppendFill(CommandList& list) { list.Append<FillCommand>(false)->fill_size = 4; }

TEST(CommandListTest, StreamBatchesOrderEveryCommandAfterThePrevious) {
  CommandList list;
  list.Append<CopyCommand>(false);
  list.Append<CopyCommand>(false);
  AppendFill(list);
  EXPECT_EQ(Translate(list, Ordering::kSequential), "COCOFX");
}

TEST(CommandListTest, StreamBatchesImportHostWritesWhereACommandSaysSo) {
  CommandList list;
  list.Append<CopyCommand>(false);
  list.Append<CopyCommand>(true);
  EXPECT_EQ(Translate(list, Ordering::kSequential), "CIOCX");
}

TEST(CommandListTest, RecordingsOrderCommandsOnlyAtBarriers) {
  CommandList list;
  list.Append<CopyCommand>(false);
  list.Append<CopyCommand>(false);  // independent of the first: no barrier
  list.Append<BarrierCommand>(false);
  AppendFill(list);
  list.Append<CopyCommand>(false);
  list.Append<BarrierCommand>(false);
  AppendFill(list);
  EXPECT_EQ(Translate(list, Ordering::kAtBarriers), "ECCOFCOFX");
}

TEST(CommandListTest, RecordingsDropBarriersThatOrderNothing) {
  CommandList list;
  list.Append<BarrierCommand>(false);  // nothing before it
  list.Append<CopyCommand>(false);
  list.Append<BarrierCommand>(false);  // a run of barriers is one
  list.Append<BarrierCommand>(false);
  list.Append<CopyCommand>(false);
  list.Append<BarrierCommand>(false);  // nothing after it
  EXPECT_EQ(Translate(list, Ordering::kAtBarriers), "ECOCX");
}

TEST(CommandListTest, AnEmptyRecordingStillImportsAndExports) {
  CommandList list;
  EXPECT_EQ(Translate(list, Ordering::kAtBarriers), "EX");
  list.Append<BarrierCommand>(false);
  EXPECT_EQ(Translate(list, Ordering::kAtBarriers), "EX");
}

}  // namespace
}  // namespace streamhal::vk
