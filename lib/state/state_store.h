#pragma once
/// The state directory of SPEC §6: the provisioned configuration, every
/// revision and an append-only history, safe against crashes and
/// concurrent writers.
///
/// Layout of DIR:
///   lock               flock'ed: shared by readers, exclusive by provision
///   revisions/000001.yaml ...   canonical text of each revision
///   history.jsonl      one JSON object a line: revision, sha256, time,
///                      user, message, changes
///   config.yaml        canonical text of the current revision (a copy)
///
/// Commit order: revision file, then the history line, then config.yaml.
/// The history line is the commit point: the last complete line is the
/// current revision. A crash before it leaves an uncommitted revision file
/// (ignored, and replaced by the next provision); a crash during it leaves a
/// torn last line without '\n' (not committed; dropped, with a warning, by
/// the next provision); a crash after it leaves config.yaml one revision
/// behind (reported; rewritten by the next provision). Any other mismatch —
/// a file whose sha256 is not the one the history records, a damaged
/// complete history line, a missing revision — is corruption: an error,
/// never repaired.

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "state/lockfile.h"

namespace rescfg {

class JsonWriter;

struct HistoryEntry {
  long revision = 0;
  std::string sha256;   ///< of the revision's canonical text
  std::string time;     ///< UTC, RFC 3339
  std::string user;
  std::string message;
  long changes = 0;     ///< number of changes against the previous revision
};

class StateStore {
 public:
  enum class Access { kRead, kWrite };

  /// Opens and locks `dir` and reads its history. kRead needs an existing
  /// directory; kWrite creates it (one level) when missing and refuses a
  /// non-empty directory that is not a state directory. On failure returns
  /// nullopt with `error` set (the caller exits 2).
  static std::optional<StateStore> Open(const std::string& dir, Access access,
                                        int lock_timeout_seconds, std::string* error);

  /// Committed revisions, oldest first.
  const std::vector<HistoryEntry>& history() const { return history_; }
  /// The current revision; 0 when nothing is provisioned yet.
  long revision() const { return history_.empty() ? 0 : history_.back().revision; }
  /// Things found that an interrupted provision leaves behind (for warnings).
  const std::vector<std::string>& notes() const { return notes_; }

  /// The canonical text of `revision` (1..revision()), checked against the
  /// sha256 in the history. nullopt with `error` set when missing or damaged.
  std::optional<std::string> ReadRevision(long revision, std::string* error) const;

  /// The configuration of `revision` (defaults applied). Revision 0 is the
  /// empty configuration. nullopt with `error` set when damaged, or invalid
  /// under this version's rules while `validate` is set (provision only
  /// needs it for the diff, so a stored revision that newer rules reject
  /// never blocks provisioning its fix).
  std::optional<Config> ReadConfig(long revision, std::string* error, bool validate = true) const;

  /// Stores `canonical_text` as revision revision()+1 (needs kWrite).
  /// Returns false with `error` set when a write fails; the state is then
  /// still the old revision, or the new one if the history line was written.
  bool Commit(const std::string& canonical_text, const std::string& message, long changes,
              std::string* error);

  /// True when config.yaml still holds the previous revision (or is missing)
  /// because a provision was interrupted after its commit point.
  bool config_copy_stale() const { return config_copy_stale_; }
  /// Rewrites config.yaml from the current revision (needs kWrite).
  bool RewriteConfigCopy(std::string* error);

  const std::string& dir() const { return dir_; }

 private:
  StateStore(std::string dir, FileLock lock) : dir_(std::move(dir)), lock_(std::move(lock)) {}
  bool ReadHistory(std::string* error);
  bool CheckConfigCopy(std::string* error);
  /// Removes temporary files of interrupted writes (only under kWrite: no
  /// other writer can be running).
  void RemoveTemporaryFiles();
  std::string RevisionPath(long revision) const;

  std::string dir_;
  FileLock lock_;
  std::vector<HistoryEntry> history_;
  std::vector<std::string> notes_;
  size_t history_bytes_ = 0;      ///< length of the committed part of history.jsonl
  bool torn_tail_ = false;        ///< history.jsonl ends in an incomplete line
  bool config_copy_stale_ = false;
};

/// The provisioned configuration of a state directory, defaults applied:
/// what `schedule --state`, `status --state`, `graph --state` and
/// `diff NEW --state` work on.
struct ProvisionedConfig {
  std::optional<Config> config;  ///< set on success
  long revision = 0;
  std::string error;             ///< set on failure: missing, locked, corrupt, nothing provisioned
  std::vector<std::string> notes;  ///< leftovers of an interrupted provision, worth a warning
};
ProvisionedConfig LoadProvisionedConfig(const std::string& dir, int lock_timeout_seconds);

/// Writes the fields of a history entry as one JSON object: the stored
/// history line and `rescfg history --format json` share it.
void WriteHistoryEntry(JsonWriter& json, const HistoryEntry& entry);
/// One history line as stored in history.jsonl (without the newline).
std::string HistoryLine(const HistoryEntry& entry);
/// Parses one history line; nullopt when damaged.
std::optional<HistoryEntry> ParseHistoryLine(std::string_view line);

/// The current time in UTC as RFC 3339, e.g. 2026-11-29T10:00:00Z.
std::string UtcNow();
/// $USER, else the name of the real user, else the numeric uid.
std::string CurrentUser();

}  // namespace rescfg
