#pragma once
/// What one ClearML agent of a pool can start (rescfg(5), CONFIGURATION
/// "Validation"; rescfg(1), export clearml-agent): the rule that validation
/// warns by and the agent export sizes by, so that the two never disagree.
///
/// A `clearml-agent daemon` serves the GPUs of one machine and a Kubernetes
/// pod runs on one machine, so a task never spans machines under an agent,
/// although the pass may give a job whole machines of a pool with `nodes`.
/// A daemon gives every task of a queue the same GPUs, so it cannot give a
/// dynamic profile's tasks the need each states.

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg {

/// Whether one agent of `pool` can start a task of `amount`: false for more
/// GPUs than one machine of a pool with `nodes` has. A pool without `nodes`
/// is taken as one machine (what fits it fits one agent).
bool OneAgentHolds(const Pool& pool, Quantity amount);

/// Whether the machines of `pool` are served by `clearml-agent daemon`s:
/// a pool with `nodes` whose machines are named by the ClearML worker ids
/// of their agents, as a daemon's are (HOST:GPUS).
bool ServedByDaemons(const Pool& pool);

/// What a daemon of `pool` can do with the tasks of `profile`.
enum class DaemonReach {
  kRuns,          ///< it gives each task the GPUs rescfg accounts for it (up to sizing steps)
  kStatedNeed,    ///< dynamic: each task states its need; the daemon gives the default to all
  kSpansMachines  ///< the allotment is more than one machine's GPUs: no daemon starts it
};
DaemonReach DaemonReachOf(const Pool& pool, const Profile& profile);

}  // namespace rescfg
