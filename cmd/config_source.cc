#include "config_source.h"

#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include "clearml/queues.h"
#include "clearml/snapshot.h"
#include "config/loader.h"
#include "decide/report.h"
#include "jobs/loader.h"
#include "state/state_store.h"
#include "sync/kept_snapshot.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"
#include "validate/load.h"

namespace rescfg::cmd {

bool RenameFindingsAllowed(std::vector<Finding>* findings, const std::string& file, bool strict) {
  for (Finding& f : *findings) f.file = file;
  LogFindings(*findings);
  return !strict || findings->empty();
}

void LogFindings(const std::vector<Finding>& findings) {
  for (const Finding& f : findings) {
    std::string where = f.file;
    if (f.mark.line > 0) where += ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column);
    std::string text = where + ": " + f.code + ": " + f.message + (f.hint.empty() ? "" : " (" + f.hint + ")");
    if (f.severity == Severity::kError) {
      spdlog::error("{}", text);
    } else {
      spdlog::warn("{}", text);
    }
  }
}

std::string StateDirOrDefault(const std::string& dir) { return dir.empty() ? ".rescfg" : dir; }

namespace {

std::optional<Config> Report(LoadedConfig loaded, const std::string& path, int invalid_exit, int* exit_code,
                             std::vector<Finding>* findings, bool log_warnings) {
  if (findings) *findings = loaded.findings;
  std::vector<Finding> shown;
  for (const auto& f : loaded.findings) {
    if (log_warnings || f.severity == Severity::kError) shown.push_back(f);
  }
  LogFindings(shown);
  if (!loaded.config) {
    *exit_code = loaded.unusable ? kExitUnusable : invalid_exit;
    if (!loaded.unusable) spdlog::error("{}: the configuration is not valid; run 'rescfg validate {}'", loaded.file, path);
  }
  return loaded.config;
}

}  // namespace

std::optional<Config> LoadConfigForCommand(const std::string& path, int invalid_exit, int* exit_code,
                                           std::vector<Finding>* findings, bool log_warnings) {
  return Report(LoadValidConfig(path), path, invalid_exit, exit_code, findings, log_warnings);
}

std::optional<std::string> ReadConfigSource(const std::string& path) {
  Finding failure;
  auto text = ReadInputFile(path, InputKind::kConfig, &failure);
  if (!text) LogFindings({failure});
  return text;
}

std::optional<Config> LoadConfigTextForCommand(std::string_view text, const std::string& file, int invalid_exit,
                                               int* exit_code, std::vector<Finding>* findings) {
  return Report(LoadValidConfigText(text, file), file, invalid_exit, exit_code, findings, true);
}

std::optional<StateStore> OpenStateForReading(const std::string& dir, int lock_timeout_seconds) {
  std::string error;
  auto store = StateStore::Open(dir, StateStore::Access::kRead, lock_timeout_seconds, &error);
  if (!store) {
    spdlog::error("{}", error);
    return std::nullopt;
  }
  for (const auto& note : store->notes()) spdlog::warn("{}: {}", dir, note);
  return store;
}

bool PathExists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

bool OpenStateForChange(const std::string& dir, bool write, int lock_timeout_seconds,
                        std::optional<StateStore>* store) {
  if (!write && !PathExists(dir)) return true;
  std::string error;
  *store = StateStore::Open(dir, write ? StateStore::Access::kWrite : StateStore::Access::kRead,
                            lock_timeout_seconds, &error);
  if (*store && !write && !(*store)->VerifyAll(&error)) store->reset();
  if (!*store) {
    spdlog::error("{}", error);
    return false;
  }
  for (const auto& note : (*store)->notes()) spdlog::warn("{}: {}", dir, note);
  return true;
}

std::optional<Config> LoadConfigFrom(const ConfigSource& source, std::string* label) {
  if (source.config_file.empty()) {
    const std::string dir = StateDirOrDefault(source.state_dir);
    ProvisionedConfig provisioned = LoadProvisionedConfig(dir, source.lock_timeout_seconds);
    for (const auto& note : provisioned.notes) spdlog::warn("{}: {}", dir, note);
    if (!provisioned.config) {
      spdlog::error("{}", provisioned.error);
      return std::nullopt;
    }
    if (label) *label = dir + " revision " + std::to_string(provisioned.revision);
    return provisioned.config;
  }
  if (label) *label = source.config_file;
  int exit_code = kExitOk;
  return LoadConfigForCommand(source.config_file, kExitUnusable, &exit_code);
}

namespace {

/// --jobs-from-sync: the files the last sync kept, and its hand-overs.
bool FromSync(const JobsSource& given, JobsSource* source, clearml::Handovers* handovers) {
  *source = given;
  if (!given.from_sync) {
    if (!given.file.empty()) return true;
    spdlog::error("no jobs: give --jobs FILE, or --jobs-from-sync to read what the last 'rescfg sync' kept");
    return false;
  }
  const sync::SyncPaths paths = sync::SyncPathsOf(given.sync_state_dir);
  if (!PathExists(paths.tasks)) {
    spdlog::error("{}: no snapshot kept there; run 'rescfg sync --state {}' first", paths.dir, given.sync_state_dir);
    return false;
  }
  std::string error;
  if (!sync::ReadHandovers(paths, handovers, &error)) {
    spdlog::error("{}", error);
    return false;
  }
  source->file = paths.tasks;
  source->format = "clearml";
  source->clearml_queues = paths.queues;
  source->clearml_workers = paths.workers;
  return true;
}

}  // namespace

std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& given, const std::vector<std::string>& param_paths,
                                       clearml::QueueList* queues, const Config* resolve_against,
                                       const std::vector<const Config*>& match_against,
                                       clearml::CompanionsAhead* ahead) {
  JobsSource source;
  clearml::Handovers handovers;
  if (!FromSync(given, &source, &handovers)) return std::nullopt;
  const bool clearml = source.format == "clearml";
  if (!clearml && !source.clearml_workers.empty()) {
    spdlog::error("--clearml-workers is read only with --jobs-format clearml");
    return std::nullopt;
  }
  if (!clearml && !source.clearml_queues.empty() && queues == nullptr) {
    spdlog::error("--clearml-queues is read only with --jobs-format clearml (or schedule --format clearml)");
    return std::nullopt;
  }
  if ((source.file == "-") + (source.clearml_queues == "-") + (source.clearml_workers == "-") > 1) {
    spdlog::error("only one of --jobs, --clearml-queues and --clearml-workers can read standard input (-)");
    return std::nullopt;
  }
  LoadedJobs jobs;
  clearml::QueueList queue_list;
  if (clearml) {
    clearml::Snapshot snapshot =
        clearml::LoadClearmlSnapshot({source.file, source.clearml_queues, source.clearml_workers}, param_paths,
                                     resolve_against, source.from_sync ? &handovers : nullptr, match_against, ahead);
    LogFindings(snapshot.findings);
    if (snapshot.unusable) return std::nullopt;
    jobs = std::move(snapshot.jobs);
    queue_list = std::move(snapshot.queues);
  } else {
    if (!source.clearml_queues.empty()) {  // for --format clearml only
      queue_list = clearml::ReadQueuesFile(source.clearml_queues);
      LogFindings(queue_list.findings);
      if (queue_list.unusable) return std::nullopt;
    }
    std::optional<JobsFormat> format;
    if (source.format == "yaml") format = JobsFormat::kYaml;
    if (source.format == "jsonl") format = JobsFormat::kJsonLines;
    jobs = LoadJobsFile(source.file, format, param_paths, resolve_against);
    LogFindings(jobs.findings);
    if (jobs.unusable) return std::nullopt;
  }
  if (queues) *queues = std::move(queue_list);
  return jobs;
}

std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const Config& config, clearml::QueueList* queues) {
  return LoadJobsFrom(source, DynamicParameterPaths(config), queues, nullptr, {&config});
}

std::optional<LoadedJobs> LoadJobsToSchedule(const JobsSource& source, const Config& config,
                                             clearml::QueueList* queues, clearml::CompanionsAhead* ahead) {
  return LoadJobsFrom(source, DynamicParameterPaths(config), queues, &config, {}, ahead);
}

std::unique_ptr<clearml::CompanionsAhead> ReadCompanionsAhead(const JobsSource& source) {
  const bool companions = !source.clearml_queues.empty() || !source.clearml_workers.empty();
  if (source.format != "clearml" || source.from_sync || !companions || source.file == "-" ||
      source.clearml_queues == "-" || source.clearml_workers == "-") {
    return nullptr;
  }
  return std::make_unique<clearml::CompanionsAhead>(
      clearml::SnapshotFiles{source.file, source.clearml_queues, source.clearml_workers});
}

}  // namespace rescfg::cmd
