#include "sync/kept_snapshot.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "sync/journal.h"
#include "util/atomic_file.h"

namespace rescfg::sync {

SyncPaths SyncPathsOf(const std::string& state_dir) {
  const std::string dir = state_dir + "/sync";
  return {dir, dir + "/tasks.json", dir + "/queues.json", dir + "/workers.json", dir + "/journal", dir + "/lock"};
}

bool MakeSyncDirectory(const SyncPaths& paths, std::string* error) {
  if (::mkdir(paths.dir.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = paths.dir + ": cannot create: " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::lstat(paths.dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = paths.dir + ": not a directory";
    return false;
  }
  return SyncDirectory(DirectoryOf(paths.dir), error);
}

bool WriteKeptSnapshot(const SyncPaths& paths, const ServerSnapshot& snapshot, std::string* error) {
  return WriteFileAtomically(paths.queues, snapshot.queues_json, error) &&
         WriteFileAtomically(paths.workers, snapshot.workers_json, error) &&
         WriteFileAtomically(paths.tasks, snapshot.tasks_json, error);
}

clearml::Snapshot LoadKeptSnapshot(const SyncPaths& paths, const std::vector<std::string>& param_paths,
                                   const Config* resolve_against, const clearml::Handovers& handovers) {
  return clearml::LoadClearmlSnapshot({paths.tasks, paths.queues, paths.workers}, param_paths, resolve_against,
                                      &handovers);
}

bool ReadHandovers(const SyncPaths& paths, clearml::Handovers* handovers, std::string* error) {
  auto journal = Journal::Read(paths.journal, error);  // without the lock: never changes the file
  if (!journal) return false;
  *handovers = journal->AsHandovers();
  return true;
}

}  // namespace rescfg::sync
