#pragma once
/// Loading what a command works on, with errors logged for the user.

#include <memory>
#include <optional>
#include <string>

#include "clearml/snapshot.h"
#include "commands.h"
#include "config/model.h"
#include "jobs/job.h"
#include "state/state_store.h"

namespace rescfg::cmd {

/// The configuration from --config FILE or the provisioned --state DIR
/// (default .rescfg), valid and with defaults applied; nullopt (errors
/// logged) when unusable. `label`, when given, says where it came from:
/// the file, or "DIR revision N".
std::optional<Config> LoadConfigFrom(const ConfigSource& source, std::string* label = nullptr);

/// The jobs file's entries; nullopt (errors logged) when the file is
/// unusable. A ClearML snapshot (--jobs-format clearml) is read with its
/// --clearml-queues and --clearml-workers files; one of them unusable makes
/// the input unusable. `param_paths` are the dynamic parameters to extract
/// (by default those of `config`). `queues`, when given, receives the
/// --clearml-queues file whatever the jobs format (for --format clearml).
/// A snapshot none of whose tasks names a queue of `resolve_against` or of
/// `match_against` is unusable.
/// `ahead`: the snapshot's companions, when ReadCompanionsAhead started them.
std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const std::vector<std::string>& param_paths,
                                       clearml::QueueList* queues = nullptr, const Config* resolve_against = nullptr,
                                       const std::vector<const Config*>& match_against = {},
                                       clearml::CompanionsAhead* ahead = nullptr);
std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const Config& config,
                                       clearml::QueueList* queues = nullptr);
/// As LoadJobsFrom, for BuildSchedule: JSON Lines entries are resolved as
/// they are read (LoadJobsFile with a configuration).
std::optional<LoadedJobs> LoadJobsToSchedule(const JobsSource& source, const Config& config,
                                             clearml::QueueList* queues, clearml::CompanionsAhead* ahead = nullptr);

/// Starts reading the --clearml-queues and --clearml-workers files of a
/// snapshot (clearml::CompanionsAhead), for a command to call before it
/// loads its configuration; none when the jobs are no snapshot, come from
/// the last sync, or a file is standard input (read in its turn).
std::unique_ptr<clearml::CompanionsAhead> ReadCompanionsAhead(const JobsSource& source);

/// Logs findings as "file:line:col: severity[code]: message (hint)".
void LogFindings(const std::vector<Finding>& findings);
/// Names the file of rename-unknown warnings (rescfg(5), RENAMES) and logs
/// them; false when there are some and `strict`.
bool RenameFindingsAllowed(std::vector<Finding>* findings, const std::string& file, bool strict);

/// The state directory to use: `dir`, or ".rescfg" when empty.
std::string StateDirOrDefault(const std::string& dir);

/// A valid configuration with defaults applied, or nullopt with `exit_code`
/// set: kExitUnusable for unusable input, `invalid_exit` for an invalid one.
/// Errors are logged; warnings too when `log_warnings` is set.
std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings = nullptr,
                                           bool log_warnings = true);

/// A configuration file's text, read whole under the configuration size
/// limit ("-" is standard input); nullopt (error logged) when unreadable.
std::optional<std::string> ReadConfigSource(const std::string& path);

/// LoadConfigForCommand on text already read; `file` names it in messages.
std::optional<Config> LoadConfigTextForCommand(std::string_view text, const std::string& file, int invalid_exit,
                                               int* exit_code, std::vector<Finding>* findings = nullptr);

/// Opens the state directory for reading, logging leftovers of an
/// interrupted provision as warnings; nullopt (error logged) when unusable.
std::optional<StateStore> OpenStateForReading(const std::string& dir, int lock_timeout_seconds);

/// Opens the state directory a provision or a plan works on, verifying all
/// of it (StateStore::VerifyAll): for writing, creating it when missing; for
/// reading (a dry run, a plan), leaving `*store` empty when it does not
/// exist yet (revision 0). False (error logged) when it is unusable.
bool OpenStateForChange(const std::string& dir, bool write, int lock_timeout_seconds,
                        std::optional<StateStore>* store);

/// True when `path` names an existing file system entry.
bool PathExists(const std::string& path);

}  // namespace rescfg::cmd
