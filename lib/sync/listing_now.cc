#include "sync/listing_now.h"

#include "clearml/queues.h"

namespace rescfg::sync {

ListingNow TaskListingNow(ApiClient& api, const std::string& task) {
  ListingNow now;
  const ApiAnswer answer =
      api.Call("queues.get_all", "{\"search_hidden\": true}");
  if (!answer.ok()) return now;
  const clearml::QueueList queues = clearml::ReadQueuesText(answer.body, "queues.get_all");
  if (!queues.findings.empty()) return now;
  now.ok = true;
  if (const auto listing = queues.ListingOf(task)) now.queue = std::string(queues.queues[listing->queue].name);
  return now;
}

}  // namespace rescfg::sync
