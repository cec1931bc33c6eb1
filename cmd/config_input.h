#pragma once
/// Loading a configuration file for a command that tells an invalid
/// configuration (exit 1) from unusable input (exit 2).

#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "config/model.h"
#include "finding.h"

namespace rescfg::cmd {

/// The state directory to use: `dir`, or ".rescfg" when empty.
std::string StateDirOrDefault(const std::string& dir);

/// A valid configuration with defaults applied, or nullopt with `exit_code`
/// set: kExitUnusable for unusable input, `invalid_exit` for an invalid one.
/// Errors are logged; warnings too when `log_warnings` is set.
std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings = nullptr,
                                           bool log_warnings = true);

}  // namespace rescfg::cmd
