/// What renamedFrom adds to a JobDirectory (rescfg(5), RENAMES): a job that
/// names the old policy, profile or pool, or waits or runs in an old default
/// queue (`OldPolicy/profile`, a pool queue that was its old name), belongs
/// to the renamed object. An explicit queue keeps its value. Old names never
/// shadow a name of the configuration (validation refuses such a file).

#include "jobs/job_directory.h"

namespace rescfg {

void JobDirectory::AddRenames(const Config& config) {
  auto note = [&](std::string_view old, const std::string& text) {
    if (renamed_notes.find(old)) return;
    renamed_notes.emplace(default_queues.emplace_back(old), static_cast<uint32_t>(rename_notes.size()));
    rename_notes.push_back(text);
  };
  auto old_name = [](const auto& item) { return item.renamed_from ? *item.renamed_from : item.name; };
  for (uint32_t i = 0; i < config.pools.size(); ++i) {
    const Pool& pool = config.pools[i];
    if (!pool.renamed_from || pools.find(*pool.renamed_from)) continue;
    const std::string text = "pool " + *pool.renamed_from + " is now " + pool.name;
    pools.emplace(default_queues.emplace_back(*pool.renamed_from), i);
    note(*pool.renamed_from, text);
    // Its queue followed its name: agents may still serve the old one.
    if (pool.queue == pool.name && !pool_queues.find(*pool.renamed_from) && !queues.find(*pool.renamed_from)) {
      pool_queues.emplace(default_queues.emplace_back(*pool.renamed_from), i);
    }
  }
  for (uint32_t r = 0; r < config.profiles.size(); ++r) {
    const Profile& profile = config.profiles[r];
    if (!profile.renamed_from || profiles.find(*profile.renamed_from)) continue;
    profiles.emplace(default_queues.emplace_back(*profile.renamed_from), r);
    note(*profile.renamed_from, "profile " + *profile.renamed_from + " is now " + profile.name);
  }
  for (uint32_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    if (policy.renamed_from && !policies.find(*policy.renamed_from)) {
      policies.emplace(default_queues.emplace_back(*policy.renamed_from), i);
      note(*policy.renamed_from, "policy " + *policy.renamed_from + " is now " + policy.name);
    }
    for (const auto& entry : policy.profiles) {
      const uint32_t* profile = profiles.find(entry.profile);
      if (profile == nullptr) continue;
      // Only a queue that follows the names moves with them.
      const std::string now = DefaultPolicyQueue(policy.name, entry.profile);
      if (entry.queue && *entry.queue != now) continue;
      const std::string old = DefaultPolicyQueue(old_name(policy), old_name(config.profiles[*profile]));
      if (old == now || queues.find(old) || pool_queues.find(old)) continue;
      queues.emplace(default_queues.emplace_back(old), QueueTarget{i, *profile});
      std::string text;
      if (policy.renamed_from) text = "policy " + *policy.renamed_from + " is now " + policy.name;
      if (const Profile& p = config.profiles[*profile]; p.renamed_from) {
        text += (text.empty() ? "" : "; ") + ("profile " + *p.renamed_from + " is now " + p.name);
      }
      note(old, text);
    }
  }
}

}  // namespace rescfg
