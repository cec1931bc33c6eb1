/// Pools made of machines (rescfg-scheduling(7), THE PASS v3) on generated small clusters: the pass
/// agrees with the reference scheduler machine by machine, never overcommits
/// a machine or a pool, honours reservations, and is deterministic; the
/// simulator, which carries machines from event to event, agrees with the
/// reference that runs the reference scheduler from scratch at every event.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>

#include "schedule/machines.h"
#include "schedule/problem.h"
#include "simulate/simulator.h"
#include "support/generators.h"
#include "support/reference_scheduler.h"
#include "support/reference_simulator.h"
#include "support/same_decisions.h"
#include "support/same_simulation.h"
#include "support/shaped_scenarios.h"
#include "support/trace_generator.h"

namespace rescfg {
namespace {

using testing::Describe;
using testing::GenShaped;
using testing::MachinesShape;
using testing::Scenario;

rc::Gen<Scenario> GenCluster() { return GenShaped(MachinesShape()); }

bool HasNodes(const Config& c) {
  return std::any_of(c.pools.begin(), c.pools.end(), [](const Pool& p) { return p.nodes.has_value(); });
}

RC_GTEST_PROP(MachinesProperties, AgreesWithTheReferenceScheduler, ()) {
  Scenario s = *GenCluster();
  SchedulingResult fast = RunSchedulingPass(s.Input());
  SchedulingResult slow = reference::Schedule(s.Input());
  RC_CLASSIFY(HasNodes(*s.config), "pools of machines");
  RC_CLASSIFY(std::any_of(slow.pending.begin(), slow.pending.end(),
                          [](const PendingJob& p) { return p.reason == PendingReason::kFragmented; }),
              "fragmented");
  RC_CLASSIFY(!slow.job_spans.empty(), "whole-machine jobs");
  testing::RcAssertSameDecisions(fast, slow);
}

/// What placed jobs add never takes a machine beyond its size, nor a pool
/// beyond its size (running jobs may already have).
RC_GTEST_PROP(MachinesProperties, NoMachineOrPoolOvercommitted, ()) {
  Scenario s = *GenCluster();
  const SchedulingInput input = s.Input();
  SchedulingResult r = RunSchedulingPass(input);
  reference::Semantics sem(input);
  reference::State state = sem.Initial();
  const Config& c = *s.config;
  std::map<uint32_t, std::vector<uint32_t>> spans(r.job_spans.begin(), r.job_spans.end());
  for (const Placement& p : r.placements) {
    const Pool& pool = c.pools[p.pool];
    const Quantity need = input.queued[p.job].need;
    RC_ASSERT(state.held[p.pool] + need <= pool.resources);
    state.held[p.pool] += need;
    if (!pool.nodes) {
      RC_ASSERT(p.machine == Placement::kNoMachine);
      continue;
    }
    const Quantity g = Quantity::Units(pool.nodes->gpus);
    RC_ASSERT(p.machine < pool.nodes->count);
    auto it = spans.find(p.job);
    std::vector<uint32_t> machines = it == spans.end() ? std::vector<uint32_t>{p.machine} : it->second;
    const Quantity each = machines.size() > 1 ? g : need;
    if (machines.size() > 1) RC_ASSERT(Quantity::Units(pool.nodes->gpus * static_cast<int64_t>(machines.size())) == need);
    for (uint32_t m : machines) {
      RC_ASSERT(state.machine_held[p.pool][m] + each <= g);
      state.machine_held[p.pool][m] += each;
    }
  }
}

/// Every placement was the first admissible pool at its moment, rule 3
/// included: reservations are honoured machine by machine.
RC_GTEST_PROP(MachinesProperties, ReservationsHonouredAtEveryPlacement, ()) {
  Scenario s = *GenCluster();
  const SchedulingInput input = s.Input();
  SchedulingResult r = RunSchedulingPass(input);
  reference::Semantics sem(input);
  reference::State state = sem.Initial();
  for (const Placement& p : r.placements) {
    auto link = sem.TargetLink(state, p.job);
    RC_ASSERT(link.has_value());
    RC_ASSERT(*link == p.link);
    RC_ASSERT(!sem.ReservationRefuses(state, p.job, p.pool));
    sem.Take(state, p.pool, input.queued[p.job].need);
    state.used[input.queued[p.job].policy] += input.queued[p.job].need;
    state.decided[p.job] = true;
  }
  for (const PendingJob& pending : r.pending) RC_ASSERT(!sem.TargetLink(state, pending.job).has_value());
}

RC_GTEST_PROP(MachinesProperties, SameInputSameResult, ()) {
  Scenario s = *GenCluster();
  SchedulingResult a = RunSchedulingPass(s.Input()), b = RunSchedulingPass(s.Input());
  RC_ASSERT(Describe(a) == Describe(b));
  RC_ASSERT(a.job_spans == b.job_spans);
  RC_ASSERT(a.machine_free == b.machine_free);
  for (size_t i = 0; i < a.placements.size(); ++i) RC_ASSERT(a.placements[i].machine == b.placements[i].machine);
}

/// The simulation equals the pass from scratch at every event.
RC_GTEST_PROP(MachinesProperties, SimulationAgreesWithTheReferenceSimulator, ()) {
  const testing::TraceCase c = *testing::GenMachinesTrace();
  const SimulationInput input = c.Input();
  const SimulationResult fast = Simulate(input);
  const reference::Simulation slow = reference::Simulate(input);
  testing::RcAssertSameSimulation(fast, slow);
}

/// PoolMachines: the fit bound after a placement is the bound of the
/// machines once the need is held where Find put it.
RC_GTEST_PROP(MachinesProperties, FitBoundAfterIsTheBoundAfterHolding, ()) {
  const int64_t count = *rc::gen::inRange<int64_t>(1, 6), gpus = *rc::gen::elementOf(std::vector<int64_t>{1, 2, 4, 8});
  PoolMachines machines(count, gpus);
  const int steps = *rc::gen::inRange(0, 12);
  for (int i = 0; i < steps; ++i) {
    const Quantity need = *testing::OneOf({"1/4", "1/2", "1", "2", "3", "4", "8", "16"});
    if (!machines.Fits(need)) {
      RC_ASSERT(machines.Find(need).first == MachineSpot::kNone);
      continue;
    }
    const Quantity after = machines.FitBoundAfter(need);
    MachineSpot spot = machines.Find(need);
    RC_ASSERT(spot.first != MachineSpot::kNone);
    machines.Hold(spot, need);
    RC_ASSERT(machines.FitBound() == after);
  }
}

}  // namespace
}  // namespace rescfg
