#include <gtest/gtest.h>

#include "util/max_flow.h"

namespace rescfg {
namespace {

TEST(MaxFlow, FindsTheMaximumAndTheCut) {
  // 0 -> 2 (5), 0 -> 3 (5), 2 -> 4, 3 -> 4, 3 -> 5 (large), 4 -> 1 (3), 5 -> 1 (4)
  MaxFlow flow(6);
  flow.AddEdge(0, 2, 5);
  flow.AddEdge(0, 3, 5);
  flow.AddEdge(2, 4, 100);
  flow.AddEdge(3, 4, 100);
  flow.AddEdge(3, 5, 100);
  flow.AddEdge(4, 1, 3);
  flow.AddEdge(5, 1, 4);
  EXPECT_EQ(flow.Run(0, 1), 7);
  auto side = flow.SourceSide(0);
  EXPECT_TRUE(side[0]);
  EXPECT_FALSE(side[1]);
}

TEST(MaxFlow, ReportsFlowPerEdge) {
  MaxFlow flow(4);
  int a = flow.AddEdge(0, 1, 2);
  int b = flow.AddEdge(0, 2, 9);
  flow.AddEdge(1, 3, 5);
  flow.AddEdge(2, 3, 1);
  EXPECT_EQ(flow.Run(0, 3), 3);
  EXPECT_EQ(flow.Flow(a), 2);
  EXPECT_EQ(flow.Flow(b), 1);
}

}  // namespace
}  // namespace rescfg
