#pragma once
/// `rescfg status`: pool and profile cards built from a configuration and
/// the schedule of a jobs snapshot (empty when no snapshot is given).

#include <string>
#include <vector>

#include "config/model.h"
#include "schedule/report.h"

namespace rescfg {

struct PoolCard {
  std::string name, queue;
  Quantity size, in_use, free;
  std::vector<std::string> execution_priority;  ///< most favoured first
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

struct StatusReport {
  std::string source;  ///< the file, or "DIR revision N"
  bool enabled = true;
  bool with_jobs = false;
  std::vector<PoolCard> pools;
  std::vector<ProfileCard> profiles;
};

StatusReport BuildStatus(const Config& config, const ScheduleReport& schedule, std::string source,
                         bool with_jobs);

/// Two tables, pools then profiles; lists as "1. A  2. B".
std::string RenderStatusTable(const StatusReport& status);
std::string RenderStatusJson(const StatusReport& status);

}  // namespace rescfg
