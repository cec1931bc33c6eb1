#pragma once
/// A test-only trace of what each sync cycle counted (RESCFG_TEST_TRACE=FILE):
/// one JSON line a cycle, appended to FILE, with the tasks the server's
/// reading held, the journal's hand-overs and open moves, per pool what its
/// running and waiting tasks hold (and why each is placed there), and the
/// moves decided. Unset (always, outside tests), nothing is written.

#include <vector>

#include "clearml/handovers.h"
#include "decide/report.h"
#include "sync/journal.h"
#include "sync/server_snapshot.h"

namespace rescfg::sync {

void TraceCycle(const ServerSnapshot& snapshot, const clearml::Handovers& handovers, const ScheduleReport& report,
                const std::vector<MoveIntent>& moves, int64_t utc_micros);

}  // namespace rescfg::sync
