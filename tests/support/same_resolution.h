#pragma once
/// Two resolutions of the same entries compared field by field: outcomes,
/// queued jobs, holdings and the lists of rejected and running outcomes
/// (gtest assertions).

#include "jobs/resolved_jobs.h"

namespace rescfg::testing {

void ExpectSameOutcome(const JobOutcome& a, const JobOutcome& b, size_t i);
void ExpectSameResolution(const ResolvedJobs& one, const ResolvedJobs& two);

}  // namespace rescfg::testing
