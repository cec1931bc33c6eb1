/// rescfg: GPU resource governance for GitOps. Flag parsing only; each
/// command's work is in cmd/<command>.cc and lib/.

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <iostream>
#include <limits>
#include <new>
#include <stdexcept>
#include <system_error>

#include "command_line.h"
#include "commands.h"
#include "config_source.h"
#include "now.h"
#include "input_limits.h"

namespace rescfg::cmd {
namespace {

constexpr const char* kFooter = R"(Exit status: 0 success (valid, same, all jobs accounted), 1 findings
(invalid, different, some job rejected), 2 unusable input.
See rescfg(1) and rescfg(5).)";

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

/// rescfg(1), COMMANDS: an empty or malformed option value is a command-line error
/// (exit 2). Every value option refuses an empty value; a number must be
/// written in decimal digits only (no sign, blank, hex or exponent) and fit
/// its type: nothing is clamped.
CLI::Validator NonEmptyValue() {
  return CLI::Validator([](std::string& value) { return value.empty() ? std::string("empty value") : std::string(); },
                        "");
}

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

  ValidateOptions validate;
  auto* validate_cmd = app.add_subcommand("validate", "Check configuration files against the rules of rescfg(5)");
  validate_cmd->add_option("FILE", validate.files, "Configuration files (- for stdin)")->required();
  validate_cmd->add_option("--format,-f", validate.format, "text, json, or github (workflow annotations)")
      ->check(CLI::IsMember({"text", "json", "github"}));
  validate_cmd->add_flag("--strict", validate.strict, "Treat warnings as failures");
  AddOutput(validate_cmd, &validate.output);
  validate_cmd->footer("Example: rescfg validate --format github resources.yaml\n"
                       "Exit: 0 valid; 1 invalid (errors, or warnings with --strict); 2 unusable input "
                       "(unreadable file, YAML syntax error, too large).");
  validate_cmd->callback([&] { exit_code = RunValidate(validate); });

  ScheduleOptions schedule;
  auto* schedule_cmd = app.add_subcommand("schedule", "Decide which queued jobs start now, where, and why the others wait");
  AddConfigSource(schedule_cmd, &schedule.config);
  AddJobsFromSync(schedule_cmd, &schedule.jobs, AddJobsSource(schedule_cmd, &schedule.jobs, false));
  schedule_cmd->add_option("--format,-f", schedule.format,
                           "yaml, json, jsonl (one object per job), table, or clearml (tasks.enqueue requests)")
      ->check(CLI::IsMember({"yaml", "json", "jsonl", "table", "clearml"}));
  schedule_cmd->add_option("--output,-o", schedule.output, "Write the result to FILE atomically instead of stdout");
  schedule_cmd->footer(
      "Example: rescfg schedule --config resources.yaml --jobs jobs.jsonl --format jsonl | jq .\n"
      "ClearML: rescfg schedule --state .rescfg --jobs tasks.json --jobs-format clearml --clearml-queues queues.json\n"
      "           --clearml-workers workers.json --format clearml -o requests.jsonl\n"
      "Exit: 0 every job assigned, pending or running; 1 some entry rejected (the output is still complete);\n"
      "2 unusable input or state (then nothing is written to -o).");
  schedule_cmd->callback([&] {
    if (!RequireJobs(schedule.jobs, "schedule")) {
      exit_code = kExitUnusable;
      return;
    }
    SetSyncStateDir(&schedule.jobs, schedule.config);
    exit_code = RunSchedule(schedule);
  });

  SimulateOptions simulate;
  auto* simulate_cmd =
      app.add_subcommand("simulate", "Replay a trace of submitted jobs over time: when each would start, where, how long it waits");
  AddConfigSource(simulate_cmd, &simulate.config);
  simulate_cmd->add_option("--trace,-t", simulate.trace.file,
                           "Trace: a jobs file whose queued entries carry submitted and duration; - for stdin")
      ->required();
  simulate_cmd->add_option("--trace-format", simulate.trace.format, "Force the trace format instead of using the extension")
      ->check(CLI::IsMember({"yaml", "jsonl"}));
  simulate_cmd->add_option("--start", simulate.start, "Start the clock at this RFC 3339 time (default: the earliest submitted)");
  simulate_cmd->add_option("--until", simulate.until, "Stop after the events at this RFC 3339 time");
  simulate_cmd->add_option("--format,-f", simulate.format, "yaml, json, jsonl (one object per entry) or table (summaries)")
      ->check(CLI::IsMember({"yaml", "json", "jsonl", "table"}));
  AddOutput(simulate_cmd, &simulate.output);
  simulate_cmd->add_option("--plot", simulate.plot, "Also draw pool usage over time and each policy's waits as an SVG file");
  simulate_cmd->footer(
      "Example: rescfg simulate --config resources.yaml --trace week.jsonl --format table --plot week.svg\n"
      "Exit: 0 every entry simulated; 1 some entry rejected (the output is still complete);\n"
      "2 unusable input or state (then nothing is written to -o or --plot).");
  simulate_cmd->callback([&] { exit_code = RunSimulate(simulate); });

  DiffOptions diff;
  auto* diff_cmd = app.add_subcommand("diff", "Semantic diff of two configurations, or of one against the provisioned state");
  diff_cmd->add_option("FILE", diff.files, "OLD NEW, or NEW together with --state")->required()->expected(1, 2);
  auto* diff_state = diff_cmd->add_option("--state", diff.state_dir, "Compare NEW against this provisioned state");
  diff_cmd->add_option("--format,-f", diff.format, "text, json or markdown (a pull-request comment)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  AddJobsSource(diff_cmd, &diff.jobs, false);
  diff_cmd->add_option("--lock-timeout", diff.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  diff_cmd->add_option("--trace,-t", diff.trace.file,
                       "Simulate this trace against both configurations and compare each policy's waits and GPU-hours");
  diff_cmd->add_option("--trace-format", diff.trace.format, "Force the trace format instead of using the extension")
      ->check(CLI::IsMember({"yaml", "jsonl"}));
  diff_cmd->add_option("--start", diff.start, "With --trace: start the clock at this RFC 3339 time");
  diff_cmd->add_option("--until", diff.until, "With --trace: stop after the events at this RFC 3339 time");
  AddOutput(diff_cmd, &diff.output);
  diff_cmd->footer("Example: rescfg diff <(git show HEAD~1:resources.yaml) resources.yaml\nExit: 0 same; 1 different; 2 unusable input or state.");
  diff_cmd->callback([&] {
    diff.against_state = diff_state->count() > 0;
    exit_code = RunDiff(diff);
  });

  ProvisionOptions provision;
  auto* provision_cmd = app.add_subcommand("provision", "Validate a configuration and store it as the next revision");
  auto* provision_file = provision_cmd->add_option("FILE", provision.file, "Configuration file");
  provision_cmd->add_option("--plan", provision.plan, "Apply this plan (from rescfg plan) instead of a FILE")
      ->excludes(provision_file);
  provision_cmd->add_option("--state", provision.state_dir, "State directory")->default_str(".rescfg");
  provision_cmd->add_flag("--dry-run,-n", provision.dry_run, "Show what would change; write nothing");
  provision_cmd->add_option("--message,-m", provision.message, "Message stored in the history");
  provision_cmd->add_option("--expect-revision", provision.expect_revision,
                            "Refuse unless the current revision is N (0: nothing provisioned yet)");
  provision_cmd->add_flag("--strict", provision.strict, "Refuse on warnings too");
  provision_cmd->add_option("--lock-timeout", provision.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  provision_cmd->footer("Example: rescfg provision --plan plan.json --state .rescfg -m \"merge #123\"\n"
                        "Exit: 0 provisioned or nothing to change, 1 refused (invalid, revision or plan base mismatch; state untouched),\n"
                        "2 unusable input, plan or state (state untouched), 3 provisioned, but a later step failed.");
  provision_cmd->callback([&] { exit_code = RunProvision(provision); });

  PlanOptions plan;
  auto* plan_cmd = app.add_subcommand("plan", "Save what provision would do, to apply exactly that with provision --plan");
  plan_cmd->add_option("FILE", plan.file, "Configuration file")->required();
  plan_cmd->add_option("--state", plan.state_dir, "State directory (need not exist yet: revision 0)")->default_str(".rescfg");
  plan_cmd->add_option("--output,-o", plan.output, "Write the plan to FILE atomically (- for stdout)")->required();
  plan_cmd->add_option("--message,-m", plan.message, "Message stored in the history when the plan is applied");
  plan_cmd->add_flag("--strict", plan.strict, "Refuse on warnings too");
  plan_cmd->add_option("--format,-f", plan.format, "How the summary on standard output is written: text or markdown")
      ->check(CLI::IsMember({"text", "markdown"}));
  plan_cmd->add_option("--lock-timeout", plan.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  plan_cmd->footer("Example: rescfg plan resources.yaml --state /srv/rescfg -o plan.json\n"
                   "Exit: 0 plan written, 1 refused (invalid configuration, --strict warnings), 2 unusable input or state,\n"
                   "3 plan written, but its summary could not be printed.");
  plan_cmd->callback([&] { exit_code = RunPlan(plan); });

  ResetOptions reset;
  auto* reset_cmd = app.add_subcommand("reset", "Write the provisioned (or an earlier) configuration back out");
  reset_cmd->add_option("--state", reset.state_dir, "State directory")->default_str(".rescfg");
  reset_cmd->add_option("--output,-o", reset.output, "Write to FILE atomically instead of stdout");
  reset_cmd->add_option("--revision,-r", reset.revision, "Revision to write (default: the current one)");
  reset_cmd->add_flag("--canonical", reset.canonical, "Write the canonical form instead of the source text as provisioned");
  reset_cmd->add_option("--lock-timeout", reset.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  reset_cmd->footer("Example: rescfg reset --state .rescfg --revision 3 -o resources.yaml\n"
                    "Writes the file as it was provisioned, comments and layout kept (--canonical: its canonical form).\n"
                    "Exit: 0 written; 2 state missing, locked too long or corrupt, or no such revision.");
  reset_cmd->callback([&] { exit_code = RunReset(reset); });

  HistoryOptions history;
  auto* history_cmd = app.add_subcommand("history", "List the provisioned revisions");
  history_cmd->add_option("--state", history.state_dir, "State directory")->default_str(".rescfg");
  history_cmd->add_option("--format,-f", history.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  history_cmd->add_option("--lock-timeout", history.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  AddOutput(history_cmd, &history.output);
  history_cmd->footer("Example: rescfg history --state .rescfg --format json | jq .current\n"
                      "Exit: 0 listed; 2 state missing, locked too long or corrupt.");
  history_cmd->callback([&] { exit_code = RunHistory(history); });

  StatusOptions status;
  auto* status_cmd = app.add_subcommand("status", "Pool and profile cards: usage, priorities, pending and running jobs");
  AddConfigSource(status_cmd, &status.config);
  AddJobsFromSync(status_cmd, &status.jobs, AddJobsSource(status_cmd, &status.jobs, false));
  status_cmd->add_option("--format,-f", status.format, "table or json")->check(CLI::IsMember({"table", "json"}));
  AddOutput(status_cmd, &status.output);
  status_cmd->footer("Example: rescfg status --config resources.yaml --jobs jobs.yaml\n"
                     "Exit: 0 printed (also when some jobs are rejected); 2 unusable input or state.");
  status_cmd->callback([&] {
    SetSyncStateDir(&status.jobs, status.config);
    exit_code = RunStatus(status);
  });

  FmtOptions fmt;
  auto* fmt_cmd = app.add_subcommand("fmt", "Print a configuration in canonical form (usable as a git textconv driver)");
  fmt_cmd->add_option("FILE", fmt.files, "Configuration file (- for stdin); several with --check or -w")->required();
  fmt_cmd->add_flag("--canonical", fmt.canonical, "Canonical form (the default and only form)");
  auto* fmt_check = fmt_cmd->add_flag("--check", fmt.check,
                                      "List the files that are not in canonical form (exit 1 if any); change nothing");
  auto* fmt_write = fmt_cmd->add_flag("--write,-w", fmt.write,
                                      "Rewrite the files that are not in canonical form in place, atomically "
                                      "(comments and layout are lost)");
  auto* fmt_output = fmt_cmd->add_option("--output,-o", fmt.output, "Write to FILE atomically instead of stdout");
  fmt_write->excludes(fmt_check)->excludes(fmt_output);
  fmt_cmd->footer("Examples: rescfg fmt resources.yaml; rescfg fmt --check clusters/*.yaml\n"
                  "The canonical form spells out every default and keeps no comments: -w drops them.\n"
                  "Exit: 0 printed (--check: every file canonical; -w: done); 1 invalid configuration\n"
                  "(--check: or some file not in canonical form); 2 unusable input.");
  fmt_cmd->callback([&] { exit_code = RunFmt(fmt); });

  GraphOptions graph;
  auto* graph_cmd = app.add_subcommand("graph", "Draw pools, profiles, links and policies as Mermaid or Graphviz");
  AddConfigSource(graph_cmd, &graph.config);
  graph_cmd->add_option("--format,-f", graph.format, "mermaid or dot")->check(CLI::IsMember({"mermaid", "dot"}));
  AddOutput(graph_cmd, &graph.output);
  AddJobsSource(graph_cmd, &graph.jobs, false);
  graph_cmd->add_option("--policy", graph.policies,
                        "Only this policy's view: its profiles and the pools they link (repeatable)")
      ->allow_extra_args(false);
  graph_cmd->add_option("--pool", graph.pools,
                        "Only this pool's view: the profiles linked to it and their policies (repeatable; "
                        "with --policy, what connects them)")
      ->allow_extra_args(false);
  graph_cmd->footer("Example: rescfg graph --config resources.yaml --format dot | dot -Tsvg > resources.svg\n"
                    "Exit: 0 drawn; 2 unusable input or state, or no such --policy or --pool.");
  graph_cmd->callback([&] { exit_code = RunGraph(graph); });

  ExplainOptions explain;
  auto* explain_cmd = app.add_subcommand("explain", "Tell one job's story in the pass: why it waits, or why others went first");
  explain_cmd->add_option("JOB", explain.job, "The job's id")->required();
  AddConfigSource(explain_cmd, &explain.config);
  AddJobsFromSync(explain_cmd, &explain.jobs, AddJobsSource(explain_cmd, &explain.jobs, false));
  explain_cmd->add_option("--format,-f", explain.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  explain_cmd->add_option("--output,-o", explain.output, "Write to FILE atomically instead of stdout");
  explain_cmd->add_option("--max-ahead", explain.max_ahead, "Jobs listed per pool (the count says how many there were)")
      ->check(CLI::NonNegativeNumber);
  explain_cmd->footer("Example: rescfg explain dev-3 --state .rescfg --jobs jobs.jsonl\n"
                      "Exit: 0 explained, 2 unusable input or no such job.");
  explain_cmd->callback([&] {
    if (!RequireJobs(explain.jobs, "explain")) {
      exit_code = kExitUnusable;
      return;
    }
    SetSyncStateDir(&explain.jobs, explain.config);
    exit_code = RunExplain(explain);
  });

  ExportOptions export_options;
  auto* export_cmd = app.add_subcommand("export", "Write what the engines that enforce a configuration need: ClearML agents, Kueue");
  export_cmd->add_option("TARGET", export_options.target, "clearml-agent or kueue")
      ->required()->check(CLI::IsMember({"clearml-agent", "kueue"}));
  AddConfigSource(export_cmd, &export_options.config);
  export_cmd->add_option("--output,-o", export_options.output, "Write the documents to FILE atomically instead of stdout");
  export_cmd->add_option("--format,-f", export_options.format, "yaml (the documents) or json (documents and findings as data)")
      ->check(CLI::IsMember({"yaml", "json"}));
  export_cmd->add_option("--mode", export_options.mode, "clearml-agent: k8s-glue (Helm values) or daemon (command lines)")
      ->check(CLI::IsMember({"k8s-glue", "daemon"}));
  export_cmd->add_option("--pool", export_options.pool, "clearml-agent: only this pool")
      ->check([](const std::string& name) { return name.empty() ? std::string("the pool name is empty") : std::string(); });
  export_cmd->add_option("--chart", export_options.chart,
                         "clearml-agent k8s-glue: enterprise (ClearML's Enterprise agent chart: per-queue sizing) or "
                         "open (the open-source clearml-agent chart: one list of queues)")
      ->check(CLI::IsMember({"enterprise", "open"}));
  export_cmd->add_option("--accept", export_options.accept,
                         "Finding codes you have reviewed, comma-separated: shown as notes, they no longer make the exit 1")
      ->delimiter(',')->type_name("CODE[,CODE...]");
  export_cmd->footer("Example: rescfg export clearml-agent --config resources.yaml -o values.yaml\n"
                     "         rescfg export kueue --config resources.yaml --accept kueue-split-reservation,kueue-fixed-allotment\n"
                     "Exit: 0 faithful (or only accepted findings), 1 approximated (findings on stderr), 2 unusable input\n"
                     "or an --accept code the target never reports.");
  export_cmd->callback([&] { exit_code = RunExport(export_options); });

  SyncOptions sync_options;
  auto* sync_cmd = app.add_subcommand("sync", "Serve the policy queues of a ClearML server: read, schedule, move tasks to their pools");
  sync_cmd->add_option("--state", sync_options.state_dir, "State directory (the provisioned configuration; the sync's journal)")
      ->default_str(".rescfg");
  sync_cmd->add_option("--clearml-server", sync_options.server, "The ClearML API server (default: CLEARML_API_HOST)");
  auto* sync_once = sync_cmd->add_flag("--once", sync_options.once, "Run one cycle and exit");
  auto* sync_interval = sync_cmd->add_option("--interval", sync_options.interval_seconds,
                                             "Run a cycle every SECONDS until SIGINT or SIGTERM")
                            ->check(WholeNumber(1, 1'000'000));
  sync_once->excludes(sync_interval);
  sync_cmd->add_flag("--dry-run,-n", sync_options.dry_run, "Read and decide, move nothing (moves are 'planned')");
  sync_cmd->add_option("--metrics", sync_options.metrics, "Rewrite FILE after every cycle in the Prometheus text format");
  AddOutput(sync_cmd, &sync_options.output);
  sync_cmd->add_option("--format,-f", sync_options.format, "jsonl (one object per move) or table")
      ->check(CLI::IsMember({"jsonl", "table"}));
  sync_cmd->add_option("--credentials", sync_options.credentials,
                       "File of two lines, access key then secret key, readable by its owner only "
                       "(default: CLEARML_API_ACCESS_KEY, CLEARML_API_SECRET_KEY)");
  sync_cmd->add_option("--ca-cert", sync_options.ca_cert, "CA certificates (PEM) to verify the server with");
  sync_cmd->add_flag("--insecure-http", sync_options.insecure_http, "Allow plain http:// to a server that is not on loopback");
  sync_cmd->add_option("--lock-timeout", sync_options.lock_timeout_seconds,
                       "Seconds to wait for the state lock when reading the configuration")->default_val(10);
  sync_cmd->footer("Example: rescfg sync --state /var/lib/rescfg --clearml-server https://api.clearml.example --once\n"
                   "Exit: 0 the cycle completed (--once), or stopped by SIGINT or SIGTERM (--interval);\n"
                   "1 completed with findings (rejected tasks, failed moves); 2 unusable: configuration, state,\n"
                   "credentials refused, server unreachable (nothing moved).");
  sync_cmd->callback([&] {
    if (!sync_options.once && !sync_options.interval_seconds) {
      spdlog::error("rescfg sync: give --once or --interval SECONDS");
      exit_code = kExitUnusable;
      return;
    }
    exit_code = RunSync(sync_options);
  });

  CompletionOptions completion;
  auto* completion_cmd = app.add_subcommand("completion", "Print a shell completion script for bash, zsh or fish");
  completion_cmd->add_option("SHELL", completion.shell, "bash, zsh or fish")
      ->required()->check(CLI::IsMember({"bash", "zsh", "fish"}));
  AddOutput(completion_cmd, &completion.output);
  completion_cmd->footer("Example: rescfg completion bash > ~/.local/share/bash-completion/completions/rescfg\n"
                         "Exit: 0 written; 2 the output cannot be written.");
  completion_cmd->callback([&] {
    completion.global_flags = DescribeCommand(&app).flags;
    for (const CLI::App* sub : app.get_subcommands({})) completion.commands.push_back(DescribeCommand(sub));
    exit_code = RunCompletion(completion);
  });

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
