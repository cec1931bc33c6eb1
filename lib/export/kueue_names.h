#pragma once
/// The names of the Kueue objects of a configuration (rescfg(5), KUBERNETES): DNS-1123
/// label forms of rescfg names (k8s_names.h Dns1123Label), unique within
/// their kind and stable, since they depend on the names only.
///
///   pool            -> ResourceFlavor        Dns1123Label(pool)
///   policy          -> Cohort                Dns1123Label(policy)
///   policy queue    -> ClusterQueue, LocalQueue and WorkloadPriorityClass
///                                            Dns1123Label(queue)
///   configuration   -> the root Cohort       kubernetes.cohort
///                      and, beyond 64 pools, Cohorts <root>-pools-1, -2, ...
///
/// Names of one kind that become one only because the label is cut to 63
/// characters each get, instead, their first 54 characters, '-' and 8 hex
/// digits of the sha256 of the whole name: unique, and stable (the suffix
/// depends on the name only).
///
/// Codes (errors: the configuration cannot be exported, exit 2):
/// kueue-bad-name (a name without an ASCII letter or digit),
/// kueue-name-collision (two names that become one other than by the cut).

#include <string>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

/// Kueue allows at most this many flavors in a resource group.
inline constexpr size_t kKueueMaxFlavorsPerGroup = 64;

struct KueueNames {
  std::string root;                              ///< the root Cohort
  std::vector<std::string> shared;               ///< Cohorts holding the pools' shared quota, 64 pools each
  std::vector<std::string> flavors;              ///< per pool
  std::vector<std::string> policy_cohorts;       ///< per policy
  std::vector<std::vector<std::string>> queues;  ///< per policy, per profile entry
};

/// Names every object of `config` (defaults applied). Appends an error for
/// each name that cannot be used, at the line of the later name.
KueueNames NameKueueObjects(const Config& config, const std::string& file, std::vector<Finding>* errors);

}  // namespace rescfg
