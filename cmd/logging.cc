#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdlib>

#include "commands.h"

namespace rescfg::cmd {

void SetUpLogging(int verbosity, bool quiet) {
  auto logger = spdlog::get("rescfg");
  if (!logger) {
    logger = spdlog::stderr_color_mt("rescfg");
    logger->set_pattern("rescfg: %^%l%$: %v");
    spdlog::set_default_logger(logger);
    SetLogColor("auto");
  }
  logger->set_level(quiet ? spdlog::level::err
                    : verbosity >= 2 ? spdlog::level::debug
                    : verbosity == 1 ? spdlog::level::info
                                     : spdlog::level::warn);
}

void SetLogColor(const std::string& when) {
  auto logger = spdlog::get("rescfg");
  if (!logger) return;
  // NO_COLOR (https://no-color.org): set and not empty turns the automatic
  // choice off; an explicit --color always still wins.
  const char* no_color = std::getenv("NO_COLOR");
  spdlog::color_mode mode = when == "always" ? spdlog::color_mode::always
                            : when == "never" || (no_color != nullptr && *no_color != '\0')
                                ? spdlog::color_mode::never
                                : spdlog::color_mode::automatic;  // a terminal, and TERM not dumb
  for (auto& sink : logger->sinks()) {
    if (auto* color = dynamic_cast<spdlog::sinks::stderr_color_sink_mt*>(sink.get())) color->set_color_mode(mode);
  }
}

}  // namespace rescfg::cmd
