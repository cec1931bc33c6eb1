#include "util/file_io.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/prefault.h"

namespace rescfg {

namespace {
bool standard_input_closed = false;
}  // namespace

void MarkStandardInputClosed() { standard_input_closed = true; }

std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

namespace {

std::optional<std::string> TooLarge(const char* what, uint64_t max_bytes, std::string* error, const char** code) {
  *error = std::string(what) + " is larger than the limit of " + std::to_string(max_bytes) + " bytes";
  if (code) *code = kTooLarge;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ReadWholeDescriptor(int fd, std::string* error, uint64_t max_bytes, const char** code) {
  if (code) *code = kUnreadable;
  struct stat st {};
  std::string content;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    if (static_cast<uint64_t>(st.st_size) > max_bytes) return TooLarge("file", max_bytes, error, code);
    // A regular file's whole size is reserved, in pages populated up front
    // (prefault.h), and filled through a small buffer that stays in cache:
    // reading straight into place would first have to zero the string
    // (resize), a third pass over a file of hundreds of megabytes. Whatever
    // the file grew by meanwhile is appended the same way.
    const auto size = static_cast<size_t>(st.st_size);
    content.reserve(size + kReadSlack);
    Prefault(content.data(), size);
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
    const size_t needed = content.size() + static_cast<size_t>(n);
    if (needed > max_bytes) return TooLarge("input", max_bytes, error, code);
    // Grown by doubling, but never past the limit: reading a limit's worth
    // costs the limit, not the next power of two above it. A fresh string
    // gets exactly what it reserves (growing one in place may double it).
    if (needed > content.capacity()) {
      std::string grown;
      grown.reserve(static_cast<size_t>(std::min<uint64_t>(max_bytes, std::max(needed, 2 * content.capacity()))));
      grown.append(content);
      content.swap(grown);
    }
    content.append(buffer, static_cast<size_t>(n));
  }
  return content;
}

namespace {

/// `path` with its directory resolved ("" when that directory does not exist).
std::string Placed(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  char* resolved = ::realpath(dir.c_str(), nullptr);
  if (resolved == nullptr) return "";
  std::string result = std::string(resolved) + "/" + (slash == std::string::npos ? path : path.substr(slash + 1));
  std::free(resolved);
  return result;
}

}  // namespace

bool SameFile(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a == "-" || b == "-") return false;
  struct stat sa {}, sb {};
  const bool has_a = ::stat(a.c_str(), &sa) == 0, has_b = ::stat(b.c_str(), &sb) == 0;
  if (has_a && has_b) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (has_a != has_b) return false;
  const std::string placed = Placed(a);
  return !placed.empty() && placed == Placed(b);
}

std::optional<std::string> ReadWholeFile(const std::string& path, std::string* error, uint64_t max_bytes,
                                         const char** code) {
  if (code) *code = kUnreadable;
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
    content = ReadWholeDescriptor(fd, error, max_bytes, code);
  }
  if (fd != STDIN_FILENO) ::close(fd);
  return content;
}

}  // namespace rescfg
