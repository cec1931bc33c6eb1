#include "sync/sync_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sync/server_text.h"
#include "state/history.h"
#include "util/state_file.h"
#include "util/text_table.h"

namespace rescfg::sync {

std::optional<SyncLock> SyncLock::Acquire(const std::string& path, std::string* error) {
  std::string open_error;
  const int fd = OpenStateFile(path, O_RDWR | O_CREAT | O_CLOEXEC, &open_error);
  if (fd < 0) {
    *error = "cannot use the sync lock: " + open_error;
    return std::nullopt;
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int saved = errno;
    char holder[256] = {0};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    ::close(fd);
    if (saved == EWOULDBLOCK) {
      std::string who = n > 0 ? ServerText(std::string_view(holder, static_cast<size_t>(n))) : "";
      while (!who.empty() && (who.back() == 'n' && who.size() >= 2 && who[who.size() - 2] == '\\')) who.resize(who.size() - 2);
      *error = path + ": another sync runs on this state directory" + (who.empty() ? "" : " (" + who + ")");
    } else {
      *error = path + ": cannot lock: " + std::strerror(saved);
    }
    return std::nullopt;
  }
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  const std::string holder =
      "process " + std::to_string(::getpid()) + " on " + host + " since " + UtcNow() + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, holder.data(), holder.size(), 0) < 0) {
    // The lock holds all the same; only its note is missing.
  }
  return SyncLock(fd);
}

SyncLock::~SyncLock() {
  if (fd_ >= 0) ::close(fd_);  // releases the flock
}

}  // namespace rescfg::sync
