/// `rescfg reset`: write the provisioned (or an earlier) revision back out:
/// its source text as provisioned, byte for byte, or with --canonical its
/// canonical form; either matches the sha256 the history records for it.

#include <spdlog/spdlog.h>

#include <cstdio>

#include "commands.h"
#include "config_source.h"
#include "output_file.h"
#include "state/state_store.h"

namespace rescfg::cmd {

int RunReset(const ResetOptions& options) {
  const std::string dir = StateDirOrDefault(options.state_dir);
  auto store = OpenStateForReading(dir, options.lock_timeout_seconds);
  if (!store) return kExitUnusable;
  std::string error;
  const long revision = options.revision.value_or(store->revision());
  // Both texts of the revision are checked, whichever is written.
  std::optional<std::string> text = store->ReadRevision(revision, &error);
  if (text && !options.canonical) {
    auto source = store->ReadSource(revision, &error);
    if (source) {
      text = std::move(source);
    } else if (error.empty()) {
      spdlog::warn("{}: revision {} was provisioned by an earlier version of rescfg, which kept only its canonical "
                   "form; writing that",
                   dir, revision);
    } else {
      text.reset();
    }
  }
  if (!text) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (!WriteOutput(options.output, *text)) return kExitUnusable;
  if (!options.output.empty() && options.output != "-") {
    spdlog::info("wrote revision {} ({}) to {}", revision, options.canonical ? "canonical form" : "source text",
                 options.output);
  }
  return kExitOk;
}

}  // namespace rescfg::cmd
