#pragma once
/// Preemption (rescfg-scheduling(7), PREEMPTION) written as plainly as the rules read, for tests
/// only: every step recomputes from scratch on a copy of the state, nothing is indexed or kept.
/// lib/schedule/preemption must agree with it decision by decision.

#include <vector>

#include "schedule/problem.h"

namespace rescfg::reference {

/// The decisions for `input`, whose pass gave `pass` (placements and pending reasons).
std::vector<Preemption> Preempt(const SchedulingInput& input, const SchedulingResult& pass);

/// Whether holding `i` is a victim candidate at `input.now_us` (not counting pools).
bool Eligible(const SchedulingInput& input, uint32_t i);

}  // namespace rescfg::reference
