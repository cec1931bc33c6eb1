/// What no ClearML agent of a linked pool can run as rescfg sizes it
/// (rescfg(5), CONFIGURATION "Validation"): the rule of config/agent_reach.h,
/// which the agent export sizes by, so that a file that validates clean
/// exports without a finding that no agent starts its tasks.

#include <set>
#include <string_view>
#include <utility>

#include "config/agent_reach.h"
#include "validate/checks.h"

namespace rescfg {
namespace {

/// Whether some linked pool can hold a job of the profile's fixed allotment:
/// when none can, allotment-too-large or allotment-fits-no-machine says so.
bool FitsSomeLink(const CheckContext& context, const Profile& profile) {
  for (const auto& link : profile.links) {
    const Pool* pool = context.FindPool(link.pool);
    if (pool && FitsEmptyPool(*pool, profile.allotment)) return true;
  }
  return false;
}

void SpansMachines(CheckContext& context, const Profile& profile, size_t i, const Pool& pool) {
  const std::string gpus = std::to_string(pool.nodes->gpus);
  context.Warning("multi-machine-allotment", profile.links[i].mark, Indexed(ProfilePath(profile), "links", i),
                  "allotment " + profile.allotment.ToString() + " of profile '" + profile.name +
                      "' takes whole machines of pool '" + pool.name + "' (" + gpus +
                      " GPUs each), but a ClearML agent runs a task on one machine (a daemon serves one "
                      "machine's GPUs, a Kubernetes pod runs on one node): no agent starts its jobs there",
                  "run multi-machine jobs through a launcher that spans machines (e.g. MPI or a PyTorch elastic "
                  "job), or give the profile at most " + gpus + " GPUs");
}

void StatedNeed(CheckContext& context, const Profile& profile, size_t i, const Pool& pool) {
  context.Warning("dynamic-queue", profile.links[i].mark, Indexed(ProfilePath(profile), "links", i),
                  "profile '" + profile.name + "' sizes each job from its " + *profile.dynamic_parameter +
                      ", but the machines of pool '" + pool.name +
                      "' are served by clearml-agent daemons, which give every task of a queue the same GPUs: "
                      "each of its jobs gets " + profile.allotment.ToString() + " whatever it states",
                  "link the profile to a pool of the Kubernetes glue (with a per-task template), or give it "
                  "a fixed allotment");
}

}  // namespace

void CheckAgentReach(CheckContext& context) {
  const Config& config = context.config();
  std::set<std::string_view> used;
  for (const auto& policy : config.policies) {
    for (const auto& entry : policy.profiles) used.insert(entry.profile);
  }
  for (const auto& profile : config.profiles) {
    // An unused or repeated profile is a finding already; its jobs reach no agent.
    if (context.First(profile) != &profile || used.count(profile.name) == 0) continue;
    const std::string path = ProfilePath(profile);
    if (profile.allotment.is_zero() || context.Reported(path + ".allotment") || context.Reported(path + ".links")) {
      continue;
    }
    if (!profile.dynamic_parameter && !FitsSomeLink(context, profile)) continue;
    std::set<const Pool*> said;  // a pool linked twice is duplicate-link
    for (size_t i = 0; i < profile.links.size(); ++i) {
      const Pool* pool = context.FindPool(profile.links[i].pool);
      if (pool == nullptr || !said.insert(pool).second) continue;
      const bool daemons = ServedByDaemons(*pool);
      switch (DaemonReachOf(*pool, profile)) {
        case DaemonReach::kSpansMachines:  // under the Kubernetes glue too
          SpansMachines(context, profile, i, *pool);
          break;
        case DaemonReach::kStatedNeed:
          if (daemons) StatedNeed(context, profile, i, *pool);
          break;
        case DaemonReach::kRuns:
          break;
      }
    }
  }
}

}  // namespace rescfg
