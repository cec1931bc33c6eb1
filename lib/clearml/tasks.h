#pragma once
/// ClearML task snapshots as jobs input (rescfg(5), JOBS FILE, ClearML task snapshots): a `tasks.get_all` or
/// `tasks.get_all_ex` response, a JSON array of task objects, or JSON Lines
/// of task objects, read into the same entries as the other jobs formats.

#include <functional>
#include <latch>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/queues.h"
#include "clearml/workers.h"
#include "config/model.h"
#include "jobs/job.h"
#include "jobs/params.h"

namespace rescfg::clearml {

/// The companion files a snapshot is read with, and the hand-overs a sync
/// journal remembers; any may be absent.
struct Companions {
  const QueueList* queues = nullptr;
  const WorkerList* workers = nullptr;
  const Handovers* handovers = nullptr;
};

/// Gives the companions when the reader needs them: after the tasks file is
/// read and its tasks are found, so that they can be read meanwhile.
using CompanionsReady = std::function<Companions()>;

/// Appends one entry per task to `out->entries`, in file order; the text
/// must live in `out->text` (entries view it). Which form the text is: a
/// document starting with `[` is an array of tasks; one whose first object
/// starts with a `meta` or `data` key is an API response (`data.tasks`);
/// any other `{` starts JSON Lines, one task a line. In the two document
/// forms a JSON syntax error anywhere makes the file unusable; in JSON
/// Lines a malformed line is an invalid entry, as in a jobs file. Text
/// that is none of them is unusable.
///
/// Each task: `id` and `name` are carried over; `status: queued` is a queued
/// entry and `in_progress` a running one, any other status an invalid entry;
/// `execution.queue` (an ID, mapped to its name through the queues file, or
/// an `{id, name}` object) is its `queue`; `status_changed` stands in
/// `enqueued`, and the place in its queue's `entries` in `queue_rank`;
/// `hyperparams`, `configuration` and `runtime` are the roots of `params`.
///
/// With `resolve_against`, the tasks are resolved against that
/// configuration as they are parsed, and `out` holds `resolved` instead of
/// entries (as LoadJobsFile with a configuration).
void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const Companions& companions, LoadedJobs* out);
void ReadClearmlTasks(std::string_view text, const ParamQuery& query, const CompanionsReady& ready, LoadedJobs* out,
                      const Config* resolve_against = nullptr);

/// Reads a snapshot from text (kept in the result).
LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const Companions& companions,
                                const std::vector<std::string>& param_paths);
LoadedJobs LoadClearmlTasksText(std::string text, const std::string& file, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against = nullptr);

struct FoundTasks;

/// A tasks file read and, when it is one document, its tasks found ahead,
/// by a thread that has nothing else to do while a command loads its
/// configuration (CompanionsAhead's): neither needs the configuration, and
/// LoadClearmlTasksFile parses what was found. Its findings are the file's:
/// nothing is said unless the file is loaded.
class TasksAhead {
 public:
  explicit TasksAhead(std::string path);
  ~TasksAhead();
  TasksAhead(const TasksAhead&) = delete;
  TasksAhead& operator=(const TasksAhead&) = delete;

  /// Reads the file and finds its tasks (not standard input: nothing is
  /// read from it unless the snapshot is loaded); called once, by the thread
  /// ahead.
  void Find();
  /// What Find found for `path`, once found; null when this was made for
  /// another file, or was taken already.
  std::unique_ptr<FoundTasks> Take(const std::string& path);

 private:
  std::string path_;
  std::unique_ptr<FoundTasks> found_;
  std::latch found_latch_{1};  ///< Find is done (or failed)
};

/// Reads a snapshot file ("-" is standard input). `ahead`: the file read
/// and its tasks found ahead, taken when made for this file.
LoadedJobs LoadClearmlTasksFile(const std::string& path, const CompanionsReady& ready,
                                const std::vector<std::string>& param_paths, const Config* resolve_against = nullptr,
                                TasksAhead* ahead = nullptr);

}  // namespace rescfg::clearml
