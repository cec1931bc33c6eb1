#pragma once
/// Preemption (rescfg-scheduling(7), PREEMPTION): after the pass, a team that comes back for the
/// reservation it lent gets it back by stopping work of teams that run above their own
/// reservation. Pure: decided on the pass's final state and `now`, no I/O.

#include <cstdint>
#include <vector>

#include "schedule/context.h"
#include "schedule/preemption_state.h"
#include "schedule/problem.h"

namespace rescfg {

/// Work counters, for complexity guards in tests and benchmarks.
struct PreemptionStats {
  uint64_t preemptors = 0;  ///< queued jobs that tried to preempt
  uint64_t pools = 0;       ///< pools tried
  uint64_t skipped = 0;     ///< pools passed by the cheap bound (not enough takeable there)
  uint64_t looked = 0;      ///< candidates and stopping jobs looked at
  uint64_t decisions = 0;
  uint64_t setup = 0;  ///< holdings looked at to set the decisions up (PreemptionState::setup_work)
};

/// Decides preemption on the final state of `result` (the pass's result for `input`) when
/// `input.config->preemption` is set and the configuration is enabled: appends the decisions
/// to result->preemptions in decision order and makes each preemptor pending `preempting`.
/// Does nothing otherwise. Placements, pool and policy usage are left as the pass left them.
/// `ctx`: the configuration's context when the caller keeps one (built here otherwise).
void DecidePreemptions(const SchedulingInput& input, SchedulingResult* result, PreemptionStats* stats = nullptr,
                       const ScheduleContext* ctx = nullptr);

/// The same on a state prepared by the caller (input.holdings's and the pass's final state at
/// input.now_us, with its candidates). `keep`: the state is left as it was (the caller applies the
/// decisions and keeps it for the next ones); otherwise the decisions' changes stay in it.
void DecidePreemptions(const SchedulingInput& input, SchedulingResult* result, PreemptionState& prepared,
                       PreemptionStats* stats, const ScheduleContext& ctx, bool keep);

}  // namespace rescfg
