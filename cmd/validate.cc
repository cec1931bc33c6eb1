#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunValidate(const ValidateOptions&) {
  spdlog::error("'validate' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
