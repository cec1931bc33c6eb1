/// Preemption in the simulation (rescfg-scheduling(7), THE SIMULATION CLOCK and PREEMPTION) on
/// random traces: at every decision point (after each run of the pass at an event) the state the
/// simulation carries is one where a pass from scratch places nothing more, the decisions are
/// exactly those of the reference preemption (tests/support/reference_preemption.h) on that
/// state with the reference scheduler's pass, no victim's team goes below its reservation, no
/// preemptor's team beyond min(reserved, limit); victims are jobs the simulation started, ran
/// at least minRuntime, and come back with their whole duration. Every run terminates (the
/// internal bound on rounds at one instant is never reached) and the report counts what was
/// lost exactly.
///
/// CI runs rapidcheck's default number of cases; at scale:
///   RC_PARAMS="max_success=10000" ./build/tests/rescfg_tests --gtest_filter='SimulatePreemption*'

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "schedule/problem.h"
#include "simulate/report.h"
#include "simulate/simulator.h"
#include "support/reference_preemption.h"
#include "support/reference_scheduler.h"
#include "support/trace_generator.h"

namespace rescfg {
namespace {

using testing::TraceCase;

/// The trace with `preemption` set: minRuntime and delay of a few seconds (the traces' times
/// are whole seconds, so thresholds tie with events), most teams preemptible.
TraceCase WithPreemption(TraceCase c) {
  auto config = std::make_shared<Config>(*c.scenario.config);
  config->preemption = PreemptionSettings{};
  config->preemption->min_runtime_us = *rc::gen::inRange<int64_t>(0, 3) * kMicrosPerSecond;
  config->preemption->delay_us = *rc::gen::inRange<int64_t>(0, 2) * kMicrosPerSecond;
  for (Policy& p : config->policies) p.preemptible = *rc::gen::inRange(0, 6) != 0;
  c.scenario.config = config;
  return c;
}

struct Observed {
  uint64_t points = 0, decisions = 0;
};

/// The checks at one decision point.
void CheckDecisionPoint(const SchedulingInput& state, const std::vector<uint32_t>& waiting,
                        const SchedulingResult& decided, Observed* seen) {
  ++seen->points;
  const Config& config = *state.config;
  SchedulingInput sub;
  sub.config = state.config;
  sub.holdings = state.holdings;
  sub.now_us = state.now_us;
  sub.holding_profile = state.holding_profile;
  sub.holding_id_rank = state.holding_id_rank;
  for (uint32_t k : waiting) sub.queued.push_back(state.queued[k]);

  // The pass carried from event to event settled where a pass from scratch does.
  Config off = config;
  off.preemption.reset();
  SchedulingInput plain = sub;
  plain.config = &off;
  const SchedulingResult pass = reference::Schedule(plain);
  RC_ASSERT(pass.placements.empty());

  // The decisions are the reference's on this state, job for job.
  const std::vector<Preemption> want = reference::Preempt(sub, pass);
  RC_ASSERT(decided.preemptions.size() == want.size());
  for (size_t d = 0; d < want.size(); ++d) {
    const Preemption& got = decided.preemptions[d];
    RC_ASSERT(got.job == waiting[want[d].job]);
    RC_ASSERT(got.pool == want[d].pool);
    RC_ASSERT(got.victims == want[d].victims);
    RC_ASSERT(got.awaiting.empty());  // victims stop at once: nothing is ever stopping
  }
  seen->decisions += want.size();

  // Invariants, checked on their own: the victims' teams stay at or above their reservation,
  // the preemptors' teams within min(reserved, limit); victims are started jobs old enough.
  std::vector<Quantity> used(config.policies.size());
  for (const Holding& h : state.holdings) {
    if (h.policy) used[*h.policy] += h.amount;
  }
  std::vector<Quantity> after = used;
  std::vector<bool> victim(state.holdings.size(), false);
  for (const Preemption& d : decided.preemptions) {
    const QueuedJob& j = state.queued[d.job];
    after[j.policy] += j.need;
    for (uint32_t v : d.victims) {
      RC_ASSERT(!victim[v]);  // disjoint
      victim[v] = true;
      const Holding& h = state.holdings[v];
      RC_ASSERT(!h.handed_over);  // never an entry running at the start, nor a job stopped at this instant
      RC_ASSERT(config.policies[*h.policy].preemptible);
      RC_ASSERT(state.now_us - h.started_us >= config.preemption->min_runtime_us);
      RC_ASSERT(*h.policy != j.policy);
      after[*h.policy] -= h.amount;
    }
  }
  for (size_t p = 0; p < used.size(); ++p) {
    const Quantity reserved = config.policies[p].reserved;
    if (after[p] < used[p]) RC_ASSERT(after[p] >= reserved);  // a victim's team
    if (after[p] > used[p]) {                                   // a preemptor's team
      const Quantity cover = std::min(reserved, config.policies[p].limit.value_or(after[p]));
      RC_ASSERT(after[p] <= cover);
    }
  }
}

void Check(const TraceCase& c) {
  SimulationInput input = c.Input();
  Observed seen;
  input.observe_preemption = [&](const SchedulingInput& state, const std::vector<uint32_t>& waiting,
                                 const SchedulingResult& decided) { CheckDecisionPoint(state, waiting, decided, &seen); };
  const SimulationResult sim = Simulate(input);  // terminates: the bound on rounds would throw
  RC_ASSERT(sim.preemption == input.config->enabled);
  if (!sim.preemption) return;
  const size_t n = input.queued.size();
  RC_CLASSIFY(!sim.lost.empty(), "some job preempted");
  RC_CLASSIFY(sim.preemption_rounds > 2, "more than two rounds at one instant");

  // Every lost run is one stop of its job; a stopped job starts again later or waits.
  std::vector<uint32_t> stops(n, 0);
  for (const LostRun& lost : sim.lost) {
    ++stops[lost.job];
    RC_ASSERT(lost.to >= lost.from + input.config->preemption->min_runtime_us);
    RC_ASSERT(lost.to < lost.from + input.duration[lost.job]);  // stopped before it finished
  }
  for (size_t k = 0; k < n; ++k) {
    RC_ASSERT(sim.preempted[k] == stops[k]);
    if (sim.started[k] && stops[k] > 0) {
      Micros last_stop = 0;
      for (const LostRun& lost : sim.lost) {
        if (lost.job == k) last_stop = std::max(last_stop, lost.to);
      }
      RC_ASSERT(*sim.started[k] >= last_stop);
      if (sim.finished[k]) RC_ASSERT(*sim.finished[k] == *sim.started[k] + input.duration[k]);  // the whole duration
    }
  }
  // No job is lost: every joined job that is not running or finished waits at the end.
  std::vector<bool> waits(n, false);
  for (const PendingJob& p : sim.final.pending) waits[p.job] = true;
  for (size_t k = 0; k < n; ++k) RC_ASSERT(!sim.joined[k] || sim.started[k].has_value() || waits[k]);
  RC_ASSERT(seen.points >= sim.events);  // decided after every event's pass, at least once
  RC_CLASSIFY(seen.decisions > sim.lost.size() / 2, "decisions with a single victim");
}

RC_GTEST_PROP(SimulatePreemptionProperties, DecisionsAgreeWithTheReferenceAtEveryEvent, ()) {
  Check(WithPreemption(*testing::GenTrace()));
}

RC_GTEST_PROP(SimulatePreemptionProperties, CrowdedTracesWhereReservationsComeBack, ()) {
  Check(WithPreemption(*testing::GenCrowdedTrace()));
}

RC_GTEST_PROP(SimulatePreemptionProperties, MachinesAreGivenBackByVictims, ()) {
  Check(WithPreemption(*testing::GenMachinesTrace()));
}

/// Without `preemption` nothing of it shows: no counts, no lost runs, and no observer call.
RC_GTEST_PROP(SimulatePreemptionProperties, WithoutPreemptionNothingChanges, ()) {
  const TraceCase c = *testing::GenCrowdedTrace();
  SimulationInput input = c.Input();
  bool called = false;
  input.observe_preemption = [&](const SchedulingInput&, const std::vector<uint32_t>&, const SchedulingResult&) {
    called = true;
  };
  const SimulationResult sim = Simulate(input);
  RC_ASSERT(!called);
  RC_ASSERT(!sim.preemption);
  RC_ASSERT(sim.preempted.empty());
  RC_ASSERT(sim.lost.empty());
}

}  // namespace
}  // namespace rescfg
