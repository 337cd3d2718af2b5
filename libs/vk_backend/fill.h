// cuMemsetD8/D16/D32 on Vulkan. vkCmdFillBuffer writes whole 32-bit words at
// 4-byte-aligned offsets only; the bytes of a fill outside those words (at
// most three at each end) are copied from a few staged bytes instead, since
// vkCmdCopyBuffer has no alignment rules. No shader is involved, so fills
// work without 8-bit storage or atomics.
#ifndef STREAMHAL_VK_BACKEND_FILL_H_
#define STREAMHAL_VK_BACKEND_FILL_H_

#include <array>
#include <cstdint>

namespace streamhal::vk {

// The element pattern repeated over 32 bits: byte k of the result is the
// byte a fill writes at any address a with a % 4 == k, given elements start
// at multiples of `element_size` (1, 2 or 4).
uint32_t ReplicatePattern(uint32_t pattern, uint32_t element_size);

struct FillPlan {
  // The word-aligned middle for vkCmdFillBuffer; size 0 when there is none.
  uint64_t fill_offset = 0;
  uint64_t fill_size = 0;
  uint32_t fill_word = 0;
  // Up to two unaligned edges, each fewer than 4 bytes, written by copies.
  struct Edge {
    uint64_t offset = 0;
    uint32_t size = 0;
    std::array<uint8_t, 4> bytes = {};
  };
  std::array<Edge, 2> edges = {};
  int edge_count = 0;
};

// Plans a fill of `count` elements of `element_size` bytes at byte `offset`
// of a buffer whose offsets have the same alignment as device addresses
// (offset % element_size == 0).
FillPlan PlanFill(uint64_t offset, uint32_t pattern, uint32_t element_size, uint64_t count);

}  // namespace streamhal::vk

#endif  // STREAMHAL_VK_BACKEND_FILL_H_
