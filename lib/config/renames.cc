#include "config/renames.h"

namespace rescfg {
namespace {

template <typename T>
void Collect(const std::vector<T>& items, std::map<std::string, std::string, std::less<>>* out) {
  for (const auto& item : items) {
    if (item.renamed_from) out->emplace(*item.renamed_from, item.name);
  }
}

template <typename T>
const T* Named(const std::vector<T>& items, std::string_view name) {
  for (const auto& item : items) if (item.name == name) return &item;
  return nullptr;
}

template <typename T>
void Keep(const std::vector<T>& provisioned, std::map<std::string, std::string, std::less<>>* renames) {
  for (auto it = renames->begin(); it != renames->end();) {
    const bool follow = Named(provisioned, it->first) && !Named(provisioned, it->second);
    it = follow ? std::next(it) : renames->erase(it);
  }
}

void Follow(const std::map<std::string, std::string, std::less<>>& renames, std::string& name) {
  if (auto it = renames.find(name); it != renames.end()) name = it->second;
}

void Follow(const std::map<std::string, std::string, std::less<>>& renames, std::optional<std::vector<NameRef>>& refs) {
  if (refs) for (auto& ref : *refs) Follow(renames, ref.name);
}

template <typename T>
void Rename(const std::map<std::string, std::string, std::less<>>& renames, std::vector<T>& items,
            const std::vector<T>& new_items) {
  for (auto& item : items) {
    auto it = renames.find(item.name);
    if (it == renames.end()) continue;
    item.name = it->second;
    if (const T* now = Named(new_items, item.name)) item.renamed_from = now->renamed_from;
  }
}

template <typename T>
void Unknown(const std::vector<T>& provisioned, const std::vector<T>& items, const char* list, const char* what,
             const std::string& file, std::vector<Finding>* findings) {
  for (const auto& item : items) {
    if (!item.renamed_from || Named(provisioned, *item.renamed_from)) continue;
    const T* same = Named(provisioned, item.name);
    if (same && same->renamed_from == item.renamed_from) continue;  // followed since it was provisioned
    findings->push_back({"rename-unknown", Severity::kWarning, file, item.renamed_from_mark,
                         std::string(list) + "[" + item.name + "].renamedFrom",
                         std::string("the provisioned configuration has no ") + what + " '" + *item.renamed_from +
                             "': nothing to follow",
                         "remove renamedFrom"});
  }
}

}  // namespace

RenameMap RenamesOf(const Config& config) {
  RenameMap out;
  Collect(config.pools, &out.pools);
  Collect(config.profiles, &out.profiles);
  Collect(config.policies, &out.policies);
  return out;
}

RenameMap RenamesAgainst(const Config& provisioned, const Config& config) {
  RenameMap out = RenamesOf(config);
  Keep(provisioned.pools, &out.pools);
  Keep(provisioned.profiles, &out.profiles);
  Keep(provisioned.policies, &out.policies);
  return out;
}

Config FollowRenames(const Config& provisioned, const RenameMap& renames, const Config& config) {
  Config out = provisioned;
  Rename(renames.pools, out.pools, config.pools);
  Rename(renames.profiles, out.profiles, config.profiles);
  Rename(renames.policies, out.policies, config.policies);
  for (auto& pool : out.pools) {
    if (pool.execution_priority) Follow(renames.profiles, pool.execution_priority);
  }
  for (auto& profile : out.profiles) {
    for (auto& link : profile.links) Follow(renames.pools, link.pool);
    Follow(renames.policies, profile.policy_priority);
  }
  for (auto& policy : out.policies) {
    for (auto& entry : policy.profiles) Follow(renames.profiles, entry.profile);
  }
  return out;
}

std::vector<LeftQueue> QueuesLeftByRenames(const Config& config) {
  std::vector<LeftQueue> out;
  for (const Pool& pool : config.pools) {
    if (pool.renamed_from && pool.queue == pool.name) {
      out.push_back({*pool.renamed_from, pool.queue, "pools[" + pool.name + "].renamedFrom", pool.renamed_from_mark,
                     "pool " + *pool.renamed_from + " is now " + pool.name});
    }
  }
  for (const Policy& policy : config.policies) {
    for (const auto& entry : policy.profiles) {
      const Profile* profile = Named(config.profiles, entry.profile);
      if (profile == nullptr || (!policy.renamed_from && !profile->renamed_from)) continue;
      // Only a queue that follows the names moves with them.
      if (entry.queue && *entry.queue != DefaultPolicyQueue(policy.name, profile->name)) continue;
      const bool by_policy = policy.renamed_from.has_value();
      const std::string old = DefaultPolicyQueue(policy.renamed_from.value_or(policy.name),
                                                 profile->renamed_from.value_or(profile->name));
      out.push_back({old, DefaultPolicyQueue(policy.name, profile->name),
                     by_policy ? "policies[" + policy.name + "].renamedFrom" : "profiles[" + profile->name + "].renamedFrom",
                     by_policy ? policy.renamed_from_mark : profile->renamed_from_mark,
                     by_policy ? "policy " + *policy.renamed_from + " is now " + policy.name
                               : "profile " + *profile->renamed_from + " is now " + profile->name});
    }
  }
  return out;
}

void CheckRenamesKnown(const Config& provisioned, const Config& config, const std::string& file,
                       std::vector<Finding>* findings) {
  Unknown(provisioned.pools, config.pools, "pools", "pool", file, findings);
  Unknown(provisioned.profiles, config.profiles, "profiles", "profile", file, findings);
  Unknown(provisioned.policies, config.policies, "policies", "policy", file, findings);
}

}  // namespace rescfg
