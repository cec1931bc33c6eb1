#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "jobs/loader.h"
#include "jobs/params.h"

namespace rescfg {
namespace {

/// Loads one job given as a JSON object, both as a JSON Lines file and as a
/// YAML JobList (a JSON object is also a YAML flow mapping), checks both
/// readers agree, and returns the entry.
JobEntry LoadBoth(const std::string& job, const std::vector<std::string>& paths) {
  auto jsonl = LoadJobsText(job + "\n", JobsFormat::kJsonLines, "jobs.jsonl", paths);
  auto yaml = LoadJobsText("apiVersion: rescfg/v1\nkind: JobList\njobs:\n  - " + job + "\n",
                           JobsFormat::kYaml, "jobs.yaml", paths);
  EXPECT_FALSE(yaml.unusable) << (yaml.findings.empty() ? "" : yaml.findings[0].message);
  if (jsonl.entries.size() != 1 || yaml.entries.size() != 1) {
    ADD_FAILURE() << "expected one entry";
    return {};
  }
  const JobEntry& a = jsonl.entries[0];
  const JobEntry& b = yaml.entries[0];
  EXPECT_EQ(a.invalid.empty(), b.invalid.empty()) << a.invalid << " | " << b.invalid;
  EXPECT_EQ(a.params.size(), b.params.size());
  for (size_t i = 0; i < std::min(a.params.size(), b.params.size()); ++i) {
    EXPECT_EQ(a.params[i].path, b.params[i].path);
    EXPECT_EQ(a.params[i].text, b.params[i].text) << a.params[i].path;
  }
  static std::vector<std::shared_ptr<JobsText>> kept;  // the entry views its file's text
  kept.push_back(jsonl.text);
  return a;
}

/// "path=text" per parameter found, "path=<list or map>" for a non-scalar.
std::string Found(const std::string& params, const std::vector<std::string>& paths) {
  JobEntry e = LoadBoth("{\"id\": \"j\", \"params\": " + params + "}", paths);
  EXPECT_EQ(e.invalid, "");
  std::string out;
  for (const auto& p : e.params) {
    out += (out.empty() ? "" : " ") + std::string(*p.path) + "=" + (p.text ? std::string(*p.text) : "<list or map>");
  }
  return out;
}

const std::vector<std::string> kGpus = {"runtime.gpus_request"};

TEST(ParamLookup, RuntimeNestedAndFlat) {
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": 2}})", kGpus), "runtime.gpus_request=2");
  EXPECT_EQ(Found(R"({"runtime.gpus_request": 2})", kGpus), "runtime.gpus_request=2");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": "1/7"}})", kGpus), "runtime.gpus_request=1/7");
  EXPECT_EQ(Found(R"({"runtime": {"other": 2}})", kGpus), "");
  EXPECT_EQ(Found(R"({})", kGpus), "");
  EXPECT_EQ(Found(R"({"gpus_request": 2})", kGpus), "");
}

TEST(ParamLookup, NumbersKeepTheirText) {
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": 0.50}})", kGpus), "runtime.gpus_request=0.50");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": 1e3}})", kGpus), "runtime.gpus_request=1e3");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": 123456789012345678901234567890}})", kGpus),
            "runtime.gpus_request=123456789012345678901234567890");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": true}})", kGpus), "runtime.gpus_request=true");
}

TEST(ParamLookup, NestedWinsOverFlat) {
  EXPECT_EQ(Found(R"({"runtime.gpus_request": 3, "runtime": {"gpus_request": 2}})", kGpus),
            "runtime.gpus_request=2");
  // Even when the nested value is not a scalar: it is there.
  EXPECT_EQ(Found(R"({"runtime.gpus_request": 3, "runtime": {"gpus_request": [2]}})", kGpus),
            "runtime.gpus_request=<list or map>");
}

TEST(ParamLookup, NullCountsAsAbsent) {
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": null}, "runtime.gpus_request": 3})", kGpus),
            "runtime.gpus_request=3");
  EXPECT_EQ(Found(R"({"runtime": null, "runtime.gpus_request": 3})", kGpus), "runtime.gpus_request=3");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": {"value": null}}, "runtime.gpus_request": 3})", kGpus),
            "runtime.gpus_request=3");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": null}})", kGpus), "");
  EXPECT_EQ(Found(R"(null)", kGpus), "");
}

TEST(ParamLookup, ValueWrappersAtEveryRoot) {
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": {"value": "2", "type": "int"}}})", kGpus),
            "runtime.gpus_request=2");
  EXPECT_EQ(Found(R"({"runtime.gpus_request": {"value": 0.5}})", kGpus), "runtime.gpus_request=0.5");
  EXPECT_EQ(Found(R"({"hyperparams": {"Args": {"cost": {"value": "3/8", "section": "Args"}}}})",
                  {"hyperparams.Args.cost"}),
            "hyperparams.Args.cost=3/8");
  EXPECT_EQ(Found(R"({"configuration": {"test": {"value": "3"}}})", {"configuration.test"}),
            "configuration.test=3");
  EXPECT_EQ(Found(R"({"configuration": {"test": "3"}})", {"configuration.test"}), "configuration.test=3");
  EXPECT_EQ(Found(R"({"configuration.test": "3"})", {"configuration.test"}), "configuration.test=3");
}

TEST(ParamLookup, NonScalarsArePresentWithoutText) {
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": [1, 2]}})", kGpus), "runtime.gpus_request=<list or map>");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": {"min": 1}}})", kGpus),
            "runtime.gpus_request=<list or map>");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": {"value": {"value": 1}}}})", kGpus),
            "runtime.gpus_request=<list or map>");
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": {"value": [1]}}})", kGpus),
            "runtime.gpus_request=<list or map>");
  // A scalar where a mapping was expected on the way: not there.
  EXPECT_EQ(Found(R"({"runtime": "gpus_request"})", kGpus), "");
}

TEST(ParamLookup, HyperparamsSplitAfterTheSectionOnly) {
  const std::vector<std::string> paths = {"hyperparams.Args.lr.max"};
  EXPECT_EQ(Found(R"({"hyperparams": {"Args": {"lr.max": 4}}})", paths), "hyperparams.Args.lr.max=4");
  EXPECT_EQ(Found(R"({"hyperparams": {"Args": {"lr": {"max": 4}}}})", paths), "");
  EXPECT_EQ(Found(R"({"hyperparams": {"Args.lr": {"max": 4}}})", paths), "");
  EXPECT_EQ(Found(R"({"hyperparams.Args.lr.max": 4})", paths), "hyperparams.Args.lr.max=4");
  // runtime and configuration keys may contain dots too.
  EXPECT_EQ(Found(R"({"runtime": {"a.b": 1}})", {"runtime.a.b"}), "runtime.a.b=1");
  EXPECT_EQ(Found(R"({"configuration": {"x.y": "2"}})", {"configuration.x.y"}), "configuration.x.y=2");
}

TEST(ParamLookup, SeveralPathsInTheGivenOrder) {
  const std::vector<std::string> paths = {"configuration.test", "runtime.gpus_request",
                                          "hyperparams.Args.cost", "runtime.gpus_request"};
  EXPECT_EQ(Found(R"({"runtime": {"gpus_request": 2}, "hyperparams": {"Args": {"cost": "2"}}, "configuration": {"test": "3"}})",
                  paths),
            "configuration.test=3 runtime.gpus_request=2 hyperparams.Args.cost=2");
}

TEST(ParamLookup, MalformedPathsAreNeverFound) {
  EXPECT_EQ(Found(R"({"gpus": 1, "runtime": {"": 2}, "hyperparams": {"Args": 3}, "hyperparams.Args": 3})",
                  {"gpus", "runtime.", "hyperparams.Args", "hyperparams..x", "other.x"}),
            "");
}

TEST(ParamLookup, IrrelevantContentIsSkipped) {
  EXPECT_EQ(Found(R"({"hyperparams": {"Other": {"deep": [[[[{"a": {"b": null}}]]]]}, "Args": {"cost": 1}}, "runtime": {"x": {"y": [1, 2, {"gpus_request": 9}]}, "gpus_request": 2}})",
                  {"runtime.gpus_request", "hyperparams.Args.cost"}),
            "runtime.gpus_request=2 hyperparams.Args.cost=1");
}

TEST(ParamLookup, DuplicateRelevantKeyMakesTheJobInvalid) {
  JobEntry e = LoadBoth(R"({"id": "j", "params": {"runtime": {"gpus_request": 1, "gpus_request": 2}}})", kGpus);
  EXPECT_EQ(e.invalid, "duplicate key 'gpus_request' in params");
  JobEntry twice = LoadBoth(R"({"id": "j", "params": {"runtime": {}, "runtime": {}}})", kGpus);
  EXPECT_EQ(twice.invalid, "duplicate key 'runtime' in params");
}

TEST(ParamLookup, NoPathsAskedStillValidatesParams) {
  EXPECT_EQ(LoadBoth(R"({"id": "j", "params": {"runtime": {"gpus_request": 2}}})", {}).params.size(), 0u);
  EXPECT_EQ(LoadBoth(R"({"id": "j", "params": [1]})", {}).invalid, "field 'params' must be an object");
}

TEST(ParamQuery, Trie) {
  ParamQuery query({"runtime.gpus_request", "hyperparams.Args.cost", "bad"});
  EXPECT_FALSE(query.empty());
  int runtime = query.Child(ParamQuery::kParams, "runtime");
  ASSERT_GE(runtime, 0);
  EXPECT_GE(query.Child(runtime, "gpus_request"), 0);
  EXPECT_EQ(query.Child(runtime, "cost"), -1);
  EXPECT_GE(query.Child(ParamQuery::kParams, "runtime.gpus_request"), 0);
  EXPECT_EQ(query.Child(ParamQuery::kParams, "bad"), -1);
  int gpus = query.Child(runtime, "gpus_request");
  EXPECT_TRUE(query.HasChildren(gpus));  // its `value`
  EXPECT_TRUE(ParamQuery({}).empty());
}

}  // namespace
}  // namespace rescfg
