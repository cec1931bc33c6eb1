#include "config/loader.h"

#include <algorithm>

#include "config/config_reader.h"
#include "config/k8s_names.h"
#include "config/kubernetes.h"
#include "config/preemption_keys.h"
#include "util/edit_distance.h"
#include "util/file_io.h"
#include "util/input_file.h"
#include "util/input_limits.h"
#include "util/text_check.h"
#include "util/yaml_input.h"

namespace rescfg {

std::optional<GpuFractions> ConfigReader::ReadGpuFractions(const YAML::Node& node, const std::string& path) {
  GpuFractions fractions;
  if (node.IsScalar() && node.Scalar() == "injector") return fractions;
  if (!node.IsMap()) {
    Error("bad-gpu-fractions", MarkOf(node), path,
          "gpuFractions must be injector or {mig: {FRACTION: RESOURCE, ...}}, found " + DescribeNode(node),
          "e.g. gpuFractions: {mig: {\"1/7\": nvidia.com/mig-1g.10gb}}");
    return std::nullopt;
  }
  MapReader map(node, path, {"mig"}, file_, findings_);
  auto mig = map.Get("mig");
  if (!mig) {
    Missing(map, path, "mig");
    return std::nullopt;
  }
  if (!mig->IsMap() || mig->size() == 0) {
    Error("bad-gpu-fractions", MarkOf(*mig), path + ".mig",
          "mig must map fractions to MIG resource names, found " + DescribeNode(*mig),
          "e.g. mig: {\"1/7\": nvidia.com/mig-1g.10gb}");
    return std::nullopt;
  }
  fractions.mig = true;
  bool ok = true;
  for (const auto& item : *mig) {
    const std::string key_path = path + ".mig[" + (item.first.IsScalar() ? item.first.Scalar() : "?") + "]";
    auto fraction = Amount(item.first, key_path, true);
    if (!fraction) { ok = false; continue; }
    if (*fraction >= Quantity::Units(1)) {
      Error("bad-gpu-fractions", MarkOf(item.first), key_path,
            "a MIG fraction must be below 1, not " + fraction->ToString(),
            "whole GPUs are requested as nvidia.com/gpu; list only fractions here");
      ok = false;
      continue;
    }
    auto resource = Name(item.second, key_path);
    if (!resource) { ok = false; continue; }
    if (std::string problem = ResourceNameProblem(*resource); !problem.empty()) {
      Error("bad-gpu-fractions", MarkOf(item.second), key_path,
            "'" + *resource + "' is not a Kubernetes resource name: " + problem,
            "e.g. nvidia.com/mig-1g.10gb");
      ok = false;
      continue;
    }
    bool repeated = false;
    for (const auto& seen : fractions.resources) repeated |= seen.fraction == *fraction;
    if (repeated) {
      Error("bad-gpu-fractions", MarkOf(item.first), key_path,
            "the fraction " + fraction->ToString() + " is mapped twice", "map each fraction once");
      ok = false;
      continue;
    }
    fractions.resources.push_back({*fraction, *resource, MarkOf(item.first)});
  }
  if (!ok) return std::nullopt;
  std::sort(fractions.resources.begin(), fractions.resources.end(),
            [](const GpuFractions::Mig& a, const GpuFractions::Mig& b) { return a.fraction < b.fraction; });
  return fractions;
}

std::optional<PoolNodes> ConfigReader::ReadNodes(const YAML::Node& node, const std::string& path) {
  if (!node.IsMap()) {
    Error("bad-nodes", MarkOf(node), path,
          "nodes must be a mapping {count: MACHINES, gpus: GPUS_EACH}, found " + DescribeNode(node),
          "e.g. nodes: {count: 4, gpus: 8}");
    return std::nullopt;
  }
  MapReader map(node, path, {"count", "gpus", "names"}, file_, findings_);
  PoolNodes nodes;
  nodes.mark = MarkOf(node);
  std::optional<int64_t> count, gpus;
  if (auto c = map.Get("count")) count = WholeNumber(*c, path + ".count"); else Missing(map, path, "count");
  if (auto g = map.Get("gpus")) gpus = WholeNumber(*g, path + ".gpus"); else Missing(map, path, "gpus");
  if (auto n = map.Get("names")) {
    // How its machines are named (rescfg(5), Pools): worker (default) | none.
    nodes.names_mark = MarkOf(*n);
    auto text = Scalar(*n, path + ".names");
    if (text && (*text == "worker" || *text == "none")) {
      nodes.names_from_workers = *text == "worker";
    } else if (text) {
      std::string close = ClosestMatch(*text, {"worker", "none"});
      Error("bad-value", nodes.names_mark, path + ".names", "nodes.names must be worker or none, not '" + *text + "'",
            close.empty() ? "none: Kubernetes or an autoscaler places the machines" : "did you mean '" + close + "'?");
    }
  }
  if (!count || !gpus) return std::nullopt;
  // Each is at most 10^6, so the product cannot overflow.
  if (*count * *gpus > Quantity::kMaxUnits) {
    Error("bad-nodes", nodes.mark, path,
          "nodes make " + std::to_string(*count * *gpus) + " GPUs, more than the largest amount (" +
              std::to_string(Quantity::kMaxUnits) + ")");
    return std::nullopt;
  }
  nodes.count = *count;
  nodes.gpus = *gpus;
  return nodes;
}

Pool ConfigReader::ReadPool(const YAML::Node& node, size_t index, bool* ok) {
  Pool pool;
  std::string path = EntryPath("pools", node, index);
  pool.mark = MarkOf(node);
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path, "a pool must be a mapping, found " + DescribeNode(node));
    *ok = false;
    return pool;
  }
  MapReader map(node, path,
                {"name", "resources", "nodes", "guaranteed", "queue", "description", "paused", "executionPriority",
                 "gpuFractions", "kubernetes", "renamedFrom"},
                file_, findings_);
  *ok = false;
  if (auto n = map.Get("name")) {
    pool.name_mark = MarkOf(*n);
    if (auto name = Name(*n, path + ".name")) { pool.name = *name; *ok = true; }
  } else {
    Missing(map, path, "name");
  }
  RenamedFrom(map, path, &pool.renamed_from, &pool.renamed_from_mark);
  if (auto n = map.Get("nodes")) pool.nodes = ReadNodes(*n, path + ".nodes");
  if (auto r = map.Get("resources")) {
    pool.resources_mark = MarkOf(*r);
    if (auto q = Amount(*r, path + ".resources", true)) pool.resources = *q;
  } else if (map.Get("nodes")) {
    // Left out beside nodes: count × gpus (nothing when nodes is unreadable).
    pool.resources_given = false;
    pool.resources_mark = pool.nodes ? pool.nodes->mark : MarkOf(*map.Get("nodes"));
    if (pool.nodes) pool.resources = Quantity::Units(pool.nodes->count * pool.nodes->gpus);
  } else {
    Missing(map, path, "resources");
  }
  if (auto g = map.Get("guaranteed")) {
    pool.guaranteed_mark = MarkOf(*g);
    pool.guaranteed = Amount(*g, path + ".guaranteed", false);
  }
  if (auto q = map.Get("queue")) {
    pool.queue_mark = MarkOf(*q);
    if (auto name = Name(*q, path + ".queue")) pool.queue = *name;
  }
  if (auto d = map.Get("description")) {
    if (auto text = Text(*d, path + ".description")) pool.description = *text;
  }
  if (auto p = map.Get("paused")) {
    pool.paused_mark = MarkOf(*p);
    pool.paused = Bool(*p, path + ".paused", "paused").value_or(false);
  }
  if (auto e = map.Get("executionPriority")) {
    pool.execution_priority_mark = MarkOf(*e);
    pool.execution_priority = NameList(*e, path + ".executionPriority");
  }
  if (auto g = map.Get("gpuFractions")) {
    pool.gpu_fractions_mark = MarkOf(*g);
    if (auto fractions = ReadGpuFractions(*g, path + ".gpuFractions")) pool.gpu_fractions = *fractions;
  }
  if (auto k = map.Get("kubernetes")) pool.kubernetes = ReadPoolKubernetes(*k, path + ".kubernetes", file_, findings_);
  return pool;
}

std::optional<Link> ConfigReader::ReadLink(const YAML::Node& node, const std::string& path) {
  if (node.IsScalar()) {  // a bare pool name, as a policy's profiles may be
    Link link;
    link.mark = link.pool_mark = MarkOf(node);
    auto pool_name = Name(node, path + ".pool");
    if (!pool_name) return std::nullopt;
    link.pool = *pool_name;
    return link;
  }
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path,
          "a link must be a pool name or a mapping such as {pool: NAME}, found " + DescribeNode(node));
    return std::nullopt;
  }
  MapReader map(node, path, {"pool", "name", "queue"}, file_, findings_);
  Link link;
  link.mark = MarkOf(node);
  auto pool = map.Get("pool");
  if (!pool) {
    Missing(map, path, "pool");
    return std::nullopt;
  }
  link.pool_mark = MarkOf(*pool);
  auto pool_name = Name(*pool, path + ".pool");
  if (!pool_name) return std::nullopt;
  link.pool = *pool_name;
  if (auto n = map.Get("name")) {
    link.name_mark = MarkOf(*n);
    if (auto name = Name(*n, path + ".name")) link.name = *name;
  }
  if (auto q = map.Get("queue")) {
    link.queue_mark = MarkOf(*q);
    if (auto name = Name(*q, path + ".queue")) link.queue = *name;
  }
  return link;
}

Profile ConfigReader::ReadProfile(const YAML::Node& node, size_t index, bool* ok) {
  Profile profile;
  std::string path = EntryPath("profiles", node, index);
  profile.mark = MarkOf(node);
  *ok = false;
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path, "a profile must be a mapping, found " + DescribeNode(node));
    return profile;
  }
  MapReader map(node, path,
                {"name", "allotment", "dynamic", "queueing", "links", "policyPriority", "description", "renamedFrom"},
                file_, findings_);
  if (auto n = map.Get("name")) {
    profile.name_mark = MarkOf(*n);
    if (auto name = Name(*n, path + ".name")) { profile.name = *name; *ok = true; }
  } else {
    Missing(map, path, "name");
  }
  RenamedFrom(map, path, &profile.renamed_from, &profile.renamed_from_mark);
  if (auto a = map.Get("allotment")) {
    profile.allotment_mark = MarkOf(*a);
    if (auto q = Amount(*a, path + ".allotment", true)) profile.allotment = *q;
  } else {
    Missing(map, path, "allotment");
  }
  if (auto d = map.Get("dynamic")) {
    profile.dynamic_mark = MarkOf(*d);
    if (!d->IsMap()) {
      Error("wrong-type", MarkOf(*d), path + ".dynamic",
            "expected a mapping {parameter: ...}, found " + DescribeNode(*d));
    } else {
      MapReader dyn(*d, path + ".dynamic", {"parameter", "invalid"}, file_, findings_);
      if (auto p = dyn.Get("parameter")) {
        profile.dynamic_mark = MarkOf(*p);
        if (auto text = Name(*p, path + ".dynamic.parameter")) profile.dynamic_parameter = *text;
      } else {
        Missing(dyn, path + ".dynamic", "parameter");
      }
      if (auto i = dyn.Get("invalid")) {
        auto text = Scalar(*i, path + ".dynamic.invalid");
        if (text && (*text == "default" || *text == "reject")) {
          profile.reject_invalid = *text == "reject";
        } else if (text) {
          std::string close = ClosestMatch(*text, {"default", "reject"});
          Error("bad-value", MarkOf(*i), path + ".dynamic.invalid",
                "dynamic.invalid must be default or reject, not '" + *text + "'",
                close.empty() ? "" : "did you mean '" + close + "'?");
        }
      }
    }
  }
  if (auto q = map.Get("queueing")) {
    auto text = Scalar(*q, path + ".queueing");
    if (text && *text == "StrictFIFO") {
      profile.queueing = Queueing::kStrictFIFO;
    } else if (text && *text == "BestEffortFIFO") {
      profile.queueing = Queueing::kBestEffortFIFO;
    } else if (text) {
      std::string close = ClosestMatch(*text, {"BestEffortFIFO", "StrictFIFO"});
      std::string hint = close.empty() ? "" : "did you mean '" + close + "'?";
      Error("bad-value", MarkOf(*q), path + ".queueing",
            "queueing must be BestEffortFIFO or StrictFIFO, not '" + *text + "'", hint);
    }
  }
  if (auto l = map.Get("links")) profile.links_mark = MarkOf(*l);
  auto links = List(map, "links", path);
  for (size_t i = 0; i < links.size(); ++i) {
    if (auto link = ReadLink(links[i], path + ".links[" + std::to_string(i) + "]")) {
      profile.links.push_back(*link);
    }
  }
  if (auto p = map.Get("policyPriority")) {
    profile.policy_priority_mark = MarkOf(*p);
    profile.policy_priority = NameList(*p, path + ".policyPriority");
  }
  if (auto d = map.Get("description")) {
    if (auto text = Text(*d, path + ".description")) profile.description = *text;
  }
  return profile;
}

std::optional<PolicyProfile> ConfigReader::ReadPolicyProfile(const YAML::Node& node,
                                                             const std::string& path) {
  PolicyProfile entry;
  entry.mark = MarkOf(node);
  if (node.IsScalar()) {
    auto name = Name(node, path);
    if (!name) return std::nullopt;
    entry.profile = *name;
    entry.profile_mark = entry.mark;
    return entry;
  }
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path,
          "expected a profile name or {profile: NAME, queue: NAME}, found " + DescribeNode(node));
    return std::nullopt;
  }
  MapReader map(node, path, {"profile", "queue"}, file_, findings_);
  auto profile = map.Get("profile");
  if (!profile) {
    Missing(map, path, "profile");
    return std::nullopt;
  }
  entry.profile_mark = MarkOf(*profile);
  auto name = Name(*profile, path + ".profile");
  if (!name) return std::nullopt;
  entry.profile = *name;
  if (auto q = map.Get("queue")) {
    entry.queue_mark = MarkOf(*q);
    entry.queue = Name(*q, path + ".queue");
  }
  return entry;
}

Policy ConfigReader::ReadPolicy(const YAML::Node& node, size_t index, bool* ok) {
  Policy policy;
  std::string path = EntryPath("policies", node, index);
  policy.mark = MarkOf(node);
  *ok = false;
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path, "a policy must be a mapping, found " + DescribeNode(node));
    return policy;
  }
  MapReader map(node, path, {"name", "reserved", "limit", "profiles", "description", "paused", "preemptible", "kubernetes",
                                 "renamedFrom"},
                file_, findings_);
  if (auto n = map.Get("name")) {
    policy.name_mark = MarkOf(*n);
    if (auto name = Name(*n, path + ".name")) { policy.name = *name; *ok = true; }
  } else {
    Missing(map, path, "name");
  }
  RenamedFrom(map, path, &policy.renamed_from, &policy.renamed_from_mark);
  if (auto r = map.Get("reserved")) {
    policy.reserved_mark = MarkOf(*r);
    if (auto q = Amount(*r, path + ".reserved", false)) policy.reserved = *q;
  }
  if (auto l = map.Get("limit")) {
    policy.limit_mark = MarkOf(*l);
    policy.limit = Amount(*l, path + ".limit", false);
  }
  if (auto d = map.Get("description")) {
    if (auto text = Text(*d, path + ".description")) policy.description = *text;
  }
  if (auto p = map.Get("paused")) {
    policy.paused_mark = MarkOf(*p);
    policy.paused = Bool(*p, path + ".paused", "paused").value_or(false);
  }
  if (auto p = map.Get("preemptible")) {
    policy.preemptible_mark = MarkOf(*p);
    policy.preemptible = Bool(*p, path + ".preemptible", "preemptible").value_or(true);
  }
  if (auto k = map.Get("kubernetes")) {
    policy.kubernetes = ReadPolicyKubernetes(*k, path + ".kubernetes", file_, findings_);
  }
  if (auto p = map.Get("profiles")) policy.profiles_mark = MarkOf(*p);
  auto entries = List(map, "profiles", path);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (auto entry = ReadPolicyProfile(entries[i], path + ".profiles[" + std::to_string(i) + "]")) {
      policy.profiles.push_back(*entry);
    }
  }
  return policy;
}

Config ConfigReader::Read(const YAML::Node& root) {
  Config config;
  if (!root.IsMap()) {
    Error("wrong-type", root.IsDefined() && !root.IsNull() ? MarkOf(root) : Mark{1, 1}, "",
          "the configuration must be a mapping with apiVersion: rescfg/v1 and "
          "kind: ResourceConfiguration, found " + DescribeNode(root));
    return config;
  }
  MapReader map(root, "", {"apiVersion", "kind", "enabled", "preemption", "kubernetes", "pools", "profiles", "policies"},
                file_, findings_);
  if (auto v = map.Get("apiVersion")) {
    auto text = Scalar(*v, "apiVersion");
    if (text && *text != "rescfg/v1") {
      Error("bad-api-version", MarkOf(*v), "apiVersion",
            "apiVersion must be rescfg/v1, not '" + *text + "'");
    }
  } else {
    Missing(map, "", "apiVersion");
  }
  if (auto k = map.Get("kind")) {
    auto text = Scalar(*k, "kind");
    if (text && *text != "ResourceConfiguration") {
      Error("bad-kind", MarkOf(*k), "kind",
            "kind must be ResourceConfiguration, not '" + *text + "'");
    }
  } else {
    Missing(map, "", "kind");
  }
  if (auto e = map.Get("enabled")) config.enabled = Bool(*e, "enabled", "enabled").value_or(true);
  if (auto p = map.Get("preemption")) config.preemption = ReadPreemptionSettings(*p, "preemption", file_, findings_);
  if (auto k = map.Get("kubernetes")) config.kubernetes = ReadKubernetesSettings(*k, "kubernetes", file_, findings_);
  bool ok = false;
  auto pools = List(map, "pools", "");
  for (size_t i = 0; i < pools.size(); ++i) {
    Pool pool = ReadPool(pools[i], i, &ok);
    if (ok) config.pools.push_back(std::move(pool));
  }
  auto profiles = List(map, "profiles", "");
  for (size_t i = 0; i < profiles.size(); ++i) {
    Profile profile = ReadProfile(profiles[i], i, &ok);
    if (ok) config.profiles.push_back(std::move(profile));
  }
  auto policies = List(map, "policies", "");
  for (size_t i = 0; i < policies.size(); ++i) {
    Policy policy = ReadPolicy(policies[i], i, &ok);
    if (ok) config.policies.push_back(std::move(policy));
  }
  return config;
}

LoadedConfig LoadConfigText(std::string_view text, const std::string& file) {
  LoadedConfig result;
  result.file = file;
  auto root = ParseYaml(text, file, &result.findings, CurrentLimits().config_nodes);
  if (!root) {
    result.unusable = true;
    return result;
  }
  ConfigReader reader(file, &result.findings);
  try {
    result.config = reader.Read(*root);
  } catch (const YAML::Exception& e) {
    // yaml-cpp can still throw on odd node graphs; never let it escape.
    result.findings.push_back({"yaml-syntax", Severity::kError, file, {e.mark.line + 1, e.mark.column + 1},
                               "", std::string("cannot read the document: ") + e.what(), ""});
    result.unusable = true;
  } catch (const std::exception& e) {
    result.findings.push_back({"yaml-syntax", Severity::kError, file, {1, 1}, "",
                               std::string("cannot read the document: ") + e.what(), ""});
    result.unusable = true;
  }
  return result;
}

LoadedConfig LoadConfigFile(const std::string& path) {
  Finding failure;
  auto text = ReadInputFile(path, InputKind::kConfig, &failure);
  if (!text) {
    LoadedConfig result;
    result.file = failure.file;
    result.unusable = true;
    result.findings.push_back(std::move(failure));
    return result;
  }
  return LoadConfigText(*text, DisplayName(path));
}

}  // namespace rescfg
