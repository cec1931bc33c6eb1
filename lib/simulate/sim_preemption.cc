#include "simulate/sim_preemption.h"

#include <algorithm>

#include "schedule/pass_state.h"

namespace rescfg {

SimPreemption::SimPreemption(const SimulationInput& in, SimulationResult* result)
    : in_(in), r_(*result), ctx_(*in.config) {
  const size_t n = in.queued.size();
  input_.config = in.config;
  input_.queued = in.queued;
  for (size_t k = 0; k < n; ++k) input_.queued[k].enqueued_us = in.submitted[k];  // waits from `submitted`
  used_.assign(ctx_.policy_count, Quantity());
  pending_.resize(ctx_.policy_count);
  needs_.resize(ctx_.policy_count);
  for (uint32_t p = 0; p < ctx_.policy_count; ++p) {
    if (ctx_.reserved[p] > Quantity() && !ctx_.policy_paused[p]) reserving_.push_back(p);
  }
  running_at_.assign(n, kNone);
  stopped_at_.assign(n, INT64_MIN);
  original_runs_.assign(in.holdings.size(), true);
  original_machine_.resize(in.holdings.size());
  // Where the originals hold at the outset, as the first pass puts them.
  const PassState initial = PassState::Initial(ctx_, in.holdings);
  for (uint32_t i = 0; i < in.holdings.size(); ++i) {
    const Holding& h = in.holdings[i];
    if (h.policy) Use(*h.policy, h.amount, true);
    original_machine_[i] = h.machine;
    if (!h.pool || !initial.machines[*h.pool].has_nodes() || h.machine != Holding::kBestFit) continue;
    const MachineSpot& spot = initial.holding_spots[i];
    original_machine_[i] = spot.first == MachineSpot::kNone ? Holding::kPoolOnly
                           : spot.more.empty()               ? spot.first
                                                             : Holding::kBestFit;
  }
  r_.preemption = true;
  r_.preempted.assign(n, 0);
}

void SimPreemption::Use(uint32_t policy, Quantity amount, bool add) {
  const bool preemptible = in_.config->policies[policy].preemptible;
  const bool over_before = used_[policy] > ctx_.reserved[policy];
  if (add) {
    used_[policy] += amount;
  } else {
    used_[policy] -= amount;
  }
  const bool over_after = used_[policy] > ctx_.reserved[policy];
  if (preemptible && over_before != over_after) over_ = over_after ? over_ + 1 : over_ - 1;
}

void SimPreemption::AddPending(uint32_t job) {
  const QueuedJob& j = input_.queued[job];
  pending_[j.policy].insert({j.queue_order, job});
  if (ctx_.Schedulable(j.policy, j.profile, j.need)) needs_[j.policy].insert(j.need);
}

void SimPreemption::RemovePending(uint32_t job) {
  const QueuedJob& j = input_.queued[job];
  pending_[j.policy].erase({j.queue_order, job});
  auto it = needs_[j.policy].find(j.need);
  if (it != needs_[j.policy].end()) needs_[j.policy].erase(it);
}

void SimPreemption::RemoveRunning(uint32_t job) {
  const uint32_t at = running_at_[job];
  running_[at] = running_.back();
  running_at_[running_[at]] = at;
  running_.pop_back();
  running_at_[job] = kNone;
  Use(input_.queued[job].policy, input_.queued[job].need, false);
}

void SimPreemption::Joined(uint32_t job) { AddPending(job); }

void SimPreemption::Started(uint32_t job, const Placement&, Micros) {
  RemovePending(job);
  running_at_[job] = static_cast<uint32_t>(running_.size());
  running_.push_back(job);
  Use(input_.queued[job].policy, input_.queued[job].need, true);
}

void SimPreemption::FinishJob(IncrementalPass& pass, uint32_t job) {
  pass.ReleaseJob(job, r_.placement[job].pool);
  RemoveRunning(job);
}

void SimPreemption::FinishHolding(IncrementalPass& pass, uint32_t index) {
  pass.ReleaseHolding(index);
  original_runs_[index] = false;
  const Holding& h = in_.holdings[index];
  if (h.policy) Use(*h.policy, h.amount, false);
}

/// The queued jobs that can preempt at t (rescfg-scheduling(7), PREEMPTION): pending after the
/// pass, of a policy that is not paused, within its reservation, waited at least `delay`, and
/// in a StrictFIFO queue its first pending job. Such a job is pending for `capacity` or
/// `fragmented`: within its own reservation only room can hold it back.
std::vector<uint32_t> SimPreemption::Preemptors(Micros t) const {
  std::vector<uint32_t> found;
  const int64_t delay = in_.config->preemption->delay_us;
  std::vector<uint32_t> strict_seen;
  for (uint32_t p : reserving_) {
    const Quantity cover = std::min(ctx_.reserved[p], ctx_.limit[p]);
    if (used_[p] >= cover || needs_[p].empty() || *needs_[p].begin() > cover - used_[p]) continue;
    const Quantity room = cover - used_[p];
    strict_seen.clear();
    for (const auto& [order, k] : pending_[p]) {
      if (in_.submitted[k] > t - delay) break;  // queue order is by submitted: the rest waited less
      const QueuedJob& j = input_.queued[k];
      if (!ctx_.Schedulable(p, j.profile, j.need)) continue;
      if (ctx_.strict_fifo[j.profile]) {
        if (std::find(strict_seen.begin(), strict_seen.end(), j.profile) != strict_seen.end()) continue;
        strict_seen.push_back(j.profile);
      }
      if (j.need <= room) found.push_back(k);
    }
  }
  return found;
}

void SimPreemption::BuildHoldings(Micros t) {
  input_.holdings.clear();
  input_.holding_profile.clear();
  input_.holding_id_rank.clear();
  owner_.clear();
  origin_.clear();
  for (uint32_t i = 0; i < in_.holdings.size(); ++i) {
    if (!original_runs_[i]) continue;
    Holding h = in_.holdings[i];
    h.machine = original_machine_[i];
    h.handed_over = true;  // never a victim in a simulation
    input_.holdings.push_back(h);
    input_.holding_profile.push_back(SchedulingInput::kNoProfile);
    input_.holding_id_rank.push_back(0);
    owner_.push_back(kNone);
    origin_.push_back(i);
  }
  std::vector<uint32_t> jobs = running_;
  std::sort(jobs.begin(), jobs.end());
  for (uint32_t k : jobs) {
    const QueuedJob& j = input_.queued[k];
    const Placement& p = r_.placement[k];
    Holding h;
    h.pool = p.pool;
    h.policy = j.policy;
    h.amount = j.need;
    h.started_us = *r_.started[k];
    // Stopped once at this instant and placed again by the pass: not a victim again now, so
    // that the rounds at one instant end (each stops a job not stopped before).
    h.handed_over = stopped_at_[k] == t;
    const auto& nodes = in_.config->pools[p.pool].nodes;
    if (nodes) h.machine = j.need > Quantity::Units(nodes->gpus) ? Holding::kBestFit : p.machine;
    input_.holdings.push_back(h);
    input_.holding_profile.push_back(j.profile);
    input_.holding_id_rank.push_back(k < in_.id_rank.size() ? in_.id_rank[k] : k);
    owner_.push_back(k);
    origin_.push_back(kNone);
  }
  input_.now_us = t;
}

bool SimPreemption::Decide(Micros t, IncrementalPass& pass, std::vector<Quantity>* held) {
  const bool observed = static_cast<bool>(in_.observe_preemption);
  std::vector<uint32_t> preemptors;
  if (over_ > 0) preemptors = Preemptors(t);  // none above its reservation: no victim anywhere
  if (preemptors.empty() && !observed) return false;
  BuildHoldings(t);
  SchedulingResult decided;
  decided.messages.emplace_back();
  for (uint32_t k : preemptors) decided.pending.push_back({k, PendingReason::kCapacity, 0, std::nullopt});
  if (!preemptors.empty()) DecidePreemptions(input_, &decided, &stats_, &ctx_);
  if (observed) in_.observe_preemption(input_, Waiting(), decided);
  bool stopped = false;
  for (const Preemption& d : decided.preemptions) {
    for (uint32_t v : d.victims) {
      Stop(pass, owner_[v], d.job, t, held);
      stopped = true;
    }
  }
  return stopped;
}

/// The victim stops: the pass releases what it held and queues it again at its old place, as a
/// finish and an arrival would change it (no pass is built anew).
void SimPreemption::Stop(IncrementalPass& pass, uint32_t job, uint32_t preemptor, Micros t,
                         std::vector<Quantity>* held) {
  const uint32_t pool = r_.placement[job].pool;
  r_.lost.push_back({job, pool, preemptor, *r_.started[job], t});
  ++r_.preempted[job];
  stopped_at_[job] = t;
  (*held)[pool] -= input_.queued[job].need;
  pass.ReleaseJob(job, pool);
  RemoveRunning(job);
  r_.started[job].reset();
  r_.placement[job] = {};
  AddPending(job);
  pass.Requeue(job);
}

std::vector<uint32_t> SimPreemption::Waiting() const {
  std::vector<uint32_t> waiting;
  for (const auto& queue : pending_) {
    for (const auto& [order, k] : queue) waiting.push_back(k);
  }
  std::sort(waiting.begin(), waiting.end(),
            [&](uint32_t a, uint32_t b) { return input_.queued[a].queue_order < input_.queued[b].queue_order; });
  return waiting;
}

}  // namespace rescfg
