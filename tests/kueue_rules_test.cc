/// Kueue's own rules (kueue_rules.h), each broken once on purpose in a
/// small set of objects that is otherwise valid.

#include <gtest/gtest.h>

#include <functional>

#include "export/kueue_rules.h"

namespace rescfg {
namespace {

KueueResourceGroup Group(std::vector<std::string> flavors, std::vector<std::string> covered = {"nvidia.com/gpu"}) {
  KueueResourceGroup g;
  g.covered = covered;
  for (const auto& f : flavors) {
    KueueFlavorQuotas q{f, {}};
    for (const auto& r : covered) q.resources.push_back({r, 0, {}, {}});
    g.flavors.push_back(q);
  }
  return g;
}

/// A root Cohort, a team Cohort, two flavors, one queue of each kind.
KueueObjects Base() {
  KueueObjects o;
  o.flavors.push_back({{"a", "", {{"rescfg.io/pool", "A"}}}, {{"rescfg.io/pool", "a", {}}}, {}, {}});
  o.flavors.push_back({{"b", "", {}}, {}, {}, {}});
  o.cohorts.push_back({{"rescfg", "", {}}, "", {Group({"a", "b"})}});
  o.cohorts.push_back({{"team", "", {}}, "rescfg", {Group({"a"})}});
  KueueClusterQueue cq;
  cq.meta = {"team-q", "", {}};
  cq.cohort = "team";
  cq.ns = "default";
  cq.groups = {Group({"a", "b"})};
  o.cluster_queues.push_back(cq);
  o.local_queues.push_back({{"team-q", "default", {}}, "team-q"});
  o.priority_classes.push_back({{"team-q", "", {}}, 1, "rescfg"});
  return o;
}

/// The violations after `change`; the base has none.
std::vector<std::string> After(const std::function<void(KueueObjects&)>& change) {
  KueueObjects o = Base();
  change(o);
  return KueueRuleViolations(o);
}

void ExpectBroken(const std::function<void(KueueObjects&)>& change, const std::string& part) {
  auto problems = After(change);
  ASSERT_FALSE(problems.empty()) << "expected a problem with '" << part << "'";
  bool found = false;
  for (const auto& p : problems) found |= p.find(part) != std::string::npos;
  EXPECT_TRUE(found) << problems.front();
}

TEST(KueueRules, TheBaseIsValid) { EXPECT_EQ(KueueRuleViolations(Base()), std::vector<std::string>{}); }

TEST(KueueRules, NamesAreUniqueDns1123LabelsOfAtMost63) {
  ExpectBroken([](KueueObjects& o) { o.flavors[1].meta.name = "B"; }, "not a DNS-1123 label");
  ExpectBroken([](KueueObjects& o) { o.cluster_queues[0].meta.name = std::string(64, 'q'); }, "longer than 63");
  ExpectBroken([](KueueObjects& o) { o.cohorts[1].meta.name = "rescfg"; }, "a second Cohort");
  ExpectBroken([](KueueObjects& o) { o.local_queues.push_back(o.local_queues[0]); }, "a second LocalQueue");
  // The same LocalQueue name in another namespace is fine.
  EXPECT_TRUE(After([](KueueObjects& o) {
                o.local_queues.push_back(o.local_queues[0]);
                o.local_queues[1].meta.ns = "other";
              }).empty());
  ExpectBroken([](KueueObjects& o) { o.local_queues[0].meta.ns = "Other"; }, "namespace");
  ExpectBroken([](KueueObjects& o) { o.flavors[0].meta.annotations.push_back({"bad key", "x"}); }, "annotation key");
}

TEST(KueueRules, ReferencesResolveAndCohortsFormATree) {
  ExpectBroken([](KueueObjects& o) { o.cluster_queues[0].cohort = "nobody"; }, "is no Cohort");
  ExpectBroken([](KueueObjects& o) { o.cohorts[1].parent = "nobody"; }, "its parent nobody is no Cohort");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].parent = "team"; }, "cycle");
  ExpectBroken([](KueueObjects& o) { o.cluster_queues[0].groups = {Group({"a", "c"})}; }, "no ResourceFlavor");
  ExpectBroken([](KueueObjects& o) { o.local_queues[0].cluster_queue = "other"; }, "is missing");
}

TEST(KueueRules, ResourceGroups) {
  ExpectBroken([](KueueObjects& o) {
    o.cohorts[0].groups.clear();
    for (int i = 0; i < 17; ++i) o.cohorts[0].groups.push_back(Group({}, {"x.io/r" + std::to_string(i)}));
  }, "17 resourceGroups; Kueue allows 16");
  ExpectBroken([](KueueObjects& o) {
    std::vector<std::string> names;
    for (int i = 0; i < 65; ++i) {
      names.push_back("f" + std::to_string(i));
      o.flavors.push_back({{names.back(), "", {}}, {}, {}, {}});
    }
    o.cohorts[0].groups = {Group(names)};
  }, "lists 65 flavors; Kueue allows 1 to 64");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups = {Group({})}; }, "lists 0 flavors");
  ExpectBroken([](KueueObjects& o) {
    std::vector<std::string> covered;
    for (int i = 0; i < 65; ++i) covered.push_back("x.io/r" + std::to_string(i));
    o.cohorts[0].groups = {Group({"a"}, covered)};
  }, "covers 65 resources");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups = {Group({"a"}, {})}; }, "covers 0 resources");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups[0].flavors[0].resources.pop_back(); },
               "lists 0 resources, not the 1 covered");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups[0].flavors[0].resources[0].name = "amd.com/gpu"; },
               "is not the covered");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups = {Group({"a"}), Group({"b"})}; },
               "resource nvidia.com/gpu is in two resource groups");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups = {Group({"a"}), Group({"a"}, {"amd.com/gpu"})}; },
               "flavor a is in two resource groups");
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups = {Group({"a"}, {"bad resource"})}; }, "resource 'bad resource'");
  ExpectBroken([](KueueObjects& o) {
    std::vector<std::string> covered;
    for (int i = 0; i < 9; ++i) covered.push_back("x.io/r" + std::to_string(i));
    std::vector<std::string> names;
    for (int i = 0; i < 60; ++i) {
      names.push_back("f" + std::to_string(i));
      o.flavors.push_back({{names.back(), "", {}}, {}, {}, {}});
    }
    o.cohorts[0].groups = {Group(names, covered)};
  }, "more than 512 flavor-resource pairs");
  ExpectBroken([](KueueObjects& o) {
    o.cluster_queues[0].groups.clear();
    for (int g = 0; g < 5; ++g) {
      std::vector<std::string> names;
      for (int i = 0; i < 52; ++i) {
        names.push_back("g" + std::to_string(g) + "f" + std::to_string(i));
        o.flavors.push_back({{names.back(), "", {}}, {}, {}, {}});
      }
      o.cluster_queues[0].groups.push_back(Group(names, {"x.io/r" + std::to_string(g)}));
    }
  }, "more than 256 flavors in all");
  ExpectBroken([](KueueObjects& o) {
    o.cluster_queues[0].groups.clear();
    for (int g = 0; g < 5; ++g) {
      std::vector<std::string> covered;
      for (int i = 0; i < 52; ++i) covered.push_back("x.io/g" + std::to_string(g) + "r" + std::to_string(i));
      o.flavors.push_back({{"h" + std::to_string(g), "", {}}, {}, {}, {}});
      o.cluster_queues[0].groups.push_back(Group({"h" + std::to_string(g)}, covered));
    }
  }, "more than 256 covered resources in all");
}

TEST(KueueRules, QuotaLimits) {
  ExpectBroken([](KueueObjects& o) { o.cohorts[1].groups[0].flavors[0].resources[0].nominal = -1; }, "negative nominalQuota");
  ExpectBroken([](KueueObjects& o) { o.cohorts[1].groups[0].flavors[0].resources[0].borrowing_limit = -1; },
               "negative borrowingLimit");
  // Borrowing and lending only with a cohort, or a parent for a Cohort.
  ExpectBroken([](KueueObjects& o) { o.cohorts[0].groups[0].flavors[0].resources[0].borrowing_limit = 1; },
               "a borrowingLimit needs a parentName");
  ExpectBroken([](KueueObjects& o) {
    o.cluster_queues[0].cohort.clear();
    o.cluster_queues[0].groups[0].flavors[0].resources[0].borrowing_limit = 0;
  }, "a borrowingLimit needs a cohortName");
  ExpectBroken([](KueueObjects& o) {
    o.cluster_queues[0].cohort.clear();
    o.cluster_queues[0].groups[0].flavors[0].resources[0].lending_limit = 0;
  }, "a lendingLimit needs a cohortName");
  EXPECT_TRUE(After([](KueueObjects& o) { o.cohorts[1].groups[0].flavors[0].resources[0].borrowing_limit = 3; }).empty());
  ExpectBroken([](KueueObjects& o) {
    auto& r = o.cluster_queues[0].groups[0].flavors[0].resources[0];
    r.nominal = 2;
    r.lending_limit = 3;
  }, "lendingLimit above nominalQuota");
}

TEST(KueueRules, ResourceFlavors) {
  ExpectBroken([](KueueObjects& o) {
    for (int i = 0; i < 9; ++i) o.flavors[1].node_labels.push_back({"k" + std::to_string(i), "v", {}});
  }, "more than 8 nodeLabels");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].node_labels.push_back({"bad key", "v", {}}); }, "label key");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].node_labels.push_back({"k", "-v", {}}); }, "label value");
  ExpectBroken([](KueueObjects& o) {
    for (int i = 0; i < 9; ++i) o.flavors[1].node_taints.push_back({"k" + std::to_string(i), "", "NoSchedule", {}});
  }, "more than 8 nodeTaints");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].node_taints.push_back({"k", "", "Never", {}}); }, "taint effect");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].node_taints.push_back({"", "", "NoSchedule", {}}); }, "taint key");
  ExpectBroken([](KueueObjects& o) {
    o.flavors[1].node_taints.push_back({"k", "a", "NoSchedule", {}});
    o.flavors[1].node_taints.push_back({"k", "b", "NoSchedule", {}});
  }, "two taints with key k");
  ExpectBroken([](KueueObjects& o) {
    for (int i = 0; i < 9; ++i) o.flavors[1].tolerations.push_back({"k" + std::to_string(i), "Exists", "", "", {}, {}});
  }, "more than 8 tolerations");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].tolerations.push_back({"", "Equal", "", "", {}, {}}); },
               "without a key needs operator Exists");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].tolerations.push_back({"k", "Lt", "1", "", {}, {}}); },
               "toleration operator 'Lt'");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].tolerations.push_back({"k", "Exists", "v", "", {}, {}}); },
               "operator Exists has a value");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].tolerations.push_back({"k", "Equal", "v", "NoSchedule", 5, {}}); },
               "tolerationSeconds without effect NoExecute");
  ExpectBroken([](KueueObjects& o) { o.flavors[1].tolerations.push_back({"k", "Equal", "v", "Sometimes", {}, {}}); },
               "toleration effect");
  EXPECT_TRUE(After([](KueueObjects& o) {
                o.flavors[1].tolerations.push_back({"", "Exists", "", "", {}, {}});
                o.flavors[1].tolerations.push_back({"k", "Equal", "v", "NoExecute", 30, {}});
              }).empty());
}

TEST(KueueRules, WorkloadPriorityClasses) {
  ExpectBroken([](KueueObjects& o) { o.priority_classes[0].value = int64_t{1} << 31; }, "not a 32-bit integer");
  ExpectBroken([](KueueObjects& o) { o.priority_classes[0].description = std::string(2049, 'd'); },
               "longer than 2048");
  ExpectBroken([](KueueObjects& o) { o.cluster_queues[0].ns = "-x"; }, "namespaceSelector");
}

}  // namespace
}  // namespace rescfg
