/// The scheduling pass of rescfg-scheduling(7), THE PASS, run once: the incremental pass
/// (incremental_pass.h) with every job queued from the start and one event.

#include <memory>
#include <optional>

#include "schedule/incremental_pass.h"
#include "schedule/pass_preempting.h"
#include "schedule/preemption.h"
#include "schedule/problem.h"
#include "util/joined_thread.h"

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
  return RunSchedulingPass(input, stats, nullptr);
}

SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats, const IdRankSource& id_ranks) {
  // Preemption's set-up (the id ranks, the state before any placement, the candidates in victim
  // order) needs nothing of the pass: it is made beside it, on a thread of its own.
  std::optional<ScheduleContext> ctx;
  std::vector<uint32_t> ranks;
  std::unique_ptr<PreemptionState> prepared;
  std::optional<JoinedThread> beside;
  if (input.config->preemption && input.config->enabled) {
    beside.emplace([&] {
      ctx.emplace(*input.config);
      if (id_ranks) ranks = id_ranks();
      prepared = std::make_unique<PreemptionState>(*ctx, input, id_ranks ? ranks : input.holding_id_rank);
    });
  }
  IncrementalPass pass(*input.config, input.queued, input.holdings, nullptr);
  SchedulingResult result;
  pass.Run(&result.placements);
  pass.Explain(&result);
  if (stats) pass.AddStats(stats);
  if (!beside) return result;
  beside->Join();
  prepared->Place(result);
  DecidePreemptions(input, &result, *prepared, nullptr, *ctx, false);
  return result;
}

}  // namespace rescfg
