/// The two v1 clarifications of the second version of the rules: a running job's `enqueued` is
/// ignored whatever its type (rescfg(5), JOBS FILE), and blanks around the `/` of a fraction
/// are allowed (rescfg-scheduling(7), AMOUNTS) — in configuration amounts, job parameters and a
/// running job's resources.

#include <gtest/gtest.h>

#include <string>

#include "config/loader.h"
#include "decide/report.h"
#include "jobs/loader.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: 2}]
profiles:
  - {name: p, allotment: 1, links: [{pool: gpu}]}
  - {name: d, allotment: 1, dynamic: {parameter: runtime.gpus}, links: [{pool: gpu}]}
policies: [{name: Dev, profiles: [p, d]}]
)";

ScheduleReport Schedule(const std::string& text, JobsFormat format) {
  Config config = testing::ConfigFromYaml(kConfig);
  LoadedJobs jobs = LoadJobsText(text, format, format == JobsFormat::kYaml ? "jobs.yaml" : "jobs.jsonl",
                                 DynamicParameterPaths(config));
  EXPECT_FALSE(jobs.unusable);
  return BuildSchedule(config, std::move(jobs));
}

std::string YamlJobs(const std::string& jobs) { return "apiVersion: rescfg/v1\nkind: JobList\njobs:\n" + jobs; }

/// Before the fix a number (JSON Lines) or a mapping (YAML) in `enqueued`
/// rejected the running job, and the GPUs it holds looked free.
TEST(RunningEnqueued, IgnoredWhateverItsTypeInJsonLines) {
  for (const char* enqueued : {"5", "true", "{\"at\": 1}", "[1, 2]", "\"yesterday\"", "1.5e3"}) {
    SCOPED_TRACE(enqueued);
    ScheduleReport r = Schedule(std::string("{\"id\": \"r\", \"state\": \"running\", \"policy\": \"Dev\", \"profile\": "
                                            "\"p\", \"pool\": \"gpu\", \"resources\": 2, \"enqueued\": ") +
                                    enqueued + "}\n{\"id\": \"q\", \"policy\": \"Dev\", \"profile\": \"p\"}\n",
                                JobsFormat::kJsonLines);
    EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"r:running:gpu", "q:pending:capacity"}));
    EXPECT_FALSE(HasMessage(r.jobs[0])) << MessageOf(r.jobs[0]);
  }
}

TEST(RunningEnqueued, IgnoredWhateverItsTypeInYaml) {
  for (const char* enqueued : {"5", "true", "{at: 1}", "[1, 2]", "yesterday", "\"2026-11-29\""}) {
    SCOPED_TRACE(enqueued);
    ScheduleReport r = Schedule(YamlJobs(std::string("  - {id: r, state: running, policy: Dev, profile: p, pool: gpu, "
                                                     "resources: 2, enqueued: ") +
                                         enqueued + "}\n  - {id: q, policy: Dev, profile: p}\n"),
                                JobsFormat::kYaml);
    EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"r:running:gpu", "q:pending:capacity"}));
  }
}

/// On a queued job the same values still make it invalid-job (rescfg(5), JOBS FILE).
TEST(RunningEnqueued, StillInvalidOnAQueuedJob) {
  ScheduleReport jsonl = Schedule(
      "{\"id\": \"a\", \"policy\": \"Dev\", \"profile\": \"p\", \"enqueued\": 5}\n"
      "{\"id\": \"b\", \"policy\": \"Dev\", \"profile\": \"p\", \"enqueued\": {}, \"resources\": []}\n",
      JobsFormat::kJsonLines);
  EXPECT_EQ(testing::Summarise(jsonl), (std::vector<std::string>{"a:rejected:invalid-job", "b:rejected:invalid-job"}));
  EXPECT_EQ(MessageOf(jsonl.jobs[0]), "line 1: field 'enqueued' must be a string");
  EXPECT_EQ(MessageOf(jsonl.jobs[1]),
            "line 2: field 'resources' must be a number or a string; field 'enqueued' must be a string");
  ScheduleReport yaml = Schedule(YamlJobs("  - {id: a, policy: Dev, profile: p, enqueued: [1]}\n"), JobsFormat::kYaml);
  EXPECT_EQ(testing::Summarise(yaml), (std::vector<std::string>{"a:rejected:invalid-job"}));
  EXPECT_EQ(MessageOf(yaml.jobs[0]), "line 4: field 'enqueued' must be a string");
}

TEST(FractionBlanks, ConfigurationAmounts) {
  LoadedConfig loaded = LoadConfigText(R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: gpu, resources: "8 / 1"}]
profiles: [{name: p, allotment: "1 / 7", links: [{pool: gpu}]}, {name: q, allotment: "3 /8", links: [{pool: gpu}]}]
policies: [{name: Dev, reserved: "1/ 2", limit: "	5	/	2	", profiles: [p, q]}]
)", "blanks.yaml");
  for (const auto& f : loaded.findings) ADD_FAILURE() << f.mark.line << ": " << f.code << " " << f.message;
  ASSERT_TRUE(loaded.config);
  EXPECT_EQ(loaded.config->pools[0].resources, *ParseQuantity("8"));
  EXPECT_EQ(loaded.config->profiles[0].allotment, *ParseQuantity("1/7"));
  EXPECT_EQ(loaded.config->profiles[1].allotment, *ParseQuantity("0.375"));
  EXPECT_EQ(loaded.config->policies[0].reserved, *ParseQuantity("0.5"));
  EXPECT_EQ(loaded.config->policies[0].limit, *ParseQuantity("2.5"));
}

TEST(FractionBlanks, JobParametersAndHoldings) {
  for (JobsFormat format : {JobsFormat::kJsonLines, JobsFormat::kYaml}) {
    const bool yaml = format == JobsFormat::kYaml;
    SCOPED_TRACE(yaml ? "yaml" : "jsonl");
    std::string text =
        yaml ? YamlJobs("  - {id: r, state: running, policy: Dev, profile: p, pool: gpu, resources: \"1 / 2\"}\n"
                        "  - {id: a, policy: Dev, profile: d, params: {runtime: {gpus: \"1 / 7\"}}}\n"
                        "  - {id: b, policy: Dev, profile: d, params: {runtime.gpus: \"6/ 7\"}}\n")
             : "{\"id\": \"r\", \"state\": \"running\", \"policy\": \"Dev\", \"profile\": \"p\", \"pool\": \"gpu\", "
               "\"resources\": \"1 / 2\"}\n"
               "{\"id\": \"a\", \"policy\": \"Dev\", \"profile\": \"d\", \"params\": {\"runtime\": {\"gpus\": \"1 / 7\"}}}\n"
               "{\"id\": \"b\", \"policy\": \"Dev\", \"profile\": \"d\", \"params\": {\"runtime.gpus\": \"6/ 7\"}}\n";
    ScheduleReport r = Schedule(text, format);
    EXPECT_EQ(testing::Summarise(r), (std::vector<std::string>{"r:running:gpu", "a:assigned:gpu", "b:assigned:gpu"}));
    EXPECT_EQ(r.jobs[0].resources, *ParseQuantity("0.5"));
    EXPECT_EQ(r.jobs[1].resources, *ParseQuantity("1/7"));
    EXPECT_EQ(r.jobs[1].need_source, "parameter");
    EXPECT_EQ(r.jobs[2].resources, *ParseQuantity("6/7"));
    EXPECT_EQ(r.jobs[2].need_source, "parameter");
  }
}

}  // namespace
}  // namespace rescfg
