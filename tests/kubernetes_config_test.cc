/// The `kubernetes:` blocks of a configuration: reading, checks with their
/// positions, defaults, canonical form and diff.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "config/canonical.h"
#include "config/k8s_names.h"
#include "config/kubernetes.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "gitops_config_gen.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

const char* kHead = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
)";
const char* kTail = R"(profiles:
  - {name: p, allotment: 1, links: [{pool: a}]}
policies:
  - name: t
    profiles: [p]
)";

/// "code line:col path" of every finding of a configuration with `pools`.
std::vector<std::string> FindingsOf(const std::string& top, const std::string& pools, const std::string& policy = "") {
  std::string text = std::string(kHead) + top + "pools:\n" + pools + kTail + policy;
  LoadedConfig loaded = LoadConfigText(text, "k.yaml");
  std::vector<std::string> out;
  for (const Finding& f : loaded.findings) {
    out.push_back(f.code + " " + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) + " " + f.path);
  }
  return out;
}

Config Load(const std::string& text) {
  LoadedConfig loaded = LoadConfigText(text, "k.yaml");
  EXPECT_TRUE(loaded.config.has_value());
  if (!loaded.config) return {};
  ValidateConfig(*loaded.config, "k.yaml", &loaded.findings);
  for (const Finding& f : loaded.findings) ADD_FAILURE() << f.path << ": " << f.message;
  ApplyDefaults(*loaded.config);
  return *loaded.config;
}

TEST(K8sNames, Dns1123LabelForms) {
  EXPECT_EQ(Dns1123Label("H100 Half a Superpod"), "h100-half-a-superpod");
  EXPECT_EQ(Dns1123Label("Research/4xGPU"), "research-4xgpu");
  EXPECT_EQ(Dns1123Label("0.5xGPU"), "0-5xgpu");
  EXPECT_EQ(Dns1123Label("  --Team__A--  "), "team-a");
  EXPECT_EQ(Dns1123Label("\xC3\x89quipe"), "quipe");
  EXPECT_EQ(Dns1123Label("\xE7\xA0\x94\xE7\xA9\xB6"), "");
  EXPECT_EQ(Dns1123Label(std::string(62, 'a') + "-b"), std::string(62, 'a'));  // cut, no '-' at the end
  EXPECT_EQ(Dns1123Label(std::string(80, 'x')).size(), 63u);
  EXPECT_EQ(Dns1123LabelProblem("team-dev"), "");
  EXPECT_NE(Dns1123LabelProblem("Team"), "");
  EXPECT_NE(Dns1123LabelProblem(std::string(64, 'a')), "");
  EXPECT_EQ(LabelValueProblem(""), "");
  EXPECT_EQ(LabelValueProblem("NVIDIA-H100_80GB.x"), "");
  EXPECT_NE(LabelValueProblem("-x"), "");
  EXPECT_NE(LabelValueProblem(std::string(64, 'a')), "");
}

TEST(KubernetesConfig, ReadsEveryField) {
  Config c = Load(std::string(kHead) + R"(kubernetes:
  namespace: ml
  cohort: gpus
  poolLabel: example.com/pool
  gpuResource: amd.com/gpu
  ticksResource: example.com/ticks
pools:
  - name: a
    resources: 8
    kubernetes:
      nodeLabels: {zone: b, tier: 1, empty: ""}
      nodeTaints: [{key: dedicated, value: a, effect: NoSchedule}]
      tolerations:
        - {key: dedicated, value: a}
        - {operator: Exists}
        - {key: x, operator: Exists, effect: NoExecute, tolerationSeconds: -5}
)" + kTail + R"(    kubernetes: {namespace: team-t}
)");
  EXPECT_EQ(c.kubernetes.ns, "ml");
  EXPECT_EQ(c.kubernetes.cohort, "gpus");
  EXPECT_EQ(c.kubernetes.pool_label, "example.com/pool");
  EXPECT_EQ(c.kubernetes.gpu_resource, "amd.com/gpu");
  EXPECT_EQ(c.kubernetes.ticks_resource, "example.com/ticks");
  const PoolKubernetes& k = c.pools[0].kubernetes;
  ASSERT_TRUE(k.node_labels);
  ASSERT_EQ(k.node_labels->size(), 3u);  // sorted by key
  EXPECT_EQ((*k.node_labels)[0].key, "empty");
  EXPECT_EQ((*k.node_labels)[1].key, "tier");
  EXPECT_EQ((*k.node_labels)[1].value, "1");
  ASSERT_EQ(k.node_taints.size(), 1u);
  EXPECT_EQ(k.node_taints[0].effect, "NoSchedule");
  ASSERT_EQ(k.tolerations.size(), 3u);
  EXPECT_EQ(k.tolerations[0].op, "Equal");  // the default
  EXPECT_EQ(k.tolerations[1].key, "");
  EXPECT_EQ(k.tolerations[2].seconds, -5);
  EXPECT_EQ(c.policies[0].kubernetes.ns, "team-t");
}

TEST(KubernetesConfig, Defaults) {
  Config c = Load(std::string(kHead) + "pools:\n  - {name: a, resources: 8}\n" + kTail);
  EXPECT_EQ(c.kubernetes.ns, "default");
  EXPECT_EQ(c.kubernetes.cohort, "rescfg");
  EXPECT_EQ(c.kubernetes.pool_label, "rescfg.io/pool");
  EXPECT_EQ(c.kubernetes.gpu_resource, "nvidia.com/gpu");
  EXPECT_EQ(c.kubernetes.ticks_resource, "");
  ASSERT_TRUE(c.pools[0].kubernetes.node_labels);
  EXPECT_EQ(*c.pools[0].kubernetes.node_labels,
            (std::vector<KubernetesLabel>{{"rescfg.io/pool", "a", {}}}));
  Pool pool;
  pool.name = "H100 Half a Superpod";
  EXPECT_EQ(DefaultNodeLabels(c, pool), (std::vector<KubernetesLabel>{{"rescfg.io/pool", "h100-half-a-superpod", {}}}));
  EXPECT_EQ(c.policies[0].kubernetes.ns, "default");
  // The defaults are the canonical form of no block at all.
  EXPECT_EQ(WriteCanonical(c).find("kubernetes"), std::string::npos);
}

TEST(KubernetesConfig, BadValuesAreErrorsAtTheirPosition) {
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n      nodeLabels: {\"bad key\": x, ok: \"-no\"}\n"),
            (std::vector<std::string>{"bad-kubernetes 7:20 pools[a].kubernetes.nodeLabels[bad key]",
                                      "bad-kubernetes 7:38 pools[a].kubernetes.nodeLabels[ok]"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n      nodeTaints: [{key: x, effect: Never}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:37 pools[a].kubernetes.nodeTaints[0].effect"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n      nodeTaints: [{key: x}]\n"),
            (std::vector<std::string>{"missing-field 7:20 pools[a].kubernetes.nodeTaints[0].effect"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n      tolerations: [{operator: Lt}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:32 pools[a].kubernetes.tolerations[0].operator"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n      tolerations: [{value: x}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:21 pools[a].kubernetes.tolerations[0]"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n"
                           "      tolerations: [{key: k, operator: Exists, value: v}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:55 pools[a].kubernetes.tolerations[0].value"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n"
                           "      tolerations: [{key: k, effect: NoSchedule, tolerationSeconds: 5}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:69 pools[a].kubernetes.tolerations[0].tolerationSeconds"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n"
                           "      tolerations: [{key: k, effect: NoExecute, tolerationSeconds: \"5\"}]\n"),
            (std::vector<std::string>{"wrong-type 7:68 pools[a].kubernetes.tolerations[0].tolerationSeconds"}));
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n"
                           "      nodeTaints: [{key: k, effect: NoSchedule}, {key: k, value: v, effect: NoSchedule}]\n"),
            (std::vector<std::string>{"bad-kubernetes 7:50 pools[a].kubernetes.nodeTaints[1]"}));
  std::string nine = "      nodeLabels: {";
  for (int i = 0; i < 9; ++i) nine += (i ? ", k" : "k") + std::to_string(i) + ": v";
  EXPECT_EQ(FindingsOf("", "  - name: a\n    resources: 8\n    kubernetes:\n" + nine + "}\n"),
            (std::vector<std::string>{"bad-kubernetes 7:19 pools[a].kubernetes.nodeLabels"}));
  EXPECT_EQ(FindingsOf("kubernetes: {namespace: Team_A, cohort: x., poolLabel: \"a b\", gpuResource: /gpu}\n",
                       "  - {name: a, resources: 8}\n"),
            (std::vector<std::string>{"bad-kubernetes 3:25 kubernetes.namespace", "bad-kubernetes 3:41 kubernetes.cohort",
                                      "bad-kubernetes 3:56 kubernetes.poolLabel",
                                      "bad-kubernetes 3:76 kubernetes.gpuResource"}));
  EXPECT_EQ(FindingsOf("kubernetes: {ticksResource: nvidia.com/gpu}\n", "  - {name: a, resources: 8}\n"),
            (std::vector<std::string>{"bad-kubernetes 3:29 kubernetes.ticksResource"}));
  EXPECT_EQ(FindingsOf("kubernetes: {namespaces: x}\n", "  - {name: a, resources: 8}\n"),
            (std::vector<std::string>{"unknown-key 3:14 kubernetes.namespaces"}));
  EXPECT_EQ(FindingsOf("", "  - {name: a, resources: 8}\n", "    kubernetes: {namespace: \"team dev\"}\n"),
            (std::vector<std::string>{"bad-kubernetes 10:29 policies[t].kubernetes.namespace"}));
  EXPECT_EQ(FindingsOf("", "  - {name: a, resources: 8, kubernetes: [x]}\n"),
            (std::vector<std::string>{"wrong-type 4:41 pools[a].kubernetes"}));
}

TEST(KubernetesConfig, TolerationsMatchTaintsAsKubernetesDoes) {
  const KubernetesTaint taint{"rescfg.io/paused", "true", "NoSchedule", {}};
  EXPECT_TRUE(Tolerates({"", "Exists", "", "", {}, {}}, taint));
  EXPECT_TRUE(Tolerates({"rescfg.io/paused", "Exists", "", "NoSchedule", {}, {}}, taint));
  EXPECT_TRUE(Tolerates({"rescfg.io/paused", "Equal", "true", "", {}, {}}, taint));
  EXPECT_FALSE(Tolerates({"rescfg.io/paused", "Equal", "false", "", {}, {}}, taint));
  EXPECT_FALSE(Tolerates({"rescfg.io/paused", "Exists", "", "NoExecute", {}, {}}, taint));
  EXPECT_FALSE(Tolerates({"other", "Exists", "", "", {}, {}}, taint));
}

RC_GTEST_PROP(KubernetesConfig, DiffIsEmptyExactlyWhenCanonicalTextIsEqual, ()) {
  const Config a = *testing::GenConfig();
  Config b = a;
  switch (*rc::gen::inRange(0, 6)) {
    case 0: b.kubernetes.ns += "-x"; break;
    case 1: b.kubernetes.pool_label = b.kubernetes.pool_label == "x.io/p" ? "y.io/p" : "x.io/p"; break;
    case 2:
      if (!b.pools.empty()) b.pools[0].kubernetes.node_labels = std::vector<KubernetesLabel>{{"z.io/z", "z", {}}};
      break;
    case 3: if (!b.pools.empty()) b.pools[0].kubernetes.tolerations.clear(); break;
    case 4: if (!b.policies.empty()) b.policies[0].kubernetes.ns = "other"; break;
    default: break;
  }
  RC_ASSERT(DiffConfigs(a, b).empty() == (WriteCanonical(a) == WriteCanonical(b)));
}

TEST(KubernetesConfig, DiffNamesEachChangeOnce) {
  const std::string pools = "pools:\n  - {name: a, resources: 8}\n";
  Config a = Load(std::string(kHead) + pools + kTail);
  Config b = Load(std::string(kHead) + "kubernetes: {namespace: ml, poolLabel: x.io/p}\n" +
                  "pools:\n  - {name: a, resources: 8, kubernetes: {nodeTaints: [{key: k, effect: NoSchedule}]}}\n" +
                  kTail + "    kubernetes: {namespace: team-t}\n");
  EXPECT_EQ(RenderDiffText(DiffConfigs(a, b)),
            "~ kubernetes.namespace: \"default\" -> \"ml\"\n"
            "~ kubernetes.poolLabel: \"rescfg.io/pool\" -> \"x.io/p\"\n"
            "~ pool \"a\": kubernetes.nodeTaints: \"[]\" -> \"[k=:NoSchedule]\"\n"
            "~ policy \"t\": kubernetes.namespace: \"default\" -> \"team-t\"\n"
            "4 changes: 0 added, 0 removed, 4 changed.\n");
  // Spelled-out defaults are no change.
  Config spelled = Load(std::string(kHead) + "kubernetes: {namespace: default, cohort: rescfg}\n" +
                        "pools:\n  - {name: a, resources: 8, kubernetes: {nodeLabels: {rescfg.io/pool: a}}}\n" + kTail +
                        "    kubernetes: {namespace: default}\n");
  EXPECT_TRUE(DiffConfigs(a, spelled).empty());
  EXPECT_EQ(WriteCanonical(a), WriteCanonical(spelled));
}

}  // namespace
}  // namespace rescfg
