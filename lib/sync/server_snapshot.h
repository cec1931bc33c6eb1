#pragma once
/// One reading of a ClearML server for a sync cycle: every queue (hidden
/// ones included: the k8s glue's queue is hidden), the queued and running
/// tasks, scrolled page by page until a page comes back empty, and the
/// workers. Every answer is checked for its shape before anything is
/// decided on it.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "sync/api_client.h"

namespace rescfg::sync {

struct ServerSnapshot {
  std::string queues_json;   ///< the queues.get_all answer, as it came
  std::string workers_json;  ///< the workers.get_all answer, as it came
  std::string tasks_json;    ///< every task of every page, as one JSON array (one task a line)
  size_t tasks = 0;
  size_t pages = 0;
  /// Task id -> status ("queued", "in_progress"), for the journal's
  /// recovery and hand-overs.
  std::unordered_map<std::string, std::string> status;
};

/// What a sync asks `tasks.get_all` for: what the snapshot reader reads,
/// and of the parameters only the sections the configuration's dynamic
/// profiles name (`hyperparams.Args`, `configuration.test`, `runtime`).
std::vector<std::string> TaskFields(const std::vector<std::string>& param_paths);

/// The body of a tasks.get_all page: the first (`scroll_id` null) or a later one.
std::string TasksRequest(const std::vector<std::string>& fields, const std::string& scroll_id, bool first,
                         size_t page_size);

/// One page of tasks.get_all, checked: `data.tasks` a list of objects with
/// a string `id` and a string `status` when given, `data.scroll_id` a
/// string when there are tasks. The tasks are appended to `out` (minified,
/// each on a line of its own, after a comma when `out` already holds one),
/// their statuses to `status` (a task seen already is left out). False
/// with `error` set when the page is not that.
struct TasksPage {
  std::string scroll_id;
  size_t tasks = 0;  ///< on the page, repeated ones included
};
bool ReadTasksPage(std::string_view body, TasksPage* page, std::string* out,
                   std::unordered_map<std::string, std::string>* status, std::string* error);

struct FetchOutcome {
  bool ok = false;
  ApiAnswer failure;  ///< when a call failed: why (kUnauthorized: credentials refused)
  std::string error;  ///< what is wrong, for the log
};

/// Reads the server. `page_size` tasks a page. The server counts a
/// scroll's pages by position, so a task that ends between two pages makes
/// the scroll skip another one: the tasks the queues list, those the
/// workers run and those of `must_see` (the sync journal's: hand-overs,
/// open moves, stops) that the scroll did not return are then looked up by
/// id, and those still queued or running are added.
FetchOutcome FetchServerSnapshot(ApiClient& api, const std::vector<std::string>& task_fields, size_t page_size,
                                 ServerSnapshot* snapshot, const std::vector<std::string>& must_see = {});

}  // namespace rescfg::sync
