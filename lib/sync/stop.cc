#include "sync/stop.h"

#include <simdjson.h>

#include "decide/clearml_actions.h"
#include "util/crash_point.h"
#include "util/flat_record.h"

namespace rescfg::sync {
namespace {

std::string StopBody(const MoveIntent& m) {
  std::string body = "{\"task\": ";
  AppendJsonString(&body, m.task);
  body += ", \"force\": false, \"status_reason\": ";
  AppendJsonString(&body, m.reason);
  return body + "}";
}

std::string Text(simdjson::dom::element e, const char* key) {
  std::string_view text;
  return e[key].get(text) == simdjson::SUCCESS ? std::string(text) : std::string();
}

}  // namespace

VictimLook LookAtVictim(ApiClient& api, const std::string& task) {
  VictimLook look;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  const char* fields = "\"id\", \"status\", \"status_message\", \"status_reason\", \"status_changed\", \"execution.queue\"";
  if (!GetOneTask(api, task, fields, parser, &tasks)) return look;
  look.ok = true;
  for (simdjson::dom::element t : tasks) {
    if (Text(t, "id") != task) continue;
    look.found = true;
    look.status = Text(t, "status");
    look.status_message = Text(t, "status_message");
    look.status_reason = Text(t, "status_reason");
    look.status_changed = Text(t, "status_changed");
    simdjson::dom::element q;
    std::string_view queue;
    if (t["execution"]["queue"].get(q) == simdjson::SUCCESS &&
        (q.get(queue) == simdjson::SUCCESS || q["id"].get(queue) == simdjson::SUCCESS)) {
      look.queue = std::string(queue);
    }
  }
  return look;
}

std::vector<MoveIntent> PlanStops(const Config& config, const ScheduleReport& report,
                                  const clearml::QueueList& queues, const Journal& journal, int64_t cycle) {
  std::vector<MoveIntent> stops;
  ForEachAction(report, [&](const ClearmlAction& action) {
    if (action.kind != ActionKind::kStop) return true;
    const JobOutcome& job = report.jobs[action.job];
    MoveIntent m;
    m.kind = ActionKind::kStop;
    m.cycle = cycle;
    m.task = std::string(*job.id);
    m.name = job.name ? std::string(*job.name) : "";
    m.policy = job.policy ? std::string(*job.policy) : "";
    m.profile = job.profile ? std::string(*job.profile) : "";
    m.pool = std::string(action.preemption->pool);
    m.from = PolicyQueueByName(config, m.policy, m.profile);
    if (const clearml::Queue* from = queues.FindByName(m.from)) m.from_id = std::string(from->id);
    m.to = job.queue ? std::string(*job.queue) : "";
    if (const clearml::Queue* to = queues.FindByName(m.to)) m.to_id = std::string(to->id);
    const JobOutcome& preemptor = report.jobs[action.preemption->job];
    m.preemptor = std::string(*preemptor.policy) + "/" + std::string(*preemptor.id);
    m.reason = StopReason(report, *action.preemption);
    bool open = journal.stops().count(m.task) > 0;
    for (const auto& [seq, intent] : journal.unfinished()) open = open || intent.task == m.task;
    if (!open) stops.push_back(std::move(m));
    return true;
  });
  return stops;
}

std::string StopGuard(const MoveIntent& stop, const VictimLook& look,
                      const std::function<std::string(std::string_view)>& pool_of_queue) {
  if (!look.found) return "no task has this id any more";
  if (look.status != "in_progress") return "its status is " + look.status + " now, not in_progress";
  if (look.status_message.find("stopping") != std::string::npos) return "it is being stopped already";
  if (stop.from_id.empty()) return "its policy queue " + stop.from + " is not on the server: it could not be re-queued";
  const std::string pool = look.queue.empty() ? "" : pool_of_queue(look.queue);
  if (!pool.empty() && pool != stop.pool) return "it runs from a queue of pool " + pool + " now, not " + stop.pool;
  return "";
}

MoveResult JudgeStopAnswer(const ApiAnswer& answer, std::string* detail, bool* open) {
  *open = false;
  if (answer.ok()) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    int64_t updated = 1;
    if (parser.parse(answer.body).get(root) == simdjson::SUCCESS &&
        root["data"]["updated"].get(updated) != simdjson::SUCCESS) {
      updated = 1;  // an answer without the count: the call succeeded
    }
    if (updated == 0) {
      *detail = "tasks.stop: updated 0 (the task changed meanwhile)";
      return MoveResult::kSkipped;
    }
    return MoveResult::kStopped;
  }
  *detail = "tasks.stop: " + answer.Describe();
  if (answer.kind == ApiAnswer::Kind::kRefused) {
    return MeansTaskChanged(answer.subcode) ? MoveResult::kSkipped : MoveResult::kFailed;
  }
  // No answer, or none to trust: the server may have stopped it. The intent
  // stays open; the next cycle settles it from what the server shows.
  *open = true;
  *detail += "; settled at the next cycle";
  return MoveResult::kFailed;
}

bool CarryOutStops(ApiClient& api, Journal& journal, std::vector<MoveIntent> stops,
                   const std::function<std::string(std::string_view)>& pool_of_queue, const Clock& clock,
                   const std::atomic<bool>* stop_flag, std::vector<MoveReport>* reports, std::string* error) {
  for (MoveIntent& m : stops) {
    auto report = [&](MoveResult result, std::string detail) {
      reports->push_back({m, UtcNowMicros(clock), result, std::move(detail), false});
    };
    if (stop_flag != nullptr && stop_flag->load()) {
      report(MoveResult::kSkipped, "the sync was stopped before this stop");
      continue;
    }
    const VictimLook look = LookAtVictim(api, m.task);  // step 1
    if (!look.ok) {
      report(MoveResult::kFailed, "tasks.get_all: the victim could not be read; left for the next cycle");
      continue;
    }
    if (std::string why = StopGuard(m, look, pool_of_queue); !why.empty()) {
      report(MoveResult::kSkipped, why);
      continue;
    }
    m.changed = look.status_changed;
    m.asked_us = clock.UtcMicros();
    std::vector<MoveIntent> one{m};
    if (!journal.Begin(&one, error)) return false;  // step 2
    m.seq = one[0].seq;
    CrashPoint();
    const ApiAnswer answer = api.Call("tasks.stop", StopBody(m));  // step 3
    CrashPoint();
    std::string detail;
    bool open = false;
    const MoveResult result = JudgeStopAnswer(answer, &detail, &open);
    if (!open) journal.Finish(m.seq, MoveResultName(result), false);  // step 4
    if (!journal.Flush(error)) return false;
    reports->push_back({m, UtcNowMicros(clock), result, detail, open});
  }
  return true;
}

std::function<std::string(std::string_view)> PoolOfQueue(const Config& config, const clearml::QueueList& queues) {
  std::unordered_map<std::string, std::string> pool_of;
  for (const Pool& pool : config.pools) pool_of.emplace(pool.queue, pool.name);
  for (const Profile& profile : config.profiles) {
    for (const Link& link : profile.links) pool_of.emplace(link.queue, link.pool);
  }
  return [&queues, pool_of = std::move(pool_of)](std::string_view id) -> std::string {
    const clearml::Queue* queue = queues.FindById(id);
    if (queue == nullptr) return "";
    auto it = pool_of.find(std::string(queue->name));
    return it == pool_of.end() ? "" : it->second;
  };
}

}  // namespace rescfg::sync
