#pragma once
/// `rescfg status`: pool, profile and team cards built from a configuration
/// and the schedule of a jobs snapshot (empty when no snapshot is given) —
/// what ClearML's resource configuration page shows, as text or JSON.

#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"

namespace rescfg {

/// One linked profile on a pool's card: what each of its tasks gets there
/// and the queue the pool's agents serve for it (ClearML's pool panel).
struct PoolProfile {
  std::string profile;
  Quantity allocation;                          ///< allotment; with a dynamic parameter, its default
  std::optional<std::string> dynamic_parameter;
  std::string queue;
  std::string link;                             ///< the link's name, "" if unnamed
};

struct PoolCard {
  std::string name, queue;
  Quantity size, in_use, free;
  bool paused = false;
  std::vector<std::string> execution_priority;  ///< most favoured first
  std::vector<PoolProfile> profiles;            ///< linked profiles, in execution priority order
  std::optional<PoolNodes> nodes;               ///< a pool made of machines
  std::vector<Quantity> machine_free;           ///< with nodes: per machine
  Quantity largest_free;                        ///< with nodes: the most free on one machine
  GpuFractions gpu_fractions;                   ///< so that tables count MIG slices
};

struct ProfileCard {
  std::string name;
  Quantity allotment;                       ///< with a dynamic parameter: its default
  std::optional<std::string> dynamic_parameter;
  Queueing queueing = Queueing::kBestEffortFIFO;
  std::vector<Link> links;                  ///< precedence order
  size_t running = 0, assigned = 0, pending = 0;
  std::vector<std::string> policies;        ///< priority order
};

struct TeamCard {
  std::string name;
  Quantity reserved;
  std::optional<Quantity> limit;
  Quantity used;        ///< running + newly assigned
  bool paused = false;
  bool over_limit = false;
  size_t running = 0, assigned = 0, pending = 0, rejected = 0;
  size_t stopping = 0, preempted = 0;  ///< running jobs asked to stop; running jobs chosen as victims
};

struct StatusReport {
  std::string source;  ///< the file, or "DIR revision N"
  bool enabled = true;
  bool with_jobs = false;
  bool preemption = false;  ///< preemption configured, or a job stopping: team cards count both
  std::vector<PoolCard> pools;
  std::vector<ProfileCard> profiles;
  std::vector<TeamCard> teams;
};

StatusReport BuildStatus(const Config& config, const ScheduleReport& schedule, std::string source,
                         bool with_jobs);

/// Tables: pools, the profiles each pool serves, profiles, teams; lists as
/// "1. A  2. B".
std::string RenderStatusTable(const StatusReport& status);
std::string RenderStatusJson(const StatusReport& status);

}  // namespace rescfg
