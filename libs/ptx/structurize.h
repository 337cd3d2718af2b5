// Turns a function's CFG into nested loops with a topological block order,
// the shape the SPIR-V emitter writes as structured control flow.
//
// PTX branches are unstructured. For a reducible CFG (what nvcc emits), every
// cycle is a natural loop entered only through its header, so the CFG is a
// tree of regions (the function body and its natural loops), and inside a
// region, once its child loops are collapsed to single nodes, the edges form
// a DAG. The emitter walks each region's nodes in a topological order, runs a
// block when a "current block" variable names it, and writes a region's loop
// as an OpLoopMerge loop that repeats while the variable names its header.
// Every branch is then a store of the next block's index: exits from several
// loops and early returns need no further constructs, and all threads meet
// every block (and so every barrier) at the same point of the structure.
#ifndef STREAMHAL_PTX_STRUCTURIZE_H_
#define STREAMHAL_PTX_STRUCTURIZE_H_

#include <optional>
#include <vector>

#include "ptx/ir.h"

namespace streamhal::ptx {

struct LoopTree {
  // One node of a region: a block of the region itself, or a child loop.
  struct Node {
    int block = -1;  // >= 0 for a block
    int loop = -1;   // >= 0 for a child region (an index into `regions`)
  };
  struct Region {
    int header = -1;          // the loop's header block; -1 for the function body
    std::vector<Node> order;  // topological: every forward edge goes down the list
  };
  std::vector<Region> regions;  // regions[0] is the function body
};

// The loop tree of `blocks` (blocks[0] is the entry; unreachable blocks are
// left out), or nullopt when the CFG is irreducible.
std::optional<LoopTree> Structurize(const std::vector<Block>& blocks);

}  // namespace streamhal::ptx

#endif  // STREAMHAL_PTX_STRUCTURIZE_H_
