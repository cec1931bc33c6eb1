#include "removed_queues.h"

#include "config_source.h"
#include "diff/removed_queues.h"
#include "util/file_io.h"

namespace rescfg::cmd {

bool AddRemovedQueueFindings(const PlannedChange& change, const Config& config, const JobsSource& jobs,
                             const std::string& state_dir, std::vector<Finding>* findings) {
  if (!change.base) return true;  // onto nothing: no queue can disappear
  std::vector<RemovedQueue> removed = RemovedPolicyQueues(*change.base, config);
  const bool with_jobs = !jobs.file.empty() || jobs.from_sync;
  if (removed.empty() && !with_jobs) return true;
  std::string label;
  if (with_jobs) {
    JobsSource source = jobs;
    source.sync_state_dir = state_dir;
    auto loaded = LoadJobsFrom(source, {}, nullptr, nullptr, {&*change.base});
    if (!loaded) return false;
    CountRemovedQueueJobs(*change.base, loaded->entries, &removed);
    label = jobs.from_sync ? "the last sync's snapshot" : DisplayName(jobs.file);
  }
  for (const RemovedQueue& r : removed) findings->push_back(RemovedQueueFinding(r, *change.base, config, label));
  return true;
}

}  // namespace rescfg::cmd
