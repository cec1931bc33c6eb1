#pragma once
/// A deliberately simple scheduler written straight from rescfg-scheduling(7), THE PASS, for tests
/// only: every step recomputes everything from scratch, with its own max
/// flow, no caches, no grouping. The real pass must agree with it exactly.

#include <optional>
#include <vector>

#include "schedule/problem.h"

namespace rescfg::reference {

/// The state of a pass: what is held and used, and which jobs are placed.
struct State {
  std::vector<Quantity> held;     ///< per pool
  std::vector<Quantity> used;     ///< per policy
  std::vector<bool> decided;      ///< per queued job
  /// Per pool with nodes, per machine: what it holds (may exceed a machine).
  std::vector<std::vector<Quantity>> machine_held;
};

/// Reference semantics, exposed so property tests can replay a result.
class Semantics {
 public:
  explicit Semantics(const SchedulingInput& input);
  State Initial() const;
  /// Initial, and per holding the machines it holds on (none: in the pool only).
  State InitialWithSpots(std::vector<std::vector<uint32_t>>* spots) const;
  bool Schedulable(uint32_t job) const;
  /// Its policy is paused, or every pool it links.
  bool Paused(uint32_t job) const;
  /// Rules 1–3 for `job` in `pool` (which must be linked).
  bool Admissible(const State& s, uint32_t job, uint32_t pool) const;
  /// First admissible linked pool, honouring StrictFIFO; link index.
  std::optional<uint32_t> TargetLink(const State& s, uint32_t job) const;
  /// Whether rule 3 alone refuses `job` in `pool` (rules 1 and 2 hold).
  bool ReservationRefuses(const State& s, uint32_t job, uint32_t pool) const;
  Quantity Free(const State& s, uint32_t pool) const;
  /// rescfg-scheduling(7), THE PASS v3 "fits", with rule 1's need <= free(X).
  bool Fits(const State& s, uint32_t pool, Quantity need) const;
  /// The machines a need that fits takes, literally as rescfg-scheduling(7), THE PASS v3 says:
  /// empty in a pool without nodes.
  /// `ignore_free`: a running job without a node takes a machine even when
  /// the pool as a whole is over-full.
  std::vector<uint32_t> Machines(const State& s, uint32_t pool, Quantity need, bool ignore_free = false) const;
  /// Takes `need` in the pool (and on its machines); returns them.
  std::vector<uint32_t> Take(State& s, uint32_t pool, Quantity need) const;
  Quantity MachineFree(const State& s, uint32_t pool, uint32_t machine) const;
  /// The first undecided schedulable job of the job's queue, in queue order.
  uint32_t QueueHead(const State& s, uint32_t job) const;
  const std::vector<uint32_t>& Links(uint32_t profile) const { return links_[profile]; }
  Quantity Limit(uint32_t policy) const;

 private:
  Quantity ReservationCapacity(const State& s, uint32_t excluded_policy) const;
  SchedulingInput in_;  ///< a copy: callers often pass a temporary
  std::vector<std::vector<uint32_t>> links_;
};

SchedulingResult Schedule(const SchedulingInput& input);

}  // namespace rescfg::reference
