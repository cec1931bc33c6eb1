/// Properties of the scheduling pass on generated scenarios, and agreement
/// with the reference scheduler written straight from rescfg-scheduling(7), THE PASS.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>

#include "decide/report.h"
#include "output/schedule_output.h"
#include "schedule/problem.h"
#include "support/generators.h"
#include "support/reference_scheduler.h"
#include "support/same_decisions.h"

namespace rescfg {
namespace {

using testing::GenScenario;
using testing::Scenario;

using testing::Describe;

RC_GTEST_PROP(ScheduleProperties, AgreesWithTheReferenceScheduler, ()) {
  Scenario s = *GenScenario();
  PassStats stats;
  SchedulingResult fast = RunSchedulingPass(s.Input(), &stats);
  SchedulingResult slow = reference::Schedule(s.Input());
  // Make sure the generator reaches the interesting cases.
  bool reservation = std::any_of(slow.pending.begin(), slow.pending.end(),
                                 [](const PendingJob& p) { return p.reason == PendingReason::kReservation; });
  RC_CLASSIFY(reservation, "pending for a reservation");
  RC_CLASSIFY(stats.flows > stats.fast_accepts && stats.flows > 1, "exact reservation flows");
  testing::RcAssertSameDecisions(fast, slow);
}

RC_GTEST_PROP(ScheduleProperties, NoPoolOvercommittedAndNoLimitExceeded, ()) {
  Scenario s = *GenScenario();
  SchedulingResult r = RunSchedulingPass(s.Input());
  reference::Semantics sem(s.Input());
  reference::State initial = sem.Initial();
  const Config& c = *s.config;
  for (size_t x = 0; x < c.pools.size(); ++x) {
    // Beyond what running jobs already held, nothing is added to a full pool.
    RC_ASSERT(r.pool_in_use[x] <= std::max(c.pools[x].resources, initial.held[x]));
  }
  for (size_t p = 0; p < c.policies.size(); ++p) {
    RC_ASSERT(r.policy_used[p] <= std::max(sem.Limit(static_cast<uint32_t>(p)), initial.used[p]));
  }
}

RC_GTEST_PROP(ScheduleProperties, EveryPlacementWasTheFirstAdmissiblePoolAtItsMoment, ()) {
  Scenario s = *GenScenario();
  SchedulingInput input = s.Input();
  SchedulingResult r = RunSchedulingPass(input);
  reference::Semantics sem(input);
  reference::State state = sem.Initial();
  for (const Placement& p : r.placements) {
    const QueuedJob& j = input.queued[p.job];
    auto link = sem.TargetLink(state, p.job);
    RC_ASSERT(link.has_value());
    RC_ASSERT(*link == p.link);
    RC_ASSERT(sem.Links(j.profile)[*link] == p.pool);
    // Reservations honoured: a job beyond its policy's reservation never
    // lowered what the other policies' reservations can still cover.
    RC_ASSERT(!sem.ReservationRefuses(state, p.job, p.pool));
    state.held[p.pool] += j.need;
    state.used[j.policy] += j.need;
    state.decided[p.job] = true;
  }
  // Maximal: nothing still waiting has an admissible pool (StrictFIFO aside).
  if (s.config->enabled) {
    for (const PendingJob& pending : r.pending) RC_ASSERT(!sem.TargetLink(state, pending.job).has_value());
  }
}

RC_GTEST_PROP(ScheduleProperties, DisabledPlacesNothing, ()) {
  Scenario s = *GenScenario();
  s.config->enabled = false;
  SchedulingResult r = RunSchedulingPass(s.Input());
  RC_ASSERT(r.placements.empty());
  RC_ASSERT(r.pending.size() == s.queued.size());
  for (const auto& p : r.pending) RC_ASSERT(p.reason == PendingReason::kDisabled);
}

RC_GTEST_PROP(ScheduleProperties, EveryEntryAppearsExactlyOnce, ()) {
  Scenario s = *GenScenario();
  ScheduleReport report = BuildSchedule(*s.config, s.entries);
  RC_ASSERT(report.jobs.size() == s.entries.size());
  size_t running = 0;
  for (size_t i = 0; i < report.jobs.size(); ++i) {
    RC_ASSERT(report.jobs[i].entry == s.entries[i].entry);
    if (report.jobs[i].status == JobStatus::kRunning) ++running;
  }
  RC_ASSERT(report.assignments.size() + report.pending.size() + report.rejected.size() + running ==
            s.entries.size());
  std::vector<size_t> all;
  for (auto* list : {&report.assignments, &report.pending}) all.insert(all.end(), list->begin(), list->end());
  all.insert(all.end(), report.rejected.begin(), report.rejected.end());
  std::sort(all.begin(), all.end());
  RC_ASSERT(std::adjacent_find(all.begin(), all.end()) == all.end());
  std::string jsonl = RenderSchedule(report, ScheduleFormat::kJsonLines);
  RC_ASSERT(static_cast<size_t>(std::count(jsonl.begin(), jsonl.end(), '\n')) == s.entries.size());
}

RC_GTEST_PROP(ScheduleProperties, EndToEndAgreesWithTheReference, ()) {
  // The jobs file route (resolution, queue order from `enqueued`) gives the
  // same placements as the reference on the equivalent input.
  Scenario s = *GenScenario();
  ScheduleReport report = BuildSchedule(*s.config, s.entries);
  SchedulingResult slow = reference::Schedule(s.Input());
  RC_ASSERT(report.assignments.size() == slow.placements.size());
  for (size_t i = 0; i < slow.placements.size(); ++i) {
    const JobOutcome& job = report.jobs[report.assignments[i]];
    RC_ASSERT(*job.id == "job-" + std::to_string(slow.placements[i].job));
    RC_ASSERT(*job.pool == s.config->pools[slow.placements[i].pool].name);
  }
}

// rescfg(5), SCHEDULE OUTPUT: an assigned job's queue is its link's queue; a running job's the
// queue of its profile's link to its pool, else its pool's queue.
RC_GTEST_PROP(ScheduleProperties, AnAssignmentsQueueIsItsLinksQueue, ()) {
  Scenario s = *GenScenario();
  ScheduleReport report = BuildSchedule(*s.config, s.entries);
  auto link_queue = [&](const JobOutcome& job) -> std::optional<std::string> {
    const Profile* profile = s.config->FindProfile(*job.profile);
    if (profile == nullptr) return std::nullopt;
    for (const Link& link : profile->links) {
      if (link.pool == *job.pool) return link.queue;
    }
    return std::nullopt;
  };
  for (size_t i : report.assignments) {
    const JobOutcome& job = report.jobs[i];
    auto queue = link_queue(job);
    RC_ASSERT(queue.has_value());
    RC_ASSERT(*job.queue == *queue);
  }
  for (const JobOutcome& job : report.jobs) {
    if (job.status != JobStatus::kRunning) continue;
    if (!job.pool) {  // a running task whose pool cannot be told: in no pool, no queue
      RC_ASSERT(!job.queue);
      continue;
    }
    std::string expected = link_queue(job).value_or(s.config->FindPool(*job.pool)->queue);
    RC_ASSERT(*job.queue == expected);
  }
}

RC_GTEST_PROP(ScheduleProperties, SameInputGivesByteIdenticalOutput, ()) {
  Scenario s = *GenScenario();
  std::string first = RenderSchedule(BuildSchedule(*s.config, s.entries), ScheduleFormat::kJson);
  std::string second = RenderSchedule(BuildSchedule(*s.config, s.entries), ScheduleFormat::kJson);
  RC_ASSERT(first == second);
}

RC_GTEST_PROP(ScheduleProperties, OrderOfRunningJobsAndOfPoolsCarriesNoMeaning, ()) {
  Scenario s = *GenScenario();
  SchedulingResult base = RunSchedulingPass(s.Input());
  // Running jobs in another order.
  Scenario shuffled = s;
  std::reverse(shuffled.holdings.begin(), shuffled.holdings.end());
  SchedulingResult other = RunSchedulingPass(shuffled.Input());
  RC_ASSERT(Describe(base) == Describe(other));
  // Pools listed in another order (priorities are explicit, so nothing else moves).
  auto config = std::make_shared<Config>(*s.config);
  std::reverse(config->pools.begin(), config->pools.end());
  Scenario moved = s;
  moved.config = config;
  const uint32_t last = static_cast<uint32_t>(config->pools.size()) - 1;
  for (auto& h : moved.holdings) {
    if (h.pool) h.pool = last - *h.pool;
  }
  SchedulingResult r = RunSchedulingPass(moved.Input());
  RC_ASSERT(r.placements.size() == base.placements.size());
  for (size_t i = 0; i < r.placements.size(); ++i) {
    RC_ASSERT(r.placements[i].job == base.placements[i].job);
    RC_ASSERT(r.placements[i].pool == last - base.placements[i].pool);
  }
  for (size_t i = 0; i < r.pending.size(); ++i) RC_ASSERT(r.pending[i].reason == base.pending[i].reason);
}

}  // namespace
}  // namespace rescfg
