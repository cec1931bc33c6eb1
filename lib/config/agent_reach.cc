#include "config/agent_reach.h"

namespace rescfg {

bool OneAgentHolds(const Pool& pool, Quantity amount) {
  return !pool.nodes || amount <= Quantity::Units(pool.nodes->gpus);
}

bool ServedByDaemons(const Pool& pool) { return pool.nodes && pool.nodes->names_from_workers; }

DaemonReach DaemonReachOf(const Pool& pool, const Profile& profile) {
  if (profile.dynamic_parameter) return DaemonReach::kStatedNeed;
  if (!OneAgentHolds(pool, profile.allotment)) return DaemonReach::kSpansMachines;
  return DaemonReach::kRuns;
}

}  // namespace rescfg
