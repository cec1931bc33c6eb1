#include "schedule/context.h"

#include <map>
#include <string_view>

namespace rescfg {

ScheduleContext::ScheduleContext(const Config& c)
    : config(c), pool_count(c.pools.size()), profile_count(c.profiles.size()), policy_count(c.policies.size()) {
  std::map<std::string_view, uint32_t> pool_index, profile_index, policy_index;
  for (uint32_t i = 0; i < pool_count; ++i) pool_index.emplace(c.pools[i].name, i);
  for (uint32_t i = 0; i < profile_count; ++i) profile_index.emplace(c.profiles[i].name, i);
  for (uint32_t i = 0; i < policy_count; ++i) policy_index.emplace(c.policies[i].name, i);

  for (const auto& pool : c.pools) {
    pool_size.push_back(pool.resources);
    pool_paused.push_back(pool.paused);
  }
  // Unranked entries sort last; a valid configuration has none.
  exec_rank_.assign(pool_count * profile_count, UINT32_MAX);
  policy_rank_.assign(profile_count * policy_count, UINT32_MAX);
  for (uint32_t x = 0; x < pool_count; ++x) {
    const auto& order = c.pools[x].execution_priority;
    if (!order) continue;
    for (uint32_t rank = 0; rank < order->size(); ++rank) {
      auto it = profile_index.find((*order)[rank].name);
      if (it != profile_index.end()) exec_rank_[x * profile_count + it->second] = rank;
    }
  }
  for (uint32_t r = 0; r < profile_count; ++r) {
    const Profile& profile = c.profiles[r];
    std::vector<uint32_t> pools;
    Quantity largest;
    for (const auto& link : profile.links) {
      auto it = pool_index.find(link.pool);
      if (it == pool_index.end()) continue;
      pools.push_back(it->second);
      if (pool_size[it->second] > largest) largest = pool_size[it->second];
    }
    bool all_paused = true;
    for (uint32_t x : pools) all_paused = all_paused && pool_paused[x];
    all_links_paused.push_back(all_paused);
    bool nodes = false;
    for (uint32_t x : pools) nodes = nodes || c.pools[x].nodes.has_value();
    links_nodes.push_back(nodes);
    links.push_back(std::move(pools));
    largest_linked_pool.push_back(largest);
    strict_fifo.push_back(profile.queueing == Queueing::kStrictFIFO);
    if (profile.policy_priority) {
      for (uint32_t rank = 0; rank < profile.policy_priority->size(); ++rank) {
        auto it = policy_index.find((*profile.policy_priority)[rank].name);
        if (it != policy_index.end()) policy_rank_[r * policy_count + it->second] = rank;
      }
    }
  }
  for (const auto& policy : c.policies) {
    reserved.push_back(policy.reserved);
    limit.push_back(policy.limit ? *policy.limit : Unlimited());
    policy_paused.push_back(policy.paused);
  }
  queues_of_policy.resize(policy_count);
}

bool ScheduleContext::FitsSomeLinkedPool(uint32_t profile, Quantity need) const {
  if (!links_nodes[profile]) return need <= largest_linked_pool[profile];
  for (uint32_t x : links[profile]) {
    if (FitsEmptyPool(config.pools[x], need)) return true;
  }
  return false;
}

}  // namespace rescfg
