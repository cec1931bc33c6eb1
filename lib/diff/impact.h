#pragma once
/// The impact of a configuration change on a jobs snapshot (`diff --jobs`):
/// the snapshot is scheduled under both configurations and every job whose
/// status, pool or reason differs is listed.

#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"
#include "diff/preemption_impact.h"
#include "jobs/job.h"
#include "util/json_writer.h"
#include "util/markdown.h"

namespace rescfg {

/// What a change compares of one job's outcome (owned: the schedules it
/// comes from are gone).
struct OutcomeSummary {
  JobStatus status = JobStatus::kPending;
  std::optional<std::string> pool, reason, message;
  PreemptionPart preemption;    ///< its part in the preemption decisions
  bool with_preemption = false; ///< either side configures preemption: JSON carries the part
};

struct JobImpact {
  size_t entry = 0;               ///< 1-based entry number in the jobs file
  std::optional<std::string> id;  ///< null for an entry with no usable id
  OutcomeSummary before, after;
};

/// Jobs (in input order) whose outcome changes between `old_config` and
/// `new_config` (both valid, defaults applied).
/// `now_us` is the instant preemption judges at (`--now`); `preemption`, when given, receives
/// both sides' decision counts.
std::vector<JobImpact> ComputeImpact(const Config& old_config, const Config& new_config,
                                     const std::vector<JobEntry>& entries, int64_t now_us = kUnknownTime,
                                     PreemptionImpact* preemption = nullptr);

/// The dynamic-parameter paths of both configurations, sorted, without
/// repeats: what the jobs loader must extract for ComputeImpact.
std::vector<std::string> ImpactParameterPaths(const Config& old_config, const Config& new_config);

/// One line per job, e.g. `dev-3: pending (capacity) -> assigned to "H100"`.
std::string RenderImpactText(const std::vector<JobImpact>& impact);
/// A Markdown table: job, before, after, and the message after.
void RenderImpactMarkdown(const std::vector<JobImpact>& impact, MarkdownDocument& doc);
/// A JSON array of {job, entry, before: {status, pool, reason}, after: {...}}.
void WriteImpactJson(const std::vector<JobImpact>& impact, JsonWriter& json);

}  // namespace rescfg
