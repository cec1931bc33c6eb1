#pragma once
/// What `rescfg sync` prints per move: one JSON object a line (jsonl, the
/// default) or a table.
///   {"cycle": 3, "time": "2026-12-03T10:00:00.000000Z", "task": "ID",
///    "name": "train-x", "policy": "Dev", "profile": "4xGPU", "pool": "H100",
///    "from": "dev-4gpu", "to": "h100-4gpu", "result": "moved"}
/// skipped and failed moves add "detail".

#include <cstdint>
#include <string>
#include <vector>

#include "sync/move.h"

namespace rescfg::sync {

std::string MoveJsonLine(const MoveReport& move, int64_t cycle);
std::string MoveJsonLines(const std::vector<MoveReport>& moves, int64_t cycle);
/// A table with a header; "" when there are no moves.
std::string MoveTable(const std::vector<MoveReport>& moves, int64_t cycle);

}  // namespace rescfg::sync
