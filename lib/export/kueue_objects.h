#pragma once
/// The Kueue objects (kueue.x-k8s.io/v1beta2) of a configuration, as plain
/// values: what the export writes and what its own checks of Kueue's rules
/// (kueue_rules.h) look at.
///
///   pool         -> ResourceFlavor: nodeLabels, nodeTaints, tolerations;
///                   paused: the taint rescfg.io/paused=true:NoSchedule, so
///                   Kueue assigns it to nothing new (admitted jobs stay).
///   the pools    -> the root Cohort: the quota no reservation takes.
///   policy       -> a Cohort under the root: its share of every pool as
///                   nominal quota; a limit lower than its pools as
///                   borrowingLimits.
///   policy queue -> a ClusterQueue in the policy's Cohort: its profile's
///                   pools in link order, no quota of its own,
///                   whenCanBorrow: MayStopSearch (the first flavor that
///                   fits wins, as the first admissible pool does),
///                   queueingStrategy from the profile, stopPolicy Hold when
///                   the policy is paused, the configuration disabled or
///                   every pool of the profile paused;
///                   a LocalQueue in the policy's namespace; a
///                   WorkloadPriorityClass.
///
/// Codes (errors, exit 2): kueue-too-many-flavors (more than 64 pools in a
/// resource group), kueue-too-many-resources (more than 64 resources in
/// one), kueue-too-many-taints (a paused pool already has 8 taints).
/// Finding: kueue-paused-pool (the pool's own tolerations tolerate the taint
/// that pauses it).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config/model.h"
#include "export/export_result.h"
#include "export/kueue_names.h"
#include "export/kueue_priority.h"
#include "export/kueue_quota.h"
#include "export/kueue_requests.h"

namespace rescfg {

/// The taint on the ResourceFlavor of a paused pool.
inline constexpr const char* kKueuePausedTaint = "rescfg.io/paused";

struct KueueMeta {
  std::string name;
  std::string ns;  ///< LocalQueues only
  std::vector<std::pair<std::string, std::string>> annotations;
};

struct KueueResourceQuota {
  std::string name;
  int64_t nominal = 0;
  std::optional<int64_t> borrowing_limit, lending_limit;
};

struct KueueFlavorQuotas {
  std::string name;
  std::vector<KueueResourceQuota> resources;
};

struct KueueResourceGroup {
  std::vector<std::string> covered;
  std::vector<KueueFlavorQuotas> flavors;
};

struct KueueResourceFlavor {
  KueueMeta meta;
  std::vector<KubernetesLabel> node_labels;
  std::vector<KubernetesTaint> node_taints;
  std::vector<KubernetesToleration> tolerations;
};

struct KueueCohort {
  KueueMeta meta;
  std::string parent;  ///< "" for the root
  std::vector<KueueResourceGroup> groups;
};

struct KueueClusterQueue {
  KueueMeta meta;
  std::string cohort;
  std::string ns;      ///< namespaceSelector: the namespace of its LocalQueue
  Queueing queueing = Queueing::kBestEffortFIFO;
  bool hold = false;   ///< stopPolicy Hold
  bool reclaim = false;  ///< preemption.reclaimWithinCohort Any (rescfg's `preemption`), else Never
  std::vector<KueueResourceGroup> groups;
};

struct KueueLocalQueue {
  KueueMeta meta;
  std::string cluster_queue;
};

struct KueuePriorityClass {
  KueueMeta meta;
  int64_t value = 0;
  std::string description;
};

struct KueueObjects {
  std::vector<KueueResourceFlavor> flavors;
  std::vector<KueueCohort> cohorts;
  std::vector<KueuePriorityClass> priority_classes;
  std::vector<KueueClusterQueue> cluster_queues;
  std::vector<KueueLocalQueue> local_queues;
};

/// Everything the objects are made of.
struct KueuePlan {
  const Config& config;
  const KueueNames& names;
  const KueueRequests& requests;
  const KueueQuota& quota;
  const KueuePriorities& priorities;
};

/// Builds the objects; appends errors for what Kueue would refuse and
/// findings for what it would not enforce.
KueueObjects BuildKueueObjects(const KueuePlan& plan, const std::string& file, std::vector<Finding>* errors,
                               std::vector<ExportFinding>* findings);

}  // namespace rescfg
