#include "config/canonical.h"

#include "config/durations.h"
#include "util/text_check.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

std::string Amount(Quantity q) {
  std::string text = q.ToString();
  return q.NeedsFraction() ? "\"" + text + "\"" : text;
}

std::string NameList(const std::vector<NameRef>& names) {
  std::string out = "[";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += YamlQuote(names[i].name);
  }
  return out + "]";
}

std::string Labels(const std::vector<KubernetesLabel>& labels) {
  std::string out = "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    out += (i ? ", " : "") + YamlQuote(labels[i].key) + ": " + YamlQuote(labels[i].value);
  }
  return out + "}";
}

/// Written only where they differ from the defaults, which they follow
/// otherwise (so a changed kubernetes.poolLabel is one change).
void WritePoolKubernetes(const Pool& pool, const Config& config, std::string& out) {
  if (IsDefaultPoolKubernetes(config, pool)) return;
  const PoolKubernetes& k = pool.kubernetes;
  out += "    kubernetes:\n";
  if (k.node_labels && *k.node_labels != DefaultNodeLabels(config, pool)) {
    out += "      nodeLabels: " + Labels(*k.node_labels) + "\n";
  }
  if (!k.node_taints.empty()) out += "      nodeTaints:\n";
  for (const auto& t : k.node_taints) {
    out += "        - {key: " + YamlQuote(t.key) + ", value: " + YamlQuote(t.value) + ", effect: " + t.effect + "}\n";
  }
  if (!k.tolerations.empty()) out += "      tolerations:\n";
  for (const auto& t : k.tolerations) {
    out += "        - {";
    if (!t.key.empty()) out += "key: " + YamlQuote(t.key) + ", ";
    out += "operator: " + t.op;
    if (t.op != "Exists") out += ", value: " + YamlQuote(t.value);
    if (!t.effect.empty()) out += ", effect: " + t.effect;
    if (t.seconds) out += ", tolerationSeconds: " + std::to_string(*t.seconds);
    out += "}\n";
  }
}

void WriteKubernetes(const KubernetesSettings& k, std::string& out) {
  std::string fields;
  auto field = [&](const char* key, const std::string& value, const char* fallback) {
    if (value != fallback) fields += std::string("  ") + key + ": " + YamlQuote(value) + "\n";
  };
  field("namespace", k.ns, KubernetesSettings::kDefaultNamespace);
  field("cohort", k.cohort, KubernetesSettings::kDefaultCohort);
  field("poolLabel", k.pool_label, KubernetesSettings::kDefaultPoolLabel);
  field("gpuResource", k.gpu_resource, KubernetesSettings::kDefaultGpuResource);
  field("ticksResource", k.ticks_resource, "");
  if (!fields.empty()) out += "kubernetes:\n" + fields;
}

void WritePool(const Pool& pool, const Config& config, std::string& out) {
  out += "  - name: " + YamlQuote(pool.name) + "\n";
  if (pool.renamed_from) out += "    renamedFrom: " + YamlQuote(*pool.renamed_from) + "\n";
  out += "    resources: " + Amount(pool.resources) + "\n";
  if (pool.nodes) {
    out += "    nodes: {count: " + std::to_string(pool.nodes->count) + ", gpus: " + std::to_string(pool.nodes->gpus) +
           (pool.nodes->names_from_workers ? "" : ", names: none") + "}\n";
  }
  // Only where it differs from its default, which follows resources.
  if (GuaranteedOf(pool) != pool.resources) out += "    guaranteed: " + Amount(GuaranteedOf(pool)) + "\n";
  out += "    queue: " + YamlQuote(pool.queue) + "\n";
  if (!pool.description.empty()) out += "    description: " + YamlQuote(pool.description) + "\n";
  if (pool.paused) out += "    paused: true\n";
  out += "    executionPriority: " + NameList(pool.execution_priority.value_or(std::vector<NameRef>{})) + "\n";
  if (pool.gpu_fractions.mig) {
    out += "    gpuFractions:\n      mig:\n";
    for (const auto& m : pool.gpu_fractions.resources) {
      out += "        \"" + m.fraction.ToString() + "\": " + YamlQuote(m.resource) + "\n";
    }
  }
  WritePoolKubernetes(pool, config, out);
}

/// Link queues are written only where they differ from the pool's queue,
/// which they follow otherwise (so a renamed pool queue is one change).
void WriteProfile(const Profile& profile, const PoolQueues& queues, std::string& out) {
  out += "  - name: " + YamlQuote(profile.name) + "\n";
  if (profile.renamed_from) out += "    renamedFrom: " + YamlQuote(*profile.renamed_from) + "\n";
  out += "    allotment: " + Amount(profile.allotment) + "\n";
  if (profile.dynamic_parameter) {
    out += "    dynamic: {parameter: " + YamlQuote(*profile.dynamic_parameter) +
           (profile.reject_invalid ? ", invalid: reject" : "") + "}\n";
  }
  out += std::string("    queueing: ") + QueueingName(profile.queueing) + "\n";
  out += "    links:";
  if (profile.links.empty()) out += " []";
  out += "\n";
  for (const auto& link : profile.links) {
    out += "      - {pool: " + YamlQuote(link.pool);
    if (!link.name.empty()) out += ", name: " + YamlQuote(link.name);
    if (!queues.IsDefault(link)) out += ", queue: " + YamlQuote(link.queue);
    out += "}\n";
  }
  out += "    policyPriority: " + NameList(profile.policy_priority.value_or(std::vector<NameRef>{})) + "\n";
  if (!profile.description.empty()) out += "    description: " + YamlQuote(profile.description) + "\n";
}

void WritePolicy(const Policy& policy, const Config& config, std::string& out) {
  out += "  - name: " + YamlQuote(policy.name) + "\n";
  if (policy.renamed_from) out += "    renamedFrom: " + YamlQuote(*policy.renamed_from) + "\n";
  out += "    reserved: " + Amount(policy.reserved) + "\n";
  if (policy.limit) out += "    limit: " + Amount(*policy.limit) + "\n";
  out += "    profiles:";
  if (policy.profiles.empty()) out += " []";
  out += "\n";
  for (const auto& entry : policy.profiles) {
    out += "      - {profile: " + YamlQuote(entry.profile);
    out += ", queue: " + YamlQuote(PolicyQueueOf(policy, entry));
    out += "}\n";
  }
  if (!policy.description.empty()) out += "    description: " + YamlQuote(policy.description) + "\n";
  if (policy.paused) out += "    paused: true\n";
  if (!policy.preemptible) out += "    preemptible: false\n";
  if (!IsDefaultPolicyNamespace(config, policy)) {
    out += "    kubernetes: {namespace: " + YamlQuote(policy.kubernetes.ns) + "}\n";
  }
}

template <typename T, typename Write>
void WriteList(const char* key, const std::vector<T>& items, Write write, std::string& out) {
  out += key;
  out += items.empty() ? ": []\n" : ":\n";
  for (const auto& item : items) write(item, out);
}

}  // namespace

std::string CanonicalEntry(const Pool& pool, const Config& config) {
  std::string out;
  WritePool(pool, config, out);
  return out;
}

std::string CanonicalEntry(const Profile& profile, const Config& config) {
  std::string out;
  WriteProfile(profile, PoolQueues(config), out);
  return out;
}

std::string CanonicalEntry(const Policy& policy, const Config& config) {
  std::string out;
  WritePolicy(policy, config, out);
  return out;
}

namespace {
const Config& DefaultSettings() {
  static const Config config = [] {
    Config c;
    ApplyDefaults(c);
    return c;
  }();
  return config;
}
}  // namespace

std::string CanonicalEntry(const Pool& pool) { return CanonicalEntry(pool, DefaultSettings()); }
std::string CanonicalEntry(const Policy& policy) { return CanonicalEntry(policy, DefaultSettings()); }

std::string YamlQuote(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // What would not survive a YAML reader as written: C1 controls (U+0085
    // is a line break), U+2028, U+2029, U+FEFF, U+FFFE and U+FFFF.
    if (c >= 0xC2) {
      const size_t len = Utf8SequenceLength(text, i);
      if (unsigned cp = len > 1 ? YamlUnsafeCodePoint(text.substr(i, len)) : 0; cp != 0) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(cp >> shift) & 0xF]);
        i += len - 1;
        continue;
      }
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\x";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

std::string WriteCanonical(const Config& config) {
  std::string out;
  out += "apiVersion: rescfg/v1\n";
  out += "kind: ResourceConfiguration\n";
  out += config.enabled ? "enabled: true\n" : "enabled: false\n";
  if (const auto& p = config.preemption) {
    out += "preemption:\n  minRuntime: " + CanonicalDuration(p->min_runtime_us) + "\n  delay: " +
           CanonicalDuration(p->delay_us) + "\n  stopTimeout: " + CanonicalDuration(p->stop_timeout_us) + "\n";
  }
  WriteKubernetes(config.kubernetes, out);
  WriteList("pools", config.pools, [&](const Pool& pool, std::string& text) { WritePool(pool, config, text); }, out);
  const PoolQueues queues(config);
  WriteList("profiles", config.profiles,
            [&](const Profile& profile, std::string& text) { WriteProfile(profile, queues, text); }, out);
  WriteList("policies", config.policies,
            [&](const Policy& policy, std::string& text) { WritePolicy(policy, config, text); }, out);
  return out;
}

}  // namespace rescfg
