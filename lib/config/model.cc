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

bool IsDefaultLinkQueue(const Config& config, const Link& link) {
  const Pool* pool = config.FindPool(link.pool);
  return link.queue.empty() || (pool != nullptr && link.queue == pool->queue);
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

/// The names of `candidates` for which `involved` holds, in file order, once
/// each: the default of executionPriority and policyPriority.
template <typename T, typename Pred>
std::vector<NameRef> NamesInFileOrder(const std::vector<T>& candidates, Pred involved) {
  std::vector<NameRef> order;
  std::unordered_set<std::string_view> seen;  // a name given twice is a validation error, listed once here
  for (const T& candidate : candidates) {
    if (involved(candidate) && seen.insert(candidate.name).second) order.push_back({candidate.name, {}});
  }
  return order;
}

}  // namespace

void ApplyDefaults(Config& config) {
  KubernetesSettings& k8s = config.kubernetes;
  if (k8s.ns.empty()) k8s.ns = KubernetesSettings::kDefaultNamespace;
  if (k8s.cohort.empty()) k8s.cohort = KubernetesSettings::kDefaultCohort;
  if (k8s.pool_label.empty()) k8s.pool_label = KubernetesSettings::kDefaultPoolLabel;
  if (k8s.gpu_resource.empty()) k8s.gpu_resource = KubernetesSettings::kDefaultGpuResource;
  for (auto& pool : config.pools) {
    if (pool.queue.empty()) pool.queue = pool.name;
    if (!pool.kubernetes.node_labels) pool.kubernetes.node_labels = DefaultNodeLabels(config, pool);
    for (auto& toleration : pool.kubernetes.tolerations) {
      if (toleration.op.empty()) toleration.op = "Equal";
    }
    if (!pool.execution_priority) {
      pool.execution_priority = NamesInFileOrder(config.profiles, [&](const Profile& profile) {
        return std::any_of(profile.links.begin(), profile.links.end(), [&](const Link& l) { return l.pool == pool.name; });
      });
    }
  }
  std::unordered_map<std::string_view, const Pool*> pools;
  for (const auto& pool : config.pools) pools.emplace(pool.name, &pool);  // the first of a name
  for (auto& profile : config.profiles) {
    for (auto& link : profile.links) {
      auto it = pools.find(link.pool);
      if (link.queue.empty() && it != pools.end()) link.queue = it->second->queue;
    }
    if (!profile.policy_priority) {
      profile.policy_priority = NamesInFileOrder(config.policies, [&](const Policy& policy) {
        return std::any_of(policy.profiles.begin(), policy.profiles.end(),
                           [&](const PolicyProfile& entry) { return entry.profile == profile.name; });
      });
    }
  }
  for (auto& policy : config.policies) {
    if (policy.kubernetes.ns.empty()) policy.kubernetes.ns = k8s.ns;
    for (auto& entry : policy.profiles) {
      if (!entry.queue) entry.queue = DefaultPolicyQueue(policy.name, entry.profile);
    }
  }
}

}  // namespace rescfg
