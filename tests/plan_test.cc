#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "state/plan.h"
#include "state/sha256.h"
#include "support/yaml_text.h"

namespace rescfg {
namespace {

Plan SamplePlan() {
  Plan plan;
  plan.created = "2026-11-29T10:00:00Z";
  plan.user = "alice";
  plan.file = "resources.yaml";
  plan.message = "merge #12";
  plan.base_revision = 3;
  plan.base_sha256 = Sha256Hex("three");
  plan.revision = 4;
  plan.canonical = "apiVersion: rescfg/v1\n";
  plan.source = "# comment\napiVersion: rescfg/v1\n";
  plan.changes = 1;
  plan.diff_text = "~ pool \"p\": resources: 8 -> 16\n";
  return plan;
}

TEST(Plan, ReadsBackWhatItWrites) {
  const std::string text = RenderPlan(SamplePlan());
  std::string error;
  auto plan = ParsePlan(text, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->base_revision, 3);
  EXPECT_EQ(plan->base_sha256, Sha256Hex("three"));
  EXPECT_EQ(plan->revision, 4);
  EXPECT_EQ(plan->source, SamplePlan().source);
  EXPECT_EQ(plan->canonical, SamplePlan().canonical);
  EXPECT_EQ(plan->message, "merge #12");
  EXPECT_FALSE(plan->up_to_date());
  // The checksum covers every byte before its line: `head -n -2 | sha256sum`.
  const size_t last = text.rfind("\n  \"checksum\"");
  EXPECT_NE(text.find(Sha256Hex(text.substr(0, last + 1))), std::string::npos);
  EXPECT_TRUE(text.ends_with("\"\n}\n"));
}

TEST(Plan, AtRevisionZeroHasNoBaseSha256) {
  Plan sample = SamplePlan();
  sample.base_revision = 0;
  sample.base_sha256.clear();
  sample.revision = 1;
  const std::string text = RenderPlan(sample);
  EXPECT_NE(text.find("\"sha256\": null"), std::string::npos);
  std::string error;
  auto plan = ParsePlan(text, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->base_sha256, "");
}

TEST(Plan, RefusesForeignAndDamagedFiles) {
  std::string error;
  for (const char* foreign : {"", "not json", "[1, 2]", "{\"kind\": \"Schedule\", \"apiVersion\": \"rescfg/v1\"}",
                              "apiVersion: rescfg/v1\nkind: Plan\n"}) {
    EXPECT_FALSE(ParsePlan(foreign, &error)) << foreign;
    EXPECT_NE(error.find("not a rescfg plan"), std::string::npos) << error;
  }
  std::string text = RenderPlan(SamplePlan());
  std::string other = text;
  other.replace(other.find("rescfg/v1"), 9, "rescfg/v9");
  EXPECT_FALSE(ParsePlan(other, &error));
  EXPECT_NE(error.find("apiVersion"), std::string::npos) << error;
  EXPECT_FALSE(ParsePlan(text.substr(0, text.size() - 1), &error));  // cut
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
  EXPECT_FALSE(ParsePlan(text + "\n", &error));
  // Consistent edits still fail: the checksum covers them.
  std::string edited = text;
  edited.replace(edited.find("\"revision\": 3"), 13, "\"revision\": 4");
  EXPECT_FALSE(ParsePlan(edited, &error));
  // A recomputed checksum over inconsistent content fails on the sha256s.
  Plan inconsistent = SamplePlan();
  std::string rendered = RenderPlan(inconsistent);
  const std::string canonical_sha = Sha256Hex(inconsistent.canonical);
  rendered.replace(rendered.find(canonical_sha), 64, Sha256Hex("other"));
  const size_t last = rendered.rfind("\n  \"checksum\": \"");
  rendered.replace(last + 16, 64, Sha256Hex(rendered.substr(0, last + 1)));
  EXPECT_FALSE(ParsePlan(rendered, &error));
  EXPECT_NE(error.find("does not match its sha256"), std::string::npos) << error;
}

RC_GTEST_PROP(Plan, AnyTextRoundTripsAndAnyOneByteEditIsCaught, ()) {
  Plan sample = SamplePlan();
  sample.source = *testing::GenUtf8Text();
  sample.canonical = *testing::GenUtf8Text();
  sample.message = *testing::GenUtf8Text();
  sample.file = *testing::GenUtf8Text();
  const std::string text = RenderPlan(sample);
  std::string error;
  auto plan = ParsePlan(text, &error);
  RC_ASSERT(plan.has_value());
  RC_ASSERT(plan->source == sample.source && plan->canonical == sample.canonical && plan->message == sample.message &&
            plan->file == sample.file);
  const size_t at = *rc::gen::inRange<size_t>(0, text.size());
  std::string edited = text;
  edited[at] = static_cast<char>(*rc::gen::distinctFrom(rc::gen::arbitrary<char>(), text[at]));
  RC_ASSERT(!ParsePlan(edited, &error).has_value());
}

}  // namespace
}  // namespace rescfg
