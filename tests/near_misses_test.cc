/// Near-miss warnings (params that nearly name the dynamic parameter) are
/// counted by entry, whichever way the entries are resolved and whatever
/// their outcome, and ClearML snapshots have them too.

#include "jobs/near_misses.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "clearml/snapshot.h"
#include "decide/report.h"
#include "jobs/loader.h"
#include "support/scenario_text.h"

namespace rescfg {
namespace {

const char* kConfig = R"(
apiVersion: rescfg/v1
kind: ResourceConfiguration
pools: [{name: a, resources: 8}]
profiles:
- {name: d, allotment: 1, dynamic: {parameter: runtime.gpus_request}, links: [{pool: a}]}
- {name: p, allotment: 1, links: [{pool: a}]}
policies:
- {name: Dev, profiles: [{profile: d, queue: dev-d}, p]}
)";

std::vector<Finding> NearMissFindings(const std::vector<Finding>& findings) {
  std::vector<Finding> out;
  for (const Finding& f : findings) {
    if (f.code == "param-near-miss") out.push_back(f);
  }
  return out;
}

TEST(NearMisses, ReadFirstAndResolvedAsReadCountTheSameEntries) {
  const Config config = testing::ConfigFromYaml(kConfig);
  // A pending job of the dynamic profile, one of a profile without a
  // parameter, and one rejected: each holds the near miss once.
  const std::string text =
      "{\"id\": \"a\", \"policy\": \"Dev\", \"profile\": \"d\", \"params\": {\"runtime\": {\"gpu_request\": 2}}}\n"
      "{\"id\": \"b\", \"policy\": \"Dev\", \"profile\": \"p\", \"params\": {\"runtime\": {\"gpu_request\": 2}}}\n"
      "{\"id\": \"c\", \"policy\": \"Nobody\", \"profile\": \"d\", \"params\": {\"runtime\": {\"gpu_request\": 2}}}\n";
  const auto paths = DynamicParameterPaths(config);
  const LoadedJobs read = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", paths);
  const LoadedJobs resolved = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", paths, &config);
  ASSERT_TRUE(resolved.resolved);
  const auto a = NearMissFindings(read.findings), b = NearMissFindings(resolved.findings);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].message, "params hold 'runtime.gpu_request' but not the dynamic parameter 'runtime.gpus_request' (3 jobs): "
                          "they get the allotment");
  EXPECT_EQ(a[0].message, b[0].message);
  EXPECT_EQ(a[0].mark.line, 1);
  EXPECT_EQ(b[0].mark.line, 1);
  EXPECT_EQ(a[0].hint, b[0].hint);
}

TEST(NearMisses, TwoHalvesAddUpAndKeepTheFirstPlace) {
  NearMisses first, second;
  JobEntry e;
  e.params.push_back({"runtime.gpus_request", "runtime.gpu_request", true});
  e.mark = {4, 1};
  first.Note(e);
  e.mark = {9, 1};
  second.Note(e);
  second.Note(e);
  first.Add(second);
  std::vector<Finding> findings;
  first.AppendWarnings("f", &findings);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].mark.line, 4);
  EXPECT_NE(findings[0].message.find("(3 jobs)"), std::string::npos) << findings[0].message;
}

TEST(NearMisses, AClearmlSnapshotWarnsToo) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const std::string tasks = ::testing::TempDir() + "near_misses_tasks.jsonl";
  std::ofstream(tasks) << R"({"id": "t1", "status": "queued", "execution": {"queue": "dev-d"}, "runtime": {"gpu_request": "2"}})"
                       << "\n"
                       << R"({"id": "t2", "status": "queued", "execution": {"queue": "dev-d"}, "runtime": {"gpu_request": "4"}})"
                       << "\n";
  for (const Config* resolve : {&config, static_cast<const Config*>(nullptr)}) {
    SCOPED_TRACE(resolve ? "resolved while read" : "entries");
    const clearml::Snapshot snapshot =
        clearml::LoadClearmlSnapshot({tasks, "", ""}, DynamicParameterPaths(config), resolve, nullptr, {&config});
    const auto found = NearMissFindings(snapshot.findings);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_NE(found[0].message.find("(2 jobs)"), std::string::npos) << found[0].message;
  }
}

}  // namespace
}  // namespace rescfg
