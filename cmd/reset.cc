#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunReset(const ResetOptions&) {
  spdlog::error("'reset' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
