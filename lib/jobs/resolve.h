#pragma once
/// Turns jobs-file entries into scheduling input (SPEC §3): needs, holdings,
/// queue order, and every rejection with its reason, first match.

#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"

namespace rescfg {

/// How many threads may resolve. Large inputs are resolved in two halves
/// at once; the result is the same as with one (the tests compare both).
enum class ResolveThreads { kAuto, kOne };

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries,
                         ResolveThreads threads = ResolveThreads::kAuto);

}  // namespace rescfg
