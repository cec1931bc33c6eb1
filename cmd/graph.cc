/// `rescfg graph`: draw the configuration for a README or a review comment.

#include <spdlog/spdlog.h>

#include "now.h"
#include "commands.h"
#include "config_source.h"
#include "decide/report.h"
#include "graph/graph.h"
#include "output_file.h"

namespace rescfg::cmd {

int RunGraph(const GraphOptions& options) {
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  GraphFilter filter{options.policies, options.pools};
  if (std::string error = CheckGraphFilter(*config, filter); !error.empty()) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  std::optional<ScheduleReport> schedule;
  if (!options.jobs.file.empty() || options.jobs.from_sync) {
    auto jobs = LoadJobsFrom(options.jobs, *config);
    if (!jobs) return kExitUnusable;
    schedule = BuildSchedule(*config, std::move(*jobs), NowMicros(options.jobs.now));
  }
  std::string out = RenderGraph(*config, options.format == "dot" ? GraphFormat::kDot : GraphFormat::kMermaid, filter,
                                schedule ? &*schedule : nullptr);
  return WriteOutput(options.output, out) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
