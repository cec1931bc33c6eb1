#include "sync/stale_entries.h"

#include "decide/stale_entries.h"
#include "sync/removed_count.h"
#include "util/crash_point.h"
#include "util/flat_record.h"

namespace rescfg::sync {
namespace {

std::string RemoveBody(const MoveIntent& m) {
  std::string body = "{\"queue\": ";
  AppendJsonString(&body, m.to_id);
  body += ", \"task\": ";
  AppendJsonString(&body, m.task);
  return body + "}";
}

std::string StatusDetail(const std::string& status) {
  if (status.empty()) return "no task has this id any more";
  return "its status is " + status + ": a stop or dequeue left it listed here, and an agent would run it again";
}

/// Steps 1 and 2 for one entry.
MoveReport RemoveEntry(ApiClient& api, const MoveIntent& m, const Clock& clock) {
  auto report = [&](MoveResult result, std::string detail) {
    return MoveReport{m, UtcNowMicros(clock), result, std::move(detail), false};
  };
  const TaskLook look = LookAtTask(api, m.task);  // step 1
  if (!look.ok) return report(MoveResult::kFailed, "tasks.get_all: the task could not be read; left for the next cycle");
  if (std::string why = StaleEntryGuard(look.status); !why.empty()) return report(MoveResult::kSkipped, why);
  CrashPoint();
  const ApiAnswer removed = api.Call("queues.remove_task", RemoveBody(m));  // step 2
  CrashPoint();
  if (!removed.ok()) {
    const bool changed = removed.kind == ApiAnswer::Kind::kRefused && MeansTaskChanged(removed.subcode);
    return report(changed ? MoveResult::kSkipped : MoveResult::kFailed,
                  "queues.remove_task: " + removed.Describe() + (changed ? "" : "; tried again at the next cycle"));
  }
  // Only a count says the entry went: an answer without one is not
  // reported removed (the next cycle finds the entry again if it is still there).
  const std::optional<int64_t> count = RemovedCount(removed.body);
  if (!count) {
    return report(MoveResult::kSkipped,
                  "queues.remove_task: the answer has no \"removed\" count; whether the entry went is not known, "
                  "the next cycle looks again");
  }
  if (*count == 0) return report(MoveResult::kSkipped, "queues.remove_task: removed 0 (taken from the queue meanwhile)");
  return report(MoveResult::kRemoved, StatusDetail(look.status));
}

}  // namespace

std::vector<MoveIntent> PlanRemovals(const Config& config, const ServerSnapshot& snapshot,
                                     const clearml::QueueList& queues, int64_t cycle) {
  std::vector<MoveIntent> removals;
  const auto status_of = [&](std::string_view task) -> std::string_view {
    auto it = snapshot.status.find(std::string(task));
    return it == snapshot.status.end() ? std::string_view() : std::string_view(it->second);
  };
  for (const StaleEntry& e : StaleEntries(config, queues, status_of)) {
    MoveIntent m;
    m.kind = ActionKind::kRemove;
    m.cycle = cycle;
    m.task = std::string(e.task);
    m.pool = std::string(e.pool);
    m.to = std::string(e.queue->name);
    m.to_id = std::string(e.queue->id);
    removals.push_back(std::move(m));
  }
  return removals;
}

void CarryOutRemovals(ApiClient& api, const std::vector<MoveIntent>& removals, const Clock& clock,
                      const std::atomic<bool>* stop_flag, std::vector<MoveReport>* reports) {
  for (const MoveIntent& m : removals) {
    if (stop_flag != nullptr && stop_flag->load()) {
      reports->push_back({m, UtcNowMicros(clock), MoveResult::kSkipped, "the sync was stopped before this removal", false});
      continue;
    }
    reports->push_back(RemoveEntry(api, m, clock));
  }
}

void PlannedRemovals(const std::vector<MoveIntent>& removals, const Clock& clock, std::vector<MoveReport>* reports) {
  for (const MoveIntent& m : removals) {
    reports->push_back({m, UtcNowMicros(clock), MoveResult::kPlanned, "neither queued nor running when read", false});
  }
}

}  // namespace rescfg::sync
