#pragma once
/// What a schedule asks of ClearML, in one place: `schedule --format clearml`
/// prints these actions as API requests and `rescfg sync` carries them out,
/// so the two never disagree about what a decision means.
///   Move: an assigned task goes from its policy queue to its pool (or link)
///         queue, in placement order;
///   Stop: a preemption victim is asked to stop, after every move.
/// (Re-queuing a stopped victim is the sync's own step: it follows a stop
/// that the server has carried out, not a decision of one schedule; so is
/// removing a stale entry of a pool queue, decide/stale_entries.h: it
/// follows a person's stop or dequeue, not a decision.)

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "decide/report.h"

namespace rescfg {

/// Requeue and Remove are carried out by the sync only (they follow what the server shows).
enum class ActionKind { kMove, kStop, kRequeue, kRemove };

/// "move", "stop", "requeue", "remove": the name of a kind in outputs and journals.
const char* ActionKindName(ActionKind kind);

struct ClearmlAction {
  ActionKind kind = ActionKind::kMove;
  size_t job = 0;                               ///< the task's entry in ScheduleReport::jobs
  std::string_view to;                          ///< Move: the pool or link queue
  const PreemptionOutcome* preemption = nullptr;  ///< Stop: the decision it carries out
};

/// Calls `visit` with every action of `report` in order (moves, then stops);
/// stops early and returns false as soon as `visit` does.
bool ForEachAction(const ScheduleReport& report, const std::function<bool(const ClearmlAction&)>& visit);

/// The status_reason of a Stop: "rescfg: preempted for POLICY/JOB in POOL".
std::string StopReason(const ScheduleReport& report, const PreemptionOutcome& preemption);

}  // namespace rescfg
