#include <spdlog/spdlog.h>

#include <sys/prctl.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "commands.h"
#include "config_source.h"
#include "output_file.h"
#include "state/state_store.h"
#include "sync/credentials.h"
#include "sync/cycle.h"
#include "sync/kept_snapshot.h"
#include "sync/metrics.h"
#include "sync/metrics_path.h"
#include "sync/file_trust.h"
#include "sync/unplaced_running.h"
#include "sync/move_output.h"
#include "sync/read_bounds.h"
#include "sync/server_text.h"
#include "sync/sync_lock.h"
#include "util/atomic_file.h"
#include "util/clock.h"

namespace rescfg::cmd {
namespace {

std::atomic<bool> g_stop{false};

void OnSignal(int) { g_stop.store(true); }

void InstallSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

/// The summary line goes to stderr unless -q.
void Summary(const std::string& line) {
  if (spdlog::get_level() < spdlog::level::err) std::fprintf(stderr, "rescfg: %s\n", line.c_str());
}

/// Waits `seconds` or until a signal.
void Pause(Clock& clock, int64_t seconds) {
  const int64_t until = clock.MonotonicMicros() + seconds * 1'000'000;
  while (!g_stop.load() && clock.MonotonicMicros() < until) clock.Sleep(50'000);
}

std::optional<sync::Credentials> LoadCredentials(const SyncOptions& options) {
  if (!options.credentials.empty()) {
    std::string error;
    auto credentials = sync::ReadCredentialsFile(options.credentials, &error);
    if (!credentials) spdlog::error("{}", error);
    return credentials;
  }
  auto credentials = sync::CredentialsFromEnvironment();
  if (!credentials) {
    spdlog::error("no ClearML credentials: set CLEARML_API_ACCESS_KEY and CLEARML_API_SECRET_KEY, or give "
                  "--credentials FILE (two lines: the access key, then the secret key)");
  }
  return credentials;
}

/// The moves were made, their results not journaled (a full disk): what moved, and that the next cycle settles it.
void SayUnrecorded(const sync::CycleResult& result, int64_t cycle) {
  spdlog::error("cycle {}: {} moved, {} skipped, {} failed (listed in the output), but the journal could not "
                "record their results: {}; their intents stay open there, and the next cycle settles them "
                "from what the server shows", cycle, result.Count(sync::MoveResult::kMoved),
                result.Count(sync::MoveResult::kSkipped), result.Count(sync::MoveResult::kFailed), result.unrecorded);
}

/// A --ca-cert others may change, or that another user owns, is refused (said on stderr).
bool CaBundleTrusted(const SyncOptions& options) {
  if (options.ca_cert.empty()) return true;
  const std::string untrusted = sync::UntrustedFileReason(options.ca_cert, options.ca_cert, "CA bundle");
  if (!untrusted.empty()) spdlog::error("{}", untrusted);
  return untrusted.empty();
}

/// The bounds of a cycle's reading (rescfg(1), "Bounds on a cycle").
sync::ReadBounds ReadBoundsOf(const SyncOptions& options) {
  sync::ReadBounds bounds;
  bounds.cycle_micros = options.read_timeout_seconds * 1'000'000;
  sync::ApplyTestReadBounds(&bounds);
  return bounds;
}

/// --metrics FILE after a cycle, stamped with the clock's time.
void WriteMetrics(const std::string& path, const sync::CycleResult* last_completed, const sync::CycleResult& latest,
                  const sync::MetricsTotals& totals, const sync::ApiClient& api, const Clock& clock) {
  const std::string text =
      sync::RenderMetrics(last_completed, latest, totals, api.errors_by_endpoint(), clock.UtcMicros() / 1'000'000);
  std::string error;
  if (!WriteFileAtomically(path, text, &error)) spdlog::error("--metrics: {}", error);
}

/// The findings of a cycle, whose messages quote the server's task names.
void LogServerFindings(const std::vector<Finding>& findings) {
  std::vector<Finding> shown = findings;
  for (Finding& f : shown) f.message = sync::ServerText(f.message), f.hint = sync::ServerText(f.hint);
  LogFindings(shown);
}

/// The records of what a cycle carried out, also before it failed (its re-queues, its stops).
bool WriteRecords(const SyncOptions& options, const sync::CycleResult& result, int64_t cycle) {
  if (result.status != sync::CycleResult::Status::kCompleted && result.moves.empty()) return true;
  const std::string text =
      options.format == "table" ? sync::MoveTable(result.moves, cycle) : sync::MoveJsonLines(result.moves, cycle);
  if (text.empty() && options.output.empty()) return true;
  if (!WriteOutput(options.output, text)) return false;
  if (options.output.empty()) std::fflush(stdout);
  return true;
}

}  // namespace

int RunSync(const SyncOptions& options) {
  std::string server = options.server;
  if (server.empty()) {
    const char* host = std::getenv("CLEARML_API_HOST");
    server = host ? host : "";
  }
  if (server.empty()) {
    spdlog::error("no ClearML server: give --clearml-server URL or set CLEARML_API_HOST");
    return kExitUnusable;
  }
  std::string error;
  auto address = sync::CheckServerAddress(server, options.insecure_http, &error);
  if (!address) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  // The secret lives in this process: no core dump holds it, no other
  // process of the same user reads its memory (ptrace, /proc/PID/mem).
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  auto credentials = LoadCredentials(options);
  if (!credentials) return kExitUnusable;

  const std::string state_dir = StateDirOrDefault(options.state_dir);
  if (!PathExists(state_dir)) {
    spdlog::error("{}: no state directory; provision a configuration first (rescfg provision FILE --state {})",
                  state_dir, state_dir);
    return kExitUnusable;
  }
  const sync::SyncPaths paths = sync::SyncPathsOf(state_dir);
  if (!sync::MakeSyncDirectory(paths, &error)) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (const std::string refusal = options.metrics.empty() ? "" : sync::MetricsPathRefusal(options.metrics);
      !refusal.empty()) {
    spdlog::error("{}", refusal);
    return kExitUnusable;
  }
  auto lock = sync::SyncLock::Acquire(paths.lock, &error);
  if (!lock) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  auto journal = sync::Journal::Open(paths.journal, &error);
  if (!journal) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  if (!journal->warning().empty()) spdlog::warn("{}", journal->warning());
  if (!CaBundleTrusted(options)) return kExitUnusable;
  // The one place the sync takes the machine's clocks: everything below reads and waits on this one.
  Clock& clock = SystemClock();
  sync::ReadGuard read_guard(clock, ReadBoundsOf(options), &g_stop);
  sync::CurlOptions curl{options.ca_cert};
  curl.guard = &read_guard;
  curl.clock = &clock;
  auto transport = sync::MakeCurlTransport(curl, &error);
  if (!transport) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  sync::ApiClient api(transport.get(), *address, std::move(*credentials), {}, clock);
  InstallSignalHandlers();

  sync::CycleSettings settings;
  settings.state_dir = state_dir;
  settings.dry_run = options.dry_run;
  settings.lock_timeout_seconds = options.lock_timeout_seconds;
  settings.stop = &g_stop;
  settings.read_guard = &read_guard;
  settings.clock = &clock;
  // Crash points of the fault tests are counted in one order: one move at a time.
  if (std::getenv("RESCFG_TEST_CRASH_POINT") != nullptr) settings.connections = 1;

  ProvisionedConfig provisioned;  // read again only when a new revision is provisioned
  settings.provisioned = &provisioned;

  sync::MetricsTotals totals;
  std::optional<sync::CycleResult> last_completed;
  for (int64_t cycle = 1;; ++cycle) {
    settings.cycle = cycle;
    sync::CycleResult result = sync::RunCycle(api, *journal, settings);
    for (const auto& note : result.notes) spdlog::warn("{}: {}", state_dir, sync::ServerText(note));
    LogServerFindings(result.findings);
    const bool completed = result.status == sync::CycleResult::Status::kCompleted;
    if (!WriteRecords(options, result, cycle)) return kExitUnusable;
    if (completed) {
      if (result.report) {
        const std::string unplaced = sync::RunningInNoPoolWarning(sync::RunningInNoPool(*result.report));
        if (!unplaced.empty()) spdlog::warn("cycle {}: {}", cycle, unplaced);
      }
      Summary(sync::CycleSummary(result, cycle, options.dry_run));
      if (!result.unrecorded.empty()) SayUnrecorded(result, cycle);
    } else {
      spdlog::error("cycle {}: {}; {}", cycle, sync::ServerText(result.error),
                    result.moves.empty() ? "nothing was moved" : "nothing was moved but the stops and re-queues it printed");
    }
    sync::CountCycle(result, &totals);
    if (completed) last_completed = std::move(result);
    if (!options.metrics.empty()) {
      WriteMetrics(options.metrics, last_completed ? &*last_completed : nullptr, completed ? *last_completed : result,
                   totals, api, clock);
    }
    const auto status = completed ? sync::CycleResult::Status::kCompleted : result.status;
    if (status == sync::CycleResult::Status::kCredentialsRefused) {
      spdlog::error("the server refused the credentials");
      return kExitUnusable;
    }
    if (options.once) {
      if (!completed || !last_completed->unrecorded.empty()) return kExitUnusable;
      const bool findings = !last_completed->report->rejected.empty() || last_completed->Count(sync::MoveResult::kFailed) > 0;
      return findings ? kExitFindings : kExitOk;
    }
    if (g_stop.load()) return kExitOk;
    Pause(clock, *options.interval_seconds);
    if (g_stop.load()) return kExitOk;
  }
}

}  // namespace rescfg::cmd
