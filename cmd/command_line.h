#pragma once
/// What main.cc needs to know about the raw command line before (or
/// instead of) CLI11: the command word, the --color choice, and the text of
/// errors, so that every error line reads "rescfg: error: ...". No CLI11
/// here.

#include <string>
#include <vector>

namespace rescfg::cmd {

/// The options that may stand before the command: flags without a value
/// ("-v", "--quiet") and options that take one ("--color").
struct GlobalOptionNames {
  std::vector<std::string> flags;
  std::vector<std::string> with_value;
};

/// The first word of `argv` that is not a global option (or its value):
/// the command. "" when there is none, or when an option that is not a
/// global one comes first (CLI11 then reports it).
std::string CommandWord(int argc, const char* const* argv, const GlobalOptionNames& globals);

/// The value of the last --color option ("--color X" or "--color=X"), ""
/// when none is given.
std::string ColorArgument(int argc, const char* const* argv);

/// "unknown command 'vaildate' (did you mean 'validate'?); see 'rescfg --help'".
std::string UnknownCommandMessage(const std::string& word, const std::vector<std::string>& commands);

/// A parse error of CLI11 as one line: its message with a lower-case start,
/// and where to read more ("see 'rescfg schedule --help'").
std::string ParseErrorMessage(const std::string& what, const std::string& command);

/// When a command was required and none was given.
std::string MissingCommandMessage(const std::vector<std::string>& commands);

}  // namespace rescfg::cmd
