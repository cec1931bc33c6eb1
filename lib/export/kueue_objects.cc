#include "export/kueue_objects.h"

#include <algorithm>
#include <map>
#include <set>

#include "config/kubernetes.h"
#include "export/kueue_preemption.h"

namespace rescfg {
namespace {

/// One flavor's quota in a resource group before the group's covered
/// resources are known: its pool and the resources it has quota for.
struct FlavorEntry {
  size_t pool;
  std::vector<KueueResourceQuota> quotas;
};

class Builder {
 public:
  Builder(const KueuePlan& plan, const std::string& file, std::vector<Finding>* errors,
          std::vector<ExportFinding>* findings)
      : plan_(plan), config_(plan.config), file_(file), errors_(errors), findings_(findings) {}

  KueueObjects Build();

 private:
  /// Each error once, though every policy queue of a profile finds it.
  void Error(const char* code, Mark mark, std::string path, std::string message, std::string hint) {
    if (!reported_.insert({code, path}).second) return;
    errors_->push_back({code, Severity::kError, file_, mark, std::move(path), std::move(message), std::move(hint)});
  }
  /// A resource group of `entries` (empty when there are none): it covers
  /// every resource of their pools' flavors; a flavor lists each, 0 where
  /// it has no quota. `what`, `path` and `mark` say whose group it is.
  std::vector<KueueResourceGroup> Group(const std::vector<FlavorEntry>& entries, const std::string& what,
                                        const std::string& path, Mark mark);
  KueueResourceFlavor Flavor(size_t pool);
  void Cohorts(KueueObjects& out);
  void Queues(size_t policy, KueueObjects& out);
  std::string Allotment(const Profile& profile) const;

  const KueuePlan& plan_;
  const Config& config_;
  const std::string& file_;
  std::vector<Finding>* errors_;
  std::vector<ExportFinding>* findings_;
  std::set<std::pair<std::string, std::string>> reported_;
  std::map<std::string, size_t> pool_index_;
};

std::vector<KueueResourceGroup> Builder::Group(const std::vector<FlavorEntry>& entries, const std::string& what,
                                               const std::string& path, Mark mark) {
  if (entries.empty()) return {};
  if (entries.size() > kKueueMaxFlavorsPerGroup) {
    Error("kueue-too-many-flavors", mark, path,
          what + " spans " + std::to_string(entries.size()) + " pools, but a Kueue resource group lists at most 64 "
                 "flavors, and all the pools' flavors share " + plan_.requests.units.resource,
          "link at most 64 pools");
    return {};
  }
  KueueResourceGroup group;
  for (const FlavorEntry& e : entries) {
    for (const std::string& r : plan_.requests.pool_resources[e.pool]) {
      if (std::find(group.covered.begin(), group.covered.end(), r) == group.covered.end()) group.covered.push_back(r);
    }
  }
  if (group.covered.size() > 64) {
    Error("kueue-too-many-resources", mark, path,
          what + " needs " + std::to_string(group.covered.size()) + " resources (" + plan_.requests.units.resource +
              " and MIG resources) in one resource group; Kueue allows 64",
          "map fewer MIG resources, or set kubernetes.ticksResource to count them all as one");
    return {};
  }
  for (const FlavorEntry& e : entries) {
    KueueFlavorQuotas flavor{plan_.names.flavors[e.pool], {}};
    for (const std::string& r : group.covered) {
      auto it = std::find_if(e.quotas.begin(), e.quotas.end(), [&](const KueueResourceQuota& q) { return q.name == r; });
      flavor.resources.push_back(it != e.quotas.end() ? *it : KueueResourceQuota{r, 0, {}, {}});
    }
    group.flavors.push_back(std::move(flavor));
  }
  return {std::move(group)};
}

KueueResourceFlavor Builder::Flavor(size_t i) {
  const Pool& pool = config_.pools[i];
  KueueResourceFlavor flavor;
  flavor.meta.name = plan_.names.flavors[i];
  flavor.meta.annotations = {{"rescfg.io/pool", pool.name}};
  flavor.node_labels = pool.kubernetes.node_labels.value_or(DefaultNodeLabels(config_, pool));
  flavor.node_taints = pool.kubernetes.node_taints;
  flavor.tolerations = pool.kubernetes.tolerations;
  if (!pool.paused) return flavor;
  const KubernetesTaint paused{kKueuePausedTaint, "true", "NoSchedule", {}};
  const std::string path = "pools[" + pool.name + "]";
  if (std::none_of(flavor.node_taints.begin(), flavor.node_taints.end(), [&](const KubernetesTaint& t) {
        return t.key == paused.key && t.effect == paused.effect;
      })) {
    if (flavor.node_taints.size() >= 8) {
      Error("kueue-too-many-taints", pool.paused_mark, path + ".paused",
            "pool '" + pool.name + "' is paused, which its ResourceFlavor says with the taint " + paused.key +
                "=true:NoSchedule, but it has 8 taints already and Kueue allows 8",
            "drop one of its nodeTaints while it is paused");
    }
    flavor.node_taints.push_back(paused);
  }
  for (const KubernetesToleration& t : flavor.tolerations) {
    if (!Tolerates(t, paused)) continue;
    findings_->push_back({path + ".paused", pool.paused_mark,
                          "pool '" + pool.name + "' is paused by the taint " + paused.key + "=true:NoSchedule on " +
                              "its ResourceFlavor, but the flavor's own tolerations tolerate it: Kueue still admits "
                              "workloads there",
                          "narrow the pool's tolerations so that they do not match " + std::string(paused.key),
                          "kueue-paused-pool"});
    break;
  }
  return flavor;
}

void Builder::Cohorts(KueueObjects& out) {
  const KueueQuota& quota = plan_.quota;
  const KueueUnits& units = plan_.requests.units;
  auto shared_entry = [&](size_t p) {
    FlavorEntry e{p, {{units.resource, quota.shared[p], {}, {}}}};
    for (const auto& mig : plan_.requests.pool_mig[p]) e.quotas.push_back({mig.resource, mig.units, {}, {}});
    return e;
  };
  KueueCohort root{{plan_.names.root, "", {}}, "", {}};
  const size_t shards = plan_.names.shared.size();
  for (size_t s = 0; s < shards; ++s) {
    std::vector<FlavorEntry> entries;
    for (size_t p = s * kKueueMaxFlavorsPerGroup; p < config_.pools.size() && p < (s + 1) * kKueueMaxFlavorsPerGroup;
         ++p) {
      entries.push_back(shared_entry(p));
    }
    auto groups = Group(entries, "the pools' shared quota", "pools", config_.pools.empty() ? Mark{} : config_.pools[0].mark);
    if (plan_.names.shared[s] == root.meta.name) {
      root.groups = std::move(groups);
    } else {
      out.cohorts.push_back({{plan_.names.shared[s], "", {}}, plan_.names.root, std::move(groups)});
    }
  }
  out.cohorts.insert(out.cohorts.begin(), std::move(root));

  for (size_t i = 0; i < config_.policies.size(); ++i) {
    const Policy& policy = config_.policies[i];
    if (policy.profiles.empty()) continue;
    const KueuePolicyQuota& q = quota.policies[i];
    std::vector<FlavorEntry> entries;
    for (size_t k = 0; k < q.reach.size(); ++k) {
      if (!q.capped && q.reserved[k] == 0) continue;
      KueueResourceQuota rq{units.resource, q.reserved[k], {}, {}};
      if (q.capped) rq.borrowing_limit = q.cap[k] - q.reserved[k];
      entries.push_back({q.reach[k], {rq}});
    }
    KueueCohort cohort{{plan_.names.policy_cohorts[i], "", {{"rescfg.io/policy", policy.name}}}, plan_.names.root, {}};
    // Only the quota resource: a policy's shares and caps are in it.
    const std::string what = "the reservation and limit of policy '" + policy.name + "'";
    if (entries.size() > kKueueMaxFlavorsPerGroup) {
      Group(entries, what, "policies[" + policy.name + "]", policy.mark);
    } else if (!entries.empty()) {
      KueueResourceGroup group{{units.resource}, {}};
      for (const FlavorEntry& e : entries) group.flavors.push_back({plan_.names.flavors[e.pool], e.quotas});
      cohort.groups.push_back(std::move(group));
    }
    out.cohorts.push_back(std::move(cohort));
  }
}

std::string Builder::Allotment(const Profile& profile) const {
  if (profile.dynamic_parameter) return "dynamic: " + *profile.dynamic_parameter;
  return profile.allotment.ToString();
}

void Builder::Queues(size_t i, KueueObjects& out) {
  const Policy& policy = config_.policies[i];
  for (size_t j = 0; j < policy.profiles.size(); ++j) {
    const PolicyProfile& entry = policy.profiles[j];
    const Profile* profile = config_.FindProfile(entry.profile);
    if (!profile) continue;
    const std::string& name = plan_.names.queues[i][j];
    const std::string queue = PolicyQueueOf(policy, entry);
    std::vector<std::pair<std::string, std::string>> annotations = {
        {"rescfg.io/policy", policy.name}, {"rescfg.io/profile", profile->name}, {"rescfg.io/queue", queue}};

    std::vector<FlavorEntry> entries;
    for (const Link& link : profile->links) {
      if (auto it = pool_index_.find(link.pool); it != pool_index_.end()) entries.push_back({it->second, {}});
    }
    KueueClusterQueue cq;
    cq.meta = {name, "", annotations};
    cq.cohort = plan_.names.policy_cohorts[i];
    cq.ns = policy.kubernetes.ns;
    cq.queueing = profile->queueing;
    cq.reclaim = KueueReclaims(config_);
    // Held when nothing of it may start: the configuration is disabled, the
    // policy paused, or every pool it links paused (a paused pool among
    // others is the taint on its flavor).
    cq.hold = !config_.enabled || policy.paused ||
              std::all_of(entries.begin(), entries.end(), [&](const FlavorEntry& e) { return config_.pools[e.pool].paused; });
    cq.groups = Group(entries, "profile '" + profile->name + "'", "profiles[" + profile->name + "].links",
                      profile->links_mark);
    out.cluster_queues.push_back(std::move(cq));

    std::string description = "rescfg: jobs of policy '" + policy.name + "' through profile '" + profile->name +
                              "' (queue '" + queue + "')";
    if (description.size() > 2048) {
      size_t cut = 2048;
      while (cut > 0 && (static_cast<unsigned char>(description[cut]) & 0xC0) == 0x80) --cut;  // UTF-8 boundary
      description.resize(cut);
    }
    out.priority_classes.push_back({{name, "", annotations}, plan_.priorities.values[i][j], description});

    annotations.push_back({"rescfg.io/priority-class", name});
    annotations.push_back({"rescfg.io/allotment", Allotment(*profile)});
    out.local_queues.push_back({{name, policy.kubernetes.ns, annotations}, name});
  }
}

KueueObjects Builder::Build() {
  KueueObjects out;
  for (size_t p = 0; p < config_.pools.size(); ++p) pool_index_.emplace(config_.pools[p].name, p);
  for (size_t p = 0; p < config_.pools.size(); ++p) out.flavors.push_back(Flavor(p));
  Cohorts(out);
  for (size_t i = 0; i < config_.policies.size(); ++i) Queues(i, out);
  return out;
}

}  // namespace

KueueObjects BuildKueueObjects(const KueuePlan& plan, const std::string& file, std::vector<Finding>* errors,
                               std::vector<ExportFinding>* findings) {
  return Builder(plan, file, errors, findings).Build();
}

}  // namespace rescfg
