#pragma once
/// Turns jobs-file entries into scheduling input (SPEC §3): needs, holdings,
/// queue order, and every rejection with its reason, first match.

#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "schedule/problem.h"
#include "schedule/report.h"

namespace rescfg {

/// The configuration's names, copied once into a report's arena so that
/// outcomes can share them (and outlive the configuration).
struct ConfigNames {
  std::vector<std::string_view> pools, queues;  ///< per pool: its name and its queue
  std::vector<std::string_view> policies, profiles;
  std::vector<std::vector<std::string_view>> links;  ///< per profile, per link: its name ("" if unnamed)
  std::vector<std::vector<std::string_view>> link_queues;  ///< per profile, per link: its queue (SPEC §2)
};

struct ResolvedJobs {
  TextArena text;                     ///< what the outcomes' text views
  ConfigNames names;                  ///< in `text`
  std::vector<JobOutcome> outcomes;   ///< one per entry; queued ones still to be decided
  SchedulingInput input;              ///< config is left for the caller to set
  std::vector<uint32_t> queued_outcome; ///< per QueuedJob: its index in outcomes
};

ResolvedJobs ResolveJobs(const Config& config, const std::vector<JobEntry>& entries);

}  // namespace rescfg
