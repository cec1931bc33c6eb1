#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "config/canonical.h"
#include "config/durations.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "validate/load.h"

namespace rescfg {
namespace {

constexpr int64_t kSecond = 1'000'000;

TEST(ConfigDuration, ReadsSecondsAndUnits) {
  const struct {
    const char* text;
    int64_t micros;
  } cases[] = {
      {"0", 0},
      {"0s", 0},
      {"90", 90 * kSecond},
      {"1.5", 1'500'000},
      {"0.000001", 1},
      {"2.250000", 2'250'000},
      {"90s", 90 * kSecond},
      {"10m", 600 * kSecond},
      {"1h30m", 5400 * kSecond},
      {"2d", 2 * 86'400 * kSecond},
      {"1d2h3m4s", (86'400 + 7200 + 180 + 4) * kSecond},
      {"90m", 5400 * kSecond},
      {"007s", 7 * kSecond},
      {"3650d", kMaxDurationMicros},
      {"315360000", kMaxDurationMicros},
  };
  for (const auto& c : cases) {
    std::string error;
    EXPECT_EQ(ParseConfigDuration(c.text, &error), std::optional<int64_t>(c.micros)) << c.text << ": " << error;
  }
}

TEST(ConfigDuration, RefusesEverythingElseWithAReason) {
  const struct {
    const char* text;
    const char* why;
  } cases[] = {
      {"", "must not be empty"},
      {"-5", "never negative"},
      {"-1m", "never negative"},
      {"1.2345678", "1 to 6 digits after the point"},
      {"3.", "1 to 6 digits after the point"},
      {".5", "written like 90 or 1.5"},
      {"1.2.3", "written like 90 or 1.5"},
      {"1e3", "unknown unit 'e'"},
      {"10M", "unknown unit 'M'"},
      {"1h30", "has no unit"},
      {"1m2h", "in the order d, h, m, s"},
      {"1m1m", "in the order d, h, m, s"},
      {"1.5m", "units take whole numbers"},
      {"1h 30m", "expected a whole number before each unit"},
      {"m", "expected a whole number before each unit"},
      {" 10m", "expected a whole number before each unit"},
      {"3651d", "longer than the largest duration"},
      {"315360001", "longer than the largest duration"},
      {"99999999999999999999999s", "longer than the largest duration"},
      {"3649d24h1s", "longer than the largest duration"},
  };
  for (const auto& c : cases) {
    std::string error;
    EXPECT_EQ(ParseConfigDuration(c.text, &error), std::nullopt) << c.text;
    EXPECT_NE(error.find(c.why), std::string::npos) << c.text << ": " << error;
  }
}

TEST(ConfigDuration, CanonicalText) {
  const struct {
    int64_t micros;
    const char* text;
  } cases[] = {
      {0, "0s"},
      {90 * kSecond, "1m30s"},
      {600 * kSecond, "10m"},
      {5400 * kSecond, "1h30m"},
      {2 * 86'400 * kSecond, "2d"},
      {(86'400 + 4) * kSecond, "1d4s"},
      {1'500'000, "1.5"},
      {1, "0.000001"},
      {3600 * kSecond + 1, "3600.000001"},
  };
  for (const auto& c : cases) EXPECT_EQ(CanonicalDuration(c.micros), c.text) << c.micros;
}

RC_GTEST_PROP(ConfigDuration, CanonicalTextReadsBack, ()) {
  const int64_t micros = *rc::gen::inRange<int64_t>(0, kMaxDurationMicros + 1);
  std::string error;
  RC_ASSERT(ParseConfigDuration(CanonicalDuration(micros), &error) == std::optional<int64_t>(micros));
}

const std::string kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";
const std::string kBody = R"(pools:
  - {name: A, resources: 8}
profiles:
  - {name: p, allotment: 1, links: [A]}
policies:
  - {name: Dev, reserved: 4, profiles: [p]}
)";

LoadedConfig Load(const std::string& top, const std::string& body = kBody) {
  return LoadValidConfigText(kHead + top + body, "c.yaml");
}

std::vector<std::string> Findings(const LoadedConfig& loaded) {
  std::vector<std::string> out;
  for (const auto& f : loaded.findings) {
    out.push_back(f.code + " " + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) + " " + f.path);
  }
  return out;
}

TEST(PreemptionKeys, AbsentMeansNoPreemption) {
  auto loaded = Load("");
  ASSERT_TRUE(loaded.config);
  EXPECT_FALSE(loaded.config->preemption);
  EXPECT_TRUE(loaded.config->policies[0].preemptible);
  // A null block is left out, as every null value is.
  loaded = Load("preemption:\n");
  ASSERT_TRUE(loaded.config);
  EXPECT_FALSE(loaded.config->preemption);
}

TEST(PreemptionKeys, EmptyBlockHasTheDefaults) {
  auto loaded = Load("preemption: {}\n");
  ASSERT_TRUE(loaded.config);
  ASSERT_TRUE(loaded.config->preemption);
  EXPECT_EQ(loaded.config->preemption->min_runtime_us, 600 * kSecond);
  EXPECT_EQ(loaded.config->preemption->delay_us, 60 * kSecond);
  EXPECT_EQ(loaded.config->preemption->stop_timeout_us, 300 * kSecond);
}

TEST(PreemptionKeys, ReadsEveryKey) {
  auto loaded = Load("preemption: {minRuntime: 0, delay: 1.5, stopTimeout: 1h}\n",
                     "pools: [{name: A, resources: 8}]\nprofiles: [{name: p, allotment: 1, links: [A]}]\n"
                     "policies:\n  - {name: Dev, reserved: 4, profiles: [p]}\n"
                     "  - {name: Interns, profiles: [p], preemptible: false}\n");
  ASSERT_TRUE(loaded.config) << testing::PrintToString(Findings(loaded));
  EXPECT_EQ(loaded.config->preemption->min_runtime_us, 0);
  EXPECT_EQ(loaded.config->preemption->delay_us, 1'500'000);
  EXPECT_EQ(loaded.config->preemption->stop_timeout_us, 3600 * kSecond);
  EXPECT_TRUE(loaded.config->policies[0].preemptible);
  EXPECT_FALSE(loaded.config->policies[1].preemptible);
}

TEST(PreemptionKeys, ErrorsAtTheirLineAndColumn) {
  const struct {
    std::string top;
    std::vector<std::string> findings;
  } cases[] = {
      {"preemption: true\n", {"wrong-type 3:13 preemption"}},
      {"preemption: [10m]\n", {"wrong-type 3:13 preemption"}},
      {"preemption:\n  minRuntime: 1m2h\n", {"bad-duration 4:15 preemption.minRuntime"}},
      {"preemption:\n  delay: -1\n", {"bad-duration 4:10 preemption.delay"}},
      {"preemption:\n  stopTimeout: 0s\n", {"bad-duration 4:16 preemption.stopTimeout"}},
      {"preemption:\n  stopTimeout: 0.0\n", {"bad-duration 4:16 preemption.stopTimeout"}},
      {"preemption:\n  delay: {s: 1}\n", {"wrong-type 4:10 preemption.delay"}},
      {"preemption:\n  minRuntme: 1m\n", {"unknown-key 4:3 preemption.minRuntme"}},
      {"preemption:\n  delay: 1m\n  delay: 2m\n", {"duplicate-key 5:3 preemption.delay"}},
  };
  for (const auto& c : cases) {
    auto loaded = Load(c.top);
    EXPECT_FALSE(loaded.config) << c.top;
    EXPECT_EQ(Findings(loaded), c.findings) << c.top;
  }
  auto misspelt = Load("preemption:\n  minRuntme: 1m\n");
  ASSERT_FALSE(misspelt.findings.empty());
  EXPECT_EQ(misspelt.findings[0].hint, "did you mean 'minRuntime'?");
}

TEST(PreemptionKeys, PreemptibleMustBeABoolean) {
  auto loaded = Load("", "pools: [{name: A, resources: 8}]\nprofiles: [{name: p, allotment: 1, links: [A]}]\n"
                         "policies:\n  - {name: Dev, reserved: 4, profiles: [p], preemptible: yes}\n");
  EXPECT_EQ(Findings(loaded), std::vector<std::string>{"wrong-type 6:58 policies[Dev].preemptible"});
}

TEST(PreemptionKeys, WarnsWhenNoPolicyReservesAnything) {
  const std::string unreserved = "pools: [{name: A, resources: 8}]\nprofiles: [{name: p, allotment: 1, links: [A]}]\n"
                                 "policies: [{name: Dev, profiles: [p]}]\n";
  auto loaded = Load("preemption: {}\n", unreserved);
  ASSERT_TRUE(loaded.config);
  EXPECT_EQ(Findings(loaded), std::vector<std::string>{"preemption-without-reservation 3:13 preemption"});
  EXPECT_EQ(loaded.findings[0].severity, Severity::kWarning);
  EXPECT_TRUE(Findings(Load("", unreserved)).empty()) << "no warning without preemption";
  EXPECT_TRUE(Findings(Load("preemption: {}\n")).empty()) << "no warning when a policy reserves";
}

TEST(PreemptionKeys, CanonicalFormWritesTheBlockAndNonPreemptiblePolicies) {
  auto loaded = Load("preemption: {delay: 90, minRuntime: 0.5}\n",
                     "pools: [{name: A, resources: 8}]\nprofiles: [{name: p, allotment: 1, links: [A]}]\n"
                     "policies:\n  - {name: Dev, reserved: 4, profiles: [p], preemptible: true}\n"
                     "  - {name: Interns, profiles: [p], paused: true, preemptible: false}\n");
  ASSERT_TRUE(loaded.config);
  const std::string text = WriteCanonical(*loaded.config);
  EXPECT_NE(text.find("enabled: true\npreemption:\n  minRuntime: 0.5\n  delay: 1m30s\n  stopTimeout: 5m\npools:\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    paused: true\n    preemptible: false\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("preemptible: true"), std::string::npos) << "the default is left out";
  auto back = LoadValidConfigText(text, "canonical.yaml");
  ASSERT_TRUE(back.config);
  EXPECT_EQ(WriteCanonical(*back.config), text);
  EXPECT_EQ(*back.config, *loaded.config);
}

std::vector<std::string> DiffLines(const std::string& old_top, const std::string& new_top,
                                   const std::string& old_body = kBody, const std::string& new_body = kBody) {
  auto a = Load(old_top, old_body), b = Load(new_top, new_body);
  EXPECT_TRUE(a.config && b.config);
  if (!a.config || !b.config) return {};
  std::vector<std::string> lines;
  for (const Change& c : DiffConfigs(*a.config, *b.config).changes) {
    lines.push_back(std::string(ChangeOpName(c.op)) + " " + c.kind + " " + c.name + " " + c.field + ": " +
                    c.old_value.ToText() + " -> " + c.new_value.ToText());
  }
  return lines;
}

TEST(PreemptionKeys, DiffReportsEachChange) {
  EXPECT_EQ(DiffLines("preemption: {minRuntime: 600}\n", "preemption: {}\n"), std::vector<std::string>{})
      << "the same durations, written otherwise";
  EXPECT_EQ(DiffLines("preemption: {}\n", "preemption: {minRuntime: 30m, stopTimeout: 5m}\n"),
            std::vector<std::string>{"changed config  preemption.minRuntime: \"10m\" -> \"30m\""});
  EXPECT_EQ(DiffLines("", "preemption: {delay: 0}\n"),
            std::vector<std::string>{
                "changed config  preemption: (none) -> \"minRuntime: 10m, delay: 0s, stopTimeout: 5m\""});
  EXPECT_EQ(DiffLines("preemption: {}\n", ""),
            std::vector<std::string>{
                "changed config  preemption: \"minRuntime: 10m, delay: 1m, stopTimeout: 5m\" -> (none)"});
  const std::string interns = "pools: [{name: A, resources: 8}]\nprofiles: [{name: p, allotment: 1, links: [A]}]\n"
                              "policies: [{name: Dev, reserved: 4, profiles: [p], preemptible: false}]\n";
  EXPECT_EQ(DiffLines("", "", kBody, interns),
            std::vector<std::string>{"changed policy Dev preemptible: true -> false"});
}

}  // namespace
}  // namespace rescfg
