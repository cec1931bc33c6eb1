#include "config_source.h"

#include <spdlog/spdlog.h>

#include "config/loader.h"
#include "jobs/loader.h"
#include "schedule/report.h"
#include "state/state_store.h"

namespace rescfg::cmd {

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

std::optional<Config> LoadConfigFrom(const ConfigSource& source, std::string* label) {
  if (source.config_file.empty()) {
    const std::string dir = source.state_dir.empty() ? ".rescfg" : source.state_dir;
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
  LoadedConfig loaded = LoadValidConfig(source.config_file);
  LogFindings(loaded.findings);
  if (!loaded.config) {
    spdlog::error("{}: the configuration is not usable; run 'rescfg validate {}'", loaded.file, source.config_file);
    return std::nullopt;
  }
  return loaded.config;
}

std::optional<LoadedJobs> LoadJobsFrom(const JobsSource& source, const Config& config) {
  std::optional<JobsFormat> format;
  if (source.format == "yaml") format = JobsFormat::kYaml;
  if (source.format == "jsonl") format = JobsFormat::kJsonLines;
  LoadedJobs jobs = LoadJobsFile(source.file, format, DynamicParameterPaths(config));
  LogFindings(jobs.findings);
  if (jobs.unusable) return std::nullopt;
  return jobs;
}

}  // namespace rescfg::cmd
