#pragma once
/// Preemption in the impact of a configuration change (`diff --jobs`, rescfg(1), COMMANDS): which
/// jobs would preempt or be preempted under each configuration, and how many decisions each makes.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "decide/report.h"
#include "util/json_writer.h"
#include "util/markdown.h"

namespace rescfg {

/// One job's part in the decisions of one schedule.
struct PreemptionPart {
  std::optional<std::string> preempted_for;  ///< a victim: its preemptor
  std::vector<std::string> victims;          ///< a preemptor: its victims
  bool operator==(const PreemptionPart&) const = default;
};
PreemptionPart PreemptionPartOf(const ScheduleReport& report, size_t job);

/// The decisions of one side.
struct PreemptionCounts {
  bool configured = false;  ///< preemption set (and resource management enabled)
  size_t preemptors = 0, victims = 0, awaiting = 0;
};

/// Both sides; shown when either configures preemption.
struct PreemptionImpact {
  PreemptionCounts before, after;
  bool shown() const { return before.configured || after.configured; }
};
PreemptionImpact CountPreemptionImpact(const ScheduleReport& before, const ScheduleReport& after);

/// " (preempted for r1)", " (preempting d1, d2)" or "": what Describe adds to an outcome.
std::string PreemptionPartText(const PreemptionPart& part);
/// "victims" and "preemptedFor" of an outcome in JSON.
void WritePreemptionPartJson(const PreemptionPart& part, JsonWriter& json);

/// "Preemptions: 2 (2 victims) -> none (preemption off)\n", "" when not shown.
std::string RenderPreemptionImpactText(const PreemptionImpact& impact);
void RenderPreemptionImpactMarkdown(const PreemptionImpact& impact, MarkdownDocument& doc);
/// {"before": {configured, preemptors, victims, awaiting}, "after": {...}}.
void WritePreemptionImpactJson(const PreemptionImpact& impact, JsonWriter& json);

}  // namespace rescfg
