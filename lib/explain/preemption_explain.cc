/// The preemption part of `rescfg explain`: the decision's trace (schedule/preemption_trace.h)
/// told with names, amounts and durations for a team lead.

#include "explain/preemption_explain.h"

#include <algorithm>

#include "decide/preemption_report.h"

#include "config/durations.h"
#include "config/human_amount.h"
#include "util/sim_time.h"

namespace rescfg {
namespace {

class Teller {
 public:
  Teller(const Config& config, const ScheduleReport& report, const ResolvedJobs& resolved, int64_t now_us,
         size_t max_listed)
      : config_(config), report_(report), input_(resolved.input), queued_outcome_(resolved.queued_outcome),
        now_us_(now_us), max_listed_(max_listed) {}

  std::string Id(size_t entry) const { return std::string(report_.jobs[entry].id.value_or("?")); }
  std::string HoldingId(uint32_t h) const { return h < report_.running.size() ? Id(report_.running[h]) : "?"; }
  std::string QueuedId(uint32_t q) const { return Id(queued_outcome_[q]); }
  std::string PolicyName(const Holding& h) const { return h.policy ? config_.policies[*h.policy].name : "no policy"; }
  /// "Dev uses 16 of its 8 reserved".
  std::string Usage(uint32_t policy, Quantity used) const {
    return config_.policies[policy].name + " uses " + HumanAmount(used) + " of its " +
           HumanAmount(config_.policies[policy].reserved) + " reserved";
  }

  /// The preemptor's verdict in words (`trace.job` is a queued job).
  void Verdict(const PreemptionTrace& trace, PreemptionStory* s) const {
    const QueuedJob& j = input_.queued[trace.job];
    const Policy& policy = config_.policies[j.policy];
    const Quantity share = policy.limit ? std::min(policy.reserved, *policy.limit) : policy.reserved;
    const PreemptionSettings& settings = *config_.preemption;
    if (trace.turn) s->turn = std::to_string(trace.turn) + " of " + std::to_string(trace.preemptors) + " preemptors";
    switch (trace.verdict) {
      case PreemptorVerdict::kNotPending:
        s->verdict = "not-pending";
        s->summary = "it is not waiting";
        return;
      case PreemptorVerdict::kReason:
        s->verdict = "reason";
        s->summary = "only a job pending for capacity or fragmented preempts; it waits for " +
                     std::string(report_.jobs[queued_outcome_[trace.job]].reason.value_or("?"));
        return;
      case PreemptorVerdict::kPolicyPaused:
        s->verdict = "policy-paused";
        s->summary = "its policy " + policy.name + " is paused";
        return;
      case PreemptorVerdict::kBeyondReservation:
      case PreemptorVerdict::kBeyondAfterEarlier: {
        const bool earlier = trace.verdict == PreemptorVerdict::kBeyondAfterEarlier;
        s->verdict = earlier ? "share-taken" : "beyond-reservation";
        s->summary = std::string(earlier ? "after the earlier preemptors, " : "") + Usage(j.policy, trace.used) +
                     ": " + HumanAmount(j.need) + " more would go beyond " + HumanAmount(share) +
                     "; only a job that runs entirely inside its team's reservation preempts";
        return;
      }
      case PreemptorVerdict::kDelay:
        s->verdict = "delay";
        s->summary = j.enqueued_us == kUnknownTime || now_us_ == kUnknownTime
                         ? "its waiting time is unknown (no enqueued time), and delay is " +
                               CanonicalDuration(settings.delay_us)
                         : "has waited " + FormatDuration(now_us_ - j.enqueued_us) + ", under delay " +
                               CanonicalDuration(settings.delay_us);
        return;
      case PreemptorVerdict::kTried: break;
    }
    if (auto* p = FindDecision(report_.preemptor_of, queued_outcome_[trace.job])) {
      const PreemptionOutcome& d = report_.preemptions[p->second];
      s->verdict = "preempting";
      s->pool = std::string(d.pool);
      for (size_t v : d.victims) s->victims.push_back(Id(v));
      for (size_t v : d.awaiting) s->awaiting.push_back(Id(v));
      s->summary = "preempts in " + s->pool + ": " + MessageOf(report_.jobs[queued_outcome_[trace.job]]);
    } else {
      s->verdict = "no-victims";
      s->summary = "no linked pool can be freed enough for it: each pool below tells why";
    }
  }

  /// Pool by pool: what the walk looked at, then every other running job there.
  void Pools(const PreemptionTrace& trace, PreemptionStory* s) const {
    const std::string who = QueuedId(trace.job);
    const QueuedJob& j = input_.queued[trace.job];
    for (const PoolTrial& trial : trace.pools) {
      PreemptionPoolStory pool;
      pool.pool = config_.pools[trial.pool].name;
      switch (trial.outcome) {
        case PoolTrial::Outcome::kPaused: pool.outcome = "paused"; pool.detail = "paused: not tried"; break;
        case PoolTrial::Outcome::kNotReached:
          pool.outcome = "not-reached";
          pool.detail = "not tried: an earlier pool yielded the decision";
          break;
        case PoolTrial::Outcome::kFitsAlready:
          pool.outcome = "fits";
          pool.detail = "it fits there without stopping anything";
          break;
        case PoolTrial::Outcome::kNoFit:
          pool.outcome = "no-fit";
          pool.detail = "even with every job that could be taken, " + HumanAmount(j.need) + " does not fit: nothing is stopped here";
          break;
        case PoolTrial::Outcome::kDecided: pool.outcome = "decided"; pool.detail = "the decision"; break;
      }
      if (trial.outcome != PoolTrial::Outcome::kPaused && trial.outcome != PoolTrial::Outcome::kNotReached) {
        Candidates(trial, who, j, trace.decided_before, &pool);
      }
      s->pools.push_back(std::move(pool));
    }
  }

 private:
  void Add(PreemptionPoolStory* pool, uint32_t h, const char* verdict, std::string detail) const {
    ++pool->total;
    if (pool->candidates.size() >= max_listed_) return;
    const Holding& holding = input_.holdings[h];
    pool->candidates.push_back({HoldingId(h), PolicyName(holding),
                                std::string(report_.jobs[report_.running[h]].profile.value_or("-")), holding.amount,
                                verdict, std::move(detail)});
  }

  /// `earlier`: how many decisions were made before the preemptor's turn.
  void Candidates(const PoolTrial& trial, const std::string& who, const QueuedJob& j, uint32_t earlier,
                  PreemptionPoolStory* pool) const {
    std::vector<bool> told(input_.holdings.size(), false);
    for (const TraceStep& step : trial.steps) {
      told[step.holding] = true;
      const Holding& h = input_.holdings[step.holding];
      const std::string usage = h.policy ? Usage(*h.policy, step.used) : "it counts against no policy";
      switch (step.kind) {
        case TraceStep::Kind::kAwaited:
          Add(pool, step.holding, "awaited", "stopping already: counted as free, " + who + " waits for it");
          break;
        case TraceStep::Kind::kTaken:
          Add(pool, step.holding, "taken",
              usage + ", " + HumanAmount(step.used - h.amount) + " without it: still at or above its reservation");
          break;
        case TraceStep::Kind::kPassedOver:
          Add(pool, step.holding, "passed-over", "would leave " + PolicyName(h) + " below its reservation (" + usage + ")");
          break;
        case TraceStep::Kind::kPutBack:
          Add(pool, step.holding, "put-back", "taken, then put back: " + who + " fits without it");
          break;
        case TraceStep::Kind::kReleased:
          Add(pool, step.holding, "released", "taken, then released: " + who + " did not fit even so");
          break;
      }
    }
    for (uint32_t h = 0; h < input_.holdings.size(); ++h) {
      const Holding& holding = input_.holdings[h];
      if (told[h] || holding.pool != trial.pool) continue;
      const size_t entry = h < report_.running.size() ? report_.running[h] : SIZE_MAX;
      const VictimEligibility e = JudgeVictim(config_, holding, now_us_);
      if (e == VictimEligibility::kCandidate) {
        if (holding.policy && *holding.policy == j.policy) {
          Add(pool, h, "own-team", "of " + config_.policies[j.policy].name + ", " + who + "'s own team");
        } else if (auto* v = entry == SIZE_MAX ? nullptr : FindDecision(report_.victim_of, entry);
                   v && v->second < earlier) {  // a later preemptor's victim was not one yet
          Add(pool, h, "victim", "already a victim of " + Id(report_.preemptions[v->second].job));
        } else {
          Add(pool, h, "not-needed", trial.outcome == PoolTrial::Outcome::kNoFit
                                         ? "not looked at"
                                         : who + " fit before the walk reached it");
        }
        continue;
      }
      Add(pool, h, Code(e), Ineligible(e, holding, entry));
    }
  }

  static const char* Code(VictimEligibility e) {
    switch (e) {
      case VictimEligibility::kCandidate: return "candidate";
      case VictimEligibility::kHandedOver: return "handed-over";
      case VictimEligibility::kStopping: return "stopping";
      case VictimEligibility::kNoPolicy: return "no-policy";
      case VictimEligibility::kNotPreemptible: return "not-preemptible";
      case VictimEligibility::kNoStart: return "no-start";
      case VictimEligibility::kTooYoung: return "min-runtime";
    }
    return "candidate";
  }

  std::string Ineligible(VictimEligibility e, const Holding& h, size_t entry) const {
    const int64_t min_runtime = config_.preemption->min_runtime_us;
    switch (e) {
      case VictimEligibility::kHandedOver: return "handed to its pool, not started yet";
      case VictimEligibility::kStopping: {
        for (const PreemptionOutcome& d : report_.preemptions) {
          if (std::find(d.awaiting.begin(), d.awaiting.end(), entry) != d.awaiting.end()) {
            return "stopping already, awaited by " + Id(d.job);
          }
        }
        return "stopping already";
      }
      case VictimEligibility::kNoPolicy: return "counts against no policy";
      case VictimEligibility::kNotPreemptible: return "not preemptible (policy " + PolicyName(h) + ")";
      case VictimEligibility::kNoStart:
        return "its start is unknown, and minRuntime is " + CanonicalDuration(min_runtime);
      case VictimEligibility::kTooYoung:
        return "runs for " + FormatDuration(now_us_ - h.started_us) + ", under minRuntime " +
               CanonicalDuration(min_runtime);
      case VictimEligibility::kCandidate: break;
    }
    return "";
  }

  const Config& config_;
  const ScheduleReport& report_;
  const SchedulingInput& input_;
  const std::vector<uint32_t>& queued_outcome_;
  int64_t now_us_;
  size_t max_listed_;
};

}  // namespace

std::optional<PreemptionTrace> PreemptionTraceFor(const Config& config, const ResolvedJobs& resolved, size_t index) {
  if (!config.preemption || !config.enabled) return std::nullopt;
  PreemptionTrace trace;
  for (uint32_t q = 0; q < resolved.queued_outcome.size(); ++q) {
    if (resolved.queued_outcome[q] == index) trace.job = q;
  }
  for (uint32_t k = 0; k < resolved.running.size() && trace.job == PreemptionTrace::kNone; ++k) {
    if (resolved.running[k] == index) trace.holding = k;
  }
  if (trace.job == PreemptionTrace::kNone && trace.holding == PreemptionTrace::kNone) return std::nullopt;
  return trace;
}

PreemptionStory TellPreemption(const Config& config, const ScheduleReport& report, const ResolvedJobs& resolved,
                               const PreemptionTrace& trace, size_t index, int64_t now_us, size_t max_listed) {
  Teller teller(config, report, resolved, now_us, max_listed);
  PreemptionStory s;
  const JobOutcome o = report.jobs[index];
  if (o.status == JobStatus::kRunning) {
    s.role = "victim";
    auto* v = FindDecision(report.victim_of, index);
    if (!v) {
      s.role = "none";
      const uint32_t h = trace.holding;
      const VictimEligibility e = h < resolved.input.holdings.size()
                                      ? JudgeVictim(config, resolved.input.holdings[h], now_us)
                                      : VictimEligibility::kCandidate;
      s.verdict = e == VictimEligibility::kCandidate ? "not-chosen" : "not-a-candidate";
      s.summary = e == VictimEligibility::kCandidate ? "not preempted: a candidate no preemptor needed"
                                                     : "not preempted: never a candidate";
      return s;
    }
    const PreemptionOutcome& d = report.preemptions[v->second];
    const JobOutcome p = report.jobs[d.job];
    s.verdict = "preempted";
    s.preemptor = teller.Id(d.job);
    s.pool = std::string(d.pool);
    for (size_t k : d.victims) s.victims.push_back(teller.Id(k));
    for (size_t k : d.awaiting) s.awaiting.push_back(teller.Id(k));
    s.summary = "to be stopped for " + s.preemptor + " (" + std::string(p.policy.value_or("?")) + ", " +
                (p.resources ? HumanAmount(*p.resources) : "?") + ") in " + s.pool;
    if (trace.job == PreemptionTrace::kNone) return s;  // not traced: the report alone
    s.turn = std::to_string(trace.turn) + " of " + std::to_string(trace.preemptors) + " preemptors";
    s.summary += ": " + teller.Usage(resolved.input.queued[trace.job].policy, trace.used) + ", and " + s.preemptor +
                 " runs entirely inside it";
    teller.Pools(trace, &s);
    return s;
  }
  if (o.status != JobStatus::kPending || trace.job == PreemptionTrace::kNone) {
    s.role = "none";
    s.verdict = "not-pending";
    s.summary = "it is not waiting";
    return s;
  }
  s.role = "preemptor";
  teller.Verdict(trace, &s);
  if (s.verdict != "preempting" && s.verdict != "no-victims") s.role = "none";
  teller.Pools(trace, &s);
  return s;
}

std::string RenderPreemptionText(const PreemptionStory& s) {
  std::string out = "\nPreemption: " + s.summary + "\n";
  if (!s.turn.empty()) out += "  turn " + s.turn + " (the longest waiting first)\n";
  if (s.pools.empty()) return out;
  out += "  Running jobs are looked at by: the team furthest above its reservation, the least favoured profile,\n"
         "  the latest start, the smallest holding, the job id.\n";
  for (size_t i = 0; i < s.pools.size(); ++i) {
    const PreemptionPoolStory& p = s.pools[i];
    out += "  " + std::to_string(i + 1) + ". " + p.pool + ": " + p.detail + "\n";
    for (const PreemptionCandidate& c : p.candidates) {
      out += "       " + c.job + " (" + c.policy + ", " + c.profile + ", " + HumanAmount(c.resources) + ") — " +
             c.verdict + ": " + c.detail + "\n";
    }
    if (p.candidates.size() < p.total) out += "       ... and " + std::to_string(p.total - p.candidates.size()) + " more\n";
  }
  return out;
}

void WritePreemptionJson(const PreemptionStory& s, JsonWriter& json) {
  auto text_or_null = [&](const char* key, const std::string& value) {
    json.Key(key);
    if (value.empty()) json.Null(); else json.String(value);
  };
  auto ids = [&](const char* key, const std::vector<std::string>& list) {
    json.Key(key).BeginArray();
    for (const auto& id : list) json.String(id);
    json.EndArray();
  };
  json.BeginObject().Field("role", s.role).Field("verdict", s.verdict).Field("summary", s.summary);
  text_or_null("preemptor", s.preemptor);
  text_or_null("pool", s.pool);
  ids("victims", s.victims);
  ids("awaiting", s.awaiting);
  text_or_null("turn", s.turn);
  json.Key("pools").BeginArray();
  for (const PreemptionPoolStory& p : s.pools) {
    json.BeginObject().Field("pool", p.pool).Field("outcome", p.outcome).Field("detail", p.detail);
    json.Field("total", p.total).Key("candidates").BeginArray();
    for (const PreemptionCandidate& c : p.candidates) {
      json.BeginObject().Field("job", c.job).Field("policy", c.policy).Field("profile", c.profile);
      json.Key("resources").Amount(c.resources).Field("verdict", c.verdict).Field("detail", c.detail).EndObject();
    }
    json.EndArray().EndObject();
  }
  json.EndArray().EndObject();
}

}  // namespace rescfg
