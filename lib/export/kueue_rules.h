#pragma once
/// Kueue's own rules for the objects of an export, as its CRD schemas, CEL
/// rules and admission webhooks (pkg/webhooks) check them, so that the
/// export never writes an object Kueue would refuse:
///
/// - names: DNS-1123 labels (at most 63), unique per kind (LocalQueues per
///   namespace); references to Cohorts, flavors and ClusterQueues resolve;
///   Cohorts form a tree;
/// - resource groups: at most 16; each covers 1 to 64 resources and lists
///   1 to 64 flavors, each flavor with exactly the covered resources in
///   their order; a resource and a flavor in one group only; at most 256
///   flavors and 256 covered resources in a ClusterQueue, 512
///   flavor-resource pairs in a group; valid resource names;
/// - quota: non-negative; borrowingLimit and lendingLimit only with a
///   cohort (a parent for a Cohort); lendingLimit <= nominalQuota;
/// - ResourceFlavors: at most 8 nodeLabels, nodeTaints and tolerations,
///   valid label keys and values, taint effects, taints unique by key and
///   effect, tolerations: Equal or Exists, Exists without a value, an empty
///   key only with Exists, tolerationSeconds only with NoExecute;
/// - WorkloadPriorityClasses: a 32-bit value, a description of at most 2048.
///
/// The constant parts the writer adds (flavorFungibility whenCanBorrow
/// MayStopSearch without a preference, preemption Never) satisfy the
/// ClusterQueue's CEL rules by construction.

#include <string>
#include <vector>

#include "export/kueue_objects.h"

namespace rescfg {

/// One line per broken rule, e.g. "ClusterQueue dev-4gpu: resourceGroups[0]
/// lists 65 flavors; Kueue allows 64"; empty when Kueue would accept them all.
std::vector<std::string> KueueRuleViolations(const KueueObjects& objects);

}  // namespace rescfg
