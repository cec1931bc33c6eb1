#pragma once
/// Tasks that a sync handed from a policy queue to a pool, as its journal
/// remembers them. A task the ClearML k8s glue parks in a queue of its own
/// (`k8s_scheduler`) no longer shows which pool it was given to; this is how
/// the snapshot reader learns it (rescfg(1), "rescfg sync").

#include <string>
#include <unordered_map>

namespace rescfg::clearml {

struct Handover {
  std::string pool;          ///< the pool it was handed to
  std::string policy_queue;  ///< the policy queue it was read in
};

/// By task id.
using Handovers = std::unordered_map<std::string, Handover>;

}  // namespace rescfg::clearml
