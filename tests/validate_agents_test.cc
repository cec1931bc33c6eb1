// Validation warns about jobs no ClearML agent of a linked pool starts, or
// sizes as rescfg does (multi-machine-allotment, dynamic-queue), by the same
// rule the agent export sizes by (config/agent_reach.h).

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "config/agent_reach.h"
#include "config/loader.h"
#include "export/clearml_agent.h"
#include "validate/load.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

const std::string kHead = "apiVersion: rescfg/v1\nkind: ResourceConfiguration\n";

/// "code path line:col" of every validation finding, in order.
std::vector<std::string> Findings(const std::string& body) {
  LoadedConfig loaded = LoadConfigText(kHead + body, "test.yaml");
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  SortFindings(loaded.findings.begin(), loaded.findings.end());
  std::vector<std::string> out;
  for (const Finding& f : loaded.findings) {
    out.push_back(f.code + " " + f.path + " " + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column));
  }
  return out;
}

const std::string kPools = R"(pools:
  - {name: metal, nodes: {count: 4, gpus: 4}}
  - {name: bag, resources: 16}
)";

TEST(ValidateAgents, AnAllotmentOfWholeMachinesWarnsAtItsLink) {
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: bag, queue: b8}, {pool: metal, queue: m8}]}
  - {name: 4xGPU, allotment: 4, links: [{pool: metal, queue: m4}]}
policies: [{name: t, profiles: [8xGPU, 4xGPU]}]
)"),
            std::vector<std::string>{"multi-machine-allotment profiles[8xGPU].links[1] 7:65"});
  LoadedConfig loaded = LoadConfigText(kHead + kPools + R"(profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: metal}]}
policies: [{name: t, profiles: [8xGPU]}]
)", "test.yaml");
  ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  ASSERT_EQ(loaded.findings.size(), 2u);  // and unused-pool bag
  const Finding& f = loaded.findings[1];
  ASSERT_EQ(f.code, "multi-machine-allotment");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_NE(f.message.find("takes whole machines of pool 'metal' (4 GPUs each)"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("no agent starts its jobs there"), std::string::npos) << f.message;
  EXPECT_NE(f.hint.find("at most 4 GPUs"), std::string::npos) << f.hint;
}

TEST(ValidateAgents, ADynamicProfileWarnsOnlyWherePoolMachinesAreServedByDaemons) {
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - name: sized
    allotment: 1
    dynamic: {parameter: runtime.gpus_request}
    links: [{pool: bag, queue: bs}, {pool: metal, queue: ms}]
policies: [{name: t, profiles: [sized]}]
)"),
            std::vector<std::string>{"dynamic-queue profiles[sized].links[1] 10:37"});
  // A bag of GPUs may be the Kubernetes glue, which sizes each pod with a per-task template.
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - {name: sized, allotment: 1, dynamic: {parameter: runtime.g}, links: [{pool: bag}]}
policies: [{name: t, profiles: [sized]}]
)"),
            std::vector<std::string>{"unused-pool pools[metal] 4:12"});
}

TEST(ValidateAgents, OneMistakeOneFinding) {
  // Whole machines nowhere: allotment-fits-no-machine says it.
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - {name: 6xGPU, allotment: 6, links: [{pool: metal}]}
policies: [{name: t, profiles: [6xGPU]}]
)"),
            (std::vector<std::string>{"unused-pool pools[bag] 5:12",
                                      "allotment-fits-no-machine profiles[6xGPU].allotment 7:30"}));
  // A profile no policy uses sends no job to any agent: unused-profile says it.
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: metal}, {pool: bag}]}
  - {name: sized, allotment: 1, dynamic: {parameter: runtime.g}, links: [{pool: metal, queue: ms}]}
policies: [{name: t, profiles: [sized]}]
)"),
            (std::vector<std::string>{"unused-profile profiles[8xGPU] 7:12",
                                      "dynamic-queue profiles[sized].links[0] 8:74"}));
  // An unknown pool is unknown-reference; a pool linked twice, duplicate-link.
  EXPECT_EQ(Findings(kPools + R"(profiles:
  - {name: 8xGPU, allotment: 8, links: [{pool: metl}, {pool: metal, queue: a}, {pool: metal, queue: b}]}
policies: [{name: t, profiles: [8xGPU]}]
)"),
            (std::vector<std::string>{"unused-pool pools[bag] 5:12",
                                      "unknown-reference profiles[8xGPU].links[0].pool 7:48",
                                      "multi-machine-allotment profiles[8xGPU].links[1] 7:55",
                                      "duplicate-link profiles[8xGPU].links[2].pool 7:87"}));
}

/// The links, as "profile pool", the export of `mode` says of `code`.
std::set<std::string> ExportSays(const Config& config, AgentMode mode, const std::string& code) {
  std::set<std::string> out;
  for (const ExportFinding& f : ExportClearmlAgent(config, {mode, ""}).findings) {
    if (f.code != code) continue;
    for (const Pool& pool : config.pools) {
      if (f.message.find("of pool '" + pool.name + "'") == std::string::npos) continue;
      out.insert(f.path.substr(9, f.path.find(']') - 9) + " " + pool.name);
    }
  }
  return out;
}

/// The links, as "profile pool", validation warns of with `code`.
std::set<std::string> ValidationSays(const LoadedConfig& loaded, const Config& config, const std::string& code) {
  std::set<std::string> out;
  for (const Finding& f : loaded.findings) {
    if (f.code != code) continue;
    const std::string profile = f.path.substr(9, f.path.find(']') - 9);
    const size_t link = std::stoul(f.path.substr(f.path.rfind('[') + 1));
    out.insert(profile + " " + config.FindProfile(profile)->links[link].pool);
  }
  return out;
}

TEST(ValidateAgents, ValidationAndTheDaemonExportAgree) {
  for (const char* allotment : {"1", "2", "4", "8", "16", "0.5"}) {
    for (const char* dynamic : {"", ", dynamic: {parameter: runtime.g}"}) {
      const std::string body = R"(pools:
  - {name: metal, nodes: {count: 4, gpus: 4}}
  - {name: dgx, nodes: {count: 2, gpus: 8}}
  - {name: bag, resources: 16}
profiles:
  - {name: p, allotment: )" + std::string(allotment) + dynamic +
                               R"(, links: [{pool: metal, queue: m}, {pool: dgx, queue: d}, {pool: bag, queue: b}]}
policies: [{name: t, profiles: [p]}]
)";
      LoadedConfig loaded = LoadValidConfigText(kHead + body, "test.yaml");
      ASSERT_TRUE(loaded.config) << body;
      const Config& config = *loaded.config;
      SCOPED_TRACE(body);
      EXPECT_EQ(ValidationSays(loaded, config, "multi-machine-allotment"),
                ExportSays(config, AgentMode::kDaemon, "multi-machine-allotment"));
      EXPECT_EQ(ValidationSays(loaded, config, "multi-machine-allotment"),
                ExportSays(config, AgentMode::kK8sGlue, "multi-machine-allotment"));
      // Where the machines are served by daemons, the daemon export's dynamic-queue.
      std::set<std::string> daemon_pools;
      for (const std::string& link : ExportSays(config, AgentMode::kDaemon, "dynamic-queue")) {
        if (ServedByDaemons(*config.FindPool(link.substr(link.find(' ') + 1)))) daemon_pools.insert(link);
      }
      EXPECT_EQ(ValidationSays(loaded, config, "dynamic-queue"), daemon_pools);
    }
  }
}

}  // namespace
}  // namespace rescfg
