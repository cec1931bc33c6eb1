#include "support/scenario_text.h"

#include <gtest/gtest.h>

#include "config/loader.h"

namespace rescfg::testing {

const char* const kWorkedExampleYaml = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: Bare Metal Low END GPUs, resources: 8}
  - {name: H100 Half a Superpod, resources: 8, executionPriority: [2xGPU, 4xGPU, 8xGPU, 0.5xGPU]}
profiles:
  - {name: 0.5xGPU, allotment: 0.5, links: [{pool: H100 Half a Superpod}]}
  - {name: 2xGPU, allotment: 2, links: [{pool: H100 Half a Superpod}]}
  - name: 4xGPU
    allotment: 4
    links: [{pool: Bare Metal Low END GPUs}, {pool: H100 Half a Superpod}]
    policyPriority: [Dev, Research]
  - {name: 8xGPU, allotment: 8, links: [{pool: H100 Half a Superpod}]}
policies:
  - {name: Dev, reserved: 8, limit: 16, profiles: [4xGPU]}
  - {name: Research, reserved: 8, limit: 16, profiles: [4xGPU]}
)";

Config ConfigFromYaml(const std::string& yaml) {
  LoadedConfig loaded = LoadConfigText(yaml, "test.yaml");
  for (const auto& f : loaded.findings) ADD_FAILURE() << f.mark.line << ":" << f.mark.column << " " << f.code << " " << f.message;
  if (!loaded.config) {
    ADD_FAILURE() << "configuration did not load";
    return {};
  }
  ApplyDefaults(*loaded.config);
  return *loaded.config;
}

TextRef Keep(const std::string& text) {
  static TextArena* arena = new TextArena();  // never freed: entries may view it to the end
  return arena->Keep(text);
}

JobEntry Queued(const std::string& id, const std::string& policy, const std::string& profile, const std::string& gpus) {
  JobEntry e;
  e.id = Keep(id);
  e.policy = Keep(policy);
  e.profile = Keep(profile);
  if (!gpus.empty()) e.params.push_back({"runtime.gpus", Keep(gpus)});
  return e;
}

JobEntry Running(const std::string& id, const std::string& policy, const std::string& profile,
                 const std::string& pool, const std::string& resources) {
  JobEntry e = Queued(id, policy, profile);
  e.state = "running";
  e.pool = Keep(pool);
  if (!resources.empty()) e.resources = Keep(resources);
  return e;
}

std::vector<std::string> Summarise(const ScheduleReport& report) {
  std::vector<std::string> out;
  for (const auto& j : report.jobs) {
    std::string detail = j.status == JobStatus::kAssigned || j.status == JobStatus::kRunning ? std::string(*j.pool)
                                                                                             : j.reason.value_or("");
    out.push_back(j.id.value_or("#" + std::to_string(j.entry)) + ":" + JobStatusName(j.status) + ":" + detail);
  }
  return out;
}

}  // namespace rescfg::testing
