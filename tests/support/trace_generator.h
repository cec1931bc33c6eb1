#pragma once
/// rapidcheck generators of traces (rescfg-scheduling(7), THE SIMULATION CLOCK) for the simulation properties:
/// the scheduling scenarios of generators.h with submitted times and
/// durations drawn from a few whole seconds (so arrivals and finishes tie
/// at the same microsecond), remaining durations for running jobs, and
/// sometimes --start (before or after some submissions) and --until.

#include <rapidcheck.h>

#include <optional>
#include <ostream>
#include <vector>

#include "simulate/simulator.h"
#include "support/generators.h"

namespace rescfg::testing {

struct TraceCase {
  Scenario scenario;  ///< queue_order: rank by (submitted, position)
  std::vector<Micros> submitted, duration;
  std::vector<std::optional<Micros>> remaining;
  std::optional<Micros> start, until;

  SimulationInput Input() const;
};

void showValue(const TraceCase& c, std::ostream& os);

/// The base time of generated traces: 2027-01-15T08:00:00Z.
inline constexpr Micros kTraceBase = 1'800'000'000LL * kMicrosPerSecond;

rc::Gen<TraceCase> GenTrace();

/// Crowded traces where reservations bite: one to three small pools, three
/// to six policies that mostly reserve, 10 to 30 jobs of mixed needs
/// arriving over a few seconds, no pauses. Reservations protect queued jobs,
/// others wait for `reservation`, and as jobs finish the reserving teams'
/// usage falls and the protection moves.
rc::Gen<TraceCase> GenCrowdedTrace();
/// Traces on small clusters of machines (rescfg-scheduling(7), THE PASS v3).
rc::Gen<TraceCase> GenMachinesTrace();

/// A case's scenario as a trace file's entries (queued ones with submitted
/// and duration), for the tests that go through files and reports.
std::vector<JobEntry> TraceEntries(const TraceCase& c);

}  // namespace rescfg::testing
