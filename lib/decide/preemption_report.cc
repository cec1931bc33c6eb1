#include "decide/preemption_report.h"

#include <algorithm>

#include "jobs/run_facts.h"

namespace rescfg {

void ReportPreemptions(const Config& config, const SchedulingInput& input, const SchedulingResult& result,
                       const std::vector<uint32_t>& queued_outcome, ScheduleReport* report) {
  report->preemption = config.preemption.has_value() && config.enabled;
  for (size_t h = 0; h < input.holdings.size() && h < report->running.size(); ++h) {
    if (input.holdings[h].stopping) report->stopping.push_back(report->running[h]);
  }
  for (const Preemption& p : result.preemptions) {
    const auto decision = static_cast<uint32_t>(report->preemptions.size());
    PreemptionOutcome out;
    out.job = queued_outcome[p.job];
    out.pool = config.pools[p.pool].name;
    for (uint32_t h : p.victims) {
      out.victims.push_back(report->running[h]);
      const int64_t started = input.holdings[h].started_us;
      out.victim_started.push_back(started == kUnknownTime ? std::string_view()
                                                           : report->text.Keep(FormatMicros(started)));
      report->victim_of.push_back({out.victims.back(), decision});
    }
    for (uint32_t h : p.awaiting) out.awaiting.push_back(report->running[h]);
    report->preemptor_of.push_back({out.job, decision});
    report->preemptions.push_back(std::move(out));
  }
  std::sort(report->victim_of.begin(), report->victim_of.end());
  std::sort(report->preemptor_of.begin(), report->preemptor_of.end());
}

const std::pair<size_t, uint32_t>* FindDecision(const std::vector<std::pair<size_t, uint32_t>>& marks, size_t job) {
  auto it = std::lower_bound(marks.begin(), marks.end(), std::pair<size_t, uint32_t>{job, 0});
  return it != marks.end() && it->first == job ? &*it : nullptr;
}

}  // namespace rescfg
