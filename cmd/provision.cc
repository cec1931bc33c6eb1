#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunProvision(const ProvisionOptions&) {
  spdlog::error("'provision' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
