#include "sync/recovery.h"

#include "sync/enqueue_evidence.h"
#include "sync/move.h"
#include "sync/server_text.h"

namespace rescfg::sync {
namespace {

std::string_view StatusOf(const ServerSnapshot& snapshot, const std::string& task) {
  auto it = snapshot.status.find(task);
  return it == snapshot.status.end() ? std::string_view() : std::string_view(it->second);
}

const clearml::Queue* ListedIn(const clearml::QueueList& queues, const std::string& task) {
  auto listing = queues.ListingOf(task);
  return listing ? &queues.queues[listing->queue] : nullptr;
}

}  // namespace

IntentState JudgeIntent(const MoveIntent& m, std::string_view status, const clearml::Queue* listed_in,
                        bool is_config_queue) {
  if (status == "in_progress") {
    // Out of its policy queue and running: an agent popped it from the pool
    // queue after the enqueue (whose answer or record a crash lost). The
    // server does not say where it runs when no worker reports it, so it
    // holds the pool it was moved to until it ends; counting it in no pool
    // would give its GPUs away.
    const bool never_left = listed_in != nullptr && listed_in->id == m.from_id;
    return never_left ? IntentState::kGone : IntentState::kStarted;
  }
  if (status != "queued") {
    // Stopped or dequeued since, its entry still where the move put it (or
    // the glue moved it on): the move was made, and an agent that pops that
    // entry runs the task in the pool, which only the hand-over then tells.
    const bool entry_left = listed_in != nullptr && (listed_in->id == m.to_id || !is_config_queue);
    return !status.empty() && entry_left ? IntentState::kMoved : IntentState::kGone;
  }
  if (listed_in == nullptr) return IntentState::kInNoQueue;
  if (listed_in->id == m.to_id) return IntentState::kMoved;
  if (listed_in->id == m.from_id) return IntentState::kNotMoved;
  // A queue rescfg knows nothing of (the k8s glue's): an agent took it
  // from the pool queue, so the move was made.
  return is_config_queue ? IntentState::kGone : IntentState::kMoved;
}

const char* IntentStateName(IntentState state) {
  switch (state) {
    case IntentState::kMoved: return "moved";
    case IntentState::kNotMoved: return "not moved";
    case IntentState::kGone: return "gone";
    case IntentState::kInNoQueue: return "in no queue";
    case IntentState::kStarted: return "running: it holds the pool it was moved to until it ends";
  }
  return "";
}

RecoveryOutcome RecoverIntents(ApiClient& api, Journal& journal, const ServerSnapshot& snapshot,
                               const clearml::QueueList& queues,
                               const std::function<bool(std::string_view)>& is_config_queue, const Clock& clock) {
  RecoveryOutcome outcome;
  const std::map<uint64_t, MoveIntent> open = journal.unfinished();  // a copy: Finish changes it
  for (const auto& [seq, m] : open) {
    if (m.kind != ActionKind::kMove) continue;  // stops and re-queues: SettlePreemptions (sync/requeue.h)
    const clearml::Queue* listed = ListedIn(queues, m.task);
    const IntentState state =
        JudgeIntent(m, StatusOf(snapshot, m.task), listed, listed != nullptr && is_config_queue(listed->name));
    std::string note = "unfinished move of task " + ServerText(m.task) + " from " + ServerText(m.from) + " to " +
                       ServerText(m.to) + ": " + IntentStateName(state);
    switch (state) {
      case IntentState::kMoved:
      case IntentState::kStarted:
        journal.Finish(seq, MoveResultName(MoveResult::kMoved), true);
        break;
      case IntentState::kNotMoved:
      case IntentState::kGone:
        journal.Finish(seq, "undone", false);
        break;
      case IntentState::kInNoQueue: {
        const EnqueueEvidence evidence = JudgeEnqueue(m, LookAtTaskStatus(api, m.task));
        if (evidence != EnqueueEvidence::kNotEnqueued) {
          note += ": " + EnqueueEvidenceText(evidence);
          if (evidence == EnqueueEvidence::kEnqueued) journal.Finish(seq, MoveResultName(MoveResult::kMoved), true);
          if (evidence == EnqueueEvidence::kUnanswered) {
            outcome.ok = false;
            outcome.failure.kind = ApiAnswer::Kind::kUnreachable;
            outcome.failure.message = "tasks.get_all: no answer about task " + m.task;
          }
          break;  // kCannotTell: the intent stays open, and its task holds its pool
        }
        outcome.acted = true;
        const MoveReport report = CompleteMove(api, m, clock);
        note += " -> " + std::string(MoveResultName(report.result)) + (report.detail.empty() ? "" : " (" + ServerText(report.detail) + ")");
        if (report.open) {
          outcome.ok = false;
          outcome.failure.kind = ApiAnswer::Kind::kUnreachable;
          outcome.failure.message = report.detail;
        } else {
          journal.Finish(seq, MoveResultName(report.result), report.result == MoveResult::kMoved);
        }
        break;
      }
    }
    outcome.notes.push_back(std::move(note));
  }
  return outcome;
}

size_t ReleaseHandovers(Journal& journal, const ServerSnapshot& snapshot, const clearml::QueueList& queues,
                        const std::function<bool(std::string_view)>& is_policy_queue) {
  std::vector<std::string> released;
  for (const auto& [task, h] : journal.handovers()) {
    const clearml::Queue* listed = ListedIn(queues, task);
    // A task it was handed holds its pool until it is finished: also while
    // it runs and no worker reports it (rescfg(1), "What a crash leaves behind").
    // The reading looked up every hand-over the scroll skipped (sync/server_snapshot.h):
    // one it does not hold is neither queued nor running.
    // One a person stopped or dequeued while it waited in its pool queue, or
    // parked in the k8s glue's queue, keeps its entry there (a stale entry:
    // the server removes only the entry of its execution.queue, the policy
    // queue) until a cycle removes it, or the glue's pod starts it: an agent
    // that pops it runs it again, queued in no queue or running with its
    // execution.queue on its policy queue, and only this hand-over still
    // says which pool holds it.
    const std::string_view status = StatusOf(snapshot, task);
    const bool ended = status != "queued" && status != "in_progress";
    // Listed in a policy queue (its own, or another a person put it in), it
    // waits there as a job of that queue, to be decided anew.
    const bool in_policy_queue = listed != nullptr && (listed->id == h.from_id || is_policy_queue(listed->name));
    const bool stale_entry = listed != nullptr && !in_policy_queue;
    if ((ended && !stale_entry) || in_policy_queue) released.push_back(task);
  }
  for (const auto& task : released) journal.Release(task);
  return released.size();
}

}  // namespace rescfg::sync
