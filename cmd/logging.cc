#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

void SetUpLogging(int verbosity, bool quiet) {
  auto logger = spdlog::stderr_color_mt("rescfg");
  logger->set_pattern("rescfg: %^%l%$: %v");
  logger->set_level(quiet ? spdlog::level::err
                    : verbosity >= 2 ? spdlog::level::debug
                    : verbosity == 1 ? spdlog::level::info
                                     : spdlog::level::warn);
  spdlog::set_default_logger(logger);
}

}  // namespace rescfg::cmd
