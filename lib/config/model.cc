#include "config/model.h"

#include <algorithm>

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

std::string DefaultPolicyQueue(const std::string& policy, const std::string& profile) {
  return policy + "/" + profile;
}

void ApplyDefaults(Config& config) {
  for (auto& pool : config.pools) {
    if (pool.queue.empty()) pool.queue = pool.name;
    if (!pool.execution_priority) {
      std::vector<NameRef> order;
      for (const auto& profile : config.profiles) {
        bool linked = std::any_of(profile.links.begin(), profile.links.end(),
                                  [&](const Link& l) { return l.pool == pool.name; });
        bool seen = std::any_of(order.begin(), order.end(),
                                [&](const NameRef& r) { return r.name == profile.name; });
        if (linked && !seen) order.push_back({profile.name, {}});
      }
      pool.execution_priority = std::move(order);
    }
  }
  for (auto& profile : config.profiles) {
    if (!profile.policy_priority) {
      std::vector<NameRef> order;
      for (const auto& policy : config.policies) {
        bool uses = std::any_of(policy.profiles.begin(), policy.profiles.end(),
                                [&](const PolicyProfile& pp) { return pp.profile == profile.name; });
        bool seen = std::any_of(order.begin(), order.end(),
                                [&](const NameRef& r) { return r.name == policy.name; });
        if (uses && !seen) order.push_back({policy.name, {}});
      }
      profile.policy_priority = std::move(order);
    }
  }
  for (auto& policy : config.policies) {
    for (auto& entry : policy.profiles) {
      if (!entry.queue) entry.queue = DefaultPolicyQueue(policy.name, entry.profile);
    }
  }
}

}  // namespace rescfg
