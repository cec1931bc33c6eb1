#pragma once
/// The journal of `rescfg sync` (DIR/sync/journal): the moves it is about
/// to make, written durably before the first call of each, and the tasks
/// it handed to a pool and that still wait there.
///
/// A move takes two calls (out of the policy queue, into the pool queue);
/// a crash between them would leave a task queued in no queue. So the
/// intent is appended and fsynced first, the result afterwards; the next
/// cycle finds every intent without a result and completes or undoes it
/// from what the server shows (rescfg(1), "rescfg sync").
///
/// File: a first line "rescfg-sync-journal 1", then one record a line,
/// "<first 16 hex digits of the sha256 of JSON> <JSON>". Every complete
/// line must verify: anything else is corruption, an error, never
/// repaired. Only a last line without its newline (a crash while
/// appending) is dropped: what it said was not yet acted on. The sync
/// (Open, under its lock) also cuts it off the file, durably, before it
/// appends anything: a record appended after the fragment would be glued
/// to it into a line that never verifies. Readers without the lock (Read)
/// drop it in memory only and never change the file.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "decide/clearml_actions.h"

namespace rescfg::sync {

/// An action about to be carried out (its kind: a move, a stop or a
/// re-queue; records without a kind, written before stops, are moves).
struct MoveIntent {
  uint64_t seq = 0;     ///< set by Journal::Begin
  int64_t cycle = 0;
  std::string task, name, policy, profile, pool;
  std::string from, from_id;  ///< the policy queue: name and id
  std::string to, to_id;      ///< move: the pool or link queue; stop: the queue it runs from, if known
  std::string changed;        ///< the task's status_changed when the action was decided ("" unknown)
  ActionKind kind = ActionKind::kMove;
  std::string preemptor;      ///< stop, re-queue: "POLICY/JOB" it is stopped for
  std::string reason;         ///< stop: the status_reason sent
  int64_t asked_us = 0;       ///< stop: when the stop was asked (UTC microseconds)
};
using ActionIntent = MoveIntent;

/// A task handed to a pool that has not started yet.
struct HandoverRecord {
  std::string task, pool, policy, profile;
  std::string from, from_id, to, to_id;
};

class Journal {
 public:
  /// Reads and verifies `path`, for the sync that holds DIR/sync/lock; a
  /// missing or empty file is an empty journal (its first line written at
  /// the first write). A last line cut short by a crash (the first line
  /// too) is truncated away durably, and warning() says so. nullopt with
  /// `error` set when it is corrupt, unreadable or cannot be truncated.
  static std::optional<Journal> Open(const std::string& path, std::string* error);
  /// Open for a reader without the lock (`--jobs-from-sync`): the file is
  /// never changed (a sync may be appending to it), a torn last line is
  /// only left out, and the journal it returns refuses every write.
  static std::optional<Journal> Read(const std::string& path, std::string* error);

  /// What Open repaired ("PATH: ... truncated ..."), for the log; "" when nothing.
  const std::string& warning() const { return warning_; }

  /// Intents without a result, by seq.
  const std::map<uint64_t, MoveIntent>& unfinished() const { return unfinished_; }
  /// Hand-overs by task id.
  const std::map<std::string, HandoverRecord>& handovers() const { return handovers_; }
  /// The victims rescfg asked to stop and has not re-queued or let go yet, by task id
  /// (sync/preemption_settle.h).
  const std::map<std::string, MoveIntent>& stops() const { return stops_; }
  /// The hand-overs as the snapshot reader takes them, with the tasks of
  /// the moves still open (whether they happened cannot be told yet: they
  /// hold the pool they were meant for).
  clearml::Handovers AsHandovers() const;

  /// Gives each intent its seq and appends them all with one write and one
  /// fsync: after this returns, they survive a crash.
  bool Begin(std::vector<MoveIntent>* intents, std::string* error);
  /// Records an intent's end (not yet written: Flush). `moved` makes it a
  /// hand-over.
  void Finish(uint64_t seq, const std::string& result, bool moved);
  /// Forgets a hand-over: its task started, ended, or is back in its
  /// policy queue (not yet written: Flush).
  void Release(const std::string& task);
  /// Forgets a stop: its victim was re-queued, ended on its own, or is
  /// running again (not yet written: Flush).
  void ReleaseStop(const std::string& task);
  /// Appends what Finish and Release recorded, with one fsync.
  bool Flush(std::string* error);
  /// Rewrites the file with only what is still open (hand-overs and
  /// unfinished intents), atomically.
  bool Compact(std::string* error);

  const std::string& path() const { return path_; }

 private:
  explicit Journal(std::string path) : path_(std::move(path)) {}
  static std::optional<Journal> Load(const std::string& path, bool repair, std::string* error);
  bool Apply(const std::string& json, std::string* error);
  bool Writable(std::string* error) const;
  static std::string Line(const std::string& json);

  std::string path_;
  bool has_header_ = false;  ///< the file holds its whole first line: appends need not write it
  bool read_only_ = false;   ///< from Read: no write is allowed
  std::string warning_;
  uint64_t next_seq_ = 1;
  std::map<uint64_t, MoveIntent> unfinished_;
  std::map<std::string, HandoverRecord> handovers_;
  std::map<std::string, MoveIntent> stops_;
  std::string pending_;  ///< lines recorded by Finish and Release, not yet written
};

}  // namespace rescfg::sync
