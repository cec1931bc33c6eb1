#pragma once
/// Turns jobs-file entries into scheduling input (SPEC §3): needs, holdings,
/// queue order, and every rejection with its reason, first match.

#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "schedule/problem.h"
#include "schedule/report.h"

namespace rescfg {

struct ResolvedJobs {
  std::vector<JobOutcome> outcomes;   ///< one per entry; queued ones still to be decided
  SchedulingInput input;              ///< config is left for the caller to set
  std::vector<size_t> queued_outcome; ///< per QueuedJob: its index in outcomes
};

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries);

}  // namespace rescfg
