#include "validate/max_flow.h"

#include <algorithm>
#include <deque>

namespace rescfg {

void MaxFlow::AddEdge(int from, int to, Ticks capacity) {
  adjacent_[from].push_back(static_cast<int>(edges_.size()));
  edges_.push_back({to, capacity, capacity});
  adjacent_[to].push_back(static_cast<int>(edges_.size()));
  edges_.push_back({from, 0, 0});
}

bool MaxFlow::BuildLevels(int source, int sink) {
  level_.assign(adjacent_.size(), -1);
  level_[source] = 0;
  std::deque<int> queue{source};
  while (!queue.empty()) {
    int node = queue.front();
    queue.pop_front();
    for (int e : adjacent_[node]) {
      const Edge& edge = edges_[e];
      if (edge.room > 0 && level_[edge.to] < 0) {
        level_[edge.to] = level_[node] + 1;
        queue.push_back(edge.to);
      }
    }
  }
  return level_[sink] >= 0;
}

/// One augmenting path, depth-first along increasing levels; the recursion
/// is as deep as the shortest path (four nodes in the reservation graph).
Ticks MaxFlow::Push(int node, int sink, Ticks limit) {
  if (node == sink) return limit;
  const std::vector<int>& out = adjacent_[node];
  for (int& i = next_[node]; i < static_cast<int>(out.size()); ++i) {
    Edge& edge = edges_[out[i]];
    if (edge.room <= 0 || level_[edge.to] != level_[node] + 1) continue;
    Ticks pushed = Push(edge.to, sink, std::min(limit, edge.room));
    if (pushed > 0) {
      edge.room -= pushed;
      edges_[out[i] ^ 1].room += pushed;
      return pushed;
    }
  }
  return 0;
}

Ticks MaxFlow::Run(int source, int sink) {
  Ticks unbounded = 1;
  for (const Edge& edge : edges_) unbounded += edge.capacity;
  Ticks total = 0;
  while (BuildLevels(source, sink)) {
    next_.assign(adjacent_.size(), 0);
    while (Ticks pushed = Push(source, sink, unbounded)) total += pushed;
  }
  return total;
}

std::vector<bool> MaxFlow::SourceSide(int source) const {
  std::vector<bool> reached(adjacent_.size(), false);
  reached[source] = true;
  std::deque<int> queue{source};
  while (!queue.empty()) {
    int node = queue.front();
    queue.pop_front();
    for (int e : adjacent_[node]) {
      const Edge& edge = edges_[e];
      if (edge.room > 0 && !reached[edge.to]) {
        reached[edge.to] = true;
        queue.push_back(edge.to);
      }
    }
  }
  return reached;
}

}  // namespace rescfg
