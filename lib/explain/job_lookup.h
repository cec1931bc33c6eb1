#pragma once

/// Which entry `rescfg explain JOB` means (rescfg(1), explain): the first
/// entry with that id, else the one ClearML task with that name.

#include <cstddef>
#include <string>
#include <string_view>

#include "jobs/outcomes.h"

namespace rescfg {

/// The index in `jobs` (every entry, in input order: as resolved or as
/// reported) of the first entry whose id is `job`, else of the entry whose
/// task name is `job` when all entries of that name share one id.
/// jobs.size() with `error` set when none matches (with a did-you-mean) or
/// when the name is several tasks' (their ids listed).
size_t FindExplainedJob(const Outcomes& jobs, std::string_view job, std::string* error);

}  // namespace rescfg
