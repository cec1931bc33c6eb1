#pragma once
/// `rescfg sync --metrics FILE`: the Prometheus text format for
/// node_exporter's textfile collector, rewritten atomically after every
/// cycle (a scrape never sees half a file).

#include <cstdint>
#include <map>
#include <string>

#include "sync/cycle.h"

namespace rescfg::sync {

/// What the metrics count across the cycles of one run.
struct MetricsTotals {
  int64_t cycles = 0;
  int64_t failed_cycles = 0;  ///< cycles that could not complete (the server, the state)
  std::map<std::string, uint64_t> moves;  ///< by result
  std::map<std::string, uint64_t> stale_entries;  ///< removals of stale entries, by result
  /// Victims stopped (result stopped) since the start, by the victim's policy and the pool.
  std::map<std::pair<std::string, std::string>, uint64_t> preemptions;
  /// Stops and re-queues since the start, by action and result.
  std::map<std::pair<std::string, std::string>, uint64_t> actions;
  size_t stopping = 0;  ///< the last completed cycle's victims that have not ended yet
  size_t stuck = 0;     ///< of those, stuck after stopTimeout
};

/// Adds a cycle's moves and outcome to the totals.
void CountCycle(const CycleResult& cycle, MetricsTotals* totals);

/// The file: per pool in use and size, per policy used, reserved and limit
/// (when it has one), pending tasks per policy and reason (from the last
/// completed cycle, `last`, when there is one), moves and removals of stale
/// entries per result and API
/// errors per endpoint (since the start), the last cycle's duration and
/// time spent waiting for the server, and when it ended (`now_unix`).
std::string RenderMetrics(const CycleResult* last, const CycleResult& latest, const MetricsTotals& totals,
                          const std::map<std::string, uint64_t>& api_errors, int64_t now_unix);

/// A Prometheus label value: backslash, double quote and newline escaped.
std::string LabelValue(std::string_view text);

}  // namespace rescfg::sync
