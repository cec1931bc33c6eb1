#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "schedule/bipartite_flow.h"
#include "util/max_flow.h"

namespace rescfg {
namespace {

constexpr Ticks kUncapped = Ticks(1) << 100;

/// A random bipartite network, as the reservation book builds them.
struct Network {
  int left = 0, right = 0;
  std::vector<std::vector<int>> edges;       ///< per left node: right nodes
  std::vector<std::vector<Ticks>> edge_cap;  ///< parallel to edges
  std::vector<Ticks> left_cap, right_cap;
};

rc::Gen<Network> GenNetwork() {
  return rc::gen::exec([] {
    Network n;
    n.left = *rc::gen::inRange(0, 12);
    n.right = *rc::gen::inRange(1, 6);
    for (int i = 0; i < n.left; ++i) {
      n.left_cap.push_back(*rc::gen::inRange<int>(0, 20));
      std::vector<int> e;
      for (int j = 0; j < n.right; ++j) {
        if (*rc::gen::inRange(0, 3) == 0) e.push_back(j);
      }
      n.edges.push_back(e);
      n.edge_cap.emplace_back(e.size(), kUncapped);
    }
    for (int j = 0; j < n.right; ++j) n.right_cap.push_back(*rc::gen::inRange<int>(0, 25));
    return n;
  });
}

/// The same network solved from scratch by the general Dinic.
Ticks Reference(const Network& n) {
  MaxFlow flow(2 + n.left + n.right);
  const int source = 0, sink = 1;
  for (int i = 0; i < n.left; ++i) {
    flow.AddEdge(source, 2 + i, n.left_cap[i]);
    for (size_t k = 0; k < n.edges[i].size(); ++k) flow.AddEdge(2 + i, 2 + n.left + n.edges[i][k], n.edge_cap[i][k]);
  }
  for (int j = 0; j < n.right; ++j) flow.AddEdge(2 + n.left + j, sink, n.right_cap[j]);
  return flow.Run(source, sink);
}

BipartiteFlow Make(const Network& n) {
  return BipartiteFlow(std::make_shared<const BipartiteFlow::Shape>(n.left, n.right, n.edges), n.left_cap,
                       n.right_cap);
}

TEST(BipartiteFlow, SmallExample) {
  // Two groups share pool 0; the second can also use pool 1.
  Network n{2, 2, {{0}, {0, 1}}, {{kUncapped}, {kUncapped, kUncapped}}, {5, 5}, {6, 3}};
  BipartiteFlow flow = Make(n);
  EXPECT_EQ(flow.Augment(), 9);
  flow.SetRightCap(0, 0);
  EXPECT_LE(flow.value(), 3);
  EXPECT_EQ(flow.Augment(), 3);
}

TEST(BipartiteFlow, AnEdgeCapStandsForASplitGroup) {
  // Group 0 (need 6) reaches pools 0 and 1, but only 2 of its need may use
  // pool 0; pool 1 holds 3: at most 5 of the 6 can be covered.
  Network n{1, 2, {{0, 1}}, {{kUncapped, kUncapped}}, {6}, {10, 3}};
  BipartiteFlow flow = Make(n);
  EXPECT_EQ(flow.Augment(), 6);
  flow.SetEdgeCap(flow.shape().LeftBegin(0), 2);
  EXPECT_EQ(flow.Augment(), 5);
}

TEST(BipartiteFlow, LoweringALeftCapacityOverACappedEdgeReopensIt) {
  // Group 0 (need 2) reaches pools 0 and 1, at most 1 through pool 0;
  // group 1 (need 1) reaches pool 1 only. Pool 0 holds 2, pool 1 holds 1.
  // The first maximum sends group 0 through both pools and leaves group 1
  // empty. Lowering group 0 to 1 cancels its flow into pool 0, and lowering
  // pool 0 to 1 takes back the room that cancel gave it: no pool gained
  // room, group 0 is saturated, yet group 1 -> pool 1 -> group 0 -> pool 0
  // is an augmenting path (group 0's capped edge reopened).
  Network n{2, 2, {{0, 1}, {1}}, {{1, kUncapped}, {kUncapped}}, {2, 1}, {2, 1}};
  BipartiteFlow flow = Make(n);
  flow.SetEdgeCap(flow.shape().LeftBegin(0), 1);
  EXPECT_EQ(flow.Augment(), 2);
  flow.SetLeftCap(0, 1);
  flow.SetRightCap(0, 1);
  n.left_cap[0] = 1;
  n.right_cap[0] = 1;
  EXPECT_EQ(Reference(n), 2);
  EXPECT_EQ(flow.Augment(), 2);
}

RC_GTEST_PROP(BipartiteFlow, MatchesGeneralMaxFlow, ()) {
  Network n = *GenNetwork();
  BipartiteFlow flow = Make(n);
  RC_ASSERT(flow.Augment() == Reference(n));
}

RC_GTEST_PROP(BipartiteFlow, RepairedFlowMatchesAFreshOne, ()) {
  // Changing capacities (node and edge, up or down) one after another and
  // repairing the flow each time gives the maximum of the changed network,
  // whatever the previous flow was and however many changes came between.
  Network n = *GenNetwork();
  BipartiteFlow flow = Make(n);
  flow.Augment();
  const int changes = *rc::gen::inRange(1, 8);
  for (int c = 0; c < changes; ++c) {
    const int kind = *rc::gen::inRange(0, 3);
    if (kind == 0 && n.left > 0) {
      int i = *rc::gen::inRange(0, n.left);
      n.left_cap[i] = *rc::gen::inRange<int>(0, 20);
      flow.SetLeftCap(i, n.left_cap[i]);
    } else if (kind == 1 && n.left > 0 && !n.edges[0].empty()) {
      int k = *rc::gen::inRange(0, static_cast<int>(n.edges[0].size()));
      n.edge_cap[0][k] = *rc::gen::inRange<int>(0, 20);
      flow.SetEdgeCap(flow.shape().LeftBegin(0) + k, n.edge_cap[0][k]);
    } else {
      int j = *rc::gen::inRange(0, n.right);
      n.right_cap[j] = *rc::gen::inRange<int>(0, 25);
      flow.SetRightCap(j, n.right_cap[j]);
    }
    RC_ASSERT(flow.value() <= Reference(n));
    if (*rc::gen::arbitrary<bool>()) {
      BipartiteFlow copy = flow;
      RC_ASSERT(copy.Augment() == Reference(n));
      if (*rc::gen::arbitrary<bool>()) flow = copy;
    }
  }
  RC_ASSERT(flow.Augment() == Reference(n));
}

RC_GTEST_PROP(BipartiteFlow, RepairsAfterChangesAnywhereAtFullSize, ()) {
  // As above, but drawn at full size (rapidcheck scales inRange by it) with
  // edge capacities on any node, and several changes between repairs: a
  // lowered node capacity next to a capped edge, then its pools lowered back.
  Network n = *rc::gen::resize(100, GenNetwork());
  BipartiteFlow flow = Make(n);
  for (int i = 0; i < n.left; ++i) {
    for (size_t k = 0; k < n.edges[i].size(); ++k) {
      if (*rc::gen::resize(100, rc::gen::inRange(0, 3)) == 0) {
        n.edge_cap[i][k] = *rc::gen::resize(100, rc::gen::inRange<int>(0, 10));
        flow.SetEdgeCap(flow.shape().LeftBegin(i) + static_cast<int>(k), n.edge_cap[i][k]);
      }
    }
  }
  RC_ASSERT(flow.Augment() == Reference(n));
  const int rounds = *rc::gen::resize(100, rc::gen::inRange(1, 6));
  for (int round = 0; round < rounds; ++round) {
    const int changes = *rc::gen::resize(100, rc::gen::inRange(1, 4));
    for (int c = 0; c < changes; ++c) {
      const int kind = *rc::gen::resize(100, rc::gen::inRange(0, 4));
      if (kind == 3 && n.left > 0) {
        // Lower a node, then take back from each pool the room that the
        // cancelled flow gave it, so no pool has more room than before.
        int i = *rc::gen::resize(100, rc::gen::inRange(0, n.left));
        std::vector<Ticks> room(n.right);
        for (int j = 0; j < n.right; ++j) room[j] = n.right_cap[j] - flow.RightFlow(j);
        n.left_cap[i] = *rc::gen::resize(100, rc::gen::inRange<int>(0, static_cast<int>(n.left_cap[i]) + 1));
        flow.SetLeftCap(i, n.left_cap[i]);
        for (int j = 0; j < n.right; ++j) {
          if (n.right_cap[j] - flow.RightFlow(j) > room[j]) {
            n.right_cap[j] = flow.RightFlow(j) + std::max<Ticks>(room[j], 0);
            flow.SetRightCap(j, n.right_cap[j]);
          }
        }
      } else if (kind == 0 && n.left > 0) {
        int i = *rc::gen::resize(100, rc::gen::inRange(0, n.left));
        n.left_cap[i] = *rc::gen::resize(100, rc::gen::inRange<int>(0, 20));
        flow.SetLeftCap(i, n.left_cap[i]);
      } else if (kind == 1 && n.left > 0) {
        int i = *rc::gen::resize(100, rc::gen::inRange(0, n.left));
        if (n.edges[i].empty()) continue;
        int k = *rc::gen::resize(100, rc::gen::inRange(0, static_cast<int>(n.edges[i].size())));
        n.edge_cap[i][k] = *rc::gen::resize(100, rc::gen::inRange<int>(0, 20));
        flow.SetEdgeCap(flow.shape().LeftBegin(i) + k, n.edge_cap[i][k]);
      } else {
        int j = *rc::gen::resize(100, rc::gen::inRange(0, n.right));
        n.right_cap[j] = *rc::gen::resize(100, rc::gen::inRange<int>(0, 25));
        flow.SetRightCap(j, n.right_cap[j]);
      }
    }
    RC_ASSERT(flow.Augment() == Reference(n));
  }
}

}  // namespace
}  // namespace rescfg
