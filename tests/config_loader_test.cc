#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "config/loader.h"
#include "util/input_limits.h"

namespace rescfg {
namespace {

const std::string kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";

std::vector<std::string> Codes(const LoadedConfig& loaded) {
  std::vector<std::string> codes;
  for (const auto& f : loaded.findings) codes.push_back(f.code);
  return codes;
}

LoadedConfig Load(const std::string& body) { return LoadConfigText(kHead + body, "c.yaml"); }

/// The one finding of `loaded`, by value: callers pass temporaries.
Finding Only(const LoadedConfig& loaded) {
  EXPECT_EQ(loaded.findings.size(), 1u) << ::testing::PrintToString(Codes(loaded));
  return loaded.findings.empty() ? Finding{} : loaded.findings.front();
}

TEST(ConfigLoader, ReadsEveryField) {
  auto loaded = Load(R"(enabled: false
pools:
  - {name: A, resources: 8, queue: qa, description: d, executionPriority: [p]}
profiles:
  - name: p
    allotment: "1/7"
    dynamic: {parameter: runtime.gpus}
    queueing: StrictFIFO
    links: [{pool: A, name: fast}]
    policyPriority: [T]
policies:
  - {name: T, reserved: 0.5, limit: 2, profiles: [p, {profile: p, queue: tq}], description: team}
)");
  ASSERT_TRUE(loaded.config);
  EXPECT_EQ(Codes(loaded), std::vector<std::string>{});
  const Config& c = *loaded.config;
  EXPECT_FALSE(c.enabled);
  ASSERT_EQ(c.pools.size(), 1u);
  EXPECT_EQ(c.pools[0].resources, Quantity::Units(8));
  EXPECT_EQ(c.pools[0].queue, "qa");
  EXPECT_EQ(c.pools[0].execution_priority->at(0).name, "p");
  const Profile& p = c.profiles.at(0);
  EXPECT_EQ(p.allotment, *ParseQuantity("1/7"));
  EXPECT_EQ(p.dynamic_parameter, "runtime.gpus");
  EXPECT_EQ(p.queueing, Queueing::kStrictFIFO);
  EXPECT_EQ(p.links.at(0).pool, "A");
  EXPECT_EQ(p.links.at(0).name, "fast");
  const Policy& t = c.policies.at(0);
  EXPECT_EQ(t.reserved, *ParseQuantity("0.5"));
  EXPECT_EQ(t.limit, Quantity::Units(2));
  ASSERT_EQ(t.profiles.size(), 2u);
  EXPECT_FALSE(t.profiles[0].queue);
  EXPECT_EQ(t.profiles[1].queue, "tq");
  EXPECT_EQ(t.description, "team");
}

TEST(ConfigLoader, FormattingCommentsAndKeyOrderAreNotMeaning) {
  auto block = Load(R"(pools:
  - name: A   # the only pool
    resources: 8
profiles:
  - name: p
    allotment: 1
    links:
      - pool: A
policies:
  - name: T
    profiles:
      - p
)");
  auto flow = LoadConfigText(
      "kind: ResourceConfiguration\npolicies: [{profiles: [p], name: T}]\n"
      "profiles: [{links: [{pool: A}], allotment: 1.0, name: p}]\n"
      "pools: [{resources: \"8\", name: A}]\napiVersion: rescfg/v1\n",
      "d.yaml");
  ASSERT_TRUE(block.config && flow.config);
  EXPECT_EQ(*block.config, *flow.config);
}

TEST(ConfigLoader, ByteOrderMarkAndCrlfReadLikePlainText) {
  std::string text = kHead + "pools:\n  - name: A\n    resources: 8x\n";
  std::string crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  auto plain = LoadConfigText(text, "c.yaml");
  for (const std::string& variant : {"\xEF\xBB\xBF" + text, crlf, "\xEF\xBB\xBF" + crlf}) {
    auto loaded = LoadConfigText(variant, "c.yaml");
    ASSERT_TRUE(loaded.config);
    EXPECT_EQ(*loaded.config, *plain.config);
    ASSERT_EQ(Codes(loaded), std::vector<std::string>{"bad-quantity"});
    EXPECT_EQ(loaded.findings[0].mark.line, 5);
    EXPECT_EQ(loaded.findings[0].mark.column, 16);
  }
}

TEST(ConfigLoader, NullMeansAbsent) {
  auto loaded = Load(R"(pools: [{name: A, resources: 8, queue: ~, description:}]
profiles: ~
policies: [{name: T, limit: ~, reserved: null, profiles: [{profile: p, queue: ~}]}]
)");
  ASSERT_TRUE(loaded.config);
  EXPECT_EQ(Codes(loaded), std::vector<std::string>{});
  EXPECT_FALSE(loaded.config->policies[0].limit);
  EXPECT_FALSE(loaded.config->policies[0].profiles[0].queue);
  EXPECT_EQ(Codes(Load("pools: [{name: ~, resources: 8}]\n")), std::vector<std::string>{"missing-field"});
}

TEST(ConfigLoader, EnabledIsABooleanOnly) {
  for (const char* good : {"true", "false", "True", "FALSE"}) {
    EXPECT_EQ(Codes(Load(std::string("enabled: ") + good + "\n")), std::vector<std::string>{}) << good;
  }
  for (const char* bad : {"yes", "1", "\"true\"", "[true]", "on"}) {
    EXPECT_EQ(Codes(Load(std::string("enabled: ") + bad + "\n")), std::vector<std::string>{"wrong-type"}) << bad;
  }
}

TEST(ConfigLoader, NamesMayHoldSpacesAndUnicodeButNoControls) {
  EXPECT_EQ(Codes(Load("pools: [{name: \"Équipe ü 東京 rack 2\", resources: 8}]\n")), std::vector<std::string>{});
  for (const char* bad : {"\"a\\tb\"", "\"a\\nb\"", "\"a\\x7Fb\"", "\"a\\u0085b\"", "\"a\\x9Bb\"", "\"\""}) {
    auto loaded = Load(std::string("pools: [{name: A, resources: 8, queue: ") + bad + "}]\n");
    EXPECT_EQ(Codes(loaded), std::vector<std::string>{"bad-name"}) << bad;
  }
  // An entry whose own name is bad is named by its index.
  auto loaded = Load("pools: [{name: \"a\\tb\", resources: x}]\n");
  ASSERT_EQ(Codes(loaded), (std::vector<std::string>{"bad-name", "bad-quantity"}));
  EXPECT_EQ(loaded.findings[1].path, "pools[0].resources");
}

TEST(ConfigLoader, ShapeFindingsCarryPathsAndHints) {
  auto loaded = Load("pools: [{name: A, resources: 8, descripton: x}]\n");
  Finding f = Only(loaded);
  EXPECT_EQ(f.code, "unknown-key");
  EXPECT_EQ(f.path, "pools[A].descripton");
  EXPECT_EQ(f.hint, "did you mean 'description'?");
  EXPECT_EQ(f.mark.line, 3);
  EXPECT_EQ(f.mark.column, 33);

  EXPECT_EQ(Only(Load("pools: [{name: A, resources: 8, name: B}]\n")).code, "duplicate-key");
  EXPECT_EQ(Only(Load("pools: [{name: A, resources: 8, [x]: 1}]\n")).code, "wrong-type");
  EXPECT_EQ(Only(Load("pools: [{name: A}]\n")).path, "pools[A].resources");
  EXPECT_EQ(Only(Load("profiles: [{name: p, allotment: 1, links: [[A]]}]\n")).path, "profiles[p].links[0]");
  EXPECT_EQ(Only(Load("policies: [{name: T, profiles: [[p]]}]\n")).code, "wrong-type");
  EXPECT_EQ(Only(Load("profiles: [{name: p, allotment: 1, dynamic: {}}]\n")).path,
            "profiles[p].dynamic.parameter");
}

TEST(ConfigLoader, QuantitiesAreExactOrRefused) {
  auto amount = [](const std::string& text) {
    return Load("pools: [{name: A, resources: " + text + "}]\n");
  };
  EXPECT_EQ(amount("\"0.5\"").config->pools.at(0).resources, *ParseQuantity("0.5"));
  EXPECT_EQ(amount("3/8").config->pools.at(0).resources, *ParseQuantity("0.375"));
  struct Case { const char* text; const char* message; };
  for (const Case& c : {Case{"99999999999999999999999999999999999999999999", "larger than the largest"},
                        Case{"\"1/0\"", "divides by zero"}, Case{".nan", "not a quantity"},
                        Case{".inf", "not a quantity"}, Case{"-.inf", "negative"},
                        Case{"-0", "has a sign"}, Case{"-1", "negative"}, Case{"1e3", "not a quantity"},
                        Case{"0", "greater than 0"}, Case{"0x10", "not a quantity"},
                        Case{"\"1/17\"", "ticks"}}) {
    Finding f = Only(amount(c.text));
    EXPECT_EQ(f.code, "bad-quantity") << c.text;
    EXPECT_NE(f.message.find(c.message), std::string::npos) << c.text << ": " << f.message;
  }
}

TEST(ConfigLoader, AnchorsAndAliasesWork) {
  auto loaded = Load(R"(pools: [{name: A, resources: 8}, {name: B, resources: 8}]
profiles:
  - {name: p, allotment: 1, links: &both [{pool: A}, {pool: B}]}
  - {name: q, allotment: 2, links: *both}
)");
  ASSERT_TRUE(loaded.config);
  EXPECT_EQ(Codes(loaded), std::vector<std::string>{});
  EXPECT_EQ(loaded.config->profiles.at(1).links, loaded.config->profiles.at(0).links);
}

TEST(ConfigLoader, OneDocumentOnly) {
  EXPECT_EQ(Codes(LoadConfigText(kHead + "---\n" + kHead, "c.yaml")),
            std::vector<std::string>{"multiple-documents"});
  EXPECT_TRUE(LoadConfigText(kHead + "---\n" + kHead, "c.yaml").unusable);
  // Document markers around one document, and empty documents, are fine.
  EXPECT_EQ(Codes(LoadConfigText("---\n" + kHead + "...\n", "c.yaml")), std::vector<std::string>{});
  EXPECT_EQ(Codes(LoadConfigText(kHead + "---\n", "c.yaml")), std::vector<std::string>{});
}

TEST(ConfigLoader, EmptyFileIsInvalidNotUnusable) {
  auto loaded = LoadConfigText("", "c.yaml");
  EXPECT_FALSE(loaded.unusable);
  EXPECT_EQ(Codes(loaded), std::vector<std::string>{"wrong-type"});
  EXPECT_EQ(loaded.findings[0].mark.line, 1);
}

TEST(ConfigLoader, UnreadableFilesSayWhyOnce) {
  namespace fs = std::filesystem;
  fs::path dir = fs::path(::testing::TempDir()) / "rescfg-loader-test";
  fs::create_directories(dir);
  auto missing = LoadConfigFile((dir / "missing.yaml").string());
  EXPECT_TRUE(missing.unusable);
  ASSERT_EQ(Codes(missing), std::vector<std::string>{"unreadable"});
  EXPECT_EQ(missing.findings[0].message, "No such file or directory");
  EXPECT_EQ(missing.findings[0].file, (dir / "missing.yaml").string());

  auto directory = LoadConfigFile(dir.string());
  EXPECT_TRUE(directory.unusable);
  EXPECT_EQ(directory.findings.at(0).message, "is a directory");
}

TEST(ConfigLoader, NodeCeilingStopsHugeDocumentsBeforeBuildingThem) {
  std::string text = kHead + "pools: [";
  for (size_t i = 0; i < CurrentLimits().config_nodes; ++i) text += "1,";
  text += "1]\n";
  auto loaded = LoadConfigText(text, "c.yaml");
  EXPECT_TRUE(loaded.unusable);
  EXPECT_EQ(Codes(loaded), std::vector<std::string>{"too-large"});
  // Counted by yaml-cpp instead of the fast scanner (an anchor is outside
  // its subset): the same answer.
  std::string anchored = text;
  anchored.replace(anchored.find("pools: ["), 8, "pools: &all [");
  EXPECT_EQ(Codes(LoadConfigText(anchored, "c.yaml")), std::vector<std::string>{"too-large"});
  // Just under the ceiling is read.
  std::string fits = kHead + "pools: [";
  for (size_t i = 0; i < CurrentLimits().config_nodes - 10; ++i) fits += "1,";
  fits += "1]\n";
  auto read = LoadConfigText(fits, "c.yaml");
  EXPECT_FALSE(read.unusable);
  EXPECT_EQ(read.findings.size(), CurrentLimits().config_nodes - 9);  // every entry is not a pool
}

}  // namespace
}  // namespace rescfg
