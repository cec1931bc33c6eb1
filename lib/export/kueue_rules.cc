#include "export/kueue_rules.h"

#include <limits>
#include <map>
#include <set>

#include "config/k8s_names.h"
#include "config/kubernetes.h"

namespace rescfg {
namespace {

class Checker {
 public:
  explicit Checker(const KueueObjects& objects) : objects_(objects) {}

  std::vector<std::string> Run();

 private:
  void Fail(const std::string& who, const std::string& what) { problems_.push_back(who + ": " + what); }

  void Name(const std::string& kind, const KueueMeta& meta, std::set<std::string>& taken);
  void Groups(const std::string& who, const std::vector<KueueResourceGroup>& groups, bool may_borrow,
              bool cluster_queue);
  void Flavor(const KueueResourceFlavor& flavor);
  void CohortTree();

  const KueueObjects& objects_;
  std::set<std::string> flavor_names_, cohort_names_, queue_names_;
  std::vector<std::string> problems_;
};

void Checker::Name(const std::string& kind, const KueueMeta& meta, std::set<std::string>& taken) {
  const std::string who = kind + " " + meta.name + (meta.ns.empty() ? "" : " in " + meta.ns);
  if (std::string p = Dns1123LabelProblem(meta.name); !p.empty()) Fail(who, "the name is not a DNS-1123 label: " + p);
  if (!taken.insert(meta.ns + "/" + meta.name).second) Fail(who, "a second " + kind + " of that name");
  for (const auto& [key, value] : meta.annotations) {
    if (std::string p = QualifiedNameProblem(key); !p.empty()) Fail(who, "annotation key '" + key + "': " + p);
  }
}

void Checker::Groups(const std::string& who, const std::vector<KueueResourceGroup>& groups, bool may_borrow,
                     bool cluster_queue) {
  if (groups.size() > 16) Fail(who, std::to_string(groups.size()) + " resourceGroups; Kueue allows 16");
  std::set<std::string> resources, flavors;
  size_t total_flavors = 0, total_covered = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const KueueResourceGroup& group = groups[g];
    const std::string at = "resourceGroups[" + std::to_string(g) + "]";
    total_flavors += group.flavors.size();
    total_covered += group.covered.size();
    if (group.covered.empty() || group.covered.size() > 64) {
      Fail(who, at + " covers " + std::to_string(group.covered.size()) + " resources; Kueue allows 1 to 64");
    }
    if (group.flavors.empty() || group.flavors.size() > 64) {
      Fail(who, at + " lists " + std::to_string(group.flavors.size()) + " flavors; Kueue allows 1 to 64");
    }
    if (group.flavors.size() * group.covered.size() > 512) {
      Fail(who, at + " has more than 512 flavor-resource pairs");
    }
    for (const std::string& r : group.covered) {
      if (std::string p = QualifiedNameProblem(r); !p.empty()) Fail(who, at + ": resource '" + r + "': " + p);
      if (!resources.insert(r).second) Fail(who, "resource " + r + " is in two resource groups");
    }
    for (const KueueFlavorQuotas& f : group.flavors) {
      const std::string fat = at + " flavor " + f.name;
      if (!flavors.insert(f.name).second) Fail(who, "flavor " + f.name + " is in two resource groups");
      if (!flavor_names_.count(f.name)) Fail(who, fat + ": no ResourceFlavor of that name");
      if (f.resources.size() != group.covered.size()) {
        Fail(who, fat + " lists " + std::to_string(f.resources.size()) + " resources, not the " +
                      std::to_string(group.covered.size()) + " covered");
      }
      for (size_t r = 0; r < f.resources.size(); ++r) {
        const KueueResourceQuota& q = f.resources[r];
        if (r < group.covered.size() && q.name != group.covered[r]) {
          Fail(who, fat + ": resource " + q.name + " is not the covered " + group.covered[r]);
        }
        if (q.nominal < 0) Fail(who, fat + ": negative nominalQuota");
        if (q.borrowing_limit && *q.borrowing_limit < 0) Fail(who, fat + ": negative borrowingLimit");
        if (q.lending_limit && *q.lending_limit < 0) Fail(who, fat + ": negative lendingLimit");
        const char* parent = cluster_queue ? "a cohortName" : "a parentName";
        if (q.borrowing_limit && !may_borrow) Fail(who, fat + ": a borrowingLimit needs " + std::string(parent));
        if (q.lending_limit && !may_borrow) Fail(who, fat + ": a lendingLimit needs " + std::string(parent));
        if (q.lending_limit && *q.lending_limit > q.nominal) Fail(who, fat + ": lendingLimit above nominalQuota");
      }
    }
  }
  if (cluster_queue && total_flavors > 256) Fail(who, "more than 256 flavors in all; Kueue allows 256");
  if (cluster_queue && total_covered > 256) Fail(who, "more than 256 covered resources in all; Kueue allows 256");
}

void Checker::Flavor(const KueueResourceFlavor& f) {
  const std::string who = "ResourceFlavor " + f.meta.name;
  if (f.node_labels.size() > 8) Fail(who, "more than 8 nodeLabels");
  for (const KubernetesLabel& l : f.node_labels) {
    if (std::string p = LabelKeyProblem(l.key); !p.empty() || l.key.empty()) Fail(who, "label key '" + l.key + "' " + p);
    if (std::string p = LabelValueProblem(l.value); !p.empty()) Fail(who, "label value '" + l.value + "': " + p);
  }
  if (f.node_taints.size() > 8) Fail(who, "more than 8 nodeTaints");
  std::set<std::pair<std::string, std::string>> seen;
  for (const KubernetesTaint& t : f.node_taints) {
    if (std::string p = LabelKeyProblem(t.key); !p.empty() || t.key.empty()) Fail(who, "taint key '" + t.key + "' " + p);
    if (std::string p = LabelValueProblem(t.value); !p.empty()) Fail(who, "taint value '" + t.value + "': " + p);
    if (!IsTaintEffect(t.effect)) Fail(who, "taint effect '" + t.effect + "'");
    if (!seen.insert({t.key, t.effect}).second) Fail(who, "two taints with key " + t.key + " and effect " + t.effect);
  }
  if (f.tolerations.size() > 8) Fail(who, "more than 8 tolerations");
  for (const KubernetesToleration& t : f.tolerations) {
    if (!t.key.empty()) {
      if (std::string p = LabelKeyProblem(t.key); !p.empty()) Fail(who, "toleration key '" + t.key + "': " + p);
    } else if (t.op != "Exists") {
      Fail(who, "a toleration without a key needs operator Exists");
    }
    if (t.op != "Equal" && t.op != "Exists") Fail(who, "toleration operator '" + t.op + "'");
    if (t.op == "Exists" && !t.value.empty()) Fail(who, "a toleration with operator Exists has a value");
    if (std::string p = LabelValueProblem(t.value); !p.empty()) Fail(who, "toleration value '" + t.value + "': " + p);
    if (!t.effect.empty() && !IsTaintEffect(t.effect)) Fail(who, "toleration effect '" + t.effect + "'");
    if (t.seconds && t.effect != "NoExecute") Fail(who, "tolerationSeconds without effect NoExecute");
  }
}

void Checker::CohortTree() {
  std::map<std::string, std::string> parent;
  for (const KueueCohort& c : objects_.cohorts) parent[c.meta.name] = c.parent;
  for (const KueueCohort& c : objects_.cohorts) {
    const std::string who = "Cohort " + c.meta.name;
    if (!c.parent.empty() && !parent.count(c.parent)) Fail(who, "its parent " + c.parent + " is no Cohort");
    std::set<std::string> path{c.meta.name};
    for (std::string up = c.parent; !up.empty() && parent.count(up); up = parent[up]) {
      if (!path.insert(up).second) {
        Fail(who, "its parents form a cycle");
        break;
      }
    }
  }
}

std::vector<std::string> Checker::Run() {
  std::set<std::string> taken_flavors, taken_cohorts, taken_cqs, taken_lqs, taken_classes;
  for (const auto& f : objects_.flavors) {
    Name("ResourceFlavor", f.meta, taken_flavors);
    flavor_names_.insert(f.meta.name);
    Flavor(f);
  }
  for (const auto& c : objects_.cohorts) {
    Name("Cohort", c.meta, taken_cohorts);
    cohort_names_.insert(c.meta.name);
  }
  for (const auto& c : objects_.cohorts) Groups("Cohort " + c.meta.name, c.groups, !c.parent.empty(), false);
  CohortTree();
  for (const auto& q : objects_.cluster_queues) {
    const std::string who = "ClusterQueue " + q.meta.name;
    Name("ClusterQueue", q.meta, taken_cqs);
    queue_names_.insert(q.meta.name);
    if (!q.cohort.empty() && !cohort_names_.count(q.cohort)) Fail(who, "its cohort " + q.cohort + " is no Cohort");
    if (std::string p = LabelValueProblem(q.ns); !p.empty()) Fail(who, "namespaceSelector value '" + q.ns + "': " + p);
    Groups(who, q.groups, !q.cohort.empty(), true);
  }
  for (const auto& l : objects_.local_queues) {
    const std::string who = "LocalQueue " + l.meta.name;
    Name("LocalQueue", l.meta, taken_lqs);
    if (std::string p = Dns1123LabelProblem(l.meta.ns); !p.empty()) Fail(who, "namespace '" + l.meta.ns + "': " + p);
    if (!queue_names_.count(l.cluster_queue)) Fail(who, "its ClusterQueue " + l.cluster_queue + " is missing");
  }
  for (const auto& c : objects_.priority_classes) {
    const std::string who = "WorkloadPriorityClass " + c.meta.name;
    Name("WorkloadPriorityClass", c.meta, taken_classes);
    if (c.value < std::numeric_limits<int32_t>::min() || c.value > std::numeric_limits<int32_t>::max()) {
      Fail(who, "value " + std::to_string(c.value) + " is not a 32-bit integer");
    }
    if (c.description.size() > 2048) Fail(who, "a description longer than 2048");
  }
  return problems_;
}

}  // namespace

std::vector<std::string> KueueRuleViolations(const KueueObjects& objects) { return Checker(objects).Run(); }

}  // namespace rescfg
