#include "vk_backend/fill.h"

namespace streamhal::vk {

uint32_t ReplicatePattern(uint32_t pattern, uint32_t element_size) {
  switch (element_size) {
    case 1:
      return (pattern & 0xffu) * 0x01010101u;
    case 2:
      return (pattern & 0xffffu) * 0x00010001u;
    default:
      return pattern;
  }
}

FillPlan PlanFill(uint64_t offset, uint32_t pattern, uint32_t element_size, uint64_t count) {
  FillPlan plan;
  const uint32_t word = ReplicatePattern(pattern, element_size);
  const uint64_t end = offset + count * element_size;
  const uint64_t aligned_begin = (offset + 3) & ~uint64_t{3};
  const uint64_t aligned_end = end & ~uint64_t{3};
  auto add_edge = [&](uint64_t begin, uint64_t edge_end) {
    FillPlan::Edge& edge = plan.edges[plan.edge_count++];
    edge.offset = begin;
    edge.size = static_cast<uint32_t>(edge_end - begin);
    for (uint32_t k = 0; k < edge.size; ++k) {
      edge.bytes[k] = static_cast<uint8_t>(word >> (8 * ((begin + k) % 4)));
    }
  };
  if (aligned_begin >= aligned_end) {
    // No whole word: at most 6 bytes straddling one word boundary.
    if (end - offset <= 4 && (offset / 4 == (end - 1) / 4)) {
      add_edge(offset, end);
    } else {
      add_edge(offset, aligned_begin);
      add_edge(aligned_begin, end);
    }
    return plan;
  }
  if (offset < aligned_begin) add_edge(offset, aligned_begin);
  plan.fill_offset = aligned_begin;
  plan.fill_size = aligned_end - aligned_begin;
  plan.fill_word = word;
  if (aligned_end < end) add_edge(aligned_end, end);
  return plan;
}

}  // namespace streamhal::vk
