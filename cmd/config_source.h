#pragma once
/// Loading what a command works on, with errors logged for the user.

#include <optional>
#include <string>

#include "commands.h"
#include "config/model.h"
#include "jobs/job.h"

namespace rescfg::cmd {

/// The configuration from --config FILE or the provisioned --state DIR
/// (default .rescfg), valid and with defaults applied; nullopt (errors
/// logged) when unusable. `label`, when given, says where it came from:
/// the file, or "DIR revision N".
std::optional<Config> LoadConfigFrom(const ConfigSource& source, std::string* label = nullptr);

/// The jobs file's entries; nullopt (errors logged) when the file is unusable.
std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const Config& config);

/// Logs findings as "file:line:col: severity[code]: message (hint)".
void LogFindings(const std::vector<Finding>& findings);

}  // namespace rescfg::cmd
