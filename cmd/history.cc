#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunHistory(const HistoryOptions&) {
  spdlog::error("'history' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
