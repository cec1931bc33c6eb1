#include "state/state_store.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/plan_key.h"
#include "state/revision_check.h"
#include "util/atomic_file.h"
#include "util/crash_point.h"
#include "util/digest.h"
#include "util/state_file.h"

namespace rescfg {
namespace {

constexpr const char* kHistoryFile = "history.jsonl";
constexpr const char* kConfigFile = "config.yaml";
constexpr const char* kRevisionsDir = "revisions";
constexpr const char* kLockFile = "lock";

/// Names in `dir` other than "." and ".."; nullopt when it cannot be read.
std::optional<std::vector<std::string>> ListDirectory(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return std::nullopt;
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  return names;
}

/// Creates the state directory (one level) and its revisions/ directory.
bool CreateStateDirectory(const std::string& dir, std::string* error) {
  bool created = false;
  if (::mkdir(dir.c_str(), 0700) == 0) {
    created = true;
  } else if (errno != EEXIST) {
    *error = dir + ": cannot create the state directory: " + std::strerror(errno);
    return false;
  }
  const std::string revisions = dir + "/" + kRevisionsDir;
  if (::mkdir(revisions.c_str(), 0700) != 0 && errno != EEXIST) {
    *error = revisions + ": cannot create: " + std::strerror(errno);
    return false;
  }
  if (!SyncDirectory(dir, error)) return false;
  return !created || SyncDirectory(DirectoryOf(dir), error);
}

/// True for "000042.yaml" and "000042.source.yaml" (six digits or more).
bool IsRevisionFileName(std::string_view name) {
  size_t digits = 0;
  while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') ++digits;
  if (digits < 6) return false;
  std::string_view rest = name.substr(digits);
  return rest == ".yaml" || rest == ".source.yaml";
}

std::string Corrupt(const std::string& dir, const std::string& what) {
  return "state directory '" + dir + "' is corrupt: " + what;
}

}  // namespace

std::string RevisionFileName(long revision) {
  char name[32];
  std::snprintf(name, sizeof name, "%06ld.yaml", revision);
  return name;
}

std::string SourceFileName(long revision) {
  char name[40];
  std::snprintf(name, sizeof name, "%06ld.source.yaml", revision);
  return name;
}

std::optional<StateStore> StateStore::Open(const std::string& dir, Access access,
                                           int lock_timeout_seconds, std::string* error) {
  struct stat st {};
  if (dir.empty()) {
    *error = "the state directory name is empty";
    return std::nullopt;
  }
  if (::stat(dir.c_str(), &st) != 0) {
    if (access == Access::kRead) {
      *error = "state directory '" + dir + "' does not exist; nothing has been provisioned there";
      return std::nullopt;
    }
    if (!CreateStateDirectory(dir, error)) return std::nullopt;
  } else if (!S_ISDIR(st.st_mode)) {
    *error = "state directory '" + dir + "' is not a directory";
    return std::nullopt;
  } else {
    auto names = ListDirectory(dir);
    if (!names) {
      *error = dir + ": cannot read the state directory: " + std::strerror(errno);
      return std::nullopt;
    }
    bool is_state = names->empty();
    for (const auto& name : *names) {
      if (name == kHistoryFile || name == kRevisionsDir || name == kLockFile || name == kPlanKeyFile) is_state = true;
    }
    if (!is_state) {
      *error = "'" + dir + "' is not a rescfg state directory (it has files but no " +
               kHistoryFile + "); refusing to use it";
      return std::nullopt;
    }
    const EntryKind revisions = KindOf(dir + "/" + kRevisionsDir);
    if (revisions != EntryKind::kMissing && revisions != EntryKind::kDirectory) {
      *error = Corrupt(dir, std::string(kRevisionsDir) + " is " + DescribeKind(dir + "/" + kRevisionsDir) +
                                ", not a directory");
      return std::nullopt;
    }
    // Only a state without history may still lack its revisions/ directory.
    if (access == Access::kWrite && KindOf(dir + "/" + kHistoryFile) == EntryKind::kMissing &&
        !CreateStateDirectory(dir, error)) {
      return std::nullopt;
    }
  }
  auto lock = FileLock::Acquire(dir + "/" + kLockFile,
                                access == Access::kWrite ? FileLock::Mode::kExclusive
                                                         : FileLock::Mode::kShared,
                                lock_timeout_seconds, error);
  if (!lock) {
    *error = "state directory '" + dir + "': " + *error;
    return std::nullopt;
  }
  StateStore store(dir, std::move(*lock));
  if (!store.ReadHistory(error) || !store.CheckConfigCopy(error)) return std::nullopt;
  if (access == Access::kWrite && !store.VerifyAll(error)) return std::nullopt;
  const long next = store.revision() + 1;
  for (const std::string& name : {RevisionFileName(next), SourceFileName(next)}) {
    if (KindOf(dir + "/" + kRevisionsDir + "/" + name) != EntryKind::kMissing) {
      store.notes_.push_back(std::string(kRevisionsDir) + "/" + name +
                             " was left by an interrupted provision; it is not part of the history");
    }
  }
  return store;
}

std::string StateStore::RevisionPath(long revision) const {
  return dir_ + "/" + kRevisionsDir + "/" + RevisionFileName(revision);
}

std::string StateStore::SourcePath(long revision) const {
  return dir_ + "/" + kRevisionsDir + "/" + SourceFileName(revision);
}

bool StateStore::ReadHistory(std::string* error) {
  const std::string path = dir_ + "/" + kHistoryFile;
  bool missing = false;
  auto text = ReadStateFile(path, error, &missing);
  if (missing) {
    // No history: nothing provisioned yet. A lone revision 1 is a first
    // provision interrupted before its history line (not committed); any
    // other revision, or a config copy, means the history was lost.
    bool has_revisions = false;
    for (const auto& name : ListDirectory(dir_ + "/" + kRevisionsDir).value_or(std::vector<std::string>{})) {
      if (name[0] != '.' && name != RevisionFileName(1) && name != SourceFileName(1)) has_revisions = true;
    }
    if (has_revisions || KindOf(dir_ + "/" + kConfigFile) != EntryKind::kMissing) {
      *error = Corrupt(dir_, std::string(kHistoryFile) + " is missing but revisions exist");
      return false;
    }
    error->clear();
    return true;
  }
  if (!text) {
    *error = Corrupt(dir_, *error);
    return false;
  }
  ParsedHistory parsed = ParseHistory(*text);
  if (!parsed.error.empty()) {
    *error = Corrupt(dir_, parsed.error);
    return false;
  }
  history_ = std::move(parsed.entries);
  history_bytes_ = parsed.complete_bytes;
  if (parsed.tail == ParsedHistory::Tail::kTorn) {
    torn_tail_ = true;
    notes_.push_back(std::string(kHistoryFile) +
                     " ends in an incomplete line left by an interrupted provision; it is not part of the history");
  } else if (parsed.tail == ParsedHistory::Tail::kUnterminated) {
    // Whole but for its newline: committed if its revision is intact.
    history_.push_back(*parsed.tail_entry);
    std::string why;
    if (!ReadRevision(revision(), &why) || (!history_.back().source_sha256.empty() && !ReadSource(revision(), &why))) {
      *error = Corrupt(dir_, std::string(kHistoryFile) + " ends in an entry for revision " +
                                 std::to_string(revision()) + " without its newline, and its revision does not match (" +
                                 why + ")");
      return false;
    }
    unterminated_tail_ = true;
    notes_.push_back(std::string(kHistoryFile) + ": the entry of revision " + std::to_string(revision()) +
                     " lacks its final newline (an interrupted provision); it is complete and committed, and the "
                     "next provision completes the line");
  }
  return true;
}

bool StateStore::CheckConfigCopy(std::string* error) {
  const std::string path = dir_ + "/" + kConfigFile;
  const long current = revision();
  bool missing = false;
  auto text = ReadStateFile(path, error, &missing);
  if (missing) {
    error->clear();
    if (current <= 1) {
      config_copy_stale_ = current == 1;
      if (config_copy_stale_) notes_.push_back("config.yaml is missing: the provision of revision 1 was interrupted after it was committed");
      return true;
    }
    *error = Corrupt(dir_, std::string(kConfigFile) + " is missing");
    return false;
  }
  if (!text) {
    *error = Corrupt(dir_, *error);
    return false;
  }
  const std::string sha = Sha256Hex(*text);
  if (current > 0 && sha == history_[current - 1].sha256) return true;
  if (current > 1 && sha == history_[current - 2].sha256) {
    config_copy_stale_ = true;
    notes_.push_back("config.yaml still holds revision " + std::to_string(current - 1) +
                     ": the provision of revision " + std::to_string(current) +
                     " was interrupted after it was committed");
    return true;
  }
  *error = Corrupt(dir_, std::string(kConfigFile) +
                             (current == 0 ? " exists but nothing was provisioned"
                                           : " does not match revision " + std::to_string(current) + " (sha256 " +
                                                 sha.substr(0, 12) + ", recorded " +
                                                 history_[current - 1].sha256.substr(0, 12) +
                                                 "); it was edited or damaged"));
  return false;
}

bool StateStore::VerifyAll(std::string* error) const {
  for (const HistoryEntry& entry : history_) {
    if (!ReadRevision(entry.revision, error)) return false;
    if (!ReadSource(entry.revision, error) && !error->empty()) return false;
  }
  return true;
}

std::optional<std::string> StateStore::ReadChecked(const std::string& path, const std::string& sha256,
                                                   std::string* error) const {
  auto text = ReadStateFile(path, error);
  if (!text) {
    *error = Corrupt(dir_, *error);
    return std::nullopt;
  }
  const std::string sha = Sha256Hex(*text);
  if (sha != sha256) {
    *error = Corrupt(dir_, path + " does not match its sha256 (" + sha.substr(0, 12) + ", recorded " +
                               sha256.substr(0, 12) + "); it was edited or damaged");
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> StateStore::ReadRevision(long revision, std::string* error) const {
  if (revision < 1 || revision > this->revision()) {
    *error = this->revision() == 0
                 ? "nothing has been provisioned in '" + dir_ + "' yet"
                 : "there is no revision " + std::to_string(revision) + " in '" + dir_ +
                       "' (revisions 1 to " + std::to_string(this->revision()) + ")";
    return std::nullopt;
  }
  return ReadChecked(RevisionPath(revision), history_[revision - 1].sha256, error);
}

std::optional<std::string> StateStore::ReadSource(long revision, std::string* error) const {
  error->clear();
  if (revision < 1 || revision > this->revision()) return ReadRevision(revision, error);
  const HistoryEntry& entry = history_[revision - 1];
  if (entry.source_sha256.empty()) return std::nullopt;  // an earlier rescfg kept none
  return ReadChecked(SourcePath(revision), entry.source_sha256, error);
}

bool StateStore::RepairHistoryTail(std::string* error) {
  const std::string history_path = dir_ + "/" + kHistoryFile;
  if (torn_tail_) {
    if (!TruncateDurably(history_path, history_bytes_, error)) return false;
    torn_tail_ = false;
  }
  if (unterminated_tail_) {
    // Never truncate a committed entry: give it back its newline.
    if (!AppendDurably(history_path, "\n", error)) return false;
    unterminated_tail_ = false;
  }
  return true;
}

StateStore::CommitResult StateStore::Commit(const NewRevision& next, std::string* error) {
  if (std::string problem = RoundTripProblem(next.canonical); !problem.empty()) {
    *error = "refusing to store revision " + std::to_string(revision() + 1) + ": " + problem;
    return CommitResult::kRefused;
  }
  const std::string history_path = dir_ + "/" + kHistoryFile;
  if (!RepairHistoryTail(error)) return CommitResult::kNotCommitted;
  RemoveTemporaryFiles();
  CrashPoint();
  HistoryEntry entry;
  entry.revision = revision() + 1;
  entry.sha256 = Sha256Hex(next.canonical);
  entry.source_sha256 = Sha256Hex(next.source);
  entry.time = UtcNow();
  entry.user = CurrentUser();
  entry.message = next.message;
  entry.changes = next.changes;
  if (!WriteFileAtomically(SourcePath(entry.revision), next.source, error) ||
      !WriteFileAtomically(RevisionPath(entry.revision), next.canonical, error)) {
    return CommitResult::kNotCommitted;
  }
  const std::string line = HistoryLine(entry) + "\n";
  if (!AppendDurably(history_path, line, error)) return CommitResult::kNotCommitted;
  CrashPoint();  // committed; config.yaml not yet replaced
  history_bytes_ += line.size();
  history_.push_back(std::move(entry));
  config_copy_stale_ = true;
  if (!WriteFileAtomically(dir_ + "/" + kConfigFile, next.canonical, error)) {
    return CommitResult::kCommittedCopyFailed;
  }
  config_copy_stale_ = false;
  return CommitResult::kCommitted;
}

bool StateStore::RewriteConfigCopy(std::string* error) {
  if (!RepairHistoryTail(error)) return false;
  auto text = ReadRevision(revision(), error);
  if (!text || !WriteFileAtomically(dir_ + "/" + kConfigFile, *text, error)) return false;
  config_copy_stale_ = false;
  return true;
}

void StateStore::RemoveTemporaryFiles() {
  auto remove_if = [](const std::string& dir, auto is_temporary) {
    for (const auto& name : ListDirectory(dir).value_or(std::vector<std::string>{})) {
      const std::string path = dir + "/" + name;
      if (is_temporary(name) && KindOf(path) == EntryKind::kRegular) ::unlink(path.c_str());
    }
  };
  remove_if(dir_, [](const std::string& name) { return IsTemporaryNameOf(name, kConfigFile); });
  remove_if(dir_ + "/" + kRevisionsDir, [](const std::string& name) {
    size_t at = name.rfind(".tmp-");
    return name.size() > 1 && name[0] == '.' && at != std::string::npos && at > 1 &&
           IsRevisionFileName(std::string_view(name).substr(1, at - 1)) &&
           IsTemporaryNameOf(name, std::string_view(name).substr(1, at - 1));
  });
}

std::optional<Config> StateStore::ReadConfig(long revision, std::string* error, bool validate) const {
  if (revision == 0) {
    Config empty;
    ApplyDefaults(empty);
    return empty;
  }
  auto text = ReadRevision(revision, error);
  if (!text) return std::nullopt;
  return LoadStoredConfig(*text, RevisionPath(revision), validate, error);
}

ProvisionedConfig LoadProvisionedConfig(const std::string& dir, int lock_timeout_seconds,
                                        const ProvisionedConfig* last) {
  ProvisionedConfig result;
  auto store = StateStore::Open(dir, StateStore::Access::kRead, lock_timeout_seconds, &result.error);
  if (!store) return result;
  result.notes = store->notes();
  if (store->revision() == 0) {
    result.error = "nothing has been provisioned in '" + dir + "' yet; run rescfg provision first";
    return result;
  }
  result.revision = store->revision();
  result.sha256 = store->revision_sha256();
  if (last != nullptr && last->config && last->revision == result.revision && last->sha256 == result.sha256) {
    result.config = last->config;
  } else {
    result.config = store->ReadConfig(store->revision(), &result.error);
  }
  return result;
}

std::string StateDirectoryHolding(const std::string& path) {
  auto real = [](const std::string& p) -> std::string {
    char* resolved = ::realpath(p.c_str(), nullptr);
    std::string result = resolved ? resolved : "";
    std::free(resolved);
    return result;
  };
  // Where the bytes would go: an existing path through its links; a new
  // file in its parent, resolved.
  std::string dir = real(path);
  dir = dir.empty() ? real(DirectoryOf(path)) : DirectoryOf(dir);
  while (!dir.empty()) {
    const bool has_revisions = KindOf(dir + "/" + kRevisionsDir) == EntryKind::kDirectory;
    if (KindOf(dir + "/" + kHistoryFile) == EntryKind::kRegular ||
        (has_revisions && (KindOf(dir + "/" + kLockFile) != EntryKind::kMissing ||
                           KindOf(dir + "/" + kPlanKeyFile) != EntryKind::kMissing))) {
      return dir;
    }
    if (dir == "/") break;
    dir = DirectoryOf(dir);
  }
  return "";
}

}  // namespace rescfg
