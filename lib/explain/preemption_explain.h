#pragma once
/// `rescfg explain` with preemption (rescfg-scheduling(7), PREEMPTION): for a pending job, whether
/// it preempts and, pool by pool, every running job looked at — taken, put back, passed over or
/// not a candidate — and why; for a running job, whether it is a victim, for whom, where and why.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/model.h"
#include "decide/report.h"
#include "jobs/resolved_jobs.h"
#include "schedule/preemption_trace.h"
#include "util/json_writer.h"
#include "util/quantity.h"

namespace rescfg {

/// One running job of a pool a preemptor tried, in the order looked at, then in file order.
struct PreemptionCandidate {
  std::string job, policy, profile;
  Quantity resources;
  std::string verdict;  ///< stable code: taken, put-back, passed-over, released, awaited, not-needed, ...
  std::string detail;   ///< why, with the names and amounts involved
};

/// One linked pool of the preemptor, in link order.
struct PreemptionPoolStory {
  std::string pool;
  std::string outcome;  ///< decided | no-fit | fits | paused | not-reached
  std::string detail;
  std::vector<PreemptionCandidate> candidates;  ///< at most max_ahead of them
  size_t total = 0;                             ///< all of them
};

struct PreemptionStory {
  std::string role;      ///< preemptor | victim | none
  std::string verdict;   ///< stable code (see RenderPreemptionJson)
  std::string summary;   ///< the verdict in words
  std::string preemptor; ///< a victim's preemptor ("" otherwise)
  std::string pool;      ///< the decision's pool ("" when none)
  std::vector<std::string> victims, awaiting;
  std::string turn;      ///< "1 of 2 preemptors" ("" when it took no turn)
  std::vector<PreemptionPoolStory> pools;
};

/// What to trace for the entry `index` of `report`: set on the scheduling input before the
/// report is built (nothing when the configuration has no preemption or the entry neither
/// waits nor runs).
std::optional<PreemptionTrace> PreemptionTraceFor(const Config& config, const ResolvedJobs& resolved, size_t index);

/// The story of entry `index` from the trace its report was built with.
PreemptionStory TellPreemption(const Config& config, const ScheduleReport& report, const ResolvedJobs& resolved,
                               const PreemptionTrace& trace, size_t index, int64_t now_us, size_t max_listed);

std::string RenderPreemptionText(const PreemptionStory& story);
void WritePreemptionJson(const PreemptionStory& story, JsonWriter& json);

}  // namespace rescfg
