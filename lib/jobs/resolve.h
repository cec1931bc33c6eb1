#pragma once
/// Turns jobs-file entries into scheduling input (SPEC §3): needs, holdings,
/// queue order, and every rejection with its reason, first match.

#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"

namespace rescfg {

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries);

}  // namespace rescfg
