#pragma once
/// Why each job still queued waits (rescfg-scheduling(7), THE PASS, "pending"): one reason judged on
/// the final state, first match, and a message naming pools, policies and
/// amounts. The ninja "explanations" of the scheduler.

#include <vector>

#include "schedule/context.h"
#include "schedule/job_queue.h"
#include "schedule/pass_state.h"
#include "schedule/problem.h"
#include "schedule/reservations.h"

namespace rescfg {

/// Fills result->pending (queue order) and result->messages.
void ExplainPending(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                    const std::vector<JobQueue>& queues, const std::vector<QueuedJob>& queued,
                    const std::vector<uint32_t>& unschedulable, bool enabled, SchedulingResult* result);

}  // namespace rescfg
