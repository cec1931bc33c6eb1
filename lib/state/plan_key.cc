#include "state/plan_key.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state/history.h"
#include "util/atomic_file.h"
#include "util/digest.h"
#include "util/state_file.h"

namespace rescfg {
namespace {

constexpr size_t kKeyBytes = 32;

/// Writes a new key beside `path` and links it into place: link() never
/// replaces, so a key another process made first wins and is read back.
/// False with `error` set when it could not be written; `*raced` when the
/// key appeared meanwhile.
bool CreateKey(const std::string& path, bool* raced, std::string* error) {
  auto bytes = RandomBytes(kKeyBytes);
  auto tag = RandomBytes(8);  // names the temporary file: unique across threads and processes
  if (!bytes || !tag) {
    *error = path + ": cannot create the plan key: no random bytes from the system";
    return false;
  }
  const std::string text = Sha256Hex(*bytes) + "\n";  // 64 hex digits: a hash of fresh randomness
  const std::string temp =
      DirectoryOf(path) + "/.plan-key.tmp-" + std::to_string(::getpid()) + "-" + Sha256Hex(*tag).substr(0, 12);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    *error = path + ": cannot create the plan key: " + std::strerror(errno);
    return false;
  }
  bool ok = ::fchmod(fd, 0600) == 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  ok = ::close(fd) == 0 && ok;
  if (ok && ::link(temp.c_str(), path.c_str()) != 0) {
    *raced = errno == EEXIST;
    ok = false;
  }
  if (!ok && !*raced) *error = path + ": cannot create the plan key: " + std::strerror(errno);
  ::unlink(temp.c_str());
  return ok && SyncDirectory(DirectoryOf(path), error);
}

}  // namespace

std::optional<std::string> PlanKey(const std::string& dir, bool create, std::string* error) {
  const std::string path = dir + "/" + kPlanKeyFile;
  for (int attempt = 0; attempt < 2; ++attempt) {
    bool missing = false;
    auto text = ReadStateFile(path, error, &missing);
    if (text) {
      const std::string_view key = std::string_view(*text).substr(0, 64);
      if (text->size() != 65 || (*text)[64] != '\n' || !IsSha256Hex(key)) {
        *error = path + ": the plan key is damaged (not 64 hex digits and a newline)";
        return std::nullopt;
      }
      return std::string(key);
    }
    if (!missing) return std::nullopt;
    if (!create) {
      *error = "'" + dir + "' has no plan key (" + kPlanKeyFile +
               "): plans are signed with the key that 'rescfg plan' keeps in the state directory they are made "
               "against, and none was made against this one";
      return std::nullopt;
    }
    bool raced = false;
    if (CreateKey(path, &raced, error)) continue;
    if (!raced) return std::nullopt;
  }
  *error = path + ": the plan key keeps disappearing; is another program removing it?";
  return std::nullopt;
}

}  // namespace rescfg
