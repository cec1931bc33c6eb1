#pragma once
/// What `rescfg sync` prints per action (move, stop, requeue): one JSON
/// object a line (jsonl, the default) or a table.
///   {"cycle": 3, "time": "2026-12-03T10:00:00.000000Z", "action": "move",
///    "task": "ID", "name": "train-x", "policy": "Dev", "profile": "4xGPU",
///    "pool": "H100", "from": "dev-4gpu", "to": "h100-4gpu", "result": "moved"}
/// A stop's "from" is the queue its victim runs from (null when unknown) and
/// its "to" null; a re-queue's "from" is null and its "to" the policy queue;
/// both add "for": "POLICY/JOB", the preemptor. A removal of a stale entry
/// ("action": "remove") has "from" the pool queue that listed the task, "to",
/// "name", "policy" and "profile" null, and "detail" (the task's status).
/// skipped, failed and stuck add "detail" (a re-queue left at the end of its
/// queue too).

#include <cstdint>
#include <string>
#include <vector>

#include "sync/move.h"

namespace rescfg::sync {

/// The record's "from" and "to" for the action's kind ("" is null).
std::string RecordFrom(const MoveIntent& intent);
std::string RecordTo(const MoveIntent& intent);
/// Whether the record carries "detail".
bool HasDetail(const MoveReport& report);

std::string MoveJsonLine(const MoveReport& move, int64_t cycle);
std::string MoveJsonLines(const std::vector<MoveReport>& moves, int64_t cycle);
/// A table with a header; "" when there are no moves.
std::string MoveTable(const std::vector<MoveReport>& moves, int64_t cycle);

}  // namespace rescfg::sync
