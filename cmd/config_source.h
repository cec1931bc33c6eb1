#pragma once
/// Loading what a command works on, with errors logged for the user.

#include <optional>

#include "commands.h"
#include "config/model.h"
#include "jobs/job.h"

namespace rescfg::cmd {

/// The configuration from --config FILE or the provisioned --state DIR,
/// valid and with defaults applied; nullopt (errors logged) when unusable.
std::optional<Config> LoadConfigFrom(const ConfigSource& source);

/// The jobs file's entries; nullopt (errors logged) when the file is unusable.
std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const Config& config);

/// Logs findings as "file:line:col: severity[code]: message (hint)".
void LogFindings(const std::vector<Finding>& findings);

}  // namespace rescfg::cmd
