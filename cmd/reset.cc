/// `rescfg reset`: write the provisioned (or an earlier) revision back out,
/// byte for byte as stored, so its sha256 matches the history.

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
  auto text = store->ReadRevision(revision, &error);
  if (!text) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (!WriteOutput(options.output, *text)) return kExitUnusable;
  if (!options.output.empty() && options.output != "-") spdlog::info("wrote revision {} to {}", revision, options.output);
  return kExitOk;
}

}  // namespace rescfg::cmd
