/// rescfg export kueue with and without `preemption` (docs/kueue.md): ClusterQueues reclaim
/// what they lend only with it, and what Kueue cannot say of it is a finding.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "export/kueue.h"

#include "support/kueue_export.h"

namespace rescfg {
namespace {

const std::string kBody = R"(pools: [{name: A, resources: 8}, {name: B, resources: 8}]
profiles: [{name: four, allotment: 4, links: [A, B]}]
policies:
  - {name: Dev, reserved: 8, profiles: [four]}
  - {name: Interns, profiles: [four], preemptible: false}
)";

Config Valid(const std::string& top) {
  auto config = testing::ValidConfig(top + kBody);
  EXPECT_TRUE(config.has_value()) << top;
  return config.value_or(Config{});
}

std::vector<std::string> PreemptionCodes(const std::vector<ExportFinding>& findings) {
  std::vector<std::string> out;
  for (const std::string& code : testing::FindingCodes(findings)) {
    if (code.find("preempt") != std::string::npos || code.find("min-runtime") != std::string::npos ||
        code.find("victim") != std::string::npos) {
      out.push_back(code);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

size_t Count(const std::string& text, const std::string& line) {
  size_t n = 0;
  for (size_t at = text.find(line); at != std::string::npos; at = text.find(line, at + 1)) ++n;
  return n;
}

TEST(KueuePreemption, WithoutItNothingIsEverPreempted) {
  const Config config = Valid("");
  const ExportResult result = ExportKueue(config, "c.yaml");
  ASSERT_TRUE(result.errors.empty());
  EXPECT_EQ(Count(result.text, "preemption: {reclaimWithinCohort: Never, borrowWithinCohort: {policy: Never}, "
                               "withinClusterQueue: Never}"),
            2u);
  EXPECT_EQ(Count(result.text, "reclaimWithinCohort: Any"), 0u);
  EXPECT_EQ(PreemptionCodes(result.findings), std::vector<std::string>{});
  for (const KueueClusterQueue& cq : testing::MakeKueue(config).objects.cluster_queues) EXPECT_FALSE(cq.reclaim);
}

TEST(KueuePreemption, WithItClusterQueuesReclaimWhatTheyLend) {
  const Config config = Valid("preemption: {minRuntime: 10m, delay: 1m}\n");
  const ExportResult result = ExportKueue(config, "c.yaml");
  ASSERT_TRUE(result.errors.empty());
  EXPECT_EQ(Count(result.text, "preemption: {reclaimWithinCohort: Any, borrowWithinCohort: {policy: Never}, "
                               "withinClusterQueue: Never}"),
            2u);
  EXPECT_EQ(Count(result.text, "reclaimWithinCohort: Never"), 0u);
  EXPECT_EQ(PreemptionCodes(result.findings),
            (std::vector<std::string>{"kueue-min-runtime preemption.minRuntime",
                                      "kueue-not-preemptible policies[Interns].preemptible",
                                      "kueue-preemption-delay preemption.delay", "kueue-victim-order preemption"}));
  for (const KueueClusterQueue& cq : testing::MakeKueue(config).objects.cluster_queues) EXPECT_TRUE(cq.reclaim);
}

TEST(KueuePreemption, NoTimingFindingWhenKueueDecidesTheSame) {
  const ExportResult result = ExportKueue(Valid("preemption: {minRuntime: 0, delay: 0s}\n"), "c.yaml");
  EXPECT_EQ(PreemptionCodes(result.findings),
            (std::vector<std::string>{"kueue-not-preemptible policies[Interns].preemptible",
                                      "kueue-victim-order preemption"}));
}

}  // namespace
}  // namespace rescfg
