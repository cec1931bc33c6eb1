#pragma once
/// When `rescfg sync` first saw each task `in_progress` (rescfg(1), "rescfg
/// sync", run starts): the start of the task's current run, which ClearML
/// does not keep (its `started` is the first start ever, so a task stopped
/// and re-queued would look older than it is). Kept in DIR/sync/run-starts,
/// rewritten atomically at every cycle: {"TASK": MICROSECONDS, ...}. A task
/// seen neither queued nor running, or seen queued, loses its record: its
/// next run starts a new one.

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "sync/kept_snapshot.h"
#include "sync/server_snapshot.h"
#include "util/clock.h"

namespace rescfg::sync {

class RunStarts {
 public:
  /// Reads `path`; a missing file is an empty record. A file that cannot be
  /// read as one is an error (nullopt-like: false with `error`).
  bool Load(const std::string& path, std::string* error);
  /// Records `now_us` for every task `in_progress` in `status` (task id ->
  /// status) that has no record yet, and forgets every task not in_progress.
  void Update(const std::unordered_map<std::string, std::string>& status, int64_t now_us);
  /// Writes the records to `path` atomically.
  bool Save(const std::string& path, std::string* error) const;

  const std::map<std::string, int64_t>& starts() const { return starts_; }

 private:
  std::map<std::string, int64_t> starts_;
};

/// The tasks of a snapshot (a JSON array, one minified task a line, as
/// ServerSnapshot::tasks_json) with the `started` of every in_progress task
/// that has a record replaced by its run start (RFC 3339): what the pass
/// judges `minRuntime` by. Other tasks are left as they are (only the lines
/// that mention in_progress are parsed). The input unchanged when such a
/// line cannot be read.
std::string WithRunStarts(const std::string& tasks_json, const std::map<std::string, int64_t>& starts);

/// DIR/sync/run-starts.
std::string RunStartsPath(const SyncPaths& paths);

/// A cycle's step: the records read, brought up to `snapshot` at the
/// clock's time, written back, and given to the snapshot's tasks
/// (WithRunStarts). False with `error` when the file cannot be read or written.
bool KeepRunStarts(const SyncPaths& paths, const Clock& clock, ServerSnapshot* snapshot, std::string* error);

}  // namespace rescfg::sync
