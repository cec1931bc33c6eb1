/// rescfg: GPU resource governance for GitOps. The command line as a whole:
/// global flags, parsing and the last word on errors. Each command's flags
/// are wiring.cc's, its work cmd/<command>.cc's and lib/'s.

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>

#include "command_line.h"
#include "commands.h"
#include "config_source.h"
#include "flags.h"
#include "util/input_limits.h"
#include "wiring.h"

namespace rescfg::cmd {
namespace {

constexpr const char* kFooter = R"(Exit status: 0 success (valid, same, all jobs accounted), 1 findings
(invalid, different, some job rejected), 2 unusable input.
See rescfg(1) and rescfg(5).)";

}  // namespace
}  // namespace rescfg::cmd

int main(int argc, char** argv) {
  using namespace rescfg::cmd;
  MakeStandardStreamsSafe();
  CLI::App app{"rescfg: validate, diff, provision and schedule a GPU resource configuration kept in git"};
  app.set_version_flag("--version", std::string("rescfg ") + RESCFG_VERSION);
  app.footer(kFooter);
  app.require_subcommand(1);
  app.fallthrough();  // -v and -q also after the command: rescfg schedule -q ...
  int verbosity = 0;
  bool quiet = false;
  std::string color = "auto";
  app.add_flag("-v,--verbose", verbosity, "More log output on stderr (repeatable)");
  app.add_flag("-q,--quiet", quiet, "Only errors on stderr");
  app.add_option("--color", color,
                 "Colour the level of log lines on stderr: auto (on a terminal, unless NO_COLOR is set), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  // Errors of the command line itself go through the same logger.
  SetUpLogging(0, false);
  SetLogColor(ColorArgument(argc, argv));

  int exit_code = kExitOk;

  CommandOptions options;
  AddCommands(app, options, exit_code);

  CheckOptionValues(&app);
  app.parse_complete_callback([&] {
    SetUpLogging(verbosity, quiet);
    SetLogColor(color);
    if (std::string error = rescfg::ApplyLimitsFromEnvironment(); !error.empty()) {
      spdlog::error("{}", error);
      std::exit(kExitUnusable);
    }
  });
  std::vector<std::string> command_names;
  for (const CLI::App* sub : app.get_subcommands({})) command_names.push_back(sub->get_name());
  GlobalOptionNames globals;
  for (const CLI::Option* opt : app.get_options()) {
    auto& names = opt->get_items_expected_max() == 0 ? globals.flags : globals.with_value;
    for (const auto& name : opt->get_snames()) names.push_back("-" + name);
    for (const auto& name : opt->get_lnames()) names.push_back("--" + name);
  }
  const std::string command = CommandWord(argc, argv, globals);
  if (!command.empty() &&
      std::find(command_names.begin(), command_names.end(), command) == command_names.end()) {
    spdlog::error("{}", UnknownCommandMessage(command, command_names));
    return kExitUnusable;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version: on stdout
    if (command.empty() && e.get_name() == "RequiredError" && app.get_subcommands().empty()) {
      spdlog::error("{}", MissingCommandMessage(command_names));
    } else {
      spdlog::error("{}", ParseErrorMessage(e.what(), command));
    }
    return kExitUnusable;
  } catch (const std::bad_alloc&) {
    // The command boundary: whatever ran out of memory has unwound (an
    // output file's temporary copy is removed); nothing was written to -o.
    spdlog::error("out of memory{}; nothing was written (raise the memory limit, or give a smaller input)",
                  command.empty() ? "" : " in '" + command + "'");
    return kExitUnusable;
  } catch (const std::length_error&) {
    spdlog::error("out of memory{}: an input needs more than a string or array can hold; nothing was written",
                  command.empty() ? "" : " in '" + command + "'");
    return kExitUnusable;
  } catch (const std::system_error& e) {
    // A thread or a lock the system refused (too little memory for a stack).
    spdlog::error("{}{}: {}; nothing was written", command.empty() ? "rescfg" : command,
                  " could not get what it needs from the system", e.what());
    return kExitUnusable;
  }
  return exit_code;
}
