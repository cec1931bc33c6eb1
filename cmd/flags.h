#pragma once
/// Flags shared by several commands (CLI11 lives in cmd/ only), the checks
/// every value option gets, and what completion scripts learn of a command.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "commands.h"

namespace rescfg::cmd {

/// --state / --config and --lock-timeout: where a command reads its configuration.
void AddConfigSource(CLI::App* app, ConfigSource* source);
/// -o FILE for a command that writes data.
void AddOutput(CLI::App* app, std::string* output);
/// --jobs, --jobs-format and the ClearML companions; returns the --jobs option.
CLI::Option* AddJobsSource(CLI::App* app, JobsSource* jobs, bool required);
/// --jobs-from-sync: instead of --jobs, the snapshot `rescfg sync` kept in
/// the --state directory (checked by LoadJobsFrom: one of the two is needed).
void AddJobsFromSync(CLI::App* app, JobsSource* jobs, CLI::Option* jobs_option);
/// --jobs (or --jobs-from-sync) for the commands that need jobs, with
/// CLI11's own message for a missing option.
bool RequireJobs(const JobsSource& jobs, const char* command);
/// Where --jobs-from-sync reads: the --state directory.
void SetSyncStateDir(JobsSource* jobs, const ConfigSource& config);

/// A value option's number: decimal digits only, within [min, max].
CLI::Validator WholeNumber(int64_t min, int64_t max);
/// Adds the checks of rescfg(1), COMMANDS to every value option of `app`'s
/// commands: no empty value, numbers in decimal digits that fit.
void CheckOptionValues(CLI::App* app);

/// One option, and one command, as the completion scripts see them.
CompletionFlag DescribeOption(const CLI::Option* opt);
CompletionCommand DescribeCommand(const CLI::App* app);

}  // namespace rescfg::cmd
