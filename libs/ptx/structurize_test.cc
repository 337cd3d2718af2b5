#include "ptx/structurize.h"

#include <gtest/gtest.h>

#include <vector>

namespace streamhal::ptx {
namespace {

Block Jump(int target) {
  Block b;
  b.exit = Block::Exit::kBranch;
  b.target = target;
  return b;
}
Block Branch(int taken, int not_taken) {
  Block b;
  b.exit = Block::Exit::kConditional;
  b.target = taken;
  b.fallthrough = not_taken;
  b.condition = "%p1";
  return b;
}
Block Return() { return Block{}; }

// The flattened visiting order: blocks as themselves, loops as 100 + header
// followed by their nodes and -1.
void Flatten(const LoopTree& tree, int r, std::vector<int>& out) {
  for (const LoopTree::Node& node : tree.regions[r].order) {
    if (node.block >= 0) {
      out.push_back(node.block);
    } else {
      out.push_back(100 + tree.regions[node.loop].header);
      Flatten(tree, node.loop, out);
      out.push_back(-1);
    }
  }
}

std::vector<int> Order(const std::vector<Block>& blocks) {
  auto tree = Structurize(blocks);
  if (!tree) return {-2};
  std::vector<int> out;
  Flatten(*tree, 0, out);
  return out;
}

TEST(StructurizeTest, DiamondIsTopological) {
  // 0 -> {1, 2} -> 3
  EXPECT_EQ(Order({Branch(2, 1), Jump(3), Jump(3), Return()}), (std::vector<int>{0, 1, 2, 3}));
}

TEST(StructurizeTest, LoopWithTwoExitsAndAnEarlyReturn) {
  // 0 -> 1 (header) -> 2 -> {1, 3}; 1 -> 4 (exit); 2's sibling 3 returns.
  const std::vector<Block> blocks = {Jump(1), Branch(4, 2), Branch(1, 3), Return(), Return()};
  EXPECT_EQ(Order(blocks), (std::vector<int>{0, 101, 1, 2, -1, 3, 4}));
}

TEST(StructurizeTest, NestedLoops) {
  // 0 -> 1 (outer) -> 2 (inner, self loop) -> 3 -> {1, 4}
  const std::vector<Block> blocks = {Jump(1), Jump(2), Branch(2, 3), Branch(1, 4), Return()};
  EXPECT_EQ(Order(blocks), (std::vector<int>{0, 101, 1, 102, 2, -1, 3, -1, 4}));
}

TEST(StructurizeTest, EntryCanBeALoopHeader) {
  EXPECT_EQ(Order({Branch(0, 1), Return()}), (std::vector<int>{100, 0, -1, 1}));
}

TEST(StructurizeTest, UnreachableBlocksAreLeftOut) {
  EXPECT_EQ(Order({Return(), Jump(0)}), (std::vector<int>{0}));
}

TEST(StructurizeTest, IrreducibleCfgIsRefused) {
  // 0 -> {1, 2}; 1 <-> 2: a cycle with two entries.
  EXPECT_EQ(Order({Branch(1, 2), Branch(2, 3), Branch(1, 3), Return()}), (std::vector<int>{-2}));
}

TEST(StructurizeTest, BadTargetIsRefused) { EXPECT_EQ(Order({Jump(7)}), (std::vector<int>{-2})); }

}  // namespace
}  // namespace streamhal::ptx
