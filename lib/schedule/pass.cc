/// The scheduling pass of rescfg-scheduling(7), THE PASS, run once: the incremental pass
/// (incremental_pass.h) with every job queued from the start and one event.

#include "schedule/incremental_pass.h"
#include "schedule/preemption.h"
#include "schedule/problem.h"

namespace rescfg {

const char* PendingReasonName(PendingReason r) {
  switch (r) {
    case PendingReason::kPreempting: return "preempting";
    case PendingReason::kDisabled: return "disabled";
    case PendingReason::kPaused: return "paused";
    case PendingReason::kUnschedulable: return "unschedulable";
    case PendingReason::kFifoBlocked: return "fifo-blocked";
    case PendingReason::kLimit: return "limit";
    case PendingReason::kReservation: return "reservation";
    case PendingReason::kFragmented: return "fragmented";
    case PendingReason::kCapacity: return "capacity";
  }
  return "capacity";
}

SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats) {
  IncrementalPass pass(*input.config, input.queued, input.holdings, nullptr);
  SchedulingResult result;
  pass.Run(&result.placements);
  pass.Explain(&result);
  if (stats) pass.AddStats(stats);
  if (input.config->preemption) DecidePreemptions(input, &result);
  return result;
}

}  // namespace rescfg
