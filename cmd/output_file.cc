#include "output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include "state/state_store.h"

namespace rescfg::cmd {

OutputSink::~OutputSink() {
  if (stream_ != nullptr) std::fclose(stream_);
}

bool OutputSink::Open(const std::string& path) {
  path_ = path;
  if (path.empty() || path == "-") {
    kind_ = Kind::kStdout;
    return true;
  }
  // The state's files are written by provision alone, under its lock and
  // verified: an output among them would corrupt the state for every
  // later command.
  if (std::string state = StateDirectoryHolding(path); !state.empty()) {
    spdlog::error("refusing to write {}: it is inside the state directory '{}'; write the output elsewhere", path,
                  state);
    failed_ = true;
    return false;
  }
  // A symbolic link is kept and its target written, as a shell's '>'
  // would: the temporary file goes beside the target. A link to nothing or
  // to a directory is refused, and so is a directory.
  std::string target = path;
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    char* resolved = ::realpath(path.c_str(), nullptr);
    if (resolved == nullptr || ::stat(resolved, &st) != 0) {
      spdlog::error("cannot write to {}: it is a symbolic link to nothing ({}); write to its target instead", path,
                    std::strerror(errno));
      std::free(resolved);
      failed_ = true;
      return false;
    }
    target = resolved;
    std::free(resolved);
  }
  const bool exists = ::stat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    spdlog::error("cannot write to {}: it is a directory{}", path, target == path ? "" : " (through a symbolic link)");
    failed_ = true;
    return false;
  }
  // A device or a pipe is written as it is: renaming a temporary file over
  // it would replace it with a regular file.
  if (exists && !S_ISREG(st.st_mode)) {
    kind_ = Kind::kStream;
    stream_ = std::fopen(target.c_str(), "wb");
    if (stream_ == nullptr) {
      spdlog::error("cannot write to {}: {}", path, std::strerror(errno));
      failed_ = true;
    }
    return !failed_;
  }
  kind_ = Kind::kAtomic;
  std::string error;
  if (!atomic_.Open(target, &error)) {
    spdlog::error("{}", error);
    failed_ = true;
  }
  return !failed_;
}

bool OutputSink::Write(std::string_view text) {
  if (failed_) return false;
  switch (kind_) {
    case Kind::kStdout:
      if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
        spdlog::error("cannot write to standard output: {}", std::strerror(errno));
        failed_ = true;
      }
      break;
    case Kind::kStream:
      if (std::fwrite(text.data(), 1, text.size(), stream_) != text.size()) {
        spdlog::error("cannot write to {}: {}", path_, std::strerror(errno));
        failed_ = true;
      }
      break;
    case Kind::kAtomic: {
      std::string error;
      if (!atomic_.Write(text, &error)) {
        spdlog::error("{}", error);
        failed_ = true;
      }
      break;
    }
  }
  return !failed_;
}

bool OutputSink::Finish() {
  if (failed_) return false;
  switch (kind_) {
    case Kind::kStdout:
      if (std::fflush(stdout) != 0) {
        spdlog::error("cannot write to standard output: {}", std::strerror(errno));
        failed_ = true;
      }
      break;
    case Kind::kStream: {
      int closed = std::fclose(stream_);
      stream_ = nullptr;
      if (closed != 0) {
        spdlog::error("cannot write to {}: {}", path_, std::strerror(errno));
        failed_ = true;
      }
      break;
    }
    case Kind::kAtomic: {
      std::string error;
      if (!atomic_.Commit(&error)) {
        spdlog::error("{}", error);
        failed_ = true;
      }
      break;
    }
  }
  return !failed_;
}

bool WriteOutput(const std::string& path, std::string_view text) {
  OutputSink sink;
  return sink.Open(path) && sink.Write(text) && sink.Finish();
}

}  // namespace rescfg::cmd
