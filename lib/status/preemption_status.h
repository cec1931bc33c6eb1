#pragma once
/// Preemption on the team cards of `rescfg status` (rescfg(1), COMMANDS): each team's running jobs
/// asked to stop, and those a preemption decision chose as victims.

#include "decide/report.h"
#include "status/status.h"

namespace rescfg {

/// Sets status->preemption (preemption configured, or some job stopping) and counts each team's
/// stopping and preempted jobs.
void CountPreemptions(const ScheduleReport& schedule, StatusReport* status);

}  // namespace rescfg
