/// Hand-checked scheduling cases: the worked example, exact fractions and
/// the corners of rescfg-scheduling(7), THE PASS that generated cases rarely reach.

#include <gtest/gtest.h>

#include "decide/report.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

using testing::ConfigFromYaml;
using testing::Queued;
using testing::Running;
using testing::Summarise;
using V = std::vector<std::string>;

const char* const kWorkedExample = testing::kWorkedExampleYaml;

TEST(SchedulePass, WorkedExampleOfTheSpec) {
  Config config = ConfigFromYaml(kWorkedExample);
  std::vector<JobEntry> jobs;
  for (const char* team : {"Dev", "Research"}) {
    for (int i = 1; i <= 4; ++i) jobs.push_back(Queued(std::string(team) + "-" + std::to_string(i), team, "4xGPU"));
  }
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(Summarise(r), (V{"Dev-1:assigned:Bare Metal Low END GPUs", "Dev-2:assigned:Bare Metal Low END GPUs",
                             "Dev-3:pending:capacity", "Dev-4:pending:capacity",
                             "Research-1:assigned:H100 Half a Superpod", "Research-2:assigned:H100 Half a Superpod",
                             "Research-3:pending:capacity", "Research-4:pending:capacity"}));
  // Placement order: Dev's two, then Research's two (Dev's third was refused).
  ASSERT_EQ(r.assignments.size(), 4u);
  EXPECT_EQ(*r.jobs[r.assignments[2]].id, "Research-1");
}

const char* kOneGpu = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: 1}]
profiles:
  - {name: seventh, allotment: "1/7", links: [{pool: gpu}]}
  - {name: decimal, allotment: 0.143, links: [{pool: gpu}]}
policies: [{name: team, profiles: [seventh, decimal]}]
)";

TEST(SchedulePass, SevenSeventhsFitOneGpu) {
  Config config = ConfigFromYaml(kOneGpu);
  std::vector<JobEntry> jobs;
  for (int i = 0; i < 7; ++i) jobs.push_back(Queued("s" + std::to_string(i), "team", "seventh"));
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(r.assignments.size(), 7u);
  EXPECT_TRUE(r.pools[0].free.is_zero());
}

TEST(SchedulePass, SevenDecimalSeventhsDoNot) {
  Config config = ConfigFromYaml(kOneGpu);
  std::vector<JobEntry> jobs;
  for (int i = 0; i < 7; ++i) jobs.push_back(Queued("d" + std::to_string(i), "team", "decimal"));
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(r.assignments.size(), 6u);
  EXPECT_EQ(Summarise(r).back(), "d6:pending:capacity");
  EXPECT_EQ(r.pools[0].free.ToString(), "0.142");
}

/// At the end of a pass every protected job that fits has been placed, so
/// `reservation` is only ever the final reason when a StrictFIFO head that
/// does not fit holds back smaller protected jobs behind it.
const char* kStrictReservation = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: small, resources: 2}, {name: big, resources: 4}]
profiles:
  - name: train
    allotment: 1
    dynamic: {parameter: runtime.gpus}
    queueing: StrictFIFO
    links: [{pool: small}]
  - {name: batch, allotment: 1, links: [{pool: small}]}
policies:
  - {name: Research, reserved: 2, limit: 4, profiles: [train]}
  - {name: Dev, reserved: 0, profiles: [batch]}
)";

TEST(SchedulePass, ReservationIsTheReasonBehindABlockedStrictFifoHead) {
  Config config = ConfigFromYaml(kStrictReservation);
  std::vector<JobEntry> jobs = {
      Running("hold", "Dev", "batch", "small", "1"),
      Queued("r-big", "Research", "train", "2"),   // head: needs 2, only 1 free
      Queued("r-small", "Research", "train", "1"), // protected, fits, but behind the head
      Queued("d-1", "Dev", "batch"),
  };
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(Summarise(r), (V{"hold:running:small", "r-big:pending:capacity", "r-small:pending:fifo-blocked",
                             "d-1:pending:reservation"}));
  EXPECT_NE(MessageOf(r.jobs[3]).find("Research"), std::string::npos) << MessageOf(r.jobs[3]);
}

TEST(SchedulePass, RunningJobsHoldAnOverFullPoolWhateverChanged) {
  Config config = ConfigFromYaml(kOneGpu);
  std::vector<JobEntry> jobs = {
      Running("old-1", "team", "seventh", "gpu", "1"),
      Running("old-2", "gone-team", "gone-profile", "gpu", "1/2"),
      Queued("new", "team", "seventh"),
  };
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(Summarise(r), (V{"old-1:running:gpu", "old-2:running:gpu", "new:pending:capacity"}));
  EXPECT_EQ(r.pools[0].in_use.ToString(), "1.5");
  EXPECT_TRUE(r.pools[0].free.is_zero());
  EXPECT_EQ(r.policies[0].used, Quantity::Units(1));
  ASSERT_TRUE(HasMessage(r.jobs[1]));
  EXPECT_NE(MessageOf(r.jobs[1]).find("over-full"), std::string::npos);
  EXPECT_NE(MessageOf(r.jobs[1]).find("gone-team"), std::string::npos);
}

TEST(SchedulePass, UnschedulableNeverBlocksAStrictFifoQueue) {
  Config config = ConfigFromYaml(kStrictReservation);
  std::vector<JobEntry> jobs = {
      Queued("huge", "Research", "train", "3"),   // bigger than every linked pool
      Queued("next", "Research", "train", "1"),
  };
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(Summarise(r), (V{"huge:pending:unschedulable", "next:assigned:small"}));
}

TEST(SchedulePass, InvalidDynamicValuesFallBackToTheAllotment) {
  Config config = ConfigFromYaml(kStrictReservation);
  std::vector<JobEntry> jobs = {Queued("a", "Research", "train", "1/17"), Queued("b", "Research", "train", "0"),
                                Queued("c", "Research", "train", "abc"), Queued("d", "Research", "train", "0.5")};
  ScheduleReport r = BuildSchedule(config, jobs);
  EXPECT_EQ(r.jobs[0].need_source, "fallback");
  EXPECT_EQ(r.jobs[1].need_source, "fallback");
  EXPECT_EQ(r.jobs[2].need_source, "fallback");
  EXPECT_EQ(r.jobs[3].need_source, "parameter");
  EXPECT_EQ(r.jobs[0].resources, Quantity::Units(1));
  EXPECT_EQ(r.jobs[3].resources->ToString(), "0.5");
}

}  // namespace
}  // namespace rescfg
