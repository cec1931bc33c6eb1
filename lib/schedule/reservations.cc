#include "schedule/reservations.h"

#include <algorithm>


namespace rescfg {
namespace {

/// Policies merged by the set of pools they reach, as a flow network:
/// source -> group (its total need) -> pools it reaches -> sink (free).
struct GroupedNetwork {
  std::vector<std::vector<uint32_t>> members;       ///< per group
  std::vector<std::vector<uint32_t>> group_pools;   ///< per group; its edges are in this order
  std::optional<BipartiteFlow> flow;
  Ticks reachable_need = 0;  ///< total need of the policies that reach some pool
};

}  // namespace

ReservationBook::ReservationBook(const ScheduleContext& ctx, const std::vector<JobQueue>& queues,
                                 const std::vector<QueuedJob>& queued, const PassState& state)
    : ctx_(ctx), queues_(queues), queued_(queued), state_(state),
      need_(ctx.policy_count), reach_(ctx.policy_count),
      flow_into_(ctx.pool_count), largest_reach_(ctx.pool_count), group_of_(ctx.policy_count, -1),
      widest_reach_(ctx.pool_count), usage_(ctx.pool_count), without_epoch_(ctx.pool_count, UINT64_MAX),
      previous_margin_(ctx.pool_count), without_(ctx.pool_count), excluded_index_(ctx.policy_count, -1) {
  for (uint32_t q = 0; q < ctx.policy_count; ++q) Refresh(q);
}

bool ReservationBook::Refresh(uint32_t q) {
  ++stats_.refreshes;
  Quantity room = state_.Room(ctx_, q);
  Quantity total;
  std::vector<Reach> reach;
  if (!room.is_zero()) {
    for (uint32_t queue_index : ctx_.queues_of_policy[q]) {
      const JobQueue& queue = queues_[queue_index];
      ProtectedSummary summary = queue.Protected(room, queued_);
      if (!summary.smallest) continue;
      total += summary.total_capped;
      for (uint32_t pool : ctx_.links[queue.profile()]) {
        // Only needs the pool's machines can ever take count (rescfg-scheduling(7), THE PASS v3).
        std::optional<Quantity> smallest = summary.smallest;
        if (!state_.Shaped(pool, *smallest)) {
          smallest = queue.SmallestProtected(room, queued_, [&](Quantity s) { return state_.Shaped(pool, s); });
          if (!smallest) continue;
        }
        auto it = std::find_if(reach.begin(), reach.end(), [&](const Reach& r) { return r.pool == pool; });
        if (it == reach.end()) {
          reach.push_back({pool, *smallest});
        } else if (*smallest < it->smallest) {
          it->smallest = *smallest;
        }
      }
    }
  }
  std::sort(reach.begin(), reach.end(), [](const Reach& a, const Reach& b) { return a.pool < b.pool; });
  Quantity need = std::min(room, total);
  bool reach_changed = reach.size() != reach_[q].size() ||
                       !std::equal(reach.begin(), reach.end(), reach_[q].begin(), [](const Reach& a, const Reach& b) {
                         return a.pool == b.pool && a.smallest == b.smallest;
                       });
  bool changed = need != need_[q] || reach_changed;
  // The flow network's groups follow who reaches what (and only policies with a need take part).
  if (reach_changed || need.is_zero() != need_[q].is_zero()) groups_changed_ = true;
  total_need_ = total_need_ - need_[q] + need;
  need_[q] = need;
  reach_[q] = std::move(reach);
  auto it = std::lower_bound(demanding_.begin(), demanding_.end(), q);
  bool listed = it != demanding_.end() && *it == q;
  if (!need.is_zero() && !listed) demanding_.insert(it, q);
  if (need.is_zero() && listed) demanding_.erase(it);
  return changed;
}

void ReservationBook::NewEpoch() {
  for (uint32_t x = 0; x < ctx_.pool_count; ++x) previous_margin_[x] = CurrentMargin(x);
  ++epoch_;
  for (size_t i = 0; i < excluded_used_; ++i) excluded_index_[excluded_[i].policy] = -1;
  excluded_used_ = 0;
  bounds_.clear();
  full_epoch_ = UINT64_MAX;
  std::fill(usage_.begin(), usage_.end(), Quantity());
}

bool ReservationBook::Placed(uint32_t policy, uint32_t pool) {
  if (Refresh(policy)) {
    NewEpoch();
    return false;
  }
  Quantity free = state_.Free(ctx_, pool);
  if (full_epoch_ == epoch_ && usage_[pool] <= free && widest_reach_[pool] <= state_.FitLimit(ctx_, pool)) {
    // The kept flows must see the pool's new capacity (they fit: nothing is
    // cancelled); bounds on needs at this pool were found with more of it.
    full_flow_->SetRightCap(static_cast<int>(pool), free.ticks());
    for (size_t i = 0; i < excluded_used_; ++i) excluded_[i].flow->SetRightCap(static_cast<int>(pool), free.ticks());
    bounds_.erase(bounds_.lower_bound({pool, 0}), bounds_.upper_bound({pool, kAnyPolicy}));
    return true;
  }
  NewEpoch();
  return false;
}

bool ReservationBook::Reopen(const std::vector<uint32_t>& policies, bool capacity_rose) {
  bool changed = false;
  for (uint32_t q : policies) changed = Refresh(q) || changed;
  if (capacity_rose) groups_changed_ = true;
  if (!changed && !capacity_rose) return false;
  NewEpoch();
  return true;
}

void ReservationBook::Track(const BipartiteFlow& flow) const {
  for (uint32_t x = 0; x < ctx_.pool_count; ++x) {
    Quantity through = Quantity::FromTicks(flow.RightFlow(static_cast<int>(x)));
    if (through > usage_[x]) usage_[x] = through;
  }
}

bool ReservationBook::Reaches(uint32_t q, uint32_t pool, Quantity free) const {
  for (const Reach& r : reach_[q]) {
    if (r.pool == pool) return r.smallest <= free;
  }
  return false;
}

namespace {

GroupedNetwork BuildNetwork(const ScheduleContext& ctx, const PassState& state,
                            const std::vector<uint32_t>& demanding, const std::vector<Quantity>& need,
                            const auto& reach_of) {
  GroupedNetwork net;
  std::vector<Quantity> free(ctx.pool_count), fit(ctx.pool_count);
  for (uint32_t x = 0; x < ctx.pool_count; ++x) {
    free[x] = state.Free(ctx, x);
    fit[x] = state.FitLimit(ctx, x);
  }

  std::map<std::vector<uint32_t>, size_t> group_of;
  std::vector<Ticks> group_need;
  std::vector<uint32_t> pools;
  for (uint32_t q : demanding) {
    pools.clear();
    for (const auto& r : reach_of(q)) {
      if (r.smallest <= fit[r.pool]) pools.push_back(r.pool);
    }
    if (pools.empty()) continue;
    auto it = group_of.find(pools);
    if (it == group_of.end()) {
      it = group_of.emplace(pools, net.members.size()).first;
      net.members.emplace_back();
      net.group_pools.push_back(pools);
      group_need.push_back(0);
    }
    net.members[it->second].push_back(q);
    group_need[it->second] += need[q].ticks();
    net.reachable_need += need[q].ticks();
  }
  std::vector<std::vector<int>> edges(net.group_pools.size());
  for (size_t g = 0; g < edges.size(); ++g) edges[g].assign(net.group_pools[g].begin(), net.group_pools[g].end());
  std::vector<Ticks> pool_cap(ctx.pool_count);
  for (uint32_t x = 0; x < ctx.pool_count; ++x) pool_cap[x] = free[x].ticks();
  auto shape = std::make_shared<const BipartiteFlow::Shape>(static_cast<int>(edges.size()),
                                                            static_cast<int>(ctx.pool_count), edges);
  net.flow.emplace(std::move(shape), std::move(group_need), std::move(pool_cap));
  net.flow->Augment();
  return net;
}

}  // namespace

void ReservationBook::ComputeFullFlow() {
  if (full_epoch_ == epoch_) return;
  full_epoch_ = epoch_;
  // Nobody's set of reached pools changed (nobody stopped reaching a pool
  // whose free capacity fell): the groups are the same, only capacities
  // changed, so the previous flow is repaired rather than rebuilt.
  bool same_groups = !groups_changed_ && full_flow_.has_value();
  for (uint32_t x = 0; same_groups && x < ctx_.pool_count; ++x) {
    same_groups = widest_reach_[x] <= state_.FitLimit(ctx_, x);
  }
  groups_changed_ = false;
  Ticks reachable_need = 0;
  if (same_groups) {
    ++stats_.repairs;
    for (size_t g = 0; g < members_.size(); ++g) {
      Ticks need = 0;
      for (uint32_t q : members_[g]) need += need_[q].ticks();
      if (need != full_flow_->LeftCap(static_cast<int>(g))) full_flow_->SetLeftCap(static_cast<int>(g), need);
      reachable_need += need;
    }
    for (uint32_t x = 0; x < ctx_.pool_count; ++x) full_flow_->SetRightCap(static_cast<int>(x), state_.Free(ctx_, x).ticks());
    full_flow_->Augment();
  } else {
    ++stats_.flows;
    auto reach_of = [this](uint32_t q) -> const std::vector<Reach>& { return reach_[q]; };
    GroupedNetwork net = BuildNetwork(ctx_, state_, demanding_, need_, reach_of);
    reachable_need = net.reachable_need;
    full_flow_ = std::move(net.flow);
    members_ = std::move(net.members);
    group_pools_ = std::move(net.group_pools);
    std::fill(group_of_.begin(), group_of_.end(), -1);
    for (size_t g = 0; g < members_.size(); ++g) {
      for (uint32_t q : members_[g]) group_of_[q] = static_cast<int>(g);
    }
  }
  const BipartiteFlow& flow = *full_flow_;
  // Policies that reach nothing have no edge: they cannot lose anything.
  full_ = flow.value() == reachable_need;
  full_value_ = Quantity::FromTicks(flow.value());
  std::fill(flow_into_.begin(), flow_into_.end(), Quantity());
  std::fill(largest_reach_.begin(), largest_reach_.end(), Quantity());
  std::fill(widest_reach_.begin(), widest_reach_.end(), Quantity());
  for (uint32_t x = 0; x < ctx_.pool_count; ++x) flow_into_[x] = Quantity::FromTicks(flow.RightFlow(static_cast<int>(x)));
  for (size_t g = 0; g < members_.size(); ++g) {
    const auto& pools = group_pools_[g];
    const int first_edge = flow.shape().LeftBegin(static_cast<int>(g));
    for (uint32_t q : members_[g]) {
      // Both lists ascend by pool: walk them together.
      size_t i = 0;
      for (const Reach& r : reach_[q]) {
        while (i < pools.size() && pools[i] < r.pool) ++i;
        if (i == pools.size()) break;
        if (pools[i] != r.pool) continue;
        const uint32_t x = r.pool;
        if (r.smallest > widest_reach_[x]) widest_reach_[x] = r.smallest;
        if (r.smallest > largest_reach_[x] && flow.EdgeFlow(first_edge + static_cast<int>(i)) > 0) {
          largest_reach_[x] = r.smallest;
        }
      }
    }
  }
  Track(flow);
}

Quantity ReservationBook::SmallestAt(uint32_t q, uint32_t pool) const {
  for (const Reach& r : reach_[q]) {
    if (r.pool == pool) return r.smallest;
  }
  return Quantity::Max();
}

Ticks ReservationBook::FlowAfter(const BipartiteFlow& before, std::optional<uint32_t> excluded, uint32_t pool,
                                 Quantity left, Quantity reach_left) const {
  ++stats_.repairs;
  // Policies whose smallest protected job no longer fits the pool lose their
  // edge to it: a group with such members may send the pool only what its
  // other members need (the same flow as splitting the group in two).
  BipartiteFlow* after = nullptr;
  for (size_t g = 0; g < group_pools_.size(); ++g) {
    const auto& pools = group_pools_[g];
    auto at = std::lower_bound(pools.begin(), pools.end(), pool);
    if (at == pools.end() || *at != pool) continue;
    Ticks lost = 0, kept = 0;
    for (uint32_t q : members_[g]) {
      if (q == excluded) continue;
      (SmallestAt(q, pool) > reach_left ? lost : kept) += need_[q].ticks();
    }
    if (lost == 0) continue;
    if (!after) after = &Work(before);
    after->SetEdgeCap(before.shape().LeftBegin(static_cast<int>(g)) + static_cast<int>(at - pools.begin()), kept);
  }
  if (!after && before.RightFlow(static_cast<int>(pool)) <= left.ticks()) return before.value();
  if (!after) after = &Work(before);
  after->SetRightCap(static_cast<int>(pool), left.ticks());
  Ticks value = after->Augment();
  Track(*after);
  return value;
}

Ticks ReservationBook::FlowWithout(uint32_t pool) {
  ComputeFullFlow();
  if (without_epoch_[pool] != epoch_) {
    without_[pool] = WithoutPool(*full_flow_, pool);
    without_epoch_[pool] = epoch_;
  }
  return without_[pool];
}

std::optional<Ticks> ReservationBook::CurrentMargin(uint32_t pool) const {
  if (full_epoch_ != epoch_ || without_epoch_[pool] != epoch_) return std::nullopt;
  // On machines, what a job leaves others to reach is not free(X) - s.
  if (state_.machines[pool].has_nodes()) return std::nullopt;
  Ticks margin = full_value_.ticks() - without_[pool];
  if (widest_reach_[pool].ticks() > margin) return std::nullopt;
  return margin;
}

bool ReservationBook::SameVerdictsForBystanders(uint32_t pool) {
  // Computed even when the previous one is unknown: the next epoch compares with it.
  FlowWithout(pool);
  return previous_margin_[pool] && CurrentMargin(pool) == previous_margin_[pool];
}

Ticks ReservationBook::WithoutPool(const BipartiteFlow& flow, uint32_t pool) const {
  ++stats_.repairs;
  if (flow.RightFlow(static_cast<int>(pool)) == 0) return flow.value();
  BipartiteFlow& copy = Work(flow);
  copy.SetRightCap(static_cast<int>(pool), 0);
  Ticks value = copy.Augment();
  Track(copy);
  return value;
}

BipartiteFlow& ReservationBook::Work(const BipartiteFlow& flow) const {
  if (work_) {
    *work_ = flow;
  } else {
    work_.emplace(flow);
  }
  return *work_;
}

ReservationBook::Excluded& ReservationBook::ExcludedFlow(uint32_t policy) {
  if (excluded_index_[policy] >= 0) return excluded_[excluded_index_[policy]];
  ++stats_.repairs;
  if (excluded_used_ == excluded_.size()) excluded_.emplace_back();
  excluded_index_[policy] = static_cast<int>(excluded_used_);
  Excluded& ex = excluded_[excluded_used_++];
  ex.policy = policy;
  if (ex.flow) {
    *ex.flow = *full_flow_;
  } else {
    ex.flow.emplace(*full_flow_);
  }
  ex.without.assign(ctx_.pool_count, std::nullopt);
  BipartiteFlow& flow = *ex.flow;
  int g = group_of_[policy];
  flow.SetLeftCap(g, flow.LeftCap(g) - need_[policy].ticks());
  flow.Augment();
  Track(flow);
  return ex;
}

bool ReservationBook::KeepsOthersCovered(uint32_t policy, uint32_t pool, Quantity need) {
  // Cheap sufficient test: when every outstanding reservation can be covered
  // at once and that covering flow still fits beside the job, with every
  // policy it routes through the pool still reaching it, nothing is lost.
  // A policy that reaches no pool has no edge: without it the network is
  // the full one, before and after (taking capacity never lets it reach
  // more), and then any maximum flow that still fits proves the point.
  ComputeFullFlow();
  bool takes_part = group_of_[policy] >= 0;  // it reaches some pool now
  Quantity free = state_.Free(ctx_, pool);
  // The largest need others can still fit there after the job (free - need
  // for a pool without nodes).
  const Quantity reach_left = state_.FitLimitAfter(ctx_, pool, need);
  const bool nodes = state_.machines[pool].has_nodes();
  if (!takes_part && full_value_.is_zero()) return true;
  if (!takes_part) {
    // Usually one number per pool and state decides every need (see
    // SameVerdictsForBystanders), and the pass relies on knowing it.
    FlowWithout(pool);
    if (std::optional<Ticks> margin = CurrentMargin(pool)) return need.ticks() <= free.ticks() - *margin;
  }
  if ((full_ || !takes_part) && flow_into_[pool] + need <= free && largest_reach_[pool] <= reach_left) {
    ++stats_.fast_accepts;
    return true;
  }
  if (!takes_part && full_value_.is_zero()) return true;
  if (widest_reach_[pool] <= reach_left) {
    // Nobody stops reaching the pool: only its capacity shrinks (see the header).
    Ticks before, without;
    if (!takes_part) {
      before = full_value_.ticks();
      without = FlowWithout(pool);
    } else {
      Excluded& ex = ExcludedFlow(policy);
      before = ex.flow->value();
      if (!ex.without[pool]) ex.without[pool] = WithoutPool(*ex.flow, pool);
      without = *ex.without[pool];
    }
    return before == 0 || without + (free - need).ticks() >= before;
  }
  // On machines the answer need not be monotone in the need: no bounds.
  Bounds unused;
  Bounds& bounds = nodes ? unused : bounds_[{pool, takes_part ? policy : kAnyPolicy}];
  if (need <= bounds.admitted) return true;
  if (need >= bounds.refused) return false;
  Quantity before;
  if (takes_part) {
    before = Quantity::FromTicks(ExcludedFlow(policy).flow->value());
  } else {
    before = full_value_;
  }
  const BipartiteFlow& base = takes_part ? *ExcludedFlow(policy).flow : *full_flow_;
  bool ok = before.is_zero() ||
            FlowAfter(base, takes_part ? std::optional<uint32_t>(policy) : std::nullopt, pool, free - need, reach_left) >=
                before.ticks();
  if (ok) {
    bounds.admitted = std::max(bounds.admitted, need);
  } else {
    bounds.refused = std::min(bounds.refused, need);
  }
  return ok;
}

std::vector<uint32_t> ReservationBook::OthersReaching(uint32_t policy, uint32_t pool) const {
  std::vector<uint32_t> out;
  Quantity fit = state_.FitLimit(ctx_, pool);
  for (uint32_t q : demanding_) {
    if (q != policy && Reaches(q, pool, fit)) out.push_back(q);
  }
  return out;
}

}  // namespace rescfg
