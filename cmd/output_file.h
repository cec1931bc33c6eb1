#pragma once
#include <string>
#include <string_view>

namespace rescfg::cmd {

/// Writes `text` to stdout when `path` is empty or "-", else atomically to
/// `path` (WriteFileAtomically: temporary file, fsync, rename). Logs failures.
bool WriteOutput(const std::string& path, std::string_view text);

}  // namespace rescfg::cmd
