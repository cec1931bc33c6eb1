#include "support/same_resolution.h"

#include <gtest/gtest.h>

namespace rescfg::testing {

void ExpectSameOutcome(const JobOutcome& a, const JobOutcome& b, size_t i) {
  ASSERT_EQ(a.entry, b.entry) << i;
  ASSERT_EQ(a.status, b.status) << i;
  ASSERT_EQ(a.id, b.id) << i;
  ASSERT_EQ(a.policy, b.policy) << i;
  ASSERT_EQ(a.profile, b.profile) << i;
  ASSERT_EQ(a.pool, b.pool) << i;
  ASSERT_EQ(a.queue, b.queue) << i;
  ASSERT_EQ(a.link, b.link) << i;
  ASSERT_EQ(a.reason, b.reason) << i;
  ASSERT_EQ(MessageOf(a), MessageOf(b)) << i;
  ASSERT_EQ(a.name, b.name) << i;
  ASSERT_EQ(a.resources, b.resources) << i;
  ASSERT_EQ(a.need_source, b.need_source) << i;
}

void ExpectSameResolution(const ResolvedJobs& one, const ResolvedJobs& two) {
  ASSERT_EQ(one.outcomes.size(), two.outcomes.size());
  for (size_t i = 0; i < one.outcomes.size(); ++i) ExpectSameOutcome(one.outcomes[i], two.outcomes[i], i);
  ASSERT_EQ(one.input.queued.size(), two.input.queued.size());
  for (size_t q = 0; q < one.input.queued.size(); ++q) {
    const QueuedJob &a = one.input.queued[q], &b = two.input.queued[q];
    ASSERT_EQ(a.policy, b.policy) << q;
    ASSERT_EQ(a.profile, b.profile) << q;
    ASSERT_EQ(a.need, b.need) << q;
    ASSERT_EQ(a.queue_order, b.queue_order) << q;
    ASSERT_EQ(a.position, b.position) << q;
  }
  EXPECT_EQ(one.queued_outcome, two.queued_outcome);
  EXPECT_EQ(one.rejected, two.rejected);
  EXPECT_EQ(one.running, two.running);
  for (size_t i : one.rejected) ASSERT_EQ(one.outcomes[i].status, JobStatus::kRejected) << i;
  for (size_t i : one.running) ASSERT_EQ(one.outcomes[i].status, JobStatus::kRunning) << i;
  size_t decided = 0;
  for (const JobOutcome& o : one.outcomes) decided += o.status == JobStatus::kRejected || o.status == JobStatus::kRunning;
  EXPECT_EQ(decided, one.rejected.size() + one.running.size());
  ASSERT_EQ(one.input.holdings.size(), two.input.holdings.size());
  for (size_t h = 0; h < one.input.holdings.size(); ++h) {
    ASSERT_EQ(one.input.holdings[h].pool, two.input.holdings[h].pool) << h;
    ASSERT_EQ(one.input.holdings[h].policy, two.input.holdings[h].policy) << h;
    ASSERT_EQ(one.input.holdings[h].amount, two.input.holdings[h].amount) << h;
  }
}

}  // namespace rescfg::testing
