#include "sync/server_snapshot.h"

#include <simdjson.h>

#include <set>

#include "clearml/queues.h"
#include "clearml/workers.h"
#include "sync/failed_call.h"
#include "util/flat_record.h"

namespace rescfg::sync {
namespace {

/// A server that restarts a scroll (its scroll_id expired) answers under a
/// new id from the beginning: the reading starts again, this many times.
constexpr int kScrollRestarts = 3;

void AppendStringList(std::string* out, const std::vector<std::string>& items) {
  out->push_back('[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->append(", ");
    AppendJsonString(out, items[i]);
  }
  out->push_back(']');
}

FetchOutcome Failed(std::string_view endpoint, ApiAnswer answer) {
  FetchOutcome outcome;
  outcome.error = FailedCall(endpoint, answer);
  outcome.failure = std::move(answer);
  return outcome;
}

FetchOutcome BadShape(std::string_view endpoint, const std::string& why) {
  FetchOutcome outcome;
  outcome.failure.kind = ApiAnswer::Kind::kBadAnswer;
  outcome.failure.message = why;
  outcome.error = std::string(endpoint) + ": " + why;
  return outcome;
}

}  // namespace

std::vector<std::string> TaskFields(const std::vector<std::string>& param_paths) {
  std::set<std::string> sections;
  for (const std::string& path : param_paths) {
    // hyperparams.SECTION.NAME and configuration.NAME: the section (or
    // item) as a whole, so that a misspelt name nearby is still seen;
    // runtime: the whole (small) object.
    const size_t dot = path.find('.');
    const std::string root = path.substr(0, dot);
    if (root == "runtime" || dot == std::string::npos) {
      sections.insert(root);
    } else {
      const size_t second = path.find('.', dot + 1);
      sections.insert(root == "hyperparams" ? path.substr(0, second) : path);
    }
  }
  // status_message and started: a task being stopped, and when it began (rescfg(5), ClearML task snapshots);
  // status_reason: moves of another sync (sync/foreign_moves.h).
  std::vector<std::string> fields = {"id", "name", "status", "status_changed", "status_message", "status_reason", "started",
                                     "execution.queue"};
  fields.insert(fields.end(), sections.begin(), sections.end());
  return fields;
}

std::string TasksRequest(const std::vector<std::string>& fields, const std::string& scroll_id, bool first,
                         size_t page_size) {
  std::string body = "{\"status\": [\"queued\", \"in_progress\"], \"search_hidden\": true, \"only_fields\": ";
  AppendStringList(&body, fields);
  body.append(", \"scroll_id\": ");
  if (first) {
    body.append("null");
  } else {
    AppendJsonString(&body, scroll_id);
  }
  body.append(", \"size\": ").append(std::to_string(page_size)).append("}");
  return body;
}

namespace {

/// A page of the scroll, or of a look-up by id (no scroll_id; only the
/// queued and running tasks of it are kept).
enum class PageKind { kScroll, kLookUp };

bool ReadPage(std::string_view body, PageKind kind, TasksPage* page, std::string* out,
              std::unordered_map<std::string, std::string>* status, std::string* error) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array tasks;
  if (parser.parse(body.data(), body.size()).get(root) != simdjson::SUCCESS) {
    *error = "the answer is not JSON";
    return false;
  }
  if (root["data"]["tasks"].get(tasks) != simdjson::SUCCESS) {
    *error = "the answer has no \"data.tasks\" list";
    return false;
  }
  page->tasks = 0;
  page->scroll_id.clear();
  for (simdjson::dom::element task : tasks) {
    std::string_view id, state = "";
    simdjson::dom::element state_value;
    if (!task.is_object()) {
      *error = "a task in \"data.tasks\" is not an object";
      return false;
    }
    if (task["id"].get(id) != simdjson::SUCCESS || id.empty()) {
      *error = "a task in \"data.tasks\" has no string \"id\"";
      return false;
    }
    if (task["status"].get(state_value) == simdjson::SUCCESS && !state_value.is_null() &&
        state_value.get(state) != simdjson::SUCCESS) {
      *error = "task " + std::string(id) + ": \"status\" is not a string";
      return false;
    }
    ++page->tasks;
    if (kind == PageKind::kLookUp && state != "queued" && state != "in_progress") continue;  // ended meanwhile
    if (!status->emplace(std::string(id), std::string(state)).second) continue;  // seen on an earlier page
    if (out->size() > 1) out->append(",\n");
    out->append(simdjson::minify(task));
  }
  simdjson::dom::element scroll;
  if (root["data"]["scroll_id"].get(scroll) == simdjson::SUCCESS && !scroll.is_null()) {
    std::string_view text;
    if (scroll.get(text) != simdjson::SUCCESS) {
      *error = "\"data.scroll_id\" is not a string";
      return false;
    }
    page->scroll_id = std::string(text);
  }
  if (kind == PageKind::kScroll && page->tasks > 0 && page->scroll_id.empty()) {
    *error = "the answer has no \"data.scroll_id\": the server does not scroll (API 2.15 or later is needed)";
    return false;
  }
  return true;
}

/// The tasks a reading must not miss: those the queues list and those the
/// workers say they run, and `also` (the sync journal's).
std::set<std::string> TasksToSee(const ServerSnapshot& snapshot, const std::vector<std::string>& also) {
  std::set<std::string> ids(also.begin(), also.end());
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::dom::array list;
  auto add = [&](simdjson::dom::element ref) {
    std::string_view id;
    if (ref.get(id) == simdjson::SUCCESS || ref["id"].get(id) == simdjson::SUCCESS) {
      if (!id.empty()) ids.insert(std::string(id));
    }
  };
  if (parser.parse(snapshot.queues_json).get(root) == simdjson::SUCCESS &&
      root["data"]["queues"].get(list) == simdjson::SUCCESS) {
    for (simdjson::dom::element queue : list) {
      simdjson::dom::array entries;
      if (queue["entries"].get(entries) != simdjson::SUCCESS) continue;
      for (simdjson::dom::element entry : entries) {
        simdjson::dom::element task;
        if (entry["task"].get(task) == simdjson::SUCCESS) add(task);
      }
    }
  }
  if (parser.parse(snapshot.workers_json).get(root) == simdjson::SUCCESS &&
      root["data"]["workers"].get(list) == simdjson::SUCCESS) {
    for (simdjson::dom::element worker : list) {
      simdjson::dom::element task;
      if (worker["task"].get(task) == simdjson::SUCCESS && !task.is_null()) add(task);
    }
  }
  return ids;
}

/// Looks up by id, page by page, the tasks of `ids` that the scroll did not
/// return, and adds those queued or running to the snapshot.
FetchOutcome LookUpMissed(ApiClient& api, const std::vector<std::string>& fields, size_t page_size,
                          const std::set<std::string>& ids, ServerSnapshot* snapshot) {
  constexpr size_t kIdsPerCall = 100;
  std::vector<std::string> missed;
  for (const std::string& id : ids) {
    if (!snapshot->status.count(id)) missed.push_back(id);
  }
  for (size_t from = 0; from < missed.size(); from += kIdsPerCall) {
    const std::vector<std::string> chunk(missed.begin() + static_cast<std::ptrdiff_t>(from),
                                         missed.begin() + static_cast<std::ptrdiff_t>(std::min(missed.size(), from + kIdsPerCall)));
    std::string body = "{\"id\": ";
    AppendStringList(&body, chunk);
    body.append(", \"search_hidden\": true, \"only_fields\": ");
    AppendStringList(&body, fields);
    // No status filter: the set it pages over does not change between pages.
    for (size_t page_no = 0; page_no <= chunk.size(); ++page_no) {
      const std::string request =
          body + ", \"page\": " + std::to_string(page_no) + ", \"page_size\": " + std::to_string(page_size) + "}";
      ApiAnswer page = api.Call("tasks.get_all", request);
      if (!page.ok()) return Failed("tasks.get_all", std::move(page));
      TasksPage read;
      std::string error;
      if (!ReadPage(page.body, PageKind::kLookUp, &read, &snapshot->tasks_json, &snapshot->status, &error)) {
        return BadShape("tasks.get_all", error);
      }
      ++snapshot->pages;
      if (read.tasks == 0) break;
    }
  }
  FetchOutcome outcome;
  outcome.ok = true;
  return outcome;
}

}  // namespace

bool ReadTasksPage(std::string_view body, TasksPage* page, std::string* out,
                   std::unordered_map<std::string, std::string>* status, std::string* error) {
  return ReadPage(body, PageKind::kScroll, page, out, status, error);
}

FetchOutcome FetchServerSnapshot(ApiClient& api, const std::vector<std::string>& task_fields, size_t page_size,
                                 ServerSnapshot* snapshot, const std::vector<std::string>& must_see) {
  *snapshot = ServerSnapshot{};
  // Queues first: a task queued after this reading is not yet listed, and
  // is read as queued in its policy queue, where a move's guard finds it.
  ApiAnswer queues = api.Call("queues.get_all", "{\"search_hidden\": true}");
  if (!queues.ok()) return Failed("queues.get_all", std::move(queues));
  {
    clearml::QueueList list = clearml::ReadQueuesText(queues.body, "queues.get_all");
    if (list.unusable) {
      return BadShape("queues.get_all", list.findings.empty() ? "unusable" : list.findings.front().message);
    }
  }
  snapshot->queues_json = std::move(queues.body);

  for (int restart = 0;; ++restart) {
    snapshot->tasks_json = "[";
    snapshot->status.clear();
    snapshot->pages = 0;
    std::string scroll_id;
    bool restarted = false;
    for (bool first = true;; first = false) {
      ApiAnswer page = api.Call("tasks.get_all", TasksRequest(task_fields, scroll_id, first, page_size));
      if (!page.ok()) return Failed("tasks.get_all", std::move(page));
      TasksPage read;
      std::string error;
      if (!ReadTasksPage(page.body, &read, &snapshot->tasks_json, &snapshot->status, &error)) {
        return BadShape("tasks.get_all", error);
      }
      ++snapshot->pages;
      if (read.tasks == 0) break;  // only an empty page ends the reading: a page may be short
      if (!first && read.scroll_id != scroll_id) {
        restarted = true;  // the scroll expired and started again from the beginning
        break;
      }
      scroll_id = read.scroll_id;
    }
    if (!restarted) break;
    if (restart + 1 >= kScrollRestarts) {
      return BadShape("tasks.get_all", "the server restarted the scroll " + std::to_string(kScrollRestarts) +
                                           " times (its scroll_id changed between pages)");
    }
  }

  ApiAnswer workers = api.Call("workers.get_all", "{}");
  if (!workers.ok()) return Failed("workers.get_all", std::move(workers));
  {
    clearml::WorkerList list = clearml::ReadWorkersText(workers.body, "workers.get_all");
    if (list.unusable) {
      return BadShape("workers.get_all", list.findings.empty() ? "unusable" : list.findings.front().message);
    }
  }
  snapshot->workers_json = std::move(workers.body);
  // The server counts a scroll's pages by position: a task that ends
  // between two pages shifts the later ones back, and the task at the
  // border is returned by neither. A running task missed so holds nothing
  // in the schedule (its pool is given away) and its hand-over would be
  // released as if it had ended: the tasks that hold or wait in a pool are
  // looked up by id when the scroll did not return them.
  FetchOutcome outcome = LookUpMissed(api, task_fields, page_size, TasksToSee(*snapshot, must_see), snapshot);
  if (!outcome.ok) return outcome;
  snapshot->tasks_json.append(snapshot->tasks_json.size() > 1 ? "\n]\n" : "]\n");
  snapshot->tasks = snapshot->status.size();
  return outcome;
}

}  // namespace rescfg::sync
