#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "config/human_amount.h"
#include "decide/report.h"
#include "graph/drawing.h"
#include "graph/graph.h"
#include "support/generators.h"

namespace rescfg {
namespace {

using testing::GenScenario;
using testing::Scenario;

std::set<std::string> Titles(const std::vector<GraphNode>& nodes) {
  std::set<std::string> out;
  for (const auto& n : nodes) out.insert(n.title);
  return out;
}

const GraphNode* Find(const Drawing& d, const std::string& id) {
  for (const auto* list : {&d.policies, &d.profiles, &d.pools}) {
    for (const auto& n : *list) if (n.id == id) return &n;
  }
  return nullptr;
}

const GraphRow* Row(const std::vector<GraphRow>& rows, const std::string& port) {
  for (const auto& r : rows) if (r.port == port) return &r;
  return nullptr;
}

bool Uses(const Policy& policy, const std::string& profile) {
  return std::any_of(policy.profiles.begin(), policy.profiles.end(),
                     [&](const PolicyProfile& p) { return p.profile == profile; });
}

bool Links(const Profile& profile, const std::string& pool) {
  return std::any_of(profile.links.begin(), profile.links.end(), [&](const Link& l) { return l.pool == pool; });
}

/// What a view must hold, written from GraphFilter's words: the listed
/// policies and pools, or, for the side not listed, what the other reaches.
struct Expected {
  std::set<std::string> policies, profiles, pools;
};

Expected ExpectedView(const Config& c, const GraphFilter& f) {
  auto listed = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  Expected e;
  for (const auto& profile : c.profiles) {
    bool used = f.policies.empty(), linked = f.pools.empty();
    for (const auto& policy : c.policies) used = used || (listed(f.policies, policy.name) && Uses(policy, profile.name));
    for (const auto& pool : c.pools) linked = linked || (listed(f.pools, pool.name) && Links(profile, pool.name));
    if (used && linked) e.profiles.insert(profile.name);
  }
  for (const auto& policy : c.policies) {
    bool reaches = false;
    for (const auto& name : e.profiles) reaches = reaches || Uses(policy, name);
    if (f.policies.empty() ? (f.pools.empty() || reaches) : listed(f.policies, policy.name)) e.policies.insert(policy.name);
  }
  for (const auto& pool : c.pools) {
    bool reached = false;
    for (const auto& profile : c.profiles) reached = reached || (e.profiles.count(profile.name) && Links(profile, pool.name));
    if (f.pools.empty() ? (f.policies.empty() || reached) : listed(f.pools, pool.name)) e.pools.insert(pool.name);
  }
  return e;
}

/// A filter of some of the configuration's policies and pools.
GraphFilter GenFilter(const Config& c) {
  GraphFilter f;
  for (const auto& policy : c.policies) if (*rc::gen::inRange(0, 3) == 0) f.policies.push_back(policy.name);
  for (const auto& pool : c.pools) if (*rc::gen::inRange(0, 3) == 0) f.pools.push_back(pool.name);
  return f;
}

RC_GTEST_PROP(Graph, AViewHoldsExactlyWhatItsFilterSays, ()) {
  Scenario s = *GenScenario();
  const Config& c = *s.config;
  GraphFilter f = GenFilter(c);
  RC_ASSERT(CheckGraphFilter(c, f).empty());
  Drawing d = Draw(c, f, nullptr);
  Expected e = ExpectedView(c, f);
  RC_ASSERT(Titles(d.policies) == e.policies);
  RC_ASSERT(Titles(d.profiles) == e.profiles);
  RC_ASSERT(Titles(d.pools) == e.pools);
  // Every link and policy entry between drawn nodes is an edge, once.
  size_t edges = 0;
  for (const auto& profile : c.profiles) {
    if (!e.profiles.count(profile.name)) continue;
    for (const auto& link : profile.links) edges += e.pools.count(link.pool);
    for (const auto& policy : c.policies) edges += e.policies.count(policy.name) && Uses(policy, profile.name);
  }
  RC_ASSERT(d.edges.size() == edges);
}

RC_GTEST_PROP(Graph, EveryEdgeRunsFromTheRowThatNamesItsTargetToTheRowThatNamesItsSource, ()) {
  Scenario s = *GenScenario();
  const Config& c = *s.config;
  Drawing d = Draw(c, GenFilter(c), nullptr);
  for (const auto& e : d.edges) {
    const GraphNode* from = Find(d, e.from);
    const GraphNode* to = Find(d, e.to);
    RC_ASSERT(from != nullptr);
    RC_ASSERT(to != nullptr);
    const GraphRow* out = Row(from->out_rows, e.from_port);
    const GraphRow* in = Row(to->rows, e.to_port);
    RC_ASSERT(out != nullptr);
    RC_ASSERT(in != nullptr);
    if (e.from.rfind("policy", 0) == 0) {
      // policy row "PROFILE, queue Q" -> profile row "priority N: POLICY", N its rank.
      RC_ASSERT(out->item == to->title);
      const Profile& profile = c.profiles[to->index];
      size_t rank = std::stoul(e.to_port.substr(2));
      RC_ASSERT((*profile.policy_priority)[rank].name == from->title);
      RC_ASSERT(in->text == "priority " + std::to_string(rank + 1) + ": " + from->title);
      RC_ASSERT(e.color == static_cast<int>(from->index));
    } else {
      // profile row "link N: POOL" -> pool row "execution M: PROFILE, ...".
      const Profile& profile = c.profiles[from->index];
      size_t link = std::stoul(e.from_port.substr(1));
      RC_ASSERT(profile.links[link].pool == to->title);
      const Pool& pool = c.pools[to->index];
      size_t rank = std::stoul(e.to_port.substr(1));
      RC_ASSERT((*pool.execution_priority)[rank].name == from->title);
      RC_ASSERT(in->text.rfind("execution " + std::to_string(rank + 1) + ": " + from->title + ",", 0) == 0);
    }
  }
}

RC_GTEST_PROP(Graph, PoolUsageIsWhatTheScheduleHolds, ()) {
  Scenario s = *GenScenario();
  const Config& c = *s.config;
  ScheduleReport report = BuildSchedule(c, s.entries);
  Drawing d = Draw(c, {}, &report);
  RC_ASSERT(d.pools.size() == report.pools.size());
  for (const auto& node : d.pools) {
    const PoolSummary& summary = report.pools[node.index];
    std::string want = "in use " + HumanAmount(summary.in_use) + " / " + HumanAmount(summary.size) + ": ";
    RC_ASSERT(std::any_of(node.lines.begin(), node.lines.end(),
                          [&](const std::string& line) { return line.rfind(want, 0) == 0; }));
  }
  for (const auto& node : d.policies) {
    std::string want = "used " + HumanAmount(report.policies[node.index].used);
    RC_ASSERT(std::any_of(node.lines.begin(), node.lines.end(),
                          [&](const std::string& line) { return line.rfind(want, 0) == 0; }));
  }
}

RC_GTEST_PROP(Graph, RenderingIsDeterministicAndNamesEveryDrawnNode, ()) {
  Scenario s = *GenScenario();
  const Config& c = *s.config;
  GraphFilter f = GenFilter(c);
  for (GraphFormat format : {GraphFormat::kDot, GraphFormat::kMermaid}) {
    std::string out = RenderGraph(c, format, f);
    RC_ASSERT(out == RenderGraph(c, format, f));
    Drawing d = Draw(c, f, nullptr);
    for (const auto* list : {&d.policies, &d.profiles, &d.pools}) {
      for (const auto& n : *list) RC_ASSERT(out.find("  " + n.id + (format == GraphFormat::kDot ? " [" : "")) != std::string::npos);
    }
  }
}

Config TwoTeams() {
  Config c;
  Pool a;
  a.name = "A & <B>";
  a.resources = Quantity::Units(8);
  c.pools.push_back(a);
  Profile p;
  p.name = "1xGPU";
  p.allotment = Quantity::Units(1);
  p.links.push_back(LinkTo(a.name));
  c.profiles.push_back(p);
  for (const char* name : {"Dev \"one\"", "Research"}) {
    Policy policy;
    policy.name = name;
    policy.profiles.push_back({"1xGPU", std::nullopt, {}, {}, {}});
    c.policies.push_back(policy);
  }
  ApplyDefaults(c);
  return c;
}

TEST(Graph, UnknownFilterNamesAreRefusedWithADidYouMean) {
  Config c = TwoTeams();
  EXPECT_EQ(CheckGraphFilter(c, {{"Reserch"}, {}}), "there is no policy named 'Reserch' (did you mean 'Research'?)");
  EXPECT_EQ(CheckGraphFilter(c, {{}, {"nope"}}), "there is no pool named 'nope'");
  EXPECT_EQ(CheckGraphFilter(c, {{"Research"}, {"A & <B>"}}), "");
}

TEST(Graph, NamesAreEscapedForEachFormat) {
  Config c = TwoTeams();
  std::string dot = RenderGraph(c, GraphFormat::kDot);
  EXPECT_NE(dot.find("<B>A &amp; &lt;B&gt;</B>"), std::string::npos) << dot;
  EXPECT_NE(dot.find("<B>Dev &quot;one&quot;</B>"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("A & <B>"), std::string::npos) << dot;
  std::string mermaid = RenderGraph(c, GraphFormat::kMermaid);
  EXPECT_NE(mermaid.find("A #amp; #lt;B#gt;"), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("Dev #quot;one#quot;"), std::string::npos) << mermaid;
}

TEST(Graph, TheLegendSaysWhatTheRanksMean) {
  Config c = TwoTeams();
  for (GraphFormat format : {GraphFormat::kDot, GraphFormat::kMermaid}) {
    std::string out = RenderGraph(c, format);
    EXPECT_NE(out.find("priority N: the policy's rank in the profile's policyPriority"), std::string::npos) << out;
    EXPECT_NE(out.find("execution N: the profile's rank in the pool's executionPriority"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace rescfg
