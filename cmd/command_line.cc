#include "command_line.h"

#include <algorithm>
#include <string_view>

#include "util/edit_distance.h"

namespace rescfg::cmd {
namespace {

bool Contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// Whether `arg` ("-vq", "--verbose") is made of global flags only.
bool IsGlobalFlag(std::string_view arg, const GlobalOptionNames& globals) {
  if (Contains(globals.flags, arg)) return true;
  if (arg.size() < 2 || arg[0] != '-' || arg[1] == '-') return false;
  for (char c : arg.substr(1)) {
    if (!Contains(globals.flags, std::string{'-', c})) return false;
  }
  return true;
}

std::string JoinCommands(const std::vector<std::string>& commands) {
  std::string out;
  for (const auto& name : commands) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

std::string CommandWord(int argc, const char* const* argv, const GlobalOptionNames& globals) {
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.empty()) return "";
    if (arg[0] != '-') return std::string(arg);
    if (arg == "--") return "";
    if (IsGlobalFlag(arg, globals)) continue;
    if (Contains(globals.with_value, arg)) {
      ++i;
      continue;
    }
    size_t equals = arg.find('=');
    if (equals != std::string_view::npos && Contains(globals.with_value, arg.substr(0, equals))) continue;
    return "";
  }
  return "";
}

std::string ColorArgument(int argc, const char* const* argv) {
  std::string value;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg == "--color" && i + 1 < argc) {
      value = argv[++i];
    } else if (arg.substr(0, 8) == "--color=") {
      value = std::string(arg.substr(8));
    }
  }
  return value;
}

std::string UnknownCommandMessage(const std::string& word, const std::vector<std::string>& commands) {
  std::string message = "unknown command '" + word + "'";
  if (std::string close = ClosestMatch(word, commands); !close.empty()) {
    message += " (did you mean '" + close + "'?)";
  } else {
    message += "; the commands are " + JoinCommands(commands);
  }
  return message + "; see 'rescfg --help'";
}

std::string ParseErrorMessage(const std::string& what, const std::string& command) {
  std::string message = what;
  // CLI11 starts some messages with a capital ("The following argument was
  // not expected"); rescfg's messages start in lower case. Words in
  // capitals (FILE, SHELL) stay as they are.
  if (message.size() > 1 && message[0] >= 'A' && message[0] <= 'Z' && message[1] >= 'a' && message[1] <= 'z') {
    message[0] = static_cast<char>(message[0] - 'A' + 'a');
  }
  return message + "; see 'rescfg" + (command.empty() ? "" : " " + command) + " --help'";
}

std::string MissingCommandMessage(const std::vector<std::string>& commands) {
  return "a command is required: " + JoinCommands(commands) + "; see 'rescfg --help'";
}

}  // namespace rescfg::cmd
