/// A complexity guard for the simulation that times nothing: on generated
/// traces (bench/scenario.h, arrivals in waves at 120% of what the pools
/// serve, heavy-tailed durations) it bounds the events and the pass's work
/// counters by the size of what happens, so a change that re-runs the pass
/// from scratch at every event, or re-evaluates every slot after each
/// arrival or finish, fails here long before anyone notices in a benchmark.

#include <gtest/gtest.h>

#include "../bench/scenario.h"
#include "simulate/report.h"

namespace rescfg {
namespace {

struct Measured {
  PassStats stats;
  uint64_t events = 0, queued = 0, running = 0, pools = 0, rejected = 0, preemptions = 0;
  PreemptionStats preemption;
};

Measured Simulate(bench::ReservationMode mode, size_t queued, bool preemption = false) {
  bench::ScenarioOptions options;
  options.queued = queued;
  options.policies = 100;
  options.reservations = mode;
  options.trace = true;
  options.running_per_100_queued = 5;
  bench::Scenario s = bench::GenerateScenario(options);
  std::optional<Config> config = bench::LoadScenarioConfig(s);
  EXPECT_TRUE(config.has_value());
  if (!config) return {};
  if (preemption) {
    config->preemption = PreemptionSettings{};
    config->preemption->min_runtime_us = 10 * 60 * kMicrosPerSecond;
    config->preemption->delay_us = 60 * kMicrosPerSecond;
  }
  SimulationReport report = BuildSimulation(*config, bench::JobEntries(s), {});
  Measured m;
  m.stats = report.stats;
  m.events = report.events;
  m.queued = queued;
  m.running = s.jobs.size() - queued;
  m.pools = config->pools.size();
  m.rejected = report.rejected;
  m.preemptions = report.preemptions;
  m.preemption = report.preemption_stats;
  return m;
}

void ExpectBounded(const Measured& m) {
  const uint64_t happenings = m.stats.placements + m.events;
  EXPECT_EQ(m.rejected, 0u);
  ASSERT_GT(m.stats.placements, m.queued / 2);  // the trace keeps the pools busy
  // One pass per event; an event is an arrival time or a finish time.
  EXPECT_EQ(m.stats.runs, m.events);
  EXPECT_LE(m.events, m.queued + m.stats.placements + m.running + 1);
  // Each event looks again only at what it can change: restales and
  // evaluations per event are bounded by a constant, not by the queue
  // length or the slots. At 20 000 queued jobs and 100 policies (some 40 700
  // events, 20 000 placements, 650 slots): 460-490 k restales and 37-45 k
  // evaluations in every mode; re-running the pass from scratch at each
  // event would restale every slot every time, 26 M.
  EXPECT_LE(m.stats.evaluations, m.stats.restales);
  EXPECT_LE(m.stats.restales, 20 * happenings);
  EXPECT_LE(m.stats.evaluations, 3 * happenings);
  // At most one max flow from scratch per epoch (some: 12.7 k, heavy: 630),
  // repairs per pool and epoch (1.4 k and 40).
  EXPECT_LE(m.stats.flows, happenings + 1);
  EXPECT_LE(m.stats.repairs, 4 * m.pools * (happenings + 1));
}

TEST(SimulateComplexity, WithoutReservationsWorkIsLinearInEvents) {
  Measured m = Simulate(bench::ReservationMode::kNone, 20'000);
  EXPECT_EQ(m.stats.flows, 0u);
  ExpectBounded(m);
}

TEST(SimulateComplexity, WithReservationsWorkIsLinearInEvents) {
  for (auto mode : {bench::ReservationMode::kSome, bench::ReservationMode::kHeavy}) {
    SCOPED_TRACE(bench::ReservationModeName(mode));
    Measured m = Simulate(mode, 20'000);
    EXPECT_GT(m.stats.flows, 0u);  // the reservation rule is exercised
    ExpectBounded(m);
  }
}

// A preempted job goes back to the pass as a finish and an arrival would: one pass for the whole
// simulation, never one built again per preemption (that took more than 10 minutes at 100 k jobs),
// and the work per event stays bounded as without preemption.
TEST(SimulateComplexity, PreemptionKeepsOnePass) {
  Measured m = Simulate(bench::ReservationMode::kSome, 10'000, true);
  EXPECT_GT(m.preemptions, 0u);  // preemption is exercised
  EXPECT_EQ(m.stats.builds, 1u);
  EXPECT_GE(m.stats.runs, m.events);
  EXPECT_LE(m.stats.runs, m.events + 2 * m.preemptions);  // a run again per event that stops jobs
  const uint64_t happenings = m.stats.placements + m.events + m.preemptions;
  EXPECT_LE(m.stats.evaluations, m.stats.restales);
  EXPECT_LE(m.stats.restales, 20 * happenings);
  EXPECT_LE(m.stats.evaluations, 3 * happenings);
}

// Preemption's set-up (the state after the pass, the candidates in victim order) is kept between
// events and told what starts, finishes or stops: its work is a few steps per job started, not
// what runs at each event where some job may preempt. On this 10 k trace (10.5 k slots, 10.2 k
// placements, 187 preemptions): 39 k holdings looked at; a state built anew at each of the
// 1 100 decision points that have a preemptor looks at 12 M.
TEST(SimulateComplexity, PreemptionSetUpIsKeptBetweenEvents) {
  Measured m = Simulate(bench::ReservationMode::kSome, 10'000, true);
  EXPECT_GT(m.preemptions, 0u);
  EXPECT_GT(m.preemption.preemptors, 0u);
  // Each slot once, then per start: held, a candidate once it has run minRuntime, released.
  const uint64_t slots = m.queued + m.running;
  EXPECT_LE(m.preemption.setup, slots + 4 * (m.stats.placements + m.preemptions));
}

TEST(SimulateComplexity, TwiceTheJobsIsAboutTwiceTheWork) {
  const Measured small = Simulate(bench::ReservationMode::kSome, 10'000);
  const Measured large = Simulate(bench::ReservationMode::kSome, 20'000);
  // Quadratic work would be 4 times; allow for the trace's shape changing.
  EXPECT_LE(large.stats.evaluations, 3 * small.stats.evaluations);
  EXPECT_LE(large.stats.restales, 3 * small.stats.restales);
  EXPECT_LE(large.stats.repairs, 3 * small.stats.repairs + 1000);
}

}  // namespace
}  // namespace rescfg
