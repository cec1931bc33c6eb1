#include "util/max_flow.h"

#include <algorithm>
#include <deque>

namespace rescfg {

MaxFlow::MaxFlow(int nodes) : adjacent_(static_cast<size_t>(nodes)) {}

int MaxFlow::AddEdge(int from, int to, Ticks capacity) {
  edges_.push_back({to, capacity, 0});
  adjacent_[from].push_back(static_cast<int>(edges_.size()) - 1);
  edges_.push_back({from, 0, 0});
  adjacent_[to].push_back(static_cast<int>(edges_.size()) - 1);
  return static_cast<int>(edges_.size()) - 2;
}

bool MaxFlow::Levels(int source, int sink) {
  level_.assign(adjacent_.size(), -1);
  std::deque<int> todo{source};
  level_[source] = 0;
  while (!todo.empty()) {
    int node = todo.front();
    todo.pop_front();
    for (int id : adjacent_[node]) {
      const Edge& e = edges_[id];
      if (e.capacity > e.flow && level_[e.to] < 0) {
        level_[e.to] = level_[node] + 1;
        todo.push_back(e.to);
      }
    }
  }
  return level_[sink] >= 0;
}

Ticks MaxFlow::Push(int node, int sink, Ticks limit) {
  if (node == sink) return limit;
  for (size_t& i = next_[node]; i < adjacent_[node].size(); ++i) {
    int id = adjacent_[node][i];
    Edge& e = edges_[id];
    if (e.capacity <= e.flow || level_[e.to] != level_[node] + 1) continue;
    Ticks pushed = Push(e.to, sink, std::min(limit, e.capacity - e.flow));
    if (pushed > 0) {
      e.flow += pushed;
      edges_[id ^ 1].flow -= pushed;
      return pushed;
    }
  }
  return 0;
}

Ticks MaxFlow::Run(int source, int sink) {
  Ticks total = 0;
  const Ticks unbounded = Ticks(1) << 125;
  while (Levels(source, sink)) {
    next_.assign(adjacent_.size(), 0);
    while (Ticks pushed = Push(source, sink, unbounded)) total += pushed;
  }
  return total;
}

std::vector<bool> MaxFlow::SourceSide(int source) const {
  std::vector<bool> seen(adjacent_.size(), false);
  std::deque<int> todo{source};
  seen[source] = true;
  while (!todo.empty()) {
    int node = todo.front();
    todo.pop_front();
    for (int id : adjacent_[node]) {
      const Edge& e = edges_[id];
      if (e.capacity > e.flow && !seen[e.to]) {
        seen[e.to] = true;
        todo.push_back(e.to);
      }
    }
  }
  return seen;
}

}  // namespace rescfg
