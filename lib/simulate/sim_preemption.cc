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
  // The slots: the originals as the first pass holds them (never victims), then the jobs.
  input_.holdings = in.holdings;
  for (Holding& h : input_.holdings) h.handed_over = true;
  Holding none;
  none.pool.reset();
  input_.holdings.resize(in.holdings.size() + n, none);
  input_.holding_profile.assign(in.holdings.size(), SchedulingInput::kNoProfile);
  input_.holding_id_rank.assign(in.holdings.size(), 0);
  for (uint32_t k = 0; k < n; ++k) {
    input_.holding_profile.push_back(in.queued[k].profile);
    input_.holding_id_rank.push_back(k < in.id_rank.size() ? in.id_rank[k] : k);
  }
  state_ = std::make_unique<PreemptionState>(ctx_, input_);
  // Where the originals hold at the outset, as the first pass puts them, for the observer.
  const PassState& initial = state_->state;
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
  state_->Release(Slot(job));
  Holding& h = input_.holdings[Slot(job)];
  h.pool.reset();
  h.policy.reset();
  const uint32_t at = running_at_[job];
  running_[at] = running_.back();
  running_at_[running_[at]] = at;
  running_.pop_back();
  running_at_[job] = kNone;
  Use(input_.queued[job].policy, input_.queued[job].need, false);
}

void SimPreemption::Joined(uint32_t job) { AddPending(job); }

void SimPreemption::Started(uint32_t job, const Placement& p, Micros t) {
  RemovePending(job);
  running_at_[job] = static_cast<uint32_t>(running_.size());
  running_.push_back(job);
  const QueuedJob& j = input_.queued[job];
  Use(j.policy, j.need, true);
  Holding& h = input_.holdings[Slot(job)];
  h = Holding();
  h.pool = p.pool;
  h.policy = j.policy;
  h.amount = j.need;
  h.started_us = t;
  // A job of several whole machines goes where a job of its need would: where the pass put it.
  const auto& nodes = in_.config->pools[p.pool].nodes;
  if (nodes && j.need <= Quantity::Units(nodes->gpus)) h.machine = p.machine;
  state_->Hold(Slot(job));
  if (!in_.config->policies[j.policy].preemptible) return;
  // Stopped at this instant and placed again: no victim again before the next instant, so that
  // the rounds at one instant end.
  const Micros min_runtime = in_.config->preemption->min_runtime_us;
  const Micros ripe = min_runtime == 0 && stopped_at_[job] == t ? t + 1 : t + min_runtime;
  ripening_.push({ripe, Slot(job), t});
}

void SimPreemption::FinishJob(IncrementalPass& pass, uint32_t job) {
  pass.ReleaseJob(job, r_.placement[job].pool);
  RemoveRunning(job);
}

void SimPreemption::FinishHolding(IncrementalPass& pass, uint32_t index) {
  pass.ReleaseHolding(index);
  original_runs_[index] = false;
  state_->Release(index);
  input_.holdings[index].pool.reset();
  input_.holdings[index].policy.reset();
  const Holding& h = in_.holdings[index];
  if (h.policy) Use(*h.policy, h.amount, false);
}

void SimPreemption::Ripen(Micros t) {
  while (!ripening_.empty() && std::get<0>(ripening_.top()) <= t) {
    const auto [ripe, slot, start] = ripening_.top();
    ripening_.pop();
    const uint32_t job = slot - static_cast<uint32_t>(in_.holdings.size());
    if (running_at_[job] != kNone && input_.holdings[slot].started_us == start) state_->AddCandidate(slot);
  }
}

PreemptionStats SimPreemption::stats() const {
  PreemptionStats stats = stats_;
  stats.setup += state_->setup_work;
  return stats;
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

SchedulingInput SimPreemption::Compact(std::vector<uint32_t>* compact_of) const {
  SchedulingInput seen;
  seen.config = input_.config;
  seen.queued = input_.queued;
  seen.now_us = input_.now_us;
  compact_of->assign(input_.holdings.size(), kNone);
  auto add = [&](uint32_t slot, const Holding& h, uint32_t profile, uint32_t id_rank) {
    (*compact_of)[slot] = static_cast<uint32_t>(seen.holdings.size());
    seen.holdings.push_back(h);
    seen.holding_profile.push_back(profile);
    seen.holding_id_rank.push_back(id_rank);
  };
  for (uint32_t i = 0; i < in_.holdings.size(); ++i) {
    if (!original_runs_[i]) continue;
    Holding h = in_.holdings[i];
    h.machine = original_machine_[i];
    h.handed_over = true;  // never a victim in a simulation
    add(i, h, SchedulingInput::kNoProfile, 0);
  }
  std::vector<uint32_t> jobs = running_;
  std::sort(jobs.begin(), jobs.end());
  for (uint32_t k : jobs) {
    Holding h = input_.holdings[Slot(k)];
    const auto& nodes = in_.config->pools[*h.pool].nodes;
    if (nodes) h.machine = h.amount > Quantity::Units(nodes->gpus) ? Holding::kBestFit : r_.placement[k].machine;
    h.handed_over = stopped_at_[k] == input_.now_us;
    add(Slot(k), h, input_.holding_profile[Slot(k)], input_.holding_id_rank[Slot(k)]);
  }
  return seen;
}

bool SimPreemption::Decide(Micros t, IncrementalPass& pass, std::vector<Quantity>* held) {
  const bool observed = static_cast<bool>(in_.observe_preemption);
  std::vector<uint32_t> preemptors;
  if (over_ > 0) preemptors = Preemptors(t);  // none above its reservation: no victim anywhere
  if (preemptors.empty() && !observed) return false;
  input_.now_us = t;
  Ripen(t);
  SchedulingResult decided;
  decided.messages.emplace_back();
  for (uint32_t k : preemptors) decided.pending.push_back({k, PendingReason::kCapacity, 0, std::nullopt});
  if (!preemptors.empty()) DecidePreemptions(input_, &decided, *state_, &stats_, ctx_, true);
  if (observed) {
    std::vector<uint32_t> compact_of;
    const SchedulingInput seen = Compact(&compact_of);
    SchedulingResult told = decided;
    for (Preemption& d : told.preemptions) {
      for (uint32_t& v : d.victims) v = compact_of[v];
    }
    in_.observe_preemption(seen, Waiting(), told);
  }
  const uint32_t originals = static_cast<uint32_t>(in_.holdings.size());
  bool stopped = false;
  for (const Preemption& d : decided.preemptions) {
    for (uint32_t v : d.victims) {
      Stop(pass, v - originals, d.job, t, held);
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
