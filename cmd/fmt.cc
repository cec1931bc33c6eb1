/// `rescfg fmt`: the canonical text of a configuration. Defaults can only be
/// resolved for a valid configuration, so an invalid one is refused (exit 1)
/// and nothing is printed. Warnings are `validate`'s business: fmt keeps
/// quiet about them, so that `git diff` through textconv stays clean.
///
/// --check lists the files whose text is not their canonical form (like
/// `gofmt -l`); -w rewrites those files in place, atomically.

#include <spdlog/spdlog.h>

#include <climits>
#include <cstdlib>
#include <optional>
#include <sys/stat.h>

#include "commands.h"
#include "config/canonical.h"
#include "config/loader.h"
#include "config_source.h"
#include "output_file.h"
#include "state/state_store.h"
#include "util/atomic_file.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"
#include "validate/validate.h"

namespace rescfg::cmd {
namespace {

struct Formatted {
  int exit_code = kExitOk;        ///< kExitFindings: invalid; kExitUnusable: unreadable or not YAML
  std::string source, canonical;  ///< set when exit_code is kExitOk
};

/// Reads one file and works out its canonical text, logging what stops it.
Formatted Format(const std::string& path) {
  Formatted result;
  Finding failure;
  auto text = ReadInputFile(path, InputKind::kConfig, &failure);
  if (!text) {
    LogFindings({failure});
    result.exit_code = kExitUnusable;
    return result;
  }
  LoadedConfig loaded = LoadConfigText(*text, DisplayName(path));
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  std::vector<Finding> errors;
  for (const auto& f : loaded.findings) if (f.severity == Severity::kError) errors.push_back(f);
  SortFindings(errors.begin(), errors.end());
  LogFindings(errors);
  if (loaded.unusable) {
    result.exit_code = kExitUnusable;
  } else if (!errors.empty() || !loaded.config) {
    spdlog::error("{}: the configuration is not valid; run 'rescfg validate {}'", loaded.file, path);
    result.exit_code = kExitFindings;
  } else {
    ApplyDefaults(*loaded.config);
    result.canonical = WriteCanonical(*loaded.config);
    result.source = std::move(*text);
  }
  return result;
}

/// Where -w writes: the file a symbolic link points to, so that the link
/// stays a link.
std::string RealPath(const std::string& path) {
  char buffer[PATH_MAX];
  return ::realpath(path.c_str(), buffer) != nullptr ? std::string(buffer) : path;
}

/// -w replaces a file by renaming a new one over it: only a regular file
/// outside any state directory can be rewritten so. A FIFO or a device
/// would become a regular file (and reading it might never end).
bool Rewritable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    spdlog::error("-w cannot rewrite {}: it is {}, not a regular file; use 'rescfg fmt {} -o FILE' to write its "
                  "canonical form elsewhere",
                  path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or socket",
                  path);
    return false;
  }
  if (std::string state = StateDirectoryHolding(path); !state.empty()) {
    spdlog::error("-w cannot rewrite {}: it is inside the state directory '{}'; use 'rescfg reset' to write a "
                  "revision out, and provision to change it",
                  path, state);
    return false;
  }
  return true;
}

}  // namespace

int RunFmt(const FmtOptions& options) {
  if (!options.check && !options.write) {
    if (options.files.size() != 1) {
      spdlog::error("give one FILE to print, or use --check or -w for several; see 'rescfg fmt --help'");
      return kExitUnusable;
    }
    Formatted one = Format(options.files[0]);
    if (one.exit_code != kExitOk) return one.exit_code;
    return WriteOutput(options.output, one.canonical) ? kExitOk : kExitUnusable;
  }
  int exit_code = kExitOk;
  std::string listed;  // --check: the files not in canonical form, one a line
  for (const auto& path : options.files) {
    if (options.write && path == "-") {
      spdlog::error("-w cannot rewrite standard input; use 'rescfg fmt -' to print its canonical form");
      exit_code = kExitUnusable;
      continue;
    }
    if (options.write && !Rewritable(path)) {
      exit_code = kExitUnusable;
      continue;
    }
    Formatted file = Format(path);
    if (file.exit_code != kExitOk) {
      exit_code = std::max(exit_code, file.exit_code);
      continue;
    }
    if (file.source == file.canonical) continue;
    if (options.check) {
      listed += DisplayName(path) + "\n";
      exit_code = std::max<int>(exit_code, kExitFindings);
      continue;
    }
    std::string error;
    if (!WriteFileAtomically(RealPath(path), file.canonical, &error)) {
      spdlog::error("{}", error);
      exit_code = kExitUnusable;
      continue;
    }
    spdlog::info("rewrote {} in canonical form", path);
  }
  if (options.check && !WriteOutput(options.output, listed)) return kExitUnusable;
  return exit_code;
}

}  // namespace rescfg::cmd
