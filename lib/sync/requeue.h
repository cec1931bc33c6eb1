#pragma once
/// What becomes of the victims rescfg stopped (rescfg(1), "rescfg sync",
/// the stop protocol), settled at the start of every cycle, before the
/// server is read again and anything is decided:
///   - still in_progress: it waits for its agent; after the configuration's
///     stopTimeout it is reported stuck (it keeps holding its pool);
///   - stopped: it goes back to the head of its policy queue — the intent
///     in the journal (kind requeue, with the status_changed read), then
///     tasks.enqueue {task, queue: policy queue, status_reason "rescfg:
///     pushed back by policy manager: ..."}, then
///     queues.move_task_to_front; never tasks.reset;
///   - anything else (completed or failed on its own, queued or running
///     again by someone else's hand, deleted): let go, never re-queued.
/// A stop or re-queue a crash left open is settled here too, from what the
/// server shows; a stop is never asked again from the journal.

#include <string>
#include <vector>

#include "config/model.h"
#include "sync/api_client.h"
#include "sync/journal.h"
#include "sync/move.h"
#include "sync/stop.h"
#include "util/clock.h"

namespace rescfg::sync {

/// The phrase the ClearML k8s glue looks for before it fails a queued task
/// whose pod it deletes.
inline constexpr std::string_view kPushedBack = "pushed back by policy manager";

/// The configuration's stopTimeout (its default without `preemption`).
int64_t StopTimeoutMicros(const Config& config);

/// "rescfg: pushed back by policy manager: preempted for Research/r1 in H100".
std::string RequeueReason(const MoveIntent& stop);

/// What to do with a victim rescfg stopped, from what the server shows (pure).
enum class StopState {
  kWaiting,  ///< in_progress and stopping: its agent has not killed it yet
  kStuck,    ///< the same, after stopTimeout
  kStopped,  ///< stopped: re-queue it
  kLetGo,    ///< ended on its own, running or queued again, deleted: forget it
};
StopState JudgeStop(const MoveIntent& stop, const VictimLook& look, int64_t now_us, int64_t stop_timeout_us);

/// tasks.enqueue into the policy queue, then queues.move_task_to_front, for
/// a re-queue already in the journal. requeued, skipped (the task changed)
/// or failed; `open` when the server may have acted without saying so.
MoveReport RequeueTask(ApiClient& api, const MoveIntent& requeue, const Clock& clock);

struct SettleOutcome {
  bool ok = true;       ///< false: the server did not answer; what was open stays open
  bool acted = false;   ///< a call changed the server: read it again before deciding
  std::vector<std::string> notes;   ///< for the log (stuck stops are warnings)
  std::vector<MoveReport> reports;  ///< requeued, stuck, and their failures
  ApiAnswer failure;
};

/// Settles the stop and re-queue intents a crash left open (moves are
/// RecoverIntents'), then every stop the journal remembers. What it
/// records in the journal the caller writes (Flush), except each
/// re-queue's intent, written before its first call.
SettleOutcome SettlePreemptions(ApiClient& api, Journal& journal, int64_t cycle, int64_t stop_timeout_us,
                                const Clock& clock, std::string* error);

}  // namespace rescfg::sync
