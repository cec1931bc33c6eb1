/// `rescfg status`: pool and profile cards for the provisioned (or a given)
/// configuration, with job counts when a jobs snapshot is given.

#include <spdlog/spdlog.h>

#include <cstdio>

#include "commands.h"
#include "config_input.h"
#include "jobs/loader.h"
#include "schedule/report.h"
#include "status/status.h"

namespace rescfg::cmd {

int RunStatus(const StatusOptions& options) {
  int exit_code = kExitOk;
  std::string label;
  auto config = LoadConfigSource(options.config, &exit_code, &label);
  if (!config) return exit_code;
  std::vector<JobEntry> entries;
  const bool with_jobs = !options.jobs.file.empty();
  if (with_jobs) {
    std::optional<JobsFormat> format;
    if (options.jobs.format == "yaml") format = JobsFormat::kYaml;
    if (options.jobs.format == "jsonl") format = JobsFormat::kJsonLines;
    LoadedJobs jobs = LoadJobsFile(options.jobs.file, format, DynamicParameterPaths(*config));
    if (jobs.unusable) {
      LogFindings(jobs.findings);
      return kExitUnusable;
    }
    entries = std::move(jobs.entries);
  }
  StatusReport status = BuildStatus(*config, BuildSchedule(*config, entries), label, with_jobs);
  std::string out = options.format == "json" ? RenderStatusJson(status) : RenderStatusTable(status);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
