#include "diff/config_diff.h"

#include <algorithm>

#include "config/canonical.h"
#include "config/durations.h"
#include "config/renames.h"

namespace rescfg {
namespace {

std::vector<std::string> Names(const std::optional<std::vector<NameRef>>& refs) {
  std::vector<std::string> out;
  for (const auto& r : refs.value_or(std::vector<NameRef>{})) out.push_back(r.name);
  return out;
}

template <typename T>
std::vector<std::string> EntityNames(const std::vector<T>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.name);
  return out;
}

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

/// The items of `a` that are also in `b`, in a's order.
std::vector<std::string> Common(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& s : a) if (Contains(b, s)) out.push_back(s);
  return out;
}

/// Collects changes of one entity.
class Recorder {
 public:
  Recorder(std::vector<Change>* out, std::string kind, std::string name)
      : out_(out), kind_(std::move(kind)), name_(std::move(name)) {}

  void Add(ChangeOp op, std::string field, DiffValue old_value, DiffValue new_value) {
    out_->push_back({op, kind_, name_, std::move(field), std::move(old_value), std::move(new_value), ""});
  }
  void Text(const std::string& field, const std::string& a, const std::string& b) {
    if (a != b) Add(ChangeOp::kChanged, field, DiffValue::Text(a), DiffValue::Text(b));
  }
  void Bool(const std::string& field, bool a, bool b) {
    if (a != b) Add(ChangeOp::kChanged, field, DiffValue::Bool(a), DiffValue::Bool(b));
  }
  void Amount(const std::string& field, Quantity a, Quantity b) {
    if (a != b) Add(ChangeOp::kChanged, field, DiffValue::Amount(a), DiffValue::Amount(b));
  }
  void OptionalAmount(const std::string& field, const std::optional<Quantity>& a,
                      const std::optional<Quantity>& b) {
    if (a == b) return;
    Add(ChangeOp::kChanged, field, a ? DiffValue::Amount(*a) : DiffValue::Absent(),
        b ? DiffValue::Amount(*b) : DiffValue::Absent());
  }
  void OptionalText(const std::string& field, const std::optional<std::string>& a,
                    const std::optional<std::string>& b) {
    if (a == b) return;
    Add(ChangeOp::kChanged, field, a ? DiffValue::Text(*a) : DiffValue::Absent(),
        b ? DiffValue::Text(*b) : DiffValue::Absent());
  }
  /// An ordered list of names: "reordered" when it holds the same names in
  /// another order, "changed" when the names differ.
  void Order(const std::string& field, const std::vector<std::string>& a,
             const std::vector<std::string>& b) {
    if (a == b) return;
    std::vector<std::string> sa = a, sb = b;
    std::sort(sa.begin(), sa.end());
    std::sort(sb.begin(), sb.end());
    Add(sa == sb ? ChangeOp::kReordered : ChangeOp::kChanged, field, DiffValue::List(a),
        DiffValue::List(b));
  }
  /// A list whose members are added and removed one by one (links, policy
  /// profiles, entities): its order is a change of its own unless the new
  /// list is the old one minus the removed members plus the added ones at
  /// the end.
  void MemberOrder(const std::string& field, const std::vector<std::string>& a,
                   const std::vector<std::string>& b) {
    std::vector<std::string> expected = Common(a, b);
    for (const auto& s : b) if (!Contains(a, s)) expected.push_back(s);
    if (expected == b) return;
    Add(ChangeOp::kReordered, field, DiffValue::List(a), DiffValue::List(b));
  }

 private:
  std::vector<Change>* out_;
  std::string kind_, name_;
};

std::string FractionsText(const GpuFractions& f) {
  if (!f.mig) return "injector";
  std::string out = "mig {";
  for (size_t i = 0; i < f.resources.size(); ++i) {
    out += (i ? ", " : "") + f.resources[i].fraction.ToString() + ": " + f.resources[i].resource;
  }
  return out + "}";
}

/// Both configurations, for what a change is judged against (a link's
/// default queue is its pool's).
struct Sides {
  const Config& old_config;
  const Config& new_config;
  PoolQueues old_queues{old_config}, new_queues{new_config};
  RenameMap renames;  ///< old name -> new name, of the objects renamedFrom renames
};

std::string LabelsText(const std::optional<std::vector<KubernetesLabel>>& labels) {
  std::string out = "{";
  const auto& list = labels.value_or(std::vector<KubernetesLabel>{});
  for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + list[i].key + ": " + list[i].value;
  return out + "}";
}

std::string TaintsText(const std::vector<KubernetesTaint>& taints) {
  std::string out = "[";
  for (size_t i = 0; i < taints.size(); ++i) {
    out += (i ? ", " : "") + taints[i].key + "=" + taints[i].value + ":" + taints[i].effect;
  }
  return out + "]";
}

std::string TolerationsText(const std::vector<KubernetesToleration>& tolerations) {
  std::string out = "[";
  for (size_t i = 0; i < tolerations.size(); ++i) {
    const auto& t = tolerations[i];
    out += (i ? ", " : "") + t.key + (t.op == "Exists" ? " Exists" : "=" + t.value) + ":" + t.effect;
    if (t.seconds) out += " " + std::to_string(*t.seconds) + "s";
  }
  return out + "]";
}

std::string NodesText(const std::optional<PoolNodes>& nodes) {
  if (!nodes) return "none";
  return std::to_string(nodes->count) + " x " + std::to_string(nodes->gpus) + " GPUs" +
         (nodes->names_from_workers ? "" : ", names none");
}

/// A pool's ResourceFlavor settings. Default nodeLabels follow
/// kubernetes.poolLabel, whose change is reported once, at the top level.
void DiffPoolKubernetes(const Pool& a, const Pool& b, const Sides& sides, Recorder& r) {
  const bool both_default = a.kubernetes.node_labels == DefaultNodeLabels(sides.old_config, a) &&
                            b.kubernetes.node_labels == DefaultNodeLabels(sides.new_config, b);
  if (!both_default) {
    r.Text("kubernetes.nodeLabels", LabelsText(a.kubernetes.node_labels), LabelsText(b.kubernetes.node_labels));
  }
  r.Text("kubernetes.nodeTaints", TaintsText(a.kubernetes.node_taints), TaintsText(b.kubernetes.node_taints));
  r.Text("kubernetes.tolerations", TolerationsText(a.kubernetes.tolerations),
         TolerationsText(b.kubernetes.tolerations));
}

void DiffPool(const Pool& a, const Pool& b, const Sides& sides, std::vector<Change>* out) {
  Recorder r(out, "pool", b.name);
  r.OptionalText("renamedFrom", a.renamed_from, b.renamed_from);
  r.Amount("resources", a.resources, b.resources);
  r.Text("nodes", NodesText(a.nodes), NodesText(b.nodes));
  // A guaranteed capacity that follows resources on both sides changes with
  // it, which is reported once, as resources.
  if (GuaranteedOf(a) != a.resources || GuaranteedOf(b) != b.resources) {
    r.Amount("guaranteed", GuaranteedOf(a), GuaranteedOf(b));
  }
  r.Text("queue", a.queue, b.queue);
  r.Text("description", a.description, b.description);
  r.Bool("paused", a.paused, b.paused);
  r.Order("executionPriority", Names(a.execution_priority), Names(b.execution_priority));
  r.Text("gpuFractions", FractionsText(a.gpu_fractions), FractionsText(b.gpu_fractions));
  DiffPoolKubernetes(a, b, sides, r);
}

void DiffProfile(const Profile& a, const Profile& b, const Sides& sides, std::vector<Change>* out) {
  Recorder r(out, "profile", b.name);
  r.OptionalText("renamedFrom", a.renamed_from, b.renamed_from);
  r.Amount("allotment", a.allotment, b.allotment);
  r.OptionalText("dynamic.parameter", a.dynamic_parameter, b.dynamic_parameter);
  r.Text("dynamic.invalid", a.reject_invalid ? "reject" : "default", b.reject_invalid ? "reject" : "default");
  r.Text("queueing", QueueingName(a.queueing), QueueingName(b.queueing));
  std::vector<std::string> old_pools, new_pools;
  for (const auto& l : a.links) old_pools.push_back(l.pool);
  for (const auto& l : b.links) new_pools.push_back(l.pool);
  for (const auto& l : a.links) {
    if (!Contains(new_pools, l.pool)) {
      r.Add(ChangeOp::kRemoved, "links[" + l.pool + "]", DiffValue::Text(l.name), DiffValue::Absent());
    }
  }
  for (const auto& l : b.links) {
    auto old = std::find_if(a.links.begin(), a.links.end(), [&](const Link& x) { return x.pool == l.pool; });
    if (old == a.links.end()) {
      r.Add(ChangeOp::kAdded, "links[" + l.pool + "]", DiffValue::Absent(), DiffValue::Text(l.name));
    } else {
      r.Text("links[" + l.pool + "].name", old->name, l.name);
      // A link that follows its pool's queue on both sides changes with the
      // pool's queue, which is reported once, on the pool.
      if (!sides.old_queues.IsDefault(*old) || !sides.new_queues.IsDefault(l)) {
        r.Text("links[" + l.pool + "].queue", old->queue, l.queue);
      }
    }
  }
  r.MemberOrder("links", old_pools, new_pools);
  r.Order("policyPriority", Names(a.policy_priority), Names(b.policy_priority));
  r.Text("description", a.description, b.description);
}

void DiffPolicy(const Policy& a, const Policy& b, const Sides& sides, std::vector<Change>* out) {
  Recorder r(out, "policy", b.name);
  r.OptionalText("renamedFrom", a.renamed_from, b.renamed_from);
  r.Amount("reserved", a.reserved, b.reserved);
  r.OptionalAmount("limit", a.limit, b.limit);
  std::vector<std::string> old_profiles, new_profiles;
  for (const auto& p : a.profiles) old_profiles.push_back(p.profile);
  for (const auto& p : b.profiles) new_profiles.push_back(p.profile);
  auto queue = [](const Policy& policy, const PolicyProfile& p) {
    return PolicyQueueOf(policy, p);
  };
  for (const auto& p : a.profiles) {
    if (!Contains(new_profiles, p.profile)) {
      r.Add(ChangeOp::kRemoved, "profiles[" + p.profile + "]", DiffValue::Text(queue(a, p)), DiffValue::Absent());
    }
  }
  for (const auto& p : b.profiles) {
    auto old = std::find_if(a.profiles.begin(), a.profiles.end(),
                            [&](const PolicyProfile& x) { return x.profile == p.profile; });
    if (old == a.profiles.end()) {
      r.Add(ChangeOp::kAdded, "profiles[" + p.profile + "]", DiffValue::Absent(), DiffValue::Text(queue(b, p)));
    } else {
      r.Text("profiles[" + p.profile + "].queue", queue(a, *old), queue(b, p));
    }
  }
  r.MemberOrder("profiles", old_profiles, new_profiles);
  r.Text("description", a.description, b.description);
  r.Bool("paused", a.paused, b.paused);
  r.Bool("preemptible", a.preemptible, b.preemptible);
  // A namespace that follows kubernetes.namespace on both sides changes with
  // it, which is reported once, at the top level.
  if (!IsDefaultPolicyNamespace(sides.old_config, a) || !IsDefaultPolicyNamespace(sides.new_config, b)) {
    r.Text("kubernetes.namespace", a.kubernetes.ns, b.kubernetes.ns);
  }
}

/// The `preemption:` block: each duration when both sides have one, else
/// the whole block added or removed (its durations in canonical form).
void DiffPreemption(const std::optional<PreemptionSettings>& a, const std::optional<PreemptionSettings>& b,
                    std::vector<Change>* out) {
  Recorder r(out, "config", "");
  if (a && b) {
    r.Text("preemption.minRuntime", CanonicalDuration(a->min_runtime_us), CanonicalDuration(b->min_runtime_us));
    r.Text("preemption.delay", CanonicalDuration(a->delay_us), CanonicalDuration(b->delay_us));
    r.Text("preemption.stopTimeout", CanonicalDuration(a->stop_timeout_us), CanonicalDuration(b->stop_timeout_us));
    return;
  }
  auto block = [](const std::optional<PreemptionSettings>& p) {
    if (!p) return DiffValue::Absent();
    return DiffValue::Text("minRuntime: " + CanonicalDuration(p->min_runtime_us) + ", delay: " +
                           CanonicalDuration(p->delay_us) + ", stopTimeout: " + CanonicalDuration(p->stop_timeout_us));
  };
  if (a || b) r.Add(ChangeOp::kChanged, "preemption", block(a), block(b));
}

/// The top-level `kubernetes:` settings.
void DiffKubernetes(const KubernetesSettings& a, const KubernetesSettings& b, std::vector<Change>* out) {
  Recorder r(out, "config", "");
  r.Text("kubernetes.namespace", a.ns, b.ns);
  r.Text("kubernetes.cohort", a.cohort, b.cohort);
  r.Text("kubernetes.poolLabel", a.pool_label, b.pool_label);
  r.Text("kubernetes.gpuResource", a.gpu_resource, b.gpu_resource);
  r.Text("kubernetes.ticksResource", a.ticks_resource, b.ticks_resource);
}

std::string Entry(const Pool& pool, const Config& config) { return CanonicalEntry(pool, config); }
std::string Entry(const Profile& profile, const Config& config) { return CanonicalEntry(profile, config); }
std::string Entry(const Policy& policy, const Config& config) { return CanonicalEntry(policy, config); }

/// `ordered`: whether the order of the entities means something (profiles
/// and policies: default priority lists follow it; pools: nothing does).
template <typename T>
void DiffEntities(const char* kind, const char* list_name, const std::vector<T>& a, const std::vector<T>& b,
                  const Sides& sides, void (*diff)(const T&, const T&, const Sides&, std::vector<Change>*),
                  bool ordered, std::vector<Change>* out,
                  const std::map<std::string, std::string, std::less<>>& renamed) {
  for (const auto& item : a) {
    if (std::none_of(b.begin(), b.end(), [&](const T& x) { return x.name == item.name; })) {
      out->push_back({ChangeOp::kRemoved, kind, item.name, "", {}, {}, ""});
    }
  }
  for (const auto& item : b) {
    auto old = std::find_if(a.begin(), a.end(), [&](const T& x) { return x.name == item.name; });
    if (old == a.end()) {
      std::string entry = Entry(item, sides.new_config);
      out->push_back({ChangeOp::kAdded, kind, item.name, "", {}, {}, entry.substr(entry.find('\n') + 1)});
    } else {
      for (const auto& [from, to] : renamed) {
        if (to == item.name) out->push_back({ChangeOp::kRenamed, kind, item.name, "", DiffValue::Text(from),
                                             DiffValue::Text(to), ""});
      }
      diff(*old, item, sides, out);
    }
  }
  if (ordered) Recorder(out, "config", "").MemberOrder(list_name, EntityNames(a), EntityNames(b));
}

}  // namespace

const char* ChangeOpName(ChangeOp op) {
  switch (op) {
    case ChangeOp::kAdded: return "added";
    case ChangeOp::kRemoved: return "removed";
    case ChangeOp::kChanged: return "changed";
    case ChangeOp::kReordered: return "reordered";
    case ChangeOp::kRenamed: return "renamed";
  }
  return "changed";
}

std::string DiffValue::ToText() const {
  switch (kind) {
    case Kind::kAbsent: return "(none)";
    case Kind::kText: return JsonQuote(text);
    case Kind::kAmount: return amount.ToString();
    case Kind::kBool: return flag ? "true" : "false";
    case Kind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < list.size(); ++i) out += (i ? ", " : "") + JsonQuote(list[i]);
      return out + "]";
    }
  }
  return "";
}

void DiffValue::WriteJson(JsonWriter& json) const {
  switch (kind) {
    case Kind::kAbsent: json.Null(); break;
    case Kind::kText: json.String(text); break;
    case Kind::kAmount: json.Amount(amount); break;
    case Kind::kBool: json.Bool(flag); break;
    case Kind::kList:
      json.BeginArray();
      for (const auto& s : list) json.String(s);
      json.EndArray();
      break;
  }
}

ConfigDiff DiffConfigs(const Config& provisioned, const Config& b) {
  ConfigDiff diff;
  if (provisioned.enabled != b.enabled) {
    diff.changes.push_back({ChangeOp::kChanged, "config", "", "enabled", DiffValue::Bool(provisioned.enabled),
                            DiffValue::Bool(b.enabled), ""});
  }
  DiffPreemption(provisioned.preemption, b.preemption, &diff.changes);
  DiffKubernetes(provisioned.kubernetes, b.kubernetes, &diff.changes);
  // Renamed objects are matched under their new names (rescfg(5), RENAMES).
  RenameMap renames = RenamesAgainst(provisioned, b);
  const Config followed = renames.empty() ? Config() : FollowRenames(provisioned, renames, b);
  const Config& a = renames.empty() ? provisioned : followed;
  const Sides sides{a, b, PoolQueues(a), PoolQueues(b), renames};
  DiffEntities("pool", "pools", a.pools, b.pools, sides, &DiffPool, /*ordered=*/false, &diff.changes, renames.pools);
  DiffEntities("profile", "profiles", a.profiles, b.profiles, sides, &DiffProfile, /*ordered=*/true, &diff.changes,
               renames.profiles);
  DiffEntities("policy", "policies", a.policies, b.policies, sides, &DiffPolicy, /*ordered=*/true, &diff.changes,
               renames.policies);
  return diff;
}

ConfigDiff DiffFromNothing(const Config& new_config) {
  Config nothing;
  ApplyDefaults(nothing);
  ConfigDiff diff = DiffConfigs(nothing, new_config);
  for (Change& c : diff.changes) {
    if (c.op != ChangeOp::kChanged) continue;
    c.op = ChangeOp::kAdded;
    c.old_value = DiffValue::Absent();
  }
  return diff;
}

std::string RenderDiffText(const ConfigDiff& diff) {
  if (diff.empty()) return "No changes.\n";
  std::string out;
  size_t added = 0, removed = 0, changed = 0;
  for (const auto& c : diff.changes) {
    const char* sign = c.op == ChangeOp::kAdded ? "+" : c.op == ChangeOp::kRemoved ? "-" : "~";
    (c.op == ChangeOp::kAdded ? added : c.op == ChangeOp::kRemoved ? removed : changed)++;
    std::string subject = c.kind == "config" ? "" : c.kind + " " + JsonQuote(c.name);
    std::string line = std::string(sign) + " " + subject;
    if (c.op == ChangeOp::kRenamed) line = "~ " + c.kind + " " + c.old_value.ToText() + " -> " + c.new_value.ToText();
    if (!c.field.empty()) {
      if (!subject.empty()) line += ": ";
      line += c.field;
      switch (c.op) {
        case ChangeOp::kAdded:
          if (c.new_value.kind != DiffValue::Kind::kText || !c.new_value.text.empty()) {
            line += " = " + c.new_value.ToText();
          }
          break;
        case ChangeOp::kRemoved: break;
        case ChangeOp::kChanged:
          line += ": " + c.old_value.ToText() + " -> " + c.new_value.ToText();
          break;
        case ChangeOp::kReordered:
          line += " reordered: " + c.old_value.ToText() + " -> " + c.new_value.ToText();
          break;
        case ChangeOp::kRenamed: break;  // a rename is one line without a field
      }
    }
    out += line + "\n" + c.detail;
  }
  out += std::to_string(diff.changes.size()) + (diff.changes.size() == 1 ? " change" : " changes") +
         ": " + std::to_string(added) + " added, " + std::to_string(removed) + " removed, " +
         std::to_string(changed) + " changed.\n";
  return out;
}

void RenderDiffMarkdown(const ConfigDiff& diff, MarkdownDocument& doc) {
  if (diff.empty()) {
    doc.Add("No changes.");
    return;
  }
  MarkdownTable table({"Change", "Kind", "Name", "Field", "Old", "New"});
  size_t added = 0, removed = 0, changed = 0;
  for (const auto& c : diff.changes) {
    (c.op == ChangeOp::kAdded ? added : c.op == ChangeOp::kRemoved ? removed : changed)++;
    auto value = [&](const DiffValue& v) {
      return v.kind == DiffValue::Kind::kAbsent ? std::string() : MarkdownCode(v.ToText());
    };
    std::string new_value = value(c.new_value);
    if (c.field.empty() && !c.detail.empty()) {  // an added entity: its fields, one a line
      new_value.clear();
      size_t from = 0;
      while (from < c.detail.size()) {
        size_t end = c.detail.find('\n', from);
        if (end == std::string::npos) end = c.detail.size();
        std::string_view line(c.detail.data() + from, end - from);
        while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
        if (!line.empty()) new_value += (new_value.empty() ? "" : "<br>") + MarkdownCode(line);
        from = end + 1;
      }
    }
    table.AddRow({ChangeOpName(c.op), c.kind, MarkdownText(c.name), c.field.empty() ? "" : MarkdownCode(c.field),
                  value(c.old_value), new_value});
  }
  doc.Add(table, "changes");
  doc.Add("**" + std::to_string(diff.changes.size()) + (diff.changes.size() == 1 ? " change" : " changes") +
          "**: " + std::to_string(added) + " added, " + std::to_string(removed) + " removed, " +
          std::to_string(changed) + " changed.");
}

void WriteDiffJson(const ConfigDiff& diff, JsonWriter& json) {
  json.BeginArray();
  for (const auto& c : diff.changes) {
    json.BeginObject().Field("op", ChangeOpName(c.op)).Field("kind", c.kind);
    json.Key("name");
    if (c.kind == "config") json.Null(); else json.String(c.name);
    json.Key("field");
    if (c.field.empty()) json.Null(); else json.String(c.field);
    json.Key("old");
    c.old_value.WriteJson(json);
    json.Key("new");
    c.new_value.WriteJson(json);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace rescfg
