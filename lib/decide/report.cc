#include "decide/report.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "config/human_amount.h"
#include "jobs/resolve.h"
#include "decide/preemption_report.h"
#include "util/text_ref.h"
#include "schedule/pass_preempting.h"
#include "schedule/problem.h"
#include "util/joined_thread.h"
#include "util/text_ref.h"

namespace rescfg {

std::vector<std::string> DynamicParameterPaths(const Config& config) {
  std::vector<std::string> paths;
  for (const auto& profile : config.profiles) {
    if (profile.dynamic_parameter &&
        std::find(paths.begin(), paths.end(), *profile.dynamic_parameter) == paths.end()) {
      paths.push_back(*profile.dynamic_parameter);
    }
  }
  return paths;
}

namespace {

/// Appends `note` to a job's message ("; " between notes).
void AddNote(ScheduleReport* report, OutcomeRecord* job, const std::string& note) {
  job->message_text = report->text.Keep(job->message_text ? std::string(*job->message_text) + "; " + note : note);
}

/// Teams whose running jobs alone hold more than their limit (the limit was
/// lowered under them) and running jobs that count against no policy: both
/// are flagged on the jobs and counted in the summary.
void FlagRunningJobs(const Config& config, const std::vector<Holding>& holdings, ScheduleReport* report) {
  for (const Holding& h : holdings) {
    if (h.policy) {
      report->policies[*h.policy].running += h.amount;
    } else {
      ++report->running_without_policy;
    }
  }
  std::map<std::string_view, const PolicySummary*> over;  // by name
  for (size_t p = 0; p < config.policies.size(); ++p) {
    PolicySummary& policy = report->policies[p];
    if (!policy.limit || policy.running <= *policy.limit) continue;
    policy.over_limit = true;
    ++report->policies_over_limit;
    over.emplace(policy.name, &policy);
  }
  if (over.empty()) return;
  for (size_t i : report->running) {
    OutcomeRecord& job = report->jobs.Whole(i);
    auto it = job.policy ? over.find(*job.policy) : over.end();
    if (it == over.end()) continue;
    const PolicySummary& policy = *it->second;
    AddNote(report, &job, "policy '" + policy.name + "' runs " + HumanAmount(policy.running) + ", above its limit of " +
                              HumanAmount(*policy.limit));
  }
}

/// Pending jobs from this many on are filled in by two threads.
constexpr size_t kParallelPending = size_t(1) << 16;

/// Fills in pending jobs [from, to) of the pass's result: status, reason,
/// message (the shared one, or one of their own kept in `text`) and their
/// place in `report->pending`. Touches only their own outcomes.
void FillPending(const SchedulingResult& result, const ResolvedJobs& resolved,
                 const std::vector<std::string_view>& messages, size_t from, size_t to, ScheduleReport* report,
                 TextArena* text) {
  uint8_t reason_code[size_t(PendingReason::kCapacity) + 1];
  for (size_t r = 0; r <= size_t(PendingReason::kCapacity); ++r) {
    reason_code[r] = OutcomeReasonCode(PendingReasonName(static_cast<PendingReason>(r)));
  }
  // Pending jobs come in queue order, their outcomes in file order: each
  // is a cache miss, so outcomes a few jobs ahead are fetched early (and
  // their index in `queued_outcome` a few more ahead).
  constexpr size_t kAhead = 8;
  for (size_t k = from; k < to; ++k) {
    if (k + 2 * kAhead < to) __builtin_prefetch(&resolved.queued_outcome[result.pending[k + 2 * kAhead].job]);
    if (k + kAhead < to) __builtin_prefetch(&report->jobs.Whole(resolved.queued_outcome[result.pending[k + kAhead].job]));
    const PendingJob& pending = result.pending[k];
    const size_t index = resolved.queued_outcome[pending.job];
    OutcomeRecord& out = report->jobs.Whole(index);
    out.status = JobStatus::kPending;
    out.reason = reason_code[size_t(pending.reason)];
    if (!pending.blocked_by && !out.message_text) {
      out.message_text = messages[pending.message];
    } else {
      std::string message(messages[pending.message]);
      if (pending.blocked_by) {
        const auto& blocker = report->jobs.Whole(resolved.queued_outcome[*pending.blocked_by]);
        message += " (" + blocker.id.value_or("?") + ")";
      }
      // A fallback note from need resolution stays visible after the reason.
      if (out.message_text) message += "; " + std::string(*out.message_text);
      out.message_text = text->Keep(message);
    }
    report->pending[k] = index;
  }
}

void DescribeMachines(const std::vector<Quantity>& machine_free, PoolSummary* pool) {
  pool->machine_free = machine_free;
  if (pool->paused) return;
  for (const Quantity& free : machine_free) pool->largest_free = std::max(pool->largest_free, free);
  pool->largest_free = std::min(pool->largest_free, pool->free);
}

/// "#3", or "#3,#4" for a job of whole machines: the machine numbers the
/// accounting chose (rescfg(5), SCHEDULE OUTPUT v3).
std::string MachineNumbers(uint32_t first, const std::vector<uint32_t>* all) {
  if (!all) return "#" + std::to_string(first + 1);
  std::string out;
  for (uint32_t m : *all) out += (out.empty() ? "#" : ",#") + std::to_string(m + 1);
  return out;
}

/// The `node` of assigned and running jobs in pools with nodes.
void NameMachines(const Config& config, const ResolvedJobs& resolved, const SchedulingResult& result,
                  ScheduleReport* report) {
  auto spans_of = [](const auto& spans, uint32_t index) -> const std::vector<uint32_t>* {
    auto it = std::lower_bound(spans.begin(), spans.end(), index, [](const auto& s, uint32_t i) { return s.first < i; });
    return it != spans.end() && it->first == index ? &it->second : nullptr;
  };
  for (const Placement& p : result.placements) {
    if (p.machine == Placement::kNoMachine) continue;
    OutcomeRecord& out = report->jobs.Whole(resolved.queued_outcome[p.job]);
    out.node = report->text.Keep(MachineNumbers(p.machine, spans_of(result.job_spans, p.job)));
  }
  const auto& holdings = resolved.input.holdings;
  for (size_t k = 0; k < holdings.size() && k < report->running.size(); ++k) {
    if (!holdings[k].pool || !config.pools[*holdings[k].pool].nodes) continue;
    OutcomeRecord& out = report->jobs.Whole(report->running[k]);
    const uint32_t machine = k < result.holding_machine.size() ? result.holding_machine[k] : Placement::kNoMachine;
    if (holdings[k].machine != Holding::kBestFit) continue;  // named, or held in the pool only: said already
    if (machine == Placement::kNoMachine) {
      AddNote(report, &out, "no machine of pool '" + config.pools[*holdings[k].pool].name + "' has " +
                                holdings[k].amount.ToString() + " free for it; it holds in the pool only");
      continue;
    }
    out.node = report->text.Keep(MachineNumbers(machine, spans_of(result.holding_spans, static_cast<uint32_t>(k))));
  }
}

/// Per holding: the rank of its job id in byte order, preemption's last tie-break
/// (rescfg-scheduling(7), PREEMPTION).
std::vector<uint32_t> HoldingIdRanks(const ResolvedJobs& resolved) {
  const size_t n = std::min(resolved.input.holdings.size(), resolved.running.size());
  std::vector<std::pair<std::string_view, uint32_t>> ids(n);
  for (uint32_t k = 0; k < n; ++k) {
    const TextRef id = resolved.outcomes.Whole(resolved.running[k]).id;
    ids[k] = {id ? *id : std::string_view(), k};
  }
  std::sort(ids.begin(), ids.end());
  std::vector<uint32_t> rank(resolved.input.holdings.size());
  for (uint32_t r = 0; r < n; ++r) rank[ids[r].second] = r;
  for (size_t k = n; k < rank.size(); ++k) rank[k] = static_cast<uint32_t>(k);
  return rank;
}

ScheduleReport BuildFromResolved(const Config& config, ResolvedJobs resolved, int64_t now_us) {
  resolved.input.config = &config;
  resolved.input.now_us = now_us;
  // With preemption the id ranks are found beside the pass.
  SchedulingResult result = RunSchedulingPass(resolved.input, nullptr, [&] { return HoldingIdRanks(resolved); });

  ScheduleReport report;
  report.enabled = config.enabled;
  report.jobs = std::move(resolved.outcomes);
  report.text = std::move(resolved.text);
  const ConfigNames& names = resolved.names;
  report.assignments.reserve(result.placements.size());
  for (const Placement& placement : result.placements) {
    size_t index = resolved.queued_outcome[placement.job];
    OutcomeRecord& out = report.jobs.Whole(index);
    const uint32_t profile = resolved.input.queued[placement.job].profile;
    out.status = JobStatus::kAssigned;
    out.pool = Outcomes::PoolNumber(placement.pool);
    out.route = placement.link < names.links[profile].size() ? report.jobs.LinkRoute(profile, placement.link, true)
                                                             : Outcomes::PoolRoute(placement.pool, true);
    // A fallback note from need resolution (the dynamic value was not an
    // amount) stays: the job runs with its profile's allotment.
    report.assignments.push_back(index);
  }
  // Pending messages are shared: each distinct one is stored once.
  std::vector<std::string_view> messages;
  messages.reserve(result.messages.size());
  for (const std::string& m : result.messages) messages.push_back(report.text.Keep(m));
  // Each pending job is its own outcome: for many, two threads share them
  // (the second keeps its messages in an arena of its own).
  const size_t waiting = result.pending.size();
  report.pending.resize(waiting);
  TextArena second_text;
  SplitAcrossCores(waiting, kParallelPending, [&](size_t half, size_t from, size_t to) {
    FillPending(result, resolved, messages, from, to, &report, half == 0 ? &report.text : &second_text);
  });
  report.text.Absorb(std::move(second_text));
  report.rejected = std::move(resolved.rejected);
  report.running = std::move(resolved.running);
  report.running_count = report.running.size();
  std::vector<bool> overfull(config.pools.size());
  bool any_overfull = false;
  for (size_t x = 0; x < config.pools.size(); ++x) {
    const Pool& pool = config.pools[x];
    report.pools.push_back({pool.name, pool.queue, pool.resources, result.pool_in_use[x],
                            pool.paused ? Quantity() : Quantity::SaturatingSub(pool.resources, result.pool_in_use[x]),
                            pool.paused, pool.nodes, {}, {}, pool.gpu_fractions});
    if (pool.nodes) DescribeMachines(result.machine_free[x], &report.pools.back());
    if (result.pool_in_use[x] > pool.resources) overfull[x] = any_overfull = true;
  }
  // Over-full pools are reported on each running job they hold.
  for (size_t i : report.running) {
    if (!any_overfull) break;
    OutcomeRecord& job = report.jobs.Whole(i);
    if (job.pool == 0 || !overfull[job.pool - 1]) continue;
    const size_t x = job.pool - 1;
    AddNote(&report, &job,
            "pool '" + config.pools[x].name + "' is over-full: " + HumanAmountOf(result.pool_in_use[x], config.pools[x]) +
                " in use");
  }
  for (size_t p = 0; p < config.policies.size(); ++p) {
    const Policy& policy = config.policies[p];
    report.policies.push_back({policy.name, policy.reserved, policy.limit, result.policy_used[p], policy.paused,
                               Quantity(), false});
  }
  FlagRunningJobs(config, resolved.input.holdings, &report);
  NameMachines(config, resolved, result, &report);
  ReportPreemptions(config, resolved.input, result, resolved.queued_outcome, &report);
  return report;
}

}  // namespace

ScheduleReport BuildSchedule(const Config& config, const std::vector<JobEntry>& entries, int64_t now_us) {
  return BuildFromResolved(config, ResolveJobs(config, entries), now_us);
}

ScheduleReport BuildSchedule(const Config& config, LoadedJobs&& jobs, int64_t now_us) {
  ResolvedJobs resolved = jobs.resolved ? std::move(*jobs.resolved) : ResolveJobs(config, jobs.entries);
  jobs.resolved.reset();
  // Not needed past resolution: freed before the report is done (lower
  // peak memory), on a thread of its own, as the pass runs on one.
  JoinedThread release([entries = std::move(jobs.entries), text = std::move(jobs.text)]() mutable {
    std::vector<JobEntry>().swap(entries);
    text.reset();
  });
  ScheduleReport report = BuildFromResolved(config, std::move(resolved), now_us);
  release.Join();
  return report;
}

}  // namespace rescfg
