#pragma once
/// `rescfg simulate --plot FILE.svg` (rescfg-scheduling(7), THE SIMULATION CLOCK): each pool's usage over time,
/// stacked by policy, and each policy's distribution of waits, as one SVG
/// document written here without a plotting library (see the README).
///
/// Readable at 6 teams and 32 pools: pools are small multiples, four to a
/// row, on the same time axis with ticks at natural steps of UTC time and
/// the dates; beyond 48 pools the 47 that used the most share the page with
/// one panel summing the rest, so a thousand pools stay within what
/// renderers accept (32 767 px). Policies have one colour each in a legend
/// (the eleven that used the most GPU-hours; the others share a grey
/// "other policies"). Waits are drawn as the share of jobs that waited
/// longer than x, both axes logarithmic, zero waits in a column of their
/// own. With preemption, each preemption instant is marked in its pool's
/// panel and the legend counts stops and each policy's jobs preempted.
/// Labels are cut to the room they have, so none overlaps another.
/// Coordinates are integers: the same report gives the same bytes.

#include <string>

#include "simulate/report.h"

namespace rescfg {

/// The SVG document for a report built with keep_intervals.
std::string RenderSimulationPlot(const SimulationReport& report);

}  // namespace rescfg
