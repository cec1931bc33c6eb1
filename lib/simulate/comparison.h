#pragma once
/// `rescfg diff OLD NEW --trace FILE`: the same trace simulated against
/// both configurations, each policy's waits (mean, p50, p90, p99, max) and
/// GPU-hours side by side with the change: the table a pull request
/// comment needs.

#include <string>

#include "simulate/report.h"
#include "util/json_writer.h"
#include "util/markdown.h"

namespace rescfg {

/// Policies of OLD in its order, then those only NEW has; one row each:
/// `old -> new (change)` per statistic, `-` where a side has no value.
/// With preemption on either side, each clock line counts its stops (or
/// says `preemption off`) and a second table gives per policy the runs
/// stopped, the jobs preempted and the GPU-hours lost (0 on a side
/// without preemption).
std::string RenderSimulationComparisonText(const SimulationReport& old_report, const SimulationReport& new_report);

/// The same as a Markdown table, waits as durations ("2m13s → 34m12s
/// (+32m)"), with both simulations' clocks.
void RenderSimulationComparisonMarkdown(const SimulationReport& old_report, const SimulationReport& new_report,
                                        MarkdownDocument& doc);

/// {"old": {start, end, events}, "new": {...}, "policies": [{name, old, new,
/// change}]}; a side is null for a policy that configuration lacks. With
/// preemption on either side, each clock adds `preemption` (on or off) and
/// `stops`, and each side and change adds `stops`, `jobsPreempted` and
/// `gpuHoursLost`.
void WriteSimulationComparisonJson(const SimulationReport& old_report, const SimulationReport& new_report,
                                   JsonWriter& json);

/// new - old as an exact decimal with a sign: "+1.5", "-0.25", "0".
std::string SignedSeconds(Micros old_value, Micros new_value);
/// new - old as a duration for people with a sign: "+1h07m", "-42s", "0s".
std::string SignedDuration(Micros old_value, Micros new_value);
/// The change of GPU-hours, rounded half-even at the 6th decimal, with a sign.
std::string GpuHoursChange(const U256& old_usage, const U256& new_usage);
/// new - old of a count, with a sign: "+2", "-1", "0".
std::string SignedCount(uint64_t old_value, uint64_t new_value);

}  // namespace rescfg
