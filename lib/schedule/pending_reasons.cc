#include "schedule/pending_reasons.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "config/human_amount.h"
#include "schedule/admission.h"

namespace rescfg {
namespace {

std::string Amount(Quantity q) { return HumanAmount(q); }

class Explainer {
 public:
  Explainer(const ScheduleContext& ctx, const PassState& state, ReservationBook& book, SchedulingResult* result)
      : ctx_(ctx), state_(state), book_(book), result_(result) {}

  uint32_t Message(std::string text) {
    auto [it, inserted] = message_index_.emplace(text, static_cast<uint32_t>(result_->messages.size()));
    if (inserted) result_->messages.push_back(std::move(text));
    return it->second;
  }

  PendingJob Disabled(uint32_t job) {
    return {job, PendingReason::kDisabled, Message("resource management is disabled (enabled: false)"), {}};
  }

  PendingJob Unschedulable(const QueuedJob& j, uint32_t job) {
    const auto& policy = ctx_.config.policies[j.policy];
    std::string text;
    if (ctx_.policy_paused[j.policy]) {
      text = "policy " + policy.name + " is paused: none of its queued jobs starts";
      return {job, PendingReason::kPaused, Message(std::move(text)), {}};
    }
    if (ctx_.all_links_paused[j.profile]) {
      text = "every pool profile " + ctx_.config.profiles[j.profile].name + " links is paused (drained)";
      return {job, PendingReason::kPaused, Message(std::move(text)), {}};
    }
    if (j.need <= ctx_.largest_linked_pool[j.profile] && j.need <= ctx_.limit[j.policy]) {
      text = "needs " + Amount(j.need) + ", which fits the machines of no pool profile " +
             ctx_.config.profiles[j.profile].name + " links: a job runs on one machine, or takes whole machines";
    } else if (j.need > ctx_.largest_linked_pool[j.profile]) {
      text = "needs " + Amount(j.need) + ", more than any pool profile " + ctx_.config.profiles[j.profile].name +
             " links can hold (largest: " + Amount(ctx_.largest_linked_pool[j.profile]) + ")";
    } else {
      text = "needs " + Amount(j.need) + ", more than the limit " + Amount(ctx_.limit[j.policy]) + " of policy " +
             policy.name;
    }
    return {job, PendingReason::kUnschedulable, Message(std::move(text)), {}};
  }

  PendingJob FifoBlocked(uint32_t job, uint32_t head, const JobQueue& queue) {
    std::string text = "waits behind an earlier pending job of the StrictFIFO queue of policy " +
                       ctx_.config.policies[queue.policy()].name + " and profile " +
                       ctx_.config.profiles[queue.profile()].name;
    return {job, PendingReason::kFifoBlocked, Message(std::move(text)), head};
  }

  /// limit, reservation or capacity, for a job that could be first in line.
  PendingJob Waiting(const QueuedJob& j, uint32_t job) {
    auto key = std::make_tuple(j.policy, j.profile, j.need.ticks());
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(key, Judge(j)).first;
    return {job, it->second.first, it->second.second, {}};
  }

 private:
  std::pair<PendingReason, uint32_t> Judge(const QueuedJob& j) {
    const std::string& policy = ctx_.config.policies[j.policy].name;
    Quantity used = state_.used[j.policy];
    if (used + j.need > ctx_.limit[j.policy]) {
      return {PendingReason::kLimit,
              Message("policy " + policy + " uses " + Amount(used) + " of its limit " + Amount(ctx_.limit[j.policy]) +
                      "; " + Amount(j.need) + " more would exceed it")};
    }
    for (uint32_t pool : ctx_.links[j.profile]) {
      Quantity free = state_.Free(ctx_, pool);
      if (!state_.Fits(ctx_, pool, j.need)) continue;
      if (CheckAdmission(ctx_, state_, book_, j.policy, pool, j.need, nullptr) != Verdict::kReservation) continue;
      std::string others;
      for (uint32_t q : book_.OthersReaching(j.policy, pool)) {
        if (!others.empty()) others += ", ";
        others += ctx_.config.policies[q].name + " (" + Amount(book_.Need(q)) + " outstanding)";
      }
      return {PendingReason::kReservation,
              Message("needs " + Amount(j.need) + "; pool " + ctx_.config.pools[pool].name + " has " + HumanAmount(free, ctx_.config.pools[pool]) +
                      " free, but policy " + policy + " would go beyond its reservation of " +
                      Amount(ctx_.reserved[j.policy]) + " and leave reserved resources of " +
                      (others.empty() ? std::string("other policies") : others) + " uncoverable")};
    }
    // Enough free GPUs in total somewhere, but on no machine (rescfg-scheduling(7), THE PASS v3).
    std::string spread;
    for (uint32_t pool : ctx_.links[j.profile]) {
      const Quantity free = state_.Free(ctx_, pool);
      if (ctx_.pool_paused[pool] || free < j.need || state_.Fits(ctx_, pool, j.need)) continue;
      if (!spread.empty()) spread += ", ";
      spread += ctx_.config.pools[pool].name + " has " + Amount(free) + " free, at most " +
                Amount(std::min(free, state_.machines[pool].LargestFree())) + " on one machine";
    }
    if (!spread.empty()) {
      return {PendingReason::kFragmented,
              Message("needs " + Amount(j.need) + "; the free GPUs are spread over machines: " + spread)};
    }
    std::string pools;
    for (uint32_t pool : ctx_.links[j.profile]) {
      if (!pools.empty()) pools += ", ";
      pools += ctx_.config.pools[pool].name + " " + HumanAmountOf(state_.Free(ctx_, pool), ctx_.config.pools[pool]) +
               (ctx_.pool_paused[pool] ? " (paused)" : "");
    }
    return {PendingReason::kCapacity, Message("needs " + Amount(j.need) + "; free: " + pools)};
  }

  const ScheduleContext& ctx_;
  const PassState& state_;
  ReservationBook& book_;
  SchedulingResult* result_;
  std::map<std::string, uint32_t> message_index_;
  std::map<std::tuple<uint32_t, uint32_t, Ticks>, std::pair<PendingReason, uint32_t>> cache_;
};

}  // namespace

void ExplainPending(const ScheduleContext& ctx, const PassState& state, ReservationBook& book,
                    const std::vector<JobQueue>& queues, const std::vector<QueuedJob>& queued,
                    const std::vector<uint32_t>& unschedulable, bool enabled, SchedulingResult* result) {
  Explainer explain(ctx, state, book, result);
  std::vector<PendingJob>& pending = result->pending;
  pending.reserve(pending.size() + queued.size());
  for (uint32_t job : unschedulable) {
    pending.push_back(enabled ? explain.Unschedulable(queued[job], job) : explain.Disabled(job));
  }
  for (const JobQueue& queue : queues) {
    if (enabled && !queue.strict_fifo()) {
      // Jobs of equal need wait for the same reason: judged once a need, in
      // order of need (each job's need is its group's, not read again).
      queue.ForEachUndecidedNeed([&](Quantity, const uint32_t* jobs, size_t count) {
        PendingJob last = explain.Waiting(queued[jobs[0]], jobs[0]);
        for (size_t i = 0; i < count; ++i) {
          last.job = jobs[i];
          pending.push_back(last);
        }
      });
      continue;
    }
    // A StrictFIFO queue's undecided jobs come in queue order, as its head must.
    std::vector<uint32_t> waiting = queue.Undecided();
    if (waiting.empty()) continue;
    if (!enabled) {
      for (uint32_t job : waiting) pending.push_back(explain.Disabled(job));
      continue;
    }
    pending.push_back(explain.Waiting(queued[waiting[0]], waiting[0]));
    if (waiting.size() == 1) continue;
    // Everyone behind the head shares one message.
    PendingJob blocked = explain.FifoBlocked(waiting[0], waiting[0], queue);
    for (size_t i = 1; i < waiting.size(); ++i) {
      blocked.job = waiting[i];
      pending.push_back(blocked);
    }
  }
  // Into queue order by rank, without comparisons.
  const std::vector<uint32_t> order = QueueOrder(queued);
  std::vector<uint32_t> at(queued.size(), UINT32_MAX);  // per job: its index in pending
  for (uint32_t i = 0; i < pending.size(); ++i) at[pending[i].job] = i;
  std::vector<PendingJob> sorted;
  sorted.reserve(pending.size());
  for (uint32_t job : order) {
    if (at[job] != UINT32_MAX) sorted.push_back(pending[at[job]]);
  }
  pending.swap(sorted);
}

}  // namespace rescfg
