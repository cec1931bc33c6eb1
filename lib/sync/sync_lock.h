#pragma once
/// One sync at a time on a state directory: DIR/sync/lock, held (flock)
/// for as long as the sync runs. It is not the state's own lock, so
/// `provision` is never blocked by a running sync. The file names its
/// holder (process id, host, start time) for the one refused.

#include <optional>
#include <string>

namespace rescfg::sync {

class SyncLock {
 public:
  /// Takes the lock at once or not at all. nullopt with `error` set
  /// ("... is held by process 1234 on gpu-admin since ...") when another
  /// sync holds it, or the file cannot be used.
  static std::optional<SyncLock> Acquire(const std::string& path, std::string* error);

  SyncLock(SyncLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  SyncLock(const SyncLock&) = delete;
  SyncLock& operator=(const SyncLock&) = delete;
  ~SyncLock();

 private:
  explicit SyncLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace rescfg::sync
