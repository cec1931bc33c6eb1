#include "sync/move.h"

#include <simdjson.h>

#include <ctime>
#include <map>
#include <mutex>
#include <thread>

#include "sync/listing_now.h"
#include "sync/removed_count.h"
#include "util/crash_point.h"
#include "util/flat_record.h"

namespace rescfg::sync {

const char* MoveResultName(MoveResult result) {
  switch (result) {
    case MoveResult::kPlanned: return "planned";
    case MoveResult::kMoved: return "moved";
    case MoveResult::kSkipped: return "skipped";
    case MoveResult::kFailed: return "failed";
    case MoveResult::kStopped: return "stopped";
    case MoveResult::kRequeued: return "requeued";
    case MoveResult::kStuck: return "stuck";
    case MoveResult::kRemoved: return "removed";
  }
  return "failed";
}
namespace {

/// Crash points are counted across the moving threads one at a time.
void SyncCrashPoint() {
  static std::mutex mutex;
  std::lock_guard<std::mutex> hold(mutex);
  CrashPoint();
}

std::string TaskQueueBody(const std::string& queue, const std::string& task) {
  std::string body = "{\"queue\": ";
  AppendJsonString(&body, queue);
  body += ", \"task\": ";
  AppendJsonString(&body, task);
  return body + "}";
}

std::string EnqueueBody(const MoveIntent& m) {
  std::string body = "{\"task\": ";
  AppendJsonString(&body, m.task);
  body += ", \"queue\": ";
  AppendJsonString(&body, m.to_id);
  body += ", \"update_execution_queue\": false, \"status_reason\": ";
  AppendJsonString(&body, StatusReason(m));
  return body + "}";
}

MoveReport Report(const Clock& clock, const MoveIntent& m, MoveResult result, std::string detail, bool open = false) {
  return {m, UtcNowMicros(clock), std::move(result), std::move(detail), open};
}

/// After a refused or failed enqueue: the task, out of its policy queue,
/// goes back there if it is still queued for it and listed in no queue (a
/// stopped or dequeued one is left as the person left it, and so is one a
/// person enqueued elsewhere meanwhile: putting it back would list it
/// twice). "" when done or not needed, else why not.
std::string PutBack(ApiClient& api, const MoveIntent& m, bool* open) {
  const TaskLook look = LookAtTask(api, m.task);
  if (!look.ok) {
    *open = true;
    return "; the task could not be looked at to put it back: the next cycle does";
  }
  if (look.status != "queued" || look.queue != m.from_id) return "";
  const ListingNow now = TaskListingNow(api, m.task);
  if (!now.ok) {
    *open = true;
    return "; the queues could not be read to put it back: the next cycle does";
  }
  if (!now.queue.empty()) return "; listed in " + now.queue + " now: left there";
  const ApiAnswer added = api.Call("queues.add_task", TaskQueueBody(m.from_id, m.task));
  if (added.ok() || (added.kind == ApiAnswer::Kind::kRefused && added.subcode == 706)) {
    return "; put back in " + m.from;
  }
  if (added.kind != ApiAnswer::Kind::kRefused) *open = true;  // it may be back, or not: settled next cycle
  return "; putting it back in " + m.from + " failed: " + added.Describe();
}

}  // namespace

std::string StatusReason(const MoveIntent& m) { return "rescfg: " + m.policy + "/" + m.profile + " -> " + m.pool; }

bool MeansTaskChanged(int subcode) {
  switch (subcode) {
    case 12:   // validation error: update_execution_queue refused (the task is no longer queued)
    case 101:  // invalid task id: deleted
    case 110: case 111: case 112: case 113: case 114:  // its status does not allow it
    case 121:  // its status changed between the server's read and write
    case 130:  // task not found
    case 703:  // not in that queue
    case 706:  // already in that queue
      return true;
    default:
      return false;
  }
}

std::string UtcNowMicros(const Clock& clock) { return UtcMicrosText(clock.UtcMicros()); }

std::string UtcMicrosText(int64_t micros) {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<long long>(micros % 1'000'000));
  return text;
}

bool GetOneTask(ApiClient& api, const std::string& task, std::string_view only_fields, simdjson::dom::parser& parser,
                simdjson::dom::array* tasks) {
  std::string body = "{\"id\": [";
  AppendJsonString(&body, task);
  body += "], \"only_fields\": [";
  body += only_fields;
  body += "], \"search_hidden\": true}";
  const ApiAnswer answer = api.Call("tasks.get_all", body);
  if (!answer.ok()) return false;
  simdjson::dom::element root;
  return parser.parse(answer.body).get(root) == simdjson::SUCCESS &&
         root["data"]["tasks"].get(*tasks) == simdjson::SUCCESS;
}

TaskLook LookAtTask(ApiClient& api, const std::string& task) {
  TaskLook look;
  simdjson::dom::parser parser;
  simdjson::dom::array tasks;
  if (!GetOneTask(api, task, "\"id\", \"status\", \"execution.queue\"", parser, &tasks)) return look;
  look.ok = true;
  for (simdjson::dom::element t : tasks) {
    std::string_view id, status, queue;
    if (t["id"].get(id) != simdjson::SUCCESS || id != task) continue;
    if (t["status"].get(status) == simdjson::SUCCESS) look.status = std::string(status);
    simdjson::dom::element q;
    if (t["execution"]["queue"].get(q) == simdjson::SUCCESS) {
      if (q.get(queue) == simdjson::SUCCESS || q["id"].get(queue) == simdjson::SUCCESS) look.queue = std::string(queue);
    }
  }
  return look;
}

MoveReport MoveTask(ApiClient& api, const MoveIntent& m, const Clock& clock) {
  // Step 2: out of the policy queue, only if it is still there.
  const ApiAnswer removed = api.Call("queues.remove_task", TaskQueueBody(m.from_id, m.task));
  if (!removed.ok()) {
    if (removed.kind == ApiAnswer::Kind::kRefused && removed.subcode == 703) {
      // An earlier attempt may have removed it: it is ours if it is still
      // queued for its policy queue and so listed in none.
      const TaskLook look = LookAtTask(api, m.task);
      if (!look.ok) return Report(clock, m, MoveResult::kFailed, "queues.remove_task: " + removed.Describe(), true);
      if (look.status != "queued" || look.queue != m.from_id) {
        return Report(clock, m, MoveResult::kSkipped, "queues.remove_task: " + removed.Describe());
      }
      // Its execution.queue says nothing of a queues.add_task: is it listed elsewhere now?
      const ListingNow now = TaskListingNow(api, m.task);
      if (!now.ok) return Report(clock, m, MoveResult::kFailed, "queues.remove_task: " + removed.Describe() + "; the queues could not be read again", true);
      if (!now.queue.empty()) {
        return Report(clock, m, MoveResult::kSkipped, "queues.remove_task: " + removed.Describe() + "; listed in " + now.queue + " now");
      }
    } else if (removed.kind == ApiAnswer::Kind::kRefused && MeansTaskChanged(removed.subcode)) {
      return Report(clock, m, MoveResult::kSkipped, "queues.remove_task: " + removed.Describe());
    } else {
      // Anything but a clean refusal (no answer, HTML, a redirection, a
      // garbled envelope) may have removed it: the journal keeps the intent
      // open for the next cycle to settle from what the server shows.
      return Report(clock, m, MoveResult::kFailed, "queues.remove_task: " + removed.Describe(),
                    removed.in_doubt || removed.kind != ApiAnswer::Kind::kRefused);
    }
  } else if (RemovedCount(removed.body) == 0) {
    return Report(clock, m, MoveResult::kSkipped, "queues.remove_task: removed 0 (taken from the queue meanwhile)");
  }
  // Removed, or an answer without a count (whether the entry went is not
  // known): either way on to step 3, whose guard (the server enqueues only
  // a task still queued, with the status it just read) leaves alone a task
  // that changed meanwhile.
  SyncCrashPoint();
  return CompleteMove(api, m, clock);
}

MoveReport CompleteMove(ApiClient& api, const MoveIntent& m, const Clock& clock) {
  // Step 3: into the pool queue, only if it is still queued.
  const ApiAnswer enqueued = api.Call("tasks.enqueue", EnqueueBody(m));
  if (enqueued.ok()) return Report(clock, m, MoveResult::kMoved, "");
  if (enqueued.kind == ApiAnswer::Kind::kRefused && enqueued.subcode == 706) {
    // Already in its pool queue: step 2 took it out of its policy queue, so
    // only an earlier attempt whose answer was lost can have put it there.
    return Report(clock, m, MoveResult::kMoved, "");
  }
  if (enqueued.kind != ApiAnswer::Kind::kRefused) {
    // No answer, or none to trust: the server may have acted (the task is
    // then in its pool queue, and putting it back would list it twice).
    // The intent stays open; the next run settles it from the queues.
    return Report(clock, m, MoveResult::kFailed, "tasks.enqueue: " + enqueued.Describe() + "; settled at the next cycle", true);
  }
  bool open = false;
  const std::string back = PutBack(api, m, &open);
  const bool changed = enqueued.kind == ApiAnswer::Kind::kRefused && MeansTaskChanged(enqueued.subcode);
  return Report(clock, m, changed ? MoveResult::kSkipped : MoveResult::kFailed, "tasks.enqueue: " + enqueued.Describe() + back, open);
}

bool MakeMoves(ApiClient& api, Journal& journal, std::vector<MoveIntent> intents, const MoveOptions& options,
               std::vector<MoveReport>* reports, std::string* error) {
  reports->clear();
  if (intents.empty()) return true;
  const Clock& clock = options.clock != nullptr ? *options.clock : SystemClock();
  if (!journal.Begin(&intents, error)) return false;
  SyncCrashPoint();
  reports->resize(intents.size());
  // One lane per destination queue, in the order of their first move.
  std::vector<std::vector<size_t>> lanes;
  std::map<std::string, size_t> lane_of;
  for (size_t i = 0; i < intents.size(); ++i) {
    auto [it, added] = lane_of.emplace(intents[i].to_id, lanes.size());
    if (added) lanes.emplace_back();
    lanes[it->second].push_back(i);
  }
  std::atomic<size_t> next_lane{0};
  auto work = [&] {
    for (size_t lane; (lane = next_lane.fetch_add(1)) < lanes.size();) {
      for (size_t i : lanes[lane]) {
        if (options.stop && options.stop->load()) {
          (*reports)[i] = Report(clock, intents[i], MoveResult::kSkipped, "the sync was stopped before this move");
          continue;
        }
        (*reports)[i] = MoveTask(api, intents[i], clock);
        SyncCrashPoint();
      }
    }
  };
  const size_t threads = std::min<size_t>(std::max(options.connections, 1), lanes.size());
  {
    std::vector<std::jthread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
  }
  for (size_t i = 0; i < intents.size(); ++i) {
    const MoveReport& r = (*reports)[i];
    if (!r.open) journal.Finish(intents[i].seq, MoveResultName(r.result), r.result == MoveResult::kMoved);
  }
  return journal.Flush(error);
}

}  // namespace rescfg::sync
