#pragma once
/// Reading the `kubernetes:` blocks of a configuration (rescfg(5)
/// KUBERNETES): the top-level defaults of the Kueue export, a pool's
/// ResourceFlavor (nodeLabels, nodeTaints, tolerations) and a policy's
/// namespace.
///
/// Shape and Kubernetes syntax are checked here, as Kubernetes would check
/// them: label keys and values, taint effects, toleration operators and
/// their rules, namespaces, resource names, at most 8 of each list. Errors
/// are bad-kubernetes at the offending node (plus the loader's wrong-type,
/// unknown-key and duplicate-key). Invalid entries are left out of the
/// result; the findings say why.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/model.h"
#include "util/finding.h"

namespace rescfg {

/// The top-level block at `path` ("kubernetes").
KubernetesSettings ReadKubernetesSettings(const YAML::Node& node, const std::string& path,
                                          const std::string& file, std::vector<Finding>* findings);

/// A pool's block at `path` ("pools[H100].kubernetes").
PoolKubernetes ReadPoolKubernetes(const YAML::Node& node, const std::string& path, const std::string& file,
                                  std::vector<Finding>* findings);

/// A policy's block at `path` ("policies[Dev].kubernetes").
PolicyKubernetes ReadPolicyKubernetes(const YAML::Node& node, const std::string& path,
                                      const std::string& file, std::vector<Finding>* findings);

/// The taint effects Kubernetes knows.
bool IsTaintEffect(const std::string& effect);

/// Whether a toleration tolerates a taint, as Kubernetes matches them.
bool Tolerates(const KubernetesToleration& toleration, const KubernetesTaint& taint);

}  // namespace rescfg
