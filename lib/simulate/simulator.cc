#include "simulate/simulator.h"

#include <algorithm>
#include <memory>
#include <queue>
#include <stdexcept>

#include "schedule/incremental_pass.h"
#include "simulate/sim_preemption.h"

namespace rescfg {
namespace {

/// The last instant RFC 3339 can write: 9999-12-31T23:59:59.999999Z. A job
/// that would finish later runs past the end.
constexpr Micros kLastTime = 253402300799LL * kMicrosPerSecond + 999999;

struct Finish {
  Micros time;
  uint32_t index;  ///< a queued job, or a holding
  bool holding;
  /// Later first, for a min-heap; ties by kind and index (no effect on the
  /// state: every release of an event happens before its pass).
  bool operator<(const Finish& o) const {
    if (time != o.time) return time > o.time;
    if (holding != o.holding) return holding < o.holding;
    return index > o.index;
  }
};

std::optional<Micros> FinishTime(Micros start, Micros duration) {
  if (duration > kLastTime - start) return std::nullopt;
  return start + duration;
}

/// A finish of a run that preemption stopped is stale (the job stopped, or runs again).
bool Stale(const Finish& f, const SimulationInput& in, const SimulationResult& r) {
  return !f.holding && (!r.started[f.index] || r.finished[f.index] || *r.started[f.index] + in.duration[f.index] != f.time);
}

/// Every run that finishes by `t` releases what it held.
void FinishDue(Micros t, const SimulationInput& in, SimPreemption* preempt, IncrementalPass& pass,
               std::priority_queue<Finish>* finishes, std::vector<Quantity>* held, SimulationResult* r) {
  while (!finishes->empty() && finishes->top().time <= t) {
    const Finish f = finishes->top();
    finishes->pop();
    if (Stale(f, in, *r)) continue;
    if (f.holding) {
      const Holding& h = in.holdings[f.index];
      if (preempt) {
        preempt->FinishHolding(pass, f.index);
      } else {
        pass.ReleaseHolding(f.index);
      }
      if (h.pool) (*held)[*h.pool] -= h.amount;
      r->holding_finished[f.index] = f.time;
    } else {
      const QueuedJob& j = in.queued[f.index];
      const uint32_t pool = r->placement[f.index].pool;
      if (preempt) {
        preempt->FinishJob(pass, f.index);
      } else {
        pass.ReleaseJob(f.index, pool);
      }
      (*held)[pool] -= j.need;
      r->finished[f.index] = f.time;
    }
  }
}

}  // namespace

SimulationResult Simulate(const SimulationInput& in, const SimulationProgress& progress) {
  const size_t n = in.queued.size();
  SimulationResult r;
  r.started.assign(n, std::nullopt);
  r.placement.assign(n, {});
  r.joined.assign(n, false);
  r.finished.assign(n, std::nullopt);
  r.holding_finished.assign(in.holdings.size(), std::nullopt);
  std::vector<Quantity> held(in.config->pools.size());
  for (const Holding& h : in.holdings) {
    if (h.pool) held[*h.pool] += h.amount;
  }
  r.peak_in_use = held;

  // Jobs in queue order: by submitted time, then file position.
  std::vector<uint32_t> order(n);
  for (uint32_t k = 0; k < n; ++k) order[in.queued[k].queue_order] = k;

  std::optional<Micros> first = in.start;
  if (!first && n > 0) first = in.submitted[order[0]];
  r.start = first;
  size_t next = 0;  // the next job in queue order to join
  while (first && next < n && in.submitted[order[next]] <= *first) r.joined[order[next++]] = true;
  const std::vector<uint32_t> initial(order.begin(), order.begin() + static_cast<long>(next));
  // With preemption (rescfg-scheduling(7), PREEMPTION) victims go back to the same pass.
  std::unique_ptr<SimPreemption> preempt;
  if (SimPreemption::Applies(*in.config)) {
    preempt = std::make_unique<SimPreemption>(in, &r);
    for (uint32_t k : initial) preempt->Joined(k);
  }
  auto pass = std::make_unique<IncrementalPass>(*in.config, preempt ? preempt->queued() : in.queued, in.holdings,
                                                &initial);
  auto add_stats = [&] { pass->AddStats(&r.stats); };
  std::vector<Placement> placed;
  if (!first) {
    pass->Run(&placed);  // nothing to place: only what runs is reported
    pass->Explain(&r.final);
    add_stats();
    return r;
  }

  std::priority_queue<Finish> finishes;
  // Without queued jobs the trace starts and ends at the start (rescfg-scheduling(7), THE SIMULATION CLOCK):
  // nothing that runs finishes.
  if (n > 0) {
    for (uint32_t i = 0; i < in.holdings.size(); ++i) {
      if (!in.remaining[i]) continue;
      if (auto at = FinishTime(*first, *in.remaining[i])) finishes.push({*at, i, true});
    }
  }
  Micros t = *first;
  const bool bounded = in.until.has_value();
  if (bounded && *in.until < t) {  // callers refuse this; nothing happens
    r.end = t;
    pass->Explain(&r.final);
    add_stats();
    return r;
  }
  auto stale = [&](const Finish& f) { return Stale(f, in, r); };
  // Each round that goes on stops a job not stopped before at this instant.
  const uint64_t max_rounds = uint64_t(n) + 2;
  for (;;) {
    FinishDue(t, in, preempt.get(), *pass, &finishes, &held, &r);
    while (next < n && in.submitted[order[next]] <= t) {
      pass->Join(order[next]);
      if (preempt) preempt->Joined(order[next]);
      r.joined[order[next++]] = true;
    }
    for (uint64_t round = 1;; ++round) {
      placed.clear();
      pass->Run(&placed);
      for (const Placement& p : placed) {
        r.started[p.job] = t;
        r.placement[p.job] = p;
        r.placement_order.push_back(p.job);
        held[p.pool] += in.queued[p.job].need;
        r.peak_in_use[p.pool] = std::max(r.peak_in_use[p.pool], held[p.pool]);
        if (auto at = FinishTime(t, in.duration[p.job])) finishes.push({*at, p.job, false});
        if (preempt) preempt->Started(p.job, p, t);
      }
      r.preemption_rounds = std::max(r.preemption_rounds, round);
      if (!preempt || !preempt->Decide(t, *pass, &held)) break;
      if (round == max_rounds) {
        throw std::logic_error("internal error: preemption did not settle at " + FormatSimTime(t) + " after " +
                               std::to_string(round) + " rounds (please report this with the trace)");
      }
    }
    ++r.events;
    if (progress && r.events % 4096 == 0) progress(r.events, t);

    while (!finishes.empty() && stale(finishes.top())) finishes.pop();
    std::optional<Micros> next_time;
    if (next < n) next_time = in.submitted[order[next]];
    if (!finishes.empty() && (!next_time || finishes.top().time < *next_time)) next_time = finishes.top().time;
    if (!next_time || n == 0) {
      r.end = t;
      break;
    }
    if (bounded && *next_time > *in.until) {
      r.end = *in.until;
      break;
    }
    t = *next_time;
  }
  pass->Explain(&r.final);
  add_stats();
  if (preempt) r.preemption_stats = preempt->stats();
  return r;
}

}  // namespace rescfg
