#include "util/lockfile.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

#include "util/state_file.h"

namespace rescfg {

std::optional<FileLock> FileLock::Acquire(const std::string& path, Mode mode, int timeout_seconds,
                                          std::string* error) {
  // Never through a symbolic link (a dangling one is neither followed nor
  // its target created) and never a FIFO or device: OpenStateFile.
  bool missing = false;
  int fd = OpenStateFile(path, O_RDWR | O_CREAT, error, &missing);
  // A reader of a read-only state directory can still take a shared lock.
  if (fd < 0 && mode == Mode::kShared && (errno == EACCES || errno == EROFS)) {
    fd = OpenStateFile(path, O_RDONLY, error, &missing);
    if (fd < 0 && missing) {
      *error = path + ": cannot create the lock file in a read-only directory";
      return std::nullopt;
    }
  }
  if (fd < 0) {
    *error = "cannot use the lock file: " + *error;
    return std::nullopt;
  }
  const int operation = (mode == Mode::kExclusive ? LOCK_EX : LOCK_SH) | LOCK_NB;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(timeout_seconds);
  bool told = false;
  for (;;) {
    if (::flock(fd, operation) == 0) return FileLock(fd);
    if (errno != EWOULDBLOCK && errno != EINTR) {
      *error = path + ": cannot lock: " + std::strerror(errno);
      ::close(fd);
      return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      *error = path + ": locked by another rescfg process for more than " +
               std::to_string(timeout_seconds) + " s; try again later or raise --lock-timeout";
      ::close(fd);
      return std::nullopt;
    }
    // A wait longer than a second is worth a word (once; -q silences it).
    if (!told && std::chrono::steady_clock::now() - start >= std::chrono::seconds(1)) {
      told = true;
      if (spdlog::should_log(spdlog::level::warn)) {
        const size_t slash = path.find_last_of('/');
        const std::string dir = slash == std::string::npos || slash == 0 ? path : path.substr(0, slash);
        std::fprintf(stderr, "rescfg: waiting for the lock on %s, held by another rescfg process (up to %d s)\n",
                     dir.c_str(), timeout_seconds);
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace rescfg
