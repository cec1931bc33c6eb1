#pragma once
/// The result of `rescfg schedule` (rescfg(5), SCHEDULE OUTPUT) for every input entry: what the
/// output formats, `status` and `diff --jobs` all read.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "jobs/resolved_jobs.h"
#include "schedule/problem.h"
#include "util/quantity.h"
#include "util/text_arena.h"
#include "util/text_ref.h"

namespace rescfg {

struct PoolSummary {
  std::string name, queue;
  Quantity size, in_use, free;  ///< free = max(0, size - in_use); 0 when paused (rescfg-scheduling(7), THE PASS)
  bool paused = false;
  std::optional<PoolNodes> nodes;       ///< a pool made of machines (rescfg(5), CONFIGURATION v3)
  std::vector<Quantity> machine_free;   ///< with nodes: per machine, on the final state
  Quantity largest_free;                ///< with nodes: the most free on one machine (0 when paused)
  GpuFractions gpu_fractions;  ///< so that tables count MIG slices
};

struct PolicySummary {
  std::string name;
  Quantity reserved;
  std::optional<Quantity> limit;
  Quantity used;
  bool paused = false;
  Quantity running;         ///< what its running jobs hold (part of `used`)
  bool over_limit = false;  ///< its running jobs alone hold more than its limit
};

/// A preemption decision (rescfg-scheduling(7), PREEMPTION), by entry.
struct PreemptionOutcome {
  size_t job = 0;               ///< the preemptor: index into ScheduleReport::jobs
  std::string_view pool;
  std::vector<size_t> victims;  ///< indexes into jobs, in the order taken
  std::vector<std::string_view> victim_started;  ///< per victim: its `started` (RFC 3339), "" when unknown
  std::vector<size_t> awaiting; ///< stopping jobs it waits for: indexes into jobs
};

struct ScheduleReport {
  TextArena text;                      ///< what the jobs' text views
  bool enabled = true;
  Outcomes jobs;                       ///< every entry, in input order
  std::vector<size_t> assignments;     ///< indexes into jobs, in placement order
  std::vector<size_t> pending;         ///< indexes into jobs, in queue order
  std::vector<uint32_t> rejected;      ///< indexes into jobs, in file order
  std::vector<uint32_t> running;       ///< indexes into jobs, in file order
  std::vector<PoolSummary> pools;      ///< configuration order
  std::vector<PolicySummary> policies; ///< configuration order
  size_t running_count = 0;
  size_t policies_over_limit = 0;      ///< policies whose running jobs exceed their limit
  size_t running_without_policy = 0;   ///< running jobs that count against no policy
  bool preemption = false;             ///< configured (and enabled): YAML/JSON carry `preemptions`
  std::vector<PreemptionOutcome> preemptions;  ///< in decision order
  /// (index into jobs, index into preemptions), ascending by job: the victims and the preemptors.
  std::vector<std::pair<size_t, uint32_t>> victim_of, preemptor_of;
  std::vector<size_t> stopping;        ///< running jobs asked to stop (indexes into jobs, file order)
};

/// Resolves the entries against `config` (defaults applied, valid), runs the
/// scheduling pass and assembles the report. Pure: no I/O. `now_us` is the instant preemption
/// judges waits and run times at (`--now`); it changes nothing without `preemption`.
ScheduleReport BuildSchedule(const Config& config, const std::vector<JobEntry>& entries,
                             int64_t now_us = kUnknownTime);
/// The same, freeing the entries and their text as soon as they are
/// resolved (lower peak memory).
ScheduleReport BuildSchedule(const Config& config, LoadedJobs&& jobs, int64_t now_us = kUnknownTime);

/// The dynamic-parameter paths the jobs loader should extract for `config`.
std::vector<std::string> DynamicParameterPaths(const Config& config);

}  // namespace rescfg
