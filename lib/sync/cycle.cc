#include "sync/cycle.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_set>
#include <utility>

#include "clearml/queues.h"
#include "config/renames.h"
#include "decide/clearml_actions.h"
#include "state/state_store.h"
#include "sync/enqueue_evidence.h"
#include "sync/cycle_trace.h"
#include "sync/foreign_moves.h"
#include "sync/recovery.h"
#include "sync/preemption_metrics.h"
#include "sync/requeue.h"
#include "sync/run_starts.h"
#include "sync/server_snapshot.h"
#include "sync/stale_entries.h"
#include "sync/stop.h"
#include "sync/stranded_tasks.h"

namespace rescfg::sync {
namespace {

CycleResult::Status StatusOfFailure(const ApiAnswer& failure) {
  switch (failure.kind) {
    case ApiAnswer::Kind::kUnauthorized: return CycleResult::Status::kCredentialsRefused;
    case ApiAnswer::Kind::kUnreachable: return CycleResult::Status::kUnreachable;
    default: return CycleResult::Status::kUnusable;
  }
}

/// The policy queues of the configuration.
std::unordered_set<std::string> PolicyQueues(const Config& config) {
  std::unordered_set<std::string> names;
  for (const Policy& policy : config.policies) {
    for (const PolicyProfile& entry : policy.profiles) names.insert(PolicyQueueOf(policy, entry));
  }
  return names;
}

/// The policy, pool and link queues of the configuration (`policy_queues`
/// and the pools' and links').
std::unordered_set<std::string> ConfigQueues(const Config& config, std::unordered_set<std::string> policy_queues) {
  std::unordered_set<std::string> names = std::move(policy_queues);
  for (const Pool& pool : config.pools) names.insert(pool.queue);
  for (const Profile& profile : config.profiles) {
    for (const Link& link : profile.links) names.insert(link.queue);
  }
  return names;
}

/// The tasks the journal remembers (hand-overs, open moves, stops): a
/// reading of the server must not miss them.
std::vector<std::string> JournalTasks(const Journal& journal) {
  std::vector<std::string> ids;
  for (const auto& [task, h] : journal.handovers()) ids.push_back(task);
  for (const auto& [seq, m] : journal.unfinished()) ids.push_back(m.task);
  for (const auto& [task, m] : journal.stops()) ids.push_back(task);
  return ids;
}

/// Reads the server; when the journal holds open actions (a crash, or a
/// server that stopped answering, left them) and `settle`, settles them
/// first and reads again if that changed the server. A failure ends the
/// cycle: its status and message.
std::optional<std::pair<CycleResult::Status, std::string>> ReadSettled(
    ApiClient& api, Journal& journal, const CycleSettings& settings, const Config& config,
    const std::unordered_set<std::string>& config_queues, const std::vector<std::string>& param_paths,
    const Clock& clock, bool settle, ServerSnapshot* snapshot, clearml::QueueList* queues, CycleResult* result) {
  using Failure = std::pair<CycleResult::Status, std::string>;
  for (int reading = 0;; ++reading) {
    FetchOutcome fetched;
    {
      const ArmedRead armed(settings.read_guard);
      fetched = FetchServerSnapshot(api, TaskFields(param_paths), settings.page_size, snapshot, JournalTasks(journal));
    }
    if (!fetched.ok) return Failure{StatusOfFailure(fetched.failure), fetched.error};
    *queues = clearml::ReadQueuesText(snapshot->queues_json, "queues.get_all");
    if (!settle || (journal.unfinished().empty() && journal.stops().empty()) || settings.dry_run || reading > 0) {
      return std::nullopt;
    }
    // Moves a crash (or a silent server) left half done, before anything else.
    RecoveryOutcome recovered = RecoverIntents(api, journal, *snapshot, *queues, [&](std::string_view name) {
      return config_queues.count(std::string(name)) > 0;
    }, clock);
    result->notes.insert(result->notes.end(), recovered.notes.begin(), recovered.notes.end());
    std::string error;
    // Stops and re-queues: open ones settled, stopped victims re-queued (sync/requeue.h).
    SettleOutcome settled;
    if (recovered.ok) settled = SettlePreemptions(api, journal, settings.cycle, StopTimeoutMicros(config), clock, &error);
    result->notes.insert(result->notes.end(), settled.notes.begin(), settled.notes.end());
    for (MoveReport& r : settled.reports) result->moves.push_back(std::move(r));
    if (!error.empty() || !journal.Flush(&error)) return Failure{CycleResult::Status::kUnusable, error};
    if (!recovered.ok) return Failure{CycleResult::Status::kUnreachable, recovered.failure.Describe()};
    if (!settled.ok) return Failure{CycleResult::Status::kUnreachable, settled.failure.Describe()};
    if (!recovered.acted && !settled.acted) return std::nullopt;  // else read again: the server changed
  }
}

/// The pools with a stale entry the last removals left (failed, or found
/// changed after the last reading): an agent may pop it and run its task
/// there, on GPUs the decision does not know are taken.
std::map<std::string, std::string> PoolsWithEntriesLeft(std::vector<MoveReport>::const_iterator from,
                                                       std::vector<MoveReport>::const_iterator to) {
  std::map<std::string, std::string> held;
  for (auto r = from; r != to; ++r) {
    if (r->intent.kind != ActionKind::kRemove || r->result == MoveResult::kRemoved) continue;
    held.emplace(r->intent.pool, "the stale entry of task " + r->intent.task + " in " + r->intent.to +
                                     " was not removed (" + r->detail + "): an agent that pops it runs the task in pool " +
                                     r->intent.pool + "; nothing is handed to that pool until it is gone");
  }
  return held;
}

/// The queue a task of policy queue `policy_queue` is moved out of: that
/// queue, or the old default queue a rename left behind (rescfg(5),
/// RENAMES) when the task is still listed there.
std::string SourceQueue(const std::vector<LeftQueue>& left, const std::string& policy_queue, std::string_view listed) {
  for (const LeftQueue& l : left) {
    if (l.queue == policy_queue && l.old_queue == listed) return std::string(listed);
  }
  return policy_queue;
}

/// The moves among the report's actions (decide/clearml_actions.h), in placement order; those that
/// cannot be made go straight to `refused` (by their index in the order).
/// `held_back`: pools into which nothing is handed this cycle, and why.
void PlanMoves(const Config& config, const ScheduleReport& report, const clearml::QueueList& queues, int64_t cycle,
               const std::map<std::string, std::string>& held_back, std::vector<MoveIntent>* intents,
               std::vector<size_t>* intent_slot, std::vector<MoveReport>* reports, const Clock& clock) {
  const std::vector<LeftQueue> left = QueuesLeftByRenames(config);
  ForEachAction(report, [&](const ClearmlAction& action) {
    if (action.kind != ActionKind::kMove) return true;  // stops: after the moves (sync/stop.h)
    const JobOutcome& job = report.jobs[action.job];
    MoveIntent m;
    m.cycle = cycle;
    m.task = std::string(*job.id);
    m.name = std::string(*job.name);
    m.policy = std::string(*job.policy);
    m.profile = std::string(*job.profile);
    m.pool = std::string(*job.pool);
    const auto listing = queues.ListingOf(m.task);
    m.from = SourceQueue(left, PolicyQueueByName(config, m.policy, m.profile),
                         listing ? queues.queues[listing->queue].name : std::string_view());
    m.to = std::string(action.to);
    const clearml::Queue* from = queues.FindByName(m.from);
    const clearml::Queue* to = queues.FindByName(m.to);
    if (from) m.from_id = std::string(from->id);
    if (to) m.to_id = std::string(to->id);
    std::string refusal;
    MoveResult result = MoveResult::kSkipped;
    if (to == nullptr) {
      refusal = "the server has no queue named " + m.to + "; create it (the agents of the pool serve it)";
      result = MoveResult::kFailed;
    } else if (from == nullptr || !listing || &queues.queues[listing->queue] != from) {
      refusal = "not listed in " + m.from + " when the queues were read; left for the next cycle";
    } else if (auto held = held_back.find(m.pool); held != held_back.end()) {
      refusal = held->second;
    }
    if (!refusal.empty()) {
      reports->push_back({m, UtcNowMicros(clock), result, refusal, false});
      return true;
    }
    intent_slot->push_back(reports->size());
    reports->push_back({m, "", MoveResult::kPlanned, "", false});
    intents->push_back(std::move(m));
    return true;
  });
}

}  // namespace

size_t CycleResult::Count(MoveResult result) const {
  size_t n = 0;
  for (const MoveReport& m : moves) n += m.result == result;
  return n;
}

std::string Seconds(int64_t micros) {
  if (micros < 0) micros = 0;
  const int64_t millis = (micros + 500) / 1000;
  std::string fraction = std::to_string(millis % 1000);
  return std::to_string(millis / 1000) + "." + std::string(3 - fraction.size(), '0') + fraction;
}

CycleResult RunCycle(ApiClient& api, Journal& journal, const CycleSettings& settings) {
  CycleResult result;
  const Clock& clock = settings.clock != nullptr ? *settings.clock : SystemClock();
  const int64_t start = clock.MonotonicMicros();
  api.ResetWait();
  auto finish = [&](CycleResult::Status status, std::string error) -> CycleResult {
    result.status = status;
    result.error = std::move(error);
    result.micros = clock.MonotonicMicros() - start;
    result.server_micros = api.server_wait_micros();
    return std::move(result);
  };

  // The configuration as provisioned now: a provision takes effect here.
  ProvisionedConfig loaded = LoadProvisionedConfig(settings.state_dir, settings.lock_timeout_seconds, settings.provisioned);
  result.notes = loaded.notes;
  if (!loaded.config) return finish(CycleResult::Status::kUnusable, loaded.error);
  const ProvisionedConfig& provisioned = settings.provisioned != nullptr ? (*settings.provisioned = std::move(loaded)) : loaded;
  const Config& config = *provisioned.config;
  const std::vector<std::string> param_paths = DynamicParameterPaths(config);
  const std::unordered_set<std::string> policy_queues = PolicyQueues(config);
  const std::unordered_set<std::string> config_queues = ConfigQueues(config, policy_queues);

  ServerSnapshot snapshot;
  clearml::QueueList queues;
  // A stale entry that an agent popped between the read and its removal
  // holds its pool again, and the read does not show it: after a removal
  // that did not go as read, the server is read again (the hand-over the
  // journal keeps for such an entry then says which pool holds it); the
  // journal's open actions are settled at the first reading only.
  constexpr int kRemovalRounds = 3;
  size_t last_removals = 0;  ///< where the last round's removal reports begin in result.moves
  for (int removal_round = 0;; ++removal_round) {
    if (auto failed = ReadSettled(api, journal, settings, config, config_queues, param_paths, clock, removal_round == 0,
                                  &snapshot, &queues, &result)) {
      return finish(failed->first, failed->second);
    }
    // Entries a person's stop or dequeue left in pool queues, at once: an agent
    // that pops one runs the task again (sync/stale_entries.h).
    const std::vector<MoveIntent> removals = PlanRemovals(config, snapshot, queues, settings.cycle);
    const size_t first_removal = last_removals = result.moves.size();
    if (settings.dry_run) {
      PlannedRemovals(removals, clock, &result.moves);
      break;
    }
    CarryOutRemovals(api, removals, clock, settings.stop, &result.moves);
    const bool stopping = settings.stop != nullptr && settings.stop->load();
    const auto done = result.moves.begin() + static_cast<std::ptrdiff_t>(first_removal);
    const bool as_read = std::all_of(done, result.moves.end(), [](const MoveReport& r) { return r.result == MoveResult::kRemoved; });
    // Skipped: the task or its entry changed since the read (popped,
    // enqueued again). Failed: it may have; read again once, no more.
    const bool changed = std::any_of(done, result.moves.end(), [](const MoveReport& r) { return r.result == MoveResult::kSkipped; });
    if (as_read || stopping || (!changed && removal_round > 0) || removal_round + 1 == kRemovalRounds) break;
  }
  result.tasks_read = snapshot.tasks;

  const SyncPaths paths = SyncPathsOf(settings.state_dir);
  std::string error;
  if (!settings.dry_run) {
    ReleaseHandovers(journal, snapshot, queues,
                     [&](std::string_view name) { return policy_queues.count(std::string(name)) > 0; });
    if (!journal.Compact(&error)) return finish(CycleResult::Status::kUnusable, error);
  }
  if (!KeepRunStarts(paths, clock, &snapshot, &error)) return finish(CycleResult::Status::kUnusable, error);
  if (!WriteKeptSnapshot(paths, snapshot, &error)) return finish(CycleResult::Status::kUnusable, error);
  for (std::string& line : StrandedTasks(config, snapshot, queues, journal.AsHandovers())) {
    result.notes.push_back(std::move(line));
  }
  const ForeignMoves foreign = FindForeignMoves(snapshot, queues, journal.AsHandovers());
  result.foreign_moves = foreign.count;
  if (foreign.count > 0) result.notes.push_back(ForeignMovesWarning(foreign));
  clearml::Snapshot read = LoadKeptSnapshot(paths, param_paths, &config, journal.AsHandovers());
  result.findings = read.findings;
  if (read.unusable) return finish(CycleResult::Status::kUnusable, "the server's snapshot is unusable");
  result.report = BuildSchedule(config, std::move(read.jobs), clock.UtcMicros());
  const ScheduleReport& report = *result.report;
  for (size_t index : report.pending) {
    const JobOutcome& job = report.jobs[index];
    ++result.pending_by_reason[std::string(*job.reason)];
    ++result.pending_by_policy_reason[{std::string(*job.policy), std::string(*job.reason)}];
  }

  std::vector<MoveIntent> intents;
  std::vector<size_t> slots;
  // (A dry run removes nothing: its plan is what a cycle that removes them would do.)
  const auto held_back = settings.dry_run ? std::map<std::string, std::string>()
                                          : PoolsWithEntriesLeft(result.moves.begin() + static_cast<std::ptrdiff_t>(last_removals),
                                                                 result.moves.end());
  PlanMoves(config, report, queues, settings.cycle, held_back, &intents, &slots, &result.moves, clock);
  StampStatusChanged(snapshot.tasks_json, &intents);
  TraceCycle(snapshot, journal.AsHandovers(), report, intents, clock.UtcMicros());
  std::vector<MoveIntent> stops = PlanStops(config, report, queues, journal, settings.cycle);
  if (settings.dry_run) {
    result.stopping = journal.stops().size();  // the stops in flight a dry run leaves as they are
    for (size_t slot : slots) {
      result.moves[slot].result = MoveResult::kPlanned;
      result.moves[slot].time = UtcNowMicros(clock);
    }
    for (MoveIntent& stop : stops) result.moves.push_back({std::move(stop), UtcNowMicros(clock), MoveResult::kPlanned, "", false});
    return finish(CycleResult::Status::kCompleted, "");
  }
  std::vector<MoveReport> made;
  if (!MakeMoves(api, journal, intents, {settings.connections, settings.stop, &clock}, &made, &error)) {
    if (made.empty()) return finish(CycleResult::Status::kUnusable, error);
    result.unrecorded = error;  // the moves were made: they are said, and the next cycle settles the journal
  }
  for (size_t i = 0; i < made.size(); ++i) result.moves[slots[i]] = std::move(made[i]);
  if (!CarryOutStops(api, journal, std::move(stops), PoolOfQueue(config, queues), clock, settings.stop, &result.moves,
                     &error)) {
    return finish(CycleResult::Status::kUnusable, error);
  }
  result.stopping = journal.stops().size();
  return finish(CycleResult::Status::kCompleted, "");
}

std::string CycleSummary(const CycleResult& r, int64_t cycle, bool dry_run) {
  std::string text = "cycle " + std::to_string(cycle) + ": " + std::to_string(r.tasks_read) + " tasks read, ";
  if (dry_run) text += std::to_string(r.Count(MoveResult::kPlanned)) + " planned, ";
  text += std::to_string(r.Count(MoveResult::kMoved)) + " moved, " + std::to_string(r.Count(MoveResult::kSkipped)) + " skipped, " +
          std::to_string(r.Count(MoveResult::kFailed)) + " failed, ";
  size_t pending = 0;
  std::string reasons;
  for (const auto& [reason, n] : r.pending_by_reason) {
    pending += n;
    reasons += (reasons.empty() ? "" : ", ") + reason + " " + std::to_string(n);
  }
  text += std::to_string(pending) + " pending" + (reasons.empty() ? "" : " (" + reasons + ")");
  text += PreemptionSummary(r);
  if (const size_t removed = r.Count(MoveResult::kRemoved); removed > 0) {
    text += ", " + std::to_string(removed) + " stale " + (removed == 1 ? "entry" : "entries") + " removed";
  }
  const size_t rejected = r.report ? r.report->rejected.size() : 0;
  const size_t running = r.report ? r.report->running_count : 0;
  text += ", " + std::to_string(rejected) + " rejected, " + std::to_string(running) + " running; " + Seconds(r.micros) +
          " s, " + Seconds(r.server_micros) + " s waiting for the server";
  return text;
}

}  // namespace rescfg::sync
