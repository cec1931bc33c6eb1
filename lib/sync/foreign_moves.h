#pragma once
/// Tasks another `rescfg sync` moved: queued, listed in a queue other than
/// their execution queue (a move keeps the policy queue there), with the
/// status_reason a move of rescfg writes ("rescfg: Dev/4xGPU -> H100"), and
/// no hand-over or open move of this journal covers them. Two syncs that
/// serve one server (a copy of the state, staging pointed at production)
/// each give the same GPUs away; a journal reset while its moves wait
/// looks the same. The sync warns once per cycle with a count (rescfg(1),
/// "Two syncs on one server").

#include <cstddef>
#include <string>
#include <vector>

#include "clearml/handovers.h"
#include "clearml/queues.h"
#include "sync/server_snapshot.h"

namespace rescfg::sync {

struct ForeignMoves {
  size_t count = 0;
  std::vector<std::string> examples;  ///< the first few task ids
};

ForeignMoves FindForeignMoves(const ServerSnapshot& snapshot, const clearml::QueueList& queues,
                              const clearml::Handovers& covered, size_t examples = 3);

/// The warning, "" when there are none.
std::string ForeignMovesWarning(const ForeignMoves& found);

}  // namespace rescfg::sync
