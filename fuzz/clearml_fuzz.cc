/// The ClearML snapshot readers on arbitrary text: the input is a tasks
/// file, optionally followed by a queues file and a workers file, each after
/// a line "#--". No crash, no exception; an unusable file says why; entries
/// are numbered in order and each is a task, valid or rejected with a
/// reason; resolution against a small configuration (running tasks placed
/// by queue or worker) and the clearml output accept whatever the readers
/// produce.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "clearml/queues.h"
#include "clearml/tasks.h"
#include "clearml/workers.h"
#include "decide/clearml_requests.h"
#include "decide/report.h"
#include "fuzz_config.h"
#include "jobs/resolve.h"

namespace {

const char* kConfig = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, resources: 8, queue: a-pool}
  - {name: B, resources: 4, queue: b-pool}
profiles:
  - {name: p, allotment: 2, links: [{pool: A, queue: a-2gpu}, {pool: B}]}
  - {name: d, allotment: 1, dynamic: {parameter: hyperparams.Args.gpus}, links: [{pool: A, queue: a-dyn}]}
policies:
  - {name: Dev, reserved: 2, profiles: [{profile: p, queue: dev-p}, {profile: d, queue: dev-d}]}
)";

const rescfg::Config& Configuration() {
  static const rescfg::Config* config = new rescfg::Config(rescfg::fuzz::LoadFuzzConfig(kConfig));
  return *config;
}

/// The part of `text` before the next "\n#--\n" (and moves past it).
std::string Part(std::string_view* text) {
  constexpr std::string_view kSeparator = "\n#--\n";
  const size_t at = text->find(kSeparator);
  std::string part(text->substr(0, at));
  text->remove_prefix(at == std::string_view::npos ? text->size() : at + kSeparator.size());
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string tasks = Part(&input), queue_text = Part(&input), worker_text = Part(&input);
  rescfg::clearml::QueueList queues = rescfg::clearml::ReadQueuesText(queue_text, "queues.json");
  rescfg::clearml::WorkerList workers = rescfg::clearml::ReadWorkersText(worker_text, "workers.json");
  if (queues.unusable == queues.findings.empty() || workers.unusable == workers.findings.empty()) std::abort();
  rescfg::clearml::Companions companions{queues.unusable ? nullptr : &queues, workers.unusable ? nullptr : &workers};
  const rescfg::Config& config = Configuration();
  rescfg::LoadedJobs jobs =
      rescfg::clearml::LoadClearmlTasksText(tasks, "tasks.json", companions, rescfg::DynamicParameterPaths(config));
  if (jobs.unusable) {
    if (jobs.findings.empty() || !jobs.entries.empty()) std::abort();  // unusable says why, keeps nothing
    return 0;
  }
  for (size_t i = 0; i < jobs.entries.size(); ++i) {
    const rescfg::JobEntry& e = jobs.entries[i];
    if (e.entry != i + 1 || !e.clearml_task || e.mark.line < 1) std::abort();
    if (e.invalid.empty() && !e.state) std::abort();  // every task is queued, running or rejected
  }
  // Resolution is where a task's queue, worker and need meet the
  // configuration; the pass after it is fuzzed through the other inputs.
  const rescfg::ResolvedJobs resolved = rescfg::ResolveJobs(config, jobs.entries);
  if (resolved.outcomes.size() != jobs.entries.size()) std::abort();
  // Resolved while parsed: the same outcomes (or, with a repeated id, the
  // same entries read again).
  const rescfg::LoadedJobs as_read = rescfg::clearml::LoadClearmlTasksText(
      tasks, "tasks.json", [&] { return companions; }, rescfg::DynamicParameterPaths(config), &config);
  if (as_read.unusable || as_read.findings.size() != jobs.findings.size()) std::abort();
  rescfg::ResolvedJobs from_entries;
  if (!as_read.resolved) from_entries = rescfg::ResolveJobs(config, as_read.entries);
  const rescfg::ResolvedJobs& again = as_read.resolved ? *as_read.resolved : from_entries;
  if (again.outcomes.size() != resolved.outcomes.size() || again.rejected != resolved.rejected ||
      again.running != resolved.running || again.queued_outcome != resolved.queued_outcome) {
    std::abort();
  }
  for (size_t i = 0; i < again.outcomes.size(); ++i) {
    const rescfg::JobOutcome &x = again.outcomes[i], &y = resolved.outcomes[i];
    if (x.entry != y.entry || x.status != y.status || x.id != y.id || rescfg::MessageOf(x) != rescfg::MessageOf(y) ||
        x.resources != y.resources || x.pool != y.pool) {
      std::abort();
    }
  }
  for (const auto& job : resolved.outcomes) {
    if (job.status == rescfg::JobStatus::kRejected && (!job.reason || !rescfg::HasMessage(job))) std::abort();
    // A running task holds in its pool; one whose pool cannot be told
    // counts against its policy.
    if (job.status == rescfg::JobStatus::kRunning && (!job.resources || (!job.pool && !job.policy))) std::abort();
  }
  // The requests of a report whose every queued job is assigned to its first link.
  rescfg::ScheduleReport report;
  report.jobs.ShareNames(resolved.outcomes);
  for (size_t i = 0; i < resolved.outcomes.size(); ++i) {
    if (resolved.outcomes[i].status != rescfg::JobStatus::kPending || !resolved.outcomes[i].id) continue;
    report.jobs.push_back(resolved.outcomes.Whole(i));
    rescfg::OutcomeRecord& job = report.jobs.Whole(report.jobs.size() - 1);
    job.route = report.jobs.LinkRoute(0, 0, false);
    report.assignments.push_back(report.jobs.size() - 1);
  }
  rescfg::clearml::RenderEnqueueRequests(report, companions.queues);
  return 0;
}
