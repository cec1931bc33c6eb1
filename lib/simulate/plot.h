#pragma once
/// `rescfg simulate --plot FILE.svg` (SPEC §8): each pool's usage over time,
/// stacked by policy, and each policy's distribution of waits, as one SVG
/// document written here without a plotting library (see the README).
///
/// Readable at 6 teams and 32 pools: pools are small multiples, four to a
/// row, on the same time axis; policies have one colour each in a legend
/// (the eleven that used the most GPU-hours; the others share a grey
/// "other policies"). Labels are cut to the room they have, so none
/// overlaps another. Coordinates are integers: the same report gives the
/// same bytes.

#include <string>

#include "simulate/report.h"

namespace rescfg {

/// The SVG document for a report built with keep_intervals.
std::string RenderSimulationPlot(const SimulationReport& report);

}  // namespace rescfg
