#pragma once
/// The pass with preemption's set-up made beside it (rescfg-scheduling(7), PREEMPTION): the id
/// ranks, the state of the running jobs and the candidates in victim order need nothing of the
/// pass, so they are made on a thread of their own while the pass runs; after it, only its
/// placements are added and the walk decides.

#include <cstdint>
#include <functional>
#include <vector>

#include "schedule/problem.h"

namespace rescfg {

/// Per holding, the rank of its job id in byte order (SchedulingInput::holding_id_rank).
using IdRankSource = std::function<std::vector<uint32_t>()>;

/// RunSchedulingPass (problem.h) whose preemption takes the id ranks from `id_ranks` (nullptr:
/// input.holding_id_rank), computed beside the pass.
SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats, const IdRankSource& id_ranks);

}  // namespace rescfg
