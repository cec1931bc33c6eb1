/// The scheduling pass of SPEC §4.
///
/// Each queue offers a few candidate slots (its head, or the first job of
/// each distinct need). Selection is lazy and best-first: a slot is either
/// *clean* (its target and selection key are known for the current state)
/// or *stale*, and one heap holds every slot that may have a target.
/// A clean slot is filed under its exact key; a stale one under a lower
/// bound of it: the best execution rank among its linked pools that have
/// room now (its target, if any, is one of them). The smallest entry is
/// evaluated exactly when stale and placed when clean; it is the smallest
/// exact key of all, since no stale key is below its bound.
///
/// After a placement only the slots whose answer may have changed become
/// stale again (no max flow, just the bound): those of the placing policy,
/// those whose target was the pool just used, and those whose answer
/// depended on the reservation rule at a pool where the reservation book
/// cannot vouch that the rule answers as before. Everything else depended
/// only on free capacity that can only shrink and on its own policy's
/// usage; a stale bound stays a bound for the same reason. A slot over its
/// policy's limit or without room in any linked pool is dropped until its
/// own policy places again. Ready slots are a binary heap (ReadySlots).

#include <algorithm>
#include <map>

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
    case PendingReason::kPaused: return "paused";
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

/// Slots that may have a target, smallest key first: a binary heap whose
/// entries go stale when their slot is filed again or withdrawn (a version
/// per slot tells), instead of an ordered set that allocates per insertion.
/// Stale entries are dropped when they reach the top, or all at once when
/// they outnumber the live ones twice over.
/// A slot whose answer (its `answer`-th) looked at a pool.
struct Consulted {
  uint32_t slot, answer;
};

class ReadySlots {
 public:
  explicit ReadySlots(size_t slots) : version_(slots, 0), filed_(slots, false) {}

  void File(const SlotKey& key) {
    uint32_t s = key.slot;
    if (!filed_[s]) ++live_;
    filed_[s] = true;
    ++version_[s];  // an entry filed before is stale now
    if (heap_.size() > 2 * live_ + 1024) Compact();
    heap_.push_back({key, version_[s]});
    std::push_heap(heap_.begin(), heap_.end(), Later);
  }
  void Withdraw(uint32_t s) {
    if (!filed_[s]) return;
    filed_[s] = false;
    --live_;
  }
  bool empty() {
    DropStale();
    return heap_.empty();
  }
  /// The smallest live key; only after !empty().
  const SlotKey& top() const { return heap_.front().key; }
  void pop() {
    Withdraw(heap_.front().key.slot);
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    heap_.pop_back();
  }

 private:
  struct Entry { SlotKey key; uint64_t version; };
  static bool Later(const Entry& a, const Entry& b) { return b.key < a.key; }
  bool Live(const Entry& e) const { return filed_[e.key.slot] && version_[e.key.slot] == e.version; }
  void DropStale() {
    while (!heap_.empty() && !Live(heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), Later);
      heap_.pop_back();
    }
  }
  void Compact() {
    std::erase_if(heap_, [&](const Entry& e) { return !Live(e); });
    std::make_heap(heap_.begin(), heap_.end(), Later);
  }

  std::vector<Entry> heap_;
  std::vector<uint64_t> version_;
  std::vector<bool> filed_;
  size_t live_ = 0;
};

struct Slot {
  uint32_t queue = 0;
  uint32_t index = 0;  ///< slot index within its queue
  bool filed = false;  ///< has an entry in the ordered set, under `key`
  bool clean = false;  ///< `target` and `key` are exact for the current state
  std::optional<Target> target;
  SlotKey key{};
  AdmissionTrace trace;
  uint64_t seen = 0;                  ///< iteration stamp, to re-stale once per iteration
  std::optional<uint32_t> pool_list;  ///< the by-pool list it is filed in
  bool in_trivial_list = false;
  bool rule3_part = false;  ///< its policy took part in the flows of its last answer
  uint32_t answer = 0;      ///< counts its evaluations, to tell current entries of consulted_
};

class Pass {
 public:
  Pass(const ScheduleContext& ctx, PassState& state, std::vector<JobQueue>& queues,
       const std::vector<QueuedJob>& queued, ReservationBook& book)
      : ctx_(ctx), state_(state), queues_(queues), queued_(queued), book_(book), by_pool_(ctx.pool_count), consulted_(ctx.pool_count) {
    for (uint32_t q = 0; q < queues_.size(); ++q) {
      for (uint32_t i = 0; i < queues_[q].slot_count(); ++i) {
        Slot slot;
        slot.queue = q;
        slot.index = i;
        slots_.push_back(slot);
      }
    }
    ready_ = ReadySlots(slots_.size());
    slot_begin_.push_back(0);
    for (const auto& queue : queues_) slot_begin_.push_back(slot_begin_.back() + static_cast<uint32_t>(queue.slot_count()));
  }

  void Run(SchedulingResult* result, PassStats* stats) {
    for (uint32_t s = 0; s < slots_.size(); ++s) Restale(s);
    while (!ready_.empty()) {
      uint32_t s = ready_.top().slot;
      Slot& slot = slots_[s];
      ready_.pop();
      slot.filed = false;
      if (!slot.clean) {
        Evaluate(s);
        continue;
      }
      JobQueue& queue = queues_[slot.queue];
      uint32_t job = *queue.SlotJob(slot.index);
      Target target = *slot.target;
      slot.target.reset();
      slot.clean = false;

      Quantity need = queued_[job].need;
      state_.held[target.pool] += need;
      state_.used[queue.policy()] += need;
      result->placements.push_back({job, target.pool, target.link});
      queue.Advance(slot.index);
      Quantity need_before = book_.Need(queue.policy());
      bool kept = book_.Placed(queue.policy(), target.pool);
      ++iteration_;
      RestaleAfter(queue.policy(), target.pool, book_.Need(queue.policy()) > need_before, kept);
    }
    if (stats) {
      stats->evaluations += evaluations_;
      stats->restales += restales_;
      stats->slots += slots_.size();
    }
  }

 private:
  void Unfile(Slot& slot) {
    if (slot.filed) ready_.Withdraw(slot.key.slot);
    slot.filed = false;
  }

  /// Forgets the slot's answer and files it under a lower bound of its key:
  /// no max flow, only rules 1 and 2.
  void Restale(uint32_t s) {
    Slot& slot = slots_[s];
    slot.seen = iteration_;
    ++restales_;
    Unfile(slot);
    slot.clean = false;
    slot.target.reset();
    std::optional<uint32_t> job = queues_[slot.queue].SlotJob(slot.index);
    if (!job) return;
    const QueuedJob& j = queued_[*job];
    // Over the limit, or no room in any linked pool: no target while its own
    // policy does not place (free capacity only shrinks).
    if (state_.used[j.policy] + j.need > ctx_.limit[j.policy]) return;
    uint32_t best = UINT32_MAX;
    for (uint32_t pool : ctx_.links[j.profile]) {
      if (j.need <= state_.Free(ctx_, pool)) best = std::min(best, ctx_.ExecRank(pool, j.profile));
    }
    if (best == UINT32_MAX) return;
    slot.key = {best, ctx_.PolicyRank(j.profile, j.policy), j.queue_order, j.position, s};
    ready_.File(slot.key);
    slot.filed = true;
  }

  void RestaleOnce(uint32_t s) {
    if (slots_[s].seen != iteration_) Restale(s);
  }

  /// Finds the slot's target now and files it under its exact key.
  void Evaluate(uint32_t s) {
    Slot& slot = slots_[s];
    ++evaluations_;
    Unfile(slot);
    slot.clean = true;
    slot.target.reset();
    slot.trace = {};
    const JobQueue& queue = queues_[slot.queue];
    std::optional<uint32_t> job = queue.SlotJob(slot.index);
    if (!job) return;
    const QueuedJob& j = queued_[*job];
    slot.target = FindTarget(ctx_, state_, book_, j.policy, j.profile, j.need, &slot.trace);
    ++slot.answer;
    if (slot.trace.rule3 && !slot.trace.rule3_trivial) {
      slot.rule3_part = book_.TakesPart(j.policy);
      // The pools its answer looked at: the links up to its target, or all.
      const auto& links = ctx_.links[j.profile];
      size_t consulted = slot.target ? slot.target->link + 1 : links.size();
      for (size_t i = 0; i < consulted; ++i) consulted_[links[i]].push_back({s, slot.answer});
    }
    if (slot.trace.rule3 && slot.trace.rule3_trivial && !slot.in_trivial_list) {
      trivial_.push_back(s);
      slot.in_trivial_list = true;
    }
    if (!slot.target) return;
    slot.key = {ctx_.ExecRank(slot.target->pool, j.profile), ctx_.PolicyRank(j.profile, j.policy),
                j.queue_order, j.position, s};
    ready_.File(slot.key);
    slot.filed = true;
    if (slot.pool_list != slot.target->pool) {
      by_pool_[slot.target->pool].push_back(s);
      slot.pool_list = slot.target->pool;
    }
  }

  /// Whether a consulted_ entry stands for the slot's current answer.
  bool Current(const Consulted& c) const { return slots_[c.slot].clean && slots_[c.slot].answer == c.answer; }

  /// The answers that involved the reservation rule and may have changed.
  /// `kept`: the reservation book kept its answers, so only those that
  /// looked at `pool` (whose free capacity fell). Otherwise every answer of a
  /// policy taking part in the flows, and at each pool the answers of the
  /// others unless the book says the rule decides every need there as before.
  std::vector<uint32_t> Rule3Changed(uint32_t pool, bool kept) {
    std::vector<uint32_t> out;
    if (kept) {
      for (const Consulted& c : consulted_[pool]) {
        if (Current(c)) out.push_back(c.slot);
      }
      consulted_[pool].clear();
      return out;
    }
    for (uint32_t x = 0; x < consulted_.size(); ++x) {
      auto& list = consulted_[x];
      // Current answers of policies taking part change anyway; the others'
      // only where the book cannot vouch for the pool (asked only if any).
      size_t bystanders = 0;
      for (const Consulted& c : list) {
        if (!Current(c)) continue;
        if (slots_[c.slot].rule3_part) {
          out.push_back(c.slot);
        } else {
          list[bystanders++] = c;
        }
      }
      list.resize(bystanders);
      if (!list.empty() && (x == pool || !book_.SameVerdictsForBystanders(x))) {
        for (const Consulted& c : list) out.push_back(c.slot);
        list.clear();
      }
    }
    return out;
  }

  /// Marks stale every slot whose exact answer the placement may have
  /// changed. Stale slots need nothing: their bounds can only have risen.
  void RestaleAfter(uint32_t policy, uint32_t pool, bool policy_need_grew, bool kept) {
    std::vector<uint32_t> rule3 = Rule3Changed(pool, kept);
    // Slots aiming at the pool just used first, while their filing is current.
    std::vector<uint32_t> filed;
    filed.swap(by_pool_[pool]);
    for (uint32_t s : filed) {
      if (slots_[s].pool_list == pool) slots_[s].pool_list.reset();
    }
    for (uint32_t s : filed) {
      if (slots_[s].clean && slots_[s].target && slots_[s].target->pool == pool) RestaleOnce(s);
    }
    for (uint32_t q : ctx_.queues_of_policy[policy]) {
      for (uint32_t s = slot_begin_[q]; s < slot_begin_[q + 1]; ++s) RestaleOnce(s);
    }
    // Answers that involved the reservation rule, with or without a target
    // (a refusal can turn into a target as other policies' state changes).
    for (uint32_t s : rule3) {
      if (slots_[s].clean) RestaleOnce(s);
    }
    // A reservation rule that passed only because nobody else had an
    // outstanding reservation can change only when someone now has one.
    if (policy_need_grew) {
      std::vector<uint32_t> trivial;
      trivial.swap(trivial_);
      for (uint32_t s : trivial) slots_[s].in_trivial_list = false;
      for (uint32_t s : trivial) {
        if (slots_[s].clean) RestaleOnce(s);
      }
    }
  }

  const ScheduleContext& ctx_;
  PassState& state_;
  std::vector<JobQueue>& queues_;
  const std::vector<QueuedJob>& queued_;
  ReservationBook& book_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> slot_begin_;  ///< per queue, into slots_
  ReadySlots ready_{0};               ///< clean slots with a target and stale slots, by key
  std::vector<std::vector<uint32_t>> by_pool_;
  std::vector<uint32_t> trivial_;
  /// Per pool: rule 3 answers that looked at it (stale entries are skipped).
  std::vector<std::vector<Consulted>> consulted_;
  uint64_t iteration_ = 1;
  uint64_t evaluations_ = 0;
  uint64_t restales_ = 0;
};

}  // namespace

SchedulingResult RunSchedulingPass(const SchedulingInput& input, PassStats* stats) {
  const Config& config = *input.config;
  ScheduleContext ctx(config);
  PassState state = PassState::Initial(ctx, input.holdings);

  // Split schedulable jobs into (policy, profile) queues, in queue order.
  std::vector<uint32_t> unschedulable;
  std::vector<JobQueue> queues = SplitIntoQueues(
      input.queued, ctx.strict_fifo,
      [&](const QueuedJob& j) { return ctx.Schedulable(j.policy, j.profile, j.need); },
      &unschedulable);
  for (uint32_t q = 0; q < queues.size(); ++q) ctx.queues_of_policy[queues[q].policy()].push_back(q);

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
    stats->repairs += book.stats().repairs;
  }
  return result;
}

}  // namespace rescfg
