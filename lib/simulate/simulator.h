#pragma once
/// The event loop of rescfg-scheduling(7), THE SIMULATION CLOCK around the pass, in indexes: no names,
/// no files, no I/O.
///
/// At each event time t, in this order: jobs whose finish time is at most t
/// finish and release what they hold; queued jobs submitted at or before t
/// join their queues; the pass runs on that state, and every job it places
/// starts at t and finishes at t + its duration. Events are the start and
/// the times at which a job is submitted or finishes; the loop ends when
/// none is left, or before the first event after `until`.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "schedule/preemption.h"
#include "schedule/problem.h"
#include "util/sim_time.h"

namespace rescfg {

struct SimulationInput {
  const Config* config = nullptr;   ///< defaults applied and valid
  /// Queued jobs; queue_order must be their rank by (submitted, position).
  std::vector<QueuedJob> queued;
  std::vector<Micros> submitted;    ///< per queued job
  std::vector<Micros> duration;     ///< per queued job, > 0
  std::vector<Holding> holdings;    ///< running at the start
  std::vector<std::optional<Micros>> remaining;  ///< per holding; none: runs past the end
  std::optional<Micros> start, until;
  /// Per queued job: the rank of its id in byte order, preemption's last tie (empty: index order).
  std::vector<uint32_t> id_rank;
  /// For tests: with preemption, called at every decision point (after each run of the pass)
  /// with the state as preemption sees it (queued: every job, holdings: what runs), the jobs
  /// joined and not started in queue order, and the decisions (in `preemptions`).
  std::function<void(const SchedulingInput&, const std::vector<uint32_t>&, const SchedulingResult&)> observe_preemption;
};

/// A run lost to preemption (rescfg-scheduling(7), THE SIMULATION CLOCK): queued job `job` ran in
/// `pool` from `from` until it was stopped at `to` for queued job `preemptor`.
struct LostRun {
  uint32_t job = 0, pool = 0, preemptor = 0;
  Micros from = 0, to = 0;
};

struct SimulationResult {
  /// The clock's start and end: none when there is nothing to simulate (no
  /// queued job and no start given).
  std::optional<Micros> start, end;
  uint64_t events = 0;
  std::vector<std::optional<Micros>> started;   ///< per queued job
  std::vector<Placement> placement;             ///< per queued job: where it started (if it did)
  std::vector<uint32_t> placement_order;        ///< queued jobs in the order they were placed
  std::vector<bool> joined;                     ///< per queued job: submitted at or before the end
  std::vector<std::optional<Micros>> finished;  ///< per queued job, within the simulation
  std::vector<std::optional<Micros>> holding_finished;  ///< per holding
  /// On the final state: pending reasons of jobs that joined and did not
  /// start (queue order), their messages, pool and policy usage.
  SchedulingResult final;
  std::vector<Quantity> peak_in_use;            ///< per pool, after each event
  PassStats stats;
  /// With preemption: per queued job, how many times it was stopped, and the runs lost, in the
  /// order they were stopped (started, placement and finished tell the last run).
  bool preemption = false;
  std::vector<uint32_t> preempted;
  std::vector<LostRun> lost;
  uint64_t preemption_rounds = 0;  ///< the most passes run at one event time
  PreemptionStats preemption_stats;  ///< the decisions' work counts
};

/// Called every few thousand events with the events done and the time reached.
using SimulationProgress = std::function<void(uint64_t events, Micros now)>;

SimulationResult Simulate(const SimulationInput& input, const SimulationProgress& progress = nullptr);

}  // namespace rescfg
