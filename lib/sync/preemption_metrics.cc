#include "sync/preemption_metrics.h"

namespace rescfg::sync {

void CountPreemptions(const CycleResult& cycle, MetricsTotals* totals) {
  // The counters count what was carried out, also by a cycle that failed after it (the
  // re-queues at its start, the stops before a journal write failed); the gauges are the
  // server's only after a cycle that completed.
  const bool completed = cycle.status == CycleResult::Status::kCompleted;
  size_t stuck = 0;
  for (const MoveReport& m : cycle.moves) {
    if (m.intent.kind == ActionKind::kMove || m.intent.kind == ActionKind::kRemove) continue;
    ++totals->actions[{ActionKindName(m.intent.kind), MoveResultName(m.result)}];
    if (m.intent.kind != ActionKind::kStop) continue;
    if (m.result == MoveResult::kStopped) ++totals->preemptions[{m.intent.policy, m.intent.pool}];
    if (m.result == MoveResult::kStuck) ++stuck;
  }
  if (!completed) return;
  totals->stopping = cycle.stopping;
  totals->stuck = stuck;
}

void RenderPreemptionMetrics(const MetricsTotals& totals, std::string* out) {
  out->append("# HELP rescfg_sync_preemptions_total Victims asked to stop since the sync started, by their policy and pool.\n");
  out->append("# TYPE rescfg_sync_preemptions_total counter\n");
  for (const auto& [key, n] : totals.preemptions) {
    out->append("rescfg_sync_preemptions_total{policy=\"" + LabelValue(key.first) + "\",pool=\"" +
                LabelValue(key.second) + "\"} " + std::to_string(n) + "\n");
  }
  out->append("# HELP rescfg_sync_preemption_actions_total Stops and re-queues since the sync started, by action and result.\n");
  out->append("# TYPE rescfg_sync_preemption_actions_total counter\n");
  for (const auto& [key, n] : totals.actions) {
    out->append("rescfg_sync_preemption_actions_total{action=\"" + key.first + "\",result=\"" + key.second + "\"} " +
                std::to_string(n) + "\n");
  }
  out->append("# HELP rescfg_sync_stopping_tasks Victims rescfg stopped that have not ended or been re-queued yet.\n");
  out->append("# TYPE rescfg_sync_stopping_tasks gauge\n");
  out->append("rescfg_sync_stopping_tasks " + std::to_string(totals.stopping) + "\n");
  out->append("# HELP rescfg_sync_stuck_stops Victims still running after stopTimeout.\n");
  out->append("# TYPE rescfg_sync_stuck_stops gauge\n");
  out->append("rescfg_sync_stuck_stops " + std::to_string(totals.stuck) + "\n");
}

}  // namespace rescfg::sync

namespace rescfg::sync {

std::string PreemptionSummary(const CycleResult& r) {
  const size_t stopped = r.Count(MoveResult::kStopped), requeued = r.Count(MoveResult::kRequeued),
               stuck = r.Count(MoveResult::kStuck);
  if (stopped + requeued + stuck + r.stopping == 0) return "";
  return ", " + std::to_string(stopped) + " stopped, " + std::to_string(requeued) + " requeued, " +
         std::to_string(stuck) + " stuck, " + std::to_string(r.stopping) + " stopping";
}

}  // namespace rescfg::sync
