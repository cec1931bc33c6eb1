/// Two threads sharing items a batch at a time: every item is handed out
/// once, in order within each range, and a thread whose range runs out
/// takes the back half of what the other has left.

#include "util/work_ranges.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace rescfg {
namespace {

TEST(WorkRanges, AThreadDoneEarlyTakesTheBackHalfOfWhatTheOtherHasLeft) {
  WorkRanges ranges(1000, 500, 100, 200, 8);
  struct Step {
    int thread;
    size_t from, to;
    bool new_range;
    size_t range_end;
  };
  const Step steps[] = {
      {0, 0, 100, false, 0},     {1, 500, 600, false, 0},   {1, 600, 700, false, 0},
      {1, 700, 800, false, 0},   {1, 800, 900, false, 0},   {1, 900, 1000, false, 0},
      {1, 300, 400, true, 500},  // thread 0 has [100, 500) left: the back half is taken
      {0, 100, 200, false, 0},   {1, 400, 500, false, 0},
      {1, 0, 0, false, 0},       // [200, 300) is left to thread 0: fewer than 200 are not split
      {0, 200, 300, false, 0},   {0, 0, 0, false, 0},
  };
  for (const Step& step : steps) {
    const WorkRanges::Batch got = ranges.Next(step.thread);
    SCOPED_TRACE(std::to_string(step.thread) + " " + std::to_string(step.from));
    EXPECT_EQ(got.from, step.from);
    EXPECT_EQ(got.to, step.to);
    EXPECT_EQ(got.new_range, step.new_range);
    if (step.new_range) {
      EXPECT_EQ(got.range_end, step.range_end);
    }
  }
  EXPECT_EQ(ranges.ranges(), 3u);
}

TEST(WorkRanges, OneRangeIsReadWholeAndAStoppedRangeIsNobodys) {
  WorkRanges whole(10, 10, 4, 2, 8);  // no second range: thread 0 does all when thread 1 never asks
  size_t next = 0;
  for (WorkRanges::Batch b = whole.Next(0); b.from != b.to; b = whole.Next(0)) {
    EXPECT_EQ(b.from, next);
    next = b.to;
  }
  EXPECT_EQ(next, 10u);
  WorkRanges stopped(1000, 500, 10, 20, 8);
  EXPECT_EQ(stopped.Next(0).to, 10u);
  stopped.Stop(0);
  for (WorkRanges::Batch b = stopped.Next(1); b.from != b.to; b = stopped.Next(1)) EXPECT_GE(b.from, 500u);
  EXPECT_EQ(stopped.ranges(), 2u);
}

/// Items cut only at boundaries (a text's line starts, every 10th item
/// here): each batch and each range taken starts at one.
TEST(WorkRanges, CutOnlyAtBoundaries) {
  WorkRanges ranges(100, 50, 15, 20, 8, [](size_t at) { return (at + 9) / 10 * 10; });
  const size_t want[][3] = {{1, 50, 70}, {1, 70, 90}, {1, 90, 100}, {1, 30, 50}, {0, 0, 20}, {0, 20, 30}, {0, 0, 0}};
  for (const auto& w : want) {
    const WorkRanges::Batch b = ranges.Next(static_cast<int>(w[0]));
    EXPECT_EQ(b.from, w[1]);
    EXPECT_EQ(b.to, w[2]);
  }
}

/// Ranges handed out again are the same ranges, each to its thread, none
/// split, whatever order the threads ask in.
TEST(WorkRanges, TheSameRangesAgain) {
  WorkRanges first(1000, 500, 100, 200, 8);
  EXPECT_EQ(first.Next(0).to, 100u);
  for (WorkRanges::Batch b = first.Next(1); b.from != b.to; b = first.Next(1)) {
  }
  for (WorkRanges::Batch b = first.Next(0); b.from != b.to; b = first.Next(0)) {
  }
  // Thread 1 took [300, 500), then [200, 300); thread 0 kept [0, 200).
  const std::vector<WorkRanges::Range> taken = first.Taken();
  const std::vector<WorkRanges::Range> want = {{0, 200, 0}, {500, 1000, 1}, {300, 500, 1}, {200, 300, 1}};
  ASSERT_EQ(taken, want);
  WorkRanges again(taken, 100);
  std::vector<WorkRanges::Range> seen;
  for (int t : {0, 1, 1, 0}) {  // a thread done early takes nothing of the other's
    for (WorkRanges::Batch b = again.Next(t); b.from != b.to; b = again.Next(t)) {
      if (seen.empty() || b.new_range || seen.back().to != b.from || seen.back().thread != t) {
        seen.push_back({b.from, b.to, t});
      } else {
        seen.back().to = b.to;
      }
    }
  }
  EXPECT_EQ(seen, want);
  EXPECT_EQ(again.Taken(), taken);
}

/// Whatever order the two threads ask in, each item is handed out once,
/// each range's batches follow one another, and no more ranges are made
/// than allowed.
RC_GTEST_PROP(WorkRanges, EveryItemOnceInOrderWithinItsRange, ()) {
  const auto n = *rc::gen::inRange<size_t>(0, 3000);
  const auto second_from = *rc::gen::inRange<size_t>(0, n + 1);
  const auto batch = *rc::gen::inRange<size_t>(1, 200);
  const auto least = *rc::gen::inRange<size_t>(0, 400);
  const auto most = *rc::gen::inRange<size_t>(2, 10);
  WorkRanges ranges(n, second_from, batch, least, most);
  std::vector<int> handed(n, 0);
  size_t next[2] = {0, second_from}, made = 2;
  bool done[2] = {false, false};
  while (!done[0] || !done[1]) {
    const int t = done[0] ? 1 : done[1] ? 0 : *rc::gen::inRange(0, 2);
    const WorkRanges::Batch b = ranges.Next(t);
    if (b.from == b.to) {
      done[t] = true;
      continue;
    }
    RC_ASSERT(b.to <= n);
    RC_ASSERT(b.to - b.from <= batch);
    if (b.new_range) {
      ++made;
      RC_ASSERT(b.range_end <= n);
      RC_ASSERT(b.to <= b.range_end);
    } else {
      RC_ASSERT(b.from == next[t]);
    }
    next[t] = b.to;
    for (size_t i = b.from; i < b.to; ++i) ++handed[i];
  }
  for (size_t i = 0; i < n; ++i) RC_ASSERT(handed[i] == 1);
  RC_ASSERT(made <= std::max<size_t>(most, 2));
  RC_ASSERT(ranges.ranges() == made);
}

/// On real threads, the faster one does more than its half.
TEST(WorkRanges, TheFasterThreadDoesMore) {
  WorkRanges ranges(4000, 2000, 50, 100, 64);
  std::vector<std::atomic<int>> handed(4000);
  size_t done[2] = {0, 0};
  auto work = [&](int t) {
    for (WorkRanges::Batch b = ranges.Next(t); b.from != b.to; b = ranges.Next(t)) {
      for (size_t i = b.from; i < b.to; ++i) ++handed[i];
      done[t] += b.to - b.from;
      if (t == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  };
  std::thread slow(work, 0);
  work(1);
  slow.join();
  for (size_t i = 0; i < handed.size(); ++i) ASSERT_EQ(handed[i].load(), 1) << i;
  EXPECT_GT(done[1], 3000u);
  EXPECT_GT(ranges.ranges(), 2u);
}

}  // namespace
}  // namespace rescfg
