/// rescfg export kueue: the objects (flavors, stop policies, queueing,
/// shards of the shared quota, MIG and ticks) and properties of the export
/// of random valid configurations.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "config/loader.h"
#include "export/kueue.h"
#include "export/kueue_names.h"
#include "export/kueue_objects.h"
#include "export/kueue_priority.h"
#include "export/kueue_quota.h"
#include "export/kueue_requests.h"
#include "export/kueue_rules.h"
#include "validate/validate.h"

#include "support/kueue_export.h"

namespace rescfg {
namespace {

std::optional<Config> Parse(const std::string& yaml) { return testing::ValidConfig(yaml); }

Config Valid(const std::string& yaml) {
  auto c = Parse(yaml);
  EXPECT_TRUE(c.has_value()) << yaml;
  return c.value_or(Config{});
}

using Made = testing::KueueMade;
Made Make(const Config& config) { return testing::MakeKueue(config); }

std::vector<std::string> Codes(const std::vector<ExportFinding>& findings) { return testing::FindingCodes(findings); }

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

const char* kTwoPools = R"(pools:
  - {name: A, resources: 8}
  - {name: B, resources: 8, paused: true}
profiles:
  - {name: p, allotment: 1, queueing: StrictFIFO, links: [{pool: B}, {pool: A}]}
policies:
  - {name: t, profiles: [p]}
  - {name: u, paused: true, profiles: [p]}
)";

TEST(KueueObjects, PausedPoolsAreTaintedAndPausedPoliciesHeld) {
  Made m = Make(Valid(kTwoPools));
  ASSERT_TRUE(m.errors.empty());
  EXPECT_TRUE(m.objects.flavors[0].node_taints.empty());
  EXPECT_EQ(m.objects.flavors[1].node_taints,
            (std::vector<KubernetesTaint>{{"rescfg.io/paused", "true", "NoSchedule", {}}}));
  ASSERT_EQ(m.objects.cluster_queues.size(), 2u);
  EXPECT_FALSE(m.objects.cluster_queues[0].hold);
  EXPECT_TRUE(m.objects.cluster_queues[1].hold);
  EXPECT_EQ(m.objects.cluster_queues[0].queueing, Queueing::kStrictFIFO);
  EXPECT_EQ(m.objects.flavors[0].node_labels, (std::vector<KubernetesLabel>{{"rescfg.io/pool", "a", {}}}));
}

TEST(KueueObjects, AProfileWhosePoolsAreAllPausedIsHeld) {
  Made m = Make(Valid(R"(pools:
  - {name: A, resources: 8}
  - {name: B, resources: 8, paused: true}
profiles:
  - {name: p, allotment: 1, links: [{pool: B}]}
  - {name: q, allotment: 2, links: [{pool: B, queue: bq}, {pool: A, queue: aq}]}
policies:
  - {name: t, profiles: [p, q]}
)"));
  ASSERT_EQ(m.objects.cluster_queues.size(), 2u);
  EXPECT_TRUE(m.objects.cluster_queues[0].hold);   // nothing of p may start
  EXPECT_FALSE(m.objects.cluster_queues[1].hold);  // q may still use A
}

TEST(KueueObjects, DisabledHoldsEveryClusterQueue) {
  Made m = Make(Valid(std::string("enabled: false\n") + kTwoPools));
  ASSERT_EQ(m.objects.cluster_queues.size(), 2u);
  for (const auto& q : m.objects.cluster_queues) EXPECT_TRUE(q.hold) << q.meta.name;
}

TEST(KueueObjects, APausedPoolWithEightTaintsCannotBePaused) {
  std::string taints;
  for (int i = 0; i < 8; ++i) taints += std::string(i ? ", " : "") + "{key: t" + std::to_string(i) + ", effect: NoSchedule}";
  Made m = Make(Valid("pools:\n  - name: a\n    resources: 8\n    paused: true\n    kubernetes: {nodeTaints: [" + taints +
                      "]}\nprofiles:\n  - {name: p, allotment: 1, links: [{pool: a}]}\npolicies:\n  - {name: t, profiles: [p]}\n"));
  ASSERT_EQ(m.errors.size(), 1u);
  EXPECT_EQ(m.errors[0].code, "kueue-too-many-taints");
  EXPECT_EQ(m.errors[0].mark.line, 6);
}

TEST(KueueObjects, APauseTheFlavorToleratesItselfIsAFinding) {
  Made m = Make(Valid("pools:\n  - name: a\n    resources: 8\n    paused: true\n"
                      "    kubernetes: {tolerations: [{operator: Exists}]}\n"
                      "profiles:\n  - {name: p, allotment: 1, links: [{pool: a}]}\npolicies:\n  - {name: t, profiles: [p]}\n"));
  EXPECT_TRUE(m.errors.empty());
  EXPECT_TRUE(Has(Codes(m.findings), "kueue-paused-pool pools[a].paused"));
}

TEST(KueueObjects, NamespacesComeFromThePolicyOrTheTopLevel) {
  Made m = Make(Valid(R"(kubernetes: {namespace: ml}
pools:
  - {name: a, resources: 8}
profiles:
  - {name: p, allotment: 1, links: [{pool: a}]}
policies:
  - {name: t, profiles: [p], kubernetes: {namespace: team-t}}
  - {name: u, profiles: [p]}
)"));
  ASSERT_EQ(m.objects.local_queues.size(), 2u);
  EXPECT_EQ(m.objects.local_queues[0].meta.ns, "team-t");
  EXPECT_EQ(m.objects.cluster_queues[0].ns, "team-t");
  EXPECT_EQ(m.objects.local_queues[1].meta.ns, "ml");
}

std::string ManyPools(int pools, int linked) {
  std::string yaml = "pools:\n";
  for (int i = 0; i < pools; ++i) yaml += "  - {name: p" + std::to_string(i) + ", resources: 1}\n";
  yaml += "profiles:\n  - name: x\n    allotment: 1\n    links:\n";
  for (int i = 0; i < linked; ++i) yaml += "      - {pool: p" + std::to_string(i) + "}\n";
  return yaml + "policies:\n  - {name: t, profiles: [x]}\n";
}

TEST(KueueObjects, AProfileOfMoreThan64PoolsCannotBeAClusterQueue) {
  Made ok = Make(Valid(ManyPools(64, 64)));
  EXPECT_TRUE(ok.errors.empty());
  EXPECT_TRUE(KueueRuleViolations(ok.objects).empty());
  Made m = Make(Valid(ManyPools(65, 65)));
  ASSERT_EQ(m.errors.size(), 1u);
  EXPECT_EQ(m.errors[0].code, "kueue-too-many-flavors");
  EXPECT_EQ(m.errors[0].path, "profiles[x].links");
}

TEST(KueueObjects, MoreThan64PoolsShareTheirQuotaThroughChildCohorts) {
  Made m = Make(Valid(ManyPools(130, 3)));
  ASSERT_TRUE(m.errors.empty());
  EXPECT_EQ(m.names.shared, (std::vector<std::string>{"rescfg-pools-1", "rescfg-pools-2", "rescfg-pools-3"}));
  ASSERT_GE(m.objects.cohorts.size(), 4u);
  EXPECT_TRUE(m.objects.cohorts[0].groups.empty());  // the root
  EXPECT_EQ(m.objects.cohorts[1].parent, "rescfg");
  EXPECT_EQ(m.objects.cohorts[1].groups[0].flavors.size(), 64u);
  EXPECT_EQ(m.objects.cohorts[3].groups[0].flavors.size(), 2u);
  EXPECT_TRUE(KueueRuleViolations(m.objects).empty());
}

const char* kMig = R"(pools:
  - name: a
    resources: 8
    gpuFractions: {mig: {"1/7": nvidia.com/mig-1g.10gb, "1/2": nvidia.com/mig-3g.40gb}}
  - name: b
    resources: 2
    gpuFractions: {mig: {"1/2": nvidia.com/mig-1g.10gb}}
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: a, queue: a7}]}
  - {name: whole, allotment: 1, links: [{pool: a}, {pool: b}]}
  - {name: half, allotment: 0.5, links: [{pool: b, queue: b2}]}
policies:
  - {name: t, profiles: [seventh, whole, half]}
)";

TEST(KueueObjects, CountedInGpusMigUnitsHaveQuotaOfTheirOwn) {
  Made m = Make(Valid(kMig));
  ASSERT_TRUE(m.errors.empty());
  EXPECT_EQ(m.requests.pool_resources[0], (std::vector<std::string>{"nvidia.com/gpu", "nvidia.com/mig-1g.10gb"}));
  ASSERT_EQ(m.requests.pool_mig[0].size(), 1u);
  EXPECT_EQ(m.requests.pool_mig[0][0].units, 56);  // 8 GPUs of 1/7
  EXPECT_EQ(m.requests.pool_mig[1][0].units, 4);   // 2 GPUs of 1/2
  const auto codes = Codes(m.findings);
  EXPECT_TRUE(Has(codes, "kueue-fraction pools[a].gpuFractions"));
  EXPECT_TRUE(Has(codes, "kueue-fraction pools[b].gpuFractions"));
  EXPECT_TRUE(KueueRuleViolations(m.objects).empty());
  const KueueClusterQueue& whole = m.objects.cluster_queues[1];
  EXPECT_EQ(whole.groups[0].covered, (std::vector<std::string>{"nvidia.com/gpu", "nvidia.com/mig-1g.10gb"}));
}

TEST(KueueObjects, CountedInTicksMigUnitsAreExactThroughTransformations) {
  Made m = Make(Valid(std::string("kubernetes: {ticksResource: rescfg.io/gpu-ticks}\n") + kMig));
  ASSERT_TRUE(m.errors.empty());
  const auto codes = Codes(m.findings);
  EXPECT_FALSE(Has(codes, "kueue-fraction pools[a].gpuFractions"));
  EXPECT_TRUE(Has(codes, "kueue-transformation pools[b].gpuFractions"));  // mig-1g.10gb is 1/7 and 1/2
  ASSERT_EQ(m.requests.transformations.size(), 3u);
  EXPECT_EQ(m.requests.transformations[0].input, "nvidia.com/gpu");
  EXPECT_EQ(m.requests.transformations[0].ticks, 9009000000);
  EXPECT_EQ(m.requests.transformations[1].ticks, 1287000000);  // 1/7
  EXPECT_EQ(m.requests.transformations[2].ticks, 4504500000);  // mig-3g.40gb: 1/2
  for (const auto& f : m.objects.cluster_queues[0].groups[0].flavors) {
    EXPECT_EQ(f.resources.size(), 1u);
  }
}

TEST(KueueObjects, FractionsPodsCannotRequestAreFindings) {
  Made m = Make(Valid(R"(pools:
  - {name: a, resources: 8}
profiles:
  - {name: half, allotment: 0.5, links: [{pool: a, queue: ah}]}
  - {name: big, allotment: 1.5, links: [{pool: a, queue: ab}]}
  - {name: dyn, allotment: 0.5, dynamic: {parameter: runtime.gpus}, links: [{pool: a, queue: ad}]}
policies:
  - {name: t, profiles: [half, big, dyn]}
)"));
  const auto codes = Codes(m.findings);
  EXPECT_TRUE(Has(codes, "kueue-fraction profiles[half].links[0]"));
  EXPECT_TRUE(Has(codes, "kueue-fraction profiles[big].links[0]"));
  EXPECT_FALSE(Has(codes, "kueue-fraction profiles[dyn].links[0]"));
  EXPECT_FALSE(Has(codes, "kueue-fixed-allotment profiles[dyn].allotment"));  // Kueue charges what each job asks
  EXPECT_TRUE(Has(codes, "kueue-fixed-allotment profiles[half].allotment"));
}

/// Some of 0..n-1, in a random order.
std::vector<int> Subset(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) if (*rc::gen::arbitrary<bool>()) out.push_back(i);
  for (size_t i = out.size(); i > 1; --i) std::swap(out[i - 1], out[static_cast<size_t>(*rc::gen::inRange<int>(0, static_cast<int>(i)))]);
  return out;
}

/// A random configuration that validates: whole pools, whole, MIG and
/// dynamic profiles, reservations and limits, pauses, sometimes ticks.
Config GenExportable() {
  std::string yaml;
  if (*rc::gen::inRange(0, 4) == 0) yaml += "kubernetes: {ticksResource: rescfg.io/gpu-ticks}\n";
  if (*rc::gen::inRange(0, 6) == 0) yaml += "enabled: false\n";
  const int pools = *rc::gen::inRange(1, 6), profiles = *rc::gen::inRange(1, 5), policies = *rc::gen::inRange(0, 6);
  yaml += "pools:\n";
  for (int i = 0; i < pools; ++i) {
    yaml += "  - {name: Pool " + std::to_string(i) + ", resources: " + std::to_string(*rc::gen::inRange(1, 17));
    if (*rc::gen::inRange(0, 3) == 0) yaml += ", gpuFractions: {mig: {\"1/7\": nvidia.com/mig-1g.10gb}}";
    if (*rc::gen::inRange(0, 5) == 0) yaml += ", paused: true";
    yaml += "}\n";
  }
  yaml += "profiles:\n";
  for (int j = 0; j < profiles; ++j) {
    const int kind = *rc::gen::inRange(0, 4);
    const std::string allotment = kind == 0 ? "\"1/7\"" : std::to_string(*rc::gen::inRange(1, 5));
    yaml += "  - name: prof" + std::to_string(j) + "\n    allotment: " + allotment + "\n";
    if (kind == 3) yaml += "    dynamic: {parameter: runtime.gpus}\n";
    if (*rc::gen::arbitrary<bool>()) yaml += "    queueing: StrictFIFO\n";
    yaml += "    links:\n";
    std::vector<int> order = Subset(pools);
    if (order.empty()) order.push_back(*rc::gen::inRange(0, pools));
    for (int p : order) {
      yaml += "      - {pool: Pool " + std::to_string(p) + ", queue: q" + std::to_string(j) + "-" + std::to_string(p) + "}\n";
    }
  }
  yaml += "policies:\n";
  for (int k = 0; k < policies; ++k) {
    yaml += "  - name: Team " + std::to_string(k) + "\n";
    const int reserved = *rc::gen::inRange(0, 6), extra = *rc::gen::inRange(0, 20);
    if (reserved) yaml += "    reserved: " + std::to_string(reserved) + "\n";
    if (*rc::gen::arbitrary<bool>()) yaml += "    limit: " + std::to_string(reserved + extra) + "\n";
    if (*rc::gen::inRange(0, 5) == 0) yaml += "    paused: true\n";
    yaml += "    profiles: [";
    std::vector<int> use = Subset(profiles);
    for (size_t u = 0; u < use.size(); ++u) yaml += (u ? ", prof" : "prof") + std::to_string(use[u]);
    yaml += "]\n";
  }
  auto config = Parse(yaml);
  RC_PRE(config.has_value());
  return *config;
}

RC_GTEST_PROP(KueueObjects, TheExportOfAValidConfigurationKeepsTheContract, ()) {
  const Config config = GenExportable();
  Made m = Make(config);
  RC_ASSERT(m.errors.empty());
  for (const std::string& problem : KueueRuleViolations(m.objects)) RC_FAIL(problem);
  const KueueUnits& units = m.requests.units;
  // Every pool's size is quota somewhere: per flavor the nominal quotas add up to it.
  std::map<std::string, int64_t> sums;
  auto add = [&](const std::vector<KueueResourceGroup>& groups) {
    for (const auto& g : groups)
      for (const auto& f : g.flavors)
        for (const auto& r : f.resources) if (r.name == units.resource) sums[f.name] += r.nominal;
  };
  for (const auto& c : m.objects.cohorts) add(c.groups);
  for (const auto& q : m.objects.cluster_queues) add(q.groups);
  RC_ASSERT(m.objects.flavors.size() == config.pools.size());
  for (size_t p = 0; p < config.pools.size(); ++p) {
    RC_ASSERT(sums[m.names.flavors[p]] == QuotaUnits(config.pools[p].resources, units));
  }
  // A policy's Cohort holds its reservation; its caps add up to its limit.
  size_t queue = 0;
  std::set<int64_t> values;
  for (size_t i = 0; i < config.policies.size(); ++i) {
    const Policy& policy = config.policies[i];
    const KueuePolicyQuota& q = m.quota.policies[i];
    RC_ASSERT(std::accumulate(q.reserved.begin(), q.reserved.end(), int64_t{0}) == QuotaUnits(policy.reserved, units));
    int64_t reachable = 0;
    for (size_t k = 0; k < q.reach.size(); ++k) {
      if (q.reached[k]) reachable += QuotaUnits(config.pools[q.reach[k]].resources, units);
    }
    RC_ASSERT(q.capped == (policy.limit && QuotaUnits(*policy.limit, units) < reachable));
    if (q.capped) {
      RC_ASSERT(std::accumulate(q.cap.begin(), q.cap.end(), int64_t{0}) == QuotaUnits(*policy.limit, units));
      for (size_t k = 0; k < q.cap.size(); ++k) {
        RC_ASSERT(q.cap[k] >= q.reserved[k]);
        RC_ASSERT(q.cap[k] <= QuotaUnits(config.pools[q.reach[k]].resources, units));
      }
    }
    const size_t reached = static_cast<size_t>(std::count(q.reached.begin(), q.reached.end(), true));
    RC_ASSERT(Has(Codes(m.findings), "kueue-split-reservation policies[" + policy.name + "].reserved") ==
              (!policy.reserved.is_zero() && reached >= 2));
    // A policy queue's ClusterQueue lists exactly its profile's pools, in link order.
    for (const PolicyProfile& entry : policy.profiles) {
      const Profile* profile = config.FindProfile(entry.profile);
      const KueueClusterQueue& cq = m.objects.cluster_queues.at(queue);
      RC_ASSERT(cq.groups.size() == 1u);
      std::vector<std::string> listed, links;
      for (const auto& f : cq.groups[0].flavors) listed.push_back(f.name);
      for (const Link& l : profile->links) {
        for (size_t p = 0; p < config.pools.size(); ++p) {
          if (config.pools[p].name == l.pool) links.push_back(m.names.flavors[p]);
        }
      }
      RC_ASSERT(listed == links);
      const bool all_paused = std::all_of(profile->links.begin(), profile->links.end(),
                                          [&](const Link& l) { return config.FindPool(l.pool)->paused; });
      RC_ASSERT(cq.hold == (!config.enabled || policy.paused || all_paused));
      RC_ASSERT(cq.queueing == profile->queueing);
      RC_ASSERT(m.objects.local_queues.at(queue).cluster_queue == cq.meta.name);
      values.insert(m.objects.priority_classes.at(queue).value);
      ++queue;
    }
  }
  RC_ASSERT(queue == m.objects.cluster_queues.size());
  RC_ASSERT(values.size() == queue);  // one value per policy queue
  // Same input, same output.
  ExportResult a = ExportKueue(config, "c.yaml"), b = ExportKueue(config, "c.yaml");
  RC_ASSERT(a.text == b.text);
  RC_ASSERT(!a.text.empty());
}

}  // namespace
}  // namespace rescfg
