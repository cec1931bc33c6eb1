#pragma once
/// The preemption decisions of a scheduling result, by entry (rescfg(5), SCHEDULE OUTPUT).

#include <cstdint>
#include <vector>

#include "config/model.h"
#include "schedule/problem.h"
#include "decide/report.h"

namespace rescfg {

/// Fills report->preemption, preemptions, victim_of and preemptor_of from `result`;
/// `queued_outcome` and report->running map queued jobs and holdings to entries.
void ReportPreemptions(const Config& config, const SchedulingInput& input, const SchedulingResult& result,
                       const std::vector<uint32_t>& queued_outcome, ScheduleReport* report);

}  // namespace rescfg
