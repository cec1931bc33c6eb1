#pragma once
/// The state directory of rescfg(1), COMMANDS: the provisioned configuration, every
/// revision and an append-only history, safe against crashes and
/// concurrent writers.
///
/// Layout of DIR:
///   lock               flock'ed: shared by readers, exclusive by provision
///   revisions/000001.yaml ...          canonical text of each revision
///   revisions/000001.source.yaml ...   its source text as provisioned
///   history.jsonl      one JSON object a line: revision, sha256, time,
///                      user, message, changes, sourceSha256
///   config.yaml        canonical text of the current revision (a copy)
///
/// Commit order: the source file, the revision file, then the history
/// line, then config.yaml. The history line is the commit point: the last
/// complete entry is the current revision. A crash before it leaves
/// uncommitted revision files (ignored, and replaced by the next
/// provision); a crash during it leaves a torn last line (not committed;
/// dropped, with a warning, by the next provision) or, when only its final
/// newline is missing, a whole entry (committed when its revision file
/// matches its sha256; the next provision completes the line); a crash
/// after it leaves config.yaml one revision behind (reported; rewritten by
/// the next provision). Any other mismatch — a file whose sha256 is not the
/// one the history records, a damaged complete history line, a missing
/// revision, a state file that is not a regular file — is corruption: an
/// error, never repaired.
///
/// Revisions written by earlier versions of rescfg have no source file and
/// no sourceSha256; they stay readable, and their canonical text stands in
/// for their source.
///
/// Every state file is opened without blocking and without following a
/// symbolic link (state_file.h).

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "state/history.h"
#include "util/lockfile.h"

namespace rescfg {

class StateStore {
 public:
  enum class Access { kRead, kWrite };

  /// Opens and locks `dir` and reads its history. kRead needs an existing
  /// directory; kWrite creates it (one level) when missing, refuses a
  /// non-empty directory that is not a state directory, and verifies the
  /// whole state (VerifyAll) before anything is written. On failure returns
  /// nullopt with `error` set (the caller exits 2).
  static std::optional<StateStore> Open(const std::string& dir, Access access,
                                        int lock_timeout_seconds, std::string* error);

  /// Committed revisions, oldest first.
  const std::vector<HistoryEntry>& history() const { return history_; }
  /// The current revision; 0 when nothing is provisioned yet.
  long revision() const { return history_.empty() ? 0 : history_.back().revision; }
  /// The sha256 the history records for the current revision ("" at 0).
  std::string revision_sha256() const { return history_.empty() ? "" : history_.back().sha256; }
  /// Things found that an interrupted provision leaves behind (for warnings).
  const std::vector<std::string>& notes() const { return notes_; }

  /// Checks every revision file (canonical and source) against the sha256s
  /// of the history: what commands that write do first.
  bool VerifyAll(std::string* error) const;

  /// The canonical text of `revision` (1..revision()), checked against the
  /// sha256 in the history. nullopt with `error` set when missing or damaged.
  std::optional<std::string> ReadRevision(long revision, std::string* error) const;

  /// The source text of `revision` as provisioned, checked against its
  /// sha256. A revision of an earlier rescfg has none: then nullopt with
  /// `error` empty. nullopt with `error` set when missing or damaged.
  std::optional<std::string> ReadSource(long revision, std::string* error) const;

  /// The configuration of `revision` (defaults applied). Revision 0 is the
  /// empty configuration. nullopt with `error` set when damaged, or invalid
  /// under this version's rules while `validate` is set (provision only
  /// needs it for the diff, so a stored revision that newer rules reject
  /// never blocks provisioning its fix).
  std::optional<Config> ReadConfig(long revision, std::string* error, bool validate = true) const;

  struct NewRevision {
    std::string canonical;  ///< what is stored, hashed and diffed
    std::string source;     ///< the file as provisioned, byte for byte
    std::string message;
    long changes = 0;
  };
  enum class CommitResult {
    kCommitted,            ///< revision()+1 is stored, config.yaml too
    kRefused,              ///< the round-trip guard refused it; nothing written
    kNotCommitted,         ///< a write failed before the commit point; state unchanged
    kCommittedCopyFailed,  ///< committed, but config.yaml could not be rewritten
  };
  /// Stores a new revision as revision()+1 (needs kWrite). First the
  /// round-trip guard: the canonical text must load, validate and write
  /// back byte-identical. `error` says why when the result is not kCommitted.
  CommitResult Commit(const NewRevision& next, std::string* error);

  /// True when config.yaml still holds the previous revision (or is missing)
  /// because a provision was interrupted after its commit point.
  bool config_copy_stale() const { return config_copy_stale_; }
  /// Rewrites config.yaml from the current revision (needs kWrite), and
  /// completes a last history line that lacks its newline.
  bool RewriteConfigCopy(std::string* error);

  const std::string& dir() const { return dir_; }

 private:
  StateStore(std::string dir, FileLock lock) : dir_(std::move(dir)), lock_(std::move(lock)) {}
  bool ReadHistory(std::string* error);
  bool CheckConfigCopy(std::string* error);
  /// Completes or drops an unfinished last history line (needs kWrite).
  bool RepairHistoryTail(std::string* error);
  /// Removes temporary files of interrupted writes (only under kWrite: no
  /// other writer can be running), by their exact names only.
  void RemoveTemporaryFiles();
  std::optional<std::string> ReadChecked(const std::string& path, const std::string& sha256,
                                         std::string* error) const;
  std::string RevisionPath(long revision) const;
  std::string SourcePath(long revision) const;

  std::string dir_;
  FileLock lock_;
  std::vector<HistoryEntry> history_;
  std::vector<std::string> notes_;
  size_t history_bytes_ = 0;      ///< length of the complete lines of history.jsonl
  bool torn_tail_ = false;        ///< history.jsonl ends in an uncommitted incomplete line
  bool unterminated_tail_ = false;  ///< its last (committed) line lacks its '\n'
  bool config_copy_stale_ = false;
};

/// The provisioned configuration of a state directory, defaults applied:
/// what `schedule --state`, `status --state`, `graph --state` and
/// `diff NEW --state` work on.
struct ProvisionedConfig {
  std::optional<Config> config;  ///< set on success
  long revision = 0;
  std::string sha256;            ///< the history's sha256 of that revision
  std::string error;             ///< set on failure: missing, locked, corrupt, nothing provisioned
  std::vector<std::string> notes;  ///< leftovers of an interrupted provision, worth a warning
};
/// The configuration of the state's current revision. `last`, the answer of
/// an earlier call on the same state: when the current revision is still
/// that one (its number and sha256), its configuration is taken again
/// instead of reading, parsing and validating the revision anew (a sync
/// with --interval reads the state at every cycle).
ProvisionedConfig LoadProvisionedConfig(const std::string& dir, int lock_timeout_seconds,
                                        const ProvisionedConfig* last = nullptr);

/// The state directory a file written at `path` would land in (through a
/// final symbolic link, and in any directory below the state's), or "" when
/// none: an output there would corrupt the state the commands read, so
/// outputs refuse it. A state directory is one with a history.jsonl, or
/// with revisions/ beside its lock or plan key.
std::string StateDirectoryHolding(const std::string& path);

/// "000042.yaml", and "000042.source.yaml" for the source text.
std::string RevisionFileName(long revision);
std::string SourceFileName(long revision);

}  // namespace rescfg
