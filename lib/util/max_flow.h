#pragma once
/// Maximum flow (Dinic) on small graphs with exact 128-bit capacities: the
/// reservation capacity of rescfg-scheduling(7), THE PASS and the Hall check of validation share it.

#include <cstdint>
#include <vector>

#include "util/quantity.h"

namespace rescfg {

class MaxFlow {
 public:
  explicit MaxFlow(int nodes);
  /// Adds a directed edge; returns its id for Flow().
  int AddEdge(int from, int to, Ticks capacity);
  Ticks Run(int source, int sink);
  Ticks Flow(int edge) const { return edges_[edge].flow; }
  /// After Run: the nodes reachable from the source in the residual graph
  /// (the source side of a minimum cut).
  std::vector<bool> SourceSide(int source) const;

 private:
  struct Edge { int to; Ticks capacity; Ticks flow; };
  bool Levels(int source, int sink);
  Ticks Push(int node, int sink, Ticks limit);

  std::vector<Edge> edges_;
  std::vector<std::vector<int>> adjacent_;
  std::vector<int> level_;
  std::vector<size_t> next_;
};

}  // namespace rescfg
