#include "util/state_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/file_io.h"

namespace rescfg {
namespace {

std::string KindName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

}  // namespace

EntryKind KindOf(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return EntryKind::kMissing;
  if (S_ISREG(st.st_mode)) return EntryKind::kRegular;
  if (S_ISDIR(st.st_mode)) return EntryKind::kDirectory;
  if (S_ISLNK(st.st_mode)) return EntryKind::kSymlink;
  return EntryKind::kOther;
}

std::string DescribeKind(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return "missing";
  if (S_ISREG(st.st_mode)) return "a regular file";
  return KindName(st.st_mode);
}

int OpenStateFile(const std::string& path, int flags, std::string* error, bool* missing) {
  if (missing) *missing = false;
  int fd = ::open(path.c_str(), flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT && missing) *missing = true;
    if (err == ELOOP) {
      *error = path + ": is a symbolic link; state files must be regular files";
    } else if (err == ENXIO) {  // a FIFO without a reader, opened for writing
      *error = path + ": is a FIFO; state files must be regular files";
    } else {
      *error = path + ": " + std::strerror(err);
    }
    errno = err;
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    *error = path + ": is " + KindName(st.st_mode) + "; state files must be regular files";
    ::close(fd);
    errno = EINVAL;
    return -1;
  }
  // A regular file never blocks; clear O_NONBLOCK anyway so that nothing
  // depends on how a file system treats it.
  int status = ::fcntl(fd, F_GETFL);
  if (status >= 0) ::fcntl(fd, F_SETFL, status & ~O_NONBLOCK);
  return fd;
}

std::optional<std::string> ReadStateFile(const std::string& path, std::string* error, bool* missing) {
  int fd = OpenStateFile(path, O_RDONLY, error, missing);
  if (fd < 0) return std::nullopt;
  auto content = ReadWholeDescriptor(fd, error);
  ::close(fd);
  if (!content) *error = path + ": " + *error;
  return content;
}

}  // namespace rescfg
