#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "state/plan.h"
#include "support/yaml_text.h"
#include "util/digest.h"

namespace rescfg {
namespace {

constexpr std::string_view kKey = "6b65792d6f662d7468652d73746174652d6469726563746f72792d6f6e652d31";
constexpr std::string_view kOtherKey = "6b65792d6f662d616e6f746865722d73746174652d6469726563746f72792d32";

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
  const std::string text = RenderPlan(SamplePlan(), kKey);
  std::string error;
  auto plan = ParsePlan(text, kKey, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->base_revision, 3);
  EXPECT_EQ(plan->base_sha256, Sha256Hex("three"));
  EXPECT_EQ(plan->revision, 4);
  EXPECT_EQ(plan->source, SamplePlan().source);
  EXPECT_EQ(plan->canonical, SamplePlan().canonical);
  EXPECT_EQ(plan->message, "merge #12");
  EXPECT_FALSE(plan->up_to_date());
  // The signature covers every byte before its line: the HMAC-SHA256 of
  // `head -n -2` under the key.
  const size_t last = text.rfind("\n  \"signature\"");
  ASSERT_NE(last, std::string::npos);
  EXPECT_NE(text.find(HmacSha256Hex(kKey, text.substr(0, last + 1))), std::string::npos);
  EXPECT_TRUE(text.ends_with("\"\n}\n"));
}

TEST(Plan, AtRevisionZeroHasNoBaseSha256) {
  Plan sample = SamplePlan();
  sample.base_revision = 0;
  sample.base_sha256.clear();
  sample.revision = 1;
  const std::string text = RenderPlan(sample, kKey);
  EXPECT_NE(text.find("\"sha256\": null"), std::string::npos);
  std::string error;
  auto plan = ParsePlan(text, kKey, &error);
  ASSERT_TRUE(plan) << error;
  EXPECT_EQ(plan->base_sha256, "");
}

TEST(Plan, RefusesForeignAndDamagedFiles) {
  std::string error;
  for (const char* foreign : {"", "not json", "[1, 2]", "{\"kind\": \"Schedule\", \"apiVersion\": \"rescfg/v1\"}",
                              "apiVersion: rescfg/v1\nkind: Plan\n"}) {
    EXPECT_FALSE(ParsePlan(foreign, kKey, &error)) << foreign;
    EXPECT_NE(error.find("not a rescfg plan"), std::string::npos) << error;
  }
  std::string text = RenderPlan(SamplePlan(), kKey);
  std::string other = text;
  other.replace(other.find("rescfg/v1"), 9, "rescfg/v9");
  EXPECT_FALSE(ParsePlan(other, kKey, &error));
  EXPECT_NE(error.find("apiVersion"), std::string::npos) << error;
  EXPECT_FALSE(ParsePlan(text.substr(0, text.size() - 1), kKey, &error));  // cut
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
  EXPECT_FALSE(ParsePlan(text + "\n", kKey, &error));
  // Consistent edits still fail: the signature covers them.
  std::string edited = text;
  edited.replace(edited.find("\"revision\": 3"), 13, "\"revision\": 4");
  EXPECT_FALSE(ParsePlan(edited, kKey, &error));
  // A re-signed plan over inconsistent content fails on the sha256s.
  Plan inconsistent = SamplePlan();
  std::string rendered = RenderPlan(inconsistent, kKey);
  const std::string canonical_sha = Sha256Hex(inconsistent.canonical);
  rendered.replace(rendered.find(canonical_sha), 64, Sha256Hex("other"));
  const size_t last = rendered.rfind("\n  \"signature\": \"");
  rendered.replace(last + 17, 64, HmacSha256Hex(kKey, rendered.substr(0, last + 1)));
  EXPECT_FALSE(ParsePlan(rendered, kKey, &error));
  EXPECT_NE(error.find("does not match its sha256"), std::string::npos) << error;
}

TEST(Plan, SignedUnderTheStateKeyOnly) {
  const std::string text = RenderPlan(SamplePlan(), kKey);
  std::string error;
  // Another state directory's key: refused.
  EXPECT_FALSE(ParsePlan(text, kOtherKey, &error));
  EXPECT_NE(error.find("signature does not match"), std::string::npos) << error;
  // A body edited and closed with the plain sha256 anyone can recompute
  // (what the plans of earlier versions carried): refused.
  const size_t last = text.rfind("\n  \"signature\": \"");
  std::string edited = text;
  edited.replace(edited.find("8 -> 16"), 7, "8 -> 99");
  edited.replace(last + 17, 64, Sha256Hex(edited.substr(0, last + 1)));
  EXPECT_FALSE(ParsePlan(edited, kKey, &error));
  // A plan of an earlier version says so.
  std::string old = text.substr(0, last + 1) + "  \"checksum\": \"" + Sha256Hex(text.substr(0, last + 1)) + "\"\n}\n";
  EXPECT_FALSE(ParsePlan(old, kKey, &error));
  EXPECT_NE(error.find("earlier rescfg"), std::string::npos) << error;
}

TEST(Plan, DisagreesWithAChangeItDoesNotShow) {
  Plan plan = SamplePlan();
  PlannedChange change;
  change.base_revision = 3;
  change.base_sha256 = Sha256Hex("three");
  // The change the plan shows: its diff, its count, its revision.
  change.diff.changes.push_back({});
  plan.diff_text = RenderDiffText(change.diff);
  EXPECT_EQ(PlanDisagreement(plan, change), "");
  // Nothing to do, while the configuration changes something.
  Plan nothing = plan;
  nothing.changes = 0;
  nothing.revision = 3;
  nothing.diff_text = RenderDiffText(ConfigDiff{});
  EXPECT_NE(PlanDisagreement(nothing, change), "");
  // Another diff text than the configuration's.
  Plan other = plan;
  other.diff_text = "~ pool \"p\": resources: 8 -> 16\n";
  EXPECT_NE(PlanDisagreement(other, change), "");
}

TEST(Digest, KnownVectors) {
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // RFC 4231, test case 2.
  EXPECT_EQ(HmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_TRUE(DigestsEqual("abc", "abc"));
  EXPECT_FALSE(DigestsEqual("abc", "abd"));
  EXPECT_FALSE(DigestsEqual("abc", "ab"));
  auto bytes = RandomBytes(32);
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->size(), 32u);
}

RC_GTEST_PROP(Plan, AnyTextRoundTripsAndAnyOneByteEditIsCaught, ()) {
  Plan sample = SamplePlan();
  sample.source = *testing::GenUtf8Text();
  sample.canonical = *testing::GenUtf8Text();
  sample.message = *testing::GenUtf8Text();
  sample.file = *testing::GenUtf8Text();
  const std::string text = RenderPlan(sample, kKey);
  std::string error;
  auto plan = ParsePlan(text, kKey, &error);
  RC_ASSERT(plan.has_value());
  RC_ASSERT(plan->source == sample.source && plan->canonical == sample.canonical && plan->message == sample.message &&
            plan->file == sample.file);
  const size_t at = *rc::gen::inRange<size_t>(0, text.size());
  std::string edited = text;
  edited[at] = static_cast<char>(*rc::gen::distinctFrom(rc::gen::arbitrary<char>(), text[at]));
  RC_ASSERT(!ParsePlan(edited, kKey, &error).has_value());
}

}  // namespace
}  // namespace rescfg
