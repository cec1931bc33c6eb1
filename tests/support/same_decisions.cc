#include "support/same_decisions.h"

#include <rapidcheck.h>

#include "support/generators.h"

namespace rescfg::testing {

void RcAssertSameDecisions(const SchedulingResult& fast, const SchedulingResult& slow) {
  if (fast.placements.size() != slow.placements.size()) RC_FAIL("fast " + Describe(fast) + "\nslow " + Describe(slow));
  for (size_t i = 0; i < fast.placements.size(); ++i) {
    RC_ASSERT(fast.placements[i].job == slow.placements[i].job);
    RC_ASSERT(fast.placements[i].pool == slow.placements[i].pool);
    RC_ASSERT(fast.placements[i].link == slow.placements[i].link);
    RC_ASSERT(fast.placements[i].machine == slow.placements[i].machine);
  }
  RC_ASSERT(fast.job_spans == slow.job_spans);
  RC_ASSERT(fast.holding_machine == slow.holding_machine);
  RC_ASSERT(fast.holding_spans == slow.holding_spans);
  RC_ASSERT(fast.pending.size() == slow.pending.size());
  for (size_t i = 0; i < fast.pending.size(); ++i) {
    RC_ASSERT(fast.pending[i].job == slow.pending[i].job);
    if (fast.pending[i].reason != slow.pending[i].reason) {
      RC_FAIL("reasons differ\nfast " + Describe(fast) + "\nslow " + Describe(slow));
    }
  }
  RC_ASSERT(fast.pool_in_use == slow.pool_in_use);
  RC_ASSERT(fast.policy_used == slow.policy_used);
  RC_ASSERT(fast.machine_free == slow.machine_free);
}

}  // namespace rescfg::testing
