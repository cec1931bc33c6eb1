#pragma once
/// Preemption in the simulation (rescfg-scheduling(7), THE SIMULATION CLOCK and PREEMPTION), in
/// indexes, no I/O. After the pass of an event at time t, preemption is decided with `now` = t;
/// every victim stops at once, gives back what it held (its machines too) and rejoins its queue
/// at its old place (its `submitted`) with its whole duration; the pass, told of the stops as of
/// finishes and arrivals, runs again at t, until no decision is left. One pass serves the whole
/// simulation: it is never built again.
///
/// The decisions' set-up (schedule/preemption_state.h: the state, the candidates in victim order)
/// is kept from event to event and told what starts, finishes or stops; a running job becomes a
/// candidate once it has run minRuntime. An event costs what changed, not what runs.
///
/// Only jobs the simulation started can be victims: an entry running at the start has no
/// `submitted` to rejoin at and no whole duration to run again (the trace gives what remains).
///
/// Machines: a running job on one machine is named by it; a job of several whole machines goes
/// where a job of its need would once the others hold (the lowest-numbered entirely free
/// machines). That layout is the true one up to a renumbering of the machines, which changes no
/// decision (only free amounts count) and no output (the simulation names no machine).

#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "schedule/context.h"
#include "schedule/incremental_pass.h"
#include "schedule/preemption.h"
#include "schedule/problem.h"
#include "simulate/simulator.h"

namespace rescfg {

/// Adds the work counters of `from` to `to`.
inline void AddPassStats(const PassStats& from, PassStats* to) {
  to->placements += from.placements;
  to->slots += from.slots;
  to->evaluations += from.evaluations;
  to->restales += from.restales;
  to->flows += from.flows;
  to->fast_accepts += from.fast_accepts;
  to->repairs += from.repairs;
  to->runs += from.runs;
  to->builds += from.builds;
}

class SimPreemption {
 public:
  /// Whether a simulation of `config` preempts: `preemption` is set and the configuration enabled.
  static bool Applies(const Config& config) { return config.preemption.has_value() && config.enabled; }

  SimPreemption(const SimulationInput& in, SimulationResult* result);

  /// The queued jobs as the pass and the decisions see them: waits counted from `submitted`.
  const std::vector<QueuedJob>& queued() const { return input_.queued; }

  void Joined(uint32_t job);
  /// The current pass placed `job` at t.
  void Started(uint32_t job, const Placement& placement, Micros t);
  /// A running job (or holding) finishes: the current pass releases it.
  void FinishJob(IncrementalPass& pass, uint32_t job);
  void FinishHolding(IncrementalPass& pass, uint32_t index);

  /// Decides preemption at t on the state the last run of `pass` left. When some job was
  /// stopped, the pass is told (its holding released, the job queued again) and true is
  /// returned (run it again); `held` (per pool) follows the stops.
  bool Decide(Micros t, IncrementalPass& pass, std::vector<Quantity>* held);

  /// The work counts; `setup`: holdings looked at to keep the decisions' set-up.
  PreemptionStats stats() const;

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  void Use(uint32_t policy, Quantity amount, bool add);
  void AddPending(uint32_t job);
  void RemovePending(uint32_t job);
  void RemoveRunning(uint32_t job);
  std::vector<uint32_t> Preemptors(Micros t) const;
  /// Holding slots of input_: the original holdings, then one per queued job (holding nothing
  /// while the job does not run).
  uint32_t Slot(uint32_t job) const { return static_cast<uint32_t>(in_.holdings.size()) + job; }
  /// The running jobs that have run minRuntime by t become candidates.
  void Ripen(Micros t);
  /// For the observer: what runs as compact holdings (the originals first, then the started jobs
  /// by index), and the decisions in their indexes.
  SchedulingInput Compact(std::vector<uint32_t>* compact_of) const;
  void Stop(IncrementalPass& pass, uint32_t job, uint32_t preemptor, Micros t, std::vector<Quantity>* held);
  /// The jobs joined and not started, in queue order.
  std::vector<uint32_t> Waiting() const;

  const SimulationInput& in_;
  SimulationResult& r_;
  ScheduleContext ctx_;
  SchedulingInput input_;        ///< queued (with waits), and what runs, by slot
  std::unique_ptr<PreemptionState> state_;  ///< the decisions' set-up, kept between events
  /// (time, slot, its start): a running job that becomes a candidate at that time.
  std::priority_queue<std::tuple<Micros, uint32_t, Micros>, std::vector<std::tuple<Micros, uint32_t, Micros>>,
                      std::greater<>>
      ripening_;
  std::vector<Quantity> used_;   ///< per policy: what runs
  uint32_t over_ = 0;            ///< preemptible policies above their reservation
  std::vector<uint32_t> reserving_;  ///< policies with a reservation, not paused
  std::vector<std::set<std::pair<uint32_t, uint32_t>>> pending_;  ///< per policy: (queue order, job) joined, not started
  std::vector<std::multiset<Quantity>> needs_;  ///< per policy: needs of its schedulable pending jobs
  std::vector<uint32_t> running_, running_at_;  ///< started jobs that run; per job: its place there
  std::vector<Micros> stopped_at_;               ///< per job: when it was last stopped
  std::vector<bool> original_runs_;              ///< per original holding
  std::vector<uint32_t> original_machine_;       ///< per original holding: its machine for the observer
  PreemptionStats stats_;
};

}  // namespace rescfg
