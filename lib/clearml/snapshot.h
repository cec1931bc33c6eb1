#pragma once
/// Reading a ClearML snapshot from its files (rescfg(5), JOBS FILE, ClearML task snapshots): the tasks and,
/// when given, the queues and workers files, the companions read on a thread
/// of their own while the tasks are read, then linked to them.

#include <optional>
#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/queues.h"
#include "clearml/workers.h"
#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"

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

/// With `resolve_against`, the tasks are resolved as they are read (see
/// ReadClearmlTasks). `handovers`, when given, are what the sync journal
/// says of tasks handed to pools. The tasks are matched against the queues
/// of `resolve_against` and of every configuration of `match_against`:
/// when there are tasks and not one names a queue of any of them, the
/// snapshot is unusable ("nothing matched", see NothingMatched).
Snapshot LoadClearmlSnapshot(const SnapshotFiles& files, const std::vector<std::string>& param_paths,
                             const Config* resolve_against = nullptr, const Handovers* handovers = nullptr,
                             const std::vector<const Config*>& match_against = {});

/// How the entries of a snapshot meet the queues of `config`.
QueueMatches MatchQueues(const Config& config, const std::vector<JobEntry>& entries, TextArena* arena);

/// The finding of a snapshot whose tasks name no queue of the
/// configuration: which companion is missing (the queues file, when the
/// tasks name queues by ID and none was given), or which queue names were
/// seen. None when some task matched, or there are no tasks.
std::optional<Finding> NothingMatched(const QueueMatches& matches, const std::string& file, bool queues_given);

}  // namespace rescfg::clearml
