#pragma once
/// The Kueue objects as multi-document YAML for `kubectl apply -f`: a
/// comment header (how the quota is counted and, with ticks, the resource
/// transformations Kueue's Configuration needs), then one document per
/// object: ResourceFlavors, Cohorts, WorkloadPriorityClasses,
/// ClusterQueues, LocalQueues, each in configuration order. Every object
/// carries the label app.kubernetes.io/managed-by: rescfg (for
/// `kubectl apply --prune -l ...`) and annotations naming what it stands
/// for in the configuration.

#include <string>

#include "export/kueue_objects.h"
#include "export/kueue_requests.h"

namespace rescfg {

/// The label every exported object carries.
inline constexpr const char* kKueueManagedBy = "app.kubernetes.io/managed-by";

std::string WriteKueueYaml(const KueueObjects& objects, const KueueRequests& requests);

}  // namespace rescfg
