#include "support/same_simulation.h"

#include <rapidcheck.h>

#include <map>
#include <string>

#include "schedule/problem.h"
#include "util/sim_time.h"
#include "support/trace_generator.h"

namespace rescfg::testing {
namespace {

std::string Show(const std::optional<Micros>& t) { return t ? FormatSeconds(*t - kTraceBase) : std::string("-"); }

}  // namespace

void RcAssertSameSimulation(const SimulationResult& fast, const reference::Simulation& slow) {
  RC_ASSERT(fast.start == slow.start);
  RC_ASSERT(fast.end == slow.end);
  RC_ASSERT(fast.events == slow.events);
  if (fast.placement_order != slow.placement_order) {
    std::string f, s;
    for (uint32_t k : fast.placement_order) f += " " + std::to_string(k) + "@" + Show(fast.started[k]);
    for (uint32_t k : slow.placement_order) s += " " + std::to_string(k) + "@" + Show(slow.jobs[k].started);
    RC_FAIL("placements differ\nfast" + f + "\nslow" + s);
  }
  std::map<uint32_t, PendingReason> reasons;
  for (const PendingJob& p : fast.final.pending) reasons[p.job] = p.reason;
  for (uint32_t k = 0; k < slow.jobs.size(); ++k) {
    const reference::SimulatedJob& want = slow.jobs[k];
    RC_ASSERT(fast.joined[k] == want.joined);
    RC_ASSERT(fast.started[k] == want.started);
    RC_ASSERT(fast.finished[k] == want.finished);
    if (want.started) {
      RC_ASSERT(fast.placement[k].pool == want.pool);
      RC_ASSERT(fast.placement[k].link == want.link);
    }
    if (want.joined && !want.started) {
      RC_ASSERT(reasons.count(k) == 1u);
      if (reasons[k] != *want.reason) {
        RC_FAIL("job " + std::to_string(k) + ": reason " + PendingReasonName(reasons[k]) + ", reference " +
                PendingReasonName(*want.reason));
      }
    } else {
      RC_ASSERT(reasons.count(k) == 0u);
    }
  }
  RC_ASSERT(fast.holding_finished == slow.holding_finished);
}

}  // namespace rescfg::testing
