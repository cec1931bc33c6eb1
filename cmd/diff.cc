#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunDiff(const DiffOptions&) {
  spdlog::error("'diff' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
