#include "export/kueue_writer.h"

#include "config/canonical.h"

namespace rescfg {
namespace {

constexpr const char* kApiVersion = "kueue.x-k8s.io/v1beta2";

/// A DNS-1123 name as a YAML scalar: plain, unless a YAML 1.1 reader (as
/// kubectl's) would take it for a number, a date, a boolean or null.
std::string Name(const std::string& name) {
  static const char* const kSpecial[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"};
  bool special = name.empty() || (name[0] >= '0' && name[0] <= '9');
  for (const char* word : kSpecial) special |= name == word;
  return special ? YamlQuote(name) : name;
}

/// Appends lines to one document.
class Doc {
 public:
  explicit Doc(std::string& out) : out_(out) {}

  void Line(int indent, const std::string& text) { out_ += std::string(static_cast<size_t>(indent), ' ') + text + "\n"; }

  void Begin(const char* kind, const KueueMeta& meta) {
    out_ += "---\n";
    Line(0, std::string("apiVersion: ") + kApiVersion);
    Line(0, std::string("kind: ") + kind);
    Line(0, "metadata:");
    Line(2, "name: " + Name(meta.name));
    if (!meta.ns.empty()) Line(2, "namespace: " + Name(meta.ns));
    Line(2, "labels:");
    Line(4, std::string(kKueueManagedBy) + ": rescfg");
    if (meta.annotations.empty()) return;
    Line(2, "annotations:");
    for (const auto& [key, value] : meta.annotations) Line(4, key + ": " + YamlQuote(value));
  }

  void Groups(int indent, const std::vector<KueueResourceGroup>& groups) {
    if (groups.empty()) return;
    Line(indent, "resourceGroups:");
    for (const KueueResourceGroup& group : groups) {
      std::string covered;
      for (const std::string& r : group.covered) covered += (covered.empty() ? "" : ", ") + YamlQuote(r);
      Line(indent + 2, "- coveredResources: [" + covered + "]");
      Line(indent + 4, "flavors:");
      for (const KueueFlavorQuotas& f : group.flavors) {
        Line(indent + 6, "- name: " + Name(f.name));
        Line(indent + 8, "resources:");
        for (const KueueResourceQuota& q : f.resources) {
          std::string entry = "- {name: " + YamlQuote(q.name) + ", nominalQuota: " + std::to_string(q.nominal);
          if (q.borrowing_limit) entry += ", borrowingLimit: " + std::to_string(*q.borrowing_limit);
          if (q.lending_limit) entry += ", lendingLimit: " + std::to_string(*q.lending_limit);
          Line(indent + 10, entry + "}");
        }
      }
    }
  }

 private:
  std::string& out_;
};

void WriteFlavor(const KueueResourceFlavor& f, Doc& doc) {
  doc.Begin("ResourceFlavor", f.meta);
  if (f.node_labels.empty() && f.node_taints.empty() && f.tolerations.empty()) {
    doc.Line(0, "spec: {}");
    return;
  }
  doc.Line(0, "spec:");
  if (!f.node_labels.empty()) doc.Line(2, "nodeLabels:");
  for (const KubernetesLabel& l : f.node_labels) doc.Line(4, YamlQuote(l.key) + ": " + YamlQuote(l.value));
  if (!f.node_taints.empty()) doc.Line(2, "nodeTaints:");
  for (const KubernetesTaint& t : f.node_taints) {
    doc.Line(4, "- {key: " + YamlQuote(t.key) + ", value: " + YamlQuote(t.value) + ", effect: " + t.effect + "}");
  }
  if (!f.tolerations.empty()) doc.Line(2, "tolerations:");
  for (const KubernetesToleration& t : f.tolerations) {
    std::string entry = "- {";
    if (!t.key.empty()) entry += "key: " + YamlQuote(t.key) + ", ";
    entry += "operator: " + t.op;
    if (t.op != "Exists") entry += ", value: " + YamlQuote(t.value);
    if (!t.effect.empty()) entry += ", effect: " + t.effect;
    if (t.seconds) entry += ", tolerationSeconds: " + std::to_string(*t.seconds);
    doc.Line(4, entry + "}");
  }
}

void WriteCohort(const KueueCohort& c, Doc& doc) {
  doc.Begin("Cohort", c.meta);
  if (c.parent.empty() && c.groups.empty()) {
    doc.Line(0, "spec: {}");
    return;
  }
  doc.Line(0, "spec:");
  if (!c.parent.empty()) doc.Line(2, "parentName: " + Name(c.parent));
  doc.Groups(2, c.groups);
}

void WriteClusterQueue(const KueueClusterQueue& q, Doc& doc) {
  doc.Begin("ClusterQueue", q.meta);
  doc.Line(0, "spec:");
  if (!q.cohort.empty()) doc.Line(2, "cohortName: " + Name(q.cohort));
  doc.Line(2, "namespaceSelector:");
  doc.Line(4, "matchLabels: {kubernetes.io/metadata.name: " + Name(q.ns) + "}");
  doc.Line(2, std::string("queueingStrategy: ") + QueueingName(q.queueing));
  // The first flavor in link order that fits wins, borrowing or not: as
  // rescfg's target is the first pool where the job is admissible.
  doc.Line(2, "flavorFungibility: {whenCanBorrow: MayStopSearch, whenCanPreempt: TryNextFlavor}");
  // Without `preemption` rescfg never stops a running job; with it, only to give a team back what it lent.
  doc.Line(2, std::string("preemption: {reclaimWithinCohort: ") + (q.reclaim ? "Any" : "Never") +
                  ", borrowWithinCohort: {policy: Never}, withinClusterQueue: Never}");
  doc.Line(2, std::string("stopPolicy: ") + (q.hold ? "Hold" : "None"));
  doc.Groups(2, q.groups);
}

void WriteLocalQueue(const KueueLocalQueue& q, Doc& doc) {
  doc.Begin("LocalQueue", q.meta);
  doc.Line(0, "spec:");
  doc.Line(2, "clusterQueue: " + Name(q.cluster_queue));
}

void WritePriorityClass(const KueuePriorityClass& c, Doc& doc) {
  doc.Begin("WorkloadPriorityClass", c.meta);
  doc.Line(0, "value: " + std::to_string(c.value));
  doc.Line(0, "description: " + YamlQuote(c.description));
}

std::string Header(const KueueRequests& requests) {
  const KueueUnits& units = requests.units;
  std::string out = "# Kueue objects (kueue.x-k8s.io/v1beta2) of a rescfg configuration: rescfg export kueue.\n";
  out += "# Apply with: kubectl apply -f FILE (remove what rescfg no longer writes with --prune -l " +
         std::string(kKueueManagedBy) + "=rescfg).\n";
  if (!units.ticks) {
    out += "# Quota counts whole GPUs of " + units.resource + ".\n";
    return out;
  }
  out += "# Quota counts " + units.resource + ", 9009000000 a GPU. Kueue's Configuration must turn every\n";
  out += "# request into it:\n";
  out += "#   resources:\n#     transformations:\n";
  for (const KueueTransformation& t : requests.transformations) {
    out += "#       - {input: " + t.input + ", strategy: Replace, outputs: {" + units.resource + ": \"" +
           std::to_string(t.ticks) + "\"}}\n";
  }
  return out;
}

}  // namespace

std::string WriteKueueYaml(const KueueObjects& objects, const KueueRequests& requests) {
  std::string out = Header(requests);
  Doc doc(out);
  for (const auto& f : objects.flavors) WriteFlavor(f, doc);
  for (const auto& c : objects.cohorts) WriteCohort(c, doc);
  for (const auto& c : objects.priority_classes) WritePriorityClass(c, doc);
  for (const auto& q : objects.cluster_queues) WriteClusterQueue(q, doc);
  for (const auto& q : objects.local_queues) WriteLocalQueue(q, doc);
  return out;
}

}  // namespace rescfg
