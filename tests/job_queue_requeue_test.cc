/// JobQueue::Requeue: a job placed from a queue goes back among the undecided jobs at its place
/// in queue order (a preempted job in a simulation), for both kinds of queue.

#include <gtest/gtest.h>

#include "schedule/job_queue.h"

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

}  // namespace
}  // namespace rescfg
