#pragma once
/// What the pass changes as it places jobs: pool holdings and policy usage.

#include <vector>

#include "quantity.h"
#include "schedule/context.h"

namespace rescfg {

struct PassState {
  std::vector<Quantity> held;  ///< per pool: running + placed
  std::vector<Quantity> used;  ///< per policy: running + placed

  /// free(X) of SPEC §4: size minus holdings, never below 0.
  Quantity Free(const ScheduleContext& ctx, uint32_t pool) const {
    return Quantity::SaturatingSub(ctx.pool_size[pool], held[pool]);
  }
  /// room(q): what q's reservation still covers, within its limit.
  Quantity Room(const ScheduleContext& ctx, uint32_t policy) const {
    Quantity cover = std::min(ctx.reserved[policy], ctx.limit[policy]);
    return Quantity::SaturatingSub(cover, used[policy]);
  }
};

}  // namespace rescfg
