#include "state/state_store.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <pwd.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/loader.h"
#include "file_io.h"
#include "output/json_writer.h"
#include "state/atomic_file.h"
#include "state/crash_point.h"
#include "state/sha256.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

constexpr const char* kHistoryFile = "history.jsonl";
constexpr const char* kConfigFile = "config.yaml";
constexpr const char* kRevisionsDir = "revisions";
constexpr const char* kLockFile = "lock";

bool Exists(const std::string& path, struct stat* st = nullptr) {
  struct stat local {};
  return ::stat(path.c_str(), st ? st : &local) == 0;
}

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

bool IsHex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

/// Creates the state directory (one level) and its revisions/ directory.
bool CreateStateDirectory(const std::string& dir, std::string* error) {
  bool created = false;
  if (::mkdir(dir.c_str(), 0777) == 0) {
    created = true;
  } else if (errno != EEXIST) {
    *error = dir + ": cannot create the state directory: " + std::strerror(errno);
    return false;
  }
  const std::string revisions = dir + "/" + kRevisionsDir;
  if (::mkdir(revisions.c_str(), 0777) != 0 && errno != EEXIST) {
    *error = revisions + ": cannot create: " + std::strerror(errno);
    return false;
  }
  if (!SyncDirectory(dir, error)) return false;
  return !created || SyncDirectory(DirectoryOf(dir), error);
}

/// "000042.yaml"
std::string RevisionName(long revision) {
  char name[32];
  std::snprintf(name, sizeof name, "%06ld.yaml", revision);
  return name;
}

}  // namespace

std::string UtcNow() {
  std::time_t now = std::time(nullptr);
  std::tm tm {};
  ::gmtime_r(&now, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buffer;
}

std::string CurrentUser() {
  if (const char* user = std::getenv("USER"); user && *user) return user;
  if (const passwd* pw = ::getpwuid(::getuid()); pw && pw->pw_name) return pw->pw_name;
  return std::to_string(::getuid());
}

void WriteHistoryEntry(JsonWriter& json, const HistoryEntry& entry) {
  json.BeginObject()
      .Field("revision", int64_t(entry.revision))
      .Field("sha256", entry.sha256)
      .Field("time", entry.time)
      .Field("user", entry.user)
      .Field("message", entry.message)
      .Field("changes", int64_t(entry.changes))
      .EndObject();
}

std::string HistoryLine(const HistoryEntry& entry) {
  JsonWriter json;
  WriteHistoryEntry(json, entry);
  return json.str();
}

std::optional<HistoryEntry> ParseHistoryLine(std::string_view line) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(line.data(), line.size()).get(root) != simdjson::SUCCESS) return std::nullopt;
  HistoryEntry entry;
  int64_t revision = 0, changes = 0;
  std::string_view sha, time, user, message;
  if (root["revision"].get_int64().get(revision) || root["sha256"].get_string().get(sha) ||
      root["time"].get_string().get(time) || root["user"].get_string().get(user) ||
      root["message"].get_string().get(message) || root["changes"].get_int64().get(changes)) {
    return std::nullopt;
  }
  if (revision <= 0 || changes < 0 || !IsHex64(sha)) return std::nullopt;
  entry.revision = revision;
  entry.sha256 = sha;
  entry.time = time;
  entry.user = user;
  entry.message = message;
  entry.changes = changes;
  return entry;
}

std::optional<StateStore> StateStore::Open(const std::string& dir, Access access,
                                           int lock_timeout_seconds, std::string* error) {
  struct stat st {};
  if (!Exists(dir, &st)) {
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
      if (name == kHistoryFile || name == kRevisionsDir || name == kLockFile) is_state = true;
    }
    if (!is_state) {
      *error = "'" + dir + "' is not a rescfg state directory (it has files but no " +
               kHistoryFile + "); refusing to use it";
      return std::nullopt;
    }
    // Only a state without history may still lack its revisions/ directory.
    if (access == Access::kWrite && !Exists(dir + "/" + kHistoryFile) &&
        !CreateStateDirectory(dir, error)) {
      return std::nullopt;
    }
  }
  auto lock = FileLock::Acquire(dir + "/" + kLockFile,
                                access == Access::kWrite ? FileLock::Mode::kExclusive
                                                         : FileLock::Mode::kShared,
                                lock_timeout_seconds, error);
  if (!lock) return std::nullopt;
  StateStore store(dir, std::move(*lock));
  if (!store.ReadHistory(error) || !store.CheckConfigCopy(error)) return std::nullopt;
  if (Exists(store.RevisionPath(store.revision() + 1))) {
    store.notes_.push_back(std::string(kRevisionsDir) + "/" + RevisionName(store.revision() + 1) +
                           " was left by an interrupted provision; it is not part of the history");
  }
  return store;
}

std::string StateStore::RevisionPath(long revision) const {
  return dir_ + "/" + kRevisionsDir + "/" + RevisionName(revision);
}

bool StateStore::ReadHistory(std::string* error) {
  const std::string path = dir_ + "/" + kHistoryFile;
  if (!Exists(path)) {
    // No history: nothing provisioned yet. A lone 000001.yaml is a first
    // provision interrupted before its history line (not committed); any
    // other revision, or a config copy, means the history was lost.
    bool has_revisions = false;
    for (const auto& name : ListDirectory(dir_ + "/" + kRevisionsDir).value_or(std::vector<std::string>{})) {
      if (name[0] != '.' && name != RevisionName(1)) has_revisions = true;
    }
    if (has_revisions || Exists(dir_ + "/" + kConfigFile)) {
      *error = "state directory '" + dir_ + "' is corrupt: " + kHistoryFile +
               " is missing but revisions exist";
      return false;
    }
    return true;
  }
  std::string read_error;
  auto text = ReadWholeFile(path, &read_error);
  if (!text) {
    *error = path + ": " + read_error;
    return false;
  }
  size_t start = 0;
  while (start < text->size()) {
    size_t end = text->find('\n', start);
    if (end == std::string::npos) {
      // A crash while appending: the line was never committed.
      torn_tail_ = true;
      notes_.push_back(std::string(kHistoryFile) +
                       " ends in an incomplete line left by an interrupted provision; it is not "
                       "part of the history");
      break;
    }
    std::string_view line(text->data() + start, end - start);
    auto entry = ParseHistoryLine(line);
    long expected = static_cast<long>(history_.size()) + 1;
    if (!entry || entry->revision != expected) {
      *error = "state directory '" + dir_ + "' is corrupt: " + kHistoryFile + " line " +
               std::to_string(expected) +
               (entry ? " records revision " + std::to_string(entry->revision) + ", expected " +
                            std::to_string(expected)
                      : " is damaged");
      return false;
    }
    history_.push_back(std::move(*entry));
    start = end + 1;
    history_bytes_ = start;
  }
  return true;
}

bool StateStore::CheckConfigCopy(std::string* error) {
  const std::string path = dir_ + "/" + kConfigFile;
  const long current = revision();
  if (!Exists(path)) {
    if (current <= 1) {
      config_copy_stale_ = current == 1;
      if (config_copy_stale_) notes_.push_back("config.yaml is missing: the provision of revision 1 was interrupted after it was committed");
      return true;
    }
    *error = "state directory '" + dir_ + "' is corrupt: " + kConfigFile + " is missing";
    return false;
  }
  std::string read_error;
  auto text = ReadWholeFile(path, &read_error);
  if (!text) {
    *error = path + ": " + read_error;
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
  *error = "state directory '" + dir_ + "' is corrupt: " + kConfigFile +
           (current == 0 ? " exists but nothing was provisioned"
                         : " does not match revision " + std::to_string(current) +
                               " (sha256 " + sha.substr(0, 12) + ", recorded " +
                               history_[current - 1].sha256.substr(0, 12) +
                               "); it was edited or damaged");
  return false;
}

std::optional<std::string> StateStore::ReadRevision(long revision, std::string* error) const {
  if (revision < 1 || revision > this->revision()) {
    *error = this->revision() == 0
                 ? "nothing has been provisioned in '" + dir_ + "' yet"
                 : "there is no revision " + std::to_string(revision) + " in '" + dir_ +
                       "' (revisions 1 to " + std::to_string(this->revision()) + ")";
    return std::nullopt;
  }
  const std::string path = RevisionPath(revision);
  std::string read_error;
  auto text = ReadWholeFile(path, &read_error);
  if (!text) {
    *error = "state directory '" + dir_ + "' is corrupt: " + path + ": " + read_error;
    return std::nullopt;
  }
  const std::string sha = Sha256Hex(*text);
  if (sha != history_[revision - 1].sha256) {
    *error = "state directory '" + dir_ + "' is corrupt: " + path + " does not match its sha256 (" +
             sha.substr(0, 12) + ", recorded " + history_[revision - 1].sha256.substr(0, 12) +
             "); it was edited or damaged";
    return std::nullopt;
  }
  return text;
}

bool StateStore::Commit(const std::string& canonical_text, const std::string& message,
                        long changes, std::string* error) {
  const std::string history_path = dir_ + "/" + kHistoryFile;
  if (torn_tail_) {
    if (!TruncateDurably(history_path, history_bytes_, error)) return false;
    torn_tail_ = false;
  }
  RemoveTemporaryFiles();
  CrashPoint();
  HistoryEntry entry;
  entry.revision = revision() + 1;
  entry.sha256 = Sha256Hex(canonical_text);
  entry.time = UtcNow();
  entry.user = CurrentUser();
  entry.message = message;
  entry.changes = changes;
  if (!WriteFileAtomically(RevisionPath(entry.revision), canonical_text, error)) return false;
  const std::string line = HistoryLine(entry) + "\n";
  if (!AppendDurably(history_path, line, error)) return false;
  CrashPoint();  // committed; config.yaml not yet replaced
  history_bytes_ += line.size();
  history_.push_back(std::move(entry));
  if (!WriteFileAtomically(dir_ + "/" + kConfigFile, canonical_text, error)) return false;
  config_copy_stale_ = false;
  return true;
}

bool StateStore::RewriteConfigCopy(std::string* error) {
  auto text = ReadRevision(revision(), error);
  if (!text || !WriteFileAtomically(dir_ + "/" + kConfigFile, *text, error)) return false;
  config_copy_stale_ = false;
  return true;
}

void StateStore::RemoveTemporaryFiles() {
  for (const std::string& sub : {dir_, dir_ + "/" + kRevisionsDir}) {
    for (const auto& name : ListDirectory(sub).value_or(std::vector<std::string>{})) {
      if (name[0] == '.' && name.find(".tmp-") != std::string::npos) {
        ::unlink((sub + "/" + name).c_str());
      }
    }
  }
}

std::optional<Config> StateStore::ReadConfig(long revision, std::string* error, bool validate) const {
  if (revision == 0) {
    Config empty;
    ApplyDefaults(empty);
    return empty;
  }
  auto text = ReadRevision(revision, error);
  if (!text) return std::nullopt;
  const std::string name = dir_ + "/" + kRevisionsDir + "/" + RevisionName(revision);
  LoadedConfig loaded = LoadConfigText(*text, name);
  if (loaded.config && validate) ValidateConfig(*loaded.config, name, &loaded.findings);
  if (!loaded.config || HasErrors(loaded.findings)) {
    *error = name + ": the stored revision is not a valid configuration for this version of rescfg";
    for (const auto& f : loaded.findings) {
      if (f.severity == Severity::kError) {
        *error += " (" + (f.path.empty() ? "" : f.path + ": ") + f.message + ")";
        break;
      }
    }
    return std::nullopt;
  }
  ApplyDefaults(*loaded.config);
  return loaded.config;
}

ProvisionedConfig LoadProvisionedConfig(const std::string& dir, int lock_timeout_seconds) {
  ProvisionedConfig result;
  auto store = StateStore::Open(dir, StateStore::Access::kRead, lock_timeout_seconds, &result.error);
  if (!store) return result;
  result.notes = store->notes();
  if (store->revision() == 0) {
    result.error = "nothing has been provisioned in '" + dir + "' yet; run rescfg provision first";
    return result;
  }
  result.config = store->ReadConfig(store->revision(), &result.error);
  result.revision = store->revision();
  return result;
}

}  // namespace rescfg
