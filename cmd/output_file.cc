#include "output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include "state/atomic_file.h"

namespace rescfg::cmd {

bool WriteOutput(const std::string& path, std::string_view text) {
  if (path.empty() || path == "-") {
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
      spdlog::error("cannot write to standard output: {}", std::strerror(errno));
      return false;
    }
    return true;
  }
  // A device or a pipe (/dev/null, a FIFO) is written as it is: renaming a
  // temporary file over it would replace it with a regular file.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    std::FILE* out = std::fopen(path.c_str(), "wb");
    bool ok = out != nullptr && std::fwrite(text.data(), 1, text.size(), out) == text.size();
    if (out != nullptr && std::fclose(out) != 0) ok = false;
    if (!ok) spdlog::error("cannot write to {}: {}", path, std::strerror(errno));
    return ok;
  }
  std::string error;
  if (!WriteFileAtomically(path, text, &error)) {
    spdlog::error("{}", error);
    return false;
  }
  return true;
}

}  // namespace rescfg::cmd
