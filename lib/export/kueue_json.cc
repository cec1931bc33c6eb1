#include "export/kueue_json.h"

#include "export/kueue_writer.h"

namespace rescfg {
namespace {

void Begin(const char* kind, const KueueMeta& meta, JsonWriter& json) {
  json.BeginObject().Field("apiVersion", "kueue.x-k8s.io/v1beta2").Field("kind", kind);
  json.Key("metadata").BeginObject().Field("name", meta.name);
  if (!meta.ns.empty()) json.Field("namespace", meta.ns);
  json.Key("labels").BeginObject().Field(kKueueManagedBy, "rescfg").EndObject();
  if (!meta.annotations.empty()) {
    json.Key("annotations").BeginObject();
    for (const auto& [key, value] : meta.annotations) json.Field(key, value);
    json.EndObject();
  }
  json.EndObject();
}

void Groups(const std::vector<KueueResourceGroup>& groups, JsonWriter& json) {
  if (groups.empty()) return;
  json.Key("resourceGroups").BeginArray();
  for (const KueueResourceGroup& group : groups) {
    json.BeginObject().Key("coveredResources").BeginArray();
    for (const std::string& r : group.covered) json.String(r);
    json.EndArray().Key("flavors").BeginArray();
    for (const KueueFlavorQuotas& f : group.flavors) {
      json.BeginObject().Field("name", f.name).Key("resources").BeginArray();
      for (const KueueResourceQuota& q : f.resources) {
        json.BeginObject().Field("name", q.name).Field("nominalQuota", q.nominal);
        if (q.borrowing_limit) json.Field("borrowingLimit", *q.borrowing_limit);
        if (q.lending_limit) json.Field("lendingLimit", *q.lending_limit);
        json.EndObject();
      }
      json.EndArray().EndObject();
    }
    json.EndArray().EndObject();
  }
  json.EndArray();
}

void Flavor(const KueueResourceFlavor& f, JsonWriter& json) {
  Begin("ResourceFlavor", f.meta, json);
  json.Key("spec").BeginObject();
  if (!f.node_labels.empty()) {
    json.Key("nodeLabels").BeginObject();
    for (const KubernetesLabel& l : f.node_labels) json.Field(l.key, l.value);
    json.EndObject();
  }
  if (!f.node_taints.empty()) {
    json.Key("nodeTaints").BeginArray();
    for (const KubernetesTaint& t : f.node_taints) {
      json.BeginObject().Field("key", t.key).Field("value", t.value).Field("effect", t.effect).EndObject();
    }
    json.EndArray();
  }
  if (!f.tolerations.empty()) {
    json.Key("tolerations").BeginArray();
    for (const KubernetesToleration& t : f.tolerations) {
      json.BeginObject();
      if (!t.key.empty()) json.Field("key", t.key);
      json.Field("operator", t.op);
      if (t.op != "Exists") json.Field("value", t.value);
      if (!t.effect.empty()) json.Field("effect", t.effect);
      if (t.seconds) json.Field("tolerationSeconds", *t.seconds);
      json.EndObject();
    }
    json.EndArray();
  }
  json.EndObject().EndObject();
}

void ClusterQueue(const KueueClusterQueue& q, JsonWriter& json) {
  Begin("ClusterQueue", q.meta, json);
  json.Key("spec").BeginObject();
  if (!q.cohort.empty()) json.Field("cohortName", q.cohort);
  json.Key("namespaceSelector").BeginObject().Key("matchLabels").BeginObject();
  json.Field("kubernetes.io/metadata.name", q.ns).EndObject().EndObject();
  json.Field("queueingStrategy", QueueingName(q.queueing));
  json.Key("flavorFungibility").BeginObject().Field("whenCanBorrow", "MayStopSearch");
  json.Field("whenCanPreempt", "TryNextFlavor").EndObject();
  json.Key("preemption").BeginObject().Field("reclaimWithinCohort", q.reclaim ? "Any" : "Never");
  json.Key("borrowWithinCohort").BeginObject().Field("policy", "Never").EndObject();
  json.Field("withinClusterQueue", "Never").EndObject();
  json.Field("stopPolicy", q.hold ? "Hold" : "None");
  Groups(q.groups, json);
  json.EndObject().EndObject();
}

}  // namespace

void WriteKueueJson(const KueueObjects& objects, JsonWriter& json) {
  json.BeginArray();
  for (const auto& f : objects.flavors) Flavor(f, json);
  for (const auto& c : objects.cohorts) {
    Begin("Cohort", c.meta, json);
    json.Key("spec").BeginObject();
    if (!c.parent.empty()) json.Field("parentName", c.parent);
    Groups(c.groups, json);
    json.EndObject().EndObject();
  }
  for (const auto& c : objects.priority_classes) {
    Begin("WorkloadPriorityClass", c.meta, json);
    json.Field("value", c.value).Field("description", c.description).EndObject();
  }
  for (const auto& q : objects.cluster_queues) ClusterQueue(q, json);
  for (const auto& q : objects.local_queues) {
    Begin("LocalQueue", q.meta, json);
    json.Key("spec").BeginObject().Field("clusterQueue", q.cluster_queue).EndObject().EndObject();
  }
  json.EndArray();
}

}  // namespace rescfg
