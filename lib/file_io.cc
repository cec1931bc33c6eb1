#include "file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rescfg {

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

std::optional<std::string> ReadWholeDescriptor(int fd, std::string* error, uint64_t max_bytes) {
  struct stat st {};
  std::string content;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      *error = "file is larger than the limit of " + std::to_string(max_bytes) + " bytes";
      return std::nullopt;
    }
    content.reserve(static_cast<size_t>(st.st_size));
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
