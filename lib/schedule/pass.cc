/// The scheduling pass of SPEC §4.
///
/// Each queue offers a few candidate slots (its head, or the first job of
/// each distinct need). A slot's target and selection key are cached in an
/// ordered set; after a placement only the slots whose answer may have
/// changed are evaluated again: those of the placing policy, those whose
/// target was the pool just used, and those whose answer depended on the
/// reservation rule (other policies' state). Everything else depended only
/// on free capacity that can only shrink and on its own policy's usage.

#include <algorithm>
#include <map>
#include <set>

#include "schedule/admission.h"
#include "schedule/context.h"
#include "schedule/job_queue.h"
#include "schedule/pass_state.h"
#include "schedule/pending_reasons.h"
#include "schedule/problem.h"
#include "schedule/reservations.h"

namespace rescfg {

const char* PendingReasonName(PendingReason r) {
  switch (r) {
    case PendingReason::kDisabled: return "disabled";
    case PendingReason::kUnschedulable: return "unschedulable";
    case PendingReason::kFifoBlocked: return "fifo-blocked";
    case PendingReason::kLimit: return "limit";
    case PendingReason::kReservation: return "reservation";
    case PendingReason::kCapacity: return "capacity";
  }
  return "capacity";
}

namespace {

/// The selection key of SPEC §4, with the slot as a final unique tie-break.
struct SlotKey {
  uint32_t exec_rank, policy_rank, queue_order, position, slot;
  auto operator<=>(const SlotKey&) const = default;
};

struct Slot {
  uint32_t queue = 0;
  uint32_t index = 0;  ///< slot index within its queue
  std::optional<Target> target;
  SlotKey key{};
  AdmissionTrace trace;
  uint64_t seen = 0;                  ///< iteration stamp, to evaluate once per iteration
  std::optional<uint32_t> pool_list;  ///< the by-pool list it is filed in
  bool in_trivial_list = false;
};

class Pass {
 public:
  Pass(const ScheduleContext& ctx, PassState& state, std::vector<JobQueue>& queues,
       const std::vector<QueuedJob>& queued, ReservationBook& book)
      : ctx_(ctx), state_(state), queues_(queues), queued_(queued), book_(book), by_pool_(ctx.pool_count) {
    for (uint32_t q = 0; q < queues_.size(); ++q) {
      for (uint32_t i = 0; i < queues_[q].slot_count(); ++i) {
        Slot slot;
        slot.queue = q;
        slot.index = i;
        slots_.push_back(slot);
      }
    }
    slot_begin_.push_back(0);
    for (const auto& queue : queues_) slot_begin_.push_back(slot_begin_.back() + static_cast<uint32_t>(queue.slot_count()));
  }

  void Run(SchedulingResult* result, PassStats* stats) {
    for (uint32_t s = 0; s < slots_.size(); ++s) Evaluate(s);
    while (!ready_.empty()) {
      uint32_t s = ready_.begin()->slot;
      Slot& slot = slots_[s];
      JobQueue& queue = queues_[slot.queue];
      uint32_t job = *queue.SlotJob(slot.index);
      Target target = *slot.target;
      ready_.erase(ready_.begin());
      slot.target.reset();

      Quantity need = queued_[job].need;
      state_.held[target.pool] += need;
      state_.used[queue.policy()] += need;
      result->placements.push_back({job, target.pool, target.link});
      queue.Advance(slot.index);
      Quantity need_before = book_.Need(queue.policy());
      book_.Refresh(queue.policy());
      book_.NewEpoch();
      ++iteration_;
      ReevaluateAfter(queue.policy(), target.pool, book_.Need(queue.policy()) > need_before);
    }
    if (stats) {
      stats->evaluations += evaluations_;
      stats->slots += slots_.size();
    }
  }

 private:
  void Evaluate(uint32_t s) {
    Slot& slot = slots_[s];
    slot.seen = iteration_;
    ++evaluations_;
    if (slot.target) ready_.erase(slot.key);
    slot.target.reset();
    slot.trace = {};
    const JobQueue& queue = queues_[slot.queue];
    std::optional<uint32_t> job = queue.SlotJob(slot.index);
    if (!job) return;
    const QueuedJob& j = queued_[*job];
    slot.target = FindTarget(ctx_, state_, book_, j.policy, j.profile, j.need, &slot.trace);
    if (slot.trace.rule3 && !slot.trace.rule3_trivial) next_rule3_.push_back(s);
    if (slot.trace.rule3 && slot.trace.rule3_trivial && !slot.in_trivial_list) {
      trivial_.push_back(s);
      slot.in_trivial_list = true;
    }
    if (!slot.target) return;
    slot.key = {ctx_.ExecRank(slot.target->pool, j.profile), ctx_.PolicyRank(j.profile, j.policy),
                j.queue_order, j.position, s};
    ready_.insert(slot.key);
    if (slot.pool_list != slot.target->pool) {
      by_pool_[slot.target->pool].push_back(s);
      slot.pool_list = slot.target->pool;
    }
  }

  void EvaluateOnce(uint32_t s) {
    if (slots_[s].seen != iteration_) Evaluate(s);
  }

  void ReevaluateAfter(uint32_t policy, uint32_t pool, bool policy_need_grew) {
    std::vector<uint32_t> rule3;
    rule3.swap(next_rule3_);
    // Slots aiming at the pool just used first, while their filing is current.
    std::vector<uint32_t> filed;
    filed.swap(by_pool_[pool]);
    for (uint32_t s : filed) {
      if (slots_[s].pool_list == pool) slots_[s].pool_list.reset();
    }
    for (uint32_t s : filed) {
      if (slots_[s].target && slots_[s].target->pool == pool) EvaluateOnce(s);
    }
    for (uint32_t q : ctx_.queues_of_policy[policy]) {
      for (uint32_t s = slot_begin_[q]; s < slot_begin_[q + 1]; ++s) EvaluateOnce(s);
    }
    for (uint32_t s : rule3) EvaluateOnce(s);
    // A reservation rule that passed only because nobody else had an
    // outstanding reservation can change only when someone now has one.
    if (policy_need_grew) {
      std::vector<uint32_t> trivial;
      trivial.swap(trivial_);
      for (uint32_t s : trivial) slots_[s].in_trivial_list = false;
      for (uint32_t s : trivial) EvaluateOnce(s);
    }
  }

  const ScheduleContext& ctx_;
  PassState& state_;
  std::vector<JobQueue>& queues_;
  const std::vector<QueuedJob>& queued_;
  ReservationBook& book_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> slot_begin_;  ///< per queue, into slots_
  std::set<SlotKey> ready_;           ///< slots with a target, by key
  std::vector<std::vector<uint32_t>> by_pool_;
  std::vector<uint32_t> next_rule3_, trivial_;
  uint64_t iteration_ = 1;
  uint64_t evaluations_ = 0;
};

}  // namespace

SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats) {
  const Config& config = *input.config;
  ScheduleContext ctx(config);
  PassState state{std::vector<Quantity>(ctx.pool_count), std::vector<Quantity>(ctx.policy_count)};
  for (const Holding& h : input.holdings) {
    state.held[h.pool] += h.amount;
    if (h.policy) state.used[*h.policy] += h.amount;
  }

  // Split schedulable jobs into (policy, profile) queues, in queue order.
  std::vector<uint32_t> order(input.queued.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return input.queued[a].queue_order < input.queued[b].queue_order;
  });
  std::vector<uint32_t> unschedulable;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> by_queue;
  for (uint32_t job : order) {
    const QueuedJob& j = input.queued[job];
    if (j.need > ctx.largest_linked_pool[j.profile] || j.need > ctx.limit[j.policy]) {
      unschedulable.push_back(job);
    } else {
      by_queue[{j.policy, j.profile}].push_back(job);
    }
  }
  std::vector<JobQueue> queues;
  for (auto& [key, jobs] : by_queue) {
    ctx.queues_of_policy[key.first].push_back(static_cast<uint32_t>(queues.size()));
    queues.emplace_back(key.first, key.second, ctx.strict_fifo[key.second], std::move(jobs), input.queued);
  }

  SchedulingResult result;
  ReservationBook book(ctx, queues, input.queued, state);
  if (config.enabled) {
    Pass pass(ctx, state, queues, input.queued, book);
    pass.Run(&result, stats);
  }
  ExplainPending(ctx, state, book, queues, input.queued, unschedulable, config.enabled, &result);
  result.pool_in_use = state.held;
  result.policy_used = state.used;
  if (stats) {
    stats->placements += result.placements.size();
    stats->flows += book.stats().flows;
    stats->fast_accepts += book.stats().fast_accepts;
  }
  return result;
}

}  // namespace rescfg
