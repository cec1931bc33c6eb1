/// Each command's flags, help and call: one function a command.

#include "wiring.h"

#include <spdlog/spdlog.h>

#include "config_source.h"
#include "flags.h"

namespace rescfg::cmd {
namespace {

void AddValidate(CLI::App& app, ValidateOptions& validate, int& exit_code) {
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
}

void AddSchedule(CLI::App& app, ScheduleOptions& schedule, int& exit_code) {
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
}

void AddSimulate(CLI::App& app, SimulateOptions& simulate, int& exit_code) {
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
  simulate_cmd->add_option("--plot", simulate.plot, "Also draw pool usage over time and each policy's waits as an SVG file (with preemption: a mark at each preemption)");
  simulate_cmd->footer(
      "Example: rescfg simulate --config resources.yaml --trace week.jsonl --format table --plot week.svg\n"
      "Exit: 0 every entry simulated; 1 some entry rejected (the output is still complete);\n"
      "2 unusable input or state (then nothing is written to -o or --plot).");
  simulate_cmd->callback([&] { exit_code = RunSimulate(simulate); });
}

void AddDiff(CLI::App& app, DiffOptions& diff, int& exit_code) {
  auto* diff_cmd = app.add_subcommand("diff", "Semantic diff of two configurations, or of one against the provisioned state");
  diff_cmd->add_option("FILE", diff.files, "OLD NEW, or NEW together with --state")->required()->expected(1, 2);
  auto* diff_state = diff_cmd->add_option("--state", diff.state_dir, "Compare NEW against this provisioned state");
  diff_cmd->add_option("--format,-f", diff.format, "text, json or markdown (a pull-request comment)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  AddJobsFromSync(diff_cmd, &diff.jobs, AddJobsSource(diff_cmd, &diff.jobs, false));
  diff_cmd->add_option("--lock-timeout", diff.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  diff_cmd->add_option("--trace,-t", diff.trace.file,
                       "Simulate this trace against both configurations and compare each policy's waits and GPU-hours (with preemption: stops and GPU-hours lost)");
  diff_cmd->add_option("--trace-format", diff.trace.format, "Force the trace format instead of using the extension")
      ->check(CLI::IsMember({"yaml", "jsonl"}));
  diff_cmd->add_option("--start", diff.start, "With --trace: start the clock at this RFC 3339 time");
  diff_cmd->add_option("--until", diff.until, "With --trace: stop after the events at this RFC 3339 time");
  AddOutput(diff_cmd, &diff.output);
  diff_cmd->footer("Example: rescfg diff <(git show HEAD~1:resources.yaml) resources.yaml\n"
                   "         rescfg diff --state /var/lib/rescfg resources.yaml --jobs-from-sync  (impact on what the last sync read)\n"
                   "Exit: 0 same; 1 different; 2 unusable input or state.");
  diff_cmd->callback([&, diff_state] {
    diff.against_state = diff_state->count() > 0;
    diff.jobs.sync_state_dir = StateDirOrDefault(diff.state_dir);
    exit_code = RunDiff(diff);
  });
}

void AddProvision(CLI::App& app, ProvisionOptions& provision, int& exit_code) {
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
  AddJobsFromSync(provision_cmd, &provision.jobs, AddJobsSource(provision_cmd, &provision.jobs, false));
  provision_cmd->add_option("--lock-timeout", provision.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  provision_cmd->footer("Example: rescfg provision --plan plan.json --state .rescfg -m \"merge #123\"\n"
                        "Exit: 0 provisioned or nothing to change, 1 refused (invalid, revision or plan base mismatch; state untouched),\n"
                        "2 unusable input, plan or state (state untouched), 3 provisioned, but a later step failed.");
  provision_cmd->callback([&] { exit_code = RunProvision(provision); });
}

void AddPlan(CLI::App& app, PlanOptions& plan, int& exit_code) {
  auto* plan_cmd = app.add_subcommand("plan", "Save what provision would do, to apply exactly that with provision --plan");
  plan_cmd->add_option("FILE", plan.file, "Configuration file")->required();
  plan_cmd->add_option("--state", plan.state_dir, "State directory (need not exist yet: revision 0)")->default_str(".rescfg");
  plan_cmd->add_option("--output,-o", plan.output, "Write the plan to FILE atomically (- for stdout)")->required();
  plan_cmd->add_option("--message,-m", plan.message, "Message stored in the history when the plan is applied");
  plan_cmd->add_flag("--strict", plan.strict, "Refuse on warnings too");
  AddJobsFromSync(plan_cmd, &plan.jobs, AddJobsSource(plan_cmd, &plan.jobs, false));
  plan_cmd->add_option("--format,-f", plan.format, "How the summary on standard output is written: text or markdown")
      ->check(CLI::IsMember({"text", "markdown"}));
  plan_cmd->add_option("--lock-timeout", plan.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  plan_cmd->footer("Example: rescfg plan resources.yaml --state /srv/rescfg -o plan.json\n"
                   "Exit: 0 plan written, 1 refused (invalid configuration, --strict warnings), 2 unusable input or state,\n"
                   "3 plan written, but its summary could not be printed.");
  plan_cmd->callback([&] { exit_code = RunPlan(plan); });
}

void AddReset(CLI::App& app, ResetOptions& reset, int& exit_code) {
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
}

void AddHistory(CLI::App& app, HistoryOptions& history, int& exit_code) {
  auto* history_cmd = app.add_subcommand("history", "List the provisioned revisions");
  history_cmd->add_option("--state", history.state_dir, "State directory")->default_str(".rescfg");
  history_cmd->add_option("--format,-f", history.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  history_cmd->add_option("--lock-timeout", history.lock_timeout_seconds, "Seconds to wait for the state lock")->default_val(10);
  AddOutput(history_cmd, &history.output);
  history_cmd->footer("Example: rescfg history --state .rescfg --format json | jq .current\n"
                      "Exit: 0 listed; 2 state missing, locked too long or corrupt.");
  history_cmd->callback([&] { exit_code = RunHistory(history); });
}

void AddStatus(CLI::App& app, StatusOptions& status, int& exit_code) {
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
}

void AddFmt(CLI::App& app, FmtOptions& fmt, int& exit_code) {
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
}

void AddGraph(CLI::App& app, GraphOptions& graph, int& exit_code) {
  auto* graph_cmd = app.add_subcommand("graph", "Draw pools, profiles, links and policies as Mermaid or Graphviz");
  AddConfigSource(graph_cmd, &graph.config);
  graph_cmd->add_option("--format,-f", graph.format, "mermaid or dot")->check(CLI::IsMember({"mermaid", "dot"}));
  AddOutput(graph_cmd, &graph.output);
  AddJobsFromSync(graph_cmd, &graph.jobs, AddJobsSource(graph_cmd, &graph.jobs, false));
  graph_cmd->add_option("--policy", graph.policies,
                        "Only this policy's view: its profiles and the pools they link (repeatable)")
      ->allow_extra_args(false);
  graph_cmd->add_option("--pool", graph.pools,
                        "Only this pool's view: the profiles linked to it and their policies (repeatable; "
                        "with --policy, what connects them)")
      ->allow_extra_args(false);
  graph_cmd->footer("Example: rescfg graph --config resources.yaml --format dot | dot -Tsvg > resources.svg\n"
                    "         rescfg graph --state /var/lib/rescfg --jobs-from-sync  (with what the last sync read)\n"
                    "Exit: 0 drawn; 2 unusable input or state, or no such --policy or --pool.");
  graph_cmd->callback([&] {
    SetSyncStateDir(&graph.jobs, graph.config);
    exit_code = RunGraph(graph);
  });
}

void AddExplain(CLI::App& app, ExplainOptions& explain, int& exit_code) {
  auto* explain_cmd = app.add_subcommand("explain", "Tell one job's story in the pass: why it waits, or why others went first");
  explain_cmd->add_option("JOB", explain.job, "The job's id, or a ClearML task's name")->required();
  AddConfigSource(explain_cmd, &explain.config);
  AddJobsFromSync(explain_cmd, &explain.jobs, AddJobsSource(explain_cmd, &explain.jobs, false));
  explain_cmd->add_option("--format,-f", explain.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  explain_cmd->add_option("--output,-o", explain.output, "Write to FILE atomically instead of stdout");
  explain_cmd->add_option("--max-ahead", explain.max_ahead, "Jobs listed per pool (the count says how many there were)")
      ->check(CLI::NonNegativeNumber);
  explain_cmd->footer("Example: rescfg explain dev-3 --state .rescfg --jobs jobs.jsonl\n"
                      "Exit: 0 explained, 2 unusable input, no such job, or a name several tasks share.");
  explain_cmd->callback([&] {
    if (!RequireJobs(explain.jobs, "explain")) {
      exit_code = kExitUnusable;
      return;
    }
    SetSyncStateDir(&explain.jobs, explain.config);
    exit_code = RunExplain(explain);
  });
}

void AddExport(CLI::App& app, ExportOptions& export_options, int& exit_code) {
  auto* export_cmd = app.add_subcommand("export", "Write what the engines that enforce a configuration need: ClearML agents, Kueue");
  export_cmd->add_option("TARGET", export_options.target, "clearml-agent or kueue")
      ->required()->check(CLI::IsMember({"clearml-agent", "kueue"}));
  AddConfigSource(export_cmd, &export_options.config);
  export_cmd->add_option("--output,-o", export_options.output, "Write the documents to FILE atomically instead of stdout");
  export_cmd->add_option("--format,-f", export_options.format, "yaml (the documents) or json (documents and findings as data)")
      ->check(CLI::IsMember({"yaml", "json"}));
  export_cmd->add_option("--mode", export_options.mode, "clearml-agent: k8s-glue (Helm values) or daemon (command lines)")
      ->check(CLI::IsMember({"k8s-glue", "daemon"}));
  export_cmd->add_option("--pool", export_options.pools,
                         "clearml-agent: only this pool; kueue: only these pools, the ones on Kubernetes (repeatable)")
      ->allow_extra_args(false)
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
}

void AddSync(CLI::App& app, SyncOptions& sync_options, int& exit_code) {
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
  sync_cmd->add_option("--read-timeout", sync_options.read_timeout_seconds,
                       "Seconds the reading of the server may take in one cycle")
      ->default_val(300)->check(WholeNumber(1, 86'400));
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
}

void AddCompletion(CLI::App& app, CompletionOptions& completion, int& exit_code) {
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
}

}  // namespace

void AddCommands(CLI::App& app, CommandOptions& options, int& exit_code) {
  AddValidate(app, options.validate, exit_code);
  AddSchedule(app, options.schedule, exit_code);
  AddSimulate(app, options.simulate, exit_code);
  AddDiff(app, options.diff, exit_code);
  AddProvision(app, options.provision, exit_code);
  AddPlan(app, options.plan, exit_code);
  AddReset(app, options.reset, exit_code);
  AddHistory(app, options.history, exit_code);
  AddStatus(app, options.status, exit_code);
  AddFmt(app, options.fmt, exit_code);
  AddGraph(app, options.graph, exit_code);
  AddExplain(app, options.explain, exit_code);
  AddExport(app, options.export_options, exit_code);
  AddSync(app, options.sync_options, exit_code);
  AddCompletion(app, options.completion, exit_code);
}

}  // namespace rescfg::cmd
