#include "config/model.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

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
    for (auto& entry : policy.profiles) {
      if (!entry.queue) entry.queue = DefaultPolicyQueue(policy.name, entry.profile);
    }
  }
}

}  // namespace rescfg
