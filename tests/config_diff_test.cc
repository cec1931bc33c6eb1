#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

#include "config/canonical.h"
#include "config/loader.h"
#include "diff/config_diff.h"
#include "gitops_config_gen.h"

#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kBase = R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: A, resources: 8}
  - {name: B, resources: 8, queue: b}
profiles:
  - name: four
    allotment: 4
    links: [{pool: A, name: low}, {pool: B, name: high}]
  - {name: two, allotment: 2, links: [{pool: B}]}
policies:
  - {name: Dev, reserved: 8, limit: 16, profiles: [four, two]}
  - {name: Ops, profiles: [four]}
)";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

std::vector<std::string> Lines(const ConfigDiff& diff) {
  std::vector<std::string> out;
  std::string text = RenderDiffText(diff);
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  if (!out.empty()) out.pop_back();  // the summary line
  return out;
}

TEST(ConfigDiff, SameConfigHasNoChanges) {
  ConfigDiff diff = DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(kBase));
  EXPECT_TRUE(diff.empty());
  EXPECT_EQ(RenderDiffText(diff), "No changes.\n");
}

TEST(ConfigDiff, SpelledOutDefaultsAreNotChanges) {
  std::string explicit_defaults = Replace(kBase, "{name: A, resources: 8}",
                                          "{name: A, resources: 8.000, queue: A, executionPriority: [four]}");
  explicit_defaults = Replace(explicit_defaults, "profiles: [four, two]",
                              "profiles: [{profile: four, queue: Dev/four}, two]");
  EXPECT_TRUE(DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(explicit_defaults)).empty());
}

TEST(ConfigDiff, FieldChanges) {
  std::string changed = Replace(kBase, "{name: A, resources: 8}", "{name: A, resources: \"17/2\"}");
  changed = Replace(changed, "{name: Ops, profiles: [four]}", "{name: Ops, limit: 4, profiles: [four]}");
  changed = Replace(changed, "{pool: B, name: high}", "{pool: B, name: fast}");
  EXPECT_EQ(Lines(DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(changed))),
            (std::vector<std::string>{
                "~ pool \"A\": resources: 8 -> 8.5",
                "~ profile \"four\": links[B].name: \"high\" -> \"fast\"",
                "~ policy \"Ops\": limit: (none) -> 4",
            }));
}

TEST(ConfigDiff, AddedRemovedAndReordered) {
  std::string changed = Replace(kBase, "links: [{pool: A, name: low}, {pool: B, name: high}]",
                                "links: [{pool: B, name: high}, {pool: A, name: low}]");
  changed = Replace(changed, "  - {name: Ops, profiles: [four]}\n", "  - {name: Research, profiles: [four]}\n");
  changed = Replace(changed, "profiles: [four, two]", "profiles: [two]");
  ConfigDiff diff = DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(changed));
  EXPECT_EQ(Lines(diff), (std::vector<std::string>{
                             "~ profile \"four\": links reordered: [\"A\", \"B\"] -> [\"B\", \"A\"]",
                             "~ profile \"four\": policyPriority: [\"Dev\", \"Ops\"] -> [\"Research\"]",
                             "- policy \"Ops\"",
                             "- policy \"Dev\": profiles[four]",
                             "+ policy \"Research\"",
                             "    reserved: 0",
                             "    profiles:",
                             "      - {profile: \"four\", queue: \"Research/four\"}",
                         }))
      << RenderDiffText(diff);
}

// The order of pools means nothing (rescfg(1), COMMANDS); the order of profiles does
// while a priority list defaults to it.
TEST(ConfigDiff, PriorityReorderAndEntityOrder) {
  std::string changed = Replace(kBase, "  - {name: A, resources: 8}\n  - {name: B, resources: 8, queue: b}\n",
                                "  - {name: B, resources: 8, queue: b, executionPriority: [two, four]}\n"
                                "  - {name: A, resources: 8}\n");
  ConfigDiff diff = DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(changed));
  EXPECT_EQ(Lines(diff), (std::vector<std::string>{
                             "~ pool \"B\": executionPriority reordered: [\"four\", \"two\"] -> [\"two\", \"four\"]",
                         }))
      << RenderDiffText(diff);
}

TEST(ConfigDiff, JsonShape) {
  std::string changed = Replace(kBase, "{name: A, resources: 8}", "{name: A, resources: \"1/3\"}");
  JsonWriter json;
  WriteDiffJson(DiffConfigs(testing::ConfigFromYaml(kBase), testing::ConfigFromYaml(changed)), json);
  EXPECT_EQ(json.str(),
            R"([{"op":"changed","kind":"pool","name":"A","field":"resources","old":8,"new":"1/3"}])");
}

/// A small random edit of a configuration that keeps names unique.
Config Mutate(Config c) {
  switch (*rc::gen::inRange(0, 14)) {
    case 0: c.enabled = !c.enabled; break;
    case 1: if (!c.pools.empty()) c.pools[0].resources += Quantity::Units(1); break;
    case 2: c.pools = testing::Shuffled(c.pools); break;
    case 3: if (!c.profiles.empty()) c.profiles.back().links = testing::Shuffled(c.profiles.back().links); break;
    case 4: if (!c.policies.empty()) c.policies.erase(c.policies.begin()); break;
    case 5: if (!c.profiles.empty()) c.profiles[0].description += "x"; break;
    case 7: if (!c.pools.empty()) c.pools[0].paused = !c.pools[0].paused; break;
    case 8: if (!c.policies.empty()) c.policies[0].paused = !c.policies[0].paused; break;
    case 9:
      if (!c.profiles.empty() && !c.profiles[0].links.empty()) c.profiles[0].links[0].queue += "-q";
      break;
    case 6:
      if (!c.pools.empty() && c.pools[0].execution_priority) {
        c.pools[0].execution_priority = testing::Shuffled(*c.pools[0].execution_priority);
      }
      break;
    case 10: if (!c.policies.empty()) c.policies[0].preemptible = !c.policies[0].preemptible; break;
    case 11: c.preemption = c.preemption ? std::nullopt : std::optional<PreemptionSettings>(PreemptionSettings{}); break;
    case 12: if (c.preemption) c.preemption->delay_us += 1; break;
    default: break;  // unchanged
  }
  return c;
}

/// The canonical text with the pools in name order: what a diff compares.
std::string CanonicalUpToPoolOrder(Config c) {
  std::sort(c.pools.begin(), c.pools.end(), [](const Pool& x, const Pool& y) { return x.name < y.name; });
  return WriteCanonical(c);
}

RC_GTEST_PROP(ConfigDiff, NoChangesExactlyWhenCanonicalTextIsEqual, ()) {
  const Config a = *testing::GenConfig();
  const Config b = Mutate(a);
  ConfigDiff diff = DiffConfigs(a, b);
  RC_ASSERT(diff.empty() == (CanonicalUpToPoolOrder(a) == CanonicalUpToPoolOrder(b)));
  RC_ASSERT(DiffConfigs(a, a).empty());
}

}  // namespace
}  // namespace rescfg
