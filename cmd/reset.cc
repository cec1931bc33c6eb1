/// `rescfg reset`: write the provisioned (or an earlier) revision back out,
/// byte for byte as stored, so its sha256 matches the history.

#include <spdlog/spdlog.h>

#include <cstdio>

#include "commands.h"
#include "config_source.h"
#include "state/atomic_file.h"
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
  if (options.output.empty() || options.output == "-") {
    std::fwrite(text->data(), 1, text->size(), stdout);
    return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
  }
  if (!WriteFileAtomically(options.output, *text, &error)) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  spdlog::info("wrote revision {} to {}", revision, options.output);
  return kExitOk;
}

}  // namespace rescfg::cmd
