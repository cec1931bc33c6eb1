#include "export/kueue_names.h"

#include <map>
#include <set>

#include "config/k8s_names.h"
#include "util/digest.h"

namespace rescfg {
namespace {

/// What a Kueue name stands for, for messages.
struct Owner {
  std::string what;  ///< e.g. "policy 'Dev'"
  std::string path;  ///< e.g. policies[Dev].name
  Mark mark;
};

/// The names taken within one kind of object.
class Kind {
 public:
  Kind(const char* kind, const std::string& file, std::vector<Finding>* errors)
      : kind_(kind), file_(file), errors_(errors) {}

  /// Names of this kind that the cut to 63 characters makes one: each of
  /// them gets a suffix instead (Suffixed), whatever the order of the names.
  void PlanCuts(const std::vector<std::string>& names) {
    std::map<std::string, std::set<std::string>> cut;  // label -> the distinct cut names it comes from
    for (const std::string& name : names) {
      std::string dns = Dns1123Label(name);
      // Cut when one more character would not change it.
      if (!dns.empty() && Dns1123Label(name + "x") == dns) cut[dns].insert(name);
    }
    for (auto& [dns, from] : cut) {
      if (from.size() > 1) suffixed_.insert(from.begin(), from.end());
    }
  }

  /// The DNS-1123 form of `name` for `owner`; reports it when there is none
  /// or when another owner has it already.
  std::string Take(const std::string& name, const Owner& owner, const std::string& hint = "") {
    std::string dns = suffixed_.count(name) ? Suffixed(name) : Dns1123Label(name);
    if (dns.empty()) {
      errors_->push_back({"kueue-bad-name", Severity::kError, file_, owner.mark, owner.path,
                          "'" + name + "' has no ASCII letter or digit to make the Kueue " + kind_ + " name of " +
                              owner.what + " from",
                          "Kueue names are lowercase DNS-1123 labels: rename it with letters or digits"});
      return dns;
    }
    Claim(dns, owner, hint);
    return dns;
  }

  /// Claims `dns` as it is (a name the configuration gives in DNS form).
  void Claim(const std::string& dns, const Owner& owner, const std::string& hint = "") {
    auto [it, fresh] = taken_.emplace(dns, owner);
    if (fresh) return;
    const Owner& first = it->second;
    std::string where = first.mark.line > 0 ? " (line " + std::to_string(first.mark.line) + ")" : "";
    errors_->push_back({"kueue-name-collision", Severity::kError, file_, owner.mark, owner.path,
                        owner.what + " and " + first.what + where + " both become the Kueue " + kind_ + " '" +
                            dns + "'",
                        hint.empty() ? "rename one of them: Kueue names are lowercase DNS-1123 labels of at most "
                                       "63 characters, other characters become '-'"
                                     : hint});
  }

 private:
  /// A cut name made unique and stable: its first 54 characters and 8 hex
  /// digits of the sha256 of the whole name ("very-long-...-name-1a2b3c4d").
  static std::string Suffixed(const std::string& name) {
    std::string dns = Dns1123Label(name).substr(0, 63 - 9);
    while (!dns.empty() && dns.back() == '-') dns.pop_back();
    return dns + "-" + Sha256Hex(name).substr(0, 8);
  }

  const char* kind_;
  const std::string& file_;
  std::vector<Finding>* errors_;
  std::map<std::string, Owner> taken_;
  std::set<std::string> suffixed_;
};

std::string Quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace

KueueNames NameKueueObjects(const Config& config, const std::string& file, std::vector<Finding>* errors) {
  KueueNames names;
  Kind flavors("ResourceFlavor", file, errors), cohorts("Cohort", file, errors), queues("ClusterQueue", file, errors);

  const KubernetesSettings& k8s = config.kubernetes;
  names.root = k8s.cohort;
  const Owner root{"the root Cohort (kubernetes.cohort)", "kubernetes.cohort", k8s.cohort_mark};
  const std::string cohort_hint = "rename the policy, or set kubernetes.cohort to another name";
  cohorts.Claim(names.root, root);
  if (config.pools.size() > kKueueMaxFlavorsPerGroup) {
    // A resource can be in one resource group of a Cohort only, and a
    // group holds 64 flavors: beyond that the shared quota needs more Cohorts.
    for (size_t i = 0; i * kKueueMaxFlavorsPerGroup < config.pools.size(); ++i) {
      std::string shard = Dns1123Label(names.root + "-pools-" + std::to_string(i + 1));
      names.shared.push_back(shard);
      cohorts.Claim(shard, {"the Cohort '" + shard + "' of the pools' shared quota", "kubernetes.cohort",
                            k8s.cohort_mark});
    }
  } else {
    names.shared.push_back(names.root);
  }

  std::vector<std::string> pool_names, policy_names, queue_names;
  for (const Pool& pool : config.pools) pool_names.push_back(pool.name);
  for (const Policy& policy : config.policies) {
    policy_names.push_back(policy.name);
    for (const PolicyProfile& entry : policy.profiles) {
      queue_names.push_back(PolicyQueueOf(policy, entry));
    }
  }
  flavors.PlanCuts(pool_names);
  cohorts.PlanCuts(policy_names);
  queues.PlanCuts(queue_names);

  for (const Pool& pool : config.pools) {
    names.flavors.push_back(flavors.Take(pool.name, {"pool " + Quoted(pool.name), "pools[" + pool.name + "].name",
                                                     pool.name_mark}));
  }
  for (const Policy& policy : config.policies) {
    const std::string path = "policies[" + policy.name + "]";
    names.policy_cohorts.push_back(
        cohorts.Take(policy.name, {"policy " + Quoted(policy.name), path + ".name", policy.name_mark}, cohort_hint));
    std::vector<std::string> policy_queues;
    for (size_t j = 0; j < policy.profiles.size(); ++j) {
      const PolicyProfile& entry = policy.profiles[j];
      const std::string queue = PolicyQueueOf(policy, entry);
      const Mark mark = entry.queue_mark.line > 0 ? entry.queue_mark : entry.mark;
      policy_queues.push_back(queues.Take(queue, {"policy queue " + Quoted(queue),
                                                  path + ".profiles[" + std::to_string(j) + "].queue", mark}));
    }
    names.queues.push_back(std::move(policy_queues));
  }
  return names;
}

}  // namespace rescfg
