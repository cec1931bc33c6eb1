#pragma once

/// Which entry `rescfg explain JOB` means (rescfg(1), explain): the first
/// entry with that id, else the one ClearML task with that name.

#include <cstddef>
#include <string>
#include <string_view>

#include "decide/report.h"

namespace rescfg {

/// The index in `report.jobs` of the first entry whose id is `job`, else of
/// the entry whose task name is `job` when all entries of that name share one
/// id. report.jobs.size() with `error` set when none matches (with a
/// did-you-mean) or when the name is several tasks' (their ids listed).
size_t FindExplainedJob(const ScheduleReport& report, std::string_view job, std::string* error);

}  // namespace rescfg
