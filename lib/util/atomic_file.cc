#include "util/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/crash_point.h"
#include "util/state_file.h"

namespace rescfg {
namespace {

std::string Describe(const std::string& what, const std::string& path) {
  return path + ": cannot " + what + ": " + std::strerror(errno);
}

bool WriteAll(int fd, std::string_view data) {
  if (AtWriteFault()) return false;
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::string DirectoryOf(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool SyncDirectory(const std::string& dir, std::string* error) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *error = Describe("open directory", dir);
    return false;
  }
  bool ok = ::fsync(fd) == 0 || errno == EINVAL;  // some file systems cannot sync directories
  if (!ok) *error = Describe("sync directory", dir);
  ::close(fd);
  return ok;
}

AtomicFileWriter::~AtomicFileWriter() { Abort(); }

void AtomicFileWriter::Abort() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  fd_ = -1;
  temp_.clear();
}

namespace {

std::string TemporaryName(const std::string& path, unsigned counter) {
  const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter);
  std::string base = BaseName(path);
  // "." + base + suffix must stay a valid file name: a long name is cut
  // (O_EXCL and the pid keep the result unique).
  long name_max = ::pathconf(DirectoryOf(path).c_str(), _PC_NAME_MAX);
  if (name_max <= 0) name_max = 255;
  const size_t room = static_cast<size_t>(name_max) - 1 - suffix.size();
  if (base.size() > room) base.resize(room);
  return DirectoryOf(path) + "/." + base + suffix;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

bool IsTemporaryNameOf(std::string_view name, std::string_view base) {
  const std::string prefix = "." + std::string(base) + ".tmp-";
  if (!name.starts_with(prefix)) return false;
  std::string_view rest = name.substr(prefix.size());
  size_t dash = rest.find('-');
  return dash != std::string_view::npos && AllDigits(rest.substr(0, dash)) && AllDigits(rest.substr(dash + 1));
}

bool AtomicFileWriter::Open(const std::string& path, std::string* error) {
  static std::atomic<unsigned> counter{0};
  Abort();
  path_ = path;
  const std::string temp = TemporaryName(path, counter++);
  fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    *error = Describe("create a temporary file", temp);
    return false;
  }
  temp_ = temp;
  struct stat st {};
  // The permission bits only: a setuid, setgid or sticky bit is not copied
  // onto new content.
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::fchmod(fd_, st.st_mode & 0777);
  return true;
}

bool AtomicFileWriter::Write(std::string_view data, std::string* error) {
  if (fd_ < 0) return false;
  if (WriteAll(fd_, data)) return true;
  *error = Describe("write", temp_);
  Abort();
  return false;
}

bool AtomicFileWriter::Commit(std::string* error) {
  if (fd_ < 0) return false;
  bool ok = true;
  if (::fsync(fd_) != 0) {
    ok = false;
    *error = Describe("sync", temp_);
  }
  if (::close(fd_) != 0 && ok) {
    ok = false;
    *error = Describe("close", temp_);
  }
  fd_ = -1;
  CrashPoint();  // the temporary file is complete, the target not yet replaced
  if (ok && ::rename(temp_.c_str(), path_.c_str()) != 0) {
    ok = false;
    *error = Describe("replace", path_);
  }
  if (!ok) {
    Abort();
    return false;
  }
  temp_.clear();
  CrashPoint();  // renamed, directory not yet synced
  return SyncDirectory(DirectoryOf(path_), error);
}

bool WriteFileAtomically(const std::string& path, std::string_view content, std::string* error) {
  AtomicFileWriter writer;
  return writer.Open(path, error) && writer.Write(content, error) && writer.Commit(error);
}

bool AppendDurably(const std::string& path, std::string_view line, std::string* error) {
  int fd = OpenStateFile(path, O_WRONLY | O_APPEND | O_CREAT, error);
  if (fd < 0) return false;
  if (AtCrashPoint()) {  // leave a torn line behind, as a power cut might
    WriteAll(fd, line.substr(0, line.size() / 2));
    CrashNow();
  }
  bool ok = WriteAll(fd, line);
  if (!ok) *error = Describe("append to", path);
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    *error = Describe("sync", path);
  }
  ::close(fd);
  return ok;
}

bool TruncateDurably(const std::string& path, size_t size, std::string* error) {
  int fd = OpenStateFile(path, O_WRONLY, error);
  if (fd < 0) return false;
  bool ok = ::ftruncate(fd, static_cast<off_t>(size)) == 0 && ::fsync(fd) == 0;
  if (!ok) *error = Describe("truncate", path);
  ::close(fd);
  return ok;
}

}  // namespace rescfg
