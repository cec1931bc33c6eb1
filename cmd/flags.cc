/// Flags shared by several commands, the checks every value option gets,
/// and what the completion scripts are told about a command.

#include "flags.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <limits>

#include "config_source.h"
#include "now.h"

namespace rescfg::cmd {

void AddConfigSource(CLI::App* app, ConfigSource* source) {
  auto* state = app->add_option("--state", source->state_dir,
                                "Provisioned state directory to read the configuration from")
                    ->default_str(".rescfg");
  auto* config = app->add_option("--config,-c", source->config_file,
                                 "Configuration file to use instead of the provisioned state (what-if)");
  state->excludes(config);
  app->add_option("--lock-timeout", source->lock_timeout_seconds,
                  "Seconds to wait for the state lock")->default_val(10);
}

/// -o FILE for a command that writes data.
void AddOutput(CLI::App* app, std::string* output) {
  app->add_option("--output,-o", *output, "Write to FILE atomically instead of stdout");
}

CLI::Option* AddJobsSource(CLI::App* app, JobsSource* jobs, bool required) {
  auto* opt = app->add_option("--jobs,-j", jobs->file,
                              "Jobs snapshot: YAML JobList, or JSON Lines (.jsonl/.ndjson); - for stdin");
  if (required) opt->required();
  app->add_option("--jobs-format", jobs->format,
                  "Force the jobs format instead of using the extension; clearml: a ClearML task snapshot")
      ->check(CLI::IsMember({"yaml", "jsonl", "clearml"}));
  app->add_option("--clearml-queues", jobs->clearml_queues,
                  "ClearML queues.get_all response: queue IDs to names and queue order (--jobs-format clearml), "
                  "queue IDs (--format clearml)");
  app->add_option("--clearml-workers", jobs->clearml_workers,
                  "ClearML workers.get_all response: the pool of a running task taken from a policy queue "
                  "(--jobs-format clearml)");
  AddNow(app, &jobs->now);
  return opt;
}

/// --jobs-from-sync: instead of --jobs, the snapshot `rescfg sync` kept in
/// the --state directory (checked by LoadJobsFrom: one of the two is needed).
void AddJobsFromSync(CLI::App* app, JobsSource* jobs, CLI::Option* jobs_option) {
  app->add_flag("--jobs-from-sync", jobs->from_sync,
                "Read the snapshot the last 'rescfg sync' kept in the --state directory instead of --jobs")
      ->excludes(jobs_option)
      ->excludes("--jobs-format")
      ->excludes("--clearml-queues")
      ->excludes("--clearml-workers");
}

/// --jobs (or --jobs-from-sync) for the commands that need jobs, with
/// CLI11's own message for a missing option.
bool RequireJobs(const JobsSource& jobs, const char* command) {
  if (!jobs.file.empty() || jobs.from_sync) return true;
  spdlog::error("--jobs is required (or --jobs-from-sync); see 'rescfg {} --help'", command);
  return false;
}

/// Where --jobs-from-sync reads: the --state directory.
void SetSyncStateDir(JobsSource* jobs, const ConfigSource& config) {
  jobs->sync_state_dir = StateDirOrDefault(config.state_dir);
}

/// One option as the completion scripts see it: its names, whether it takes
/// a value, and the value's choices (from its IsMember check, shown by CLI11
/// as "TEXT:{a,b}").
CompletionFlag DescribeOption(const CLI::Option* opt) {
  CompletionFlag flag;
  for (const auto& name : opt->get_snames()) flag.names.push_back("-" + name);
  for (const auto& name : opt->get_lnames()) flag.names.push_back("--" + name);
  flag.description = opt->get_description();
  if (opt->get_items_expected_max() == 0) {
    flag.repeatable = opt->get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
    return flag;
  }
  flag.repeatable = opt->get_expected_max() > 1;
  std::string type = opt->get_type_name();
  std::string checks = type.substr(std::min(type.size(), type.find(':') + 1));
  type = type.substr(0, type.find(':'));
  if (checks.size() > 2 && checks.front() == '{' && checks.back() == '}') {
    flag.value = CompletionFlag::Value::kChoice;
    std::string list = checks.substr(1, checks.size() - 2);
    for (size_t start = 0; start <= list.size();) {
      size_t comma = std::min(list.find(',', start), list.size());
      flag.choices.push_back(list.substr(start, comma - start));
      start = comma + 1;
    }
  } else {
    flag.value = type == "TEXT" ? CompletionFlag::Value::kFile : CompletionFlag::Value::kOther;
  }
  return flag;
}

namespace {

/// rescfg(1), COMMANDS: an empty or malformed option value is a command-line error
/// (exit 2). Every value option refuses an empty value; a number must be
/// written in decimal digits only (no sign, blank, hex or exponent) and fit
/// its type: nothing is clamped.
CLI::Validator NonEmptyValue() {
  return CLI::Validator([](std::string& value) { return value.empty() ? std::string("empty value") : std::string(); },
                        "");
}

}  // namespace

CLI::Validator WholeNumber(int64_t min, int64_t max) {
  return CLI::Validator(
      [min, max](std::string& value) -> std::string {
        int64_t n = 0;
        const char* end = value.data() + value.size();
        const bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
        auto [ptr, ec] = std::from_chars(value.data(), end, n);
        if (!digits) return "'" + value + "' is not a whole number written in decimal digits";
        if (ec != std::errc() || ptr != end || n < min || n > max) {
          return "'" + value + "' is out of range (" + std::to_string(min) + " to " + std::to_string(max) + ")";
        }
        return "";
      },
      "");
}

/// Adds the checks above to every value option of `app`'s commands. Free
/// text (--message) may be empty: "" is the default message.
void CheckOptionValues(CLI::App* app) {
  for (CLI::App* sub : app->get_subcommands({})) {
    for (CLI::Option* opt : sub->get_options()) {
      if (opt->get_items_expected_max() == 0 || opt->check_lname("message")) continue;
      opt->check(NonEmptyValue());
      if (opt->check_lname("lock-timeout")) opt->check(WholeNumber(0, std::numeric_limits<int>::max()));
      if (opt->check_lname("expect-revision")) opt->check(WholeNumber(0, std::numeric_limits<long>::max()));
      if (opt->check_lname("revision")) opt->check(WholeNumber(1, std::numeric_limits<long>::max()));
    }
  }
}

CompletionCommand DescribeCommand(const CLI::App* app) {
  CompletionCommand command{app->get_name(), app->get_description(), {}, {}};
  for (const CLI::Option* opt : app->get_options()) {
    if (opt->nonpositional()) {
      command.flags.push_back(DescribeOption(opt));
    } else {
      command.positional = DescribeOption(opt);
    }
  }
  return command;
}

}  // namespace rescfg::cmd
