#pragma once
/// Policy queues that a new configuration no longer serves (rescfg(5),
/// RENAMES: removed-policy-queue): a team or profile renamed without
/// renamedFrom, removed, or given another queue. Tasks waiting there would
/// wait for ever (unknown-queue); tasks running from it keep their GPUs in
/// the pool their worker tells, counted against no team.

#include <cstddef>
#include <string>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "util/finding.h"

namespace rescfg {

struct RemovedQueue {
  std::string queue;    ///< the provisioned policy queue
  std::string policy;   ///< its provisioned policy and profile
  std::string profile;
  size_t waiting = 0;   ///< with jobs: entries that wait in it
  size_t running = 0;   ///< with jobs: entries that run from it
};

/// The policy queues of `provisioned` that `config` serves neither as a
/// policy queue nor as an old default queue its renamedFrom follows, in
/// the provisioned order.
std::vector<RemovedQueue> RemovedPolicyQueues(const Config& provisioned, const Config& config);

/// Counts, for each removed queue, the jobs of `entries` (read against
/// `provisioned`) that wait in it or run from it.
void CountRemovedQueueJobs(const Config& provisioned, const std::vector<JobEntry>& entries,
                           std::vector<RemovedQueue>* removed);

/// The removed-policy-queue warning for one queue (its file left empty for
/// the caller to name); `jobs_label` names the jobs counted ("" when none).
Finding RemovedQueueFinding(const RemovedQueue& removed, const Config& provisioned, const Config& config,
                            const std::string& jobs_label);

}  // namespace rescfg
