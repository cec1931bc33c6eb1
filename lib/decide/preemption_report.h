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

/// The decision entry `job` takes part in through `marks` (report.victim_of or preemptor_of):
/// its index into report.preemptions, or nullptr.
const std::pair<size_t, uint32_t>* FindDecision(const std::vector<std::pair<size_t, uint32_t>>& marks, size_t job);

}  // namespace rescfg
