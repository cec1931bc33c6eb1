#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "jobs/job_fields.h"
#include "jobs/loader.h"
#include "support/test_paths.h"

namespace rescfg {
namespace {

const std::string kData = std::string(RESCFG_SOURCE_DIR) + "/testdata/jobs/";
const std::string kHeader = "apiVersion: rescfg/v1\nkind: JobList\n";

LoadedJobs Yaml(const std::string& text, const std::vector<std::string>& paths = {}) {
  return LoadJobsText(text, JobsFormat::kYaml, "jobs.yaml", paths);
}
LoadedJobs Jsonl(const std::string& text, const std::vector<std::string>& paths = {}) {
  return LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", paths);
}

std::string Codes(const LoadedJobs& jobs) {
  std::string codes;
  for (const auto& f : jobs.findings) codes += (codes.empty() ? "" : " ") + f.code;
  return codes;
}

TEST(JobsFormat, ChosenByExtension) {
  EXPECT_EQ(JobsFormatForPath("jobs.jsonl"), JobsFormat::kJsonLines);
  EXPECT_EQ(JobsFormatForPath("dir/jobs.ndjson"), JobsFormat::kJsonLines);
  EXPECT_EQ(JobsFormatForPath("JOBS.JSONL"), JobsFormat::kJsonLines);
  EXPECT_EQ(JobsFormatForPath("jobs.yaml"), JobsFormat::kYaml);
  EXPECT_EQ(JobsFormatForPath("jobs.jsonl.yaml"), JobsFormat::kYaml);
  EXPECT_EQ(JobsFormatForPath("-"), JobsFormat::kYaml);
  EXPECT_EQ(JobsFormatForPath("jsonl"), JobsFormat::kYaml);
}

TEST(JobsLoader, WorkedExample) {
  auto jobs = LoadJobsFile(std::string(RESCFG_SOURCE_DIR) + "/testdata/examples/worked-example-jobs.yaml",
                           std::nullopt, {});
  ASSERT_FALSE(jobs.unusable) << Codes(jobs);
  ASSERT_EQ(jobs.entries.size(), 8u);
  EXPECT_EQ(jobs.entries[0].id, "dev-1");
  EXPECT_EQ(jobs.entries[4].policy, "Research");
  EXPECT_EQ(jobs.entries[7].profile, "4xGPU");
  EXPECT_EQ(jobs.entries[7].entry, 8u);
  EXPECT_EQ(jobs.entries[0].mark.line, 4);
}

/// The same jobs written as YAML and as JSON Lines load identically.
TEST(JobsLoader, YamlAndJsonLinesAgree) {
  const std::vector<std::string> paths = {"runtime.gpus_request", "hyperparams.Args.cost",
                                          "hyperparams.Args.lr.max", "configuration.test"};
  auto yaml = LoadJobsFile(kData + "full.yaml", std::nullopt, paths);
  auto jsonl = LoadJobsFile(kData + "full.jsonl", std::nullopt, paths);
  ASSERT_FALSE(yaml.unusable) << Codes(yaml);
  ASSERT_FALSE(jsonl.unusable) << Codes(jsonl);
  ASSERT_EQ(yaml.entries.size(), 6u);
  ASSERT_EQ(jsonl.entries.size(), 6u);
  for (size_t i = 0; i < yaml.entries.size(); ++i) {
    const JobEntry& y = yaml.entries[i];
    const JobEntry& j = jsonl.entries[i];
    SCOPED_TRACE(*y.id);
    EXPECT_EQ(y.entry, i + 1);
    EXPECT_EQ(j.entry, i + 1);
    EXPECT_EQ(y.invalid, "");
    EXPECT_EQ(j.invalid, "");
    EXPECT_EQ(y.id, j.id);
    EXPECT_EQ(y.policy, j.policy);
    EXPECT_EQ(y.profile, j.profile);
    EXPECT_EQ(y.queue, j.queue);
    EXPECT_EQ(y.state, j.state);
    EXPECT_EQ(y.pool, j.pool);
    EXPECT_EQ(y.resources, j.resources);
    EXPECT_EQ(y.enqueued, j.enqueued);
    ASSERT_EQ(y.params.size(), j.params.size());
    for (size_t k = 0; k < y.params.size(); ++k) {
      EXPECT_EQ(y.params[k].path, j.params[k].path);
      EXPECT_EQ(y.params[k].text, j.params[k].text);
    }
  }
  const JobEntry& train = yaml.entries[2];
  ASSERT_EQ(train.params.size(), 4u);
  EXPECT_EQ(train.params[0].text, "2");
  EXPECT_EQ(train.params[1].text, "2");
  EXPECT_EQ(train.params[2].path, "hyperparams.Args.lr.max");
  EXPECT_EQ(train.params[2].text, "0.5");
  EXPECT_EQ(train.params[3].text, "1/7");
  EXPECT_EQ(yaml.entries[1].queue, "dev-4gpu");
  EXPECT_EQ(yaml.entries[1].enqueued, "2026-11-29T11:30:00.250+01:00");
  EXPECT_EQ(yaml.entries[0].enqueued, "2026-11-29T10:00:00Z");
  EXPECT_EQ(yaml.entries[3].params.at(0).text, "0.25");
  EXPECT_EQ(yaml.entries[4].resources, "4");
  EXPECT_EQ(yaml.entries[4].pool, "Bare Metal Low END GPUs");
  // Marks: YAML where the mapping starts, JSON Lines the line (blank line counted).
  EXPECT_EQ(yaml.entries[0].mark.line, 5);
  EXPECT_EQ(yaml.entries[0].mark.column, 5);
  EXPECT_EQ(jsonl.entries[2].mark.line, 4);
  EXPECT_EQ(jsonl.entries[2].mark.column, 1);
}

TEST(JobsLoader, UnreadableFileIsUnusable) {
  auto jobs = LoadJobsFile(kData + "no-such-file.yaml", std::nullopt, {});
  EXPECT_TRUE(jobs.unusable);
  EXPECT_EQ(Codes(jobs), "unreadable");
  auto dir = LoadJobsFile(kData, JobsFormat::kJsonLines, {});
  EXPECT_TRUE(dir.unusable);
}

TEST(JobsLoader, FormatOverridesExtension) {
  auto jobs = LoadJobsFile(kData + "full.jsonl", JobsFormat::kYaml, {});
  EXPECT_TRUE(jobs.unusable);  // JSON Lines is not one YAML document
  auto as_jsonl = LoadJobsFile(kData + "empty-list.yaml", JobsFormat::kJsonLines, {});
  EXPECT_FALSE(as_jsonl.unusable);
  ASSERT_EQ(as_jsonl.entries.size(), 3u);
  EXPECT_EQ(PlacedProblem(as_jsonl.entries[0]), "line 1, column 1: not valid JSON");
}

// --- YAML ------------------------------------------------------------------

TEST(YamlJobs, EmptyListAndNullList) {
  auto jobs = LoadJobsFile(kData + "empty-list.yaml", std::nullopt, {});
  EXPECT_FALSE(jobs.unusable);
  EXPECT_TRUE(jobs.entries.empty());
  auto null_list = Yaml(kHeader + "jobs:\n");
  EXPECT_FALSE(null_list.unusable) << Codes(null_list);
  EXPECT_TRUE(null_list.entries.empty());
}

TEST(YamlJobs, WrongKindAndApiVersion) {
  auto jobs = LoadJobsFile(kData + "bad-kind.yaml", std::nullopt, {});
  EXPECT_TRUE(jobs.unusable);
  EXPECT_EQ(Codes(jobs), "bad-api-version bad-kind");
  EXPECT_EQ(jobs.findings[1].mark.line, 2);
  EXPECT_EQ(jobs.findings[1].message, "kind must be JobList, not 'ResourceConfiguration'");
  EXPECT_NE(jobs.findings[1].hint, "");
  EXPECT_EQ(jobs.findings[0].path, "apiVersion");

  auto missing = Yaml("jobs: []\n");
  EXPECT_TRUE(missing.unusable);
  EXPECT_EQ(Codes(missing), "bad-api-version bad-kind");

  auto typed = Yaml("apiVersion: rescfg/v1\nkind: [JobList]\njobs: []\n");
  EXPECT_TRUE(typed.unusable);
  EXPECT_EQ(Codes(typed), "bad-kind");
}

TEST(YamlJobs, TopLevelShape) {
  auto unknown = Yaml(kHeader + "job:\n  - {id: a}\n");
  EXPECT_TRUE(unknown.unusable);
  EXPECT_EQ(Codes(unknown), "unknown-key missing-field");
  EXPECT_EQ(unknown.findings[0].hint, "did you mean 'jobs'?");
  EXPECT_TRUE(unknown.entries.empty());

  auto not_list = Yaml(kHeader + "jobs: {id: a}\n");
  EXPECT_TRUE(not_list.unusable);
  EXPECT_EQ(Codes(not_list), "wrong-type");

  auto twice = Yaml(kHeader + "jobs: []\nkind: JobList\n");
  EXPECT_TRUE(twice.unusable);
  EXPECT_EQ(Codes(twice), "duplicate-key");

  auto list = Yaml("- {id: a}\n");
  EXPECT_TRUE(list.unusable);
  EXPECT_EQ(Codes(list), "bad-kind");

  auto two_documents = Yaml(kHeader + "jobs: []\n---\n" + kHeader + "jobs: []\n");
  EXPECT_TRUE(two_documents.unusable);
  EXPECT_EQ(Codes(two_documents), "multiple-documents");
  EXPECT_EQ(two_documents.findings[0].mark.line, 4);

  auto keys_in_any_order = Yaml("jobs: [{id: a}]\nkind: JobList\napiVersion: rescfg/v1\n");
  EXPECT_FALSE(keys_in_any_order.unusable);
  EXPECT_EQ(keys_in_any_order.entries.size(), 1u);
}

TEST(YamlJobs, SyntaxErrorIsUnusableWithPosition) {
  auto jobs = LoadJobsFile(kData + "bad-syntax.yaml", std::nullopt, {});
  EXPECT_TRUE(jobs.unusable);
  ASSERT_EQ(Codes(jobs), "yaml-syntax");
  EXPECT_GT(jobs.findings[0].mark.line, 3);
  EXPECT_GT(jobs.findings[0].mark.column, 0);
  EXPECT_EQ(jobs.findings[0].file, kData + "bad-syntax.yaml");
  EXPECT_TRUE(jobs.entries.empty());
}

TEST(YamlJobs, BadEntriesAreInvalidNotFatal) {
  auto jobs = LoadJobsFile(kData + "bad-entries.yaml", std::nullopt, {});
  ASSERT_FALSE(jobs.unusable) << Codes(jobs);
  ASSERT_EQ(jobs.entries.size(), 4u);
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(jobs.entries[1].invalid, "a job must be a mapping, found 'just a string'");
  EXPECT_EQ(jobs.entries[1].entry, 2u);
  EXPECT_EQ(jobs.entries[1].mark.line, 5);
  EXPECT_EQ(jobs.entries[2].invalid, "field 'profile' must be a string");
  EXPECT_EQ(jobs.entries[2].id, "bad-profile");  // still known, for the report
  EXPECT_EQ(jobs.entries[3].invalid, "duplicate key 'id'");
}

TEST(YamlJobs, FieldTypes) {
  auto jobs = Yaml(kHeader +
                   "jobs:\n"
                   "  - {id: 12, policy: ~, profile: \"p\", resources: 0.50, enqueued: 2026-01-01T00:00:00Z}\n"
                   "  - {id: b, resources: {n: 1}, state: [running], params: 5}\n"
                   "  - {id: c, pool: , queue: null, params: ~}\n"
                   "  - [a]\n"
                   "  - ~\n");
  ASSERT_FALSE(jobs.unusable) << Codes(jobs);
  ASSERT_EQ(jobs.entries.size(), 5u);
  const JobEntry& a = jobs.entries[0];
  EXPECT_EQ(a.id, "12");
  EXPECT_EQ(a.policy, std::nullopt);
  EXPECT_EQ(a.profile, "p");
  EXPECT_EQ(a.resources, "0.50");
  EXPECT_EQ(a.enqueued, "2026-01-01T00:00:00Z");
  EXPECT_EQ(a.invalid, "");
  EXPECT_EQ(jobs.entries[1].invalid,
            "field 'resources' must be a number or a string; field 'state' must be a string; "
            "field 'params' must be a mapping");
  EXPECT_EQ(jobs.entries[2].invalid, "");
  EXPECT_EQ(jobs.entries[2].pool, std::nullopt);
  EXPECT_EQ(jobs.entries[2].queue, std::nullopt);
  EXPECT_EQ(jobs.entries[3].invalid, "a job must be a mapping, found a list");
  EXPECT_EQ(jobs.entries[4].invalid, "a job must be a mapping, found nothing (null)");
}

TEST(YamlJobs, UnknownKeysAreIgnored) {
  auto jobs = Yaml(kHeader + "jobs:\n  - {id: a, owner: {name: x, tags: [1, {b: c}]}, extra: ~}\n");
  ASSERT_EQ(jobs.entries.size(), 1u);
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(jobs.entries[0].id, "a");
}

TEST(YamlJobs, Aliases) {
  auto jobs = LoadJobsFile(kData + "aliases.yaml", std::nullopt, {"runtime.gpus_request"});
  ASSERT_FALSE(jobs.unusable) << Codes(jobs);
  ASSERT_EQ(jobs.entries.size(), 2u);
  EXPECT_EQ(jobs.entries[1].policy, "Research");
  ASSERT_EQ(jobs.entries[1].params.size(), 1u);
  EXPECT_EQ(jobs.entries[1].params[0].text, "2");

  auto whole_job = Yaml(kHeader + "jobs:\n  - &j {id: a, policy: Dev}\n  - *j\n");
  ASSERT_EQ(whole_job.entries.size(), 2u);
  EXPECT_EQ(whole_job.entries[1].id, "a");
  EXPECT_EQ(whole_job.entries[1].policy, "Dev");
  EXPECT_EQ(whole_job.entries[1].mark.line, 5);  // where the alias is

  auto merge = Yaml(kHeader + "jobs:\n  - &d {id: a, policy: Dev}\n  - {<<: *d, id: b}\n");
  ASSERT_EQ(merge.entries.size(), 2u);
  EXPECT_EQ(merge.entries[1].invalid, "merge keys ('<<') are not supported; write the fields out");

  // An alias inside the node it names cannot be expanded.
  auto cyclic = Yaml(kHeader + "jobs:\n  - {id: a, policy: &p [*p]}\n  - {id: b, params: &q {runtime: *q}}\n",
                     {"runtime.gpus_request"});
  ASSERT_EQ(cyclic.entries.size(), 2u);
  EXPECT_EQ(cyclic.entries[0].invalid, "field 'policy' must be a string");
  EXPECT_EQ(cyclic.entries[1].invalid, "an alias refers to a node that contains it");
}

// --- JSON Lines --------------------------------------------------------------

TEST(JsonLinesJobs, MixedFile) {
  auto jobs = LoadJobsFile(kData + "bad-entries.jsonl", std::nullopt, {});
  ASSERT_FALSE(jobs.unusable);
  ASSERT_EQ(jobs.entries.size(), 5u);  // the blank line is not an entry
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(PlacedProblem(jobs.entries[1]), "line 2: not a JSON object: [1, 2, 3]");
  EXPECT_EQ(jobs.entries[1].id, std::nullopt);
  EXPECT_EQ(jobs.entries[2].invalid, "field 'policy' must be a string");
  EXPECT_EQ(jobs.entries[2].id, "bad-policy");
  EXPECT_EQ(PlacedProblem(jobs.entries[3]), "line 5, column 8: not valid JSON: a string is not closed");
  EXPECT_EQ(jobs.entries[3].entry, 4u);
  EXPECT_EQ(jobs.entries[3].mark.line, 5);
  EXPECT_EQ(jobs.entries[4].resources, "12345678901234567890123456789");
  EXPECT_EQ(jobs.entries[4].entry, 5u);
}

TEST(JsonLinesJobs, EmptyAndBlank) {
  EXPECT_TRUE(Jsonl("").entries.empty());
  EXPECT_FALSE(Jsonl("").unusable);
  EXPECT_TRUE(Jsonl("\n  \n\t\r\n").entries.empty());
  auto jobs = Jsonl("\n\n{\"id\": \"a\"}");  // no final newline
  ASSERT_EQ(jobs.entries.size(), 1u);
  EXPECT_EQ(jobs.entries[0].mark.line, 3);
  EXPECT_EQ(jobs.entries[0].entry, 1u);
}

TEST(JsonLinesJobs, FieldTypes) {
  auto jobs = Jsonl(
      "{\"id\": \"a\", \"policy\": null, \"resources\": 0.50, \"enqueued\": \"2026-01-01T00:00:00Z\"}\n"
      "{\"id\": \"b\", \"resources\": -1.5e-3}\n"
      "{\"id\": \"c\", \"resources\": \"1/7\"}\n"
      "{\"id\": 7, \"policy\": true, \"profile\": {}, \"resources\": [4], \"enqueued\": 5, \"params\": \"x\"}\n"
      "{\"id\": \"e\", \"queue\": \"q\", \"state\": \"running\", \"pool\": \"P\"}\n");
  ASSERT_EQ(jobs.entries.size(), 5u);
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(jobs.entries[0].policy, std::nullopt);
  EXPECT_EQ(jobs.entries[0].resources, "0.50");  // the text, never a double
  EXPECT_EQ(jobs.entries[1].resources, "-1.5e-3");
  EXPECT_EQ(jobs.entries[2].resources, "1/7");
  EXPECT_EQ(jobs.entries[3].invalid,
            "field 'id' must be a string; field 'policy' must be a string; field 'profile' must be "
            "a string; field 'resources' must be a number or a string; field 'params' must be an object");
  // A mistyped `enqueued` is left to resolution: it is ignored on a running job.
  EXPECT_TRUE(jobs.entries[3].enqueued_mistyped);
  EXPECT_FALSE(jobs.entries[0].enqueued_mistyped);
  EXPECT_EQ(jobs.entries[3].id, std::nullopt);
  EXPECT_EQ(jobs.entries[4].queue, "q");
  EXPECT_EQ(jobs.entries[4].state, "running");
  EXPECT_EQ(jobs.entries[4].pool, "P");
}

TEST(JsonLinesJobs, MalformedLines) {
  auto jobs = Jsonl(
      "{\"id\": \"a\"} trailing\n"
      "{\"id\": \"a\"}{\"id\": \"b\"}\n"
      "{\"id\": \"a\", \"extra\": [1,,2]}\n"
      "{\"id\": \"a\", \"extra\": tru}\n"
      "{\"id\": \"a\", \"extra\": 01}\n"
      "\"just a string\"\n"
      "42\n"
      "null\n"
      "{\"id\": \"a\", \"id\": \"b\"}\n"
      "{\"id\": \"\\u00e9t\\u00e9\"}\n");
  ASSERT_EQ(jobs.entries.size(), 10u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(PlacedProblem(jobs.entries[i]).rfind("line " + std::to_string(i + 1) + ", column ", 0), 0u)
        << PlacedProblem(jobs.entries[i]);
    EXPECT_NE(PlacedProblem(jobs.entries[i]).find(": not valid JSON"), std::string::npos) << PlacedProblem(jobs.entries[i]);
    EXPECT_EQ(jobs.entries[i].id, std::nullopt);
  }
  EXPECT_EQ(PlacedProblem(jobs.entries[5]), "line 6: not a JSON object: \"just a string\"");
  EXPECT_EQ(PlacedProblem(jobs.entries[6]), "line 7: not a JSON object: 42");
  EXPECT_EQ(PlacedProblem(jobs.entries[7]), "line 8: not a JSON object: null");
  EXPECT_EQ(jobs.entries[8].invalid, "duplicate key 'id'");
  EXPECT_EQ(jobs.entries[9].id, "\xc3\xa9t\xc3\xa9");
  EXPECT_EQ(jobs.entries[9].invalid, "");
}

TEST(JsonLinesJobs, LongExcerptIsCut) {
  auto jobs = Jsonl("[\"" + std::string(100, 'x') + "\"]\n");
  ASSERT_EQ(jobs.entries.size(), 1u);
  EXPECT_EQ(PlacedProblem(jobs.entries[0]), "line 1: not a JSON object: [\"" + std::string(38, 'x') + "...");
}

TEST(JsonLinesJobs, DuplicateKeyAmongManyKeys) {
  std::string line = "{";
  for (int i = 0; i < 40; ++i) line += "\"k" + std::to_string(i) + "\": 1, ";
  line += "\"k7\": 2}";
  auto jobs = Jsonl(line);
  ASSERT_EQ(jobs.entries.size(), 1u);
  EXPECT_EQ(jobs.entries[0].invalid, "duplicate key 'k7'");
}

}  // namespace
}  // namespace rescfg

namespace rescfg {
namespace {

TEST(JobsLoader, LargeJsonLinesFileKeepsEntryAndLineNumbers) {
  // Large files are read in two halves at once; numbering must not show it.
  struct Expected {
    int line;
    std::string id;  ///< empty: the line is not an object
  };
  std::string text;
  std::vector<Expected> expected;
  const std::string pad(100, 'x');
  for (int line = 1; text.size() < (size_t(9) << 20); ++line) {
    if (line % 997 == 0) {
      text += "  \n";
    } else if (line % 991 == 0) {
      text += "[" + std::to_string(line) + "]\n";
      expected.push_back({line, ""});
    } else {
      std::string id = "j" + std::to_string(line) + (line % 2 ? "\\u00e9" : "");
      text += "{\"id\": \"" + id + "\", \"policy\": \"p\", \"pad\": \"" + pad + "\"}\n";
      expected.push_back({line, "j" + std::to_string(line) + (line % 2 ? "\xc3\xa9" : "")});
    }
  }
  text += "{\"id\": \"last\"}";  // no final newline
  expected.push_back({static_cast<int>(expected.size() + 1000000), "last"});
  LoadedJobs jobs = LoadJobsText(text, JobsFormat::kJsonLines, "jobs.jsonl", {});
  ASSERT_EQ(jobs.entries.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const JobEntry& e = jobs.entries[i];
    ASSERT_EQ(e.entry, i + 1);
    if (i + 1 < expected.size()) {
      ASSERT_EQ(e.mark.line, expected[i].line) << i;
    }
    if (expected[i].id.empty()) {
      ASSERT_EQ(PlacedProblem(e), "line " + std::to_string(expected[i].line) + ": not a JSON object: [" +
                               std::to_string(expected[i].line) + "]");
    } else {
      ASSERT_EQ(e.id, expected[i].id) << i;
      if (i + 1 < expected.size()) {
        ASSERT_EQ(e.policy, "p");
      }
    }
  }
}

}  // namespace
}  // namespace rescfg
