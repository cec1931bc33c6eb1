/// The scheduling pass of rescfg-scheduling(7), THE PASS.
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
///
/// Between two runs (Reopen) the state moves the other way: free capacity
/// rises where jobs finished and usage falls for their policies; jobs join
/// at the back of their queues. When a run ends every slot is either clean
/// without a target, or stale and dropped (over its limit, or no room in
/// any linked pool). What can turn such a slot into one with a target:
///   - its policy's usage fell: all its slots; a job joined: its slot, if it
///     offered nothing before (a job behind others changes no answer of its
///     queue, and its policy's answers rest on the others' reservations);
///   - a pool whose free capacity rose from f to f': the slots linked to it
///     whose need is in (f, f'] (with a need of at most f the pool refused
///     them by rule 2 or 3, not for room; rule 2 moves only with their own
///     policy, rule 3 below);
///   - the reservation rule: as after a placement that starts an epoch,
///     every answer of a policy that takes part in the flows (or does now),
///     and the others' at a pool whose free capacity changed or where the
///     book cannot vouch that the rule decides every need as before. (A run
///     can end with the rule refusing jobs: a StrictFIFO head that does not
///     fit keeps protecting the smaller jobs behind it.)

#include "schedule/incremental_pass.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "schedule/admission.h"
#include "schedule/context.h"
#include "schedule/job_queue.h"
#include "schedule/pass_state.h"
#include "schedule/pending_reasons.h"
#include "schedule/ready_slots.h"
#include "schedule/reservations.h"
#include "schedule/selection_key.h"

namespace rescfg {
namespace {

/// A slot whose answer (its `answer`-th) looked at a pool.
struct Consulted {
  uint32_t slot, answer;
};

struct Slot {
  uint32_t queue = 0;
  uint32_t index = 0;  ///< slot index within its queue
  /// The job it offers now (its queue's SlotJob), copied: Restale and
  /// Evaluate read it without going through the queue.
  std::optional<uint32_t> offered;
  QueuedJob job;
  bool filed = false;  ///< has an entry in the ordered set, under `key`
  bool clean = false;  ///< `target` and `key` are exact for the current state
  std::optional<Target> target;
  SelectionKey key{};
  AdmissionTrace trace;
  uint64_t seen = 0;                  ///< iteration stamp, to re-stale once per iteration
  std::optional<uint32_t> pool_list;  ///< the by-pool list it is filed in
  bool in_trivial_list = false;
  bool rule3_part = false;  ///< its policy took part in the flows of its last answer
  uint32_t answer = 0;      ///< counts its evaluations, to tell current entries of consulted_
};

}  // namespace

class IncrementalPass::Impl {
 public:
  Impl(const Config& config, const std::vector<QueuedJob>& queued, const std::vector<Holding>& holdings,
       const std::vector<uint32_t>* initial)
      : ctx_(config), state_(PassState::Initial(ctx_, holdings)), queued_(queued), holdings_(holdings),
        queues_(InitialQueues(initial)), book_(ctx_, queues_, queued_, state_), by_pool_(ctx_.pool_count),
        consulted_(ctx_.pool_count), offering_(ctx_.pool_count), released_(ctx_.pool_count, false),
        free_before_(ctx_.pool_count), fit_before_(ctx_.pool_count), policy_changed_(ctx_.policy_count, false),
        usage_changed_(ctx_.policy_count, false) {
    for (const Pool& pool : config.pools) {
      if (pool.nodes) job_machine_.assign(queued_.size(), Placement::kNoMachine);
    }
    queue_slots_.resize(queues_.size());
    for (uint32_t q = 0; q < queues_.size(); ++q) {
      for (uint32_t i = 0; i < queues_[q].slot_count(); ++i) AddSlot(q, i);
    }
  }

  void Join(uint32_t job) {
    const QueuedJob& j = queued_[job];
    if (!ctx_.Schedulable(j.policy, j.profile, j.need)) {
      unschedulable_.push_back(job);
      return;
    }
    const uint64_t key = Key(j.policy, j.profile);
    auto it = queue_index_.find(key);  // emplace would allocate a node every time
    const bool added = it == queue_index_.end();
    if (added) it = queue_index_.emplace(key, static_cast<uint32_t>(queues_.size())).first;
    const uint32_t q = it->second;
    if (added) {
      queues_.emplace_back(j.policy, j.profile, ctx_.strict_fifo[j.profile], std::vector<uint32_t>{}, queued_);
      ctx_.queues_of_policy[j.policy].push_back(q);
      queue_slots_.emplace_back();
      for (uint32_t i = 0; i < queues_[q].slot_count(); ++i) AddSlot(q, i);
    }
    JobQueue::Appended appended = queues_[q].Append(job, queued_);
    if (appended.new_slot) AddSlot(q, static_cast<uint32_t>(appended.slot));
    const uint32_t s = queue_slots_[q][appended.slot];
    // Behind the jobs already queued: only a new slot or one that offered
    // nothing changes (the policy's protection may too: the book is told).
    if (RefreshOffer(s) || appended.new_slot) joined_slots_.push_back(s);
    MarkPolicy(j.policy);
  }

  void Requeue(uint32_t job) {
    const QueuedJob& j = queued_[job];
    const uint32_t q = queue_index_.at(Key(j.policy, j.profile));
    const JobQueue::Appended back = queues_[q].Requeue(job, queued_);
    if (back.new_slot) AddSlot(q, static_cast<uint32_t>(back.slot));
    for (uint32_t s : queue_slots_[q]) {
      if (RefreshOffer(s)) joined_slots_.push_back(s);
    }
    MarkPolicy(j.policy);
  }

  void ReleaseJob(uint32_t job, uint32_t pool) {
    MachineSpot spot;
    if (!job_machine_.empty()) {
      spot.first = job_machine_[job];
      if (auto it = job_more_.find(job); it != job_more_.end()) {
        spot.more = std::move(it->second);
        job_more_.erase(it);
      }
    }
    Release(pool, queued_[job].policy, queued_[job].need, spot);
  }

  void ReleaseHolding(uint32_t index) {
    const Holding& h = holdings_[index];
    Release(h.pool, h.policy, h.amount, state_.holding_spots[index]);
  }

  /// `pool` is none for a running job whose pool could not be told: it
  /// held against its policy only.
  void Release(std::optional<uint32_t> pool, std::optional<uint32_t> policy, Quantity amount,
               const MachineSpot& spot) {
    if (pool) {
      if (!released_[*pool]) {
        released_[*pool] = true;
        released_pools_.push_back(*pool);
        free_before_[*pool] = state_.Free(ctx_, *pool);
        fit_before_[*pool] = state_.FitLimit(ctx_, *pool);
      }
      state_.Release(*pool, amount, spot);
    }
    if (policy) {
      state_.used[*policy] -= amount;
      MarkPolicy(*policy);
      if (!usage_changed_[*policy]) {
        usage_changed_[*policy] = true;
        usage_policies_.push_back(*policy);
      }
    }
  }

  void Run(std::vector<Placement>* placements) {
    ++runs_;
    if (!ctx_.config.enabled) {
      ClearChanges();
      return;
    }
    if (first_run_) {
      first_run_ = false;
      if (Changed()) book_.Reopen(changed_policies_, true);
      ClearChanges();
      for (uint32_t s = 0; s < slots_.size(); ++s) Restale(s);
    } else {
      Reopen();
    }
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
      uint32_t job = *slot.offered;
      Target target = *slot.target;
      slot.target.reset();
      slot.clean = false;

      Quantity need = queued_[job].need;
      MachineSpot spot = state_.Place(target.pool, need);
      state_.used[queue.policy()] += need;
      placements->push_back({job, target.pool, target.link, spot.first});
      if (!job_machine_.empty()) job_machine_[job] = spot.first;
      if (!spot.more.empty()) job_more_[job] = std::move(spot.more);
      ++placements_;
      queue.Advance(slot.index);
      RefreshOffer(s);
      Quantity need_before = book_.Need(queue.policy());
      bool kept = book_.Placed(queue.policy(), target.pool);
      ++iteration_;
      RestaleAfter(queue.policy(), target.pool, book_.Need(queue.policy()) > need_before, kept);
    }
  }

  void Explain(SchedulingResult* result) {
    // Explain judges the current state: the book must know of any change.
    if (Changed()) book_.Reopen(changed_policies_, true);
    ExplainPending(ctx_, state_, book_, queues_, queued_, unschedulable_, ctx_.config.enabled, result);
    result->pool_in_use = state_.held;
    result->policy_used = state_.used;
    state_.Describe(result);
    for (const auto& [job, more] : job_more_) {
      std::vector<uint32_t> all{job_machine_[job]};
      all.insert(all.end(), more.begin(), more.end());
      result->job_spans.push_back({job, std::move(all)});
    }
    std::sort(result->job_spans.begin(), result->job_spans.end());
  }

  void AddStats(PassStats* stats) const {
    stats->placements += placements_;
    stats->evaluations += evaluations_;
    stats->restales += restales_;
    stats->slots += slots_.size();
    stats->runs += runs_;
    stats->builds += 1;
    stats->flows += book_.stats().flows;
    stats->fast_accepts += book_.stats().fast_accepts;
    stats->repairs += book_.stats().repairs;
  }

 private:
  static uint64_t Key(uint32_t policy, uint32_t profile) { return (uint64_t(policy) << 32) | profile; }

  /// The queues of the jobs queued from the start; fills the queue index.
  std::vector<JobQueue> InitialQueues(const std::vector<uint32_t>* initial) {
    auto schedulable = [&](const QueuedJob& j) { return ctx_.Schedulable(j.policy, j.profile, j.need); };
    std::vector<JobQueue> queues =
        initial ? SplitIntoQueues(queued_, *initial, ctx_.strict_fifo, schedulable, &unschedulable_)
                : SplitIntoQueues(queued_, ctx_.strict_fifo, schedulable, &unschedulable_);
    for (uint32_t q = 0; q < queues.size(); ++q) {
      ctx_.queues_of_policy[queues[q].policy()].push_back(q);
      queue_index_.emplace(Key(queues[q].policy(), queues[q].profile()), q);
    }
    return queues;
  }

  void AddSlot(uint32_t queue, uint32_t index) {
    const uint32_t s = static_cast<uint32_t>(slots_.size());
    Slot slot;
    slot.queue = queue;
    slot.index = index;
    slots_.push_back(slot);
    queue_slots_[queue].push_back(s);
    RefreshOffer(s);
    ready_.Grow(slots_.size());
  }

  /// Reads again the job slot `s` offers; a slot that offers one is listed
  /// by its need under each pool its profile links. Returns whether the
  /// offered job changed.
  bool RefreshOffer(uint32_t s) {
    Slot& slot = slots_[s];
    const std::optional<uint32_t> job = queues_[slot.queue].SlotJob(slot.index);
    if (job == slot.offered) return false;
    const auto& links = ctx_.links[queues_[slot.queue].profile()];
    if (slot.offered) {
      for (uint32_t pool : links) offering_[pool].erase({slot.job.need.ticks(), s});
    }
    slot.offered = job;
    if (job) {
      slot.job = queued_[*job];
      for (uint32_t pool : links) offering_[pool].insert({slot.job.need.ticks(), s});
    }
    return true;
  }

  void MarkPolicy(uint32_t policy) {
    if (policy_changed_[policy]) return;
    policy_changed_[policy] = true;
    changed_policies_.push_back(policy);
  }
  bool Changed() const { return !changed_policies_.empty() || !released_pools_.empty(); }
  void ClearChanges() {
    for (uint32_t p : changed_policies_) policy_changed_[p] = false;
    for (uint32_t p : usage_policies_) usage_changed_[p] = false;
    usage_policies_.clear();
    joined_slots_.clear();
    for (uint32_t x : released_pools_) released_[x] = false;
    changed_policies_.clear();
    released_pools_.clear();
  }

  /// Marks stale every slot that the changes since the last run may have
  /// given a target (see the header comment).
  void Reopen() {
    ++iteration_;
    if (!Changed()) return;
    bool capacity_rose = false;
    for (uint32_t x : released_pools_) {
      capacity_rose = capacity_rose || state_.Free(ctx_, x) > free_before_[x] || state_.FitLimit(ctx_, x) > fit_before_[x];
    }
    std::vector<uint32_t> rule3;
    if (book_.Reopen(changed_policies_, capacity_rose)) rule3 = Rule3ChangedAcross();
    for (uint32_t policy : usage_policies_) {
      for (uint32_t q : ctx_.queues_of_policy[policy]) {
        for (uint32_t s : queue_slots_[q]) RestaleOnce(s);
      }
    }
    for (uint32_t s : joined_slots_) RestaleOnce(s);
    for (uint32_t x : released_pools_) {
      // A need fits when it is at most the fit limit (and of a shape the
      // pool's machines can take, which no release changes).
      const Quantity before = fit_before_[x], now = state_.FitLimit(ctx_, x);
      if (now <= before) continue;
      // The slots offering a job, by need: only those in (before, now].
      const auto& offering = offering_[x];
      for (auto it = offering.upper_bound({before.ticks(), UINT32_MAX});
           it != offering.end() && it->first <= now.ticks(); ++it) {
        RestaleOnce(it->second);
      }
    }
    for (uint32_t s : rule3) {
      if (slots_[s].clean) RestaleOnce(s);
    }
    // Answers that passed the reservation rule trivially need nothing: such
    // an answer is a target, and a run ends with none.
    ClearChanges();
  }

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
    if (!slot.offered) return;
    const QueuedJob& j = slot.job;
    // Over the limit, or no room in any linked pool: no target while its own
    // policy does not place (free capacity only shrinks).
    if (state_.used[j.policy] + j.need > ctx_.limit[j.policy]) return;
    uint32_t best = UINT32_MAX;
    for (uint32_t pool : ctx_.links[j.profile]) {
      if (state_.Fits(ctx_, pool, j.need)) best = std::min(best, ctx_.ExecRank(pool, j.profile));
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
    if (!slot.offered) return;
    const QueuedJob& j = slot.job;
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

  /// Rule3Changed for a new epoch between runs: free capacity changed in
  /// every released pool, and a policy that took no part in the flows may
  /// take part now (it reaches a pool with more room), so its answers read
  /// as a bystander's no longer hold.
  std::vector<uint32_t> Rule3ChangedAcross() {
    std::vector<uint32_t> out;
    for (uint32_t x = 0; x < consulted_.size(); ++x) {
      auto& list = consulted_[x];
      size_t bystanders = 0;
      for (const Consulted& c : list) {
        if (!Current(c)) continue;
        const Slot& slot = slots_[c.slot];
        if (slot.rule3_part || book_.TakesPart(queues_[slot.queue].policy())) {
          out.push_back(c.slot);
        } else {
          list[bystanders++] = c;
        }
      }
      list.resize(bystanders);
      if (!list.empty() && (released_[x] || !book_.SameVerdictsForBystanders(x))) {
        for (const Consulted& c : list) out.push_back(c.slot);
        list.clear();
      }
    }
    return out;
  }

  /// A reservation rule that passed only because nobody else had an
  /// outstanding reservation can change only when someone now has one.
  void RestaleTrivial() {
    std::vector<uint32_t> trivial;
    trivial.swap(trivial_);
    for (uint32_t s : trivial) slots_[s].in_trivial_list = false;
    for (uint32_t s : trivial) {
      if (slots_[s].clean) RestaleOnce(s);
    }
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
      for (uint32_t s : queue_slots_[q]) RestaleOnce(s);
    }
    // Answers that involved the reservation rule, with or without a target
    // (a refusal can turn into a target as other policies' state changes).
    for (uint32_t s : rule3) {
      if (slots_[s].clean) RestaleOnce(s);
    }
    if (policy_need_grew) RestaleTrivial();
  }

  ScheduleContext ctx_;
  PassState state_;
  const std::vector<QueuedJob>& queued_;
  std::vector<Holding> holdings_;
  /// Per queued job, with any pool of nodes: the (first) machine it was placed on.
  std::vector<uint32_t> job_machine_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> job_more_;  ///< the other machines of whole-machine jobs
  std::vector<uint32_t> unschedulable_;  ///< joined jobs that can never be placed
  std::unordered_map<uint64_t, uint32_t> queue_index_;  ///< Key(policy, profile) -> queue
  std::vector<JobQueue> queues_;
  ReservationBook book_;
  std::vector<Slot> slots_;
  std::vector<std::vector<uint32_t>> queue_slots_;  ///< per queue: its slots, by index
  ReadySlots ready_;                  ///< clean slots with a target and stale slots, by key
  std::vector<std::vector<uint32_t>> by_pool_;
  std::vector<uint32_t> trivial_;
  /// Per pool: rule 3 answers that looked at it (stale entries are skipped).
  std::vector<std::vector<Consulted>> consulted_;
  /// Per pool: the slots whose profile links it and that offer a job, by
  /// (the offered job's need, slot).
  std::vector<std::set<std::pair<Ticks, uint32_t>>> offering_;
  // Changes since the last run.
  std::vector<bool> released_;        ///< per pool: a job finished there
  std::vector<uint32_t> released_pools_;
  std::vector<Quantity> free_before_; ///< per released pool: its free capacity at the last run
  std::vector<Quantity> fit_before_;  ///< per released pool: its fit limit at the last run
  std::vector<bool> policy_changed_;  ///< per policy: usage fell or a job joined (the book refreshes them)
  std::vector<uint32_t> changed_policies_;
  std::vector<bool> usage_changed_;   ///< per policy: usage fell (all its slots are looked at again)
  std::vector<uint32_t> usage_policies_;
  std::vector<uint32_t> joined_slots_;  ///< slots that offered nothing and now offer a joined job
  bool first_run_ = true;
  uint64_t iteration_ = 1;
  uint64_t evaluations_ = 0;
  uint64_t restales_ = 0;
  uint64_t placements_ = 0;
  uint64_t runs_ = 0;
};

IncrementalPass::IncrementalPass(const Config& config, const std::vector<QueuedJob>& queued,
                                 const std::vector<Holding>& holdings, const std::vector<uint32_t>* initial)
    : impl_(std::make_unique<Impl>(config, queued, holdings, initial)) {}
IncrementalPass::~IncrementalPass() = default;

void IncrementalPass::Join(uint32_t job) { impl_->Join(job); }
void IncrementalPass::ReleaseJob(uint32_t job, uint32_t pool) { impl_->ReleaseJob(job, pool); }
void IncrementalPass::Requeue(uint32_t job) { impl_->Requeue(job); }
void IncrementalPass::ReleaseHolding(uint32_t index) { impl_->ReleaseHolding(index); }
void IncrementalPass::Run(std::vector<Placement>* placements) { impl_->Run(placements); }
void IncrementalPass::Explain(SchedulingResult* result) { impl_->Explain(result); }
void IncrementalPass::AddStats(PassStats* stats) const { impl_->AddStats(stats); }

}  // namespace rescfg
