/// `rescfg status`: pool and profile cards for the provisioned (or a given)
/// configuration, with job counts when a jobs snapshot is given.

#include <spdlog/spdlog.h>

#include <cstdio>

#include "now.h"
#include "commands.h"
#include "config_source.h"
#include "decide/report.h"
#include "output_file.h"
#include "status/status.h"

namespace rescfg::cmd {

int RunStatus(const StatusOptions& options) {
  std::string label;
  auto config = LoadConfigFrom(options.config, &label);
  if (!config) return kExitUnusable;
  LoadedJobs jobs;
  const bool with_jobs = !options.jobs.file.empty() || options.jobs.from_sync;
  if (with_jobs) {
    auto loaded = LoadJobsFrom(options.jobs, *config);
    if (!loaded) return kExitUnusable;
    jobs = std::move(*loaded);
  }
  StatusReport status = BuildStatus(*config, BuildSchedule(*config, std::move(jobs), NowMicros(options.jobs.now)), label, with_jobs);
  std::string out = options.format == "json" ? RenderStatusJson(status) : RenderStatusTable(status);
  return WriteOutput(options.output, out) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
