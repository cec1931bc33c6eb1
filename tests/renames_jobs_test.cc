/// Jobs read against a configuration with renames (rescfg(5), RENAMES): the old
/// policy, profile or pool name, and a ClearML task in the old default queue,
/// belong to the renamed object with a note; an explicit queue keeps its value.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "clearml/tasks.h"
#include "config/loader.h"
#include "validate/load.h"
#include "jobs/loader.h"
#include "decide/report.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

// Dev is now Platform, 1x now single, pool A now Alpha (its queue followed its name).
const char* kRenamed = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: Alpha, renamedFrom: A, resources: 8}
profiles:
  - {name: single, renamedFrom: 1x, allotment: 1, links: [Alpha]}
  - {name: 2x, allotment: 2, links: [{pool: Alpha, queue: alpha-2}]}
policies:
  - {name: Platform, renamedFrom: Dev, reserved: 2, limit: 8, profiles: [single, {profile: 2x, queue: dev-2x}]}
  - {name: Ops, profiles: [single]}
)";

Config Load(const char* text) {
  LoadedConfig loaded = LoadValidConfigText(text, "config.yaml");
  EXPECT_TRUE(loaded.config);
  Config config = loaded.config ? *loaded.config : Config();
  ApplyDefaults(config);
  return config;
}

ScheduleReport FromYaml(const std::string& jobs) {
  Config config = Load(kRenamed);
  std::string text = "apiVersion: rescfg/v1\nkind: JobList\njobs:\n" + jobs;
  LoadedJobs loaded = LoadJobsText(text, JobsFormat::kYaml, "jobs.yaml", {});
  EXPECT_FALSE(loaded.unusable);
  return BuildSchedule(config, std::move(loaded));
}

std::string Note(const JobOutcome& j) { return HasMessage(j) ? MessageOf(j) : ""; }

TEST(RenamedJobs, OldNamesResolveToTheRenamedObjectsWithANote) {
  ScheduleReport r = FromYaml(
      "  - {id: run, state: running, policy: Dev, profile: 1x, pool: A}\n"
      "  - {id: old-names, policy: Dev, profile: 2x}\n"
      "  - {id: old-queue, queue: Dev/1x}\n"
      "  - {id: explicit, queue: dev-2x}\n"
      "  - {id: new-queue, queue: Platform/single}\n"
      "  - {id: both, queue: Dev/1x, policy: Dev}\n");
  EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"run:running:Alpha", "old-names:assigned:Alpha",
                                                             "old-queue:assigned:Alpha", "explicit:assigned:Alpha",
                                                             "new-queue:assigned:Alpha", "both:assigned:Alpha"}));
  for (const JobOutcome& j : r.jobs) EXPECT_EQ(j.policy.value_or(""), "Platform") << *j.id;
  EXPECT_EQ(Note(r.jobs[0]), "policy Dev is now Platform; profile 1x is now single; pool A is now Alpha");
  EXPECT_EQ(Note(r.jobs[1]), "policy Dev is now Platform");
  EXPECT_EQ(Note(r.jobs[2]), "policy Dev is now Platform; profile 1x is now single");
  EXPECT_EQ(Note(r.jobs[3]), "");
  EXPECT_EQ(Note(r.jobs[4]), "");
}

TEST(RenamedJobs, TheOldNamesOfAnotherPolicyAreNotItsOwn) {
  ScheduleReport r = FromYaml("  - {id: j, queue: Dev/1x, policy: Ops}\n");
  EXPECT_EQ(testing::Summarise(r), std::vector<std::string>{"j:rejected:invalid-job"});
}

TEST(RenamedJobs, WithoutRenamedFromTheOldNamesAreUnknown) {
  std::string plain = kRenamed;
  for (const char* key : {"renamedFrom: A, ", "renamedFrom: 1x, ", "renamedFrom: Dev, "}) {
    plain.erase(plain.find(key), std::string(key).size());
  }
  Config config = Load(plain.c_str());
  LoadedJobs loaded = LoadJobsText("apiVersion: rescfg/v1\nkind: JobList\njobs:\n  - {id: q, queue: Dev/1x}\n",
                                   JobsFormat::kYaml, "jobs.yaml", {});
  EXPECT_EQ(testing::Summarise(BuildSchedule(config, std::move(loaded))),
            std::vector<std::string>{"q:rejected:unknown-queue"});
}

TEST(RenamedJobs, ClearmlTasksInTheOldDefaultQueueBelongToTheRenamedPolicy) {
  Config config = Load(kRenamed);
  clearml::WorkerList workers = clearml::ReadWorkersText(
      R"([{"id": "w", "task": {"id": "run"}, "queue": {"name": "A"}, "queues": []}])", "workers.json");
  const std::string tasks =
      R"({"id": "run", "status": "in_progress", "execution": {"queue": {"name": "Dev/1x"}}})"
      "\n"
      R"({"id": "wait", "status": "queued", "execution": {"queue": {"name": "Dev/1x"}}})"
      "\n";
  LoadedJobs loaded = clearml::LoadClearmlTasksText(tasks, "tasks.jsonl", {nullptr, &workers}, {});
  ASSERT_FALSE(loaded.unusable);
  ScheduleReport r = BuildSchedule(config, std::move(loaded));
  EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"run:running:Alpha", "wait:assigned:Alpha"}));
  EXPECT_EQ(r.jobs[0].policy.value_or(""), "Platform");
  EXPECT_EQ(r.jobs[1].policy.value_or(""), "Platform");
  EXPECT_NE(Note(r.jobs[1]).find("policy Dev is now Platform"), std::string::npos) << Note(r.jobs[1]);
}

}  // namespace
}  // namespace rescfg
