#include "support/reference_scheduler.h"

#include <algorithm>
#include <deque>
#include <tuple>

namespace rescfg::reference {
namespace {

const Ticks kNoLimit = Ticks(1) << 110;

/// Edmonds–Karp on a dense capacity matrix: slow and obviously right.
Ticks MaxFlowDense(std::vector<std::vector<Ticks>> cap, int source, int sink) {
  const int n = static_cast<int>(cap.size());
  Ticks total = 0;
  for (;;) {
    std::vector<int> parent(n, -1);
    parent[source] = source;
    std::deque<int> todo{source};
    while (!todo.empty() && parent[sink] < 0) {
      int u = todo.front();
      todo.pop_front();
      for (int v = 0; v < n; ++v) {
        if (parent[v] < 0 && cap[u][v] > 0) {
          parent[v] = u;
          todo.push_back(v);
        }
      }
    }
    if (parent[sink] < 0) return total;
    Ticks push = kNoLimit * 4;
    for (int v = sink; v != source; v = parent[v]) push = std::min(push, cap[parent[v]][v]);
    for (int v = sink; v != source; v = parent[v]) {
      cap[parent[v]][v] -= push;
      cap[v][parent[v]] += push;
    }
    total += push;
  }
}

size_t IndexOf(const std::vector<NameRef>& list, const std::string& name) {
  for (size_t i = 0; i < list.size(); ++i) if (list[i].name == name) return i;
  return list.size();
}

}  // namespace

Semantics::Semantics(const SchedulingInput& input) : in_(input) {
  const Config& c = *in_.config;
  for (const auto& profile : c.profiles) {
    std::vector<uint32_t> pools;
    for (const auto& link : profile.links) {
      for (uint32_t x = 0; x < c.pools.size(); ++x) if (c.pools[x].name == link.pool) pools.push_back(x);
    }
    links_.push_back(pools);
  }
}

Quantity Semantics::Limit(uint32_t p) const {
  const auto& limit = in_.config->policies[p].limit;
  return limit ? *limit : Quantity::FromTicks(kNoLimit);
}

State Semantics::Initial() const {
  return InitialWithSpots(nullptr);
}

State Semantics::InitialWithSpots(std::vector<std::vector<uint32_t>>* spots) const {
  const Config& c = *in_.config;
  State s{std::vector<Quantity>(c.pools.size()), std::vector<Quantity>(c.policies.size()),
          std::vector<bool>(in_.queued.size(), false), {}};
  s.machine_held.resize(c.pools.size());
  for (size_t x = 0; x < c.pools.size(); ++x) {
    if (c.pools[x].nodes) s.machine_held[x].assign(static_cast<size_t>(c.pools[x].nodes->count), Quantity());
  }
  if (spots) spots->assign(in_.holdings.size(), {});
  for (const Holding& h : in_.holdings) {
    s.held[h.pool] += h.amount;
    if (h.policy) s.used[*h.policy] += h.amount;
  }
  // Named machines first, then the others in input order, by fit.
  for (size_t i = 0; i < in_.holdings.size(); ++i) {
    const Holding& h = in_.holdings[i];
    if (!c.pools[h.pool].nodes || h.machine >= s.machine_held[h.pool].size()) continue;
    s.machine_held[h.pool][h.machine] += h.amount;
    if (spots) (*spots)[i] = {h.machine};
  }
  for (size_t i = 0; i < in_.holdings.size(); ++i) {
    const Holding& h = in_.holdings[i];
    if (!c.pools[h.pool].nodes || h.machine != Holding::kBestFit) continue;
    std::vector<uint32_t> machines = Machines(s, h.pool, h.amount, /*ignore_free=*/true);
    const Quantity g = Quantity::Units(c.pools[h.pool].nodes->gpus);
    for (uint32_t m : machines) s.machine_held[h.pool][m] += machines.size() > 1 ? g : h.amount;
    if (spots) (*spots)[i] = machines;
  }
  return s;
}

Quantity Semantics::MachineFree(const State& s, uint32_t pool, uint32_t m) const {
  const Quantity g = Quantity::Units(in_.config->pools[pool].nodes->gpus);
  return Quantity::SaturatingSub(g, s.machine_held[pool][m]);
}

std::vector<uint32_t> Semantics::Machines(const State& s, uint32_t pool, Quantity need, bool ignore_free) const {
  const Pool& p = in_.config->pools[pool];
  if (!p.nodes) return {};
  if (!ignore_free && need > Free(s, pool)) return {};
  const Quantity g = Quantity::Units(p.nodes->gpus);
  const uint32_t count = static_cast<uint32_t>(p.nodes->count);
  if (need <= g) {
    std::optional<uint32_t> best;
    for (uint32_t m = 0; m < count; ++m) {
      const Quantity free = MachineFree(s, pool, m);
      if (free >= need && (!best || free < MachineFree(s, pool, *best))) best = m;
    }
    if (best) return {*best};
    return {};
  }
  if (need.ticks() % g.ticks() != 0) return {};
  std::vector<uint32_t> whole;
  for (uint32_t m = 0; m < count; ++m) {
    if (s.machine_held[pool][m].is_zero()) whole.push_back(m);
  }
  const size_t k = static_cast<size_t>(need.ticks() / g.ticks());
  if (whole.size() < k) return {};
  whole.resize(k);
  return whole;
}

bool Semantics::Fits(const State& s, uint32_t pool, Quantity need) const {
  if (need > Free(s, pool)) return false;
  return !in_.config->pools[pool].nodes || !Machines(s, pool, need).empty();
}

std::vector<uint32_t> Semantics::Take(State& s, uint32_t pool, Quantity need) const {
  std::vector<uint32_t> machines = Machines(s, pool, need);
  s.held[pool] += need;
  if (machines.size() == 1) s.machine_held[pool][machines[0]] += need;
  if (machines.size() > 1) {
    for (uint32_t m : machines) s.machine_held[pool][m] += Quantity::Units(in_.config->pools[pool].nodes->gpus);
  }
  return machines;
}

Quantity Semantics::Free(const State& s, uint32_t pool) const {
  if (in_.config->pools[pool].paused) return Quantity();  // a drained pool has no room
  return Quantity::SaturatingSub(in_.config->pools[pool].resources, s.held[pool]);
}

bool Semantics::Paused(uint32_t job) const {
  const QueuedJob& j = in_.queued[job];
  if (in_.config->policies[j.policy].paused) return true;
  for (uint32_t x : links_[j.profile]) {
    if (!in_.config->pools[x].paused) return false;
  }
  return true;
}

bool Semantics::Schedulable(uint32_t job) const {
  const QueuedJob& j = in_.queued[job];
  if (Paused(job)) return false;
  bool fits_some_pool = false;
  for (uint32_t x : links_[j.profile]) {
    const Pool& pool = in_.config->pools[x];
    bool fits = j.need <= pool.resources;
    if (pool.nodes) {
      // An empty pool of machines: one machine, or whole machines it has.
      const Quantity g = Quantity::Units(pool.nodes->gpus);
      fits = fits && (j.need <= g || j.need.ticks() % g.ticks() == 0);
    }
    fits_some_pool |= fits;
  }
  return fits_some_pool && j.need <= Limit(j.policy);
}

uint32_t Semantics::QueueHead(const State& s, uint32_t job) const {
  const QueuedJob& j = in_.queued[job];
  uint32_t head = job;
  for (uint32_t k = 0; k < in_.queued.size(); ++k) {
    const QueuedJob& o = in_.queued[k];
    if (s.decided[k] || !Schedulable(k) || o.policy != j.policy || o.profile != j.profile) continue;
    if (o.queue_order < in_.queued[head].queue_order) head = k;
  }
  return head;
}

/// Reservation capacity of every policy but `excluded`, straight from the
/// definitions: room, protected jobs, outstanding reservation, reach.
Quantity Semantics::ReservationCapacity(const State& s, uint32_t excluded) const {
  const Config& c = *in_.config;
  const int P = static_cast<int>(c.policies.size()), X = static_cast<int>(c.pools.size());
  const int source = 0, sink = 1 + P + X;
  std::vector<std::vector<Ticks>> cap(sink + 1, std::vector<Ticks>(sink + 1, 0));
  for (int x = 0; x < X; ++x) cap[1 + P + x][sink] = Free(s, x).ticks();
  for (int q = 0; q < P; ++q) {
    if (static_cast<uint32_t>(q) == excluded) continue;
    Quantity cover = std::min(c.policies[q].reserved, Limit(q));
    Quantity room = Quantity::SaturatingSub(cover, s.used[q]);
    // Protected jobs, queue by queue (StrictFIFO: only the leading ones).
    std::vector<uint32_t> protected_jobs;
    for (uint32_t r = 0; r < c.profiles.size(); ++r) {
      std::vector<uint32_t> queue;
      for (uint32_t k = 0; k < in_.queued.size(); ++k) {
        const QueuedJob& o = in_.queued[k];
        if (!s.decided[k] && Schedulable(k) && o.policy == static_cast<uint32_t>(q) && o.profile == r) queue.push_back(k);
      }
      std::sort(queue.begin(), queue.end(),
                [&](uint32_t a, uint32_t b) { return in_.queued[a].queue_order < in_.queued[b].queue_order; });
      for (uint32_t k : queue) {
        if (in_.queued[k].need <= room) {
          protected_jobs.push_back(k);
        } else if (c.profiles[r].queueing == Queueing::kStrictFIFO) {
          break;
        }
      }
    }
    Quantity total;
    for (uint32_t k : protected_jobs) total += in_.queued[k].need;
    cap[source][1 + q] = std::min(room, total).ticks();
    for (int x = 0; x < X; ++x) {
      for (uint32_t k : protected_jobs) {
        const auto& l = links_[in_.queued[k].profile];
        if (std::find(l.begin(), l.end(), static_cast<uint32_t>(x)) != l.end() && Fits(s, x, in_.queued[k].need)) {
          cap[1 + q][1 + P + x] = kNoLimit;
        }
      }
    }
  }
  return Quantity::FromTicks(MaxFlowDense(cap, source, sink));
}

bool Semantics::ReservationRefuses(const State& s, uint32_t job, uint32_t pool) const {
  const QueuedJob& j = in_.queued[job];
  if (s.used[j.policy] + j.need <= in_.config->policies[j.policy].reserved) return false;
  State after = s;
  Take(after, pool, j.need);
  after.used[j.policy] += j.need;
  after.decided[job] = true;
  return ReservationCapacity(after, j.policy) < ReservationCapacity(s, j.policy);
}

bool Semantics::Admissible(const State& s, uint32_t job, uint32_t pool) const {
  const QueuedJob& j = in_.queued[job];
  if (!Fits(s, pool, j.need)) return false;
  if (s.used[j.policy] + j.need > Limit(j.policy)) return false;
  return !ReservationRefuses(s, job, pool);
}

std::optional<uint32_t> Semantics::TargetLink(const State& s, uint32_t job) const {
  const QueuedJob& j = in_.queued[job];
  if (s.decided[job] || !Schedulable(job)) return std::nullopt;
  if (in_.config->profiles[j.profile].queueing == Queueing::kStrictFIFO && QueueHead(s, job) != job) return std::nullopt;
  for (uint32_t i = 0; i < links_[j.profile].size(); ++i) {
    if (Admissible(s, job, links_[j.profile][i])) return i;
  }
  return std::nullopt;
}

SchedulingResult Schedule(const SchedulingInput& in) {
  const Config& c = *in.config;
  Semantics sem(in);
  std::vector<std::vector<uint32_t>> spots;
  State s = sem.InitialWithSpots(&spots);
  SchedulingResult result;
  for (size_t i = 0; i < spots.size(); ++i) {
    result.holding_machine.push_back(spots[i].empty() ? Placement::kNoMachine : spots[i][0]);
    if (spots[i].size() > 1) result.holding_spans.push_back({static_cast<uint32_t>(i), spots[i]});
  }
  while (c.enabled) {
    std::optional<std::tuple<size_t, size_t, uint32_t, uint32_t>> best_key;
    uint32_t best_job = 0, best_link = 0;
    for (uint32_t k = 0; k < in.queued.size(); ++k) {
      auto link = sem.TargetLink(s, k);
      if (!link) continue;
      const QueuedJob& j = in.queued[k];
      const Pool& pool = c.pools[sem.Links(j.profile)[*link]];
      const Profile& profile = c.profiles[j.profile];
      auto key = std::make_tuple(IndexOf(*pool.execution_priority, profile.name),
                                 IndexOf(*profile.policy_priority, c.policies[j.policy].name), j.queue_order, j.position);
      if (!best_key || key < *best_key) {
        best_key = key;
        best_job = k;
        best_link = *link;
      }
    }
    if (!best_key) break;
    const QueuedJob& j = in.queued[best_job];
    uint32_t pool = sem.Links(j.profile)[best_link];
    std::vector<uint32_t> machines = sem.Take(s, pool, j.need);
    s.used[j.policy] += j.need;
    s.decided[best_job] = true;
    result.placements.push_back({best_job, pool, best_link, machines.empty() ? Placement::kNoMachine : machines[0]});
    if (machines.size() > 1) result.job_spans.push_back({best_job, machines});
  }
  // Pending reasons on the final state, first match.
  std::vector<uint32_t> waiting;
  for (uint32_t k = 0; k < in.queued.size(); ++k) if (!s.decided[k]) waiting.push_back(k);
  std::sort(waiting.begin(), waiting.end(),
            [&](uint32_t a, uint32_t b) { return in.queued[a].queue_order < in.queued[b].queue_order; });
  for (uint32_t k : waiting) {
    const QueuedJob& j = in.queued[k];
    PendingReason reason = PendingReason::kCapacity;
    if (!c.enabled) {
      reason = PendingReason::kDisabled;
    } else if (sem.Paused(k)) {
      reason = PendingReason::kPaused;
    } else if (!sem.Schedulable(k)) {
      reason = PendingReason::kUnschedulable;
    } else if (c.profiles[j.profile].queueing == Queueing::kStrictFIFO && sem.QueueHead(s, k) != k) {
      reason = PendingReason::kFifoBlocked;
    } else if (s.used[j.policy] + j.need > sem.Limit(j.policy)) {
      reason = PendingReason::kLimit;
    } else {
      for (uint32_t x : sem.Links(j.profile)) {
        if (sem.Fits(s, x, j.need) && sem.ReservationRefuses(s, k, x)) reason = PendingReason::kReservation;
      }
      if (reason != PendingReason::kReservation) {
        for (uint32_t x : sem.Links(j.profile)) {
          if (!c.pools[x].paused && sem.Free(s, x) >= j.need && !sem.Fits(s, x, j.need)) {
            reason = PendingReason::kFragmented;
          }
        }
      }
    }
    result.pending.push_back({k, reason, 0, std::nullopt});
  }
  std::sort(result.job_spans.begin(), result.job_spans.end());
  result.pool_in_use = s.held;
  result.policy_used = s.used;
  result.machine_free.resize(c.pools.size());
  for (uint32_t x = 0; x < c.pools.size(); ++x) {
    for (uint32_t m = 0; m < s.machine_held[x].size(); ++m) result.machine_free[x].push_back(sem.MachineFree(s, x, m));
  }
  return result;
}

}  // namespace rescfg::reference
