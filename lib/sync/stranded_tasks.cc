#include "sync/stranded_tasks.h"

#include <simdjson.h>

#include <unordered_set>

namespace rescfg::sync {

std::vector<std::string> StrandedTasks(const Config& config, const ServerSnapshot& snapshot,
                                       const clearml::QueueList& queues, const clearml::Handovers& covered,
                                       size_t limit) {
  std::vector<std::string> lines;
  std::unordered_set<std::string> policy_queues;
  for (const Policy& policy : config.policies) {
    for (const PolicyProfile& entry : policy.profiles) {
      policy_queues.insert(entry.queue.value_or(DefaultPolicyQueue(policy.name, entry.profile)));
    }
  }
  // The tasks it can be (queued, listed nowhere, not covered) are known
  // without the tasks' text; most cycles have none, and parse nothing.
  bool any = false;
  for (const auto& [id, status] : snapshot.status) {
    if (status == "queued" && !queues.ListingOf(id) && covered.count(id) == 0) {
      any = true;
      break;
    }
  }
  if (!any) return lines;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  if (parser.parse(snapshot.tasks_json).get(tasks) != simdjson::SUCCESS) return lines;
  size_t more = 0;
  for (simdjson::dom::element t : tasks) {
    std::string_view id, status, queue;
    if (t["id"].get(id) != simdjson::SUCCESS || t["status"].get(status) != simdjson::SUCCESS ||
        status != "queued" || queues.ListingOf(id) || covered.count(std::string(id)) > 0) {
      continue;
    }
    simdjson::dom::element q;
    if (t["execution"]["queue"].get(q) != simdjson::SUCCESS) continue;
    if (q.get(queue) != simdjson::SUCCESS && q["id"].get(queue) != simdjson::SUCCESS) continue;
    const clearml::Queue* known = queues.FindById(queue);
    const std::string name(known != nullptr ? known->name : queue);
    if (policy_queues.count(name) == 0) continue;
    if (lines.size() >= limit) {
      ++more;
      continue;
    }
    lines.push_back("task " + std::string(id) + " is queued for policy queue " + name +
                    " but listed in no queue, and no move of this sync covers it: no agent will take it; "
                    "enqueue it again (or dequeue it)");
  }
  if (more > 0) lines.push_back("and " + std::to_string(more) + " more queued tasks listed in no queue");
  return lines;
}

}  // namespace rescfg::sync
