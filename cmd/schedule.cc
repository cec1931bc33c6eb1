#include <spdlog/spdlog.h>

#include <utility>

#include "commands.h"
#include "config_source.h"
#include "jobs/loader.h"
#include "output/schedule_output.h"
#include "output_file.h"
#include "schedule/report.h"

namespace rescfg::cmd {

int RunSchedule(const ScheduleOptions& options) {
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  auto jobs = LoadJobsFrom(options.jobs, *config);
  if (!jobs) return kExitUnusable;
  ScheduleReport report = BuildSchedule(*config, std::move(*jobs));
  ScheduleFormat format = options.format == "json"    ? ScheduleFormat::kJson
                          : options.format == "jsonl" ? ScheduleFormat::kJsonLines
                          : options.format == "table" ? ScheduleFormat::kTable
                                                      : ScheduleFormat::kYaml;
  OutputSink out;
  if (!out.Open(options.output)) return kExitUnusable;
  if (!RenderSchedule(report, format, [&](std::string_view piece) { return out.Write(piece); }) || !out.Finish()) {
    return kExitUnusable;
  }
  spdlog::info("{} assigned, {} pending, {} running, {} rejected", report.assignments.size(), report.pending.size(),
               report.running_count, report.rejected.size());
  return report.rejected.empty() ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
