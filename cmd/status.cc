#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunStatus(const StatusOptions&) {
  spdlog::error("'status' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
