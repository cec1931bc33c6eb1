#pragma once
/// The resource configuration (rescfg(5), CONFIGURATION) as plain values.
///
/// After LoadConfig + ApplyDefaults every optional field holds its effective
/// value (queues, priorities), so the rest of the program never re-derives a
/// default. Marks say where each part was written, for findings.

#include <optional>
#include <tuple>
#include <string_view>
#include <unordered_map>
#include <string>
#include <vector>

#include "util/finding.h"
#include "util/quantity.h"

namespace rescfg {

enum class Queueing { kBestEffortFIFO, kStrictFIFO };
const char* QueueingName(Queueing q);

struct Link {
  std::string pool;
  std::string name;   ///< optional: "" when not given
  /// The queue the pool's agents serve for this profile's jobs (rescfg(5), CONFIGURATION):
  /// "" until ApplyDefaults sets it to the pool's queue when not given.
  std::string queue;
  Mark mark, pool_mark, name_mark, queue_mark;
  bool operator==(const Link&) const = default;
};

/// A link to `pool` (named `name`), nothing else given.
inline Link LinkTo(std::string pool, std::string name = "") {
  Link link;
  link.pool = std::move(pool);
  link.name = std::move(name);
  return link;
}

/// An entry of a priority list, with where it was written.
struct NameRef {
  std::string name;
  Mark mark;
  bool operator==(const NameRef&) const = default;
};

/// How a fractional allotment reaches a GPU (rescfg(5), CONFIGURATION): the ClearML
/// fractional GPU injector (the default), or one MIG resource per fraction.
struct GpuFractions {
  struct Mig {
    Quantity fraction;     ///< in (0, 1)
    std::string resource;  ///< e.g. nvidia.com/mig-1g.10gb
    Mark mark;
    bool operator==(const Mig&) const = default;
  };
  bool mig = false;      ///< false: injector
  std::vector<Mig> resources;  ///< with mig: ascending fraction
  bool operator==(const GpuFractions&) const = default;
};

/// Kubernetes settings of the Kueue export (rescfg(5) KUBERNETES). Strings
/// are "" until ApplyDefaults gives them their defaults.
struct KubernetesLabel {
  std::string key, value;
  Mark mark;
  bool operator==(const KubernetesLabel&) const = default;
};

struct KubernetesTaint {
  std::string key, value, effect;  ///< effect: NoSchedule | PreferNoSchedule | NoExecute
  Mark mark;
  bool operator==(const KubernetesTaint&) const = default;
};

struct KubernetesToleration {
  std::string key;       ///< "" matches every key (operator Exists)
  std::string op;        ///< Equal | Exists; "" until ApplyDefaults: Equal
  std::string value;
  std::string effect;    ///< "" matches every effect
  std::optional<int64_t> seconds;  ///< tolerationSeconds, with effect NoExecute only
  Mark mark;
  bool operator==(const KubernetesToleration&) const = default;
};

/// A pool's ResourceFlavor: the nodes it stands for.
struct PoolKubernetes {
  /// Sorted by key. Default {<kubernetes.poolLabel>: <the pool's DNS-1123 name>}.
  std::optional<std::vector<KubernetesLabel>> node_labels;
  std::vector<KubernetesTaint> node_taints;
  std::vector<KubernetesToleration> tolerations;
  Mark mark, node_labels_mark;
  bool operator==(const PoolKubernetes&) const = default;
};

struct PolicyKubernetes {
  std::string ns;  ///< its LocalQueues' namespace; default: kubernetes.namespace
  Mark mark, namespace_mark;
  bool operator==(const PolicyKubernetes&) const = default;
};

/// The top-level `kubernetes:` block.
struct KubernetesSettings {
  static constexpr const char* kDefaultNamespace = "default";
  static constexpr const char* kDefaultCohort = "rescfg";
  static constexpr const char* kDefaultPoolLabel = "rescfg.io/pool";
  static constexpr const char* kDefaultGpuResource = "nvidia.com/gpu";
  std::string ns;              ///< LocalQueues' namespace when a policy names none
  std::string cohort;          ///< the root Cohort
  std::string pool_label;      ///< node label key of a pool's default nodeLabels
  std::string gpu_resource;    ///< what a pod requests per whole GPU
  std::string ticks_resource;  ///< "" (account in GPUs) or the integer resource counting ticks
  Mark mark, namespace_mark, cohort_mark, pool_label_mark, gpu_resource_mark, ticks_resource_mark;
  bool operator==(const KubernetesSettings&) const = default;
};

/// A pool made of machines (rescfg(5), CONFIGURATION v3): `count` machines of `gpus` GPUs.
struct PoolNodes {
  int64_t count = 0;  ///< > 0
  int64_t gpus = 0;   ///< > 0; count × gpus is at most the largest amount
  /// `names: worker` (default): a ClearML worker id's host part names the
  /// machine. `names: none`: Kubernetes or an autoscaler places the machines,
  /// so no machine is read from worker ids (they are estimated).
  bool names_from_workers = true;
  Mark mark, names_mark;
  bool operator==(const PoolNodes&) const = default;
};

struct Pool {
  std::string name;
  Quantity resources;  ///< with `nodes` and no `resources` written: count × gpus
  std::optional<PoolNodes> nodes;       ///< none: one bag of GPUs (v2)
  std::optional<Quantity> guaranteed;   ///< as written; GuaranteedOf gives the effective value
  std::string queue;  ///< default: the pool's name
  std::string description;
  bool paused = false;  ///< drained: running jobs stay, nothing new is placed
  GpuFractions gpu_fractions;
  PoolKubernetes kubernetes;
  std::optional<std::vector<NameRef>> execution_priority;  ///< default: linked profiles in file order
  Mark mark, name_mark, resources_mark, queue_mark, execution_priority_mark, paused_mark, gpu_fractions_mark;
  Mark guaranteed_mark;
  bool resources_given = true;  ///< false: `resources` left out beside `nodes`
  std::optional<std::string> renamed_from;  ///< `renamedFrom`: its provisioned name until now
  Mark renamed_from_mark;
  bool operator==(const Pool& o) const {
    // Whether `resources` was written out beside `nodes` is layout, not meaning.
    auto tie = [](const Pool& p) {
      return std::tie(p.name, p.resources, p.nodes, p.guaranteed, p.queue, p.description, p.paused,
                      p.gpu_fractions, p.kubernetes, p.execution_priority, p.renamed_from);
    };
    return tie(*this) == tie(o);
  }
};

/// The capacity that is always there (rescfg(5), CONFIGURATION v3): `guaranteed`, default `resources`.
inline Quantity GuaranteedOf(const Pool& pool) { return pool.guaranteed.value_or(pool.resources); }

/// Whether a need fits the pool when nothing runs there (rescfg-scheduling(7), THE PASS v3): no
/// larger than the pool; with nodes, no larger than one machine, or a whole
/// number of machines the pool has.
bool FitsEmptyPool(const Pool& pool, Quantity need);

struct Profile {
  std::string name;
  Quantity allotment;
  std::optional<std::string> dynamic_parameter;  ///< e.g. runtime.gpus_request
  /// dynamic.invalid: reject — a present but invalid value rejects the job
  /// instead of falling back to the allotment.
  bool reject_invalid = false;
  Queueing queueing = Queueing::kBestEffortFIFO;
  std::vector<Link> links;
  std::optional<std::vector<NameRef>> policy_priority;  ///< default: using policies in file order
  std::string description;
  std::optional<std::string> renamed_from;  ///< `renamedFrom`: its provisioned name until now
  Mark mark, name_mark, allotment_mark, dynamic_mark, links_mark, policy_priority_mark;
  Mark renamed_from_mark;
  bool operator==(const Profile&) const = default;
};

struct PolicyProfile {
  std::string profile;
  std::optional<std::string> queue;  ///< default: "<policy>/<profile>"
  Mark mark, profile_mark, queue_mark;
  bool operator==(const PolicyProfile&) const = default;
};

struct Policy {
  std::string name;
  Quantity reserved;               ///< default 0
  std::optional<Quantity> limit;   ///< nullopt: no limit
  std::vector<PolicyProfile> profiles;
  std::string description;
  bool paused = false;             ///< frozen: running jobs stay, none of its queued jobs starts
  /// false: its running jobs are never preemption victims (rescfg-scheduling(7), PREEMPTION)
  bool preemptible = true;
  std::optional<std::string> renamed_from;  ///< `renamedFrom`: its provisioned name until now
  PolicyKubernetes kubernetes;
  Mark mark, name_mark, reserved_mark, limit_mark, profiles_mark, paused_mark;
  Mark preemptible_mark, renamed_from_mark;
  bool operator==(const Policy&) const = default;
};

/// The top-level `preemption:` block (rescfg-scheduling(7), PREEMPTION): durations in
/// whole microseconds. Absent from a configuration: no job is ever preempted.
struct PreemptionSettings {
  static constexpr int64_t kDefaultMinRuntimeMicros = 600'000'000;   ///< 10m
  static constexpr int64_t kDefaultDelayMicros = 60'000'000;         ///< 1m
  static constexpr int64_t kDefaultStopTimeoutMicros = 300'000'000;  ///< 5m
  int64_t min_runtime_us = kDefaultMinRuntimeMicros;  ///< a younger running job is never a victim
  int64_t delay_us = kDefaultDelayMicros;             ///< a queued job preempts only after this wait
  int64_t stop_timeout_us = kDefaultStopTimeoutMicros;  ///< rescfg sync: then a stop is `stuck`
  Mark mark, min_runtime_mark, delay_mark, stop_timeout_mark;
  bool operator==(const PreemptionSettings&) const = default;
};

struct Config {
  std::string api_version = "rescfg/v1";
  std::string kind = "ResourceConfiguration";
  bool enabled = true;
  std::optional<PreemptionSettings> preemption;  ///< none: nothing is ever preempted
  KubernetesSettings kubernetes;
  std::vector<Pool> pools;
  std::vector<Profile> profiles;
  std::vector<Policy> policies;
  bool operator==(const Config&) const = default;

  const Pool* FindPool(std::string_view name) const;
  const Profile* FindProfile(std::string_view name) const;
  const Policy* FindPolicy(std::string_view name) const;
};

/// Fills every optional field with its rescfg(5), CONFIGURATION default. Safe to call twice.
/// Assumes names referenced by priorities exist only where validation passed;
/// otherwise it still produces a value, never throws.
void ApplyDefaults(Config& config);

/// The queue of each pool by name (the first pool of a name), built once:
/// whether a link's queue (defaults applied) is its pool's queue.
class PoolQueues {
 public:
  explicit PoolQueues(const Config& config);
  bool IsDefault(const Link& link) const;

 private:
  std::unordered_map<std::string_view, std::string_view> queue_of_;
};

/// A pool's nodeLabels when it gives none: {kubernetes.poolLabel: its
/// DNS-1123 name}. Needs the top-level defaults applied.
std::vector<KubernetesLabel> DefaultNodeLabels(const Config& config, const Pool& pool);
/// Whether a pool's Kubernetes settings (defaults applied) are all defaults.
bool IsDefaultPoolKubernetes(const Config& config, const Pool& pool);
/// Whether a policy's namespace (defaults applied) is the top-level one.
bool IsDefaultPolicyNamespace(const Config& config, const Policy& policy);

/// The queue of a policy's profile entry once defaults are applied.
std::string DefaultPolicyQueue(const std::string& policy, const std::string& profile);
/// The queue where a policy's users enqueue jobs of one of its profiles: the
/// entry's `queue`, else the default "<policy>/<profile>".
inline std::string PolicyQueueOf(const Policy& policy, const PolicyProfile& entry) {
  return entry.queue ? *entry.queue : DefaultPolicyQueue(policy.name, entry.profile);
}

/// The policy queue of `policy`'s `profile`, by their names ("" when the
/// configuration has no such policy or the policy no such profile).
inline std::string PolicyQueueByName(const Config& config, std::string_view policy, std::string_view profile) {
  const Policy* p = config.FindPolicy(policy);
  if (p == nullptr) return "";
  for (const PolicyProfile& entry : p->profiles) {
    if (entry.profile == profile) return PolicyQueueOf(*p, entry);
  }
  return "";
}

}  // namespace rescfg
