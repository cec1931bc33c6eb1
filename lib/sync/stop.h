#pragma once
/// Stopping preemption victims (rescfg(1), "rescfg sync", the stop
/// protocol). After its moves, a cycle carries out the schedule's stops,
/// one victim after the other in decision order:
///   1. a guarded read of the victim (tasks.get_all): still in_progress,
///      not stopping, still in the pool the decision names; otherwise it is
///      left alone and reported skipped;
///   2. the intent in the journal (kind stop), fsynced;
///   3. tasks.stop {task, force: false, status_reason: "rescfg: preempted
///      for POLICY/JOB in POOL"}: a task with a live worker stays
///      in_progress with status_message "stopping" until its agent kills it;
///      one without is stopped at once; 110 and 121 (its status changed)
///      are skipped;
///   4. the result in the journal: a stopped victim is remembered until it
///      is re-queued or ends (sync/requeue.h).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/queues.h"
#include "config/model.h"
#include "decide/report.h"
#include "sync/api_client.h"
#include "sync/journal.h"
#include "sync/move.h"
#include "util/clock.h"

namespace rescfg::sync {

/// What the server says of a victim now.
struct VictimLook {
  bool ok = false;     ///< false: the server could not be asked
  bool found = false;  ///< false: no task has that id
  std::string status, status_message, status_reason, status_changed;
  std::string queue;   ///< execution.queue (an id)
};
VictimLook LookAtVictim(ApiClient& api, const std::string& task);

/// The stops of `report` (decide/clearml_actions.h) as intents, in
/// decision order: the victim, its policy queue (from, from_id: where it
/// is re-queued), the queue it runs from (to), the preemptor and the
/// reason. Victims the journal already holds a stop or an open action
/// for are left out (a stop is asked once).
std::vector<MoveIntent> PlanStops(const Config& config, const ScheduleReport& report,
                                  const clearml::QueueList& queues, const Journal& journal, int64_t cycle);

/// Step 1's judgement, pure: "" when the victim may be stopped, else why
/// not. `pool_of_queue` names the pool a queue id belongs to ("" for a
/// queue of no pool: then the pool read in the snapshot stands).
std::string StopGuard(const MoveIntent& stop, const VictimLook& look,
                      const std::function<std::string(std::string_view)>& pool_of_queue);

/// Step 3's answer as a result (pure): stopped, skipped or failed; `open`
/// when the server may have acted without saying so.
MoveResult JudgeStopAnswer(const ApiAnswer& answer, std::string* detail, bool* open);

/// Steps 1 to 4 for every stop. False (with `error`) when the journal
/// cannot be written. A stop that never started because of `stop_flag` is
/// reported skipped.
bool CarryOutStops(ApiClient& api, Journal& journal, std::vector<MoveIntent> stops,
                   const std::function<std::string(std::string_view)>& pool_of_queue, const Clock& clock,
                   const std::atomic<bool>* stop_flag, std::vector<MoveReport>* reports, std::string* error);

/// The pool a queue id belongs to, by the configuration: its pool queue or
/// one of its link queues ("" for any other queue).
std::function<std::string(std::string_view)> PoolOfQueue(const Config& config, const clearml::QueueList& queues);

}  // namespace rescfg::sync
