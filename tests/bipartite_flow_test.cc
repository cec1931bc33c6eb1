#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "max_flow.h"
#include "schedule/bipartite_flow.h"

namespace rescfg {
namespace {

/// A random bipartite network, as the reservation book builds them.
struct Network {
  int left = 0, right = 0;
  std::vector<std::vector<int>> edges;
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
    for (int j : n.edges[i]) flow.AddEdge(2 + i, 2 + n.left + j, Ticks(1) << 100);
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
  Network n{2, 2, {{0}, {0, 1}}, {5, 5}, {6, 3}};
  BipartiteFlow flow = Make(n);
  EXPECT_EQ(flow.Augment(), 9);
  flow.SetRightCap(0, 0);
  EXPECT_LE(flow.value(), 3);
  EXPECT_EQ(flow.Augment(), 3);
}

RC_GTEST_PROP(BipartiteFlow, MatchesGeneralMaxFlow, ()) {
  Network n = *GenNetwork();
  BipartiteFlow flow = Make(n);
  RC_ASSERT(flow.Augment() == Reference(n));
}

RC_GTEST_PROP(BipartiteFlow, RepairedFlowMatchesAFreshOne, ()) {
  // Changing capacities one after another and repairing the flow each time
  // gives the maximum of the changed network, whatever the previous flow was.
  Network n = *GenNetwork();
  BipartiteFlow flow = Make(n);
  flow.Augment();
  const int changes = *rc::gen::inRange(1, 6);
  for (int c = 0; c < changes; ++c) {
    if (n.left > 0 && *rc::gen::arbitrary<bool>()) {
      int i = *rc::gen::inRange(0, n.left);
      n.left_cap[i] = *rc::gen::inRange<int>(0, 20);
      flow.SetLeftCap(i, n.left_cap[i]);
    } else {
      int j = *rc::gen::inRange(0, n.right);
      n.right_cap[j] = *rc::gen::inRange<int>(0, 25);
      flow.SetRightCap(j, n.right_cap[j]);
    }
    RC_ASSERT(flow.value() <= Reference(n));
    BipartiteFlow copy = flow;
    RC_ASSERT(copy.Augment() == Reference(n));
    if (*rc::gen::arbitrary<bool>()) flow = copy;
  }
}

RC_GTEST_PROP(BipartiteFlow, ExtendedKeepsTheFlowAndReachesTheNewMaximum, ()) {
  // Splitting a left node as the reservation book does: part of its
  // capacity moves to a new node that reaches fewer right nodes.
  Network n = *GenNetwork();
  RC_PRE(n.left > 0);
  BipartiteFlow flow = Make(n);
  const Ticks before = flow.Augment();
  const int i = *rc::gen::inRange(0, n.left);
  const Ticks moved = *rc::gen::inRange<int>(0, static_cast<int>(n.left_cap[i]) + 1);
  std::vector<int> kept;
  for (int j : n.edges[i]) {
    if (*rc::gen::arbitrary<bool>()) kept.push_back(j);
  }
  BipartiteFlow extended = flow.Extended({kept}, {moved});
  RC_ASSERT(extended.value() == before);
  extended.SetLeftCap(i, n.left_cap[i] - moved);
  n.left_cap[i] -= moved;
  n.left += 1;
  n.edges.push_back(kept);
  n.left_cap.push_back(moved);
  RC_ASSERT(extended.Augment() == Reference(n));
}

}  // namespace
}  // namespace rescfg
