#include "sync/foreign_moves.h"

#include <simdjson.h>

#include <string_view>

#include "sync/task_lines.h"

namespace rescfg::sync {

ForeignMoves FindForeignMoves(const ServerSnapshot& snapshot, const clearml::QueueList& queues,
                              const clearml::Handovers& covered, size_t examples) {
  ForeignMoves found;
  constexpr std::string_view kReason = "rescfg: ";  // StatusReason (sync/move.h)
  simdjson::dom::parser parser;
  // Only a task whose text holds the reason can be one: only those are parsed.
  ForEachTaskLine(snapshot.tasks_json, [&](std::string_view line) {
    simdjson::dom::element t;
    if (line.find(kReason) == std::string_view::npos || parser.parse(line.data(), line.size()).get(t) != simdjson::SUCCESS) {
      return;
    }
    std::string_view id, status, reason, queue;
    if (t["id"].get(id) != simdjson::SUCCESS || t["status"].get(status) != simdjson::SUCCESS ||
        status != "queued" || t["status_reason"].get(reason) != simdjson::SUCCESS ||
        reason.substr(0, kReason.size()) != kReason || covered.count(std::string(id)) > 0) {
      return;
    }
    const auto listing = queues.ListingOf(id);
    if (!listing) return;
    simdjson::dom::element q;
    if (t["execution"]["queue"].get(q) != simdjson::SUCCESS) return;
    if (q.get(queue) != simdjson::SUCCESS && q["id"].get(queue) != simdjson::SUCCESS) return;
    if (queues.queues[listing->queue].id == queue) return;  // where it was enqueued: not moved
    if (found.examples.size() < examples) found.examples.emplace_back(id);
    ++found.count;
  });
  return found;
}

std::string ForeignMovesWarning(const ForeignMoves& found) {
  if (found.count == 0) return "";
  std::string ids;
  for (const std::string& id : found.examples) ids += (ids.empty() ? "" : ", ") + id;
  if (found.count > found.examples.size()) ids += ", ...";
  return std::to_string(found.count) + (found.count == 1 ? " queued task was" : " queued tasks were") +
         " moved by a rescfg sync that this journal does not know (" + ids +
         "): another sync serves this server (a copy of this state?), or this journal was reset; "
         "both give the same GPUs away: keep one sync per server";
}

}  // namespace rescfg::sync
