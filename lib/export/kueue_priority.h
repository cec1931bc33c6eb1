#pragma once
/// WorkloadPriorityClasses for rescfg's placement order.
///
/// rescfg places first the job whose profile ranks highest in its target
/// pool's executionPriority, then whose policy ranks highest in its
/// profile's policyPriority. Kueue has one priority per workload, the same
/// in every flavor, and uses it to order the heads of the ClusterQueues in
/// a scheduling cycle (after the workloads that need no borrowing). So the
/// export gives each policy queue a WorkloadPriorityClass whose value
/// follows one order of all profiles, merged from every pool's
/// executionPriority (a pool's order first, ties and conflicts by file
/// order), then the policy's rank in the profile's policyPriority.
///
/// Findings: kueue-execution-priority (a pool that orders two or more
/// profiles: Kueue cannot order workloads per flavor), kueue-policy-priority
/// (a profile that two or more policies use: Kueue's priority is not strict).

#include <cstdint>
#include <string>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"

namespace rescfg {

struct KueuePriorities {
  std::vector<std::string> profile_order;    ///< the merged order of all profiles
  std::vector<std::vector<int32_t>> values;  ///< per policy, per profile entry: 1 = lowest
};

/// Ranks every policy queue of a valid configuration (defaults applied)
/// and appends the findings; `names` are the policy queues' Kueue names.
KueuePriorities RankPolicyQueues(const Config& config, const std::vector<std::vector<std::string>>& names,
                                 std::vector<ExportFinding>* findings);

}  // namespace rescfg
