#pragma once
/// The commands of the command line, wired to their options and Run* calls.

#include <CLI/CLI.hpp>

#include "commands.h"

namespace rescfg::cmd {

/// Every command's options: they live as long as the CLI11 app that fills them.
struct CommandOptions {
  ValidateOptions validate;
  ScheduleOptions schedule;
  SimulateOptions simulate;
  DiffOptions diff;
  ProvisionOptions provision;
  PlanOptions plan;
  ResetOptions reset;
  HistoryOptions history;
  StatusOptions status;
  FmtOptions fmt;
  GraphOptions graph;
  ExplainOptions explain;
  ExportOptions export_options;
  SyncOptions sync_options;
  CompletionOptions completion;
};

/// Adds every command to `app`; the command that runs sets `exit_code`.
void AddCommands(CLI::App& app, CommandOptions& options, int& exit_code);

}  // namespace rescfg::cmd
