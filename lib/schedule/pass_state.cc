#include "schedule/pass_state.h"

namespace rescfg {

PassState PassState::Initial(const ScheduleContext& ctx, const std::vector<Holding>& holdings) {
  PassState state{std::vector<Quantity>(ctx.pool_count), std::vector<Quantity>(ctx.policy_count), {}, {}};
  state.machines.resize(ctx.pool_count);
  for (uint32_t x = 0; x < ctx.pool_count; ++x) {
    if (const auto& nodes = ctx.config.pools[x].nodes) state.machines[x] = PoolMachines(nodes->count, nodes->gpus);
  }
  state.holding_spots.resize(holdings.size());
  for (size_t i = 0; i < holdings.size(); ++i) {
    const Holding& h = holdings[i];
    state.held[h.pool] += h.amount;
    if (h.policy) state.used[*h.policy] += h.amount;
    PoolMachines& machines = state.machines[h.pool];
    if (!machines.has_nodes() || h.machine >= machines.count()) continue;
    state.holding_spots[i].first = h.machine;
    machines.Hold(state.holding_spots[i], h.amount);
  }
  for (size_t i = 0; i < holdings.size(); ++i) {
    const Holding& h = holdings[i];
    PoolMachines& machines = state.machines[h.pool];
    if (!machines.has_nodes() || h.machine != Holding::kBestFit) continue;
    state.holding_spots[i] = machines.Find(h.amount);
    machines.Hold(state.holding_spots[i], h.amount);
  }
  return state;
}

void PassState::Describe(SchedulingResult* result) const {
  result->holding_machine.assign(holding_spots.size(), Placement::kNoMachine);
  for (size_t i = 0; i < holding_spots.size(); ++i) {
    result->holding_machine[i] = holding_spots[i].first;
    if (!holding_spots[i].more.empty()) {
      std::vector<uint32_t> all{holding_spots[i].first};
      all.insert(all.end(), holding_spots[i].more.begin(), holding_spots[i].more.end());
      result->holding_spans.push_back({static_cast<uint32_t>(i), std::move(all)});
    }
  }
  result->machine_free.assign(machines.size(), {});
  for (size_t x = 0; x < machines.size(); ++x) {
    for (uint32_t m = 0; m < machines[x].count(); ++m) result->machine_free[x].push_back(machines[x].Free(m));
  }
}

}  // namespace rescfg
