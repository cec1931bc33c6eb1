#pragma once
/// Outstanding reservations and the reservation capacity of rescfg-scheduling(7), THE PASS.
///
/// For each policy q the book keeps need(q) (room capped by its protected
/// jobs) and, per pool, the smallest need among q's protected jobs whose
/// profile links that pool: q reaches X exactly when that need fits free(X).
/// Capacity is a max flow; policies that reach the same pools are merged
/// into one source first, which keeps the graph tiny.
///
/// Rule 3 is mostly answered without a new flow. When no policy would stop
/// reaching X, taking s from X only lowers X's capacity c, and a max flow
/// as a function of one sink capacity is min(flow(c = 0) + c, flow(c = ∞)):
/// the job keeps the others covered exactly when
///     flow without X + free(X) - s >= flow before,
/// so one flow "without X" per pool and state answers every need at once.
/// That flow, and the one without the asking policy, are repaired from the
/// state's maximum flow rather than computed afresh (bipartite_flow.h).

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "schedule/bipartite_flow.h"
#include "schedule/context.h"
#include "schedule/job_queue.h"
#include "schedule/pass_state.h"
#include "util/quantity.h"

namespace rescfg {

class ReservationBook {
 public:
  ReservationBook(const ScheduleContext& ctx, const std::vector<JobQueue>& queues,
                  const std::vector<QueuedJob>& queued, const PassState& state);

  /// A job of `policy` was just placed in `pool` (the state says so already).
  /// Returns true when every rule 3 answer given before still holds except
  /// those about `pool`: the placing policy's need and reach did not change,
  /// each answer was read from a maximum flow that used no more of the pool
  /// than it has left (that flow is still valid, and still maximum since
  /// capacities only fell), and nobody stopped reaching the pool. Otherwise
  /// a new epoch starts: cached capacities are forgotten.
  bool Placed(uint32_t policy, uint32_t pool);

  /// The state moved on between two passes (finished jobs released what they
  /// held, jobs joined their queues): refreshes `policies`, those whose
  /// usage or queues changed, and starts a new epoch (cached capacities are
  /// forgotten) when an answer may have changed; returns whether it did.
  /// `capacity_rose`: some pool has more free capacity than before, so a
  /// policy may now reach a pool it did not (within a pass free capacity
  /// only falls, and only a loss of reach is looked for).
  bool Reopen(const std::vector<uint32_t>& policies, bool capacity_rose);

  Quantity Need(uint32_t policy) const { return need_[policy]; }
  Quantity TotalNeed() const { return total_need_; }
  /// Whether `policy` has an outstanding reservation it can use now, so
  /// that rule 3 asks about the others without it.
  bool TakesPart(uint32_t policy) {
    ComputeFullFlow();
    return group_of_[policy] >= 0;
  }
  /// Whether q reaches `pool` when needs up to `fit` fit there (its free
  /// capacity, or less on machines: PassState::FitLimit).
  bool Reaches(uint32_t policy, uint32_t pool, Quantity fit) const;

  /// Rule 3: placing `need` for `policy` in `pool` leaves the reservation
  /// capacity of all other policies no lower than before.
  bool KeepsOthersCovered(uint32_t policy, uint32_t pool, Quantity need);

  /// Whether, at `pool`, rule 3 answers every need of a policy that takes
  /// no part exactly as before the last placement that started an epoch.
  /// Call right after Placed() returned false.
  ///
  /// For such a policy, rule 3 at X holds exactly when s <= free(X) - m,
  /// where m = flow - (flow without X) is the least that any maximum flow
  /// sends through X — provided every policy reaching X has its smallest
  /// protected need there at most m: then no admissible s makes anyone stop
  /// reaching X, and a larger s leaves X less than m. Same m and the same
  /// free(X) give the same answers for every need.
  bool SameVerdictsForBystanders(uint32_t pool);

  /// Other policies with outstanding reservations that reach `pool` now.
  std::vector<uint32_t> OthersReaching(uint32_t policy, uint32_t pool) const;

  /// Counters for complexity guards in tests and benchmarks.
  struct Stats { uint64_t flows = 0, fast_accepts = 0, refreshes = 0, repairs = 0; };
  const Stats& stats() const { return stats_; }

 private:
  struct Reach { uint32_t pool; Quantity smallest; };
  /// The flow of every policy but one, and per pool that flow without the pool.
  struct Excluded {
    uint32_t policy = 0;
    std::optional<BipartiteFlow> flow;
    std::vector<std::optional<Ticks>> without;
  };
  /// Rule 3 answers that needed a flow of their own, per (pool, excluded
  /// policy). The answer is monotone in the job's need (taking more from a
  /// pool never raises a capacity), so two bounds settle repeated questions.
  /// A policy that reaches no pool takes no part in any flow: its questions
  /// share the key kAnyPolicy.
  struct Bounds { Quantity admitted, refused = Quantity::Max() + Quantity::Units(1); };
  static constexpr uint32_t kAnyPolicy = UINT32_MAX;

  /// Recomputes q's outstanding reservation after its usage or queues
  /// changed; returns whether its need or the pools it reaches changed.
  bool Refresh(uint32_t policy);
  void NewEpoch();
  /// The max flow of all policies with an outstanding reservation in this
  /// epoch (repaired from the previous one when the groups are the same),
  /// and what the cheap tests read from it.
  void ComputeFullFlow();
  /// Records what a flow behind an answer sends through each pool.
  void Track(const BipartiteFlow& flow) const;
  /// The full flow without `pool` (one repair per pool and epoch).
  Ticks FlowWithout(uint32_t pool);
  /// m of SameVerdictsForBystanders in this epoch, if known and it alone decides.
  std::optional<Ticks> CurrentMargin(uint32_t pool) const;
  Excluded& ExcludedFlow(uint32_t policy);
  /// Smallest need among q's protected jobs linked to `pool` (Max when none).
  Quantity SmallestAt(uint32_t q, uint32_t pool) const;
  /// Max flow of `before` (the network of every policy but `excluded`) once
  /// `pool` has only `left` free: its capacity, and who still reaches it.
  /// `reach_left`: the largest need others can still fit there.
  Ticks FlowAfter(const BipartiteFlow& before, std::optional<uint32_t> excluded, uint32_t pool, Quantity left,
                  Quantity reach_left) const;
  /// Max flow of `flow` with `pool`'s capacity set to 0 (the flow is copied).
  Ticks WithoutPool(const BipartiteFlow& flow, uint32_t pool) const;
  /// A copy of `flow` to change, in buffers reused from question to question.
  BipartiteFlow& Work(const BipartiteFlow& flow) const;

  const ScheduleContext& ctx_;
  const std::vector<JobQueue>& queues_;
  const std::vector<QueuedJob>& queued_;
  const PassState& state_;
  std::vector<Quantity> need_;
  std::vector<std::vector<Reach>> reach_;
  std::vector<uint32_t> demanding_;  ///< policies with need > 0, ascending
  Quantity total_need_;

  uint64_t epoch_ = 0;
  uint64_t full_epoch_ = UINT64_MAX;
  // The full flow of this epoch and what is read from it.
  std::optional<BipartiteFlow> full_flow_;
  bool groups_changed_ = true;            ///< someone's reach or taking part changed since full_flow_
  std::vector<std::vector<uint32_t>> members_;      ///< per left node of full_flow_: its policies
  std::vector<std::vector<uint32_t>> group_pools_;  ///< per left node: the pools it reaches, ascending
  Quantity full_value_;                   ///< its value
  bool full_ = false;                     ///< every reachable outstanding reservation coverable at once
  std::vector<Quantity> flow_into_;       ///< per pool, in that full flow
  std::vector<Quantity> largest_reach_;   ///< per pool: largest smallest-need among flowing policies
  std::vector<int> group_of_;             ///< per policy: its left node in full_flow_, or -1
  std::vector<Quantity> widest_reach_;    ///< per pool: largest smallest-need among policies reaching it
  /// Per pool: the most any flow behind an answer of this epoch sent through it.
  mutable std::vector<Quantity> usage_;
  std::vector<uint64_t> without_epoch_;   ///< per pool: epoch of without_[pool]
  std::vector<std::optional<Ticks>> previous_margin_;  ///< per pool: CurrentMargin of the previous epoch
  std::vector<Ticks> without_;            ///< per pool: the full flow with that pool removed
  /// The first excluded_used_ entries belong to this epoch; the rest keep
  /// their buffers for the next ones (a flow per policy and epoch otherwise
  /// costs an allocation per vector).
  std::vector<Excluded> excluded_;
  size_t excluded_used_ = 0;
  std::vector<int> excluded_index_;  ///< per policy: its entry in excluded_, or -1
  mutable std::optional<BipartiteFlow> work_;
  std::map<std::pair<uint32_t, uint32_t>, Bounds> bounds_;  ///< by (pool, policy or kAnyPolicy)
  mutable Stats stats_;
};

}  // namespace rescfg
