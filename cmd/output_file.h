#pragma once
#include <cstdio>
#include <string>
#include <string_view>

#include "util/atomic_file.h"

namespace rescfg::cmd {

/// Where a command's output goes: stdout when `path` is empty or "-"; a
/// device or a pipe (/dev/null, a FIFO) as it is; any other path atomically
/// (AtomicFileWriter: temporary file, fsync, rename; no setuid, setgid or
/// sticky bit carried over). A symbolic link is kept and its target
/// written; a directory, or a link to one or to nothing, is refused, and so
/// is any path inside a state directory (StateDirectoryHolding).
/// Written piece by piece; failures are logged once.
class OutputSink {
 public:
  OutputSink() = default;
  ~OutputSink();
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;

  bool Open(const std::string& path);
  bool Write(std::string_view text);
  /// Completes the output (for a file: replaces it).
  bool Finish();

 private:
  enum class Kind { kStdout, kStream, kAtomic };
  Kind kind_ = Kind::kStdout;
  std::string path_;
  std::FILE* stream_ = nullptr;
  AtomicFileWriter atomic_;
  bool failed_ = false;
};

/// Writes `text` to stdout when `path` is empty or "-", else atomically to
/// `path` (see OutputSink). Logs failures.
bool WriteOutput(const std::string& path, std::string_view text);

}  // namespace rescfg::cmd
