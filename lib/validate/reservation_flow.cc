/// Can every reservation be honoured at the same time? A global sum is not
/// enough: two teams whose profiles only reach one small pool cannot both
/// have their reservation there, however large the other pools are. So this
/// is Hall's condition, checked as a maximum flow: source -> policy (its
/// reservation) -> every pool one of its profiles reaches -> sink (the pool's
/// size). When the flow falls short, the policies still reachable from the
/// source in the residual graph are exactly those whose reservations exceed
/// the pools they can reach; each connected group of them is one finding.

#include <algorithm>
#include <map>

#include "util/max_flow.h"
#include "validate/checks.h"

namespace rescfg {
namespace {

/// A profile reaches a linked pool when its jobs can fit there (on its
/// machines, when it has nodes).
bool Reaches(const Profile& profile, const Pool& pool) {
  return profile.dynamic_parameter || FitsEmptyPool(pool, profile.allotment);
}

struct Group {
  std::vector<int> policies, pools;  // indexes into the vectors below
};

}  // namespace

void CheckReservations(CheckContext& context) {
  const Config& config = context.config();
  std::vector<const Policy*> policies;
  for (const auto& policy : config.policies) {
    if (!policy.reserved.is_zero() && context.First(policy) == &policy) policies.push_back(&policy);
  }
  if (policies.empty()) return;
  std::vector<const Pool*> pools;
  std::map<const Pool*, int> pool_node;
  for (const auto& pool : config.pools) {
    if (context.First(pool) != &pool) continue;
    pool_node[&pool] = static_cast<int>(pools.size());
    pools.push_back(&pool);
  }
  const int source = 0, sink = 1;
  auto policy_id = [&](int i) { return 2 + i; };
  auto pool_id = [&](int i) { return 2 + static_cast<int>(policies.size()) + i; };
  MaxFlow flow(2 + static_cast<int>(policies.size() + pools.size()));

  Ticks total = 0;
  for (const Policy* policy : policies) total += policy->reserved.ticks();
  // Which pools each policy reaches, in link order, without repeats.
  std::vector<std::vector<int>> reach(policies.size());
  for (size_t i = 0; i < policies.size(); ++i) {
    flow.AddEdge(source, policy_id(static_cast<int>(i)), policies[i]->reserved.ticks());
    for (const auto& entry : policies[i]->profiles) {
      const Profile* profile = context.FindProfile(entry.profile);
      if (!profile) continue;
      for (const auto& link : profile->links) {
        const Pool* pool = context.FindPool(link.pool);
        if (!pool || !Reaches(*profile, *pool)) continue;
        int p = pool_node[pool];
        if (std::find(reach[i].begin(), reach[i].end(), p) != reach[i].end()) continue;
        reach[i].push_back(p);
        flow.AddEdge(policy_id(static_cast<int>(i)), pool_id(p), total + 1);
      }
    }
  }
  for (size_t p = 0; p < pools.size(); ++p) {
    // Reservations rest only on the capacity that is always there.
    flow.AddEdge(pool_id(static_cast<int>(p)), sink, GuaranteedOf(*pools[p]).ticks());
  }
  if (flow.Run(source, sink) >= total) return;

  // Group the short policies by the pools they share, in file order.
  std::vector<bool> side = flow.SourceSide(source);
  std::vector<std::vector<int>> reached_by(pools.size());
  for (size_t i = 0; i < policies.size(); ++i) {
    if (!side[policy_id(static_cast<int>(i))]) continue;
    for (int p : reach[i]) reached_by[p].push_back(static_cast<int>(i));
  }
  std::vector<bool> policy_done(policies.size(), false), pool_done(pools.size(), false);
  std::vector<Group> groups;
  for (size_t start = 0; start < policies.size(); ++start) {
    if (!side[policy_id(static_cast<int>(start))] || policy_done[start]) continue;
    Group group;
    std::vector<int> todo{static_cast<int>(start)};
    policy_done[start] = true;
    while (!todo.empty()) {
      int i = todo.back();
      todo.pop_back();
      group.policies.push_back(i);
      for (int p : reach[i]) {
        if (pool_done[p]) continue;
        pool_done[p] = true;
        group.pools.push_back(p);
        for (int j : reached_by[p]) {
          if (!policy_done[j]) { policy_done[j] = true; todo.push_back(j); }
        }
      }
    }
    std::sort(group.policies.begin(), group.policies.end());
    std::sort(group.pools.begin(), group.pools.end());
    groups.push_back(std::move(group));
  }

  for (const Group& group : groups) {
    Quantity reserved, capacity;
    std::vector<std::string> who, where;
    for (int i : group.policies) {
      reserved += policies[i]->reserved;
      who.push_back("'" + policies[i]->name + "' (" + policies[i]->reserved.ToString() + ")");
    }
    for (int p : group.pools) {
      const Quantity guaranteed = GuaranteedOf(*pools[p]);
      capacity += guaranteed;
      where.push_back("'" + pools[p]->name + "' (" + guaranteed.ToString() +
                      (guaranteed != pools[p]->resources ? " guaranteed" : "") + ")");
    }
    const Policy& first = *policies[group.policies.front()];
    std::string message =
        group.policies.size() == 1
            ? "policy '" + first.name + "' reserves " + reserved.ToString() + ", but "
            : "policies " + JoinNames(who) + " reserve " + reserved.ToString() + " together, but ";
    const char* their = group.policies.size() == 1 ? "its" : "their";
    message += where.empty() ? std::string(their) + " profiles reach no pool that can hold their jobs"
                             : "the pools " + std::string(their) + " profiles reach hold only " +
                                   capacity.ToString() + ": " + JoinNames(where);
    context.Error("reservations-unsatisfiable", first.reserved_mark, PolicyPath(first) + ".reserved",
                  message,
                  group.policies.size() == 1
                      ? "lower the reservation by " + (reserved - capacity).ToString() +
                            ", or link its profiles to more pools"
                      : "lower these reservations by " + (reserved - capacity).ToString() +
                            " in total, or link their profiles to more pools");
  }
}

}  // namespace rescfg
