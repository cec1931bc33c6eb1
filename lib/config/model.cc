#include "config/model.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "config/k8s_names.h"

namespace rescfg {

const char* QueueingName(Queueing q) {
  return q == Queueing::kStrictFIFO ? "StrictFIFO" : "BestEffortFIFO";
}

const char* SeverityName(Severity s) { return s == Severity::kError ? "error" : "warning"; }

namespace {
template <typename T>
const T* FindByName(const std::vector<T>& items, std::string_view name) {
  for (const auto& item : items) if (item.name == name) return &item;
  return nullptr;
}
}  // namespace

const Pool* Config::FindPool(std::string_view name) const { return FindByName(pools, name); }
const Profile* Config::FindProfile(std::string_view name) const { return FindByName(profiles, name); }
const Policy* Config::FindPolicy(std::string_view name) const { return FindByName(policies, name); }

PoolQueues::PoolQueues(const Config& config) {
  for (const Pool& pool : config.pools) queue_of_.emplace(pool.name, pool.queue);
}

bool PoolQueues::IsDefault(const Link& link) const {
  if (link.queue.empty()) return true;
  auto it = queue_of_.find(link.pool);
  return it != queue_of_.end() && link.queue == it->second;
}

bool FitsEmptyPool(const Pool& pool, Quantity need) {
  if (!pool.nodes) return need <= pool.resources;
  const Ticks machine = Quantity::Units(pool.nodes->gpus).ticks();
  if (need.ticks() <= machine) return true;
  return need.ticks() % machine == 0 && need.ticks() / machine <= pool.nodes->count;
}

std::vector<KubernetesLabel> DefaultNodeLabels(const Config& config, const Pool& pool) {
  return {{config.kubernetes.pool_label, Dns1123Label(pool.name), {}}};
}

bool IsDefaultPoolKubernetes(const Config& config, const Pool& pool) {
  const PoolKubernetes& k = pool.kubernetes;
  return (!k.node_labels || *k.node_labels == DefaultNodeLabels(config, pool)) && k.node_taints.empty() &&
         k.tolerations.empty();
}

bool IsDefaultPolicyNamespace(const Config& config, const Policy& policy) {
  return policy.kubernetes.ns.empty() || policy.kubernetes.ns == config.kubernetes.ns;
}

std::string DefaultPolicyQueue(const std::string& policy, const std::string& profile) {
  return policy + "/" + profile;
}

namespace {

/// Who is involved with whom, in file order, each once: the linked profiles
/// of every pool, the using policies of every profile — the defaults of
/// executionPriority and policyPriority. One walk over the links, not one
/// per pool, so large configurations default in linear time.
class Involved {
 public:
  explicit Involved(size_t owners) : names_(owners), seen_(owners) {}
  void Add(size_t owner, const std::string& name) {
    // A name given twice is a validation error; it is listed once here.
    if (seen_[owner].insert(name).second) names_[owner].push_back({name, {}});
  }
  const std::vector<NameRef>& Of(size_t owner) const { return names_[owner]; }

 private:
  std::vector<std::vector<NameRef>> names_;
  std::vector<std::unordered_set<std::string_view>> seen_;
};

}  // namespace

void ApplyDefaults(Config& config) {
  KubernetesSettings& k8s = config.kubernetes;
  if (k8s.ns.empty()) k8s.ns = KubernetesSettings::kDefaultNamespace;
  if (k8s.cohort.empty()) k8s.cohort = KubernetesSettings::kDefaultCohort;
  if (k8s.pool_label.empty()) k8s.pool_label = KubernetesSettings::kDefaultPoolLabel;
  if (k8s.gpu_resource.empty()) k8s.gpu_resource = KubernetesSettings::kDefaultGpuResource;
  // The first pool and profile of each name (later ones are duplicate-name errors).
  std::unordered_map<std::string_view, size_t> pool_index, profile_index;
  for (size_t x = 0; x < config.pools.size(); ++x) pool_index.emplace(config.pools[x].name, x);
  for (size_t r = 0; r < config.profiles.size(); ++r) profile_index.emplace(config.profiles[r].name, r);
  Involved linked(config.pools.size()), using_policies(config.profiles.size());
  for (const auto& profile : config.profiles) {
    for (const auto& link : profile.links) {
      if (auto it = pool_index.find(link.pool); it != pool_index.end()) linked.Add(it->second, profile.name);
    }
  }
  for (const auto& policy : config.policies) {
    for (const auto& entry : policy.profiles) {
      if (auto it = profile_index.find(entry.profile); it != profile_index.end()) {
        using_policies.Add(it->second, policy.name);
      }
    }
  }
  for (size_t x = 0; x < config.pools.size(); ++x) {
    Pool& pool = config.pools[x];
    if (pool.queue.empty()) pool.queue = pool.name;
    if (!pool.kubernetes.node_labels) pool.kubernetes.node_labels = DefaultNodeLabels(config, pool);
    for (auto& toleration : pool.kubernetes.tolerations) {
      if (toleration.op.empty()) toleration.op = "Equal";
    }
    // A later pool of the same name gets the first one's list.
    if (!pool.execution_priority) pool.execution_priority = linked.Of(pool_index.at(pool.name));
  }
  for (size_t r = 0; r < config.profiles.size(); ++r) {
    Profile& profile = config.profiles[r];
    for (auto& link : profile.links) {
      auto it = pool_index.find(link.pool);
      if (link.queue.empty() && it != pool_index.end()) link.queue = config.pools[it->second].queue;
    }
    if (!profile.policy_priority) profile.policy_priority = using_policies.Of(profile_index.at(profile.name));
  }
  for (auto& policy : config.policies) {
    if (policy.kubernetes.ns.empty()) policy.kubernetes.ns = k8s.ns;
    for (auto& entry : policy.profiles) {
      if (!entry.queue) entry.queue = DefaultPolicyQueue(policy.name, entry.profile);
    }
  }
}

}  // namespace rescfg
