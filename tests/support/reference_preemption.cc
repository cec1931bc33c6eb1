#include "support/reference_preemption.h"

#include <algorithm>
#include <tuple>

#include "support/reference_scheduler.h"

namespace rescfg::reference {
namespace {

struct World {
  const SchedulingInput& in;
  const Config& config;
  Semantics sem;
  std::vector<std::vector<uint32_t>> spots;  ///< per holding: its machines
};

/// Gives back what holding i holds in its pool (and on its machines).
void Release(const World& w, State& s, uint32_t i) {
  const Holding& h = w.in.holdings[i];
  s.held[*h.pool] -= h.amount;
  const auto& machines = w.spots[i];
  for (uint32_t m : machines) {
    s.machine_held[*h.pool][m] -= machines.size() > 1 ? Quantity::Units(w.config.pools[*h.pool].nodes->gpus) : h.amount;
  }
}
void Hold(const World& w, State& s, uint32_t i) {
  const Holding& h = w.in.holdings[i];
  s.held[*h.pool] += h.amount;
  const auto& machines = w.spots[i];
  for (uint32_t m : machines) {
    s.machine_held[*h.pool][m] += machines.size() > 1 ? Quantity::Units(w.config.pools[*h.pool].nodes->gpus) : h.amount;
  }
}

/// The rank of a profile in a pool's execution priority (no profile: after every one).
int64_t ExecRank(const World& w, uint32_t pool, uint32_t i) {
  const auto& profiles = w.in.holding_profile;
  if (i >= profiles.size() || profiles[i] == SchedulingInput::kNoProfile) return int64_t(w.config.profiles.size());
  const std::string& name = w.config.profiles[profiles[i]].name;
  const auto& order = w.config.pools[pool].execution_priority;
  if (!order) return profiles[i];
  for (size_t k = 0; k < order->size(); ++k) {
    if ((*order)[k].name == name) return int64_t(k);
  }
  return int64_t(w.config.profiles.size());
}

/// "Before" in the candidate order of the rules, judged on state s.
bool Before(const World& w, const State& s, uint32_t pool, uint32_t a, uint32_t b) {
  auto key = [&](uint32_t i) {
    const Holding& h = w.in.holdings[i];
    const Quantity excess = h.policy ? s.used[*h.policy] - w.config.policies[*h.policy].reserved : Quantity();
    const uint32_t id = i < w.in.holding_id_rank.size() ? w.in.holding_id_rank[i] : i;
    const bool unknown = h.started_us == kUnknownTime;
    // Larger excess first; the least favoured profile first; the later start first (unknown:
    // oldest, last); the smaller holding; the id.
    return std::make_tuple(Quantity() - excess, -ExecRank(w, pool, i), unknown, unknown ? 0 : -h.started_us, h.amount, id);
  };
  return key(a) < key(b);
}

bool Waited(const SchedulingInput& in, const QueuedJob& j) {
  const int64_t delay = in.config->preemption->delay_us;
  if (j.enqueued_us == kUnknownTime || in.now_us == kUnknownTime) return delay == 0;
  return in.now_us - j.enqueued_us >= delay;
}

Quantity Ceiling(const Config& c, uint32_t policy, const Semantics& sem) {
  return std::min(c.policies[policy].reserved, sem.Limit(policy));
}

}  // namespace

bool Eligible(const SchedulingInput& in, uint32_t i) {
  const Holding& h = in.holdings[i];
  if (!h.pool || h.handed_over || h.stopping || !h.policy) return false;
  if (!in.config->policies[*h.policy].preemptible) return false;
  const int64_t min_runtime = in.config->preemption->min_runtime_us;
  if (h.started_us == kUnknownTime || in.now_us == kUnknownTime) return min_runtime == 0;
  return in.now_us - h.started_us >= min_runtime;
}

std::vector<Preemption> Preempt(const SchedulingInput& in, const SchedulingResult& pass) {
  std::vector<Preemption> decisions;
  const Config& c = *in.config;
  if (!c.preemption || !c.enabled) return decisions;
  World w{in, c, Semantics(in), {}};
  State s = w.sem.InitialWithSpots(&w.spots);
  for (const Placement& p : pass.placements) {
    s.used[in.queued[p.job].policy] += in.queued[p.job].need;
    w.sem.Take(s, p.pool, in.queued[p.job].need);
  }
  // A stopping job counts no more in its policy's usage.
  for (const Holding& h : in.holdings) {
    if (h.stopping && h.policy) s.used[*h.policy] -= h.amount;
  }
  std::vector<bool> gone(in.holdings.size(), false);  // victims taken and stopping jobs promised
  std::vector<uint32_t> preemptors;
  for (const PendingJob& p : pass.pending) {
    const QueuedJob& j = in.queued[p.job];
    if (p.reason != PendingReason::kCapacity && p.reason != PendingReason::kFragmented) continue;
    if (c.policies[j.policy].paused) continue;
    if (s.used[j.policy] + j.need > Ceiling(c, j.policy, w.sem)) continue;
    if (!Waited(in, j)) continue;
    preemptors.push_back(p.job);
  }
  std::stable_sort(preemptors.begin(), preemptors.end(), [&](uint32_t a, uint32_t b) {
    auto key = [&](uint32_t k) {
      const QueuedJob& j = in.queued[k];
      const bool unknown = j.enqueued_us == kUnknownTime || in.now_us == kUnknownTime;
      return std::make_tuple(unknown, unknown ? 0 : j.enqueued_us, j.position);
    };
    return key(a) < key(b);
  });
  for (uint32_t job : preemptors) {
    const QueuedJob& j = in.queued[job];
    if (s.used[j.policy] + j.need > Ceiling(c, j.policy, w.sem)) continue;
    for (uint32_t x : w.sem.Links(j.profile)) {
      if (c.pools[x].paused) continue;
      State t = s;
      std::vector<uint32_t> stopping;
      for (uint32_t i = 0; i < in.holdings.size(); ++i) {
        if (in.holdings[i].pool == x && in.holdings[i].stopping && !gone[i]) stopping.push_back(i);
      }
      std::sort(stopping.begin(), stopping.end(), [&](uint32_t a, uint32_t b) { return Before(w, t, x, a, b); });
      std::vector<uint32_t> awaited, victims;
      for (uint32_t i : stopping) {
        if (w.sem.Fits(t, x, j.need)) break;
        Release(w, t, i);
        awaited.push_back(i);
      }
      if (awaited.empty() && w.sem.Fits(t, x, j.need)) continue;
      std::vector<bool> looked(in.holdings.size(), false);
      while (!w.sem.Fits(t, x, j.need)) {
        std::optional<uint32_t> best;
        for (uint32_t i = 0; i < in.holdings.size(); ++i) {
          const Holding& h = in.holdings[i];
          if (h.pool != x || gone[i] || looked[i] || !Eligible(in, i) || *h.policy == j.policy) continue;
          if (!best || Before(w, t, x, i, *best)) best = i;
        }
        if (!best) break;
        looked[*best] = true;
        const Holding& h = in.holdings[*best];
        if (t.used[*h.policy] - h.amount < c.policies[*h.policy].reserved) continue;
        Release(w, t, *best);
        t.used[*h.policy] -= h.amount;
        victims.push_back(*best);
      }
      if (!w.sem.Fits(t, x, j.need)) continue;
      for (size_t k = victims.size(); k-- > 1;) {
        const uint32_t i = victims[k - 1];
        Hold(w, t, i);
        t.used[*in.holdings[i].policy] += in.holdings[i].amount;
        if (w.sem.Fits(t, x, j.need)) {
          victims.erase(victims.begin() + static_cast<std::ptrdiff_t>(k - 1));
        } else {
          Release(w, t, i);
          t.used[*in.holdings[i].policy] -= in.holdings[i].amount;
        }
      }
      for (uint32_t i : victims) gone[i] = true;
      for (uint32_t i : awaited) gone[i] = true;
      t.used[j.policy] += j.need;
      w.sem.Take(t, x, j.need);
      s = std::move(t);
      decisions.push_back({job, x, victims, awaited});
      break;
    }
  }
  return decisions;
}

}  // namespace rescfg::reference
