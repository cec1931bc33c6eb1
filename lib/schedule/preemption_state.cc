#include "schedule/preemption_state.h"

#include <algorithm>

#include "schedule/preemption_trace.h"

namespace rescfg {

PreemptionState::PreemptionState(const ScheduleContext& ctx, const SchedulingInput& input)
    : state(PassState::Initial(ctx, input.holdings)), ctx_(ctx), input_(input), id_rank_(input.holding_id_rank) {
  Allocate();
}

void PreemptionState::Allocate() {
  const size_t n = input_.holdings.size();
  promised.assign(n, false);
  key.resize(n);
  stopping.assign(ctx_.pool_count, {});
  pool_groups_.assign(ctx_.pool_count, {});
  group_at_.assign(ctx_.pool_count * ctx_.policy_count, UINT32_MAX);
  place_.assign(n, 0);
  candidate_.assign(n, false);
  setup_work += n;
}

void PreemptionState::Place(const SchedulingResult& result) {
  for (const Placement& p : result.placements) {
    const QueuedJob& j = input_.queued[p.job];
    state.used[j.policy] += j.need;
    state.held[p.pool] += j.need;
    if (p.machine == Placement::kNoMachine) continue;
    MachineSpot spot;
    spot.first = p.machine;
    const auto& spans = result.job_spans;  // ascending by job
    auto it = std::lower_bound(spans.begin(), spans.end(), p.job, [](const auto& e, uint32_t i) { return e.first < i; });
    if (it != spans.end() && it->first == p.job) spot.more.assign(it->second.begin() + 1, it->second.end());
    state.machines[p.pool].Hold(spot, j.need);
  }
}

PreemptionState::PreemptionState(const ScheduleContext& ctx, const SchedulingInput& input,
                                 const std::vector<uint32_t>& id_rank)
    : state(PassState::Initial(ctx, input.holdings)), ctx_(ctx), input_(input), id_rank_(id_rank) {
  Allocate();
  const auto& holdings = input.holdings;
  std::vector<uint32_t> candidates;
  for (uint32_t i = 0; i < holdings.size(); ++i) {
    const Holding& h = holdings[i];
    if (h.stopping && h.policy) state.used[*h.policy] -= h.amount;  // already going
    if (!h.pool) continue;
    if (h.stopping) {
      key[i] = StaticKey(*h.pool, i);
      stopping[*h.pool].push_back(i);
    } else if (JudgeVictim(ctx.config, h, input.now_us) == VictimEligibility::kCandidate) {
      key[i] = StaticKey(*h.pool, i);
      candidates.push_back(i);
    }
  }
  // Grouped by pool then policy, each group in victim order: one sort, then each group's tree.
  std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
    const Holding& ha = holdings[a];
    const Holding& hb = holdings[b];
    if (*ha.pool != *hb.pool || *ha.policy != *hb.policy) return std::tie(*ha.pool, *ha.policy) < std::tie(*hb.pool, *hb.policy);
    return Earlier(a, b);
  });
  for (size_t k = 0; k < candidates.size();) {
    const Holding& h = holdings[candidates[k]];
    Group& g = groups_[GroupFor(*h.pool, *h.policy)];
    for (; k < candidates.size() && *holdings[candidates[k]].pool == *h.pool && *holdings[candidates[k]].policy == *h.policy;
         ++k) {
      g.members.push_back(candidates[k]);
      candidate_[candidates[k]] = true;
    }
    Rebuild(g);
  }
  setup_work += candidates.size();
}

PreemptionState::Key PreemptionState::StaticKey(uint32_t pool, uint32_t i) const {
  const Holding& h = input_.holdings[i];
  const uint32_t profile = i < input_.holding_profile.size() ? input_.holding_profile[i] : SchedulingInput::kNoProfile;
  // Its rank in the pool's execution priority (without one: file order); unranked or no
  // profile known: after every ranked one.
  int64_t rank = int64_t(ctx_.profile_count);
  if (profile != SchedulingInput::kNoProfile) {
    const uint32_t r = ctx_.ExecRank(pool, profile);
    if (!ctx_.config.pools[pool].execution_priority) {
      rank = profile;
    } else if (r != UINT32_MAX) {
      rank = r;
    }
  }
  const uint32_t id = i < id_rank_.size() ? id_rank_[i] : i;
  return {-rank, h.started_us == kUnknownTime ? INT64_MAX : -h.started_us, h.amount, id};
}

uint32_t PreemptionState::GroupFor(uint32_t pool, uint32_t policy) {
  uint32_t& at = group_at_[size_t(pool) * ctx_.policy_count + policy];
  if (at == UINT32_MAX) {
    at = static_cast<uint32_t>(groups_.size());
    groups_.push_back({pool, policy, {}, {}, 1, UINT32_MAX});
  }
  Group& g = groups_[at];
  if (g.listed == UINT32_MAX) {
    g.listed = static_cast<uint32_t>(pool_groups_[pool].size());
    pool_groups_[pool].push_back(at);
  }
  return at;
}

void PreemptionState::Rebuild(Group& g) {
  g.leaves = 1;
  while (g.leaves < g.members.size() + 1) g.leaves *= 2;
  g.tree.assign(2 * g.leaves, kGone);
  for (size_t k = 0; k < g.members.size(); ++k) {
    place_[g.members[k]] = static_cast<uint32_t>(k);
    g.tree[g.leaves + k] = input_.holdings[g.members[k]].amount.ticks();
  }
  g.tree[g.leaves + g.members.size()] = kEnd;
  for (size_t k = g.leaves; k-- > 1;) g.tree[k] = std::min(g.tree[2 * k], g.tree[2 * k + 1]);
}

void PreemptionState::Hold(uint32_t i) {
  const Holding& h = input_.holdings[i];
  ++setup_work;
  if (h.policy) state.used[*h.policy] += h.amount;
  if (!h.pool) return;
  state.held[*h.pool] += h.amount;
  PoolMachines& machines = state.machines[*h.pool];
  MachineSpot& spot = state.holding_spots[i];
  spot = {};
  if (!machines.has_nodes()) return;
  if (h.machine == Holding::kBestFit) {
    spot = machines.Find(h.amount);
  } else if (h.machine < machines.count()) {
    spot.first = h.machine;
  }
  machines.Hold(spot, h.amount);
}

void PreemptionState::Release(uint32_t i) {
  const Holding& h = input_.holdings[i];
  ++setup_work;
  if (h.policy) state.used[*h.policy] -= h.amount;
  if (!h.pool) return;
  state.Release(*h.pool, h.amount, state.holding_spots[i]);
  state.holding_spots[i] = {};
  if (!candidate_[i]) return;
  candidate_[i] = false;
  Group& g = groups_[group_at_[size_t(*h.pool) * ctx_.policy_count + *h.policy]];
  g.members.erase(g.members.begin() + place_[i]);
  Rebuild(g);
  if (!g.members.empty()) return;
  // No candidate left: out of its pool's list (the last one takes its place).
  std::vector<uint32_t>& list = pool_groups_[g.pool];
  groups_[list.back()].listed = g.listed;
  list[g.listed] = list.back();
  list.pop_back();
  g.listed = UINT32_MAX;
}

void PreemptionState::AddCandidate(uint32_t i) {
  const Holding& h = input_.holdings[i];
  ++setup_work;
  key[i] = StaticKey(*h.pool, i);
  candidate_[i] = true;
  Group& g = groups_[GroupFor(*h.pool, *h.policy)];
  auto at = std::lower_bound(g.members.begin(), g.members.end(), i, [&](uint32_t a, uint32_t b) { return Earlier(a, b); });
  g.members.insert(at, i);
  Rebuild(g);
}

uint32_t PreemptionState::Next(uint32_t gi, uint32_t k, Ticks most) const {
  const Group& g = groups_[gi];
  size_t i = g.leaves + k;
  while (g.tree[i] > most) {
    while (i & 1) i >>= 1;  // a right child: up to the first ancestor with a right sibling
    ++i;
  }
  while (i < g.leaves) i = g.tree[2 * i] <= most ? 2 * i : 2 * i + 1;
  return static_cast<uint32_t>(i - g.leaves);
}

void PreemptionState::Back(uint32_t i) { Mark(i, input_.holdings[i].amount.ticks()); }

void PreemptionState::Mark(uint32_t i, Ticks leaf) {
  const Holding& h = input_.holdings[i];
  Group& g = groups_[group_at_[size_t(*h.pool) * ctx_.policy_count + *h.policy]];
  size_t at = g.leaves + place_[i];
  g.tree[at] = leaf;
  for (at /= 2; at >= 1; at /= 2) g.tree[at] = std::min(g.tree[2 * at], g.tree[2 * at + 1]);
}

}  // namespace rescfg
