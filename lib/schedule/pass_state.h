#pragma once
/// What the pass changes as it places jobs: pool holdings and policy usage.

#include <vector>

#include "quantity.h"
#include "schedule/context.h"
#include "schedule/problem.h"

namespace rescfg {

struct PassState {
  std::vector<Quantity> held;  ///< per pool: running + placed
  std::vector<Quantity> used;  ///< per policy: running + placed

  /// The state before any placement: what running jobs hold.
  static PassState Initial(const ScheduleContext& ctx, const std::vector<Holding>& holdings) {
    PassState state{std::vector<Quantity>(ctx.pool_count), std::vector<Quantity>(ctx.policy_count)};
    for (const Holding& h : holdings) {
      if (h.pool) state.held[*h.pool] += h.amount;
      if (h.policy) state.used[*h.policy] += h.amount;
    }
    return state;
  }

  /// free(X) of SPEC §4: size minus holdings, never below 0; 0 in a paused pool.
  Quantity Free(const ScheduleContext& ctx, uint32_t pool) const {
    if (ctx.pool_paused[pool]) return Quantity();
    return Quantity::SaturatingSub(ctx.pool_size[pool], held[pool]);
  }
  /// room(q): what q's reservation still covers, within its limit.
  Quantity Room(const ScheduleContext& ctx, uint32_t policy) const {
    Quantity cover = std::min(ctx.reserved[policy], ctx.limit[policy]);
    return Quantity::SaturatingSub(cover, used[policy]);
  }
};

}  // namespace rescfg
