#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "config/canonical.h"
#include "config/loader.h"
#include "gitops_config_gen.h"
#include "util/file_io.h"

#include "support/scenario_text.h"
#include "support/test_paths.h"
#include "support/yaml_text.h"
#include "util/yaml_input.h"

namespace rescfg {
namespace {

std::string ReadTestFile(const std::string& relative) {
  std::string error;
  auto text = ReadWholeFile(std::string(RESCFG_SOURCE_DIR) + "/" + relative, &error);
  EXPECT_TRUE(text) << error;
  return text.value_or("");
}

RC_GTEST_PROP(Canonical, ReadsBackToTheSameConfig, ()) {
  const Config config = *testing::GenConfig();
  const std::string text = WriteCanonical(config);
  LoadedConfig loaded = LoadConfigText(text, "canonical.yaml");
  RC_ASSERT(loaded.config.has_value());
  for (const auto& f : loaded.findings) RC_FAIL(f.path + ": " + f.message + "\n" + text);
  Config back = *loaded.config;
  ApplyDefaults(back);
  if (!(back == config)) RC_FAIL("read back differently:\n" + text + "---\n" + WriteCanonical(back));
  RC_ASSERT(WriteCanonical(back) == text);
}

RC_GTEST_PROP(Canonical, SpelledOutDefaultsMakeNoDifference, ()) {
  Config raw = testing::GenConfigRaw();
  Config with_defaults = raw;
  ApplyDefaults(with_defaults);
  ApplyDefaults(raw);
  ApplyDefaults(raw);  // safe to apply twice
  RC_ASSERT(WriteCanonical(raw) == WriteCanonical(with_defaults));
}

TEST(Canonical, WorkedExampleMatchesGolden) {
  Config c = testing::ConfigFromYaml(ReadTestFile("testdata/examples/worked-example.yaml"));
  EXPECT_EQ(WriteCanonical(c), ReadTestFile("testdata/gitops/worked-example.canonical.yaml"));
}

TEST(Canonical, FormattingCommentsAndKeyOrderDoNotMatter) {
  Config a = testing::ConfigFromYaml(ReadTestFile("testdata/examples/worked-example.yaml"));
  Config b = testing::ConfigFromYaml(ReadTestFile("testdata/gitops/worked-example-reformatted.yaml"));
  EXPECT_EQ(WriteCanonical(a), WriteCanonical(b));
}

TEST(Canonical, QuantitiesAreExactAndFractionsQuoted) {
  Config c = testing::ConfigFromYaml(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: p, resources: 8}]
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: p}]}
  - {name: half, allotment: 0.5000000, links: [{pool: p}]}
  - {name: tiny, allotment: 0.143, links: [{pool: p}]}
  - {name: whole, allotment: "17/17", links: [{pool: p}]}
)");
  std::string text = WriteCanonical(c);
  EXPECT_NE(text.find("allotment: \"1/7\"\n"), std::string::npos) << text;
  EXPECT_NE(text.find("allotment: 0.5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("allotment: 0.143\n"), std::string::npos) << text;
  EXPECT_NE(text.find("allotment: 1\n"), std::string::npos) << text;
}

TEST(Canonical, QuotesAndEscapes) {
  EXPECT_EQ(YamlQuote("plain"), "\"plain\"");
  EXPECT_EQ(YamlQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(YamlQuote("line\nnext\ttab\x01"), "\"line\\nnext\\ttab\\x01\"");
  EXPECT_EQ(YamlQuote("\xE2\x80\xA8"), "\"\\u2028\"");
  EXPECT_EQ(YamlQuote("caf\xC3\xA9"), "\"caf\xC3\xA9\"");
  // What YAML readers refuse or read differently, though the loader never
  // lets it into a configuration: C1 controls, U+FEFF, U+FFFE, U+FFFF.
  EXPECT_EQ(YamlQuote("c1\xC2\x85\xC2\x80\xC2\x9F\xC2\xA0"), "\"c1\\u0085\\u0080\\u009F\xC2\xA0\"");
  EXPECT_EQ(YamlQuote("\xEF\xBB\xBF\xEF\xBF\xBE\xEF\xBF\xBF\x7F"), "\"\\uFEFF\\uFFFE\\uFFFF\\x7F\"");
}

RC_GTEST_PROP(YamlQuote, IsAYamlScalarOfTheSameValue, ()) {
  const std::string s = *testing::GenUtf8Text();
  testing::AssertYamlScalarOf(YamlQuote(s), s);
}

TEST(Canonical, ProfileDescriptionIsKept) {
  Config c = testing::ConfigFromYaml(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: p, resources: 8, description: "the pool"}]
profiles: [{name: x, allotment: 1, links: [{pool: p}], description: "one GPU"}]
)");
  std::string text = WriteCanonical(c);
  EXPECT_NE(text.find("description: \"one GPU\""), std::string::npos) << text;
  EXPECT_NE(text.find("description: \"the pool\""), std::string::npos) << text;
}

}  // namespace
}  // namespace rescfg
