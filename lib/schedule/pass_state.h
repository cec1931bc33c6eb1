#pragma once
/// What the pass changes as it places jobs: pool holdings, policy usage and,
/// in pools with nodes, what each machine holds.

#include <vector>

#include "schedule/context.h"
#include "schedule/machines.h"
#include "schedule/problem.h"
#include "util/quantity.h"

namespace rescfg {

struct PassState {
  std::vector<Quantity> held;  ///< per pool: running + placed
  std::vector<Quantity> used;  ///< per policy: running + placed
  std::vector<PoolMachines> machines;  ///< per pool; without nodes: none
  std::vector<MachineSpot> holding_spots;  ///< per holding: where it holds

  /// The state before any placement: what running jobs hold. Running jobs
  /// that name a machine hold there first; then the others, in input order,
  /// go where a queued job of their need would (rescfg-scheduling(7), THE PASS v3).
  static PassState Initial(const ScheduleContext& ctx, const std::vector<Holding>& holdings);

  /// free(X) of rescfg-scheduling(7), THE PASS: size minus holdings, never below 0; 0 in a paused pool.
  Quantity Free(const ScheduleContext& ctx, uint32_t pool) const {
    if (ctx.pool_paused[pool]) return Quantity();
    return Quantity::SaturatingSub(ctx.pool_size[pool], held[pool]);
  }
  /// The largest need of a possible shape that fits the pool now: free(X),
  /// and with nodes no more than its machines can take. A need fits exactly
  /// when it is no larger and of a possible shape (Shaped).
  Quantity FitLimit(const ScheduleContext& ctx, uint32_t pool) const {
    const Quantity free = Free(ctx, pool);
    if (!machines[pool].has_nodes()) return free;
    return std::min(free, machines[pool].FitBound());
  }
  /// FitLimit once `need` (which fits) is placed there.
  Quantity FitLimitAfter(const ScheduleContext& ctx, uint32_t pool, Quantity need) const {
    const Quantity left = Free(ctx, pool) - need;
    if (!machines[pool].has_nodes()) return left;
    return std::min(left, machines[pool].FitBoundAfter(need));
  }
  bool Shaped(uint32_t pool, Quantity need) const {
    return !machines[pool].has_nodes() || machines[pool].Shaped(need);
  }
  /// "s fits X" of rescfg-scheduling(7), THE PASS v3, with rule 1's s <= free(X).
  bool Fits(const ScheduleContext& ctx, uint32_t pool, Quantity need) const {
    return need <= FitLimit(ctx, pool) && Shaped(pool, need);
  }
  /// Takes `need` in the pool (on the machine(s) where it fits): returns where.
  MachineSpot Place(uint32_t pool, Quantity need) {
    held[pool] += need;
    MachineSpot spot = machines[pool].Find(need);
    machines[pool].Hold(spot, need);
    return spot;
  }
  void Release(uint32_t pool, Quantity need, const MachineSpot& spot) {
    held[pool] -= need;
    machines[pool].Release(spot, need);
  }
  /// room(q): what q's reservation still covers, within its limit.
  Quantity Room(const ScheduleContext& ctx, uint32_t policy) const {
    Quantity cover = std::min(ctx.reserved[policy], ctx.limit[policy]);
    return Quantity::SaturatingSub(cover, used[policy]);
  }
  /// Fills the result's machine fields from this state.
  void Describe(SchedulingResult* result) const;
};

}  // namespace rescfg
