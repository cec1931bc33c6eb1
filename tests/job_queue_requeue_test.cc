/// JobQueue::Requeue: a job placed from a queue goes back among the undecided jobs at its place
/// in queue order (a preempted job in a simulation), for both kinds of queue.

#include <gtest/gtest.h>

#include "schedule/job_queue.h"

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

namespace rescfg {
namespace {

std::vector<QueuedJob> Jobs(const std::vector<int>& needs) {
  std::vector<QueuedJob> jobs;
  for (size_t k = 0; k < needs.size(); ++k) {
    QueuedJob j;
    j.need = Quantity::Units(needs[k]);
    j.queue_order = j.position = static_cast<uint32_t>(k);
    jobs.push_back(j);
  }
  return jobs;
}

TEST(JobQueueRequeue, StrictFifoTakesTheJobBackAtItsPlace) {
  const auto jobs = Jobs({1, 2, 1, 4});
  JobQueue q(0, 0, true, {0, 1, 2, 3}, jobs);
  q.Advance(0);
  q.Advance(0);
  q.Advance(0);  // 0, 1 and 2 placed
  EXPECT_EQ(q.SlotJob(0), 3u);
  q.Requeue(1, jobs);
  EXPECT_EQ(q.SlotJob(0), 1u);
  EXPECT_EQ(q.Undecided(), (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(q.Protected(Quantity::Units(10), jobs).total_capped, Quantity::Units(6));
  q.Requeue(0, jobs);
  EXPECT_EQ(q.Undecided(), (std::vector<uint32_t>{0, 1, 3}));
  q.Advance(0);
  EXPECT_EQ(q.SlotJob(0), 1u);
}

TEST(JobQueueRequeue, BestEffortFifoTakesTheJobBackIntoItsNeed) {
  const auto jobs = Jobs({1, 2, 1, 1});
  JobQueue q(0, 0, false, {0, 1, 2, 3}, jobs);
  ASSERT_EQ(q.slot_count(), 2u);
  const size_t ones = q.SlotJob(0) == 0u ? 0 : 1;
  q.Advance(ones);
  q.Advance(ones);  // 0 and 2 placed: 3 is offered
  EXPECT_EQ(q.SlotJob(ones), 3u);
  const JobQueue::Appended back = q.Requeue(2, jobs);
  EXPECT_EQ(back.slot, ones);
  EXPECT_FALSE(back.new_slot);
  EXPECT_TRUE(back.offered_changed);
  EXPECT_EQ(q.SlotJob(ones), 2u);
  EXPECT_FALSE(q.Requeue(0, jobs).new_slot);
  EXPECT_EQ(q.SlotJob(ones), 0u);
  q.Advance(ones);
  EXPECT_EQ(q.SlotJob(ones), 2u);
}

/// SplitIntoQueues, small and large (a large one is made on two threads):
/// one queue per (policy, profile) in key order, each with its jobs in queue
/// order, StrictFIFO or not as its profile says, the unschedulable apart.
TEST(SplitIntoQueues, EachQueueHoldsItsJobsInQueueOrderOnOneThreadOrTwo) {
  for (uint32_t n : {1000u, 200000u}) {
    SCOPED_TRACE(n);
    std::vector<QueuedJob> queued(n);
    for (uint32_t k = 0; k < n; ++k) {
      QueuedJob& j = queued[k];
      j.policy = (k * 7919u) % 13;
      j.profile = (k * 104729u) % 5;
      j.need = Quantity::Units(1 + (k * 31u) % 3);
      j.queue_order = n - 1 - k;  // queue order: the reverse of file order
      j.position = k;
    }
    const std::vector<bool> strict = {true, false, false, true, false};
    std::vector<uint32_t> unschedulable;
    const auto queues = SplitIntoQueues(
        queued, strict, [](const QueuedJob& j) { return j.policy != 12; }, &unschedulable);
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> expected;
    std::vector<uint32_t> expected_unschedulable;
    for (uint32_t k = n; k-- > 0;) {
      if (queued[k].policy == 12) {
        expected_unschedulable.push_back(k);
      } else {
        expected[{queued[k].policy, queued[k].profile}].push_back(k);
      }
    }
    EXPECT_EQ(unschedulable, expected_unschedulable);
    ASSERT_EQ(queues.size(), expected.size());
    size_t i = 0;
    for (auto& [key, jobs] : expected) {
      const JobQueue& q = queues[i++];
      ASSERT_EQ(std::make_pair(q.policy(), q.profile()), key);
      EXPECT_EQ(q.strict_fifo(), strict[key.second]);
      std::vector<uint32_t> undecided = q.Undecided();
      if (!q.strict_fifo()) {
        // Grouped by need, each group in queue order.
        std::stable_sort(jobs.begin(), jobs.end(), [&](uint32_t a, uint32_t b) { return queued[a].need < queued[b].need; });
      }
      ASSERT_EQ(undecided, jobs);
    }
  }
}

}  // namespace
}  // namespace rescfg
