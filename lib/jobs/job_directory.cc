#include "jobs/job_directory.h"

namespace rescfg {

JobDirectory::JobDirectory(const Config& config)
    : pools(config.pools.size()), profiles(config.profiles.size()), policies(config.policies.size()),
      profile_count(config.profiles.size()), allowed(FlatPairs(config)) {
  for (uint32_t i = 0; i < config.pools.size(); ++i) pools.emplace(config.pools[i].name, i);
  for (uint32_t i = 0; i < config.profiles.size(); ++i) profiles.emplace(config.profiles[i].name, i);
  for (uint32_t i = 0; i < config.policies.size(); ++i) {
    policies.emplace(config.policies[i].name, i);
    for (const auto& entry : config.policies[i].profiles) {
      const uint32_t* profile = profiles.find(entry.profile);
      if (profile == nullptr) continue;
      std::string_view queue;
      if (entry.queue) {
        queue = *entry.queue;
      } else {
        queue = default_queues.emplace_back(PolicyQueueOf(config.policies[i], entry));
      }
      queues.emplace(queue, QueueTarget{i, *profile});
      if (allowed.empty()) {
        allowed_pairs.insert(Pair(i, *profile));
      } else {
        allowed[size_t(i) * profile_count + *profile] = true;
      }
    }
  }
  // Pool and link queues (rescfg(5), CONFIGURATION): each belongs to one pool; a ClearML
  // task running from one is placed there (rescfg(5), JOBS FILE, ClearML task snapshots).
  for (uint32_t x = 0; x < config.pools.size(); ++x) pool_queues.emplace(config.pools[x].queue, x);
  for (uint32_t r = 0; r < config.profiles.size(); ++r) {
    for (const Link& link : config.profiles[r].links) {
      const uint32_t* pool = pools.find(link.pool);
      if (pool == nullptr) continue;
      pool_queues.emplace(link.queue, *pool);
      const uint32_t* served = queue_profiles.find(link.queue);
      if (served == nullptr) {
        queue_profiles.emplace(link.queue, static_cast<uint32_t>(served_by.size()));
        served_by.push_back({r});
      } else if (served_by[*served].back() != r) {
        served_by[*served].push_back(r);
      }
    }
  }
  AddRenames(config);
}

}  // namespace rescfg
