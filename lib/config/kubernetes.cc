#include "config/kubernetes.h"

#include <algorithm>
#include <charconv>
#include <optional>

#include "config/k8s_names.h"
#include "util/text_check.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

constexpr size_t kMaxItems = 8;  // nodeLabels, nodeTaints, tolerations (ResourceFlavor CRD)
const std::vector<std::string> kEffects = {"NoSchedule", "PreferNoSchedule", "NoExecute"};

/// Reads one block, reporting into the findings.
class Reader {
 public:
  Reader(const std::string& file, std::vector<Finding>* findings) : file_(file), findings_(findings) {}

  void Error(std::string code, Mark mark, std::string path, std::string message, std::string hint = "") {
    findings_->push_back({std::move(code), Severity::kError, file_, mark, std::move(path), std::move(message),
                          std::move(hint)});
  }
  void Bad(const YAML::Node& node, const std::string& path, std::string message, std::string hint = "") {
    Error("bad-kubernetes", MarkOf(node), path, std::move(message), std::move(hint));
  }

  /// A mapping read with its known keys; nullopt (and wrong-type) otherwise.
  std::optional<MapReader> Map(const YAML::Node& node, const std::string& path, std::vector<std::string> known,
                               const char* example) {
    if (!node.IsMap()) {
      Error("wrong-type", MarkOf(node), path, "expected a mapping such as " + std::string(example) +
                                                  ", found " + DescribeNode(node));
      return std::nullopt;
    }
    return MapReader(node, path, std::move(known), file_, findings_);
  }

  /// A scalar's text, without control characters; nullopt (reported) otherwise.
  std::optional<std::string> Text(const YAML::Node& node, const std::string& path) {
    if (!node.IsScalar()) {
      Error("wrong-type", MarkOf(node), path, "expected a string, found " + DescribeNode(node));
      return std::nullopt;
    }
    if (std::string problem = TextProblem(node.Scalar(), TextKind::kName); !problem.empty()) {
      Error("bad-text", MarkOf(node), path, "the text " + problem, TextProblemHint(node.Scalar()));
      return std::nullopt;
    }
    return node.Scalar();
  }

  /// Text that passes `check` (a *Problem function of k8s_names.h).
  template <typename Check>
  std::optional<std::string> Checked(const YAML::Node& node, const std::string& path, const char* what,
                                     Check check, const char* hint) {
    auto text = Text(node, path);
    if (!text) return std::nullopt;
    if (std::string problem = check(*text); !problem.empty()) {
      Bad(node, path, "'" + *text + "' is not " + what + ": " + problem, hint);
      return std::nullopt;
    }
    return text;
  }

  std::optional<std::string> Namespace(const YAML::Node& node, const std::string& path) {
    return Checked(node, path, "a Kubernetes namespace", Dns1123LabelProblem,
                   "lowercase letters, digits and '-', at most 63, e.g. team-dev");
  }
  std::optional<std::string> LabelKey(const YAML::Node& node, const std::string& path) {
    auto key = Checked(node, path, "a Kubernetes label key", LabelKeyProblem,
                       "a label key is [PREFIX/]NAME, e.g. nvidia.com/gpu.product");
    if (key && key->empty()) {
      Bad(node, path, "a label key must not be empty", "e.g. nvidia.com/gpu.product");
      return std::nullopt;
    }
    return key;
  }
  std::optional<std::string> LabelValue(const YAML::Node& node, const std::string& path) {
    return Checked(node, path, "a Kubernetes label value", LabelValueProblem,
                   "at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit");
  }

  std::optional<std::string> Effect(const YAML::Node& node, const std::string& path) {
    auto text = Text(node, path);
    if (!text) return std::nullopt;
    if (!IsTaintEffect(*text)) {
      Bad(node, path, "unknown taint effect '" + *text + "'", "use NoSchedule, PreferNoSchedule or NoExecute");
      return std::nullopt;
    }
    return text;
  }

  /// Reads `key` of `map` with `read` into `*out`: false when it is there
  /// but wrong (reported), true when it is fine or absent.
  bool Field(const MapReader& map, const char* key, const std::string& path,
             std::optional<std::string> (Reader::*read)(const YAML::Node&, const std::string&), std::string* out) {
    auto node = map.Get(key);
    if (!node) return true;
    auto value = (this->*read)(*node, path + "." + key);
    *out = value.value_or("");
    return value.has_value();
  }

  /// The list at `node`, at most kMaxItems long; empty (reported) otherwise.
  std::vector<YAML::Node> List(const YAML::Node& node, const std::string& path, const char* what) {
    std::vector<YAML::Node> items;
    if (!node.IsSequence()) {
      Error("wrong-type", MarkOf(node), path, "expected a list of " + std::string(what) + ", found " + DescribeNode(node));
      return items;
    }
    if (node.size() > kMaxItems) {
      Bad(node, path, "Kueue allows at most 8 " + std::string(what) + " on a ResourceFlavor, not " +
                          std::to_string(node.size()));
      return items;
    }
    for (const auto& item : node) items.push_back(item);
    return items;
  }

  std::vector<KubernetesLabel> NodeLabels(const YAML::Node& node, const std::string& path);
  std::vector<KubernetesTaint> Taints(const YAML::Node& node, const std::string& path);
  std::vector<KubernetesToleration> Tolerations(const YAML::Node& node, const std::string& path);
  std::optional<KubernetesToleration> ReadToleration(const YAML::Node& node, const std::string& path);

 private:
  const std::string& file_;
  std::vector<Finding>* findings_;
};

std::vector<KubernetesLabel> Reader::NodeLabels(const YAML::Node& node, const std::string& path) {
  std::vector<KubernetesLabel> labels;
  if (!node.IsMap()) {
    Error("wrong-type", MarkOf(node), path,
          "expected a mapping of label keys to values, found " + DescribeNode(node),
          "e.g. nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}");
    return labels;
  }
  if (node.size() > kMaxItems) {
    Bad(node, path, "Kueue allows at most 8 nodeLabels on a ResourceFlavor, not " + std::to_string(node.size()));
    return labels;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node key = it->first;
    const YAML::Node value = it->second;
    const std::string where = path + "[" + (key.IsScalar() ? key.Scalar() : "?") + "]";
    auto k = LabelKey(key, where);
    if (!k) continue;
    if (std::any_of(labels.begin(), labels.end(), [&](const KubernetesLabel& l) { return l.key == *k; })) {
      Error("duplicate-key", MarkOf(key), where, "label '" + *k + "' appears more than once", "keep one of them");
      continue;
    }
    if (value.IsNull()) {
      labels.push_back({*k, "", MarkOf(key)});
      continue;
    }
    if (auto v = LabelValue(value, where)) labels.push_back({*k, *v, MarkOf(key)});
  }
  std::sort(labels.begin(), labels.end(),
            [](const KubernetesLabel& a, const KubernetesLabel& b) { return a.key < b.key; });
  return labels;
}

std::vector<KubernetesTaint> Reader::Taints(const YAML::Node& node, const std::string& path) {
  std::vector<KubernetesTaint> taints;
  auto items = List(node, path, "nodeTaints");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i) + "]";
    auto map = Map(items[i], where, {"key", "value", "effect"}, "{key: dedicated, value: h100, effect: NoSchedule}");
    if (!map) continue;
    KubernetesTaint taint;
    taint.mark = MarkOf(items[i]);
    bool ok = Field(*map, "key", where, &Reader::LabelKey, &taint.key);
    ok &= Field(*map, "value", where, &Reader::LabelValue, &taint.value);
    ok &= Field(*map, "effect", where, &Reader::Effect, &taint.effect);
    if (!map->Get("key")) {
      Error("missing-field", map->map_mark(), where + ".key", "required field 'key' is missing");
      ok = false;
    }
    if (!map->Get("effect")) {
      Error("missing-field", map->map_mark(), where + ".effect", "required field 'effect' is missing",
            "use NoSchedule, PreferNoSchedule or NoExecute");
      ok = false;
    }
    if (!ok) continue;
    if (std::any_of(taints.begin(), taints.end(),
                    [&](const KubernetesTaint& t) { return t.key == taint.key && t.effect == taint.effect; })) {
      Bad(items[i], where, "a second taint with key '" + taint.key + "' and effect " + taint.effect,
          "taints must be unique by key and effect");
      continue;
    }
    taints.push_back(taint);
  }
  return taints;
}

std::optional<KubernetesToleration> Reader::ReadToleration(const YAML::Node& node, const std::string& path) {
  auto map = Map(node, path, {"key", "operator", "value", "effect", "tolerationSeconds"},
                 "{key: dedicated, operator: Equal, value: h100, effect: NoSchedule}");
  if (!map) return std::nullopt;
  KubernetesToleration t;
  t.mark = MarkOf(node);
  bool ok = true;
  if (auto k = map->Get("key"); k && !(k->IsScalar() && k->Scalar().empty())) {  // "" matches every key
    auto key = LabelKey(*k, path + ".key");
    ok &= key.has_value();
    t.key = key.value_or("");
  }
  if (auto o = map->Get("operator")) {
    auto op = Text(*o, path + ".operator");
    if (op && *op != "Equal" && *op != "Exists") {
      Bad(*o, path + ".operator", "unknown toleration operator '" + *op + "'", "use Equal or Exists");
      op.reset();
    }
    ok &= op.has_value();
    t.op = op.value_or("");
  }
  ok &= Field(*map, "value", path, &Reader::LabelValue, &t.value);
  if (t.op == "Exists" && !t.value.empty()) {
    Bad(*map->Get("value"), path + ".value", "a toleration with operator Exists takes no value", "remove the value");
    ok = false;
  }
  ok &= Field(*map, "effect", path, &Reader::Effect, &t.effect);
  if (auto s = map->Get("tolerationSeconds")) {
    const std::string text = s->IsScalar() ? s->Scalar() : "";
    int64_t seconds = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (!s->IsScalar() || IsQuoted(*s) || text.empty() || error != std::errc() || end != text.data() + text.size()) {
      Error("wrong-type", MarkOf(*s), path + ".tolerationSeconds",
            "tolerationSeconds must be a whole number of seconds, found " + DescribeNode(*s));
      ok = false;
    } else if (t.effect != "NoExecute") {
      Bad(*s, path + ".tolerationSeconds", "tolerationSeconds applies to effect NoExecute only",
          "set effect: NoExecute, or remove tolerationSeconds");
      ok = false;
    } else {
      t.seconds = seconds;
    }
  }
  if (ok && t.key.empty() && t.op != "Exists") {
    Bad(node, path, "a toleration without a key matches every taint and needs operator Exists",
        "give a key, or operator: Exists");
    ok = false;
  }
  if (!ok) return std::nullopt;
  return t;
}

std::vector<KubernetesToleration> Reader::Tolerations(const YAML::Node& node, const std::string& path) {
  std::vector<KubernetesToleration> tolerations;
  auto items = List(node, path, "tolerations");
  for (size_t i = 0; i < items.size(); ++i) {
    if (auto t = ReadToleration(items[i], path + "[" + std::to_string(i) + "]")) tolerations.push_back(*t);
  }
  return tolerations;
}

}  // namespace

bool IsTaintEffect(const std::string& effect) {
  return std::find(kEffects.begin(), kEffects.end(), effect) != kEffects.end();
}

bool Tolerates(const KubernetesToleration& toleration, const KubernetesTaint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (toleration.key.empty()) return toleration.op == "Exists";
  if (toleration.key != taint.key) return false;
  return toleration.op == "Exists" || toleration.value == taint.value;
}

KubernetesSettings ReadKubernetesSettings(const YAML::Node& node, const std::string& path,
                                          const std::string& file, std::vector<Finding>* findings) {
  KubernetesSettings settings;
  settings.mark = MarkOf(node);
  Reader reader(file, findings);
  auto map = reader.Map(node, path, {"namespace", "cohort", "poolLabel", "gpuResource", "ticksResource"},
                        "{namespace: ml, cohort: rescfg}");
  if (!map) return settings;
  if (auto n = map->Get("namespace")) {
    settings.namespace_mark = MarkOf(*n);
    settings.ns = reader.Namespace(*n, path + ".namespace").value_or("");
  }
  if (auto c = map->Get("cohort")) {
    settings.cohort_mark = MarkOf(*c);
    settings.cohort = reader.Checked(*c, path + ".cohort", "a Kueue Cohort name", Dns1123LabelProblem,
                                     "lowercase letters, digits and '-', at most 63, e.g. gpus")
                          .value_or("");
  }
  if (auto l = map->Get("poolLabel")) {
    settings.pool_label_mark = MarkOf(*l);
    settings.pool_label = reader.LabelKey(*l, path + ".poolLabel").value_or("");
  }
  const char* resource_hint = "e.g. nvidia.com/gpu";
  if (auto g = map->Get("gpuResource")) {
    settings.gpu_resource_mark = MarkOf(*g);
    settings.gpu_resource =
        reader.Checked(*g, path + ".gpuResource", "a Kubernetes resource name", ResourceNameProblem, resource_hint)
            .value_or("");
  }
  if (auto t = map->Get("ticksResource")) {
    settings.ticks_resource_mark = MarkOf(*t);
    settings.ticks_resource = reader.Checked(*t, path + ".ticksResource", "a Kubernetes resource name",
                                             ResourceNameProblem, "e.g. rescfg.io/gpu-ticks")
                                  .value_or("");
    const std::string gpu = settings.gpu_resource.empty() ? KubernetesSettings::kDefaultGpuResource
                                                          : settings.gpu_resource;
    if (!settings.ticks_resource.empty() && settings.ticks_resource == gpu) {
      reader.Bad(*t, path + ".ticksResource", "ticksResource must differ from gpuResource (" + gpu + ")",
                 "e.g. rescfg.io/gpu-ticks");
      settings.ticks_resource.clear();
    }
  }
  return settings;
}

PoolKubernetes ReadPoolKubernetes(const YAML::Node& node, const std::string& path, const std::string& file,
                                  std::vector<Finding>* findings) {
  PoolKubernetes k;
  k.mark = MarkOf(node);
  Reader reader(file, findings);
  auto map = reader.Map(node, path, {"nodeLabels", "nodeTaints", "tolerations"},
                        "{nodeLabels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}}");
  if (!map) return k;
  if (auto l = map->Get("nodeLabels")) {
    k.node_labels_mark = MarkOf(*l);
    k.node_labels = reader.NodeLabels(*l, path + ".nodeLabels");
  }
  if (auto t = map->Get("nodeTaints")) k.node_taints = reader.Taints(*t, path + ".nodeTaints");
  if (auto t = map->Get("tolerations")) k.tolerations = reader.Tolerations(*t, path + ".tolerations");
  return k;
}

PolicyKubernetes ReadPolicyKubernetes(const YAML::Node& node, const std::string& path, const std::string& file,
                                      std::vector<Finding>* findings) {
  PolicyKubernetes k;
  k.mark = MarkOf(node);
  Reader reader(file, findings);
  auto map = reader.Map(node, path, {"namespace"}, "{namespace: team-dev}");
  if (!map) return k;
  if (auto n = map->Get("namespace")) {
    k.namespace_mark = MarkOf(*n);
    k.ns = reader.Namespace(*n, path + ".namespace").value_or("");
  }
  return k;
}

}  // namespace rescfg
