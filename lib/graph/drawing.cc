#include "graph/drawing.h"

#include <algorithm>

#include "config/human_amount.h"
#include "util/edit_distance.h"

namespace rescfg {
namespace {

template <typename T>
size_t IndexOf(const std::vector<T>& items, const std::string& name) {
  return static_cast<size_t>(
      std::find_if(items.begin(), items.end(), [&](const T& x) { return x.name == name; }) - items.begin());
}

bool Listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const std::vector<NameRef>& Order(const std::optional<std::vector<NameRef>>& order) {
  static const std::vector<NameRef> kNone;
  return order ? *order : kNone;
}

/// 1-based rank of `name` in a priority list; 0 when absent.
size_t RankOf(const std::optional<std::vector<NameRef>>& order, const std::string& name) {
  const auto& list = Order(order);
  for (size_t i = 0; i < list.size(); ++i) if (list[i].name == name) return i + 1;
  return 0;
}

std::string PolicyQueue(const Policy& policy, const std::string& profile) {
  for (const auto& entry : policy.profiles) {
    if (entry.profile == profile) return PolicyQueueOf(policy, entry);
  }
  return DefaultPolicyQueue(policy.name, profile);
}

/// The queue of `profile`'s link to `pool`: the link's, or the pool's.
std::string LinkQueue(const Profile& profile, const Pool& pool) {
  for (const auto& link : profile.links) {
    if (link.pool == pool.name) return link.queue.empty() ? pool.queue : link.queue;
  }
  return pool.queue;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

/// What is kept of each list under a filter (see GraphFilter).
struct Selection {
  std::vector<bool> policies, profiles, pools;
};

Selection Select(const Config& config, const GraphFilter& filter) {
  Selection s;
  const bool by_policy = !filter.policies.empty(), by_pool = !filter.pools.empty();
  for (const auto& policy : config.policies) s.policies.push_back(!by_policy || Listed(filter.policies, policy.name));
  for (const auto& pool : config.pools) s.pools.push_back(!by_pool || Listed(filter.pools, pool.name));
  for (const auto& profile : config.profiles) {
    bool used = !by_policy, linked = !by_pool;
    for (size_t i = 0; i < config.policies.size(); ++i) {
      for (const auto& entry : config.policies[i].profiles) used = used || (s.policies[i] && entry.profile == profile.name);
    }
    for (const auto& link : profile.links) {
      size_t pool = IndexOf(config.pools, link.pool);
      linked = linked || (pool < config.pools.size() && s.pools[pool]);
    }
    s.profiles.push_back(used && linked);
  }
  // What the listed side reaches: the pools a kept profile links, the
  // policies that use a kept profile.
  auto kept_profile = [&](const std::string& name) {
    size_t i = IndexOf(config.profiles, name);
    return i < config.profiles.size() && s.profiles[i];
  };
  if (by_policy && !by_pool) {
    for (size_t k = 0; k < config.pools.size(); ++k) {
      s.pools[k] = false;
      for (const auto& profile : config.profiles) {
        if (!kept_profile(profile.name)) continue;
        for (const auto& link : profile.links) s.pools[k] = s.pools[k] || link.pool == config.pools[k].name;
      }
    }
  }
  if (by_pool && !by_policy) {
    for (size_t i = 0; i < config.policies.size(); ++i) {
      s.policies[i] = false;
      for (const auto& entry : config.policies[i].profiles) s.policies[i] = s.policies[i] || kept_profile(entry.profile);
    }
  }
  return s;
}

/// What a jobs snapshot says about one pool or policy.
struct Usage {
  Quantity running, assigned;  ///< what running jobs hold, what the pass assigns now
  size_t pending = 0;
};

void AddUsage(const Config& config, const ScheduleReport& schedule, Drawing* d) {
  std::vector<Usage> pools(config.pools.size()), policies(config.policies.size());
  for (const auto& job : schedule.jobs) {
    if (job.status == JobStatus::kRunning || job.status == JobStatus::kAssigned) {
      size_t pool = IndexOf(config.pools, std::string(*job.pool));
      if (pool < pools.size() && job.resources) {
        (job.status == JobStatus::kRunning ? pools[pool].running : pools[pool].assigned) += *job.resources;
      }
    }
    if (job.status == JobStatus::kPending && job.policy) {
      size_t policy = IndexOf(config.policies, std::string(*job.policy));
      if (policy < policies.size()) ++policies[policy].pending;
    }
  }
  for (auto& node : d->pools) {
    const size_t k = node.index;
    const Pool& pool = config.pools[k];
    Quantity in_use = pools[k].running + pools[k].assigned;
    std::string used = HumanAmount(in_use, pool);  // "34 of 56 slices" already says the size
    if (used.find(" slices") == std::string::npos) used += " / " + HumanAmount(pool.resources);
    node.lines.push_back("in use " + used + ": " + HumanAmount(pools[k].running) + " running, " +
                         HumanAmount(pools[k].assigned) + " assigned");
    if (pool.nodes && k < schedule.pools.size()) {
      const PoolSummary& summary = schedule.pools[k];
      std::string each;
      for (const Quantity& free : summary.machine_free) each += (each.empty() ? "" : " ") + HumanAmount(free);
      node.lines.push_back(std::string("free per machine") + (pool.nodes->names_from_workers ? "" : " (estimated)") +
                           ": " + each + " (largest " + HumanAmount(summary.largest_free) + ")");
    }
  }
  for (auto& node : d->policies) {
    const size_t i = node.index;
    Quantity used;
    for (const auto& summary : schedule.policies) if (summary.name == config.policies[i].name) used = summary.used;
    std::string line = "used " + HumanAmount(used);
    if (policies[i].pending > 0) {
      line += ", " + std::to_string(policies[i].pending) + (policies[i].pending == 1 ? " job" : " jobs") + " pending";
    }
    node.lines.push_back(line);
  }
}

/// Whether a drawn pool's machines are placed by Kubernetes or an autoscaler (`nodes.names: none`).
bool AnyMachinesEstimated(const Config& config, const Drawing& d) {
  return std::any_of(d.pools.begin(), d.pools.end(), [&](const GraphNode& node) {
    const Pool& pool = config.pools[node.index];
    return pool.nodes && !pool.nodes->names_from_workers;
  });
}

/// A node of `kind` ("pool") for the entry at `index` of its list.
GraphNode NewNode(const char* kind, size_t index, const std::string& title) {
  GraphNode node;
  node.id = kind + std::to_string(index);
  node.index = index;
  node.title = title;
  return node;
}

}  // namespace

std::string CheckGraphFilter(const Config& config, const GraphFilter& filter) {
  auto check = [](const std::vector<std::string>& wanted, const auto& items, const char* what) {
    std::vector<std::string> names(items.size());
    std::transform(items.begin(), items.end(), names.begin(), [](const auto& item) { return item.name; });
    for (const auto& name : wanted) {
      if (Listed(names, name)) continue;
      std::string message = std::string("there is no ") + what + " named '" + name + "'";
      if (std::string close = ClosestMatch(name, names); !close.empty()) message += " (did you mean '" + close + "'?)";
      return message;
    }
    return std::string();
  };
  std::string error = check(filter.policies, config.policies, "policy");
  return error.empty() ? check(filter.pools, config.pools, "pool") : error;
}

Drawing Draw(const Config& config, const GraphFilter& filter, const ScheduleReport* schedule) {
  Drawing d;
  const Selection keep = Select(config, filter);
  for (size_t k = 0; k < config.pools.size(); ++k) {
    if (!keep.pools[k]) continue;
    const Pool& pool = config.pools[k];
    GraphNode node = NewNode("pool", k, pool.name);
    node.lines.push_back(HumanAmount(pool.resources) + " GPUs, queue " + pool.queue);
    if (pool.nodes) {
      node.lines.push_back(std::to_string(pool.nodes->count) + " machines of " + std::to_string(pool.nodes->gpus) +
                           " GPUs" + (pool.nodes->names_from_workers ? "" : " (machines estimated)"));
    }
    if (GuaranteedOf(pool) != pool.resources) {
      node.lines.push_back(HumanAmount(GuaranteedOf(pool)) + " guaranteed, the rest on demand");
    }
    if (pool.paused) node.lines.push_back("paused: drained, nothing new starts");
    node.paused = pool.paused;
    node.rows_title = "execution priority";
    const auto& order = Order(pool.execution_priority);
    for (size_t r = 0; r < order.size(); ++r) {
      size_t profile = IndexOf(config.profiles, order[r].name);
      std::string text = "execution " + std::to_string(r + 1) + ": " + order[r].name;
      if (profile < config.profiles.size()) text += ", queue " + LinkQueue(config.profiles[profile], pool);
      node.rows.push_back({"x" + std::to_string(r), text, std::to_string(r + 1) + ". " + order[r].name});
    }
    d.pools.push_back(std::move(node));
  }
  for (size_t j = 0; j < config.profiles.size(); ++j) {
    if (!keep.profiles[j]) continue;
    const Profile& profile = config.profiles[j];
    GraphNode node = NewNode("profile", j, profile.name);
    node.lines.push_back(profile.dynamic_parameter
                             ? *profile.dynamic_parameter + " (default " + HumanAmount(profile.allotment) + ")"
                             : "allotment " + HumanAmount(profile.allotment));
    if (profile.queueing == Queueing::kStrictFIFO) node.lines.push_back("StrictFIFO");
    node.rows_title = "policy priority";
    const auto& order = Order(profile.policy_priority);
    for (size_t r = 0; r < order.size(); ++r) {
      node.rows.push_back({"in" + std::to_string(r), "priority " + std::to_string(r + 1) + ": " + order[r].name,
                           std::to_string(r + 1) + ". " + order[r].name});
    }
    node.out_rows_title = "links";
    for (size_t l = 0; l < profile.links.size(); ++l) {
      const Link& link = profile.links[l];
      std::string text = "link " + std::to_string(l + 1) + ": " + link.pool;
      if (!link.name.empty()) text += " (" + link.name + ")";
      node.out_rows.push_back({"l" + std::to_string(l), text, std::to_string(l + 1) + ". " + link.pool});
      size_t k = IndexOf(config.pools, link.pool);
      if (k == config.pools.size() || !keep.pools[k]) continue;
      const Pool& target = config.pools[k];
      size_t exec = RankOf(target.execution_priority, profile.name);
      std::string label = "link " + std::to_string(l + 1);
      if (!link.name.empty()) label += ": " + link.name;
      if (exec > 0) label += ", execution " + std::to_string(exec);
      if (!link.queue.empty() && link.queue != target.queue) label += ", queue " + link.queue;
      d.edges.push_back({node.id, "l" + std::to_string(l), "pool" + std::to_string(k),
                         exec > 0 ? "x" + std::to_string(exec - 1) : "", label, -1});
    }
    d.profiles.push_back(std::move(node));
  }
  // Policy edges come first, grouped by profile, in each profile's priority order.
  std::vector<GraphEdge> policy_edges;
  for (size_t j = 0; j < config.profiles.size(); ++j) {
    if (!keep.profiles[j]) continue;
    const Profile& profile = config.profiles[j];
    const auto& order = Order(profile.policy_priority);
    for (size_t r = 0; r < order.size(); ++r) {
      size_t i = IndexOf(config.policies, order[r].name);
      if (i == config.policies.size() || !keep.policies[i]) continue;
      const Policy& policy = config.policies[i];
      size_t row = 0;
      while (row < policy.profiles.size() && policy.profiles[row].profile != profile.name) ++row;
      policy_edges.push_back({"policy" + std::to_string(i), "q" + std::to_string(row), "profile" + std::to_string(j),
                              "in" + std::to_string(r),
                              "priority " + std::to_string(r + 1) + ", queue " + PolicyQueue(policy, profile.name),
                              static_cast<int>(i)});
    }
  }
  d.edges.insert(d.edges.begin(), policy_edges.begin(), policy_edges.end());
  for (size_t i = 0; i < config.policies.size(); ++i) {
    if (!keep.policies[i]) continue;
    const Policy& policy = config.policies[i];
    GraphNode node = NewNode("policy", i, policy.name);
    node.color = static_cast<int>(i);
    node.lines.push_back("reserved " + HumanAmount(policy.reserved) + ", limit " +
                         (policy.limit ? HumanAmount(*policy.limit) : std::string("none")));
    if (policy.paused) node.lines.push_back("paused: frozen, none of its jobs starts");
    node.paused = policy.paused;
    node.out_rows_title = "profiles";
    for (size_t row = 0; row < policy.profiles.size(); ++row) {
      const std::string& profile = policy.profiles[row].profile;
      node.out_rows.push_back({"q" + std::to_string(row), profile + ", queue " + PolicyQueue(policy, profile), profile});
    }
    d.policies.push_back(std::move(node));
  }

  if (!config.enabled) d.notes.push_back("resource management is disabled (enabled: false): nothing is placed");
  if (!filter.policies.empty() || !filter.pools.empty()) {
    std::string view = "only ";
    if (!filter.policies.empty()) view += (filter.policies.size() == 1 ? "policy " : "policies ") + JoinNames(filter.policies);
    if (!filter.policies.empty() && !filter.pools.empty()) view += " on ";
    if (!filter.pools.empty()) view += (filter.pools.size() == 1 ? "pool " : "pools ") + JoinNames(filter.pools);
    d.notes.push_back(view + ", and what connects " + (filter.policies.size() + filter.pools.size() == 1 ? "it" : "them"));
  }
  if (schedule) AddUsage(config, *schedule, &d);

  d.legend = {
      "priority N: the policy's rank in the profile's policyPriority; of the profile's waiting jobs, rank 1's are placed first",
      "link N: the pool's rank in the profile's links; a job goes to the first linked pool that admits it",
      "execution N: the profile's rank in the pool's executionPriority; in that pool, rank 1's jobs are placed first",
      "queue: on a policy, where its users enqueue; on a pool, the queue its agents serve for that profile",
  };
  if (schedule) {
    d.legend.push_back("in use X / SIZE: held by running jobs plus assigned now by the pass; used: the same, per policy");
  }
  if (AnyMachinesEstimated(config, d)) {
    d.legend.push_back("estimated: Kubernetes or an autoscaler places the pool's machines (nodes.names: none); running "
                       "jobs are counted where a new job of their need would go");
  }
  return d;
}

}  // namespace rescfg
