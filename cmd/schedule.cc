#include <spdlog/spdlog.h>

#include <utility>

#include "clearml/enqueue_requests.h"
#include "clearml/queues.h"
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
  const bool requests = options.format == "clearml";
  clearml::QueueList queues;  // --format clearml: the queues' IDs
  auto jobs = LoadJobsToSchedule(options.jobs, *config, requests ? &queues : nullptr);
  if (!jobs) return kExitUnusable;
  ScheduleReport report = BuildSchedule(*config, std::move(*jobs));
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
  spdlog::info("{} assigned, {} pending, {} running, {} rejected", report.assignments.size(), report.pending.size(),
               report.running_count, report.rejected.size());
  return report.rejected.empty() ? kExitOk : kExitFindings;
}

}  // namespace rescfg::cmd
