#pragma once
/// The commands of the rescfg CLI. main.cc parses flags (CLI11 lives only
/// there) and calls one Run* function; each returns the process exit code.

#include <optional>
#include <string>
#include <vector>

namespace rescfg::cmd {

/// Exit codes shared by every command, like diff(1). kExitPartial: a
/// provision was committed, but a later step (the config.yaml copy, the
/// report on standard output) failed; the state is consistent at the new
/// revision.
enum ExitCode : int { kExitOk = 0, kExitFindings = 1, kExitUnusable = 2, kExitPartial = 3 };

struct ValidateOptions {
  std::vector<std::string> files;
  std::string format = "text";  ///< text | json | github
  bool strict = false;
  std::string output;              ///< -o FILE, written atomically; "" is stdout
};
int RunValidate(const ValidateOptions& options);

/// Where a command gets its configuration: the provisioned state or a file.
struct ConfigSource {
  std::string state_dir;    ///< used when config_file is empty
  std::string config_file;
  int lock_timeout_seconds = 10;
};

struct JobsSource {
  std::string file;         ///< "" when not given; "-" is standard input
  /// --jobs-from-sync: read the snapshot the last `rescfg sync` kept in
  /// `sync_state_dir` (with its journal's hand-overs) instead of a file.
  bool from_sync = false;
  std::string sync_state_dir;
  std::string format;       ///< "" (by extension) | yaml | jsonl | clearml
  std::string clearml_queues;   ///< --clearml-queues FILE: a queues.get_all response ("" when not given)
  std::string clearml_workers;  ///< --clearml-workers FILE: a workers.get_all response
  std::string now;              ///< --now TIME (RFC 3339); "" is the current time
};

struct ScheduleOptions {
  ConfigSource config;
  JobsSource jobs;
  std::string format = "yaml";  ///< yaml | json | jsonl | table | clearml
  std::string output;           ///< -o FILE, written atomically; "" is stdout
};
int RunSchedule(const ScheduleOptions& options);

struct DiffOptions {
  std::vector<std::string> files;  ///< OLD NEW, or NEW with --state
  std::string state_dir;
  bool against_state = false;
  std::string format = "text";     ///< text | json
  JobsSource jobs;
  int lock_timeout_seconds = 10;
  std::string output;              ///< -o FILE, written atomically; "" is stdout
  JobsSource trace;                ///< --trace: both configurations' simulations side by side
  std::optional<std::string> start, until;  ///< of those simulations (RFC 3339)
};
int RunDiff(const DiffOptions& options);

struct SimulateOptions {
  ConfigSource config;
  JobsSource trace;                         ///< --trace FILE, --trace-format
  std::optional<std::string> start, until;  ///< RFC 3339
  std::string format = "yaml";              ///< yaml | json | jsonl | table
  std::string output;                       ///< -o FILE, written atomically; "" is stdout
  std::optional<std::string> plot;          ///< --plot FILE.svg
};
int RunSimulate(const SimulateOptions& options);

struct ProvisionOptions {
  std::string file;                ///< the configuration; "" with `plan`
  std::string plan;                ///< --plan PLAN: apply this plan instead of a file
  std::string state_dir = ".rescfg";
  bool dry_run = false;
  std::string message;
  std::optional<long> expect_revision;
  bool strict = false;
  int lock_timeout_seconds = 10;
  JobsSource jobs;                 ///< optional: counts the tasks of removed policy queues
};
int RunProvision(const ProvisionOptions& options);

struct PlanOptions {
  std::string file;
  std::string state_dir = ".rescfg";
  std::string output;              ///< -o PLAN, written atomically; "-" is stdout
  std::string message;             ///< stored in the plan, for the history
  bool strict = false;
  int lock_timeout_seconds = 10;
  std::string format = "text";     ///< text | markdown: the summary on stdout
  JobsSource jobs;                 ///< optional: counts the tasks of removed policy queues
};
int RunPlan(const PlanOptions& options);

struct ResetOptions {
  std::string state_dir = ".rescfg";
  std::string output;              ///< "" is stdout
  std::optional<long> revision;
  bool canonical = false;          ///< the canonical form instead of the source text
  int lock_timeout_seconds = 10;
};
int RunReset(const ResetOptions& options);

struct HistoryOptions {
  std::string state_dir = ".rescfg";
  std::string format = "text";  ///< text | json
  int lock_timeout_seconds = 10;
  std::string output;              ///< -o FILE, written atomically; "" is stdout
};
int RunHistory(const HistoryOptions& options);

struct StatusOptions {
  ConfigSource config;
  JobsSource jobs;
  std::string format = "table";  ///< table | json
  std::string output;              ///< -o FILE, written atomically; "" is stdout
};
int RunStatus(const StatusOptions& options);

struct FmtOptions {
  std::vector<std::string> files;  ///< one to print; any number with check or write
  bool canonical = true;
  bool check = false;              ///< list the files not in canonical form; exit 1 if any
  bool write = false;              ///< rewrite them in place, atomically
  std::string output;              ///< -o FILE, written atomically; "" is stdout
};
int RunFmt(const FmtOptions& options);

struct GraphOptions {
  ConfigSource config;
  JobsSource jobs;                 ///< optional: usage on the pools
  std::vector<std::string> policies, pools;  ///< --policy, --pool: one team's or one pool's view
  std::string format = "mermaid";  ///< mermaid | dot
  std::string output;              ///< -o FILE, written atomically; "" is stdout
};
int RunGraph(const GraphOptions& options);

struct ExplainOptions {
  std::string job;               ///< the job's id
  ConfigSource config;
  JobsSource jobs;
  std::string format = "text";   ///< text | json
  std::string output;            ///< -o FILE, written atomically; "" is stdout
  int max_ahead = 20;            ///< jobs listed per pool
};
int RunExplain(const ExplainOptions& options);

struct ExportOptions {
  std::string target;            ///< clearml-agent | kueue
  ConfigSource config;
  std::string output;            ///< -o FILE, written atomically; "" is stdout
  std::string format = "yaml";   ///< yaml (the documents) | json (documents and findings as data)
  std::string mode = "k8s-glue"; ///< clearml-agent: k8s-glue | daemon
  std::vector<std::string> pools; ///< --pool: clearml-agent, only this one; kueue, only these (repeatable)
  std::string chart = "enterprise"; ///< clearml-agent k8s-glue: enterprise | open (the Helm chart's form)
  std::vector<std::string> accept;  ///< --accept: reviewed finding codes, comma-separated lists
};
int RunExport(const ExportOptions& options);

struct SyncOptions {
  std::string state_dir = ".rescfg";
  std::string server;              ///< --clearml-server; "" : CLEARML_API_HOST
  bool once = false;
  std::optional<int64_t> interval_seconds;
  bool dry_run = false;
  std::string metrics;             ///< --metrics FILE, rewritten atomically after every cycle
  std::string output;              ///< -o FILE, rewritten atomically after every cycle; "" is stdout
  std::string format = "jsonl";    ///< jsonl | table
  std::string credentials;         ///< --credentials FILE; "" : the environment
  std::string ca_cert;             ///< --ca-cert FILE
  bool insecure_http = false;
  int lock_timeout_seconds = 10;
  int64_t read_timeout_seconds = 300;  ///< --read-timeout: the reading of the server in one cycle
};
int RunSync(const SyncOptions& options);

/// What `rescfg completion` needs to know about the command line. main.cc
/// fills it from the parser itself, so the scripts cannot drift from it.
struct CompletionFlag {
  std::vector<std::string> names;    ///< "-f", "--format"; empty for a positional argument
  std::string description;
  enum class Value { kNone, kFile, kChoice, kOther } value = Value::kNone;
  std::vector<std::string> choices;  ///< for kChoice
  bool repeatable = false;           ///< may be given more than once (-vv, FILE...)
};

struct CompletionCommand {
  std::string name;
  std::string description;
  std::vector<CompletionFlag> flags;
  std::optional<CompletionFlag> positional;
};

struct CompletionOptions {
  std::string shell;                 ///< bash | zsh | fish
  std::string program = "rescfg";
  std::string output;              ///< -o FILE, written atomically; "" is stdout
  std::vector<CompletionFlag> global_flags;
  std::vector<CompletionCommand> commands;
};
int RunCompletion(const CompletionOptions& options);

/// Opens /dev/null on any of the descriptors 0, 1 and 2 that is closed, so
/// that no file opened later takes their place. First thing in main().
void MakeStandardStreamsSafe();

/// Sets up spdlog on stderr: "rescfg: error: ..." lines; verbosity from -v/-q.
/// May be called again to change the verbosity.
void SetUpLogging(int verbosity, bool quiet);

/// Colour of the level word ("error", "warning") of log lines: "auto" (on a
/// terminal whose TERM is not dumb, unless NO_COLOR is set and not empty),
/// "always" or "never".
void SetLogColor(const std::string& when);

}  // namespace rescfg::cmd
