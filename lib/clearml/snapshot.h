#pragma once
/// Reading a ClearML snapshot from its files (SPEC §3.1): the tasks and,
/// when given, the queues and workers files, the companions read on a thread
/// of their own while the tasks are read, then linked to them.

#include <string>
#include <vector>

#include "clearml/queues.h"
#include "config/model.h"
#include "clearml/workers.h"
#include "jobs/job.h"

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
/// ReadClearmlTasks).
Snapshot LoadClearmlSnapshot(const SnapshotFiles& files, const std::vector<std::string>& param_paths,
                             const Config* resolve_against = nullptr);

}  // namespace rescfg::clearml
