#include <spdlog/spdlog.h>

#include <cstdio>
#include <utility>

#include "clearml/queues.h"
#include "commands.h"
#include "config_source.h"
#include "decide/clearml_requests.h"
#include "decide/report.h"
#include "now.h"
#include "jobs/loader.h"
#include "output/schedule_output.h"
#include "output/schedule_summary.h"
#include "output_file.h"

namespace rescfg::cmd {

/// Running tasks with a warning shown on stderr, at most (their messages say it all).
constexpr size_t kShownWarnings = 10;

int RunSchedule(const ScheduleOptions& options) {
  auto ahead = ReadCompanionsAhead(options.jobs);  // read while the configuration loads
  auto config = LoadConfigFrom(options.config);
  if (!config) return kExitUnusable;
  const bool requests = options.format == "clearml";
  clearml::QueueList queues;  // --format clearml: the queues' IDs
  auto jobs = LoadJobsToSchedule(options.jobs, *config, requests ? &queues : nullptr, ahead.get());
  if (!jobs) return kExitUnusable;
  ScheduleReport report = BuildSchedule(*config, std::move(*jobs), NowMicros(options.jobs.now));
  for (const std::string& warning : RunningWarnings(report, kShownWarnings)) spdlog::warn("{}", warning);
  ScheduleFormat format = options.format == "json"    ? ScheduleFormat::kJson
                          : options.format == "jsonl" ? ScheduleFormat::kJsonLines
                          : options.format == "table" ? ScheduleFormat::kTable
                                                      : ScheduleFormat::kYaml;
  OutputSink out;
  if (!out.Open(options.output)) return kExitUnusable;
  auto write = [&](std::string_view piece) { return out.Write(piece); };
  const bool written = requests ? clearml::RenderEnqueueRequests(report, options.jobs.clearml_queues.empty() ? nullptr : &queues, write)
                                : RenderSchedule(report, format, write);
  if (!written || !out.Finish()) {
    return kExitUnusable;
  }
  // Every format ends with the summary on stderr; -q (level error) silences it.
  if (spdlog::should_log(spdlog::level::warn)) std::fprintf(stderr, "rescfg: %s\n", ScheduleSummaryLine(report).c_str());
  return report.rejected.empty() ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
