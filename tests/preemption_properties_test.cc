/// Properties of preemption (rescfg-scheduling(7), PREEMPTION) on generated scenarios: agreement
/// with the plain reference of tests/support/reference_preemption, and every invariant the
/// rules promise.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>

#include "schedule/preemption.h"
#include "schedule/preemption_trace.h"
#include "schedule/problem.h"
#include "support/borrowers.h"
#include "support/generators.h"
#include "support/reference_preemption.h"
#include "support/reference_scheduler.h"

namespace rescfg {
namespace {

using testing::GenScenario;
using testing::Scenario;

constexpr int64_t kMinute = 60'000'000;
constexpr int64_t kNow = 1'795'082'400'000'000;

/// A scenario with preemption on: run starts (some unknown), stopping and handed-over jobs,
/// enqueue times (some unknown), non-preemptible policies, profiles and id ranks of holdings.
struct PreemptionCase {
  Scenario scenario;
  SchedulingInput input;
};

PreemptionCase GenCase() {
  PreemptionCase c;
  // Most cases have borrowers above their reservation while reserving teams wait: preemption
  // has work (a general scenario rarely preempts).
  c.scenario = *rc::gen::inRange(0, 4) == 0 ? *GenScenario() : *testing::GenBorrowers();
  auto config = std::make_shared<Config>(*c.scenario.config);
  config->preemption = PreemptionSettings{};
  config->preemption->min_runtime_us = *rc::gen::element<int64_t>(0, 10 * kMinute);
  config->preemption->delay_us = *rc::gen::element<int64_t>(0, kMinute);
  for (Policy& p : config->policies) p.preemptible = *rc::gen::inRange(0, 6) != 0;
  c.scenario.config = config;
  c.input = c.scenario.Input();
  c.input.now_us = kNow;
  for (Holding& h : c.input.holdings) {
    if (*rc::gen::inRange(0, 4) != 0) h.started_us = kNow - *rc::gen::inRange<int64_t>(0, 20) * kMinute;
    h.stopping = *rc::gen::inRange(0, 6) == 0;
    h.handed_over = *rc::gen::inRange(0, 8) == 0;
    const auto profiles = static_cast<uint32_t>(config->profiles.size());
    const uint32_t profile = *rc::gen::inRange<uint32_t>(0, profiles + 1);
    c.input.holding_profile.push_back(profile == profiles ? SchedulingInput::kNoProfile : profile);
  }
  std::vector<uint32_t> ranks(c.input.holdings.size());
  std::iota(ranks.begin(), ranks.end(), 0u);
  c.input.holding_id_rank = testing::Shuffled(ranks);
  for (QueuedJob& j : c.input.queued) {
    if (*rc::gen::inRange(0, 4) != 0) j.enqueued_us = kNow - *rc::gen::inRange<int64_t>(0, 3) * kMinute;
  }
  return c;
}

/// The pass alone (preemption off) and with preemption on.
struct Runs {
  SchedulingResult pass, with;
};
Runs RunBoth(const SchedulingInput& input) {
  Config off = *input.config;
  off.preemption.reset();
  SchedulingInput plain = input;
  plain.config = &off;
  return {RunSchedulingPass(plain), RunSchedulingPass(input)};
}

bool SameDecision(const Preemption& a, const Preemption& b) {
  return a.job == b.job && a.pool == b.pool && a.victims == b.victims && a.awaiting == b.awaiting;
}

std::string Show(const std::vector<Preemption>& ds) {
  std::string out;
  for (const Preemption& d : ds) {
    out += std::to_string(d.job) + "@" + std::to_string(d.pool) + " victims";
    for (uint32_t v : d.victims) out += " " + std::to_string(v);
    out += " awaiting";
    for (uint32_t v : d.awaiting) out += " " + std::to_string(v);
    out += "; ";
  }
  return out;
}

RC_GTEST_PROP(PreemptionProperties, AgreesWithTheReference, ()) {
  PreemptionCase c = GenCase();
  Runs r = RunBoth(c.input);
  const std::vector<Preemption> slow = reference::Preempt(c.input, r.pass);
  RC_CLASSIFY(!slow.empty(), "preempts");
  RC_CLASSIFY(std::any_of(slow.begin(), slow.end(), [](const Preemption& p) { return !p.awaiting.empty(); }),
              "awaits stopping jobs");
  RC_ASSERT(r.with.preemptions.size() == slow.size());
  for (size_t k = 0; k < slow.size(); ++k) {
    if (!SameDecision(r.with.preemptions[k], slow[k])) {
      RC_FAIL("fast: " + Show(r.with.preemptions) + "\nslow: " + Show(slow));
    }
  }
}

RC_GTEST_PROP(PreemptionProperties, ThePassIsUnchangedAndOnlyPreemptorsChangeReason, ()) {
  PreemptionCase c = GenCase();
  Runs r = RunBoth(c.input);
  RC_ASSERT(r.pass.placements.size() == r.with.placements.size());
  for (size_t k = 0; k < r.pass.placements.size(); ++k) {
    RC_ASSERT(r.pass.placements[k].job == r.with.placements[k].job);
    RC_ASSERT(r.pass.placements[k].pool == r.with.placements[k].pool);
    RC_ASSERT(r.pass.placements[k].machine == r.with.placements[k].machine);
  }
  RC_ASSERT(r.pass.policy_used == r.with.policy_used);
  RC_ASSERT(r.pass.pool_in_use == r.with.pool_in_use);
  std::vector<bool> preemptor(c.input.queued.size(), false);
  for (const Preemption& p : r.with.preemptions) preemptor[p.job] = true;
  RC_ASSERT(r.pass.pending.size() == r.with.pending.size());
  for (size_t k = 0; k < r.pass.pending.size(); ++k) {
    const PendingJob& before = r.pass.pending[k];
    const PendingJob& after = r.with.pending[k];
    RC_ASSERT(before.job == after.job);
    if (preemptor[after.job]) {
      RC_ASSERT(after.reason == PendingReason::kPreempting);
      // Necessity: it fitted nowhere without preempting.
      RC_ASSERT(before.reason == PendingReason::kCapacity || before.reason == PendingReason::kFragmented);
    } else {
      RC_ASSERT(after.reason == before.reason);
    }
  }
}

RC_GTEST_PROP(PreemptionProperties, InvariantsHold, ()) {
  PreemptionCase c = GenCase();
  const SchedulingInput& in = c.input;
  const Config& config = *in.config;
  Runs r = RunBoth(in);
  // Usage as preemption counts it: the pass's, without stopping jobs.
  std::vector<Quantity> used = r.pass.policy_used;
  for (const Holding& h : in.holdings) {
    if (h.stopping && h.policy) used[*h.policy] -= h.amount;
  }
  std::vector<int> seen(in.holdings.size(), 0);
  std::vector<Quantity> taken(config.policies.size()), gained(config.policies.size());
  for (const Preemption& p : r.with.preemptions) {
    const QueuedJob& j = in.queued[p.job];
    RC_ASSERT(!p.victims.empty() || !p.awaiting.empty());
    RC_ASSERT(!config.policies[j.policy].paused);
    gained[j.policy] += j.need;
    for (uint32_t v : p.victims) {
      ++seen[v];
      // Eligibility: minRuntime, preemptible, not stopping, not handed over; in the pool.
      RC_ASSERT(reference::Eligible(in, v));
      RC_ASSERT(*in.holdings[v].pool == p.pool);
      RC_ASSERT(*in.holdings[v].policy != j.policy);
      taken[*in.holdings[v].policy] += in.holdings[v].amount;
    }
    for (uint32_t a : p.awaiting) {
      ++seen[a];
      RC_ASSERT(in.holdings[a].stopping);
      RC_ASSERT(*in.holdings[a].pool == p.pool);
    }
    // Delay: it waited long enough.
    const int64_t delay = config.preemption->delay_us;
    const bool waited = j.enqueued_us == kUnknownTime ? delay == 0 : kNow - j.enqueued_us >= delay;
    RC_ASSERT(waited);
  }
  // Disjointness.
  for (int n : seen) RC_ASSERT(n <= 1);
  for (uint32_t p = 0; p < config.policies.size(); ++p) {
    const Quantity reserved = config.policies[p].reserved;
    // Victim floor.
    if (!taken[p].is_zero()) RC_ASSERT(used[p] - taken[p] >= reserved);
    // Preemptor ceiling.
    if (!gained[p].is_zero()) {
      Quantity ceiling = config.policies[p].limit ? std::min(reserved, *config.policies[p].limit) : reserved;
      RC_ASSERT(used[p] + gained[p] <= ceiling);
    }
  }
}

/// Sufficiency and 1-minimality, replayed decision by decision on the reference's state.
RC_GTEST_PROP(PreemptionProperties, VictimsSufficeAndNoneCanBeSpared, ()) {
  PreemptionCase c = GenCase();
  const SchedulingInput& in = c.input;
  Runs r = RunBoth(in);
  reference::Semantics sem(in);
  std::vector<std::vector<uint32_t>> spots;
  reference::State s = sem.InitialWithSpots(&spots);
  for (const Placement& p : r.pass.placements) sem.Take(s, p.pool, in.queued[p.job].need);
  auto release = [&](reference::State& t, uint32_t i, int sign) {
    const Holding& h = in.holdings[i];
    const Quantity share =
        spots[i].size() > 1 ? Quantity::Units(in.config->pools[*h.pool].nodes->gpus) : h.amount;
    if (sign < 0) {
      t.held[*h.pool] -= h.amount;
      for (uint32_t m : spots[i]) t.machine_held[*h.pool][m] -= share;
    } else {
      t.held[*h.pool] += h.amount;
      for (uint32_t m : spots[i]) t.machine_held[*h.pool][m] += share;
    }
  };
  for (const Preemption& p : r.with.preemptions) {
    const Quantity need = in.queued[p.job].need;
    for (uint32_t a : p.awaiting) release(s, a, -1);
    for (uint32_t v : p.victims) release(s, v, -1);
    RC_ASSERT(sem.Fits(s, p.pool, need));
    for (uint32_t v : p.victims) {
      release(s, v, +1);
      RC_ASSERT(!sem.Fits(s, p.pool, need));
      release(s, v, -1);
    }
    sem.Take(s, p.pool, need);
  }
}

RC_GTEST_PROP(PreemptionProperties, Deterministic, ()) {
  PreemptionCase c = GenCase();
  SchedulingResult a = RunSchedulingPass(c.input), b = RunSchedulingPass(c.input);
  RC_ASSERT(a.preemptions.size() == b.preemptions.size());
  for (size_t k = 0; k < a.preemptions.size(); ++k) RC_ASSERT(SameDecision(a.preemptions[k], b.preemptions[k]));
  RC_ASSERT(a.messages == b.messages);
}

/// The story `explain` tells is the decision's own: tracing a job or a holding changes no
/// decision, and a traced preemptor's deciding pool took exactly its victims and awaited jobs.
RC_GTEST_PROP(PreemptionProperties, TracingChangesNothing, ()) {
  PreemptionCase c = GenCase();
  const SchedulingResult plain = RunSchedulingPass(c.input);
  PreemptionTrace trace;
  const bool of_job = !c.input.queued.empty() && (c.input.holdings.empty() || *rc::gen::arbitrary<bool>());
  if (of_job) {
    trace.job = *rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(c.input.queued.size()));
  } else if (!c.input.holdings.empty()) {
    trace.holding = *rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(c.input.holdings.size()));
  }
  SchedulingInput traced = c.input;
  traced.preemption_trace = &trace;
  const SchedulingResult told = RunSchedulingPass(traced);
  RC_ASSERT(told.preemptions.size() == plain.preemptions.size());
  for (size_t k = 0; k < plain.preemptions.size(); ++k) RC_ASSERT(SameDecision(told.preemptions[k], plain.preemptions[k]));
  RC_ASSERT(told.messages == plain.messages);
  const auto decision = std::find_if(plain.preemptions.begin(), plain.preemptions.end(), [&](const Preemption& p) {
    return p.job == trace.job ||
           std::find(p.victims.begin(), p.victims.end(), trace.holding) != p.victims.end();
  });
  RC_CLASSIFY(decision != plain.preemptions.end(), "a decision told");
  if (decision == plain.preemptions.end()) {
    for (const PoolTrial& t : trace.pools) RC_ASSERT(t.outcome != PoolTrial::Outcome::kDecided);
    return;
  }
  RC_ASSERT(trace.job == decision->job);
  const auto trial = std::find_if(trace.pools.begin(), trace.pools.end(),
                                  [](const PoolTrial& t) { return t.outcome == PoolTrial::Outcome::kDecided; });
  RC_ASSERT(trial != trace.pools.end());
  RC_ASSERT(trial->pool == decision->pool);
  std::vector<uint32_t> taken, awaited;
  for (const TraceStep& step : trial->steps) {
    if (step.kind == TraceStep::Kind::kTaken) taken.push_back(step.holding);
    if (step.kind == TraceStep::Kind::kAwaited) awaited.push_back(step.holding);
  }
  RC_ASSERT(taken == decision->victims);
  RC_ASSERT(awaited == decision->awaiting);
}

/// Apply the decisions (victims back to their queues at their old place, preemptors running)
/// and decide again: no victim's team preempts in turn.
RC_GTEST_PROP(PreemptionProperties, NoPingPong, ()) {
  PreemptionCase c = GenCase();
  const SchedulingInput& in = c.input;
  SchedulingResult first = RunSchedulingPass(in);
  RC_CLASSIFY(!first.preemptions.empty(), "preempts");
  if (first.preemptions.empty()) return;
  SchedulingInput next = in;
  next.holdings.clear();
  next.holding_profile.clear();
  next.holding_id_rank.clear();
  std::vector<bool> victim(in.holdings.size(), false), preemptor(in.queued.size(), false);
  std::vector<bool> victim_team(in.config->policies.size(), false);
  // The stopping jobs a preemptor waited for are gone once it runs: they free the room it takes.
  std::vector<bool> gone(in.holdings.size(), false);
  for (const Preemption& p : first.preemptions) {
    preemptor[p.job] = true;
    for (uint32_t v : p.victims) victim[v] = victim_team[*in.holdings[v].policy] = true;
    for (uint32_t a : p.awaiting) gone[a] = true;
  }
  next.queued.clear();
  uint32_t order = 0;
  // Victims first in queue order: at the head of their queues, where they were.
  for (uint32_t i = 0; i < in.holdings.size(); ++i) {
    const Holding& h = in.holdings[i];
    if (victim[i]) {
      const uint32_t profile = in.holding_profile[i] == SchedulingInput::kNoProfile ? 0 : in.holding_profile[i];
      QueuedJob q{*h.policy, profile, h.amount, order, order};
      q.enqueued_us = kNow - 60 * kMinute;  // waited longest: eager to preempt
      next.queued.push_back(q);
      ++order;
    }
  }
  for (uint32_t i = 0; i < in.holdings.size(); ++i) {
    if (victim[i] || gone[i]) continue;
    next.holdings.push_back(in.holdings[i]);
    next.holding_profile.push_back(in.holding_profile[i]);
  }
  for (const Preemption& p : first.preemptions) {
    Holding h{p.pool, in.queued[p.job].policy, in.queued[p.job].need};
    h.started_us = kNow;
    next.holdings.push_back(h);
    next.holding_profile.push_back(in.queued[p.job].profile);
  }
  for (uint32_t k = 0; k < in.queued.size(); ++k) {
    if (preemptor[k]) continue;
    QueuedJob q = in.queued[k];
    q.queue_order = order + q.queue_order;
    q.position = order + q.position;
    next.queued.push_back(q);
  }
  SchedulingResult second = RunSchedulingPass(next);
  for (const Preemption& p : second.preemptions) RC_ASSERT(!victim_team[next.queued[p.job].policy]);
}

}  // namespace
}  // namespace rescfg
