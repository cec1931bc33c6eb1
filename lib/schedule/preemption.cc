#include "schedule/preemption.h"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "config/human_amount.h"
#include "schedule/context.h"
#include "schedule/pass_state.h"
#include "schedule/preemption_trace.h"

namespace rescfg {
namespace {

constexpr uint32_t kNone = UINT32_MAX;

class Decider {
 public:
  Decider(const SchedulingInput& input, SchedulingResult* result, PreemptionStats* stats, const ScheduleContext& ctx,
          PreemptionState& prepared)
      : input_(input), ctx_(ctx), settings_(*input.config->preemption), result_(result), stats_(stats),
        book_(prepared), state_(prepared.state), trace_(input.preemption_trace), first_(result->preemptions.size()) {}

  /// Gives the prepared state back as it was before Run: the preemptors' places freed, the
  /// victims and awaited jobs holding again.
  void Restore() {
    for (size_t d = result_->preemptions.size(); d-- > first_;) {
      const Preemption& p = result_->preemptions[d];
      const QueuedJob& j = input_.queued[p.job];
      state_.Release(p.pool, j.need, placed_[d - first_]);
      state_.used[j.policy] -= j.need;
      for (uint32_t i : p.victims) {
        Undo(i);
        book_.Back(i);
      }
      for (uint32_t i : p.awaiting) {
        Hold(i);
        book_.promised[i] = false;
      }
    }
  }

  void Run() {
    std::vector<std::pair<uint32_t, size_t>> preemptors;  // a job and its place in result_->pending
    for (size_t k = 0; k < result_->pending.size(); ++k) {
      const PendingJob& p = result_->pending[k];
      if (Preemptor(p)) preemptors.push_back({p.job, k});
      if (trace_ && p.job == trace_->job) trace_->verdict = Judge(p);
    }
    std::sort(preemptors.begin(), preemptors.end(), [&](const auto& a, const auto& b) {
      const QueuedJob& x = input_.queued[a.first];
      const QueuedJob& y = input_.queued[b.first];
      return std::tuple(WaitUnknown(x), x.enqueued_us, x.position) < std::tuple(WaitUnknown(y), y.enqueued_us, y.position);
    });
    if (trace_) trace_->preemptors = static_cast<uint32_t>(preemptors.size());
    for (size_t turn = 0; turn < preemptors.size(); ++turn) {
      const auto [job, pending] = preemptors[turn];
      const QueuedJob& j = input_.queued[job];
      const bool traced = trace_ && job == trace_->job;
      turn_ = static_cast<uint32_t>(turn + 1);
      if (traced) StartTrace(job, turn);
      // Its policy's share may have grown through earlier decisions.
      if (state_.used[j.policy] + j.need > std::min(ctx_.reserved[j.policy], ctx_.limit[j.policy])) {
        if (traced) trace_->verdict = PreemptorVerdict::kBeyondAfterEarlier;
        continue;
      }
      if (stats_) ++stats_->preemptors;
      for (size_t k = 0; k < ctx_.links[j.profile].size(); ++k) {
        const uint32_t x = ctx_.links[j.profile][k];
        if (ctx_.pool_paused[x]) continue;
        if (stats_) ++stats_->pools;
        if (Try(job, x, pending, traced ? &trace_->pools[k] : nullptr)) break;
      }
    }
  }

 private:
  bool Candidate(const Holding& h) const { return JudgeVictim(ctx_.config, h, input_.now_us) == VictimEligibility::kCandidate; }
  bool WaitUnknown(const QueuedJob& j) const { return j.enqueued_us == kUnknownTime || input_.now_us == kUnknownTime; }
  bool Preemptor(const PendingJob& p) const { return Judge(p) == PreemptorVerdict::kTried; }
  PreemptorVerdict Judge(const PendingJob& p) const {
    if (p.reason != PendingReason::kCapacity && p.reason != PendingReason::kFragmented) return PreemptorVerdict::kReason;
    const QueuedJob& j = input_.queued[p.job];
    if (ctx_.policy_paused[j.policy]) return PreemptorVerdict::kPolicyPaused;
    if (state_.used[j.policy] + j.need > std::min(ctx_.reserved[j.policy], ctx_.limit[j.policy])) {
      return PreemptorVerdict::kBeyondReservation;
    }
    // StrictFIFO: a capacity or fragmented job is the first schedulable pending job of its queue
    // already (an earlier one would make it fifo-blocked).
    const bool waited = WaitUnknown(j) ? settings_.delay_us == 0 : input_.now_us - j.enqueued_us >= settings_.delay_us;
    return waited ? PreemptorVerdict::kTried : PreemptorVerdict::kDelay;
  }
  /// The traced job's turn: its pools, in link order, not reached until tried.
  void StartTrace(uint32_t job, size_t turn) {
    const QueuedJob& j = input_.queued[job];
    trace_->turn = static_cast<uint32_t>(turn + 1);
    trace_->decided_before = static_cast<uint32_t>(result_->preemptions.size());
    trace_->used = state_.used[j.policy];
    trace_->pools.clear();
    for (uint32_t x : ctx_.links[j.profile]) {
      trace_->pools.push_back({x, ctx_.pool_paused[x] ? PoolTrial::Outcome::kPaused : PoolTrial::Outcome::kNotReached, {}});
    }
  }
  /// Records a step of the traced trial (`rec`, nullptr: none).
  void Step(PoolTrial* rec, uint32_t i, TraceStep::Kind kind) const {
    if (!rec) return;
    const Holding& h = input_.holdings[i];
    rec->steps.push_back({i, kind, h.policy ? state_.used[*h.policy] : Quantity()});
  }
  static void Mark(PoolTrial* rec, uint32_t i, TraceStep::Kind kind) {
    if (!rec) return;
    for (TraceStep& step : rec->steps) {
      if (step.holding == i && step.kind == TraceStep::Kind::kTaken) step.kind = kind;
    }
  }
  using Key = PreemptionState::Key;
  Quantity Excess(uint32_t policy) const { return state_.used[policy] - ctx_.reserved[policy]; }
  /// The full candidate order: the larger excess of the policy first, then StaticKey.
  bool Before(uint32_t a, uint32_t b) const {
    const auto& ha = input_.holdings[a];
    const auto& hb = input_.holdings[b];
    const Quantity ea = ha.policy ? Excess(*ha.policy) : Quantity();
    const Quantity eb = hb.policy ? Excess(*hb.policy) : Quantity();
    if (ea != eb) return ea > eb;
    return book_.key[a] < book_.key[b];
  }
  /// A group's head in the walk: its policy's excess when it was filed (only a step of the
  /// same policy changes it) and its position.
  struct Head {
    Quantity excess;
    const Key* key;
    uint32_t policy, group, at;
  };
  Head MakeHead(uint32_t group, uint32_t at) const {
    const uint32_t policy = book_.group(group).policy;
    return {Excess(policy), &book_.key[book_.group(group).members[at]], policy, group, at};
  }
  /// Heap order: true when `a` comes after `b` (Before, the lower policy first on a tie).
  static bool Later(const Head& a, const Head& b) {
    if (a.excess != b.excess) return a.excess < b.excess;
    if (*a.key != *b.key) return *b.key < *a.key;
    return a.policy > b.policy;
  }

  void Free(uint32_t i) {
    const Holding& h = input_.holdings[i];
    state_.Release(*h.pool, h.amount, state_.holding_spots[i]);
  }
  void Hold(uint32_t i) {
    const Holding& h = input_.holdings[i];
    state_.held[*h.pool] += h.amount;
    state_.machines[*h.pool].Hold(state_.holding_spots[i], h.amount);
  }
  bool Fits(uint32_t pool, Quantity need) const { return state_.Fits(ctx_, pool, need); }

  /// Tries pool x for job: records the decision and returns true, or leaves the state as it was.
  bool Try(uint32_t job, uint32_t x, size_t pending, PoolTrial* rec) {
    const QueuedJob& j = input_.queued[job];
    // A victim's story: every trial in its pool is recorded, the one that takes it kept.
    PoolTrial scratch{x, PoolTrial::Outcome::kNoFit, {}};
    if (!rec && trace_ && trace_->holding != PreemptionTrace::kNone && input_.holdings[trace_->holding].pool == x) {
      rec = &scratch;
    }
    if (rec) rec->outcome = PoolTrial::Outcome::kNoFit;
    std::vector<uint32_t> stopping;
    for (uint32_t i : book_.stopping[x]) {
      if (!book_.promised[i]) stopping.push_back(i);
    }
    // A cheap bound first: free, stopping and what the guard lets each other policy give.
    Quantity takeable = Quantity::SaturatingSub(ctx_.pool_size[x], state_.held[x]);
    for (uint32_t i : stopping) takeable += input_.holdings[i].amount;
    for (uint32_t g : book_.GroupsOf(x)) {
      if (takeable >= j.need) break;
      const uint32_t p = book_.group(g).policy;
      if (p == j.policy || Excess(p) <= Quantity()) continue;
      takeable += Excess(p);
    }
    if (takeable < j.need && rec == nullptr) {  // a traced trial walks: the same outcome, told
      if (stats_) ++stats_->skipped;
      return false;
    }
    // 1. Stopping jobs not yet promised count as free: the fewest, in candidate order.
    std::sort(stopping.begin(), stopping.end(), [&](uint32_t a, uint32_t b) { return Before(a, b); });
    std::vector<uint32_t> awaited;
    for (uint32_t i : stopping) {
      if (Fits(x, j.need)) break;
      if (stats_) ++stats_->looked;
      Step(rec, i, TraceStep::Kind::kAwaited);
      Free(i);
      awaited.push_back(i);
    }
    std::vector<uint32_t> victims;
    if (awaited.empty() && Fits(x, j.need)) {  // it needs no preemption here
      if (rec) rec->outcome = PoolTrial::Outcome::kFitsAlready;
      return false;
    }
    if (!Fits(x, j.need)) {
      // 2. The walk, evaluated again after each victim taken: the head of each policy's group,
      // the first in candidate order taken next. Taking or passing over a job changes only its
      // own policy's key, so the heads wait in a heap.
      std::vector<Head> heads;
      for (uint32_t g : book_.GroupsOf(x)) {
        const PreemptionState::Group& group = book_.group(g);
        // Below its reservation a policy gives nothing, and an untold walk passes it by.
        if (group.policy == j.policy || (!rec && Excess(group.policy) < Quantity())) continue;
        const uint32_t k = book_.Next(g, 0, Takes(group.policy, rec));
        if (k < group.members.size()) heads.push_back(MakeHead(g, k));
      }
      std::make_heap(heads.begin(), heads.end(), Later);
      while (!Fits(x, j.need) && !heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), Later);
        const Head head = heads.back();
        heads.pop_back();
        const uint32_t best = book_.group(head.group).members[head.at];
        const Holding& h = input_.holdings[best];
        if (stats_) ++stats_->looked;
        if (state_.used[*h.policy] - h.amount < ctx_.reserved[*h.policy]) {  // passed over
          Step(rec, best, TraceStep::Kind::kPassedOver);
        } else {
          Step(rec, best, TraceStep::Kind::kTaken);
          Free(best);
          state_.used[*h.policy] -= h.amount;
          victims.push_back(best);
        }
        const uint32_t k = book_.Next(head.group, head.at + 1, Takes(head.policy, rec));
        if (k < book_.group(head.group).members.size()) {
          heads.push_back(MakeHead(head.group, k));
          std::push_heap(heads.begin(), heads.end(), Later);
        }
      }
      if (!Fits(x, j.need)) {
        for (uint32_t i : victims) Mark(rec, i, TraceStep::Kind::kReleased);
        for (uint32_t i : victims) Undo(i);
        for (uint32_t i : awaited) Hold(i);
        return false;
      }
      // 3. Fill-back: last taken first, except the last taken one.
      for (size_t k = victims.size(); k-- > 1;) {
        const uint32_t i = victims[k - 1];
        Undo(i);
        if (Fits(x, j.need)) {
          Mark(rec, i, TraceStep::Kind::kPutBack);
          victims.erase(victims.begin() + static_cast<std::ptrdiff_t>(k - 1));
        } else {
          Retake(i);
        }
      }
    }
    for (uint32_t i : awaited) book_.promised[i] = true;
    for (uint32_t i : victims) book_.Gone(i);
    if (rec) rec->outcome = PoolTrial::Outcome::kDecided;
    if (rec == &scratch && std::find(victims.begin(), victims.end(), trace_->holding) != victims.end()) {
      trace_->job = job;
      trace_->verdict = PreemptorVerdict::kTried;
      trace_->turn = turn_;
      trace_->decided_before = static_cast<uint32_t>(result_->preemptions.size());
      trace_->used = state_.used[j.policy];
      trace_->pools.assign(1, std::move(scratch));
    }
    Decide(job, x, std::move(victims), std::move(awaited), pending);
    return true;
  }
  /// The largest amount a walk looks at in a group of `policy`: any when the walk is told (every
  /// job passed over is a step of its story), else the policy's excess (a larger job would be
  /// passed over, which changes nothing; the excess changes only when the policy's head is taken).
  Ticks Takes(uint32_t policy, const PoolTrial* rec) const {
    return rec ? PreemptionState::kGone - 1 : std::max(Excess(policy).ticks(), PreemptionState::kEnd + 1);
  }
  void Undo(uint32_t i) {
    const Holding& h = input_.holdings[i];
    Hold(i);
    state_.used[*h.policy] += h.amount;
  }
  void Retake(uint32_t i) {
    const Holding& h = input_.holdings[i];
    Free(i);
    state_.used[*h.policy] -= h.amount;
  }

  void Decide(uint32_t job, uint32_t x, std::vector<uint32_t> victims, std::vector<uint32_t> awaited,
              size_t pending_at) {
    const QueuedJob& j = input_.queued[job];
    std::string text = Message(j, x, victims, awaited);  // with the usage before j counts
    state_.used[j.policy] += j.need;
    placed_.push_back(state_.Place(x, j.need));
    if (stats_) ++stats_->decisions;
    PendingJob& pending = result_->pending[pending_at];
    pending.reason = PendingReason::kPreempting;
    pending.blocked_by.reset();
    pending.message = static_cast<uint32_t>(result_->messages.size());
    result_->messages.push_back(std::move(text));
    result_->preemptions.push_back({job, x, std::move(victims), std::move(awaited)});
  }

  /// `waits for 2 jobs of Dev to stop in H100: Dev uses 12 of its 8 reserved; Research 4 of 8`:
  /// the usage of each victim's policy before its victims were taken, and the preemptor's.
  std::string Message(const QueuedJob& j, uint32_t x, const std::vector<uint32_t>& victims,
                      const std::vector<uint32_t>& awaited) const {
    std::vector<std::pair<uint32_t, Quantity>> policies;  // in first appearance; kNone: no policy
    std::vector<uint32_t> counts;
    for (const auto* list : {&victims, &awaited}) {
      for (uint32_t i : *list) {
        const Holding& h = input_.holdings[i];
        const uint32_t p = h.policy ? *h.policy : kNone;
        auto it = std::find_if(policies.begin(), policies.end(), [&](const auto& e) { return e.first == p; });
        if (it == policies.end()) {
          policies.push_back({p, Quantity()});
          counts.push_back(0);
          it = policies.end() - 1;
        }
        ++counts[static_cast<size_t>(it - policies.begin())];
        if (list == &victims) it->second += h.amount;  // given back to its usage below
      }
    }
    const auto& config = ctx_.config;
    std::string text = "waits for ";
    for (size_t k = 0; k < policies.size(); ++k) {
      if (k) text += k + 1 == policies.size() ? " and " : ", ";
      text += std::to_string(counts[k]) + (k ? "" : counts[k] == 1 ? " job" : " jobs") + " of " +
              (policies[k].first == kNone ? std::string("no policy") : config.policies[policies[k].first].name);
    }
    text += " to stop in " + config.pools[x].name + ":";
    bool first = true;
    auto usage = [&](uint32_t p, Quantity used) {
      text += (first ? " " : "; ") + config.policies[p].name + (first ? " uses " : " ") + HumanAmount(used) +
              (first ? " of its " : " of ") + HumanAmount(ctx_.reserved[p]) + (first ? " reserved" : "");
      first = false;
    };
    for (const auto& [p, taken] : policies) {
      if (p != kNone) usage(p, state_.used[p] + taken);
    }
    usage(j.policy, state_.used[j.policy]);
    return text;
  }

  const SchedulingInput& input_;
  const ScheduleContext& ctx_;
  const PreemptionSettings& settings_;
  SchedulingResult* result_;
  PreemptionStats* stats_;
  PreemptionState& book_;
  PassState& state_;
  PreemptionTrace* trace_;
  uint32_t turn_ = 0;  ///< the current preemptor's turn (1-based)
  size_t first_;                    ///< result_->preemptions before Run
  std::vector<MachineSpot> placed_;  ///< per decision of Run: where its preemptor was placed
};

}  // namespace

void DecidePreemptions(const SchedulingInput& input, SchedulingResult* result, PreemptionStats* stats,
                       const ScheduleContext* ctx) {
  if (!input.config->preemption || !input.config->enabled) return;
  std::optional<ScheduleContext> own;
  if (!ctx) ctx = &own.emplace(*input.config);
  PreemptionState prepared(*ctx, input, input.holding_id_rank);
  prepared.Place(*result);
  DecidePreemptions(input, result, prepared, stats, *ctx, false);
}

void DecidePreemptions(const SchedulingInput& input, SchedulingResult* result, PreemptionState& prepared,
                       PreemptionStats* stats, const ScheduleContext& ctx, bool keep) {
  if (!input.config->preemption || !input.config->enabled) return;
  if (stats) stats->setup += keep ? 0 : prepared.setup_work;
  Decider decider(input, result, stats, ctx, prepared);
  decider.Run();
  if (keep) decider.Restore();
}

}  // namespace rescfg
