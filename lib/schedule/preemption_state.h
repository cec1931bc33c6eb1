#pragma once
/// The set-up of preemption's decision (rescfg-scheduling(7), PREEMPTION): the state after the
/// pass (what holds where, each policy's usage), the victim candidates of each pool grouped by
/// policy in victim order, and the stopping jobs of each pool. `rescfg schedule` builds it once
/// from the pass's result; a simulation keeps one from event to event and tells it what starts,
/// finishes or stops, so that an event costs what changed, not the whole state.

#include <cstdint>
#include <tuple>
#include <vector>

#include "schedule/context.h"
#include "schedule/pass_state.h"
#include "schedule/problem.h"

namespace rescfg {

class PreemptionState {
 public:
  /// The order among one pool's candidates of one policy: the least favoured profile first, the
  /// later start (unknown: oldest), the smaller holding, the id (then the holding's index).
  using Key = std::tuple<int64_t, int64_t, Quantity, uint32_t>;
  /// One pool's candidates of one policy, in victim order, with a segment tree of the least
  /// amount over them (leaves from `leaves` on): kGone for victims taken and padding, kEnd at the
  /// group's end, so that a search stops there.
  struct Group {
    uint32_t pool = 0, policy = 0;
    std::vector<uint32_t> members;  ///< holdings
    std::vector<Ticks> tree;
    size_t leaves = 1;
    uint32_t listed = UINT32_MAX;  ///< its place in its pool's list while it has members
  };
  static constexpr Ticks kGone = Ticks(1) << 126, kEnd = -(Ticks(1) << 126);

  /// What input.holdings hold, the candidates at input.now_us (`id_rank`: per holding, the rank of
  /// its id) and the stopping jobs, counted as gone for their policy. Needs nothing of the pass:
  /// it can be set up while the pass runs; Place then adds what the pass placed.
  PreemptionState(const ScheduleContext& ctx, const SchedulingInput& input, const std::vector<uint32_t>& id_rank);
  /// What input.holdings hold, and no candidate yet: the caller adds them (AddCandidate).
  PreemptionState(const ScheduleContext& ctx, const SchedulingInput& input);

  /// The final state of `result` (the pass's for the input): its placements on the machines the
  /// pass chose.
  void Place(const SchedulingResult& result);

  /// Holding i (input.holdings[i], set by the caller) now runs: its pool and policy take it, on
  /// the machine it names, or where a queued job of its need would go.
  void Hold(uint32_t i);
  /// Holding i finishes or stops (before the caller clears it): what it held is free again, and
  /// it is no candidate any more.
  void Release(uint32_t i);
  /// Holding i, running, may be taken as a victim from now on.
  void AddCandidate(uint32_t i);

  /// The pool's groups that have candidates, in no particular order.
  const std::vector<uint32_t>& GroupsOf(uint32_t pool) const { return pool_groups_[pool]; }
  const Group& group(uint32_t g) const { return groups_[g]; }
  /// The first position from `k` on in group g whose amount is at most `most` and that is no
  /// victim taken; the group's end (its size) when there is none.
  uint32_t Next(uint32_t g, uint32_t k, Ticks most) const;
  /// Candidate i is taken as a victim: no walk looks at it again (until Back).
  void Gone(uint32_t i) { Mark(i, kGone); }
  void Back(uint32_t i);

  PassState state;
  std::vector<bool> promised;                   ///< per holding: a stopping job a decision awaits
  std::vector<Key> key;                         ///< per candidate or stopping holding
  std::vector<std::vector<uint32_t>> stopping;  ///< per pool: stopping holdings
  /// Holdings looked at to set up or keep this state (a work count for complexity guards).
  uint64_t setup_work = 0;

 private:
  void Allocate();  ///< the per-holding and per-pool tables, empty
  Key StaticKey(uint32_t pool, uint32_t i) const;
  bool Earlier(uint32_t a, uint32_t b) const { return std::tie(key[a], a) < std::tie(key[b], b); }
  uint32_t GroupFor(uint32_t pool, uint32_t policy);
  /// Sets the group's tree from its members (and their places).
  void Rebuild(Group& g);
  void Mark(uint32_t i, Ticks leaf);

  const ScheduleContext& ctx_;
  const SchedulingInput& input_;
  const std::vector<uint32_t>& id_rank_;  ///< per holding (may be empty: index order)
  std::vector<Group> groups_;
  std::vector<std::vector<uint32_t>> pool_groups_;  ///< per pool: its groups that have members
  std::vector<uint32_t> group_at_;                  ///< [pool][policy]: a group, or UINT32_MAX
  std::vector<uint32_t> place_;                     ///< per candidate: its position in its group
  std::vector<bool> candidate_;                     ///< per holding
};

}  // namespace rescfg
