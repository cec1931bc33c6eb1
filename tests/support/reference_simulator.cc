#include "support/reference_simulator.h"

#include <algorithm>

#include "support/reference_scheduler.h"

namespace rescfg::reference {
namespace {

/// What runs: a holding from the start, or a job the simulation started.
struct Running {
  Holding holding;
  std::optional<Micros> finish;
  std::optional<uint32_t> job;      ///< the queued job, if it is one
  std::optional<uint32_t> initial;  ///< the holding, if it is one
};

constexpr Micros kLastTime = 253402300799LL * kMicrosPerSecond + 999999;

std::optional<Micros> Later(Micros t, Micros d) {
  if (d > kLastTime - t) return std::nullopt;
  return t + d;
}

}  // namespace

Simulation Simulate(const SimulationInput& in) {
  const size_t n = in.queued.size();
  Simulation sim;
  sim.jobs.resize(n);
  sim.holding_finished.assign(in.holdings.size(), std::nullopt);
  std::optional<Micros> t = in.start;
  for (size_t k = 0; k < n; ++k) {
    if (!in.start && (!t || in.submitted[k] < *t)) t = in.submitted[k];
  }
  sim.start = t;
  std::vector<Running> running;
  for (uint32_t i = 0; i < in.holdings.size(); ++i) {
    std::optional<Micros> finish;
    if (t && n > 0 && in.remaining[i]) finish = Later(*t, *in.remaining[i]);
    running.push_back({in.holdings[i], finish, std::nullopt, i});
  }
  // The state's queued jobs: joined and not started, in the scheduler's terms.
  auto waiting = [&] {
    std::vector<uint32_t> jobs;
    for (uint32_t k = 0; k < n; ++k) {
      if (sim.jobs[k].joined && !sim.jobs[k].started) jobs.push_back(k);
    }
    return jobs;
  };
  auto state = [&](const std::vector<uint32_t>& jobs) {
    SchedulingInput input;
    input.config = in.config;
    for (uint32_t k : jobs) input.queued.push_back(in.queued[k]);
    for (const Running& r : running) input.holdings.push_back(r.holding);
    return input;
  };
  if (!t) {
    return sim;
  }
  // Machines (rescfg-scheduling(7), THE PASS v3): running jobs keep the machines they were put
  // on at the start; a job of whole machines is one holding per machine.
  auto split = [&](const Running& r, const std::vector<uint32_t>& machines, std::vector<Running>* out) {
    if (!r.holding.pool || !in.config->pools[*r.holding.pool].nodes) {
      out->push_back(r);
      return;
    }
    if (machines.size() <= 1) {
      Running one = r;
      one.holding.machine = machines.empty() ? Holding::kPoolOnly : machines[0];
      out->push_back(one);
      return;
    }
    for (uint32_t m : machines) {
      Running part = r;
      part.holding.machine = m;
      part.holding.amount = Quantity::Units(in.config->pools[*r.holding.pool].nodes->gpus);
      out->push_back(part);
    }
  };
  {
    SchedulingInput input;
    input.config = in.config;
    for (const Running& r : running) input.holdings.push_back(r.holding);
    std::vector<std::vector<uint32_t>> spots;
    Semantics(input).InitialWithSpots(&spots);
    std::vector<Running> placed;
    for (size_t i = 0; i < running.size(); ++i) split(running[i], spots[i], &placed);
    running = placed;
  }
  while (true) {
    if (in.until && *t > *in.until) break;
    // Finishes, then arrivals, then the pass.
    std::vector<Running> still;
    for (const Running& r : running) {
      if (r.finish && *r.finish <= *t) {
        if (r.job) sim.jobs[*r.job].finished = r.finish;
        if (r.initial) sim.holding_finished[*r.initial] = r.finish;
      } else {
        still.push_back(r);
      }
    }
    running = still;
    for (uint32_t k = 0; k < n; ++k) {
      if (in.submitted[k] <= *t) sim.jobs[k].joined = true;
    }
    const std::vector<uint32_t> jobs = waiting();
    const SchedulingInput now = state(jobs);
    {
      // Does the reservation rule alone hold some job back as the pass begins?
      Semantics sem(now);
      const State st = sem.Initial();
      bool refused = false;
      for (uint32_t j = 0; j < now.queued.size() && !refused; ++j) {
        if (!sem.Schedulable(j)) continue;
        const QueuedJob& q = now.queued[j];
        for (uint32_t x : sem.Links(q.profile)) {
          refused = refused || (q.need <= sem.Free(st, x) && st.used[q.policy] + q.need <= sem.Limit(q.policy) &&
                                sem.ReservationRefuses(st, j, x));
        }
      }
      sim.reservation_refusals += refused;
    }
    SchedulingResult result = Schedule(now);
    for (const Placement& p : result.placements) {
      const uint32_t k = jobs[p.job];
      sim.jobs[k].started = *t;
      sim.jobs[k].pool = p.pool;
      sim.jobs[k].link = p.link;
      sim.placement_order.push_back(k);
      std::vector<uint32_t> machines;
      if (p.machine != Placement::kNoMachine) machines = {p.machine};
      for (const auto& [job, all] : result.job_spans) {
        if (job == p.job) machines = all;
      }
      split({{p.pool, in.queued[k].policy, in.queued[k].need}, Later(*t, in.duration[k]), k, std::nullopt}, machines,
            &running);
    }
    ++sim.events;
    sim.end = t;
    if (n == 0) break;
    // The next event: a submission or a finish after t.
    std::optional<Micros> next;
    for (uint32_t k = 0; k < n; ++k) {
      if (in.submitted[k] > *t && (!next || in.submitted[k] < *next)) next = in.submitted[k];
    }
    for (const Running& r : running) {
      if (r.finish && *r.finish > *t && (!next || *r.finish < *next)) next = r.finish;
    }
    if (!next) break;
    if (in.until && *next > *in.until) {
      sim.end = in.until;
      break;
    }
    t = next;
  }
  // Reasons on the final state.
  const std::vector<uint32_t> jobs = waiting();
  SchedulingResult final_pass = Schedule(state(jobs));
  for (const PendingJob& p : final_pass.pending) sim.jobs[jobs[p.job]].reason = p.reason;
  return sim;
}

}  // namespace rescfg::reference
