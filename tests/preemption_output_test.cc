/// Preemption from a jobs file to the outputs of `schedule` (rescfg(1), SCHEDULE OUTPUT): the
/// worked example of rescfg-scheduling(7), PREEMPTION read as YAML and JSON Lines, with `started`
/// and `stopping`, and its YAML, jsonl, table and ClearML requests.

#include <gtest/gtest.h>

#include <string>

#include "decide/clearml_actions.h"
#include "decide/clearml_requests.h"
#include "jobs/loader.h"
#include "jobs/run_facts.h"
#include "output/schedule_output.h"
#include "decide/report.h"
#include "support/scenario_text.h"
#include "support/test_paths.h"

namespace rescfg {
namespace {

Config WorkedExampleConfig(const std::string& min_runtime) {
  Config config = testing::ConfigFromYaml(testing::kWorkedExampleYaml);
  config.preemption = PreemptionSettings{};
  config.preemption->min_runtime_us = min_runtime == "30m" ? 1'800'000'000 : 600'000'000;
  config.preemption->delay_us = 60'000'000;
  return config;
}

const char* kJobs = R"(apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: d1, policy: Dev, profile: 4xGPU, state: running, pool: Bare Metal Low END GPUs, started: 2026-11-29T10:00:00Z}
  - {id: d2, policy: Dev, profile: 4xGPU, state: running, pool: Bare Metal Low END GPUs, started: 2026-11-29T10:00:00Z}
  - {id: d3, policy: Dev, profile: 4xGPU, state: running, pool: H100 Half a Superpod, started: 2026-11-29T10:05:00Z}
  - {id: d4, policy: Dev, profile: 4xGPU, state: running, pool: H100 Half a Superpod, started: 2026-11-29T10:05:00Z, stopping: false}
  - {id: r1, policy: Research, profile: 4xGPU, enqueued: 2026-11-29T10:18:00Z}
  - {id: r2, policy: Research, profile: 4xGPU, enqueued: 2026-11-29T10:18:00Z}
)";

int64_t Now() { return MicrosOf(*ParseRfc3339("2026-11-29T10:20:00Z")); }

ScheduleReport Build(const Config& config, const char* text, JobsFormat format = JobsFormat::kYaml) {
  return BuildSchedule(config, LoadJobsText(text, format, "jobs", {}), Now());
}

TEST(PreemptionOutput, WorkedExampleInYaml) {
  const Config config = WorkedExampleConfig("10m");
  const ScheduleReport r = Build(config, kJobs);
  const std::string yaml = RenderSchedule(r, ScheduleFormat::kYaml);
  const std::string expected =
      "preemptions:\n"
      "  - {job: \"r1\", policy: \"Research\", profile: \"4xGPU\", pool: \"Bare Metal Low END GPUs\", resources: 4, "
      "victims: [{job: \"d1\", policy: \"Dev\", profile: \"4xGPU\", resources: 4, node: null, started: "
      "\"2026-11-29T10:00:00Z\"}], awaiting: []}\n"
      "  - {job: \"r2\", policy: \"Research\", profile: \"4xGPU\", pool: \"Bare Metal Low END GPUs\", resources: 4, "
      "victims: [{job: \"d2\", policy: \"Dev\", profile: \"4xGPU\", resources: 4, node: null, started: "
      "\"2026-11-29T10:00:00Z\"}], awaiting: []}\n";
  ASSERT_NE(yaml.find("preemptions:"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.substr(yaml.find("preemptions:")), expected);
  EXPECT_NE(yaml.find("reason: \"preempting\""), std::string::npos) << yaml;
}

TEST(PreemptionOutput, WorkedExampleInJsonLinesAndClearml) {
  const Config config = WorkedExampleConfig("10m");
  const ScheduleReport r = Build(config, kJobs);
  const std::string lines = RenderSchedule(r, ScheduleFormat::kJsonLines);
  EXPECT_NE(lines.find("\"job\": \"d1\", \"status\": \"running\""), std::string::npos) << lines;
  EXPECT_NE(lines.find("\"preemptedFor\": \"r1\"}"), std::string::npos) << lines;
  EXPECT_NE(lines.find("\"preemptedFor\": \"r2\"}"), std::string::npos) << lines;
  EXPECT_NE(lines.find("\"victims\": [\"d1\"]}"), std::string::npos) << lines;
  const std::string requests = clearml::RenderEnqueueRequests(r, nullptr);
  EXPECT_EQ(requests,
            "{\"endpoint\": \"tasks.stop\", \"body\": {\"task\": \"d1\", \"force\": false, \"status_reason\": "
            "\"rescfg: preempted for Research/r1 in Bare Metal Low END GPUs\"}}\n"
            "{\"endpoint\": \"tasks.stop\", \"body\": {\"task\": \"d2\", \"force\": false, \"status_reason\": "
            "\"rescfg: preempted for Research/r2 in Bare Metal Low END GPUs\"}}\n");
  const std::string table = RenderSchedule(r, ScheduleFormat::kTable);
  EXPECT_NE(table.find("PREEMPTOR"), std::string::npos) << table;
}

TEST(ClearmlActions, MovesInPlacementOrderThenOneStopPerVictim) {
  const Config config = WorkedExampleConfig("10m");
  const std::string jobs = std::string(kJobs) + "  - {id: r3, policy: Research, profile: 2xGPU}\n";
  const ScheduleReport r = Build(config, jobs.c_str());
  std::vector<std::string> seen;
  ForEachAction(r, [&](const ClearmlAction& a) {
    seen.push_back(std::string(ActionKindName(a.kind)) + " " + std::string(*r.jobs[a.job].id) +
                   (a.kind == ActionKind::kStop ? " " + StopReason(r, *a.preemption) : " " + std::string(a.to)));
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"stop d1 rescfg: preempted for Research/r1 in Bare Metal Low END GPUs",
                                            "stop d2 rescfg: preempted for Research/r2 in Bare Metal Low END GPUs"}));
  size_t calls = 0;
  EXPECT_FALSE(ForEachAction(r, [&](const ClearmlAction&) { return ++calls < 1; }));
  EXPECT_EQ(calls, 1u);
}

TEST(ClearmlActions, AnAssignmentIsAMoveToItsQueue) {
  const Config config = testing::ConfigFromYaml(testing::kWorkedExampleYaml);
  const ScheduleReport r = Build(config, R"(
apiVersion: rescfg/v1
kind: JobList
jobs:
  - {id: a, policy: Dev, profile: 4xGPU}
  - {id: b, policy: Research, profile: 4xGPU}
)");
  std::vector<std::string> seen;
  ForEachAction(r, [&](const ClearmlAction& a) {
    seen.push_back(std::string(ActionKindName(a.kind)) + " " + std::string(*r.jobs[a.job].id) + " " +
                   std::string(a.to));
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"move a Bare Metal Low END GPUs", "move b Bare Metal Low END GPUs"}));
}

TEST(PreemptionOutput, ThirtyMinutesPreemptsNothing) {
  const Config config = WorkedExampleConfig("30m");
  const ScheduleReport r = Build(config, kJobs);
  EXPECT_TRUE(r.preemptions.empty());
  const std::string yaml = RenderSchedule(r, ScheduleFormat::kYaml);
  EXPECT_NE(yaml.find("\npreemptions: []\n"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("preempting"), std::string::npos);
}

TEST(PreemptionOutput, WithoutTheBlockNoSection) {
  Config config = WorkedExampleConfig("10m");
  config.preemption.reset();
  const ScheduleReport r = Build(config, kJobs);
  EXPECT_EQ(RenderSchedule(r, ScheduleFormat::kYaml).find("preempt"), std::string::npos);
}

TEST(PreemptionOutput, MalformedStartedAndStoppingAreInvalidJobs) {
  const Config config = WorkedExampleConfig("10m");
  const char* jobs = R"({"id": "a", "policy": "Dev", "profile": "4xGPU", "state": "running", "pool": "H100 Half a Superpod", "started": "yesterday"}
{"id": "b", "policy": "Dev", "profile": "4xGPU", "state": "running", "pool": "H100 Half a Superpod", "stopping": "yes"}
{"id": "c", "policy": "Dev", "profile": "4xGPU", "state": "running", "pool": "H100 Half a Superpod", "stopping": true}
)";
  const ScheduleReport r = Build(config, jobs, JobsFormat::kJsonLines);
  ASSERT_EQ(r.rejected.size(), 2u);
  EXPECT_EQ(*r.jobs[r.rejected[0]].reason, "invalid-job");
  EXPECT_NE(MessageOf(r.jobs[r.rejected[0]]).find("started 'yesterday'"), std::string::npos) << MessageOf(r.jobs[r.rejected[0]]);
  EXPECT_NE(MessageOf(r.jobs[r.rejected[1]]).find("stopping"), std::string::npos) << MessageOf(r.jobs[r.rejected[1]]);
  EXPECT_EQ(r.running.size(), 1u);
}

}  // namespace
}  // namespace rescfg
