#pragma once
/// What a schedule asks of ClearML, in one place: `schedule --format clearml`
/// prints these actions as API requests and `rescfg sync` carries them out,
/// so the two never disagree about what a decision means.
///   Move: an assigned task goes from its policy queue to its pool (or link)
///         queue, in placement order;
///   Stop: a preemption victim is asked to stop, after every move.
/// (Re-queuing a stopped victim is the sync's own step: it follows a stop
/// that the server has carried out, not a decision of one schedule.)

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "decide/report.h"

namespace rescfg {

/// Requeue is carried out by the sync only (it follows a stop the server carried out).
enum class ActionKind { kMove, kStop, kRequeue };

/// "move", "stop", "requeue": the name of a kind in outputs and journals.
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
