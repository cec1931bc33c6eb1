#pragma once
/// The result of `rescfg schedule` (SPEC §5) for every input entry: what the
/// output formats, `status` and `diff --jobs` all read.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/model.h"
#include "jobs/job.h"
#include "quantity.h"

namespace rescfg {

enum class JobStatus { kAssigned, kPending, kRejected, kRunning };
const char* JobStatusName(JobStatus s);

/// One input entry's outcome. Fields follow the JSONL object of SPEC §5.
struct JobOutcome {
  size_t entry = 0;                    ///< 1-based entry number
  std::optional<std::string> id;       ///< null for an entry with no usable id
  JobStatus status = JobStatus::kPending;
  std::optional<std::string> policy, profile;  ///< resolved names, or as given when rejected
  std::optional<std::string> pool, queue;      ///< assigned and running
  std::optional<std::string> link;             ///< assigned: the link's name ("" if unnamed)
  std::optional<Quantity> resources;           ///< need (assigned, pending) or holding (running)
  std::string_view need_source;                ///< "allotment" | "parameter" | "fallback" | "holding" (static text)
  std::optional<std::string> reason;           ///< pending and rejected
  std::optional<std::string> message;          ///< pending, rejected, running with a warning
};

struct PoolSummary {
  std::string name, queue;
  Quantity size, in_use, free;  ///< free = max(0, size - in_use)
};

struct PolicySummary {
  std::string name;
  Quantity reserved;
  std::optional<Quantity> limit;
  Quantity used;
};

struct ScheduleReport {
  bool enabled = true;
  std::vector<JobOutcome> jobs;        ///< every entry, in input order
  std::vector<size_t> assignments;     ///< indexes into jobs, in placement order
  std::vector<size_t> pending;         ///< indexes into jobs, in queue order
  std::vector<size_t> rejected;        ///< indexes into jobs, in file order
  std::vector<PoolSummary> pools;      ///< configuration order
  std::vector<PolicySummary> policies; ///< configuration order
  size_t running_count = 0;
};

/// Resolves the entries against `config` (defaults applied, valid), runs the
/// scheduling pass and assembles the report. Pure: no I/O.
ScheduleReport BuildSchedule(const Config& config, const std::vector<JobEntry>& entries);
/// The same, freeing `entries` as soon as they are resolved (lower peak memory).
ScheduleReport BuildSchedule(const Config& config, std::vector<JobEntry>&& entries);

/// The dynamic-parameter paths the jobs loader should extract for `config`.
std::vector<std::string> DynamicParameterPaths(const Config& config);

}  // namespace rescfg
