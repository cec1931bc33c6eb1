/// `rescfg explain JOB`: one job's story in the pass (rescfg(1), COMMANDS).

#include <spdlog/spdlog.h>

#include "commands.h"
#include "config_source.h"
#include "explain/explain.h"
#include "now.h"
#include "output_file.h"

namespace rescfg::cmd {

int RunExplain(const ExplainOptions& options) {
  auto ahead = ReadCompanionsAhead(options.jobs);  // read while the configuration loads
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  auto jobs = LoadJobsToSchedule(options.jobs, *config, nullptr, ahead.get());
  if (!jobs) return kExitUnusable;
  std::string error;
  auto explanation =
      ExplainJob(*config, std::move(*jobs), options.job, static_cast<size_t>(options.max_ahead), &error,
                 NowMicros(options.jobs.now));
  if (!explanation) {
    spdlog::error("{}", error);
    return kExitUnusable;
  }
  std::string out = options.format == "json" ? RenderExplanationJson(*explanation) : RenderExplanationText(*explanation);
  return WriteOutput(options.output, out) ? kExitOk : kExitUnusable;
}

}  // namespace rescfg::cmd
