#include "export/kueue_priority.h"

#include <algorithm>
#include <map>
#include <queue>

namespace rescfg {
namespace {

/// One order of all profiles that follows every pool's executionPriority
/// where they agree: a topological order of "listed right before" by
/// file order, and on a conflict the first profile in file order left.
std::vector<size_t> MergedOrder(const Config& config, const std::map<std::string, size_t>& index) {
  const size_t n = config.profiles.size();
  std::vector<std::vector<size_t>> after(n);
  std::vector<size_t> before(n, 0);
  for (const Pool& pool : config.pools) {
    const auto& order = pool.execution_priority.value_or(std::vector<NameRef>{});
    for (size_t i = 1; i < order.size(); ++i) {
      auto a = index.find(order[i - 1].name), b = index.find(order[i].name);
      if (a == index.end() || b == index.end()) continue;
      after[a->second].push_back(b->second);
      ++before[b->second];
    }
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i) if (before[i] == 0) ready.push(i);
  std::vector<bool> done(n, false);
  std::vector<size_t> order;
  size_t next_forced = 0;
  while (order.size() < n) {
    size_t pick;
    if (!ready.empty()) {
      pick = ready.top();
      ready.pop();
      if (done[pick]) continue;
    } else {
      while (done[next_forced]) ++next_forced;  // a conflict: the first left in file order
      pick = next_forced;
    }
    done[pick] = true;
    order.push_back(pick);
    for (size_t b : after[pick]) {
      if (!done[b] && --before[b] == 0) ready.push(b);
    }
  }
  return order;
}

std::string Join(const std::vector<std::string>& items, size_t most) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < most; ++i) out += (i ? ", " : "") + items[i];
  if (items.size() > most) out += " and " + std::to_string(items.size() - most) + " more";
  return out;
}

}  // namespace

KueuePriorities RankPolicyQueues(const Config& config, const std::vector<std::vector<std::string>>& names,
                                 std::vector<ExportFinding>* findings) {
  KueuePriorities result;
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < config.profiles.size(); ++i) index.emplace(config.profiles[i].name, i);
  const std::vector<size_t> order = MergedOrder(config, index);
  std::vector<size_t> rank(config.profiles.size());
  for (size_t r = 0; r < order.size(); ++r) {
    rank[order[r]] = r;
    result.profile_order.push_back(config.profiles[order[r]].name);
  }

  // Every policy queue, ordered by (profile rank, policy rank in it).
  struct Entry { size_t profile_rank, policy_rank, policy, slot; };
  std::vector<Entry> entries;
  result.values.resize(config.policies.size());
  std::map<std::pair<std::string, std::string>, size_t> policy_rank;  // (profile, policy) -> rank
  for (const Profile& profile : config.profiles) {
    const auto& list = profile.policy_priority.value_or(std::vector<NameRef>{});
    for (size_t r = 0; r < list.size(); ++r) policy_rank.emplace(std::make_pair(profile.name, list[r].name), r);
  }
  for (size_t p = 0; p < config.policies.size(); ++p) {
    const Policy& policy = config.policies[p];
    result.values[p].assign(policy.profiles.size(), 0);
    for (size_t j = 0; j < policy.profiles.size(); ++j) {
      auto it = index.find(policy.profiles[j].profile);
      auto pr = policy_rank.find({policy.profiles[j].profile, policy.name});
      entries.push_back({it == index.end() ? order.size() : rank[it->second],
                         pr == policy_rank.end() ? config.policies.size() : pr->second, p, j});
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.profile_rank, a.policy_rank) < std::tie(b.profile_rank, b.policy_rank);
  });
  for (size_t i = 0; i < entries.size(); ++i) {
    result.values[entries[i].policy][entries[i].slot] = static_cast<int32_t>(entries.size() - i);
  }

  for (const Pool& pool : config.pools) {
    const auto& list = pool.execution_priority.value_or(std::vector<NameRef>{});
    if (list.size() < 2) continue;
    std::vector<std::string> listed;
    bool agrees = true;
    for (size_t i = 0; i < list.size(); ++i) {
      listed.push_back(list[i].name);
      auto a = index.find(list[i].name);
      if (i > 0 && a != index.end()) {
        auto b = index.find(list[i - 1].name);
        agrees &= b == index.end() || rank[b->second] < rank[a->second];
      }
    }
    std::string message = "Kueue cannot order workloads per flavor: pool '" + pool.name + "' favours " +
                          Join(listed, 8) +
                          "; the export gives their policy queues WorkloadPriorityClasses in that order, which "
                          "hold in every pool, and which Kueue weighs only after how near each workload's quota is "
                          "in the Cohort tree";
    if (!agrees) {
      message += ", and other pools order these profiles otherwise: the classes follow " +
                 Join(result.profile_order, 8);
    }
    findings->push_back({"pools[" + pool.name + "].executionPriority",
                         pool.execution_priority_mark.line > 0 ? pool.execution_priority_mark : pool.mark, message,
                         agrees ? "" : "give the pools one order of the profiles they share",
                         "kueue-execution-priority"});
  }

  std::map<std::string, size_t> policy_index;
  for (size_t p = 0; p < config.policies.size(); ++p) policy_index.emplace(config.policies[p].name, p);
  for (const Profile& profile : config.profiles) {
    const auto& list = profile.policy_priority.value_or(std::vector<NameRef>{});
    if (list.size() < 2) continue;
    std::vector<std::string> classes;
    for (const NameRef& ref : list) {
      auto it = policy_index.find(ref.name);
      if (it == policy_index.end()) continue;
      const Policy& policy = config.policies[it->second];
      for (size_t j = 0; j < policy.profiles.size(); ++j) {
        if (policy.profiles[j].profile != profile.name) continue;
        classes.push_back(names[it->second][j] + " (" + std::to_string(result.values[it->second][j]) + ")");
      }
    }
    findings->push_back({"profiles[" + profile.name + "].policyPriority",
                         profile.policy_priority_mark.line > 0 ? profile.policy_priority_mark : profile.mark,
                         "Kueue's priority is not strict: in each scheduling cycle it admits first the workloads "
                         "whose quota is nearest in the Cohort tree (a policy's own reservation first), and only then "
                         "the higher priority, so a later policy of '" + profile.name +
                             "' may be admitted first; the order is approximated by the WorkloadPriorityClasses " +
                             Join(classes, 4),
                         "", "kueue-policy-priority"});
  }
  return result;
}

}  // namespace rescfg
