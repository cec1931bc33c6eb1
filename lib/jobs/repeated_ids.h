#pragma once
/// Finding the entries that repeat an earlier entry's id (rescfg(5), JOBS FILE:
/// duplicate-id), in one pass over the entries.

#include <vector>

#include "jobs/job.h"
#include "jobs/outcomes.h"

namespace rescfg {

/// Per entry: whether an earlier entry has the same id (empty and absent
/// ids never count). Also over outcomes, whose ids are their entries' ids
/// (or none when not UTF-8, which makes the entry invalid anyway and
/// equal to no UTF-8 id).
std::vector<bool> RepeatedIds(const std::vector<JobEntry>& entries);
std::vector<bool> RepeatedIds(const Outcomes& outcomes);

}  // namespace rescfg
