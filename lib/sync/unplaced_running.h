#pragma once
/// Running tasks that hold in no pool: rescfg never handed them over, no
/// worker reports them and their queue names no pool (rescfg(1), "rescfg
/// sync"). Their GPUs are busy somewhere; a sync says so once per cycle,
/// with their count, rather than once per task.

#include <cstddef>
#include <string>

#include "decide/report.h"

namespace rescfg::sync {

/// How many running tasks of the report hold in no pool.
size_t RunningInNoPool(const ScheduleReport& report);

/// "2 running tasks hold in no pool: no worker reports them and rescfg did
/// not hand them over; ...": the cycle's warning ("" for none).
std::string RunningInNoPoolWarning(size_t count);

}  // namespace rescfg::sync
