#include "config_input.h"

#include <spdlog/spdlog.h>

#include "config/loader.h"
#include "config_source.h"

namespace rescfg::cmd {

std::string StateDirOrDefault(const std::string& dir) { return dir.empty() ? ".rescfg" : dir; }

std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings) {
  LoadedConfig loaded = LoadValidConfig(path);
  if (findings) *findings = loaded.findings;
  LogFindings(loaded.findings);
  if (!loaded.config) {
    *exit_code = loaded.unusable ? kExitUnusable : invalid_exit;
    if (!loaded.unusable) spdlog::error("{}: the configuration is not valid", loaded.file);
  }
  return loaded.config;
}

}  // namespace rescfg::cmd
