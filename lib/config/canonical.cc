#include "config/canonical.h"

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

void WritePool(const Pool& pool, std::string& out) {
  out += "  - name: " + YamlQuote(pool.name) + "\n";
  out += "    resources: " + Amount(pool.resources) + "\n";
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
}

/// Link queues are written only where they differ from the pool's queue,
/// which they follow otherwise (so a renamed pool queue is one change).
void WriteProfile(const Profile& profile, const PoolQueues& queues, std::string& out) {
  out += "  - name: " + YamlQuote(profile.name) + "\n";
  out += "    allotment: " + Amount(profile.allotment) + "\n";
  if (profile.dynamic_parameter) {
    out += "    dynamic: {parameter: " + YamlQuote(*profile.dynamic_parameter) + "}\n";
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

void WritePolicy(const Policy& policy, std::string& out) {
  out += "  - name: " + YamlQuote(policy.name) + "\n";
  out += "    reserved: " + Amount(policy.reserved) + "\n";
  if (policy.limit) out += "    limit: " + Amount(*policy.limit) + "\n";
  out += "    profiles:";
  if (policy.profiles.empty()) out += " []";
  out += "\n";
  for (const auto& entry : policy.profiles) {
    out += "      - {profile: " + YamlQuote(entry.profile);
    out += ", queue: " + YamlQuote(entry.queue.value_or(DefaultPolicyQueue(policy.name, entry.profile)));
    out += "}\n";
  }
  if (!policy.description.empty()) out += "    description: " + YamlQuote(policy.description) + "\n";
  if (policy.paused) out += "    paused: true\n";
}

template <typename T, typename Write>
void WriteList(const char* key, const std::vector<T>& items, Write write, std::string& out) {
  out += key;
  out += items.empty() ? ": []\n" : ":\n";
  for (const auto& item : items) write(item, out);
}

}  // namespace

std::string CanonicalEntry(const Pool& pool) {
  std::string out;
  WritePool(pool, out);
  return out;
}

std::string CanonicalEntry(const Profile& profile, const Config& config) {
  std::string out;
  WriteProfile(profile, PoolQueues(config), out);
  return out;
}

std::string CanonicalEntry(const Policy& policy) {
  std::string out;
  WritePolicy(policy, out);
  return out;
}

std::string YamlQuote(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    // Unicode line breaks and the byte-order mark would not survive a
    // YAML reader as written: U+0085, U+2028, U+2029, U+FEFF.
    std::string_view rest = text.substr(i);
    if (rest.starts_with("\xC2\x85")) { out += "\\u0085"; ++i; continue; }
    if (rest.starts_with("\xE2\x80\xA8")) { out += "\\u2028"; i += 2; continue; }
    if (rest.starts_with("\xE2\x80\xA9")) { out += "\\u2029"; i += 2; continue; }
    if (rest.starts_with("\xEF\xBB\xBF")) { out += "\\uFEFF"; i += 2; continue; }
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
  WriteList("pools", config.pools, &WritePool, out);
  const PoolQueues queues(config);
  WriteList("profiles", config.profiles,
            [&](const Profile& profile, std::string& text) { WriteProfile(profile, queues, text); }, out);
  WriteList("policies", config.policies, &WritePolicy, out);
  return out;
}

}  // namespace rescfg
