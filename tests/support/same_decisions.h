#pragma once
/// The fast pass against the reference scheduler, decision by decision:
/// placements (pool, link, machine), the machines of whole-machine jobs and
/// of holdings, pending jobs and their reasons, and what every pool, policy
/// and machine has in use (rapidcheck assertions, for properties).

#include "schedule/problem.h"

namespace rescfg::testing {

void RcAssertSameDecisions(const SchedulingResult& fast, const SchedulingResult& slow);

}  // namespace rescfg::testing
