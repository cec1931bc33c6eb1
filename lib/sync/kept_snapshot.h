#pragma once
/// What a sync keeps in the state directory (DIR/sync/): the last cycle's
/// snapshot of the server, as the snapshot reader reads it, so that
/// `schedule`, `status` and `explain --jobs-from-sync` answer "why does
/// this task wait?" without a second fetch; the journal; the sync lock.
///   DIR/sync/tasks.json     every queued and running task (a JSON array)
///   DIR/sync/queues.json    the queues.get_all answer
///   DIR/sync/workers.json   the workers.get_all answer
///   DIR/sync/journal        sync/journal.h
///   DIR/sync/lock           sync/sync_lock.h

#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/snapshot.h"
#include "config/model.h"
#include "sync/server_snapshot.h"

namespace rescfg::sync {

struct SyncPaths {
  std::string dir, tasks, queues, workers, journal, lock;
};
SyncPaths SyncPathsOf(const std::string& state_dir);

/// Creates DIR/sync when missing (DIR must exist).
bool MakeSyncDirectory(const SyncPaths& paths, std::string* error);

/// Writes the three files, each atomically (the tasks file last: a reader
/// between two renames sees the tasks of one cycle with the queues of the
/// next, never a torn file).
bool WriteKeptSnapshot(const SyncPaths& paths, const ServerSnapshot& snapshot, std::string* error);

/// Reads the kept snapshot with the journal's hand-overs: the one place
/// where they are given to the snapshot reader.
clearml::Snapshot LoadKeptSnapshot(const SyncPaths& paths, const std::vector<std::string>& param_paths,
                                   const Config* resolve_against, const clearml::Handovers& handovers);

/// The hand-overs of the journal in DIR/sync, for the commands that read a
/// kept snapshot; an empty set when there is no journal. Read only, as
/// these commands take no sync lock (Journal::Read). False with `error`
/// set when it is corrupt.
bool ReadHandovers(const SyncPaths& paths, clearml::Handovers* handovers, std::string* error);

}  // namespace rescfg::sync
