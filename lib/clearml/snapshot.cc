#include "clearml/snapshot.h"

#include "clearml/tasks.h"
#include "joined_thread.h"

namespace rescfg::clearml {

Snapshot LoadClearmlSnapshot(const SnapshotFiles& files, const std::vector<std::string>& param_paths,
                             const Config* resolve_against) {
  Snapshot snapshot;
  // The companions are read on a thread of their own while the tasks file
  // is read and its tasks are found; the tasks' parse waits for them.
  JoinedThread reader([&] {
    if (!files.queues.empty()) snapshot.queues = ReadQueuesFile(files.queues);
    if (!files.workers.empty()) snapshot.workers = ReadWorkersFile(files.workers);
  });
  auto ready = [&]() -> Companions {
    reader.Join();
    // An unusable companion makes the whole input unusable: the tasks are
    // read all the same, for their own findings, but linked to nothing.
    if (snapshot.queues.unusable || snapshot.workers.unusable) return {};
    return {files.queues.empty() ? nullptr : &snapshot.queues, files.workers.empty() ? nullptr : &snapshot.workers};
  };
  snapshot.jobs = LoadClearmlTasksFile(files.tasks, ready, param_paths, resolve_against);
  reader.Join();  // also when the tasks file was unusable before it needed them
  for (const auto* part : {&snapshot.jobs.findings, &snapshot.queues.findings, &snapshot.workers.findings}) {
    snapshot.findings.insert(snapshot.findings.end(), part->begin(), part->end());
  }
  snapshot.unusable = snapshot.jobs.unusable || snapshot.queues.unusable || snapshot.workers.unusable;
  return snapshot;
}

}  // namespace rescfg::clearml
