#include "simulate/trace.h"

#include <algorithm>
#include <numeric>

#include "jobs/job_fields.h"

namespace rescfg {
namespace {

constexpr Micros kUnset = INT64_MIN;

/// Checks the trace fields of one entry; problems join entry->invalid.
void CheckTraceFields(JobEntry* e, Micros* submitted, Micros* duration) {
  const bool queued = !e->state || *e->state == "queued";
  const bool running = e->state && *e->state == "running";
  e->enqueued.reset();  // a trace orders queues by `submitted`, whatever the type of `enqueued`
  e->enqueued_mistyped = false;
  if (!queued && !running) return;  // resolution rejects the state itself
  std::string error;
  if (queued) {
    switch (e->submitted_style) {
      case ScalarStyle::kAbsent:
        AddProblem(e, "required field 'submitted' is missing (when the job joins its queue, an RFC 3339 time)");
        break;
      case ScalarStyle::kNotScalar:
        AddProblem(e, "field 'submitted' must be an RFC 3339 time such as 2026-11-29T10:00:00Z");
        break;
      default:
        if (auto t = ParseSimTime(*e->submitted, &error)) {
          *submitted = *t;
        } else {
          AddProblem(e, "submitted " + error);
        }
    }
  }
  switch (e->duration_style) {
    case ScalarStyle::kAbsent:
      if (queued) AddProblem(e, "required field 'duration' is missing (the seconds the job runs once started)");
      break;
    case ScalarStyle::kQuoted:
      AddProblem(e, "duration '" + std::string(e->duration->substr(0, 40)) +
                        "' must be a number of seconds, not a string (write it without quotes)");
      break;
    case ScalarStyle::kNotScalar:
      AddProblem(e, "field 'duration' must be a number of seconds such as 3600 or 0.5");
      break;
    case ScalarStyle::kPlain:
      if (auto d = ParseDurationSeconds(*e->duration, &error)) {
        *duration = *d;
      } else {
        AddProblem(e, error);
      }
      break;
  }
}

}  // namespace

ResolvedTrace ResolveTrace(const Config& config, std::vector<JobEntry>& entries) {
  std::vector<Micros> submitted(entries.size(), kUnset), duration(entries.size(), kUnset);
  for (size_t i = 0; i < entries.size(); ++i) CheckTraceFields(&entries[i], &submitted[i], &duration[i]);

  ResolvedTrace trace;
  trace.jobs = ResolveJobs(config, entries);
  const std::vector<uint32_t>& outcome_of = trace.jobs.queued_outcome;
  std::vector<QueuedJob>& queued = trace.jobs.input.queued;
  trace.submitted.reserve(queued.size());
  trace.duration.reserve(queued.size());
  for (uint32_t k = 0; k < queued.size(); ++k) {
    trace.submitted.push_back(submitted[outcome_of[k]]);
    trace.duration.push_back(duration[outcome_of[k]]);
  }
  for (uint32_t i = 0; i < trace.jobs.outcomes.size(); ++i) {
    if (trace.jobs.outcomes[i].status != JobStatus::kRunning) continue;
    trace.holding_outcome.push_back(i);
    trace.remaining.push_back(duration[i] == kUnset ? std::nullopt : std::optional<Micros>(duration[i]));
  }
  // Queue order: by submitted time, ties by file position (queued jobs are
  // listed in file order).
  std::vector<uint32_t> order(queued.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return trace.submitted[a] < trace.submitted[b]; });
  for (uint32_t rank = 0; rank < order.size(); ++rank) queued[order[rank]].queue_order = rank;
  return trace;
}

}  // namespace rescfg
