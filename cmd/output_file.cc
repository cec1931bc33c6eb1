#include "output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <spdlog/spdlog.h>

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
  std::string error;
  if (!WriteFileAtomically(path, text, &error)) {
    spdlog::error("{}", error);
    return false;
  }
  return true;
}

}  // namespace rescfg::cmd
