#include "config_input.h"

#include <spdlog/spdlog.h>

#include "config/loader.h"
#include "state/state_store.h"

namespace rescfg::cmd {

void LogFindings(const std::vector<Finding>& findings, bool warnings) {
  for (const auto& f : findings) {
    if (f.severity == Severity::kWarning && !warnings) continue;
    std::string where = f.file;
    if (f.mark.line > 0) where += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column);
    std::string text = where + ": " + f.code + ": " + (f.path.empty() ? "" : f.path + ": ") + f.message;
    if (!f.hint.empty()) text += " (" + f.hint + ")";
    if (f.severity == Severity::kError) spdlog::error("{}", text); else spdlog::warn("{}", text);
  }
}

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

std::optional<Config> LoadConfigSource(const ConfigSource& source, int* exit_code, std::string* label) {
  if (!source.config_file.empty()) {
    *label = source.config_file;
    return LoadConfigForCommand(source.config_file, kExitUnusable, exit_code);
  }
  const std::string dir = StateDirOrDefault(source.state_dir);
  ProvisionedConfig provisioned = LoadProvisionedConfig(dir, source.lock_timeout_seconds);
  for (const auto& note : provisioned.notes) spdlog::warn("{}: {}", dir, note);
  if (!provisioned.config) {
    spdlog::error("{}", provisioned.error);
    *exit_code = kExitUnusable;
    return std::nullopt;
  }
  *label = dir + " revision " + std::to_string(provisioned.revision);
  return provisioned.config;
}

}  // namespace rescfg::cmd
