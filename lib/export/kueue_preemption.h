#pragma once
/// What the Kueue export cannot say of the `preemption:` block (rescfg(5), PREEMPTION;
/// docs/kueue.md). With it, ClusterQueues reclaim what they lend (reclaimWithinCohort: Any,
/// nothing else preempts); these findings name the rest:
///   kueue-min-runtime       minRuntime above 0: Kueue may stop a workload that has just started;
///   kueue-preemption-delay  delay above 0: Kueue reclaims as soon as a workload waits;
///   kueue-not-preemptible   a policy with preemptible: false: Kueue preempts any borrower;
///   kueue-victim-order      Kueue picks victims in its own order, not rescfg's.

#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

/// Whether the ClusterQueues reclaim within their Cohort: the configuration has `preemption`.
inline bool KueueReclaims(const Config& config) { return config.preemption.has_value(); }

/// Appends the findings above (none without `preemption`).
void PreemptionFindings(const Config& config, std::vector<ExportFinding>* findings);

}  // namespace rescfg
