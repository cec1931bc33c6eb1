#pragma once
/// Loading a configuration for a command, from a file or a state directory,
/// with findings and state problems logged on stderr.

#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "config/model.h"
#include "finding.h"

namespace rescfg::cmd {

/// Logs findings as "file:line:col: code: message (hint)"; warnings only
/// when `warnings` is set.
void LogFindings(const std::vector<Finding>& findings, bool warnings = true);

/// The state directory to use: `dir`, or ".rescfg" when empty.
std::string StateDirOrDefault(const std::string& dir);

/// A valid configuration with defaults applied, or nullopt with `exit_code`
/// set: kExitUnusable for unusable input, `invalid_exit` for an invalid one.
std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings = nullptr);

/// The configuration named by --config, else the provisioned one of --state.
/// Any failure is kExitUnusable. `label` tells where it came from.
std::optional<Config> LoadConfigSource(const ConfigSource& source, int* exit_code, std::string* label);

}  // namespace rescfg::cmd
