#include "sync/metrics.h"

#include "sync/preemption_metrics.h"
#include "sync/unplaced_running.h"

namespace rescfg::sync {
namespace {

void Header(std::string* out, const char* name, const char* type, const char* help) {
  out->append("# HELP ").append(name).append(" ").append(help).append("\n");
  out->append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void Sample(std::string* out, const char* name, const std::string& labels, const std::string& value) {
  out->append(name);
  if (!labels.empty()) out->append("{").append(labels).append("}");
  out->append(" ").append(value).append("\n");
}

std::string Label(const char* key, std::string_view value) {
  return std::string(key) + "=\"" + LabelValue(value) + "\"";
}

/// A counter's samples for `done` (moved, removed), skipped, failed and planned: 0 when none.
void ByResult(std::string* out, const char* name, MoveResult done, const std::map<std::string, uint64_t>& counts) {
  for (MoveResult r : {done, MoveResult::kSkipped, MoveResult::kFailed, MoveResult::kPlanned}) {
    auto it = counts.find(MoveResultName(r));
    Sample(out, name, Label("result", MoveResultName(r)), std::to_string(it == counts.end() ? 0 : it->second));
  }
}

}  // namespace

std::string LabelValue(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

void CountCycle(const CycleResult& cycle, MetricsTotals* totals) {
  ++totals->cycles;
  if (cycle.status != CycleResult::Status::kCompleted) ++totals->failed_cycles;
  for (const MoveReport& m : cycle.moves) {
    if (m.intent.kind == ActionKind::kMove) ++totals->moves[MoveResultName(m.result)];
    if (m.intent.kind == ActionKind::kRemove) ++totals->stale_entries[MoveResultName(m.result)];
  }
  CountPreemptions(cycle, totals);
}

std::string RenderMetrics(const CycleResult* last, const CycleResult& latest, const MetricsTotals& totals,
                          const std::map<std::string, uint64_t>& api_errors, int64_t now_unix) {
  std::string out;
  if (last != nullptr && last->report) {
    const ScheduleReport& report = *last->report;
    Header(&out, "rescfg_pool_size_gpus", "gauge", "A pool's size, in GPUs.");
    for (const PoolSummary& pool : report.pools) Sample(&out, "rescfg_pool_size_gpus", Label("pool", pool.name), pool.size.ToDecimal());
    Header(&out, "rescfg_pool_in_use_gpus", "gauge", "What running and newly assigned tasks hold in a pool, in GPUs.");
    for (const PoolSummary& pool : report.pools) {
      Sample(&out, "rescfg_pool_in_use_gpus", Label("pool", pool.name), pool.in_use.ToDecimal());
    }
    Header(&out, "rescfg_policy_used_gpus", "gauge", "What a policy's running and newly assigned tasks hold, in GPUs.");
    for (const PolicySummary& policy : report.policies) {
      Sample(&out, "rescfg_policy_used_gpus", Label("policy", policy.name), policy.used.ToDecimal());
    }
    Header(&out, "rescfg_policy_reserved_gpus", "gauge", "A policy's reservation, in GPUs.");
    for (const PolicySummary& policy : report.policies) {
      Sample(&out, "rescfg_policy_reserved_gpus", Label("policy", policy.name), policy.reserved.ToDecimal());
    }
    Header(&out, "rescfg_policy_limit_gpus", "gauge", "A policy's limit, in GPUs (policies without a limit are left out).");
    for (const PolicySummary& policy : report.policies) {
      if (policy.limit) Sample(&out, "rescfg_policy_limit_gpus", Label("policy", policy.name), policy.limit->ToDecimal());
    }
    Header(&out, "rescfg_pending_tasks", "gauge", "Queued tasks that wait, by policy and reason.");
    for (const auto& [key, n] : last->pending_by_policy_reason) {
      Sample(&out, "rescfg_pending_tasks", Label("policy", key.first) + "," + Label("reason", key.second),
             std::to_string(n));
    }
    Header(&out, "rescfg_rejected_tasks", "gauge", "Tasks of the last snapshot that could not be scheduled.");
    Sample(&out, "rescfg_rejected_tasks", "", std::to_string(report.rejected.size()));
    Header(&out, "rescfg_running_tasks_in_no_pool", "gauge",
           "Running tasks that hold in no pool: no worker reports them and rescfg did not hand them over.");
    Sample(&out, "rescfg_running_tasks_in_no_pool", "", std::to_string(RunningInNoPool(report)));
    Header(&out, "rescfg_sync_foreign_moves", "gauge",
           "Queued tasks another rescfg sync moved, which this sync's journal does not know.");
    Sample(&out, "rescfg_sync_foreign_moves", "", std::to_string(last->foreign_moves));
    Header(&out, "rescfg_sync_enabled", "gauge", "1 when the configuration is enabled, 0 when it decides nothing.");
    Sample(&out, "rescfg_sync_enabled", "", report.enabled ? "1" : "0");
  }
  Header(&out, "rescfg_sync_moves_total", "counter", "Moves since the sync started, by result.");
  ByResult(&out, "rescfg_sync_moves_total", MoveResult::kMoved, totals.moves);
  Header(&out, "rescfg_sync_stale_entries_total", "counter",
         "Entries of pool queues whose task is neither queued nor running (left by a stop or dequeue), "
         "removed since the sync started, by result.");
  ByResult(&out, "rescfg_sync_stale_entries_total", MoveResult::kRemoved, totals.stale_entries);
  RenderPreemptionMetrics(totals, &out);
  Header(&out, "rescfg_sync_cycles_total", "counter", "Cycles since the sync started.");
  Sample(&out, "rescfg_sync_cycles_total", "", std::to_string(totals.cycles));
  Header(&out, "rescfg_sync_failed_cycles_total", "counter", "Cycles that could not complete (server, state, configuration).");
  Sample(&out, "rescfg_sync_failed_cycles_total", "", std::to_string(totals.failed_cycles));
  Header(&out, "rescfg_sync_cycle_duration_seconds", "gauge", "How long the last cycle took.");
  Sample(&out, "rescfg_sync_cycle_duration_seconds", "", Seconds(latest.micros));
  Header(&out, "rescfg_sync_server_wait_seconds", "gauge", "How much of the last cycle was spent waiting for the server.");
  Sample(&out, "rescfg_sync_server_wait_seconds", "", Seconds(latest.server_micros));
  Header(&out, "rescfg_sync_last_cycle_timestamp_seconds", "gauge", "When the last cycle ended (Unix time).");
  Sample(&out, "rescfg_sync_last_cycle_timestamp_seconds", "", std::to_string(now_unix));
  Header(&out, "rescfg_sync_api_errors_total", "counter", "API calls that did not succeed, by endpoint (each attempt).");
  for (const auto& [endpoint, n] : api_errors) {
    Sample(&out, "rescfg_sync_api_errors_total", Label("endpoint", endpoint), std::to_string(n));
  }
  return out;
}

}  // namespace rescfg::sync
