#include "simulate/report.h"

#include <algorithm>

#include "simulate/sim_preemption.h"
#include "simulate/trace.h"

namespace rescfg {

const char* SimStatusName(SimStatus s) {
  switch (s) {
    case SimStatus::kFinished: return "finished";
    case SimStatus::kRunning: return "running";
    case SimStatus::kPending: return "pending";
    case SimStatus::kRejected: return "rejected";
  }
  return "pending";
}

namespace {

/// Ticks × microseconds in a GPU-hour.
constexpr U128 kTickMicrosPerGpuHour = U128(Quantity::kTicksPerUnit) * 3600 * kMicrosPerSecond;

/// The p-th percentile of ascending values by nearest rank: the ⌈p·n/100⌉-th.
Micros NearestRank(const std::vector<Micros>& sorted, uint64_t p) {
  const uint64_t n = sorted.size();
  const uint64_t rank = std::max<uint64_t>(1, (p * n + 99) / 100);
  return sorted[rank - 1];
}

WaitSummary Summarise(const std::vector<Micros>& sorted) {
  U128 total = 0;
  for (Micros w : sorted) total += static_cast<U128>(w);
  WaitSummary s;
  // No larger than the largest wait: fits.
  s.mean = static_cast<Micros>(DivideHalfEven(U256(total), sorted.size()).Low128());
  s.p50 = NearestRank(sorted, 50);
  s.p90 = NearestRank(sorted, 90);
  s.p99 = NearestRank(sorted, 99);
  s.max = sorted.back();
  return s;
}

void AddUsage(U256* usage, Quantity amount, Micros from, Micros to) {
  if (to > from && amount.ticks() > 0) AddProduct(usage, static_cast<uint64_t>(amount.ticks()), static_cast<uint64_t>(to - from));
}

class Assembler {
 public:
  Assembler(const Config& config, ResolvedTrace& trace, const SimulationResult& sim, const SimulationOptions& options,
            SimulationReport* report)
      : config_(config), trace_(trace), sim_(sim), options_(options), r_(*report) {}

  void Run() {
    r_.enabled = config_.enabled;
    r_.start = sim_.start;
    r_.end = sim_.end;
    r_.events = sim_.events;
    r_.stats = sim_.stats;
    r_.preemption_stats = sim_.preemption_stats;
    r_.preemption = sim_.preemption;
    for (const Policy& p : config_.policies) r_.policies.push_back({p.name, 0, 0, 0, std::nullopt, {}, {}, 0, 0, {}});
    for (size_t x = 0; x < config_.pools.size(); ++x) {
      r_.pools.push_back({config_.pools[x].name, config_.pools[x].resources, sim_.peak_in_use[x], {}, std::nullopt});
    }
    pending_of_.assign(trace_.jobs.input.queued.size(), UINT32_MAX);
    for (uint32_t i = 0; i < sim_.final.pending.size(); ++i) pending_of_[sim_.final.pending[i].job] = i;
    messages_.reserve(sim_.final.messages.size());
    for (const std::string& m : sim_.final.messages) messages_.push_back(r_.text.Keep(m));

    r_.entries.resize(trace_.jobs.outcomes.size());
    for (size_t i = 0; i < r_.entries.size(); ++i) r_.entries[i].outcome = trace_.jobs.outcomes[i];
    Outcomes().swap(trace_.jobs.outcomes);  // copied: free before the statistics
    for (uint32_t k = 0; k < trace_.jobs.input.queued.size(); ++k) Queued(k);
    for (uint32_t h = 0; h < trace_.holding_outcome.size(); ++h) Running(h);
    for (const LostRun& lost : sim_.lost) Lost(lost);
    for (SimEntry& e : r_.entries) {
      if (e.outcome.status == JobStatus::kRejected) e.status = SimStatus::kRejected;
      switch (e.status) {
        case SimStatus::kFinished: ++r_.finished; break;
        case SimStatus::kRunning: ++r_.running; break;
        case SimStatus::kPending: ++r_.pending; break;
        case SimStatus::kRejected: ++r_.rejected; break;
      }
    }
    const Micros span = r_.start && r_.end ? *r_.end - *r_.start : 0;
    for (PoolStats& pool : r_.pools) {
      if (span > 0) pool.utilisation = RoundedQuotient(pool.usage, static_cast<U128>(pool.size.ticks()) * static_cast<U128>(span));
    }
    for (PolicyStats& p : r_.policies) {
      std::sort(p.waits.begin(), p.waits.end());
      p.never_started = p.jobs - p.started;
      if (!p.waits.empty()) p.wait = Summarise(p.waits);
    }
  }

 private:
  /// What `amount` held in `pool` from `from` to `to` (or the end) adds.
  void Held(uint32_t pool, std::optional<uint32_t> policy, Quantity amount, Micros from, std::optional<Micros> to) {
    const Micros until = to ? *to : *r_.end;
    AddUsage(&r_.pools[pool].usage, amount, from, until);
    if (policy) AddUsage(&r_.policies[*policy].usage, amount, from, until);
    if (options_.keep_intervals && until > from) r_.intervals.push_back({pool, policy, amount, from, until});
  }

  void Queued(uint32_t k) {
    const QueuedJob& j = trace_.jobs.input.queued[k];
    SimEntry& e = r_.entries[trace_.jobs.queued_outcome[k]];
    JobOutcome& out = e.outcome;
    PolicyStats& policy = r_.policies[j.policy];
    ++policy.jobs;
    e.submitted = trace_.submitted[k];
    e.status = SimStatus::kPending;
    if (sim_.preemption) {
      e.preempted = sim_.preempted[k];
      policy.jobs_preempted += e.preempted > 0;
    }
    if (!sim_.joined[k]) {
      out.reason = "not-submitted";
      out.message_text = r_.text.Keep("submitted after the end of the simulation (" + FormatSimTime(*r_.end) + ")");
      return;
    }
    if (!sim_.started[k]) {
      e.wait = *r_.end - *e.submitted;
      const PendingJob& pending = sim_.final.pending[pending_of_[k]];
      out.reason = PendingReasonName(pending.reason);
      std::string message(messages_[pending.message]);
      if (pending.blocked_by) {
        const JobOutcome& blocker = r_.entries[trace_.jobs.queued_outcome[*pending.blocked_by]].outcome;
        message += " (" + blocker.id.value_or("?") + ")";
      }
      if (out.message_text) message += "; " + std::string(*out.message_text);  // a need's fallback note
      out.message_text = r_.text.Keep(message);
      return;
    }
    const Placement& placed = sim_.placement[k];
    const ConfigNames& names = trace_.jobs.names;
    e.started = sim_.started[k];
    e.finished = sim_.finished[k];
    e.wait = *e.started - *e.submitted;
    e.status = e.finished ? SimStatus::kFinished : SimStatus::kRunning;
    out.pool = names.pools[placed.pool];
    const auto& queues = names.link_queues[j.profile];
    out.queue = placed.link < queues.size() ? TextRef(queues[placed.link]) : TextRef(names.queues[placed.pool]);
    out.link = placed.link < names.links[j.profile].size() ? TextRef(names.links[j.profile][placed.link]) : TextRef("");
    ++policy.started;
    policy.waits.push_back(*e.wait);
    Held(placed.pool, j.policy, j.need, *e.started, e.finished);
  }

  void Running(uint32_t h) {
    const Holding& holding = trace_.jobs.input.holdings[h];
    SimEntry& e = r_.entries[trace_.holding_outcome[h]];
    e.finished = sim_.holding_finished[h];
    e.status = e.finished ? SimStatus::kFinished : SimStatus::kRunning;
    // A trace's running jobs always name their pool (only ClearML tasks may not).
    if (r_.start && holding.pool) Held(*holding.pool, holding.policy, holding.amount, *r_.start, e.finished);
  }

  /// A run stopped by preemption: what it held counts as used, and as lost.
  void Lost(const LostRun& lost) {
    const QueuedJob& j = trace_.jobs.input.queued[lost.job];
    Held(lost.pool, j.policy, j.need, lost.from, lost.to);
    AddUsage(&r_.policies[j.policy].lost, j.need, lost.from, lost.to);
    ++r_.policies[j.policy].stops;
    ++r_.preemptions;
    if (options_.keep_intervals) r_.marks.push_back({lost.to, lost.pool, j.policy, j.need});
  }

  const Config& config_;
  ResolvedTrace& trace_;
  const SimulationResult& sim_;
  const SimulationOptions& options_;
  SimulationReport& r_;
  std::vector<uint32_t> pending_of_;  ///< per queued job: its index in sim_.final.pending
  std::vector<std::string_view> messages_;
};

}  // namespace

std::string GpuHoursText(const U256& usage) { return RoundedQuotient(usage, kTickMicrosPerGpuHour); }
std::string PolicyStats::GpuHours() const { return GpuHoursText(usage); }
std::string PoolStats::GpuHours() const { return GpuHoursText(usage); }
std::string PolicyStats::GpuHoursLost() const { return GpuHoursText(lost); }

namespace {

/// Per queued job: the rank of its id in byte order (preemption's last tie).
std::vector<uint32_t> QueuedIdRanks(const ResolvedTrace& trace) {
  const auto& queued_outcome = trace.jobs.queued_outcome;
  std::vector<std::pair<std::string_view, uint32_t>> ids(queued_outcome.size());
  for (uint32_t k = 0; k < ids.size(); ++k) {
    const TextRef id = trace.jobs.outcomes[queued_outcome[k]].id;
    ids[k] = {id ? *id : std::string_view(), k};
  }
  std::sort(ids.begin(), ids.end());
  std::vector<uint32_t> rank(ids.size());
  for (uint32_t r = 0; r < ids.size(); ++r) rank[ids[r].second] = r;
  return rank;
}

}  // namespace

SimulationReport BuildSimulation(const Config& config, LoadedJobs&& jobs, const SimulationOptions& options) {
  ResolvedTrace trace = ResolveTrace(config, jobs.entries);
  // Not needed past resolution: free before the simulation.
  std::vector<JobEntry>().swap(jobs.entries);
  jobs.text.reset();

  SimulationInput input;
  input.config = &config;
  if (SimPreemption::Applies(config)) input.id_rank = QueuedIdRanks(trace);
  input.queued = std::move(trace.jobs.input.queued);
  input.submitted = std::move(trace.submitted);
  input.duration = std::move(trace.duration);
  input.holdings = std::move(trace.jobs.input.holdings);
  input.remaining = std::move(trace.remaining);
  input.start = options.start;
  input.until = options.until;
  SimulationResult sim = Simulate(input, options.progress);
  trace.jobs.input.queued = std::move(input.queued);
  trace.submitted = std::move(input.submitted);
  trace.jobs.input.holdings = std::move(input.holdings);

  SimulationReport report;
  report.text = std::move(trace.jobs.text);
  Assembler(config, trace, sim, options, &report).Run();
  return report;
}

}  // namespace rescfg
