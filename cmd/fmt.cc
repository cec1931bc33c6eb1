#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunFmt(const FmtOptions&) {
  spdlog::error("'fmt' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
