/// `nodes.names` (rescfg(5), Pools): `none` for pools whose machines Kubernetes or an
/// autoscaler places. The loader, the canonical form, the diff and validation; and a ClearML
/// snapshot whose workers the k8s glue names GLUE_ID:TASK_ID: its tasks are spread over the
/// machines by the pass's rule, not all put on one "machine".

#include <gtest/gtest.h>

#include "clearml/queues.h"
#include "clearml/tasks.h"
#include "clearml/workers.h"
#include "config/canonical.h"
#include "config/loader.h"
#include "decide/report.h"
#include "diff/config_diff.h"
#include "validate/load.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

std::string Config(const std::string& nodes, const std::string& pool_extra = "") {
  return "apiVersion: rescfg/v1\nkind: ResourceConfiguration\npools:\n"
         "  - name: H100\n    queue: h100\n    nodes: " + nodes + "\n" + pool_extra +
         "profiles:\n  - {name: two, allotment: 2, links: [H100]}\n"
         "policies:\n  - {name: Dev, profiles: [{profile: two, queue: dev-two}]}\n";
}

std::vector<Finding> Findings(const std::string& text) {
  LoadedConfig loaded = LoadConfigText(text, "test.yaml");
  if (loaded.config) ValidateConfig(*loaded.config, loaded.file, &loaded.findings);
  return loaded.findings;
}

std::vector<std::string> Codes(const std::string& text) {
  std::vector<std::string> codes;
  for (const auto& f : Findings(text)) codes.push_back(f.code);
  return codes;
}

TEST(MachineNames, DefaultIsWorkerAndNoneIsRead) {
  for (const char* nodes : {"{count: 4, gpus: 8}", "{count: 4, gpus: 8, names: worker}", "{count: 4, gpus: 8, names: ~}"}) {
    LoadedConfig loaded = LoadValidConfigText(Config(nodes), "test.yaml");
    ASSERT_TRUE(loaded.config) << nodes;
    EXPECT_TRUE(loaded.config->pools[0].nodes->names_from_workers) << nodes;
  }
  LoadedConfig loaded = LoadValidConfigText(Config("{count: 4, gpus: 8, names: none}"), "test.yaml");
  ASSERT_TRUE(loaded.config);
  EXPECT_FALSE(loaded.config->pools[0].nodes->names_from_workers);
  EXPECT_EQ(loaded.config->pools[0].resources, Quantity::Units(32));
}

TEST(MachineNames, AnythingElseIsABadValueAtItsPlace) {
  auto findings = Findings(Config("{count: 4, gpus: 8, names: nodes}"));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "bad-value");
  EXPECT_EQ(findings[0].path, "pools[H100].nodes.names");
  EXPECT_EQ(findings[0].mark.line, 6);
  EXPECT_EQ(findings[0].mark.column, 39);
  EXPECT_EQ(findings[0].hint, "none: Kubernetes or an autoscaler places the machines");
  findings = Findings(Config("{count: 4, gpus: 8, names: nome}"));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].hint, "did you mean 'none'?");
  EXPECT_EQ(Codes(Config("{count: 4, gpus: 8, names: [none]}")), std::vector<std::string>{"wrong-type"});
}

TEST(MachineNames, CanonicalFormWritesNoneOnlyAndReadsBackTheSame) {
  LoadedConfig none = LoadValidConfigText(Config("{count: 4, gpus: 8, names: none}"), "test.yaml");
  LoadedConfig worker = LoadValidConfigText(Config("{count: 4, gpus: 8, names: worker}"), "test.yaml");
  ASSERT_TRUE(none.config && worker.config);
  const std::string canonical = WriteCanonical(*none.config);
  EXPECT_NE(canonical.find("    nodes: {count: 4, gpus: 8, names: none}\n"), std::string::npos) << canonical;
  EXPECT_NE(WriteCanonical(*worker.config).find("    nodes: {count: 4, gpus: 8}\n"), std::string::npos);
  LoadedConfig again = LoadValidConfigText(canonical, "canonical.yaml");
  ASSERT_TRUE(again.config);
  EXPECT_EQ(again.config->pools[0], none.config->pools[0]);
  EXPECT_EQ(WriteCanonical(*again.config), canonical);
  EXPECT_FALSE(none.config->pools[0] == worker.config->pools[0]);
}

TEST(MachineNames, DiffShowsTheChange) {
  LoadedConfig a = LoadValidConfigText(Config("{count: 4, gpus: 8}"), "a.yaml");
  LoadedConfig b = LoadValidConfigText(Config("{count: 4, gpus: 8, names: none}"), "b.yaml");
  ASSERT_TRUE(a.config && b.config);
  auto changes = DiffConfigs(*a.config, *b.config).changes;
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].field, "nodes");
}

TEST(MachineNames, AKubernetesPoolNamedAfterWorkersIsAWarningAtItsNodes) {
  const std::string labels = "    kubernetes:\n      nodeLabels: {nvidia.com/gpu.product: H100}\n";
  auto findings = Findings(Config("{count: 4, gpus: 8}", labels));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].code, "k8s-machine-names");
  EXPECT_EQ(findings[0].severity, Severity::kWarning);
  EXPECT_EQ(findings[0].path, "pools[H100].nodes");
  EXPECT_EQ(findings[0].mark.line, 6);
  EXPECT_EQ(findings[0].mark.column, 12);
  EXPECT_NE(findings[0].hint.find("nodes: {count: 4, gpus: 8, names: none}"), std::string::npos);
  // Said so, or no kubernetes block (bare-metal agents name their machines), or a
  // block that says nothing about nodes: no warning.
  EXPECT_EQ(Codes(Config("{count: 4, gpus: 8, names: none}", labels)), std::vector<std::string>{});
  EXPECT_EQ(Codes(Config("{count: 4, gpus: 8}")), std::vector<std::string>{});
  EXPECT_EQ(Codes(Config("{count: 4, gpus: 8}", "    kubernetes: {}\n")), std::vector<std::string>{});
  EXPECT_EQ(Codes(Config("{count: 4, gpus: 8}", "    kubernetes:\n      tolerations: [{key: gpu}]\n")),
            std::vector<std::string>{"k8s-machine-names"});
}

/// Eight 2-GPU tasks on a 4 x 8 pool, each run by a k8s glue worker `glue-h100:TASK_ID`.
ScheduleReport GlueSnapshot(const std::string& nodes) {
  LoadedConfig loaded = LoadValidConfigText(Config(nodes), "config.yaml");
  EXPECT_TRUE(loaded.config);
  const clearml::QueueList queues =
      clearml::ReadQueuesText(R"([{"id": "q1", "name": "h100"}, {"id": "q2", "name": "dev-two"}])", "queues.json");
  std::string workers = "[", tasks;
  for (int i = 0; i < 8; ++i) {
    const std::string id = "t" + std::to_string(i);
    workers += std::string(i ? ", " : "") + R"({"id": "glue-h100:)" + id + R"(", "task": {"id": ")" + id +
               R"("}, "queue": {"name": "h100"}})";
    tasks += R"({"id": ")" + id + R"(", "status": "in_progress", "execution": {"queue": {"name": "dev-two"}}})" "\n";
  }
  tasks += R"({"id": "w", "status": "queued", "execution": {"queue": {"name": "dev-two"}}})" "\n";
  const clearml::WorkerList list = clearml::ReadWorkersText(workers + "]", "workers.json");
  LoadedJobs jobs = clearml::LoadClearmlTasksText(tasks, "tasks.jsonl", {&queues, &list}, {});
  EXPECT_FALSE(jobs.unusable);
  return BuildSchedule(*loaded.config, std::move(jobs));
}

std::string Node(const JobOutcome& j) { return j.node ? std::string(*j.node) : "-"; }

TEST(MachineNames, GlueWorkerIdsGiveNoMachineTasksAreSpreadByThePassRule) {
  ScheduleReport r = GlueSnapshot("{count: 4, gpus: 8, names: none}");
  ASSERT_EQ(r.jobs.size(), 9u);
  // Where a new 2-GPU task would go: the machine with the least free that is
  // still enough, so four on machine 1, four on machine 2.
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(r.jobs[i].status, JobStatus::kRunning) << i;
    EXPECT_EQ(Node(r.jobs[i]), i < 4 ? "#1" : "#2") << i;
  }
  EXPECT_EQ(r.jobs[8].status, JobStatus::kAssigned);
  EXPECT_EQ(Node(r.jobs[8]), "#3");
  ASSERT_EQ(r.pools[0].machine_free.size(), 4u);
  EXPECT_EQ(r.pools[0].machine_free, (std::vector<Quantity>{Quantity(), Quantity(), Quantity::Units(6),
                                                            Quantity::Units(8)}));
  EXPECT_EQ(r.pools[0].in_use, Quantity::Units(18));
}

TEST(MachineNames, ByDefaultTheGlueIdsHostPartIsOneMachine) {
  // What names: none is for: every task on "glue-h100", machine 1, 16 GPUs of work on 8.
  ScheduleReport r = GlueSnapshot("{count: 4, gpus: 8}");
  ASSERT_EQ(r.jobs.size(), 9u);
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(Node(r.jobs[i]), "glue-h100") << i;
  EXPECT_EQ(r.pools[0].machine_free[0], Quantity());
  EXPECT_EQ(r.pools[0].machine_free[3], Quantity::Units(8));
}

}  // namespace
}  // namespace rescfg
