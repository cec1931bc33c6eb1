#pragma once
/// A trace (rescfg-scheduling(7), THE SIMULATION CLOCK): a jobs file whose queued entries also carry
/// `submitted` (when the job joins its queue; its queue order, `enqueued`
/// is ignored) and `duration` (seconds it runs once started), and whose
/// running entries may carry `duration` (what remains). Resolved like any
/// jobs file (rescfg(5), JOBS FILE), plus those fields: an entry without a valid one is
/// rejected `invalid-job`.

#include <cstdint>
#include <optional>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolve.h"
#include "util/sim_time.h"

namespace rescfg {

struct ResolvedTrace {
  /// Outcomes, names and scheduling input; queue_order is the rank by
  /// (submitted, file position).
  ResolvedJobs jobs;
  std::vector<Micros> submitted;  ///< per queued job
  std::vector<Micros> duration;   ///< per queued job
  std::vector<std::optional<Micros>> remaining;  ///< per holding
  std::vector<uint32_t> holding_outcome;         ///< per holding: its index in jobs.outcomes
};

/// Resolves the entries of a trace. The entries are changed: trace
/// problems join their `invalid` message, `enqueued` is dropped.
ResolvedTrace ResolveTrace(const Config& config, std::vector<JobEntry>& entries);

}  // namespace rescfg
