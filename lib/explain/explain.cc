/// Replays the pass of rescfg-scheduling(7), THE PASS placement by placement with the pass's own
/// pieces (context, state, queues, reservation book), asking at each step
/// where the explained job stood: whether it had a target, and if so why
/// the job placed instead came first; if not, which rule kept it out.

#include "explain/explain.h"

#include <algorithm>
#include <map>
#include <memory>

#include "config/human_amount.h"
#include "decide/report.h"
#include "explain/job_lookup.h"
#include "jobs/resolve.h"
#include "schedule/admission.h"
#include "schedule/context.h"
#include "schedule/job_queue.h"
#include "schedule/pass_state.h"
#include "schedule/reservations.h"

namespace rescfg {

const char* AheadRuleName(AheadRule rule) {
  switch (rule) {
    case AheadRule::kExecutionPriority: return "execution-priority";
    case AheadRule::kPolicyPriority: return "policy-priority";
    case AheadRule::kQueueOrder: return "queue-order";
    case AheadRule::kFilePosition: return "file-position";
    case AheadRule::kStrictFifo: return "strict-fifo";
    case AheadRule::kOwnLimit: return "limit";
    case AheadRule::kReservation: return "reservation";
    case AheadRule::kNoRoom: return "capacity";
  }
  return "queue-order";
}

namespace {

/// The pass, replayed: the state before each placement and where the
/// explained job (queued index `job`) stands in it.
class Replay {
 public:
  Replay(const Config& config, const SchedulingInput& input, uint32_t job)
      : config_(config), input_(input), ctx_(config), state_(PassState::Initial(ctx_, input.holdings)), job_(job) {
    std::vector<uint32_t> unschedulable;
    queues_ = SplitIntoQueues(
        input.queued, ctx_.strict_fifo,
        [&](const QueuedJob& j) { return ctx_.Schedulable(j.policy, j.profile, j.need); }, &unschedulable);
    for (uint32_t q = 0; q < queues_.size(); ++q) {
      ctx_.queues_of_policy[queues_[q].policy()].push_back(q);
      queue_of_.emplace(std::make_pair(queues_[q].policy(), queues_[q].profile()), q);
    }
    book_.emplace(ctx_, queues_, input.queued, state_);
  }

  const ScheduleContext& ctx() const { return ctx_; }
  const PassState& state() const { return state_; }
  const QueuedJob& Job(uint32_t k) const { return input_.queued[k]; }
  uint32_t job() const { return job_; }
  bool Schedulable() const {
    const QueuedJob& j = Job(job_);
    return ctx_.Schedulable(j.policy, j.profile, j.need);
  }

  /// Applies a placement as the pass does.
  void Apply(const Placement& p) {
    const QueuedJob& k = Job(p.job);
    state_.Place(p.pool, k.need);
    state_.used[k.policy] += k.need;
    JobQueue& queue = queues_[queue_of_.at({k.policy, k.profile})];
    for (size_t slot = 0; slot < queue.slot_count(); ++slot) {
      if (queue.SlotJob(slot) == p.job) {
        queue.Advance(slot);
        break;
      }
    }
    book_->Placed(k.policy, p.pool);
  }

  /// The head of the explained job's StrictFIFO queue when it is not the job.
  std::optional<uint32_t> FifoHead() const {
    const QueuedJob& j = Job(job_);
    if (!ctx_.strict_fifo[j.profile]) return std::nullopt;
    auto it = queue_of_.find({j.policy, j.profile});
    if (it == queue_of_.end()) return std::nullopt;
    std::optional<uint32_t> head = queues_[it->second].SlotJob(0);
    if (!head || *head == job_) return std::nullopt;
    return head;
  }

  std::optional<Target> JobTarget() {
    const QueuedJob& j = Job(job_);
    return FindTarget(ctx_, state_, *book_, j.policy, j.profile, j.need, nullptr);
  }

  Verdict VerdictAt(uint32_t pool) {
    const QueuedJob& j = Job(job_);
    return CheckAdmission(ctx_, state_, *book_, j.policy, pool, j.need, nullptr);
  }

  /// "policy Research (8 outstanding)" for the others whose reservations
  /// rule 3 protected at `pool`.
  std::string Protected(uint32_t pool) const {
    std::string out;
    for (uint32_t q : book_->OthersReaching(Job(job_).policy, pool)) {
      if (!out.empty()) out += ", ";
      out += "policy " + config_.policies[q].name + " (" + HumanAmount(book_->Need(q)) + " outstanding)";
    }
    return out.empty() ? "other policies" : out;
  }

 private:
  const Config& config_;
  const SchedulingInput& input_;
  ScheduleContext ctx_;
  PassState state_;
  uint32_t job_;
  std::vector<JobQueue> queues_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> queue_of_;
  std::optional<ReservationBook> book_;
};

/// Whether Kubernetes or an autoscaler places the pool's machines (`nodes.names: none`):
/// which job holds which machine is then an estimate.
bool MachinesEstimated(const Pool& pool) { return pool.nodes && !pool.nodes->names_from_workers; }

/// What rules 1–3 said at one pool, in words.
std::string VerdictText(Verdict v) {
  switch (v) {
    case Verdict::kAdmissible: return "admissible";
    case Verdict::kNoRoom: return "no room";
    case Verdict::kOverLimit: return "over its policy's limit";
    case Verdict::kReservation: return "refused by another policy's reservation";
  }
  return "";
}

class Explainer {
 public:
  Explainer(const Config& config, const ScheduleReport& report, const ResolvedJobs& resolved, size_t max_ahead)
      : config_(config), report_(report), resolved_(resolved), max_ahead_(max_ahead) {}

  void Explain(uint32_t job, Explanation* e) {
    SchedulingInput input = resolved_.input;
    input.config = &config_;
    SchedulingResult result = RunSchedulingPass(input);
    Replay replay(config_, input, job);
    const ScheduleContext& ctx = replay.ctx();
    const QueuedJob& j = replay.Job(job);
    const auto& links = ctx.links[j.profile];
    const Profile& profile = config_.profiles[j.profile];
    std::map<uint32_t, size_t> link_of;  // pool -> index in e->pools
    for (size_t i = 0; i < links.size(); ++i) {
      const uint32_t x = links[i];
      ExplainedPool pool;
      pool.pool = config_.pools[x].name;
      pool.link = profile.links.size() > i ? profile.links[i].name : "";
      pool.queue = profile.links.size() > i ? profile.links[i].queue : config_.pools[x].queue;
      pool.size = config_.pools[x].resources;
      pool.paused = config_.pools[x].paused;
      pool.machines_estimated = MachinesEstimated(config_.pools[x]);
      pool.gpu_fractions = config_.pools[x].gpu_fractions;
      pool.free_at_start = replay.state().Free(ctx, x);
      link_of.emplace(x, e->pools.size());
      e->pools.push_back(std::move(pool));
    }
    const bool considered = config_.enabled && replay.Schedulable();
    for (size_t step = 0; step < result.placements.size(); ++step) {
      const Placement& p = result.placements[step];
      if (p.job == job) {
        e->placed_at = step + 1;
        Decide(replay, links, p.pool, e);
        return;
      }
      auto at = link_of.find(p.pool);
      if (considered && at != link_of.end()) {
        ExplainedPool& pool = e->pools[at->second];
        if (++pool.ahead_total <= max_ahead_) pool.ahead.push_back(Ahead(replay, job, p));
      }
      replay.Apply(p);
    }
    Decide(replay, links, std::nullopt, e);
    if (!considered) {
      for (auto& pool : e->pools) pool.verdict = config_.enabled ? "never considered: " + e->reason : "resource management is disabled";
    }
  }

 private:
  /// Free capacity and verdicts when the job was decided: placed in `placed`,
  /// or still waiting at the end of the pass.
  void Decide(Replay& replay, const std::vector<uint32_t>& links, std::optional<uint32_t> placed, Explanation* e) {
    bool earlier_target = false;
    for (size_t i = 0; i < links.size(); ++i) {
      ExplainedPool& pool = e->pools[i];
      const Quantity free = replay.state().Free(replay.ctx(), links[i]);
      pool.free_when_decided = free;
      const PoolMachines& machines = replay.state().machines[links[i]];
      if (machines.has_nodes()) pool.largest_free_when_decided = std::min(free, machines.LargestFree());
      if (placed && *placed == links[i]) {
        pool.verdict = "placed here";
        earlier_target = true;
      } else if (earlier_target) {
        pool.verdict = "not needed: placed at an earlier link";
      } else {
        const Verdict v = replay.VerdictAt(links[i]);
        pool.verdict = VerdictText(v);
        const Quantity need = replay.Job(replay.job()).need;
        // Enough free GPUs in total, but spread over machines (rescfg-scheduling(7), THE PASS v3).
        if (v == Verdict::kNoRoom && machines.has_nodes() && !replay.ctx().pool_paused[links[i]] && free >= need) {
          pool.verdict = "fragmented: " + free.ToString() + " free in total, at most " +
                         pool.largest_free_when_decided->ToString() + " on one machine";
        }
      }
    }
  }

  std::string Id(uint32_t k) const { return report_.jobs[resolved_.queued_outcome[k]].id.value_or("?"); }

  /// Why `ahead` came before `job` in queue order: the listing of a
  /// ClearML queue's entries (rescfg(5), JOBS FILE, ClearML task snapshots), which comes before any time, or
  /// the times and the file.
  std::string QueueOrderDetail(uint32_t ahead, uint32_t job) const {
    const auto rank = [&](uint32_t q) { return q < resolved_.listed_rank.size() ? resolved_.listed_rank[q] : 0u; };
    const uint32_t k = rank(ahead), j = rank(job);
    if (k == 0) {
      return "earlier in queue order (enqueued earlier, or earlier in the file without a time)";
    }
    return "listed at place " + std::to_string(k) + " in the entries of ClearML queue '" + PolicyQueue(ahead) +
           "' (--clearml-queues), which order a queue before any time; " +
           (j > 0 ? "it is listed at place " + std::to_string(j) : std::string("it is not listed there"));
  }

  /// The queue a queued job waits in: its policy's queue for its profile.
  std::string PolicyQueue(uint32_t q) const {
    const QueuedJob& job = resolved_.input.queued[q];
    const std::string& profile = config_.profiles[job.profile].name;
    for (const auto& entry : config_.policies[job.policy].profiles) {
      if (entry.profile == profile) return entry.queue.value_or("?");
    }
    return "?";
  }

  AheadJob Ahead(Replay& replay, uint32_t job, const Placement& p) {
    const ScheduleContext& ctx = replay.ctx();
    const QueuedJob& j = replay.Job(job);
    const QueuedJob& k = replay.Job(p.job);
    AheadJob a{Id(p.job), config_.policies[k.policy].name, config_.profiles[k.profile].name, k.need,
               AheadRule::kQueueOrder, ""};
    const std::string& pool = config_.pools[p.pool].name;
    if (std::optional<uint32_t> head = replay.FifoHead()) {
      a.rule = AheadRule::kStrictFifo;
      a.detail = "it waited behind " + Id(*head) + ", the head of its StrictFIFO queue";
      return a;
    }
    if (std::optional<Target> target = replay.JobTarget()) {
      const uint32_t ke = ctx.ExecRank(p.pool, k.profile), je = ctx.ExecRank(target->pool, j.profile);
      const uint32_t kp = ctx.PolicyRank(k.profile, k.policy), jp = ctx.PolicyRank(j.profile, j.policy);
      const std::string& target_pool = config_.pools[target->pool].name;
      if (ke != je) {
        a.rule = AheadRule::kExecutionPriority;
        a.detail = "profile " + a.profile + " ranks " + std::to_string(ke + 1) + " in pool " + pool +
                   "'s execution priority; profile " + config_.profiles[j.profile].name + " ranks " +
                   std::to_string(je + 1) + " in pool " + target_pool + "'s, where it would have gone";
      } else if (kp != jp) {
        a.rule = AheadRule::kPolicyPriority;
        a.detail = "policy " + a.policy + " ranks " + std::to_string(kp + 1) + " in profile " + a.profile +
                   "'s policy priority; policy " + config_.policies[j.policy].name + " ranks " +
                   std::to_string(jp + 1) + " in profile " + config_.profiles[j.profile].name + "'s";
      } else if (k.queue_order != j.queue_order) {
        a.rule = AheadRule::kQueueOrder;
        a.detail = QueueOrderDetail(p.job, job);
      } else {
        a.rule = AheadRule::kFilePosition;
        a.detail = "a tie, broken by position in the file";
      }
      return a;
    }
    const Verdict v = replay.VerdictAt(p.pool);
    const Quantity free = replay.state().Free(ctx, p.pool);
    if (v == Verdict::kOverLimit || replay.state().used[j.policy] + j.need > ctx.limit[j.policy]) {
      a.rule = AheadRule::kOwnLimit;
      a.detail = "policy " + config_.policies[j.policy].name + " used " +
                 HumanAmount(replay.state().used[j.policy]) + " of its limit " + HumanAmount(ctx.limit[j.policy]) +
                 ", and it needed " + HumanAmount(j.need) + " more";
    } else if (v == Verdict::kReservation) {
      a.rule = AheadRule::kReservation;
      a.detail = "pool " + pool + " had " + HumanAmount(free, config_.pools[p.pool]) + " free, but policy " +
                 config_.policies[j.policy].name + " would have gone beyond its reservation of " +
                 HumanAmount(ctx.reserved[j.policy]) + " and left " + replay.Protected(p.pool) + " uncoverable";
    } else {
      a.rule = AheadRule::kNoRoom;
      a.detail = "it did not fit anywhere: it needed " + HumanAmount(j.need) + " and pool " + pool + " had " +
                 HumanAmount(free, config_.pools[p.pool]) +
                 " free" + (ctx.pool_paused[p.pool] ? " (paused)" : "");
      const PoolMachines& machines = replay.state().machines[p.pool];
      if (machines.has_nodes() && free >= j.need) {
        a.detail += ", at most " + HumanAmount(std::min(free, machines.LargestFree()), config_.pools[p.pool]) +
                    " on one machine";
      }
    }
    return a;
  }

  const Config& config_;
  const ScheduleReport& report_;
  const ResolvedJobs& resolved_;
  size_t max_ahead_;
};

/// One resolution serves both the report and the replay: the replay keeps
/// only the scheduling input, so the outcomes are held once.
std::optional<Explanation> Explain(const Config& config, ResolvedJobs resolved, std::string_view job,
                                   size_t max_ahead, std::string* error, int64_t now_us) {
  ResolvedJobs replayed;
  replayed.input = resolved.input;
  replayed.queued_outcome = resolved.queued_outcome;
  replayed.listed_rank = resolved.listed_rank;
  // The entry is found (by id, else by task name) before the pass, so that
  // the decision traces preemption's story of that very entry.
  const size_t index = FindExplainedJob(resolved.outcomes, job, error);
  if (index == resolved.outcomes.size()) return std::nullopt;
  std::optional<PreemptionTrace> trace = PreemptionTraceFor(config, resolved, index);
  if (trace) resolved.input.preemption_trace = &*trace;
  LoadedJobs loaded;
  loaded.resolved = std::make_shared<ResolvedJobs>(std::move(resolved));
  const ScheduleReport report = BuildSchedule(config, std::move(loaded), now_us);
  const JobOutcome& o = report.jobs[index];
  Explanation e;
  e.job = o.id ? std::string(*o.id) : std::string(job);
  e.entry = o.entry;
  e.status = JobStatusName(o.status);
  e.policy = o.policy.value_or("");
  e.profile = o.profile.value_or("");
  e.need = o.resources;
  e.need_source = std::string(o.need_source);
  e.pool = o.pool.value_or("");
  if (const Pool* pool = config.FindPool(e.pool)) e.machines_estimated = MachinesEstimated(*pool);
  e.reason = o.reason.value_or("");
  e.message = MessageOf(o);
  if (trace && (o.status == JobStatus::kPending || o.status == JobStatus::kRunning)) {
    e.preemption = TellPreemption(config, report, replayed, *trace, index, now_us, max_ahead);
  }
  if (o.status == JobStatus::kRejected || o.status == JobStatus::kRunning) return e;
  if (const Policy* policy = config.FindPolicy(e.policy)) {
    for (const auto& entry : policy->profiles) {
      if (entry.profile == e.profile) e.queue = entry.queue.value_or("");
    }
  }
  if (o.need_source == NeedSource::kFallback) {
    // The note is the part of the message after the reason's own text.
    size_t at = e.message.find("parameter ");
    if (at != std::string::npos) e.need_note = e.message.substr(at);
  }
  uint32_t queued = 0;
  while (queued < replayed.queued_outcome.size() && replayed.queued_outcome[queued] != index) ++queued;
  Explainer(config, report, replayed, max_ahead).Explain(queued, &e);
  return e;
}

}  // namespace

std::optional<Explanation> ExplainJob(const Config& config, const std::vector<JobEntry>& entries,
                                      std::string_view job, size_t max_ahead, std::string* error,
                                      int64_t now_us) {
  return Explain(config, ResolveJobs(config, entries), job, max_ahead, error, now_us);
}

std::optional<Explanation> ExplainJob(const Config& config, LoadedJobs&& jobs, std::string_view job,
                                      size_t max_ahead, std::string* error, int64_t now_us) {
  ResolvedJobs resolved = jobs.resolved ? std::move(*jobs.resolved) : ResolveJobs(config, jobs.entries);
  // The entries and their text are not needed past resolution: freed
  // before the report is built (lower peak memory).
  jobs.resolved.reset();
  std::vector<JobEntry>().swap(jobs.entries);
  jobs.text.reset();
  return Explain(config, std::move(resolved), job, max_ahead, error, now_us);
}

}  // namespace rescfg
