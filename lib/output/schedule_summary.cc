#include "output/schedule_summary.h"

#include <string_view>
#include <utility>

namespace rescfg {

std::string ScheduleSummaryLine(const ScheduleReport& report) {
  std::string line = std::to_string(report.assignments.size()) + " assigned, " +
                     std::to_string(report.pending.size()) + " pending, " + std::to_string(report.running_count) +
                     " running, " + std::to_string(report.rejected.size()) + " rejected";
  if (report.rejected.empty()) return line;
  constexpr size_t kReasons = 3;
  std::vector<std::pair<std::string_view, size_t>> reasons;  // few: a scan is enough
  for (size_t i : report.rejected) {
    const std::string_view reason = *report.jobs[i].reason;
    size_t k = 0;
    while (k < reasons.size() && reasons[k].first != reason) ++k;
    if (k == reasons.size()) reasons.emplace_back(reason, 0);
    ++reasons[k].second;
  }
  line += " (";
  for (size_t k = 0; k < reasons.size() && k < kReasons; ++k) {
    line += (k == 0 ? "" : ", ") + std::string(reasons[k].first) + " " + std::to_string(reasons[k].second);
  }
  if (reasons.size() > kReasons) line += ", ...";
  return line + ")";
}

std::vector<std::string> RunningWarnings(const ScheduleReport& report, size_t limit) {
  std::vector<std::string> lines;
  size_t more = 0;
  for (size_t i : report.running) {
    if (!report.jobs.Whole(i).warning) continue;  // running: kept whole
    const JobOutcome job = report.jobs[i];
    if (lines.size() < limit) {
      lines.push_back(std::string(*job.id) + ": " + MessageOf(job));
    } else {
      ++more;
    }
  }
  if (more > 0) lines.push_back("and " + std::to_string(more) + " more running tasks with warnings (see their messages)");
  return lines;
}

}  // namespace rescfg
