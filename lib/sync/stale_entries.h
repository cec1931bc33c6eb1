#pragma once
/// Removing the stale entries of pool and link queues (decide/stale_entries.h:
/// what is stale), right after a cycle's read and before anything is decided
/// or moved, so that an agent finds them for as short a time as possible.
/// For each entry, in queue order:
///   1. a guarded read of the task (tasks.get_all): still neither queued nor
///      in_progress (deleted counts too); otherwise it is left alone and
///      reported skipped (a person enqueued it again, or it runs);
///   2. queues.remove_task {queue: the pool queue, task}: 703 (not listed
///      there any more: an agent popped it, or a person's enqueue took it
///      out) is skipped, and so is an answer whose count (sync/removed_count.h)
///      is 0 or missing: only a count of at least one is reported removed.
/// Not journaled: removing the entry of a task that is neither queued nor
/// running leaves no half-done state behind. A crash before the call leaves
/// the entry, and the next cycle removes it; after it, the entry is gone.
/// No task is left queued in no queue, and none is moved.

#include <atomic>
#include <cstdint>
#include <vector>

#include "clearml/queues.h"
#include "config/model.h"
#include "sync/api_client.h"
#include "sync/move.h"
#include "sync/server_snapshot.h"
#include "util/clock.h"

namespace rescfg::sync {

/// The removals of a cycle (kind remove): the task, the pool, and the queue
/// that lists it (`to`, `to_id`), from the snapshot's statuses (the queued
/// and running tasks it read).
std::vector<MoveIntent> PlanRemovals(const Config& config, const ServerSnapshot& snapshot,
                                     const clearml::QueueList& queues, int64_t cycle);

/// Steps 1 and 2 for every removal, the reports appended to `reports`.
void CarryOutRemovals(ApiClient& api, const std::vector<MoveIntent>& removals, const Clock& clock,
                      const std::atomic<bool>* stop_flag, std::vector<MoveReport>* reports);

/// The records of a dry run: every removal planned.
void PlannedRemovals(const std::vector<MoveIntent>& removals, const Clock& clock, std::vector<MoveReport>* reports);

}  // namespace rescfg::sync
