/// `rescfg completion bash|zsh|fish`: shell completion scripts written from the
/// command-line description main.cc reads off the parser, so they list
/// exactly the commands, flags and value choices the binary accepts.

#include <spdlog/spdlog.h>

#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "output_file.h"

namespace rescfg::cmd {
namespace {

using Value = CompletionFlag::Value;

/// Only such words are written into a script unquoted (names, choices):
/// nothing the shell would expand or split.
bool IsPlainWord(const std::string& word) {
  if (word.empty()) return false;
  for (char c : word) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.' || c == '+';
    if (!ok) return false;
  }
  return true;
}

std::string Join(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const auto& word : words) {
    if (!IsPlainWord(word)) continue;
    if (!out.empty()) out += separator;
    out += word;
  }
  return out;
}

std::vector<std::string> AllNames(const std::vector<CompletionFlag>& flags) {
  std::vector<std::string> names;
  for (const auto& flag : flags) names.insert(names.end(), flag.names.begin(), flag.names.end());
  return names;
}

/// A shell-function-safe name: "_rescfg".
std::string FunctionName(const std::string& program) {
  std::string out = "_";
  for (char c : program) out += IsPlainWord(std::string(1, c)) && c != '-' && c != '.' && c != '+' ? c : '_';
  return out;
}

// ---- bash ----------------------------------------------------------------

/// The statement that fills COMPREPLY with the values of `flag`.
std::string BashValues(const CompletionFlag& flag) {
  switch (flag.value) {
    case Value::kChoice: return "COMPREPLY=($(compgen -W \"" + Join(flag.choices, " ") + "\" -- \"$cur\"))";
    case Value::kFile: return "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))";
    case Value::kOther:
    case Value::kNone: break;
  }
  return "COMPREPLY=()";
}

/// Completion inside one command (or before any, for the global flags):
/// an option's value, then option names, then the positional argument or
/// the command names.
void WriteBashArm(const std::vector<CompletionFlag>& flags, const std::optional<CompletionFlag>& positional,
                  const std::string& words_when_not_option, std::string* out) {
  std::string value_arms;
  for (const auto& flag : flags) {
    if (flag.value == Value::kNone || Join(flag.names, "|").empty()) continue;
    value_arms += "        " + Join(flag.names, "|") + ") " + BashValues(flag) + "; return ;;\n";
  }
  if (!value_arms.empty()) *out += "      case $prev in\n" + value_arms + "      esac\n";
  *out += "      if [[ $cur == -* ]]; then\n";
  *out += "        COMPREPLY=($(compgen -W \"" + Join(AllNames(flags), " ") + "\" -- \"$cur\"))\n";
  if (!words_when_not_option.empty()) {
    *out += "      else\n        COMPREPLY=($(compgen -W \"" + words_when_not_option + "\" -- \"$cur\"))\n";
  } else if (positional && positional->value != Value::kNone) {
    *out += "      else\n        " + BashValues(*positional) + "\n";
  }
  *out += "      fi\n";
}

std::string BashScript(const CompletionOptions& options) {
  std::string fn = FunctionName(options.program);
  std::vector<std::string> command_names;
  for (const auto& command : options.commands) command_names.push_back(command.name);

  std::string out;
  out += "# bash completion for " + options.program + "; written by `" + options.program +
         " completion bash`.\n";
  out += fn + "() {\n";
  out += "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n";
  out += "  # --flag=value: bash splits the word at '='.\n";
  out += "  if [[ $cur == = ]]; then\n    cur=\n";
  out += "  elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then\n    prev=${COMP_WORDS[COMP_CWORD-2]}\n  fi\n";
  out += "  local cmd= i\n";
  out += "  for ((i = 1; i < COMP_CWORD; i++)); do\n";
  out += "    case ${COMP_WORDS[i]} in\n";
  out += "      " + Join(command_names, "|") + ") cmd=${COMP_WORDS[i]}; break ;;\n";
  out += "    esac\n  done\n";
  out += "  case $cmd in\n";
  out += "    '')\n";
  WriteBashArm(options.global_flags, std::nullopt, Join(command_names, " "), &out);
  out += "      ;;\n";
  for (const auto& command : options.commands) {
    if (!IsPlainWord(command.name)) continue;
    out += "    " + command.name + ")\n";
    WriteBashArm(command.flags, command.positional, "", &out);
    out += "      ;;\n";
  }
  out += "  esac\n}\n";
  out += "complete -F " + fn + " " + options.program + "\n";
  return out;
}

// ---- zsh -----------------------------------------------------------------

/// Text for inside a single-quoted zsh word, where `[`, `]` and `:` are
/// also special to _arguments and _describe.
std::string ZshText(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\'') out += "'\\''";
    else if (c == '[' || c == ']' || c == ':' || c == '\\') out += std::string("\\") + c;
    else if (c == '\n' || c == '\t') out += ' ';
    else out += c;
  }
  return out;
}

std::string ZshAction(const CompletionFlag& flag) {
  switch (flag.value) {
    case Value::kChoice: return "(" + Join(flag.choices, " ") + ")";
    case Value::kFile: return "_files";
    case Value::kOther:
    case Value::kNone: break;
  }
  return " ";
}

/// _arguments specs for one option: one spec per name, sharing an exclusion
/// list unless the option may be repeated.
void WriteZshFlag(const CompletionFlag& flag, std::string* out) {
  std::string exclusion = flag.repeatable ? "*" : "(" + Join(flag.names, " ") + ")";
  for (const auto& name : flag.names) {
    if (!IsPlainWord(name)) continue;
    std::string spec = exclusion + name;
    if (flag.value != Value::kNone) spec += name.size() > 2 ? "=" : "+";
    spec += "[" + ZshText(flag.description) + "]";
    if (flag.value != Value::kNone) {
      std::string label = flag.names.back().substr(flag.names.back().find_first_not_of('-'));
      spec += ":" + ZshText(label) + ":" + ZshAction(flag);
    }
    *out += "    '" + spec + "' \\\n";
  }
}

std::string ZshScript(const CompletionOptions& options) {
  std::string fn = FunctionName(options.program);
  std::string out;
  out += "#compdef " + options.program + "\n";
  out += "# zsh completion for " + options.program + "; written by `" + options.program +
         " completion zsh`.\n\n";
  out += fn + "() {\n";
  out += "  local curcontext=$curcontext state line ret=1\n";
  out += "  typeset -A opt_args\n";
  out += "  _arguments -C -s \\\n";
  for (const auto& flag : options.global_flags) WriteZshFlag(flag, &out);
  out += "    '1: :->command' \\\n";
  out += "    '*:: :->args' && ret=0\n";
  out += "  case $state in\n";
  out += "    command)\n";
  out += "      local -a commands\n";
  out += "      commands=(\n";
  for (const auto& command : options.commands) {
    if (!IsPlainWord(command.name)) continue;
    out += "        '" + command.name + ":" + ZshText(command.description) + "'\n";
  }
  out += "      )\n";
  out += "      _describe -t commands '" + ZshText(options.program) + " command' commands && ret=0\n";
  out += "      ;;\n";
  out += "    args)\n";
  out += "      curcontext=${curcontext%:*:*}:" + options.program + "-$line[1]:\n";
  out += "      case $line[1] in\n";
  for (const auto& command : options.commands) {
    if (!IsPlainWord(command.name)) continue;
    out += "        " + command.name + ")\n";
    out += "          _arguments -s \\\n";
    std::string body;
    for (const auto& flag : command.flags) WriteZshFlag(flag, &body);
    if (command.positional) {
      const CompletionFlag& arg = *command.positional;
      std::string label = arg.description.empty() ? "argument" : ZshText(arg.description);
      body += std::string("    '") + (arg.repeatable ? "*" : "1") + ":" + label + ":" + ZshAction(arg) + "' \\\n";
    }
    // Indent the shared spec lines to this level.
    for (size_t start = 0; start < body.size();) {
      size_t end = body.find('\n', start);
      out += "        " + body.substr(start, end - start + 1);
      start = end + 1;
    }
    out += "            && ret=0\n";
    out += "          ;;\n";
  }
  out += "      esac\n";
  out += "      ;;\n";
  out += "  esac\n";
  out += "  return ret\n";
  out += "}\n\n";
  out += "if [[ $funcstack[1] == " + fn + " ]]; then\n";
  out += "  " + fn + " \"$@\"\n";
  out += "else\n";
  out += "  compdef " + fn + " " + options.program + "\n";
  out += "fi\n";
  return out;
}

// ---- fish ----------------------------------------------------------------

/// `text` as a fish single-quoted word.
std::string FishQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c == '\n' || c == '\t' ? ' ' : c;
  }
  return out + "'";
}

/// The `complete` arguments that say what follows an option or argument.
std::string FishValues(const CompletionFlag& flag) {
  switch (flag.value) {
    case Value::kChoice: return " -x -a " + FishQuote(Join(flag.choices, " "));
    case Value::kFile: return " -r -F";
    case Value::kOther: return " -x";
    case Value::kNone: break;
  }
  return "";
}

/// One `complete` line per option: its names, its values, its description.
void WriteFishFlags(const std::string& head, const std::vector<CompletionFlag>& flags, std::string* out) {
  for (const auto& flag : flags) {
    std::string names;
    for (const auto& name : flag.names) {
      if (!IsPlainWord(name)) continue;
      names += name.size() == 2 ? " -s " + name.substr(1) : " -l " + name.substr(2);
    }
    if (names.empty()) continue;
    *out += head + names + FishValues(flag) + " -d " + FishQuote(flag.description) + "\n";
  }
}

std::string FishScript(const CompletionOptions& options) {
  std::vector<std::string> command_names;
  for (const auto& command : options.commands) command_names.push_back(command.name);
  const std::string complete = "complete -c " + options.program;
  const std::string all = Join(command_names, " ");

  std::string out;
  out += "# fish completion for " + options.program + "; written by `" + options.program +
         " completion fish`.\n";
  out += "# Nothing completes file names unless an option or argument takes a file.\n";
  out += complete + " -f\n";
  const std::string needs_command = "__" + FunctionName(options.program).substr(1) + "_needs_command";
  out += "function " + needs_command + "\n  not __fish_seen_subcommand_from " + all + "\nend\n";
  // Global options stand before or after the command.
  WriteFishFlags(complete, options.global_flags, &out);
  for (const auto& command : options.commands) {
    if (!IsPlainWord(command.name)) continue;
    out += complete + " -n " + needs_command + " -a " + command.name +
           " -d " + FishQuote(command.description) + "\n";
  }
  for (const auto& command : options.commands) {
    if (!IsPlainWord(command.name)) continue;
    const std::string head = complete + " -n " + FishQuote("__fish_seen_subcommand_from " + command.name);
    WriteFishFlags(head, command.flags, &out);
    if (!command.positional) continue;
    const CompletionFlag& arg = *command.positional;
    if (arg.value == Value::kChoice) {
      out += head + " -a " + FishQuote(Join(arg.choices, " ")) + " -d " + FishQuote(arg.description) + "\n";
    } else if (arg.value == Value::kFile) {
      out += head + " -F\n";
    }
  }
  return out;
}

}  // namespace

int RunCompletion(const CompletionOptions& options) {
  std::string script;
  if (options.shell == "bash") {
    script = BashScript(options);
  } else if (options.shell == "zsh") {
    script = ZshScript(options);
  } else if (options.shell == "fish") {
    script = FishScript(options);
  } else {
    spdlog::error("no completion for shell '{}'; use bash, zsh or fish", options.shell);
    return kExitUnusable;
  }
  return WriteOutput(options.output, script) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
