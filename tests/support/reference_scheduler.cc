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
  const Config& c = *in_.config;
  State s{std::vector<Quantity>(c.pools.size()), std::vector<Quantity>(c.policies.size()),
          std::vector<bool>(in_.queued.size(), false)};
  for (const Holding& h : in_.holdings) {
    if (h.pool) s.held[*h.pool] += h.amount;  // a running job whose pool cannot be told holds in none
    if (h.policy) s.used[*h.policy] += h.amount;
  }
  return s;
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
  for (uint32_t x : links_[j.profile]) fits_some_pool |= j.need <= in_.config->pools[x].resources;
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
        if (std::find(l.begin(), l.end(), static_cast<uint32_t>(x)) != l.end() && in_.queued[k].need <= Free(s, x)) {
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
  after.held[pool] += j.need;
  after.used[j.policy] += j.need;
  after.decided[job] = true;
  return ReservationCapacity(after, j.policy) < ReservationCapacity(s, j.policy);
}

bool Semantics::Admissible(const State& s, uint32_t job, uint32_t pool) const {
  const QueuedJob& j = in_.queued[job];
  if (j.need > Free(s, pool)) return false;
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
  State s = sem.Initial();
  SchedulingResult result;
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
    s.held[pool] += j.need;
    s.used[j.policy] += j.need;
    s.decided[best_job] = true;
    result.placements.push_back({best_job, pool, best_link});
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
        if (j.need <= sem.Free(s, x) && sem.ReservationRefuses(s, k, x)) reason = PendingReason::kReservation;
      }
    }
    result.pending.push_back({k, reason, 0, std::nullopt});
  }
  result.pool_in_use = s.held;
  result.policy_used = s.used;
  return result;
}

}  // namespace rescfg::reference
