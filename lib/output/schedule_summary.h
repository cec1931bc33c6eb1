#pragma once
/// The one-line summary every `rescfg schedule` ends with on standard error,
/// whatever the format: a script that reads only the requests, or an empty
/// output, still tells people what happened.

#include <string>
#include <vector>

#include "decide/report.h"

namespace rescfg {

/// "2 assigned, 1 pending, 3 running, 2 rejected (invalid-job 1,
/// unknown-queue 1)": the rejection reasons by count, in the order they
/// first appear in the input, at most three of them.
std::string ScheduleSummaryLine(const ScheduleReport& report);

/// The warnings of running jobs (a ClearML task whose pool cannot be told,
/// or in flight), "ID: message", in input order; at most `limit`, then one
/// line saying how many more.
std::vector<std::string> RunningWarnings(const ScheduleReport& report, size_t limit);

}  // namespace rescfg
