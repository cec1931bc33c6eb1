#pragma once
/// An advisory lock on a file (flock), waited for with a bounded timeout.

#include <optional>
#include <string>

namespace rescfg {

class FileLock {
 public:
  enum class Mode { kShared, kExclusive };

  /// Opens (creating when allowed) `path` and locks it, polling without
  /// blocking until `timeout_seconds` have passed (0: try once). Returns
  /// nullopt with `error` set when the lock cannot be had in time.
  static std::optional<FileLock> Acquire(const std::string& path, Mode mode, int timeout_seconds,
                                         std::string* error);

  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace rescfg
