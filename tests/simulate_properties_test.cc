/// The simulator, which carries its pass from event to event, agrees
/// exactly with a reference that runs the reference scheduler from scratch
/// at every event (tests/support/reference_simulator.h): same placements in
/// the same order, same start and finish times, same pools and links, same
/// reasons at the end. Generated traces tie arrivals and finishes at the
/// same microsecond, and cover StrictFIFO heads, reservations that protect
/// and then release, paused pools and policies, --start after some
/// submissions and --until.
///
/// CI runs rapidcheck's default number of cases; before a change to the
/// incremental pass, run them at scale:
///   RC_PARAMS="max_success=10000" ./build/tests/rescfg_tests --gtest_filter='SimulateProperties*'

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>

#include "simulate/report.h"
#include "simulate/simulator.h"
#include "support/reference_simulator.h"
#include "support/same_simulation.h"
#include "support/trace_generator.h"

namespace rescfg {
namespace {

using testing::GenTrace;
using testing::TraceCase;

void AgreesWithReference(const TraceCase& c) {
  const SimulationInput input = c.Input();
  const SimulationResult fast = Simulate(input);
  const reference::Simulation slow = reference::Simulate(input);

  const size_t n = input.queued.size();
  bool finished_and_reused = false, strict = false, paused = false;
  for (const auto& profile : c.scenario.config->profiles) strict |= profile.queueing == Queueing::kStrictFIFO;
  for (const auto& pool : c.scenario.config->pools) paused |= pool.paused;
  for (const auto& policy : c.scenario.config->policies) paused |= policy.paused;
  for (size_t k = 0; k < n; ++k) finished_and_reused |= slow.jobs[k].started && *slow.jobs[k].started > *slow.start;
  RC_CLASSIFY(slow.reservation_refusals > 0 && finished_and_reused, "reservation protected, then jobs started later");
  RC_CLASSIFY(strict, "StrictFIFO");
  RC_CLASSIFY(paused, "paused pool or policy");
  RC_CLASSIFY(input.until.has_value(), "--until");
  RC_CLASSIFY(input.start && n > 0 && *input.start > *std::min_element(input.submitted.begin(), input.submitted.end()),
              "--start after some submissions");
  RC_CLASSIFY(slow.events > 3, "more than 3 events");

  testing::RcAssertSameSimulation(fast, slow);
}

RC_GTEST_PROP(SimulateProperties, AgreesWithTheReferenceSimulator, ()) { AgreesWithReference(*GenTrace()); }

RC_GTEST_PROP(SimulateProperties, AgreesWithTheReferenceWhereReservationsBite, ()) {
  AgreesWithReference(*testing::GenCrowdedTrace());
}

/// The report built from the trace's entries (resolution of submitted and
/// duration, statuses, waits) follows the reference simulation, and its
/// statistics are those computed the plain way.
RC_GTEST_PROP(SimulateProperties, ReportFollowsTheReferenceSimulation, ()) {
  const TraceCase c = *GenTrace();
  const SimulationInput input = c.Input();
  const reference::Simulation slow = reference::Simulate(input);
  LoadedJobs jobs;
  jobs.entries = testing::TraceEntries(c);
  SimulationOptions options;
  options.start = input.start;
  options.until = input.until;
  const SimulationReport report = BuildSimulation(*c.scenario.config, std::move(jobs), options);
  RC_ASSERT(report.start == slow.start);
  RC_ASSERT(report.end == slow.end);

  const size_t n = input.queued.size();
  std::vector<std::vector<Micros>> waits(c.scenario.config->policies.size());
  for (uint32_t k = 0; k < n; ++k) {
    const SimEntry& e = report.entries[k];
    const reference::SimulatedJob& want = slow.jobs[k];
    RC_ASSERT(e.submitted == input.submitted[k]);
    RC_ASSERT(e.started == want.started);
    RC_ASSERT(e.finished == want.finished);
    const SimStatus status = !want.started ? SimStatus::kPending
                             : want.finished ? SimStatus::kFinished
                                             : SimStatus::kRunning;
    RC_ASSERT(e.status == status);
    if (want.started) {
      RC_ASSERT(e.wait == *want.started - input.submitted[k]);
      waits[input.queued[k].policy].push_back(*e.wait);
    } else if (want.joined) {
      RC_ASSERT(e.wait == *slow.end - input.submitted[k]);
      RC_ASSERT(*e.outcome.reason == std::string(PendingReasonName(*want.reason)));
    } else {
      RC_ASSERT(!e.wait.has_value());
      RC_ASSERT(*e.outcome.reason == std::string("not-submitted"));
    }
  }
  for (size_t p = 0; p < waits.size(); ++p) {
    const PolicyStats& stats = report.policies[p];
    RC_ASSERT(stats.started == waits[p].size());
    if (waits[p].empty()) {
      RC_ASSERT(!stats.wait.has_value());
      continue;
    }
    std::sort(waits[p].begin(), waits[p].end());
    const size_t m = waits[p].size();
    auto rank = [&](size_t pct) { return waits[p][(pct * m + 99) / 100 - 1]; };
    RC_ASSERT(stats.wait->p50 == rank(50));
    RC_ASSERT(stats.wait->p90 == rank(90));
    RC_ASSERT(stats.wait->p99 == rank(99));
    RC_ASSERT(stats.wait->max == waits[p].back());
    // The mean, rounded half-even to the microsecond: |mean·m - total| <= m/2,
    // an exact half only towards the even neighbour.
    __int128 total = 0;
    for (Micros w : waits[p]) total += w;
    const __int128 twice_off = 2 * (__int128(stats.wait->mean) * __int128(m) - total);
    RC_ASSERT(twice_off <= __int128(m) && twice_off >= -__int128(m));
    if (twice_off == __int128(m) || twice_off == -__int128(m)) RC_ASSERT(stats.wait->mean % 2 == 0);
  }
}

}  // namespace
}  // namespace rescfg
