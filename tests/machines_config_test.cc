/// `nodes` and `guaranteed` (rescfg(5), CONFIGURATION v3) through the loader, the canonical
/// form, the semantic diff and validation; a v2 configuration is unchanged.

#include <gtest/gtest.h>

#include "config/canonical.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "validate/load.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

const char* kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";

std::string Body(const std::string& pools, const std::string& extra_profiles = "") {
  return std::string(kHead) + "pools:\n" + pools +
         "profiles:\n  - {name: p, allotment: 1, links: [{pool: A}]}\n" + extra_profiles +
         "policies:\n  - {name: t, reserved: 4, profiles: [p]}\n";
}

std::vector<std::string> Codes(const std::string& text) {
  LoadedConfig loaded = LoadConfigText(text, "test.yaml");
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  std::vector<std::string> codes;
  for (const auto& f : loaded.findings) codes.push_back(f.code);
  return codes;
}

TEST(MachinesConfig, NodesWithoutResourcesMakeTheirProduct) {
  LoadedConfig loaded = LoadValidConfigText(Body("  - {name: A, nodes: {count: 4, gpus: 8}}\n"), "test.yaml");
  ASSERT_TRUE(loaded.config) << (loaded.findings.empty() ? "" : loaded.findings[0].message);
  const Pool& pool = loaded.config->pools[0];
  ASSERT_TRUE(pool.nodes);
  EXPECT_EQ(pool.nodes->count, 4);
  EXPECT_EQ(pool.nodes->gpus, 8);
  EXPECT_EQ(pool.resources, Quantity::Units(32));
  EXPECT_EQ(GuaranteedOf(pool), Quantity::Units(32));
}

TEST(MachinesConfig, BothGivenMustAgree) {
  EXPECT_EQ(Codes(Body("  - {name: A, nodes: {count: 4, gpus: 8}, resources: 32}\n")), std::vector<std::string>{});
  EXPECT_EQ(Codes(Body("  - {name: A, nodes: {count: 4, gpus: 8}, resources: 16}\n")),
            std::vector<std::string>{"nodes-resources-mismatch"});
}

TEST(MachinesConfig, NodesMustBeTwoPositiveWholeNumbers) {
  for (const char* nodes : {"{count: 0, gpus: 8}", "{count: 2.5, gpus: 8}", "{count: 2, gpus: -1}", "[4, 8]", "8",
                            "{count: 1000000, gpus: 2}"}) {
    auto codes = Codes(Body(std::string("  - {name: A, resources: 8, nodes: ") + nodes + "}\n"));
    ASSERT_FALSE(codes.empty()) << nodes;
    EXPECT_EQ(codes[0], "bad-nodes") << nodes;
  }
  auto codes = Codes(Body("  - {name: A, nodes: {count: 2, gpus: 4, cpus: 8}}\n"));
  ASSERT_FALSE(codes.empty());
  EXPECT_EQ(codes[0], "unknown-key");
}

TEST(MachinesConfig, GuaranteedIsAtMostResourcesAndNotNegative) {
  EXPECT_EQ(Codes(Body("  - {name: A, resources: 8, guaranteed: 8}\n")), std::vector<std::string>{});
  EXPECT_EQ(Codes(Body("  - {name: A, resources: 8, guaranteed: 9}\n")),
            std::vector<std::string>{"guaranteed-above-resources"});
  EXPECT_EQ(Codes(Body("  - {name: A, resources: 8, guaranteed: -1}\n")), std::vector<std::string>{"bad-quantity"});
}

TEST(MachinesConfig, ReservationsRestOnGuaranteedCapacityOnly) {
  // Team reserves 4: a pool of 8 with 4 guaranteed covers it, with 3 not.
  EXPECT_EQ(Codes(Body("  - {name: A, resources: 8, guaranteed: 4}\n")), std::vector<std::string>{});
  EXPECT_EQ(Codes(Body("  - {name: A, resources: 8, guaranteed: 3}\n")),
            std::vector<std::string>{"reservations-unsatisfiable"});
}

TEST(MachinesConfig, AFixedAllotmentMustFitSomeLinkedPoolsMachines) {
  const std::string pools = "  - {name: A, nodes: {count: 4, gpus: 8}}\n";
  auto with = [&](const char* allotment) {
    return Codes(Body(pools, std::string("  - {name: q, allotment: ") + allotment + ", links: [{pool: A}]}\n") +
                 "");
  };
  // A policy lists only p: q is unused (a warning) whatever its size.
  EXPECT_EQ(with("8"), std::vector<std::string>{"unused-profile"});
  EXPECT_EQ(with("16"), std::vector<std::string>{"unused-profile"});
  EXPECT_EQ(with("32"), std::vector<std::string>{"unused-profile"});
  EXPECT_EQ(with("12"), (std::vector<std::string>{"unused-profile", "allotment-fits-no-machine"}));
  EXPECT_EQ(with("40"), (std::vector<std::string>{"unused-profile", "allotment-too-large"}));
}

TEST(MachinesConfig, CanonicalFormKeepsNodesAndGuaranteedAndReadsBackTheSame) {
  LoadedConfig loaded = LoadValidConfigText(
      Body("  - {name: A, nodes: {count: 4, gpus: 8}, guaranteed: 16}\n  - {name: B, resources: 8, guaranteed: 8}\n"),
      "test.yaml");
  ASSERT_TRUE(loaded.config);
  const std::string canonical = WriteCanonical(*loaded.config);
  EXPECT_NE(canonical.find("    nodes: {count: 4, gpus: 8}\n    guaranteed: 16\n"), std::string::npos) << canonical;
  // A guaranteed capacity equal to resources is the default: not written.
  EXPECT_EQ(canonical.find("guaranteed: 8"), std::string::npos) << canonical;
  LoadedConfig again = LoadValidConfigText(canonical, "canonical.yaml");
  ASSERT_TRUE(again.config);
  EXPECT_EQ(again.config->pools[0], loaded.config->pools[0]);  // resources left out or written: the same pool
  EXPECT_EQ(GuaranteedOf(again.config->pools[1]), GuaranteedOf(loaded.config->pools[1]));
  EXPECT_EQ(WriteCanonical(*again.config), canonical);
}

TEST(MachinesConfig, DiffReportsNodesAndGuaranteedOnce) {
  auto load = [](const std::string& pools) {
    LoadedConfig loaded = LoadValidConfigText(Body(pools), "test.yaml");
    EXPECT_TRUE(loaded.config);
    return *loaded.config;
  };
  const Config a = load("  - {name: A, resources: 32}\n");
  const Config b = load("  - {name: A, nodes: {count: 4, gpus: 8}}\n");
  const Config c = load("  - {name: A, nodes: {count: 4, gpus: 8}, resources: 32, guaranteed: 32}\n");
  const Config d = load("  - {name: A, nodes: {count: 4, gpus: 8}, guaranteed: 8}\n");
  auto fields = [](const Config& x, const Config& y) {
    std::vector<std::string> out;
    for (const Change& change : DiffConfigs(x, y).changes) out.push_back(change.field);
    return out;
  };
  EXPECT_EQ(fields(a, b), std::vector<std::string>{"nodes"});
  EXPECT_EQ(fields(b, c), std::vector<std::string>{});  // written out or not, the same pools
  EXPECT_EQ(fields(c, d), std::vector<std::string>{"guaranteed"});
}

}  // namespace
}  // namespace rescfg
