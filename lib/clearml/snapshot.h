#pragma once
/// Reading a ClearML snapshot from its files (rescfg(5), JOBS FILE, ClearML task snapshots): the tasks and,
/// when given, the queues and workers files, the companions read on a thread
/// of their own while the tasks are read, then linked to them.

#include <array>
#include <atomic>
#include <latch>
#include <optional>
#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/queues.h"
#include "clearml/tasks.h"
#include "clearml/workers.h"
#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"
#include "util/joined_thread.h"

namespace rescfg::clearml {

struct SnapshotFiles {
  std::string tasks;    ///< "-" is standard input
  std::string queues;   ///< "" when not given
  std::string workers;  ///< "" when not given
};

struct Snapshot {
  LoadedJobs jobs;      ///< unusable, with findings, when any of the files is
  QueueList queues;     ///< empty when not given
  WorkerList workers;
  /// Why some file is unusable, in the order tasks, queues, workers.
  std::vector<Finding> findings;
  bool unusable = false;
};

/// A snapshot's files read ahead, from when this is made, on a thread of
/// their own: its tasks file read and its tasks found (TasksAhead), then
/// its companions (its queues and workers files), those of them that the
/// command's thread has not taken once done with its configuration. None of
/// it depends on the configuration, so a command starts this before it
/// loads its own, and LoadClearmlSnapshot takes them as read. Their findings
/// are the snapshot's: nothing is said of them unless the snapshot is
/// loaded.
class CompanionsAhead {
 public:
  explicit CompanionsAhead(const SnapshotFiles& files);
  CompanionsAhead(const CompanionsAhead&) = delete;
  CompanionsAhead& operator=(const CompanionsAhead&) = delete;

 private:
  friend Snapshot LoadClearmlSnapshot(const SnapshotFiles&, const std::vector<std::string>&, const Config*,
                                      const Handovers*, const std::vector<const Config*>&, CompanionsAhead*);
  /// The companions' work, by whichever thread is free (the reader's once
  /// the tasks are found, or the snapshot's once the configuration is
  /// loaded): the queues file and the workers file when nobody has taken them
  /// (true when this call read the workers into `*workers`), then each part
  /// of the queues' listing index nobody has.
  bool Help(WorkerList* workers);

  SnapshotFiles files_;
  TasksAhead tasks_{files_.tasks};
  QueueList queues_;
  WorkerList workers_;                  ///< when the reader took them
  std::atomic<bool> queues_taken_{false};
  std::atomic<bool> workers_taken_{false};
  std::array<std::atomic<bool>, 2> part_taken_{};
  std::latch queues_read_{1};           ///< the queues file is read (or failed)
  JoinedThread reader_;                 ///< last: starts once the rest is made
};

/// With `resolve_against`, the tasks are resolved as they are read (see
/// ReadClearmlTasks). `handovers`, when given, are what the sync journal
/// says of tasks handed to pools. The tasks are matched against the queues
/// of `resolve_against` and of every configuration of `match_against`:
/// when there are tasks and not one names a queue of any of them, the
/// snapshot is unusable ("nothing matched", see NothingMatched). `ahead`:
/// the companions read ahead, used when they were read for these files.
Snapshot LoadClearmlSnapshot(const SnapshotFiles& files, const std::vector<std::string>& param_paths,
                             const Config* resolve_against = nullptr, const Handovers* handovers = nullptr,
                             const std::vector<const Config*>& match_against = {}, CompanionsAhead* ahead = nullptr);

/// How the entries of a snapshot meet the queues of `config`.
QueueMatches MatchQueues(const Config& config, const std::vector<JobEntry>& entries, TextArena* arena);

/// The finding of a snapshot whose tasks name no queue of the
/// configuration: which companion is missing (the queues file, when the
/// tasks name queues by ID and none was given), or which queue names were
/// seen. None when some task matched, or there are no tasks.
std::optional<Finding> NothingMatched(const QueueMatches& matches, const std::string& file, bool queues_given);

}  // namespace rescfg::clearml
