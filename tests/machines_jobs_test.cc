/// A running job's machine (rescfg(5), JOBS FILE): its `node` in YAML and
/// JSON Lines, a ClearML task's node from its worker's id, names to machine
/// numbers, and what the outputs say.

#include <gtest/gtest.h>

#include "clearml/queues.h"
#include "clearml/tasks.h"
#include "clearml/workers.h"
#include "config/loader.h"
#include "decide/report.h"
#include "jobs/loader.h"
#include "validate/load.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: Rack, nodes: {count: 2, gpus: 4}, queue: rack}
  - {name: Bag, resources: 8}
profiles:
  - {name: one, allotment: 1, links: [{pool: Rack}, {pool: Bag}]}
  - {name: four, allotment: 4, links: [{pool: Rack}]}
policies:
  - {name: T, profiles: [{profile: one, queue: t-one}, {profile: four, queue: t-four}]}
)";

Config LoadConfig() {
  LoadedConfig loaded = LoadValidConfigText(kConfig, "config.yaml");
  EXPECT_TRUE(loaded.config);
  return loaded.config ? *loaded.config : Config{};
}

std::string Node(const JobOutcome& j) { return j.node ? std::string(*j.node) : "-"; }

TEST(MachinesJobs, NamesAreMachinesInOrderOfFirstAppearance) {
  const Config config = LoadConfig();
  const char* yaml = R"(apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: a, policy: T, profile: one, state: running, pool: Rack, node: beta}
  - {id: b, policy: T, profile: one, state: running, pool: Rack, node: alpha}
  - {id: c, policy: T, profile: one, state: running, pool: Rack, node: beta}
  - {id: d, policy: T, profile: one, state: running, pool: Rack, node: gamma}
  - {id: e, policy: T, profile: one, state: running, pool: Bag, node: anything}
  - {id: q, policy: T, profile: four}
)";
  LoadedJobs jobs = LoadJobsText(yaml, JobsFormat::kYaml, "jobs.yaml", {});
  ScheduleReport r = BuildSchedule(config, std::move(jobs));
  ASSERT_EQ(r.jobs.size(), 6u);
  EXPECT_EQ(Node(r.jobs[0]), "beta");
  EXPECT_EQ(Node(r.jobs[1]), "alpha");
  // gamma is a third name for two machines: it holds in the pool only.
  ASSERT_TRUE(HasMessage(r.jobs[3]));
  EXPECT_NE(MessageOf(r.jobs[3]).find("which has 2 machines"), std::string::npos) << MessageOf(r.jobs[3]);
  // A pool without nodes ignores node.
  EXPECT_EQ(Node(r.jobs[4]), "-");
  EXPECT_FALSE(HasMessage(r.jobs[4]));
  // beta (machine 1) holds 2, alpha (machine 2) 1: no machine has 4 free.
  EXPECT_EQ(r.jobs[5].status, JobStatus::kPending);
  EXPECT_EQ(*r.jobs[5].reason, "fragmented");
  ASSERT_EQ(r.pools[0].machine_free.size(), 2u);
  EXPECT_EQ(r.pools[0].machine_free[0], Quantity::Units(2));
  EXPECT_EQ(r.pools[0].machine_free[1], Quantity::Units(3));
  EXPECT_EQ(r.pools[0].largest_free, Quantity::Units(3));
  EXPECT_EQ(r.pools[0].in_use, Quantity::Units(4));
}

TEST(MachinesJobs, JsonLinesReadsNodeAndRefusesANonString) {
  const Config config = LoadConfig();
  const char* lines =
      R"({"id": "a", "policy": "T", "profile": "one", "state": "running", "pool": "Rack", "node": "n1"})" "\n"
      R"({"id": "b", "policy": "T", "profile": "one", "state": "running", "pool": "Rack", "node": 2})" "\n"
      R"({"id": "c", "policy": "T", "profile": "one", "state": "running", "pool": "Rack"})" "\n"
      R"({"id": "q", "policy": "T", "profile": "one", "node": 5})" "\n";
  LoadedJobs jobs = LoadJobsText(lines, JobsFormat::kJsonLines, "jobs.jsonl", {});
  ScheduleReport r = BuildSchedule(config, std::move(jobs));
  ASSERT_EQ(r.jobs.size(), 4u);
  EXPECT_EQ(Node(r.jobs[0]), "n1");
  EXPECT_EQ(r.jobs[1].status, JobStatus::kRunning);
  EXPECT_EQ(Node(r.jobs[1]), "-");
  ASSERT_TRUE(HasMessage(r.jobs[1]));
  EXPECT_EQ(MessageOf(r.jobs[1]), "node must be a non-empty string; it holds in the pool only, on no machine");
  // No node: where a queued job of its need would go, the least free still
  // enough: machine 1 has 3 free, machine 2 has 4 -> #1.
  EXPECT_EQ(Node(r.jobs[2]), "#1");
  // A queued job's node means nothing; it is placed and gets its machine.
  EXPECT_EQ(r.jobs[3].status, JobStatus::kAssigned);
  EXPECT_EQ(Node(r.jobs[3]), "#1");
  EXPECT_EQ(r.pools[0].in_use, Quantity::Units(4));
}

TEST(MachinesJobs, AClearmlTasksNodeIsTheHostOfItsWorker) {
  const Config config = LoadConfig();
  const clearml::QueueList queues = clearml::ReadQueuesText(R"([{"id": "q1", "name": "rack"}])", "queues.json");
  const clearml::WorkerList workers = clearml::ReadWorkersText(R"([
    {"id": "gpu-node-3:gpu0,1", "task": {"id": "t1"}, "queue": {"name": "rack"}},
    {"id": "lonely", "task": {"id": "t2"}, "queue": {"name": "rack"}}
  ])", "workers.json");
  const std::string tasks =
      R"({"id": "t1", "status": "in_progress", "execution": {"queue": {"name": "t-one"}}})" "\n"
      R"({"id": "t2", "status": "in_progress", "execution": {"queue": {"name": "t-one"}}})" "\n";
  LoadedJobs jobs = clearml::LoadClearmlTasksText(tasks, "tasks.jsonl", {&queues, &workers}, {});
  ASSERT_FALSE(jobs.unusable);
  ScheduleReport r = BuildSchedule(config, std::move(jobs));
  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].status, JobStatus::kRunning);
  EXPECT_EQ(Node(r.jobs[0]), "gpu-node-3");
  // A worker id without ':' gives no node: placed by best fit.
  EXPECT_EQ(Node(r.jobs[1]), "#1");
}

}  // namespace
}  // namespace rescfg
