#include "shown_path.h"

#include <filesystem>
#include <system_error>

namespace rescfg::cmd {

std::string PathForComment(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path given(path);
  if (!given.is_absolute()) return path;
  std::error_code ec;
  const fs::path here = fs::current_path(ec);
  const fs::path normal = given.lexically_normal();
  if (!ec) {
    const fs::path relative = normal.lexically_relative(here);
    if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  }
  fs::path last = normal.filename();
  if (last.empty()) last = normal.parent_path().filename();
  return last.empty() ? std::string(".") : last.generic_string();
}

}  // namespace rescfg::cmd
