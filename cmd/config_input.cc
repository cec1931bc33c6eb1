#include "config_input.h"

#include <spdlog/spdlog.h>

#include "config/loader.h"
#include "config_source.h"

namespace rescfg::cmd {

std::string StateDirOrDefault(const std::string& dir) { return dir.empty() ? ".rescfg" : dir; }

std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings, bool log_warnings) {
  LoadedConfig loaded = LoadValidConfig(path);
  if (findings) *findings = loaded.findings;
  std::vector<Finding> shown;
  for (const auto& f : loaded.findings) {
    if (log_warnings || f.severity == Severity::kError) shown.push_back(f);
  }
  LogFindings(shown);
  if (!loaded.config) {
    *exit_code = loaded.unusable ? kExitUnusable : invalid_exit;
    if (!loaded.unusable) spdlog::error("{}: the configuration is not valid", loaded.file);
  }
  return loaded.config;
}

}  // namespace rescfg::cmd
