#include "file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prefault.h"

namespace rescfg {

namespace {
bool standard_input_closed = false;
}  // namespace

void MarkStandardInputClosed() { standard_input_closed = true; }

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::optional<std::string> ReadWholeDescriptor(int fd, std::string* error, uint64_t max_bytes) {
  struct stat st {};
  std::string content;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      *error = "file is larger than the limit of " + std::to_string(max_bytes) + " bytes";
      return std::nullopt;
    }
    // A regular file is read straight into place, into pages populated
    // up front (prefault.h); whatever it grew by meanwhile is appended below.
    const auto size = static_cast<size_t>(st.st_size);
    content.reserve(size);
    Prefault(content.data(), size);
    content.resize(size);
    size_t got = 0;
    while (got < size) {
      ssize_t n = ::read(fd, content.data() + got, size - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        *error = std::strerror(errno);
        return std::nullopt;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    content.resize(got);
    if (got < size) return content;  // it shrank: what is there is all
  }
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0) break;
    if (content.size() + static_cast<size_t>(n) > max_bytes) {
      *error = "input is larger than the limit of " + std::to_string(max_bytes) + " bytes";
      return std::nullopt;
    }
    content.append(buffer, static_cast<size_t>(n));
  }
  return content;
}

std::optional<std::string> ReadWholeFile(const std::string& path, std::string* error,
                                         uint64_t max_bytes) {
  if (path == "-" && standard_input_closed) {
    *error = "standard input is closed (Bad file descriptor)";
    return std::nullopt;
  }
  int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::strerror(errno);
    return std::nullopt;
  }
  struct stat st {};
  std::optional<std::string> content;
  if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    *error = "is a directory";
  } else {
    content = ReadWholeDescriptor(fd, error, max_bytes);
  }
  if (fd != STDIN_FILENO) ::close(fd);
  return content;
}

}  // namespace rescfg
