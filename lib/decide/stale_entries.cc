#include "decide/stale_entries.h"

#include <unordered_map>

namespace rescfg {

bool StaleStatus(std::string_view status) { return status != "queued" && status != "in_progress"; }

std::vector<StaleEntry> StaleEntries(const Config& config, const clearml::QueueList& queues,
                                     const std::function<std::string_view(std::string_view task)>& status_of) {
  std::unordered_map<std::string_view, std::string_view> pool_of;  // queue name -> pool
  for (const Pool& pool : config.pools) pool_of.emplace(pool.queue, pool.name);
  for (const Profile& profile : config.profiles) {
    for (const Link& link : profile.links) pool_of.emplace(link.queue, link.pool);
  }
  std::vector<StaleEntry> stale;
  for (const auto& [task, listing] : queues.entries()) {
    const clearml::Queue& queue = queues.queues[listing.queue];
    auto pool = pool_of.find(queue.name);
    if (pool == pool_of.end() || !StaleStatus(status_of(task))) continue;
    stale.push_back({task, &queue, pool->second});
  }
  return stale;
}

std::string StaleEntryGuard(std::string_view status_now) {
  if (StaleStatus(status_now)) return "";
  return "its status is " + std::string(status_now) + " now: queued or running again, left alone";
}

}  // namespace rescfg
