#include "clearml/snapshot.h"

#include <atomic>
#include <optional>

#include "clearml/tasks.h"
#include "jobs/job_directory.h"
#include "jobs/near_misses.h"
#include "jobs/resolve_clearml.h"
#include "util/joined_thread.h"

namespace rescfg::clearml {

CompanionsAhead::CompanionsAhead(const SnapshotFiles& files)
    : files_(files), reader_([this] {
        tasks_.Find();
        Help(&workers_);
      }) {}

bool CompanionsAhead::Help(WorkerList* workers) {
  if (!queues_taken_.exchange(true)) {
    struct Read {  // however the read ends
      std::latch& done;
      ~Read() { done.count_down(); }
    } read{queues_read_};
    if (!files_.queues.empty()) queues_ = ReadQueuesFile(files_.queues, false);
  }
  const bool took = !workers_taken_.exchange(true);
  if (took && !files_.workers.empty()) *workers = ReadWorkersFile(files_.workers);
  queues_read_.wait();
  for (size_t part : {size_t(1), size_t(0)}) {
    if (!part_taken_[part].exchange(true)) queues_.IndexPart(part);
  }
  return took;
}

Snapshot LoadClearmlSnapshot(const SnapshotFiles& files, const std::vector<std::string>& param_paths,
                             const Config* resolve_against, const Handovers* handovers,
                             const std::vector<const Config*>& match_against, CompanionsAhead* ahead) {
  Snapshot snapshot;
  if (ahead != nullptr && (ahead->files_.queues != files.queues || ahead->files_.workers != files.workers)) {
    ahead = nullptr;  // read for other files
  }
  // The queues file, the biggest companion, is read on a thread of its own
  // while this one reads the tasks file and finds its tasks; the workers
  // file by whichever of the two is done first. The tasks' parse waits for
  // both, and the queues' listings are indexed on both threads meanwhile.
  // Read ahead, the tasks were being found while the configuration loaded,
  // and this thread takes the companions' work that is left.
  std::atomic<bool> workers_taken{false};
  auto read_workers = [&] {
    if (!workers_taken.exchange(true) && !files.workers.empty()) snapshot.workers = ReadWorkersFile(files.workers);
  };
  std::optional<JoinedThread> reader;
  if (ahead == nullptr) {
    reader.emplace([&] {
      if (!files.queues.empty()) snapshot.queues = ReadQueuesFile(files.queues, false);
      read_workers();
    });
  }
  bool companions_read = false;
  auto read_companions = [&] {
    if (companions_read) return;
    companions_read = true;
    if (ahead != nullptr) {
      WorkerList workers;  // when this thread takes them
      const bool took = ahead->Help(&workers);
      ahead->reader_.Join();
      snapshot.queues = std::move(ahead->queues_);
      snapshot.queues.IndexListings();  // both parts are built: frees what they were built from
      snapshot.workers = std::move(took ? workers : ahead->workers_);
      return;
    }
    read_workers();
    reader->Join();
    snapshot.queues.IndexListings();
  };
  auto ready = [&]() -> Companions {
    read_companions();
    // An unusable companion makes the whole input unusable: the tasks are
    // read all the same, for their own findings, but linked to nothing.
    if (snapshot.queues.unusable || snapshot.workers.unusable) return {};
    return {files.queues.empty() ? nullptr : &snapshot.queues, files.workers.empty() ? nullptr : &snapshot.workers,
            handovers};
  };
  if (ahead != nullptr) read_companions();
  snapshot.jobs =
      LoadClearmlTasksFile(files.tasks, ready, param_paths, resolve_against, ahead != nullptr ? &ahead->tasks_ : nullptr);
  read_companions();  // also when the tasks file was unusable before it needed them
  if (!snapshot.jobs.unusable) NearMissWarnings(&snapshot.jobs);
  for (const auto* part : {&snapshot.jobs.findings, &snapshot.queues.findings, &snapshot.workers.findings}) {
    snapshot.findings.insert(snapshot.findings.end(), part->begin(), part->end());
  }
  snapshot.unusable = snapshot.jobs.unusable || snapshot.queues.unusable || snapshot.workers.unusable;
  if (snapshot.unusable) return snapshot;
  // Nothing matched: the best match over the configurations decides.
  std::optional<QueueMatches> best;
  auto consider = [&](QueueMatches m) {
    if (!best || m.matched > best->matched) best = std::move(m);
  };
  if (snapshot.jobs.resolved) consider(snapshot.jobs.resolved->matches);
  for (const Config* config : match_against) consider(MatchQueues(*config, snapshot.jobs.entries, &JobsArena(&snapshot.jobs)));
  if (best) {
    if (auto finding = NothingMatched(*best, snapshot.jobs.file, !files.queues.empty())) {
      snapshot.findings.push_back(std::move(*finding));
      snapshot.unusable = true;
    }
  }
  return snapshot;
}

QueueMatches MatchQueues(const Config& config, const std::vector<JobEntry>& entries, TextArena* arena) {
  const JobDirectory dir(config);
  QueueMemo queues(dir);
  QueueMatches matches;
  for (const JobEntry& e : entries) {
    if (e.clearml_task && e.queue) matches.Count(TaskMatchesQueue(queues, e), e, arena);
  }
  return matches;
}

std::optional<Finding> NothingMatched(const QueueMatches& matches, const std::string& file, bool queues_given) {
  if (matches.tasks == 0 || matches.matched > 0) return std::nullopt;
  const std::string tasks = std::to_string(matches.tasks) + (matches.tasks == 1 ? " task" : " tasks");
  if (!queues_given && matches.by_id > 0) {
    return Finding{"nothing-matched", Severity::kError, file, {}, "",
                   "none of the " + tasks + " names a queue of the configuration: their execution.queue is a queue "
                   "ID, and no queues file was given to map IDs to names",
                   "give --clearml-queues with a queues.get_all response"};
  }
  std::string seen;
  for (size_t i = 0; i < matches.seen.size(); ++i) seen += (i == 0 ? "'" : ", '") + std::string(matches.seen[i]) + "'";
  if (matches.seen.size() == QueueMatches::kSeen) seen += ", ...";
  return Finding{"nothing-matched", Severity::kError, file, {}, "",
                 "none of the " + tasks + " is in a policy, pool or link queue of the configuration; queues seen: " +
                     seen,
                 "check that the snapshot comes from the server this configuration governs"};
}

}  // namespace rescfg::clearml
