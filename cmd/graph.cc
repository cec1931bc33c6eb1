#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunGraph(const GraphOptions&) {
  spdlog::error("'graph' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
