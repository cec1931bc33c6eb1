#pragma once
/// Maximum flow on the reservation network of rescfg-scheduling(7), THE PASS: a source feeding
/// left nodes (groups of policies, capped at their need), edges from left
/// to right nodes (the pools a group reaches; uncapped unless only some of
/// the group's policies may use the pool) and right nodes draining into a
/// sink (capped at free capacity).
///
/// Unlike the general MaxFlow, a flow here can be changed and repaired:
/// lowering a capacity cancels just the excess, and Augment() continues
/// from the current flow. Rule 3 asks many questions that differ from one
/// maximum flow by a single capacity; answering each from a copy of that
/// flow costs a few augmenting paths instead of a whole computation. The
/// structure is shared between copies; only capacities and flows are copied.

#include <memory>
#include <vector>

#include "util/quantity.h"

namespace rescfg {

class BipartiteFlow {
 public:
  /// The fixed shape of a network: which left node reaches which right node.
  class Shape {
   public:
    Shape(int left, int right, const std::vector<std::vector<int>>& edges_of_left);
    int left() const { return left_; }
    int right() const { return right_; }
    /// Edges of left node i are ids [LeftBegin(i), LeftBegin(i + 1)), in the
    /// order given.
    int LeftBegin(int i) const { return left_begin_[i]; }
    int EdgeRight(int e) const { return edge_right_[e]; }
    int EdgeLeft(int e) const { return edge_left_[e]; }

   private:
    friend class BipartiteFlow;
    int left_ = 0, right_ = 0;
    std::vector<int> left_begin_, edge_right_, edge_left_;
    std::vector<int> right_begin_, right_edges_;  ///< per right node: the ids of its edges
  };

  BipartiteFlow(std::shared_ptr<const Shape> shape, std::vector<Ticks> left_cap, std::vector<Ticks> right_cap);

  /// Raises the current flow to a maximum one (Dinic); returns its value.
  Ticks Augment();
  /// Changes a capacity; when it falls below the node's flow, the excess is
  /// cancelled along the node's edges, so the flow stays valid (not maximal).
  void SetLeftCap(int i, Ticks cap);
  void SetRightCap(int j, Ticks cap);
  /// Caps an edge (edges start uncapped). A group of which only members
  /// with a need of `cap` in total may still use a pool is, for the flow,
  /// the same as the group split in two: the cap says it without a new node.
  void SetEdgeCap(int e, Ticks cap);

  Ticks value() const { return value_; }
  Ticks LeftCap(int i) const { return left_cap_[i]; }
  Ticks RightFlow(int j) const { return right_flow_[j]; }
  Ticks EdgeFlow(int e) const { return edge_flow_[e]; }
  const Shape& shape() const { return *shape_; }

 private:
  bool Levels();
  Ticks PushFromLeft(int i, Ticks limit);
  Ticks PushFromRight(int j, Ticks limit);

  void NoteStart(int i) { starts_.push_back(i); }
  /// Removes `d` from edge e's flow and from both its ends.
  void Cancel(int e, Ticks d);
  /// Whether a change since the last Augment() gave some right node more
  /// room towards the sink (then a path may start anywhere).
  bool RightRoomGrew() const;

  std::shared_ptr<const Shape> shape_;
  std::vector<Ticks> left_cap_, left_flow_, right_cap_, right_flow_, edge_cap_, edge_flow_;
  Ticks value_ = 0;
  /// Where augmenting paths may start. After Augment() no path exists; a
  /// change that only adds room at the source side of some left nodes (a
  /// cancelled flow, a raised left capacity) can only open paths from those
  /// nodes: every other node still reaches what it reached before, which
  /// did not include the sink. So a repair searches from them alone, not
  /// from every unsaturated node, unless a right node gained room.
  std::vector<int> starts_;
  bool all_starts_ = true;  ///< a change may have opened paths from anywhere
  std::vector<Ticks> right_room_;  ///< per right node: cap - flow after the last Augment()
  /// Scratch of Augment(), not copied with the flow.
  struct Scratch {
    Scratch() = default;
    Scratch(const Scratch&) {}
    Scratch& operator=(const Scratch&) { return *this; }
    std::vector<int> left_level, right_level, left_next, right_next, queue;
  };
  Scratch scratch_;
  int sink_level_ = -1;
};

}  // namespace rescfg
