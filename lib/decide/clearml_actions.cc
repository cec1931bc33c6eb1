#include "decide/clearml_actions.h"

namespace rescfg {

const char* ActionKindName(ActionKind kind) {
  switch (kind) {
    case ActionKind::kMove: return "move";
    case ActionKind::kStop: return "stop";
    case ActionKind::kRequeue: return "requeue";
    case ActionKind::kRemove: return "remove";
  }
  return "move";
}

bool ForEachAction(const ScheduleReport& report, const std::function<bool(const ClearmlAction&)>& visit) {
  for (size_t index : report.assignments) {
    if (!visit({ActionKind::kMove, index, *report.jobs[index].queue, nullptr})) return false;
  }
  for (const PreemptionOutcome& p : report.preemptions) {
    for (size_t victim : p.victims) {
      if (!visit({ActionKind::kStop, victim, {}, &p})) return false;
    }
  }
  return true;
}

std::string StopReason(const ScheduleReport& report, const PreemptionOutcome& preemption) {
  const JobOutcome preemptor = report.jobs[preemption.job];
  return "rescfg: preempted for " + std::string(*preemptor.policy) + "/" + std::string(*preemptor.id) + " in " +
         std::string(preemption.pool);
}

}  // namespace rescfg
