#include <spdlog/spdlog.h>

#include "commands.h"

namespace rescfg::cmd {

int RunSchedule(const ScheduleOptions&) {
  spdlog::error("'schedule' is not implemented yet");
  return kExitUnusable;
}

}  // namespace rescfg::cmd
