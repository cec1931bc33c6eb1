/// Outputs for people: amounts (~23.48, MIG slices), durations (1h07m),
/// Markdown for pull-request comments, and a first diff that only adds.

#include <gtest/gtest.h>

#include "config/human_amount.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "util/sim_time.h"
#include "util/markdown.h"
#include "validate/load.h"

namespace rescfg {
namespace {

Quantity Q(std::string_view text) { return *ParseQuantity(text); }

TEST(HumanAmount, FiniteDecimalsStayExact) {
  EXPECT_EQ(HumanAmount(Q("8")), "8");
  EXPECT_EQ(HumanAmount(Q("0.5")), "0.5");
  EXPECT_EQ(HumanAmount(Q("0.143")), "0.143");
  EXPECT_EQ(HumanAmount(Q("3/8")), "0.375");
  EXPECT_EQ(HumanAmount(Q("0")), "0");
}

TEST(HumanAmount, OtherFractionsRoundToTwoPlacesWithATilde) {
  // One 0.3333 job and one 1/7 job out of 24: 24 - 0.3333 - 1/7.
  EXPECT_EQ(HumanAmount(Q("24") - Q("0.3333") - Q("1/7")), "~23.52");
  // The issue's 1643331/70000 in use.
  EXPECT_EQ(HumanAmount(Quantity::FromTicks(Ticks(1643331) * (Quantity::kTicksPerUnit / 70000))), "~23.48");
  EXPECT_EQ(HumanAmount(Q("1/3")), "~0.33");
  EXPECT_EQ(HumanAmount(Q("2/3")), "~0.67");
  EXPECT_EQ(HumanAmount(Q("1/7") + Q("8")), "~8.14");
  EXPECT_EQ(HumanAmount(Q("1/300") + Q("0")), "~0.00");
  EXPECT_EQ(HumanAmount(Q("5/3") + Q("1/3") - Q("1/3")), "~1.67");
  EXPECT_EQ(HumanAmount(Q("1000000") - Q("1/3")), "~999999.67");
  EXPECT_EQ(HumanAmount(Quantity() - Q("1/3")), "~-0.33");
}

Pool MigPool(std::string_view size) {
  Pool pool;
  pool.name = "A100 MIG";
  pool.resources = Q(size);
  pool.gpu_fractions.mig = true;
  pool.gpu_fractions.resources = {{Q("1/7"), "nvidia.com/mig-1g.10gb", {}}, {Q("2/7"), "nvidia.com/mig-2g.20gb", {}}};
  return pool;
}

TEST(HumanAmount, MigPoolsCountSlices) {
  const Pool pool = MigPool("8");
  EXPECT_EQ(HumanAmount(Q("34/7") + Q("0"), pool), "34 of 56 slices");
  EXPECT_EQ(HumanAmountOf(Q("34/7") + Q("0"), pool), "34 of 56 slices");
  // Finite decimals and whole numbers stay as they are.
  EXPECT_EQ(HumanAmount(Q("4"), pool), "4");
  EXPECT_EQ(HumanAmountOf(Q("4"), pool), "4 of 8");
  // No mapped slice divides it: rounded as anywhere else.
  EXPECT_EQ(HumanAmount(Q("1/3"), pool), "~0.33");
  Pool injector = pool;
  injector.gpu_fractions = {};
  EXPECT_EQ(HumanAmount(Q("34/7"), injector), "~4.86");
  EXPECT_EQ(HumanAmountOf(Q("34/7"), injector), "~4.86 of 8");
}

TEST(FormatDuration, PeopleUnits) {
  const Micros s = kMicrosPerSecond;
  EXPECT_EQ(FormatDuration(0), "0s");
  EXPECT_EQ(FormatDuration(400'000), "<1s");
  EXPECT_EQ(FormatDuration(600'000), "1s");
  EXPECT_EQ(FormatDuration(42 * s), "42s");
  EXPECT_EQ(FormatDuration(425 * s), "7m05s");
  EXPECT_EQ(FormatDuration(4020 * s), "1h07m");
  EXPECT_EQ(FormatDuration((4 * 86400 + 2 * 3600 + 600) * s), "4d2h");
  EXPECT_EQ(FormatDuration(3599 * s + 600'000), "1h00m");  // rounding carries into the next unit
  EXPECT_EQ(FormatDuration(86399 * s), "1d0h");
  EXPECT_EQ(FormatDuration(-425 * s), "-7m05s");
  EXPECT_EQ(FormatDuration(INT64_MIN).substr(0, 1), "-");
}

TEST(Markdown, CellsCannotBreakTheTable) {
  EXPECT_EQ(MarkdownText("a|b"), "a\\|b");
  EXPECT_EQ(MarkdownText("<script>*x*_y_`z`"), "&lt;script&gt;\\*x\\*\\_y\\_\\`z\\`");
  EXPECT_EQ(MarkdownText("two\nlines"), "two lines");
  EXPECT_EQ(MarkdownCode("dev-4gpu"), "`dev-4gpu`");
  EXPECT_EQ(MarkdownCode("a`b"), "``a`b``");
  EXPECT_EQ(MarkdownCode("a|b"), "`a`\\|`b`");
}

TEST(Markdown, ADocumentStaysWithinItsLimitAndSaysWhatIsLeftOut) {
  MarkdownTable table({"Change", "Name"});
  for (int i = 0; i < 5000; ++i) table.AddRow({"added", "pool-" + std::to_string(i) + std::string(20, 'x')});
  MarkdownDocument doc;
  doc.Add("### Heading");
  doc.Add(table, "changes");
  doc.Add("**5000 changes**");
  const std::string out = doc.Finish();
  EXPECT_LE(out.size(), kMarkdownCommentLimit);
  EXPECT_NE(out.find("| pool-0xxx"), std::string::npos);
  EXPECT_NE(out.find("*Not shown: "), std::string::npos) << out.substr(out.size() - 300);
  EXPECT_NE(out.find(" changes"), std::string::npos);
  // A small one is whole, with no such line.
  MarkdownDocument small;
  MarkdownTable two({"A"});
  two.AddRow({"x"});
  small.Add(two, "rows");
  EXPECT_EQ(small.Finish(), "| A |\n| --- |\n| x |\n");
}

TEST(DiffFromNothing, AFirstProvisionOnlyAdds) {
  LoadedConfig loaded = LoadValidConfigText(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
kubernetes: {namespace: ml}
pools: [{name: A, resources: 8}]
profiles: [{name: p, allotment: 1, links: [A]}]
policies: [{name: T, profiles: [p]}]
)", "c.yaml");
  ASSERT_TRUE(loaded.config);
  const ConfigDiff diff = DiffFromNothing(*loaded.config);
  ASSERT_FALSE(diff.empty());
  for (const Change& c : diff.changes) {
    EXPECT_EQ(c.op, ChangeOp::kAdded) << c.kind << " " << c.name << " " << c.field;
  }
  EXPECT_NE(RenderDiffText(diff).find("+ kubernetes.namespace = \"ml\""), std::string::npos) << RenderDiffText(diff);
}

}  // namespace
}  // namespace rescfg
