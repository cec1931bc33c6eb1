#include "sync/enqueue_evidence.h"

#include <simdjson.h>

#include <unordered_map>

#include "util/flat_record.h"
#include "sync/move.h"

namespace rescfg::sync {

TaskStatusLook LookAtTaskStatus(ApiClient& api, const std::string& task) {
  TaskStatusLook look;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  const char* fields = "\"id\", \"status\", \"status_reason\", \"status_changed\"";
  if (!GetOneTask(api, task, fields, parser, &tasks)) return look;
  look.ok = true;
  for (simdjson::dom::element t : tasks) {
    std::string_view id, text;
    if (t["id"].get(id) != simdjson::SUCCESS || id != task) continue;
    look.found = true;
    if (t["status"].get(text) == simdjson::SUCCESS) look.status = std::string(text);
    if (t["status_reason"].get(text) == simdjson::SUCCESS) look.status_reason = std::string(text);
    if (t["status_changed"].get(text) == simdjson::SUCCESS) look.status_changed = std::string(text);
  }
  return look;
}

EnqueueEvidence JudgeEnqueue(const MoveIntent& m, const TaskStatusLook& look) {
  if (!look.ok) return EnqueueEvidence::kUnanswered;
  if (!look.found || look.status != "queued" || m.changed.empty() || look.status_changed.empty()) {
    return EnqueueEvidence::kCannotTell;
  }
  if (look.status_changed == m.changed) return EnqueueEvidence::kNotEnqueued;
  if (look.status_reason == StatusReason(m)) return EnqueueEvidence::kEnqueued;
  return EnqueueEvidence::kCannotTell;  // someone else changed its status meanwhile
}

std::string EnqueueEvidenceText(EnqueueEvidence evidence) {
  switch (evidence) {
    case EnqueueEvidence::kEnqueued:
      return "the server shows its enqueue (the move's status_reason, a newer status_changed): an agent took it";
    case EnqueueEvidence::kNotEnqueued:
      return "its status has not changed since the move was decided: it was never enqueued";
    case EnqueueEvidence::kCannotTell:
      return "the server does not tell whether it was enqueued; waiting (it holds the pool it was meant for)";
    case EnqueueEvidence::kUnanswered: return "the server did not answer";
  }
  return "";
}

void StampStatusChanged(const std::string& tasks_json, std::vector<MoveIntent>* intents) {
  if (intents->empty()) return;
  std::unordered_map<std::string, MoveIntent*> by_task;
  for (MoveIntent& m : *intents) by_task[m.task] = &m;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  if (parser.parse(tasks_json).get(tasks) != simdjson::SUCCESS) return;
  for (simdjson::dom::element t : tasks) {
    std::string_view id, changed;
    if (t["id"].get(id) != simdjson::SUCCESS) continue;
    auto it = by_task.find(std::string(id));
    if (it != by_task.end() && t["status_changed"].get(changed) == simdjson::SUCCESS) {
      it->second->changed = std::string(changed);
    }
  }
}

}  // namespace rescfg::sync
