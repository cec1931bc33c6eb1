#pragma once
/// Finding the entries that repeat an earlier entry's id (SPEC §3:
/// duplicate-id), in one pass over the entries.

#include <vector>

#include "jobs/job.h"

namespace rescfg {

/// Per entry: whether an earlier entry has the same id (empty and absent
/// ids never count).
std::vector<bool> RepeatedIds(const std::vector<JobEntry>& entries);

}  // namespace rescfg
