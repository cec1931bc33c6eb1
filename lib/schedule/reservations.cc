#include "schedule/reservations.h"

#include <algorithm>

#include "max_flow.h"

namespace rescfg {
namespace {

constexpr Ticks kInfinite = Ticks(1) << 124;

/// Policies merged by the set of pools they reach, as a flow network:
/// source -> group (its total need) -> pools it reaches -> sink (free).
struct GroupedNetwork {
  std::vector<std::vector<uint32_t>> members;       ///< per group
  std::vector<std::vector<uint32_t>> group_pools;   ///< per group
  std::vector<std::vector<int>> group_edges;        ///< per group, parallel to group_pools
  std::vector<int> pool_edge;                       ///< per pool: edge to the sink, or -1
  MaxFlow flow{0};
  Ticks value = 0;
  Ticks reachable_need = 0;  ///< total need of the policies that reach some pool
};

}  // namespace

ReservationBook::ReservationBook(const ScheduleContext& ctx, const std::vector<JobQueue>& queues,
                                 const std::vector<QueuedJob>& queued, const PassState& state)
    : ctx_(ctx), queues_(queues), queued_(queued), state_(state),
      need_(ctx.policy_count), reach_(ctx.policy_count),
      flow_into_(ctx.pool_count), largest_reach_(ctx.pool_count) {
  for (uint32_t q = 0; q < ctx.policy_count; ++q) Refresh(q);
}

void ReservationBook::Refresh(uint32_t q) {
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
        auto it = std::find_if(reach.begin(), reach.end(), [&](const Reach& r) { return r.pool == pool; });
        if (it == reach.end()) {
          reach.push_back({pool, *summary.smallest});
        } else if (*summary.smallest < it->smallest) {
          it->smallest = *summary.smallest;
        }
      }
    }
  }
  std::sort(reach.begin(), reach.end(), [](const Reach& a, const Reach& b) { return a.pool < b.pool; });
  Quantity need = std::min(room, total);
  total_need_ = total_need_ - need_[q] + need;
  need_[q] = need;
  reach_[q] = std::move(reach);
  auto it = std::lower_bound(demanding_.begin(), demanding_.end(), q);
  bool listed = it != demanding_.end() && *it == q;
  if (!need.is_zero() && !listed) demanding_.insert(it, q);
  if (need.is_zero() && listed) demanding_.erase(it);
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
                            const auto& reach_of, std::optional<uint32_t> excluded,
                            std::optional<uint32_t> pool_after, Quantity taken) {
  GroupedNetwork net;
  std::vector<Quantity> free(ctx.pool_count);
  for (uint32_t x = 0; x < ctx.pool_count; ++x) free[x] = state.Free(ctx, x);
  if (pool_after) free[*pool_after] = Quantity::SaturatingSub(free[*pool_after], taken);

  std::map<std::vector<uint32_t>, size_t> group_of;
  std::vector<Ticks> group_need;
  std::vector<uint32_t> pools;
  for (uint32_t q : demanding) {
    if (excluded && q == *excluded) continue;
    pools.clear();
    for (const auto& r : reach_of(q)) {
      if (r.smallest <= free[r.pool]) pools.push_back(r.pool);
    }
    if (pools.empty()) continue;
    auto [it, inserted] = group_of.emplace(pools, net.members.size());
    if (inserted) {
      net.members.emplace_back();
      net.group_pools.push_back(pools);
      group_need.push_back(0);
    }
    net.members[it->second].push_back(q);
    group_need[it->second] += need[q].ticks();
    net.reachable_need += need[q].ticks();
  }
  const int groups = static_cast<int>(net.members.size());
  const int source = 0, sink = 1 + groups + static_cast<int>(ctx.pool_count);
  net.flow = MaxFlow(sink + 1);
  net.pool_edge.assign(ctx.pool_count, -1);
  net.group_edges.resize(net.members.size());
  for (int g = 0; g < groups; ++g) {
    net.flow.AddEdge(source, 1 + g, group_need[g]);
    for (uint32_t x : net.group_pools[g]) {
      net.group_edges[g].push_back(net.flow.AddEdge(1 + g, 1 + groups + static_cast<int>(x), kInfinite));
      if (net.pool_edge[x] < 0) {
        net.pool_edge[x] = net.flow.AddEdge(1 + groups + static_cast<int>(x), sink, free[x].ticks());
      }
    }
  }
  net.value = groups == 0 ? 0 : net.flow.Run(source, sink);
  return net;
}

}  // namespace

Quantity ReservationBook::Capacity(std::optional<uint32_t> excluded, std::optional<uint32_t> pool_after,
                                   Quantity taken) const {
  ++stats_.flows;
  auto reach_of = [this](uint32_t q) -> const std::vector<Reach>& { return reach_[q]; };
  GroupedNetwork net = BuildNetwork(ctx_, state_, demanding_, need_, reach_of, excluded, pool_after, taken);
  return Quantity::FromTicks(net.value);
}

void ReservationBook::ComputeFullFlow() {
  if (full_epoch_ == epoch_) return;
  full_epoch_ = epoch_;
  ++stats_.flows;
  auto reach_of = [this](uint32_t q) -> const std::vector<Reach>& { return reach_[q]; };
  GroupedNetwork net = BuildNetwork(ctx_, state_, demanding_, need_, reach_of, std::nullopt, std::nullopt, {});
  // Policies that reach nothing have no edge: they cannot lose anything.
  full_ = net.value == net.reachable_need;
  full_value_ = Quantity::FromTicks(net.value);
  std::fill(flow_into_.begin(), flow_into_.end(), Quantity());
  std::fill(largest_reach_.begin(), largest_reach_.end(), Quantity());
  for (uint32_t x = 0; x < ctx_.pool_count; ++x) {
    if (net.pool_edge[x] >= 0) flow_into_[x] = Quantity::FromTicks(net.flow.Flow(net.pool_edge[x]));
  }
  for (size_t g = 0; g < net.members.size(); ++g) {
    for (size_t i = 0; i < net.group_pools[g].size(); ++i) {
      uint32_t x = net.group_pools[g][i];
      if (net.flow.Flow(net.group_edges[g][i]) <= 0) continue;
      for (uint32_t q : net.members[g]) {
        for (const Reach& r : reach_[q]) {
          if (r.pool == x && r.smallest > largest_reach_[x]) largest_reach_[x] = r.smallest;
        }
      }
    }
  }
}

bool ReservationBook::KeepsOthersCovered(uint32_t policy, uint32_t pool, Quantity need) {
  // Cheap sufficient test: when every outstanding reservation can be covered
  // at once and that covering flow still fits beside the job, with every
  // policy it routes through the pool still reaching it, nothing is lost.
  // A policy that reaches no pool has no edge: without it the network is
  // the full one, before and after (taking capacity never lets it reach
  // more), and then any maximum flow that still fits proves the point.
  ComputeFullFlow();
  bool takes_part = ReachesAny(policy);
  Quantity free = state_.Free(ctx_, pool);
  if ((full_ || !takes_part) && flow_into_[pool] + need <= free && largest_reach_[pool] + need <= free) {
    ++stats_.fast_accepts;
    return true;
  }
  if (!takes_part && full_value_.is_zero()) return true;
  Bounds& bounds = bounds_[{takes_part ? policy : kAnyPolicy, pool}];
  if (need <= bounds.admitted) return true;
  if (need >= bounds.refused) return false;
  Quantity before;
  if (takes_part) {
    auto it = before_cache_.find(policy);
    if (it == before_cache_.end()) it = before_cache_.emplace(policy, Capacity(policy)).first;
    before = it->second;
  } else {
    before = full_value_;
  }
  bool ok = before.is_zero() || Capacity(takes_part ? std::optional<uint32_t>(policy) : std::nullopt, pool, need) >= before;
  if (ok) {
    bounds.admitted = std::max(bounds.admitted, need);
  } else {
    bounds.refused = std::min(bounds.refused, need);
  }
  return ok;
}

bool ReservationBook::ReachesAny(uint32_t q) const {
  if (need_[q].is_zero()) return false;
  for (const Reach& r : reach_[q]) {
    if (r.smallest <= state_.Free(ctx_, r.pool)) return true;
  }
  return false;
}

std::vector<uint32_t> ReservationBook::OthersReaching(uint32_t policy, uint32_t pool) const {
  std::vector<uint32_t> out;
  Quantity free = state_.Free(ctx_, pool);
  for (uint32_t q : demanding_) {
    if (q != policy && Reaches(q, pool, free)) out.push_back(q);
  }
  return out;
}

}  // namespace rescfg
