#pragma once
/// Maximum flow with exact amounts (Dinic's algorithm), for the reservation
/// check: policies on one side, pools on the other.

#include <vector>

#include "quantity.h"

namespace rescfg {

class MaxFlow {
 public:
  explicit MaxFlow(int nodes) : adjacent_(static_cast<size_t>(nodes)) {}

  void AddEdge(int from, int to, Ticks capacity);
  /// The maximum flow from `source` to `sink`; call once.
  Ticks Run(int source, int sink);
  /// After Run: the nodes still reachable from `source` through edges with
  /// room left, i.e. the source side of a minimum cut.
  std::vector<bool> SourceSide(int source) const;

 private:
  struct Edge {
    int to;
    Ticks room;
    Ticks capacity;
  };
  bool BuildLevels(int source, int sink);
  Ticks Push(int node, int sink, Ticks limit);

  std::vector<Edge> edges_;  ///< edge 2k and its reverse 2k+1
  std::vector<std::vector<int>> adjacent_;
  std::vector<int> level_, next_;
};

}  // namespace rescfg
