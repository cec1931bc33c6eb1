#pragma once
/// The input and output of the scheduling pass (rescfg-scheduling(7), THE PASS), in indexes: no
/// names, no files, no I/O. lib/jobs/resolve builds it from a jobs file.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/model.h"
#include "util/quantity.h"

namespace rescfg {

/// An instant or a time that is not known (microseconds since 1970-01-01T00:00:00Z).
inline constexpr int64_t kUnknownTime = INT64_MIN;

struct PreemptionTrace;

/// A queued job the pass may place.
struct QueuedJob {
  uint32_t policy = 0;   ///< index into Config::policies
  uint32_t profile = 0;  ///< index into Config::profiles
  Quantity need;
  /// Rank in queue order (rescfg(5), JOBS FILE: enqueued jobs first by time, then the
  /// rest, ties by file position); unique across all queued jobs.
  uint32_t queue_order = 0;
  uint32_t position = 0;  ///< file position, for the last tie-break
  /// When it joined its queue (its `enqueued`), for preemption's `delay`; kUnknownTime: unknown.
  int64_t enqueued_us = kUnknownTime;
};

/// What a running job holds: counted in its pool, and against its policy
/// when the policy still exists. A running job whose pool cannot be told
/// (a ClearML task that no worker claims) has no pool: it still counts
/// against its policy, its limit and its reservation, and holds nothing
/// in any pool.
struct Holding {
  std::optional<uint32_t> pool = 0;
  std::optional<uint32_t> policy;
  Quantity amount;
  /// In a pool with nodes (rescfg-scheduling(7), THE PASS v3): the machine its `node` names
  /// (0-based), kBestFit when it names none (it goes where a queued job of
  /// its need would), or kPoolOnly (it holds in the pool, on no machine).
  uint32_t machine = kBestFit;
  static constexpr uint32_t kBestFit = UINT32_MAX;
  static constexpr uint32_t kPoolOnly = UINT32_MAX - 1;
  /// When its current run began (`started`), for preemption's `minRuntime`; kUnknownTime: unknown.
  int64_t started_us = kUnknownTime;
  bool stopping = false;     ///< asked to stop, still holding: never chosen as a victim again
  bool handed_over = false;  ///< handed to a pool or in flight, not yet started: never a victim
};

struct SchedulingInput {
  const Config* config = nullptr;  ///< defaults applied and valid
  std::vector<QueuedJob> queued;   ///< any order; indexes are the jobs' ids below
  std::vector<Holding> holdings;
  /// The instant preemption judges waits and run times at (`--now`); kUnknownTime: no preemption.
  int64_t now_us = kUnknownTime;
  /// Per holding, for preemption's victim order (may be empty): its profile (kNoProfile: none
  /// known) and the rank of its job id in byte order (empty: input order).
  std::vector<uint32_t> holding_profile, holding_id_rank;
  static constexpr uint32_t kNoProfile = UINT32_MAX;
  /// `explain`: when set, preemption tells the story of the job or holding it names there
  /// (schedule/preemption_trace.h); nullptr: no story, no cost.
  PreemptionTrace* preemption_trace = nullptr;
};

enum class PendingReason { kPreempting, kDisabled, kPaused, kUnschedulable, kFifoBlocked, kLimit, kReservation, kFragmented, kCapacity };
const char* PendingReasonName(PendingReason r);

struct Placement {
  uint32_t job = 0;   ///< index into SchedulingInput::queued
  uint32_t pool = 0;
  uint32_t link = 0;  ///< index into the profile's links
  /// In a pool with nodes: its (first) machine, 0-based; kNoMachine otherwise.
  /// A job of several whole machines has them all in SchedulingResult::job_spans.
  uint32_t machine = kNoMachine;
  static constexpr uint32_t kNoMachine = UINT32_MAX;
};

struct PendingJob {
  uint32_t job = 0;
  PendingReason reason = PendingReason::kCapacity;
  uint32_t message = 0;                ///< index into SchedulingResult::messages
  std::optional<uint32_t> blocked_by;  ///< fifo-blocked: the pending job it waits behind
};

/// A preemption decision (rescfg-scheduling(7), PREEMPTION): queued job `job` waits in `pool` for
/// the victims (holdings, in the order taken) and the stopping holdings it awaits to let go.
struct Preemption {
  uint32_t job = 0;  ///< index into SchedulingInput::queued
  uint32_t pool = 0;
  std::vector<uint32_t> victims, awaiting;  ///< indexes into SchedulingInput::holdings
};

struct SchedulingResult {
  std::vector<Placement> placements;  ///< in placement order
  std::vector<PendingJob> pending;    ///< in queue order
  std::vector<std::string> messages;  ///< shared by pending jobs in the same situation
  std::vector<Quantity> pool_in_use;  ///< per pool: running + placed
  std::vector<Quantity> policy_used;  ///< per policy: running + placed
  /// Per holding: the (first) machine it holds on, Placement::kNoMachine
  /// when it holds in the pool only (or the pool has no nodes).
  std::vector<uint32_t> holding_machine;
  /// Queued jobs (by index) and holdings (by index) of several whole
  /// machines: every machine they hold on, ascending.
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> job_spans, holding_spans;
  /// Per pool with nodes: the free amount of each machine on the final
  /// state (empty for a pool without nodes).
  std::vector<std::vector<Quantity>> machine_free;
  /// In decision order; empty without preemption.
  std::vector<Preemption> preemptions;
};

/// Work counters, for complexity guards in tests and benchmarks.
struct PassStats {
  uint64_t placements = 0;
  uint64_t slots = 0;        ///< candidate slots offered by the queues
  uint64_t evaluations = 0;  ///< exact evaluations of a candidate slot's target
  uint64_t restales = 0;     ///< answers forgotten for a cheap lower bound (no max flow)
  uint64_t flows = 0;        ///< max-flow computations
  uint64_t fast_accepts = 0; ///< rule 3 settled by the cheap sufficient test
  uint64_t repairs = 0;      ///< max flows repaired from the state's flow instead of computed afresh
  uint64_t runs = 0;         ///< passes run (one per event of a simulation)
  uint64_t builds = 0;       ///< passes built (a simulation keeps one throughout)
};

/// Runs the pass. Deterministic: depends only on the input values.
SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats = nullptr);

}  // namespace rescfg
