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

/// The pass's final state, rebuilt from its result: running jobs where they hold, then the
/// placements on the machines the pass chose.
PassState FinalState(const ScheduleContext& ctx, const SchedulingInput& input, const SchedulingResult& result) {
  PassState state = PassState::Initial(ctx, input.holdings);
  for (const Placement& p : result.placements) {
    const QueuedJob& j = input.queued[p.job];
    state.used[j.policy] += j.need;
    state.held[p.pool] += j.need;
    if (p.machine == Placement::kNoMachine) continue;
    MachineSpot spot;
    spot.first = p.machine;
    const auto& spans = result.job_spans;  // ascending by job
    auto it = std::lower_bound(spans.begin(), spans.end(), p.job, [](const auto& e, uint32_t i) { return e.first < i; });
    if (it != spans.end() && it->first == p.job) spot.more.assign(it->second.begin() + 1, it->second.end());
    state.machines[p.pool].Hold(spot, j.need);
  }
  return state;
}

class Decider {
 public:
  Decider(const SchedulingInput& input, SchedulingResult* result, PreemptionStats* stats, const ScheduleContext* ctx)
      : input_(input), own_ctx_(ctx ? std::nullopt : std::optional<ScheduleContext>(std::in_place, *input.config)),
        ctx_(ctx ? *ctx : *own_ctx_), settings_(*input.config->preemption), result_(result), stats_(stats),
        state_(FinalState(ctx_, input, *result)), trace_(input.preemption_trace) {
    const auto& holdings = input.holdings;
    promised_.assign(holdings.size(), false);
    stopping_.assign(ctx_.pool_count, {});
    key_.resize(holdings.size());
    std::vector<uint32_t> candidates;
    for (uint32_t i = 0; i < holdings.size(); ++i) {
      const Holding& h = holdings[i];
      if (h.stopping && h.policy) state_.used[*h.policy] -= h.amount;  // already going
      if (!h.pool) continue;
      if (h.stopping) {
        key_[i] = StaticKey(*h.pool, i);
        stopping_[*h.pool].push_back(i);
      } else if (Candidate(h)) {
        key_[i] = StaticKey(*h.pool, i);
        candidates.push_back(i);
      }
    }
    // Groups of one pool's candidates of one policy, by pool then policy, each in StaticKey
    // order and followed by an end position.
    std::sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
      const Holding& ha = holdings[a];
      const Holding& hb = holdings[b];
      return std::tie(*ha.pool, *ha.policy, key_[a]) < std::tie(*hb.pool, *hb.policy, key_[b]);
    });
    place_.assign(holdings.size(), 0);
    pool_groups_.assign(ctx_.pool_count + 1, 0);
    for (size_t k = 0; k < candidates.size(); ++k) {
      const uint32_t i = candidates[k];
      const Holding& h = holdings[i];
      if (k == 0 || *holdings[candidates[k - 1]].pool != *h.pool || *holdings[candidates[k - 1]].policy != *h.policy) {
        if (!groups_.empty()) position_.push_back(kNone);  // the sentinel of the group before
        groups_.push_back({*h.policy, static_cast<uint32_t>(position_.size())});
        ++pool_groups_[*h.pool + 1];
      }
      place_[i] = static_cast<uint32_t>(position_.size());
      position_.push_back(i);
    }
    if (!groups_.empty()) position_.push_back(kNone);
    for (uint32_t x = 0; x < ctx_.pool_count; ++x) pool_groups_[x + 1] += pool_groups_[x];
    leaves_ = 1;
    while (leaves_ < position_.size()) leaves_ *= 2;
    smallest_.assign(2 * leaves_, kGone);
    for (size_t k = 0; k < position_.size(); ++k) {
      smallest_[leaves_ + k] = position_[k] == kNone ? kEnd : holdings[position_[k]].amount.ticks();
    }
    for (size_t k = leaves_; k-- > 1;) smallest_[k] = std::min(smallest_[2 * k], smallest_[2 * k + 1]);
  }

  void Run() {
    std::vector<uint32_t> preemptors;
    std::vector<size_t> pending_of(input_.queued.size(), SIZE_MAX);
    for (size_t k = 0; k < result_->pending.size(); ++k) {
      const PendingJob& p = result_->pending[k];
      pending_of[p.job] = k;
      if (Preemptor(p)) preemptors.push_back(p.job);
      if (trace_ && p.job == trace_->job) trace_->verdict = Judge(p);
    }
    std::sort(preemptors.begin(), preemptors.end(), [&](uint32_t a, uint32_t b) {
      const QueuedJob& x = input_.queued[a];
      const QueuedJob& y = input_.queued[b];
      return std::tuple(WaitUnknown(x), x.enqueued_us, x.position) < std::tuple(WaitUnknown(y), y.enqueued_us, y.position);
    });
    if (trace_) trace_->preemptors = static_cast<uint32_t>(preemptors.size());
    for (size_t turn = 0; turn < preemptors.size(); ++turn) {
      const uint32_t job = preemptors[turn];
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
        if (Try(job, x, &pending_of, traced ? &trace_->pools[k] : nullptr)) break;
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
  /// The order among one pool's candidates of one policy: the least favoured profile first, the
  /// later start (unknown: oldest), the smaller holding, the id.
  using Key = std::tuple<int64_t, int64_t, Quantity, uint32_t>;
  Key StaticKey(uint32_t pool, uint32_t i) const {
    const Holding& h = input_.holdings[i];
    const uint32_t profile = i < input_.holding_profile.size() ? input_.holding_profile[i] : SchedulingInput::kNoProfile;
    // Its rank in the pool's execution priority (without one: file order); unranked or no
    // profile known: after every ranked one.
    int64_t rank = int64_t(ctx_.profile_count);
    if (profile != SchedulingInput::kNoProfile) {
      const uint32_t r = ctx_.ExecRank(pool, profile);
      if (!ctx_.config.pools[pool].execution_priority) {
        rank = profile;
      } else if (r != UINT32_MAX) {
        rank = r;
      }
    }
    const uint32_t id = i < input_.holding_id_rank.size() ? input_.holding_id_rank[i] : i;
    return {-rank, h.started_us == kUnknownTime ? INT64_MAX : -h.started_us, h.amount, id};
  }
  Quantity Excess(uint32_t policy) const { return state_.used[policy] - ctx_.reserved[policy]; }
  /// The full candidate order: the larger excess of the policy first, then StaticKey.
  bool Before(uint32_t a, uint32_t b) const {
    const auto& ha = input_.holdings[a];
    const auto& hb = input_.holdings[b];
    const Quantity ea = ha.policy ? Excess(*ha.policy) : Quantity();
    const Quantity eb = hb.policy ? Excess(*hb.policy) : Quantity();
    if (ea != eb) return ea > eb;
    return key_[a] < key_[b];
  }
  /// A group's head in the walk: its policy's excess when it was filed (only a step of the
  /// same policy changes it) and its position.
  struct Head {
    Quantity excess;
    const Key* key;
    uint32_t policy, at;
  };
  Head MakeHead(uint32_t policy, uint32_t at) const { return {Excess(policy), &key_[position_[at]], policy, at}; }
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
  bool Try(uint32_t job, uint32_t x, std::vector<size_t>* pending_of, PoolTrial* rec) {
    const QueuedJob& j = input_.queued[job];
    // A victim's story: every trial in its pool is recorded, the one that takes it kept.
    PoolTrial scratch{x, PoolTrial::Outcome::kNoFit, {}};
    if (!rec && trace_ && trace_->holding != PreemptionTrace::kNone && input_.holdings[trace_->holding].pool == x) {
      rec = &scratch;
    }
    if (rec) rec->outcome = PoolTrial::Outcome::kNoFit;
    std::vector<uint32_t> stopping;
    for (uint32_t i : stopping_[x]) {
      if (!promised_[i]) stopping.push_back(i);
    }
    // A cheap bound first: free, stopping and what the guard lets each other policy give.
    Quantity takeable = Quantity::SaturatingSub(ctx_.pool_size[x], state_.held[x]);
    for (uint32_t i : stopping) takeable += input_.holdings[i].amount;
    for (uint32_t g = pool_groups_[x]; g < pool_groups_[x + 1] && takeable < j.need; ++g) {
      const uint32_t p = groups_[g].policy;
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
      for (uint32_t g = pool_groups_[x]; g < pool_groups_[x + 1]; ++g) {
        if (groups_[g].policy == j.policy) continue;
        const uint32_t k = Next(groups_[g].begin, Takes(groups_[g].policy, rec));
        if (position_[k] != kNone) heads.push_back(MakeHead(groups_[g].policy, k));
      }
      std::make_heap(heads.begin(), heads.end(), Later);
      while (!Fits(x, j.need) && !heads.empty()) {
        std::pop_heap(heads.begin(), heads.end(), Later);
        const Head head = heads.back();
        heads.pop_back();
        const uint32_t best = position_[head.at];
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
        const uint32_t k = Next(head.at + 1, Takes(head.policy, rec));
        if (position_[k] != kNone) {
          heads.push_back(MakeHead(head.policy, k));
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
    for (uint32_t i : awaited) promised_[i] = true;
    for (uint32_t i : victims) Gone(place_[i]);
    if (rec) rec->outcome = PoolTrial::Outcome::kDecided;
    if (rec == &scratch && std::find(victims.begin(), victims.end(), trace_->holding) != victims.end()) {
      trace_->job = job;
      trace_->verdict = PreemptorVerdict::kTried;
      trace_->turn = turn_;
      trace_->decided_before = static_cast<uint32_t>(result_->preemptions.size());
      trace_->used = state_.used[j.policy];
      trace_->pools.assign(1, std::move(scratch));
    }
    Decide(job, x, std::move(victims), std::move(awaited), pending_of);
    return true;
  }
  /// The largest amount a walk looks at in a group of `policy`: any when the walk is told (every
  /// job passed over is a step of its story), else the policy's excess (a larger job would be
  /// passed over, which changes nothing; the excess changes only when the policy's head is taken).
  Ticks Takes(uint32_t policy, const PoolTrial* rec) const {
    return rec ? kGone - 1 : std::max(Excess(policy).ticks(), kEnd + 1);
  }
  /// The first position from `k` on in its group whose amount is at most `most` and that is no
  /// victim of an earlier decision; the group's end (position_ kNone) when there is none.
  uint32_t Next(uint32_t k, Ticks most) const {
    size_t i = leaves_ + k;
    while (smallest_[i] > most) {
      while (i & 1) i >>= 1;  // a right child: up to the first ancestor with a right sibling
      ++i;
    }
    while (i < leaves_) i = smallest_[2 * i] <= most ? 2 * i : 2 * i + 1;
    return static_cast<uint32_t>(i - leaves_);
  }
  /// Position k's job is a victim: no walk looks at it again.
  void Gone(uint32_t k) {
    size_t i = leaves_ + k;
    smallest_[i] = kGone;
    for (i /= 2; i >= 1; i /= 2) smallest_[i] = std::min(smallest_[2 * i], smallest_[2 * i + 1]);
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
              std::vector<size_t>* pending_of) {
    const QueuedJob& j = input_.queued[job];
    std::string text = Message(j, x, victims, awaited);  // with the usage before j counts
    state_.used[j.policy] += j.need;
    state_.Place(x, j.need);
    if (stats_) ++stats_->decisions;
    PendingJob& pending = result_->pending[(*pending_of)[job]];
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
  std::optional<ScheduleContext> own_ctx_;  ///< when the caller gives none
  const ScheduleContext& ctx_;
  const PreemptionSettings& settings_;
  SchedulingResult* result_;
  PreemptionStats* stats_;
  PassState state_;
  PreemptionTrace* trace_;
  uint32_t turn_ = 0;  ///< the current preemptor's turn (1-based)
  std::vector<bool> promised_;
  std::vector<Key> key_;                        ///< per candidate or stopping holding: StaticKey
  std::vector<std::vector<uint32_t>> stopping_;  ///< [pool]: stopping holdings
  struct Group {
    uint32_t policy, begin;  ///< begin: its first position
  };
  std::vector<Group> groups_;          ///< by pool, then policy
  std::vector<uint32_t> pool_groups_;  ///< per pool: its groups are [pool_groups_[x], pool_groups_[x + 1])
  std::vector<uint32_t> position_;     ///< the groups' candidates, each group followed by kNone
  std::vector<uint32_t> place_;        ///< per candidate: its position
  /// A segment tree of the least amount over positions (leaves from leaves_ on): kGone for
  /// earlier victims and padding, kEnd for a group's end, so that a search stops there.
  static constexpr Ticks kGone = Ticks(1) << 126, kEnd = -(Ticks(1) << 126);
  size_t leaves_ = 1;
  std::vector<Ticks> smallest_;
};

}  // namespace

void DecidePreemptions(const SchedulingInput& input, SchedulingResult* result, PreemptionStats* stats,
                       const ScheduleContext* ctx) {
  if (!input.config->preemption || !input.config->enabled) return;
  Decider(input, result, stats, ctx).Run();
}

}  // namespace rescfg
