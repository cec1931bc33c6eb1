#pragma once
#include <string>

namespace rescfg::cmd {

/// Writes `text` to stdout when `path` is empty, else atomically to `path`
/// (temporary file in the same directory, fsync, rename). Logs failures.
bool WriteOutput(const std::string& path, const std::string& text);

}  // namespace rescfg::cmd
