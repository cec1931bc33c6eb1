#pragma once
/// The metrics of the stop protocol (rescfg(1), "rescfg sync", METRICS):
/// victims stopped per policy and pool, victims stopping now, stuck stops.

#include <string>

#include "sync/metrics.h"

namespace rescfg::sync {

/// Adds a cycle's stops to the totals (only a completed cycle's gauges).
void CountPreemptions(const CycleResult& cycle, MetricsTotals* totals);

/// rescfg_sync_preemptions_total{policy,pool}, rescfg_sync_stopping_tasks and
/// rescfg_sync_stuck_stops, in Prometheus text.
void RenderPreemptionMetrics(const MetricsTotals& totals, std::string* out);

}  // namespace rescfg::sync

namespace rescfg::sync {

/// ", 2 stopped, 1 requeued, 1 stuck, 3 stopping" for the cycle's summary line; "" when the cycle
/// stopped, re-queued and waits for nothing.
std::string PreemptionSummary(const CycleResult& cycle);

}  // namespace rescfg::sync
