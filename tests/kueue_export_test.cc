/// rescfg export kueue: names, quota split, priorities, requests and
/// objects, on small configurations and as properties of random ones.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "config/loader.h"
#include "export/kueue.h"
#include "export/kueue_names.h"
#include "export/kueue_objects.h"
#include "export/kueue_priority.h"
#include "export/kueue_quota.h"
#include "export/kueue_requests.h"
#include "export/kueue_rules.h"
#include "util/digest.h"
#include "validate/validate.h"

#include "support/kueue_export.h"

namespace rescfg {
namespace {

/// A valid configuration with defaults applied; fails the test otherwise.
Config Valid(const std::string& yaml) {
  auto config = testing::ValidConfig(yaml);
  EXPECT_TRUE(config.has_value()) << yaml;
  return config.value_or(Config{});
}

using Made = testing::KueueMade;
Made Make(const Config& config) { return testing::MakeKueue(config); }

/// "code line path" of each error.
std::vector<std::string> Errors(const ExportResult& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.errors) out.push_back(f.code + " " + std::to_string(f.mark.line) + " " + f.path);
  return out;
}

std::vector<std::string> Codes(const std::vector<ExportFinding>& findings) { return testing::FindingCodes(findings); }

bool Has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

const KueueCohort* CohortNamed(const KueueObjects& o, const std::string& name) {
  for (const auto& c : o.cohorts) if (c.meta.name == name) return &c;
  return nullptr;
}

/// Sum of the nominal quotas of `resource` per flavor over every Cohort and ClusterQueue.
std::map<std::string, int64_t> NominalPerFlavor(const KueueObjects& o, const std::string& resource) {
  std::map<std::string, int64_t> sums;
  auto add = [&](const std::vector<KueueResourceGroup>& groups) {
    for (const auto& g : groups)
      for (const auto& f : g.flavors)
        for (const auto& r : f.resources) if (r.name == resource) sums[f.name] += r.nominal;
  };
  for (const auto& c : o.cohorts) add(c.groups);
  for (const auto& q : o.cluster_queues) add(q.groups);
  return sums;
}

const char* kWorked = R"(pools:
  - {name: Bare Metal Low END GPUs, resources: 8, queue: bare-metal}
  - name: H100 Half a Superpod
    resources: 8
    queue: h100-pool
    executionPriority: [2xGPU, 4xGPU, 8xGPU, 0.5xGPU]
profiles:
  - {name: 0.5xGPU, allotment: 0.5, links: [{pool: H100 Half a Superpod, queue: h100-half}]}
  - {name: 2xGPU, allotment: 2, links: [{pool: H100 Half a Superpod, queue: h100-2gpu}]}
  - name: 4xGPU
    allotment: 4
    links:
      - {pool: Bare Metal Low END GPUs}
      - {pool: H100 Half a Superpod, queue: h100-4gpu}
    policyPriority: [Dev, Research]
  - {name: 8xGPU, allotment: 8, links: [{pool: H100 Half a Superpod, queue: h100-8gpu}]}
policies:
  - {name: Dev, reserved: 8, limit: 16, profiles: [{profile: 4xGPU, queue: dev-4gpu}]}
  - {name: Research, reserved: 8, limit: 16, profiles: [4xGPU]}
  - {name: Sandbox, profiles: [0.5xGPU, 2xGPU, 8xGPU]}
)";

TEST(KueueExport, WorkedExampleSplitsEachReservationOntoOnePool) {
  Made m = Make(Valid(kWorked));
  ASSERT_TRUE(m.errors.empty());
  const KueueCohort* dev = CohortNamed(m.objects, "dev");
  const KueueCohort* research = CohortNamed(m.objects, "research");
  ASSERT_TRUE(dev && research);
  EXPECT_EQ(dev->parent, "rescfg");
  ASSERT_EQ(dev->groups.size(), 1u);
  ASSERT_EQ(dev->groups[0].flavors.size(), 1u);
  EXPECT_EQ(dev->groups[0].flavors[0].name, "bare-metal-low-end-gpus");  // its first link
  EXPECT_EQ(dev->groups[0].flavors[0].resources[0].nominal, 8);
  EXPECT_FALSE(dev->groups[0].flavors[0].resources[0].borrowing_limit);  // 16 >= 8 + 8: no cap
  EXPECT_EQ(research->groups[0].flavors[0].name, "h100-half-a-superpod");
  for (auto [flavor, sum] : NominalPerFlavor(m.objects, "nvidia.com/gpu")) EXPECT_EQ(sum, 8) << flavor;
  auto codes = Codes(m.findings);
  EXPECT_TRUE(Has(codes, "kueue-split-reservation policies[Dev].reserved"));
  EXPECT_TRUE(Has(codes, "kueue-split-reservation policies[Research].reserved"));
  EXPECT_TRUE(Has(codes, "kueue-execution-priority pools[H100 Half a Superpod].executionPriority"));
  EXPECT_TRUE(Has(codes, "kueue-policy-priority profiles[4xGPU].policyPriority"));
  EXPECT_TRUE(Has(codes, "kueue-fraction profiles[0.5xGPU].links[0]"));
  for (const char* p : {"0.5xGPU", "2xGPU", "4xGPU", "8xGPU"}) {
    EXPECT_TRUE(Has(codes, std::string("kueue-fixed-allotment profiles[") + p + "].allotment")) << p;
  }
  EXPECT_FALSE(Has(codes, "kueue-split-limit policies[Dev].limit"));
  EXPECT_EQ(codes.size(), 9u);
  EXPECT_TRUE(KueueRuleViolations(m.objects).empty());
}

TEST(KueueExport, ClusterQueuesListTheirProfilesPoolsInLinkOrder) {
  Made m = Make(Valid(kWorked));
  ASSERT_EQ(m.objects.cluster_queues.size(), 5u);
  const KueueClusterQueue& dev = m.objects.cluster_queues[0];
  EXPECT_EQ(dev.meta.name, "dev-4gpu");
  EXPECT_EQ(dev.cohort, "dev");
  EXPECT_EQ(dev.ns, "default");
  ASSERT_EQ(dev.groups.size(), 1u);
  EXPECT_EQ(dev.groups[0].flavors[0].name, "bare-metal-low-end-gpus");
  EXPECT_EQ(dev.groups[0].flavors[1].name, "h100-half-a-superpod");
  EXPECT_EQ(dev.groups[0].flavors[0].resources[0].nominal, 0);  // all quota lives in the Cohorts
  EXPECT_EQ(m.objects.cluster_queues[1].meta.name, "research-4xgpu");
  EXPECT_EQ(m.objects.local_queues[1].meta.name, "research-4xgpu");
  EXPECT_EQ(m.objects.local_queues[1].cluster_queue, "research-4xgpu");
}

TEST(KueueExport, PriorityClassesFollowExecutionThenPolicyPriority) {
  Made m = Make(Valid(kWorked));
  std::map<std::string, int64_t> value;
  for (const auto& c : m.objects.priority_classes) value[c.meta.name] = c.value;
  // H100 favours 2xGPU, 4xGPU, 8xGPU, 0.5xGPU; 4xGPU favours Dev over Research.
  EXPECT_GT(value["sandbox-2xgpu"], value["dev-4gpu"]);
  EXPECT_GT(value["dev-4gpu"], value["research-4xgpu"]);
  EXPECT_GT(value["research-4xgpu"], value["sandbox-8xgpu"]);
  EXPECT_GT(value["sandbox-8xgpu"], value["sandbox-0-5xgpu"]);
  EXPECT_EQ(value["sandbox-0-5xgpu"], 1);
}

TEST(KueueExport, ConflictingExecutionPrioritiesAreMergedAndSaid) {
  Config c = Valid(R"(pools:
  - {name: A, resources: 8, executionPriority: [x, y]}
  - {name: B, resources: 8, executionPriority: [y, x]}
profiles:
  - {name: x, allotment: 1, links: [{pool: A}, {pool: B, queue: bx}]}
  - {name: y, allotment: 2, links: [{pool: A, queue: ay}, {pool: B}]}
policies:
  - {name: t, profiles: [x, y]}
)");
  std::vector<ExportFinding> findings;
  KueuePriorities p = RankPolicyQueues(c, {{"t-x", "t-y"}}, &findings);
  EXPECT_EQ(p.profile_order, (std::vector<std::string>{"x", "y"}));  // file order breaks the cycle
  EXPECT_GT(p.values[0][0], p.values[0][1]);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].message.find("otherwise"), std::string::npos);  // A agrees with the order
  EXPECT_NE(findings[1].message.find("other pools order these profiles otherwise"), std::string::npos);
}

TEST(KueueExport, NamesThatCollideAreErrorsAtTheLaterName) {
  ExportResult r = ExportKueue(Valid(R"(pools:
  - {name: gpus, resources: 8}
  - {name: GPUs, resources: 8}
profiles:
  - {name: p, allotment: 1, links: [{pool: gpus}, {pool: GPUs}]}
policies:
  - {name: Team A, profiles: [{profile: p, queue: team-a}]}
  - {name: team-a, profiles: [{profile: p, queue: Team A}]}
  - {name: rescfg, profiles: []}
)"),
                               "c.yaml");
  EXPECT_EQ(Errors(r), (std::vector<std::string>{"kueue-name-collision 5 pools[GPUs].name",
                                                 "kueue-name-collision 10 policies[team-a].name",
                                                 "kueue-name-collision 10 policies[team-a].profiles[0].queue",
                                                 "kueue-name-collision 11 policies[rescfg].name"}));
  EXPECT_TRUE(r.text.empty());
  EXPECT_NE(r.errors[0].message.find("pool 'GPUs' and pool 'gpus' (line 4) both become the Kueue ResourceFlavor 'gpus'"),
            std::string::npos)
      << r.errors[0].message;
  EXPECT_NE(r.errors[3].hint.find("kubernetes.cohort"), std::string::npos);
}

TEST(KueueExport, LongNamesThatTheCutMakesOneGetAStableHashSuffix) {
  const std::string long_a = std::string(70, 'a') + "1", long_b = std::string(70, 'a') + "2";
  auto config = [&](const std::string& first, const std::string& second) {
    return Valid("pools:\n  - {name: " + first + ", resources: 8}\n  - {name: " + second +
                 ", resources: 8}\nprofiles:\n  - {name: p, allotment: 1, links: [{pool: " + long_a + "}, {pool: " +
                 long_b + "}]}\npolicies:\n  - {name: t, profiles: [p]}\n");
  };
  Made m = Make(config(long_a, long_b));
  ASSERT_TRUE(m.errors.empty()) << m.errors[0].message;
  const std::string a = std::string(54, 'a') + "-" + Sha256Hex(long_a).substr(0, 8);
  const std::string b = std::string(54, 'a') + "-" + Sha256Hex(long_b).substr(0, 8);
  EXPECT_EQ(m.objects.flavors[0].meta.name, a);
  EXPECT_EQ(m.objects.flavors[1].meta.name, b);
  EXPECT_TRUE(KueueRuleViolations(m.objects).empty());
  // Stable: the suffix depends on the name, not on its place.
  Made swapped = Make(config(long_b, long_a));
  ASSERT_TRUE(swapped.errors.empty());
  EXPECT_EQ(swapped.objects.flavors[0].meta.name, b);
  EXPECT_EQ(swapped.objects.flavors[1].meta.name, a);
  // A long name alone is only cut.
  Made one = Make(Valid("pools:\n  - {name: " + long_a + ", resources: 8}\nprofiles:\n  - {name: p, allotment: 1, "
                        "links: [{pool: " + long_a + "}]}\npolicies:\n  - {name: t, profiles: [p]}\n"));
  ASSERT_TRUE(one.errors.empty());
  EXPECT_EQ(one.objects.flavors[0].meta.name, std::string(63, 'a'));
  // Long policy queues the cut makes one: suffixed too, and the export is whole.
  const std::string qa = std::string(64, 'q') + "-a", qb = std::string(64, 'q') + "-b";
  ExportResult queues = ExportKueue(Valid("pools:\n  - {name: g, resources: 8}\nprofiles:\n  - {name: p, allotment: 1, "
                                          "links: [{pool: g}]}\n  - {name: r, allotment: 2, links: [{pool: g}]}\n"
                                          "policies:\n  - {name: t, profiles: [{profile: p, queue: " + qa +
                                          "}, {profile: r, queue: " + qb + "}]}\n"),
                                    "c.yaml");
  EXPECT_TRUE(Errors(queues).empty());
  EXPECT_NE(queues.text.find(std::string(54, 'q') + "-" + Sha256Hex(qa).substr(0, 8)), std::string::npos);
}

TEST(KueueExport, ANameWithoutLettersOrDigitsCannotBeExported) {
  ExportResult r = ExportKueue(Valid("pools:\n  - {name: \"\xE7\xA0\x94\", resources: 8}\nprofiles:\n"
                                     "  - {name: p, allotment: 1, links: [{pool: \"\xE7\xA0\x94\"}]}\n"
                                     "policies:\n  - {name: t, profiles: [p]}\n"),
                               "c.yaml");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].code, "kueue-bad-name");
  EXPECT_EQ(r.errors[0].mark.line, 4);
}

TEST(KueueExport, FractionalPoolSizeNeedsTicks) {
  const std::string yaml = R"(pools:
  - {name: a, resources: 7.5}
profiles:
  - {name: p, allotment: 1, links: [{pool: a}]}
policies:
  - {name: t, reserved: 2.5, limit: 3.5, profiles: [p]}
)";
  ExportResult r = ExportKueue(Valid(yaml), "c.yaml");
  EXPECT_EQ(Errors(r), (std::vector<std::string>{"kueue-fractional-pool 4 pools[a].resources"}));
  EXPECT_TRUE(r.text.empty());
  // Counted in ticks, every amount is exact.
  Made m = Make(Valid("kubernetes: {ticksResource: rescfg.io/gpu-ticks}\n" + yaml));
  ASSERT_TRUE(m.errors.empty());
  const KueueCohort* t = CohortNamed(m.objects, "t");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->groups[0].covered, (std::vector<std::string>{"rescfg.io/gpu-ticks"}));
  EXPECT_EQ(t->groups[0].flavors[0].resources[0].nominal, 25 * Quantity::kTicksPerUnit / 10);
  EXPECT_EQ(*t->groups[0].flavors[0].resources[0].borrowing_limit, Quantity::kTicksPerUnit);
  EXPECT_EQ(NominalPerFlavor(m.objects, "rescfg.io/gpu-ticks")["a"], 75 * Quantity::kTicksPerUnit / 10);
  EXPECT_FALSE(Has(Codes(m.findings), "kueue-rounded policies[t].reserved"));
}

TEST(KueueExport, WholeGpusRoundFractionalReservationsAndLimitsDown) {
  Made m = Make(Valid(R"(pools:
  - {name: a, resources: 8}
profiles:
  - {name: p, allotment: 1, links: [{pool: a}]}
policies:
  - {name: t, reserved: 2.5, limit: 3.5, profiles: [p]}
)"));
  ASSERT_TRUE(m.errors.empty());
  auto codes = Codes(m.findings);
  EXPECT_TRUE(Has(codes, "kueue-rounded policies[t].reserved"));
  EXPECT_TRUE(Has(codes, "kueue-rounded policies[t].limit"));
  const KueueCohort* t = CohortNamed(m.objects, "t");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->groups[0].flavors[0].resources[0].nominal, 2);
  EXPECT_EQ(*t->groups[0].flavors[0].resources[0].borrowing_limit, 1);  // 3 - 2: one pool, no split
  EXPECT_FALSE(Has(codes, "kueue-split-limit policies[t].limit"));
}

TEST(KueueExport, ALimitBelowItsPoolsIsSplitInLinkOrder) {
  Made m = Make(Valid(R"(pools:
  - {name: A, resources: 8}
  - {name: B, resources: 8}
  - {name: C, resources: 4}
profiles:
  - {name: p, allotment: 1, links: [{pool: A}, {pool: B}]}
  - {name: q, allotment: 6, links: [{pool: C, queue: cq}, {pool: A, queue: aq}]}
  - {name: r, allotment: 1, links: [{pool: C}]}
policies:
  - {name: t, reserved: 2, limit: 12, profiles: [p, q]}
  - {name: u, reserved: 3, profiles: [r, p]}
)"));
  ASSERT_TRUE(m.errors.empty());
  const KueuePolicyQuota& t = m.quota.policies[0];
  EXPECT_TRUE(t.capped);
  EXPECT_EQ(t.reserved, (std::vector<int64_t>{2, 0, 0}));
  EXPECT_EQ(t.cap, (std::vector<int64_t>{8, 4, 0}));  // C is linked but its jobs never fit there
  auto codes = Codes(m.findings);
  EXPECT_TRUE(Has(codes, "kueue-split-limit policies[t].limit"));
  EXPECT_TRUE(Has(codes, "kueue-split-reservation policies[t].reserved"));  // it reaches A and B
  const KueueCohort* cohort = CohortNamed(m.objects, "t");
  ASSERT_TRUE(cohort);
  ASSERT_EQ(cohort->groups[0].flavors.size(), 3u);
  EXPECT_EQ(*cohort->groups[0].flavors[1].resources[0].borrowing_limit, 4);
  auto sums = NominalPerFlavor(m.objects, "nvidia.com/gpu");
  EXPECT_EQ(sums, (std::map<std::string, int64_t>{{"a", 8}, {"b", 8}, {"c", 4}}));
}

// --- --pool: only the pools on Kubernetes ---------------------------------

const char* kMixed = R"(pools:
  - {name: gpu-k8s, resources: 8}
  - {name: metal, nodes: {count: 2, gpus: 8}}
profiles:
  - {name: 2xGPU, allotment: 2, links: [{pool: metal, queue: m2}, {pool: gpu-k8s, queue: k2}]}
  - {name: metal-only, allotment: 1, links: [{pool: metal, queue: m1}]}
policies:
  - {name: dev, reserved: 8, limit: 8, profiles: [2xGPU, metal-only]}
  - {name: ops, profiles: [metal-only]}
)";

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(KueuePools, OnlyTheNamedPoolsAndWhatReachesThem) {
  const Config config = Valid(kMixed);
  const ExportResult r = ExportKueue(config, "c.yaml", {{"gpu-k8s"}});
  ASSERT_TRUE(r.errors.empty()) << Errors(r).front();
  EXPECT_EQ(Count(r.text, "kind: ResourceFlavor"), 1u);
  EXPECT_EQ(Count(r.text, "rescfg.io/pool: \"metal\""), 0u) << r.text;
  // Queues whose profile links no exported pool, and a policy left without one, are not Kueue's.
  EXPECT_EQ(Count(r.text, "kind: LocalQueue"), 1u);
  EXPECT_EQ(Count(r.text, "dev-metal-only"), 0u);
  EXPECT_EQ(Count(r.text, "rescfg.io/policy: \"ops\""), 0u);
}

TEST(KueuePools, ALimitAppliesWholeOverTheExportedPools) {
  const Config config = Valid(kMixed);
  // Every pool: the limit 8 is split over both, and starves dev/2xGPU in gpu-k8s.
  const ExportResult all = ExportKueue(config, "c.yaml");
  EXPECT_TRUE(Has(Codes(all.findings), "kueue-split-limit policies[dev].limit"));
  EXPECT_TRUE(Has(Codes(all.findings), "kueue-starved-queue policies[dev].limit"));
  // gpu-k8s alone: the whole limit over its 8 GPUs caps nothing, nothing is split or starved.
  const ExportResult some = ExportKueue(config, "c.yaml", {{"gpu-k8s"}});
  EXPECT_FALSE(Has(Codes(some.findings), "kueue-split-limit policies[dev].limit"));
  EXPECT_FALSE(Has(Codes(some.findings), "kueue-starved-queue policies[dev].limit"));
  EXPECT_EQ(Count(some.text, "borrowingLimit"), 0u) << some.text;
  // A limit below the exported pools is still split over them alone.
  Config low = config;
  low.policies[0].reserved = Quantity::Units(2);
  low.policies[0].limit = Quantity::Units(4);
  low.pools[1].nodes->count = 1;
  low.pools[1].resources = Quantity::Units(8);
  const ExportResult capped = ExportKueue(low, "c.yaml", {{"gpu-k8s"}});
  ASSERT_TRUE(capped.errors.empty());
  // Its reservation rests on metal (its first link): the whole limit is gpu-k8s's to borrow.
  EXPECT_NE(capped.text.find("nominalQuota: 0, borrowingLimit: 4}"), std::string::npos) << capped.text;
}

TEST(KueuePools, AReservationKeepsItsShareOfTheFullSplit) {
  const Config config = Valid(kMixed);
  // The full split puts dev's 8 on metal (its first link): gpu-k8s carries none of it.
  const ExportResult r = ExportKueue(config, "c.yaml", {{"gpu-k8s"}});
  ASSERT_TRUE(r.errors.empty());
  const ExportFinding* said = nullptr;
  for (const ExportFinding& f : r.findings) if (f.code == "kueue-split-reservation") said = &f;
  ASSERT_TRUE(said);
  EXPECT_EQ(said->path, "policies[dev].reserved");
  EXPECT_NE(said->message.find("8 in 'metal' rests on pools this export leaves out"), std::string::npos)
      << said->message;
  EXPECT_NE(said->message.find("the exported pools carry 0 of it"), std::string::npos) << said->message;
  // metal alone carries it all: no such finding.
  const ExportResult metal = ExportKueue(config, "c.yaml", {{"metal"}});
  ASSERT_TRUE(metal.errors.empty());
  for (const ExportFinding& f : metal.findings) EXPECT_EQ(f.message.find("leaves out"), std::string::npos) << f.message;
}

TEST(KueuePools, EveryPoolNamedIsTheWholeExport) {
  const Config config = Valid(kMixed);
  const ExportResult all = ExportKueue(config, "c.yaml");
  const ExportResult named = ExportKueue(config, "c.yaml", {{"metal", "gpu-k8s", "metal"}});
  EXPECT_EQ(named.text, all.text);
  EXPECT_EQ(Codes(named.findings), Codes(all.findings));
}

TEST(KueuePools, AnUnknownPoolIsAnError) {
  const ExportResult r = ExportKueue(Valid(kMixed), "c.yaml", {{"gpu-k8s", "gpu-k9s"}});
  ASSERT_EQ(Errors(r), std::vector<std::string>{"unknown-pool 0 pools"});
  EXPECT_NE(r.errors[0].message.find("--pool 'gpu-k9s'"), std::string::npos);
  EXPECT_EQ(r.errors[0].hint, "did you mean 'gpu-k8s'?");
  EXPECT_TRUE(r.text.empty());
}

}  // namespace
}  // namespace rescfg
