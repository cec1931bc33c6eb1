#pragma once
/// Queued tasks that wait nowhere: their execution queue is a policy queue,
/// no queue lists them, and no move of this sync (hand-over or open
/// intent) covers them. A person's or another tool's half-done move, or a
/// journal lost with its state, leaves them so; no agent will ever take
/// them. A sync says so at every cycle (rescfg(1), "What a crash leaves
/// behind"), and leaves them alone: which queue they belong in is a
/// person's call.

#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/queues.h"
#include "config/model.h"
#include "sync/server_snapshot.h"

namespace rescfg::sync {

/// One line per such task (at most `limit`, then "and N more").
std::vector<std::string> StrandedTasks(const Config& config, const ServerSnapshot& snapshot,
                                       const clearml::QueueList& queues, const clearml::Handovers& covered,
                                       size_t limit = 10);

}  // namespace rescfg::sync
