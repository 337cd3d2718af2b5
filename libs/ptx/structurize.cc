#include "ptx/structurize.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace streamhal::ptx {
namespace {

std::vector<int> Successors(const Block& b) {
  switch (b.exit) {
    case Block::Exit::kBranch:
      return {b.target};
    case Block::Exit::kConditional:
      return {b.target, b.fallthrough};
    case Block::Exit::kReturn:
      break;
  }
  return {};
}

}  // namespace

std::optional<LoopTree> Structurize(const std::vector<Block>& blocks) {
  const int n = static_cast<int>(blocks.size());
  if (n == 0) return std::nullopt;
  std::vector<std::vector<int>> succ(n), pred(n);
  for (int i = 0; i < n; ++i) {
    for (int s : Successors(blocks[i])) {
      if (s < 0 || s >= n) return std::nullopt;
      succ[i].push_back(s);
    }
  }

  // Reverse postorder of the blocks reachable from the entry (iterative DFS).
  std::vector<int> rpo_index(n, -1), postorder;
  {
    std::vector<char> seen(n, 0);
    std::vector<std::pair<int, size_t>> stack{{0, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      if (next < succ[b].size()) {
        const int s = succ[b][next++];
        if (!seen[s]) {
          seen[s] = 1;
          stack.push_back({s, 0});
        }
      } else {
        postorder.push_back(b);
        stack.pop_back();
      }
    }
  }
  const std::vector<int> rpo(postorder.rbegin(), postorder.rend());
  for (size_t i = 0; i < rpo.size(); ++i) rpo_index[rpo[i]] = static_cast<int>(i);
  for (int b : rpo) {
    for (int s : succ[b]) pred[s].push_back(b);
  }

  // Immediate dominators (Cooper, Harvey and Kennedy's iteration over RPO).
  std::vector<int> idom(n, -1);
  idom[0] = 0;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (rpo_index[a] > rpo_index[b]) a = idom[a];
      while (rpo_index[b] > rpo_index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 1; i < rpo.size(); ++i) {
      const int b = rpo[i];
      int d = -1;
      for (int p : pred[b]) {
        if (idom[p] < 0) continue;
        d = d < 0 ? p : intersect(p, d);
      }
      if (d != idom[b]) {
        idom[b] = d;
        changed = true;
      }
    }
  }
  auto dominates = [&](int a, int b) {
    for (;;) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom[b];
    }
  };

  // Natural loops. A retreating edge whose target does not dominate its
  // source means a cycle with two entries: irreducible.
  std::vector<int> headers;
  std::vector<std::vector<int>> latches(n);
  for (int b : rpo) {
    for (int s : succ[b]) {
      if (rpo_index[s] > rpo_index[b]) continue;
      if (!dominates(s, b)) return std::nullopt;
      if (latches[s].empty()) headers.push_back(s);
      latches[s].push_back(b);
    }
  }
  const int loops = static_cast<int>(headers.size());
  std::vector<std::vector<char>> body(loops, std::vector<char>(n, 0));
  std::vector<int> size(loops, 0);
  for (int l = 0; l < loops; ++l) {
    const int h = headers[l];
    body[l][h] = 1;
    std::vector<int> work;
    for (int latch : latches[h]) {
      if (!body[l][latch]) {
        body[l][latch] = 1;
        work.push_back(latch);
      }
    }
    while (!work.empty()) {
      const int b = work.back();
      work.pop_back();
      for (int p : pred[b]) {
        if (!body[l][p]) {
          body[l][p] = 1;
          work.push_back(p);
        }
      }
    }
    for (int b = 0; b < n; ++b) size[l] += body[l][b];
  }

  // Regions: 0 is the function, 1 + l is loop l. A block belongs to its
  // innermost (smallest) loop; a loop's parent is the smallest other loop
  // holding its header (natural loops of a reducible CFG nest).
  auto innermost = [&](int b, int except) {
    int best = -1;
    for (int l = 0; l < loops; ++l) {
      if (l == except || !body[l][b]) continue;
      if (best < 0 || size[l] < size[best]) best = l;
    }
    return best + 1;
  };
  std::vector<int> region_of(n, -1), parent(loops + 1, -1);
  for (int b : rpo) region_of[b] = innermost(b, -1);
  for (int l = 0; l < loops; ++l) parent[l + 1] = innermost(headers[l], l);
  // The node of region `r` that holds block `b`, or -1 when `b` is outside it.
  // Nodes are named by blocks: a child loop by its header.
  auto node_in = [&](int r, int b) {
    int at = region_of[b];
    int via = -1;
    while (at != r) {
      if (at <= 0) return -1;
      via = at;
      at = parent[at];
    }
    return via < 0 ? b : headers[via - 1];
  };

  LoopTree tree;
  tree.regions.resize(loops + 1);
  for (int r = 0; r <= loops; ++r) {
    LoopTree::Region& region = tree.regions[r];
    region.header = r == 0 ? -1 : headers[r - 1];
    // Nodes and the region's DAG (back edges to its header and exits dropped).
    std::vector<int> nodes;
    std::vector<std::vector<int>> edges(n);
    std::vector<int> indegree(n, 0);
    std::vector<char> is_node(n, 0);
    for (int b : rpo) {
      const int u = node_in(r, b);
      if (u < 0) continue;
      if (!is_node[u]) {
        is_node[u] = 1;
        nodes.push_back(u);
      }
      for (int s : succ[b]) {
        if (s == region.header) continue;
        const int v = node_in(r, s);
        if (v < 0 || v == u) continue;
        edges[u].push_back(v);
        ++indegree[v];
      }
    }
    // Kahn's algorithm, taking ready nodes in RPO so the order reads like
    // the PTX.
    std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>>
        ready;
    for (int u : nodes) {
      if (indegree[u] == 0) ready.push({rpo_index[u], u});
    }
    while (!ready.empty()) {
      const int u = ready.top().second;
      ready.pop();
      LoopTree::Node node;
      if (u != region.header && region_of[u] != r) {
        node.loop = region_of[u];
        while (parent[node.loop] != r) node.loop = parent[node.loop];
      } else {
        node.block = u;
      }
      region.order.push_back(node);
      for (int v : edges[u]) {
        if (--indegree[v] == 0) ready.push({rpo_index[v], v});
      }
    }
    if (region.order.size() != nodes.size()) return std::nullopt;
    // The entry (the header, or block 0) must come first.
    const int first = r == 0 ? node_in(0, 0) : region.header;
    if (region.order.empty()) return std::nullopt;
    const LoopTree::Node& head = region.order.front();
    const int head_block = head.block >= 0 ? head.block : headers[head.loop - 1];
    if (head_block != first) return std::nullopt;
  }
  return tree;
}

}  // namespace streamhal::ptx
