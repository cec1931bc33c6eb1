/// Jobs files from hostile or broken sources: never a crash, an exception or
/// a long wait; always a clear outcome.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "jobs/job_fields.h"
#include "jobs/loader.h"
#include "jobs/yaml_jobs.h"

namespace rescfg {
namespace {

/// Wall-clock guards here only catch blow-ups (quadratic work); speed itself
/// is measured by the benchmarks. Sanitizers and unoptimised builds run many
/// times slower, so they get far more room.
#if defined(__SANITIZE_ADDRESS__) || !defined(NDEBUG)
constexpr double kSlack = 20.0;
#else
constexpr double kSlack = 2.0;
#endif

const std::string kHeader = "apiVersion: rescfg/v1\nkind: JobList\njobs:\n";
const std::vector<std::string> kPaths = {"runtime.gpus_request", "hyperparams.Args.cost"};

LoadedJobs Yaml(const std::string& text) { return LoadJobsText(text, JobsFormat::kYaml, "j.yaml", kPaths); }
LoadedJobs Jsonl(const std::string& text) {
  return LoadJobsText(text, JobsFormat::kJsonLines, "j.jsonl", kPaths);
}

/// Structural invariants every load must satisfy.
void CheckInvariants(const LoadedJobs& jobs) {
  if (jobs.unusable) {
    EXPECT_TRUE(jobs.entries.empty());
    EXPECT_FALSE(jobs.findings.empty());
  }
  for (size_t i = 0; i < jobs.entries.size(); ++i) {
    EXPECT_EQ(jobs.entries[i].entry, i + 1);
    EXPECT_GE(jobs.entries[i].mark.line, 1);
  }
}

class Timer {
 public:
  double Seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string RandomBytes(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng() & 0xFF);
  return s;
}

TEST(HostileJobs, EmptyFile) {
  auto yaml = Yaml("");
  EXPECT_TRUE(yaml.unusable);
  ASSERT_EQ(yaml.findings.size(), 1u);
  EXPECT_EQ(yaml.findings[0].code, "bad-kind");
  auto jsonl = Jsonl("");
  EXPECT_FALSE(jsonl.unusable);
  EXPECT_TRUE(jsonl.entries.empty());
}

TEST(HostileJobs, BinaryBytes) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const std::string noise = RandomBytes(4096, seed);
    auto yaml = Yaml(noise);
    EXPECT_TRUE(yaml.unusable);
    CheckInvariants(yaml);
    auto jsonl = Jsonl(noise);
    EXPECT_FALSE(jsonl.unusable);
    EXPECT_FALSE(jsonl.entries.empty());
    for (const auto& e : jsonl.entries) EXPECT_NE(e.invalid, "");
    CheckInvariants(jsonl);
  }
  auto nul = Yaml(kHeader + "  - {id: a}\n" + std::string(1, '\0'));
  EXPECT_TRUE(nul.unusable);
}

TEST(HostileJobs, InvalidUtf8) {
  auto jsonl = Jsonl("{\"id\": \"a\"}\n{\"id\": \"b\xff\"}\n{\"id\": \"c\xc0\xaf\"}\n{\"id\": \"d\"}\n");
  ASSERT_EQ(jsonl.entries.size(), 4u);
  EXPECT_EQ(jsonl.entries[0].invalid, "");
  EXPECT_EQ(PlacedProblem(jsonl.entries[1]), "line 2, column 10: not valid UTF-8 text");
  EXPECT_EQ(PlacedProblem(jsonl.entries[2]), "line 3, column 10: not valid UTF-8 text");
  EXPECT_EQ(jsonl.entries[3].id, "d");
  // Also where the reader would otherwise skip the text.
  auto hidden = Jsonl("{\"id\": \"a\", \"note\": \"\xed\xa0\x80\"}\n");
  EXPECT_EQ(PlacedProblem(hidden.entries.at(0)), "line 1, column 22: not valid UTF-8 text");

  auto yaml = Yaml(kHeader + "  - {id: a}\n  - {id: \"b\xff\"}\n");
  EXPECT_TRUE(yaml.unusable);
  ASSERT_EQ(yaml.findings.size(), 1u);
  EXPECT_EQ(yaml.findings[0].code, "invalid-utf8");
  EXPECT_EQ(yaml.findings[0].mark.line, 5);
}

TEST(HostileJobs, TenMegabyteLine) {
  const std::string big(10 << 20, 'x');
  Timer timer;
  auto jsonl = Jsonl("{\"id\": \"a\", \"note\": \"" + big + "\"}\n{\"id\": \"b\"}\n" + big + "\n");
  ASSERT_EQ(jsonl.entries.size(), 3u);
  EXPECT_EQ(jsonl.entries[0].invalid, "");
  EXPECT_EQ(jsonl.entries[1].id, "b");
  EXPECT_EQ(PlacedProblem(jsonl.entries[2]), "line 3, column 1: not valid JSON");
  auto as_id = Jsonl("{\"id\": \"" + big + "\"}");
  ASSERT_EQ(as_id.entries.size(), 1u);
  EXPECT_EQ(as_id.entries[0].id->size(), big.size());
  auto yaml = Yaml(kHeader + "  - {id: a, note: \"" + big + "\"}\n");
  EXPECT_FALSE(yaml.unusable);
  ASSERT_EQ(yaml.entries.size(), 1u);
  EXPECT_EQ(yaml.entries[0].id, "a");
  RecordProperty("seconds", std::to_string(timer.Seconds()));
}

TEST(HostileJobs, DeepNesting) {
  const int depth = 100000;
  const std::string open(depth, '['), close(depth, ']');
  // In an ignored key, in params at a path that matters, and elsewhere in params.
  for (const std::string& line :
       {"{\"id\": \"a\", \"x\": " + open + close + "}",
        "{\"id\": \"a\", \"params\": {\"runtime\": {\"gpus_request\": " + open + close + "}}}",
        "{\"id\": \"a\", \"params\": {\"other\": " + open + close + "}}"}) {
    auto jsonl = Jsonl(line + "\n{\"id\": \"b\"}\n");
    ASSERT_EQ(jsonl.entries.size(), 2u);
    EXPECT_EQ(PlacedProblem(jsonl.entries[0]).rfind("line 1, column ", 0), 0u) << PlacedProblem(jsonl.entries[0]);
    EXPECT_NE(PlacedProblem(jsonl.entries[0]).find("not valid JSON"), std::string::npos) << PlacedProblem(jsonl.entries[0]);
    EXPECT_EQ(jsonl.entries[1].id, "b");
  }
  // Moderate nesting is fine.
  auto moderate = Jsonl("{\"id\": \"a\", \"params\": {\"x\": " + std::string(300, '[') +
                        std::string(300, ']') + "}}");
  EXPECT_EQ(moderate.entries.at(0).invalid, "");

  auto yaml = Yaml(kHeader + "  - {id: a, params: {runtime: {gpus_request: " + open + close + "}}}\n");
  EXPECT_TRUE(yaml.unusable);
  ASSERT_FALSE(yaml.findings.empty());
  EXPECT_EQ(yaml.findings[0].code, "yaml-syntax");
  auto block = std::string();
  for (int i = 0; i < 5000; ++i) block += std::string(static_cast<size_t>(i) + 4, ' ') + "- \n";
  auto yaml_block = Yaml(kHeader + "  - id: a\n    x:\n" + block);
  CheckInvariants(yaml_block);
  auto yaml_ok = Yaml(kHeader + "  - {id: a, params: {runtime: {gpus_request: " + std::string(300, '[') +
                      std::string(300, ']') + "}}}\n");
  EXPECT_FALSE(yaml_ok.unusable);
  ASSERT_EQ(yaml_ok.entries.size(), 1u);
  ASSERT_EQ(yaml_ok.entries[0].params.size(), 1u);
  EXPECT_EQ(yaml_ok.entries[0].params[0].text, std::nullopt);
}

/// "Billion laughs": nine levels of nine aliases, 9^9 nodes if expanded.
std::string AliasBomb() {
  std::string s = "    bomb:\n      a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    s += "      a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 9; ++k) s += (k ? ", " : "") + prev;
    s += "]\n";
  }
  return s;
}

TEST(HostileJobs, AliasBomb) {
  Timer timer;
  const std::string text = kHeader + "  - id: a\n" + AliasBomb() +  // defined in an ignored key: harmless
                           "  - {id: b, policy: *a9}\n"
                           "  - {id: c, params: {runtime: {gpus_request: *a9}}}\n"
                           "  - {id: d, params: *a9}\n"
                           "  - *a9\n"
                           "  - {id: e, note: *a9, policy: Dev}\n"
                           "  - {id: f, policy: *a0}\n";
  auto jobs = Yaml(text);
  ASSERT_FALSE(jobs.unusable);
  ASSERT_EQ(jobs.entries.size(), 7u);
  const std::string too_many = "aliases expand to too many nodes (more than 100000)";
  EXPECT_EQ(jobs.entries[0].invalid, "");
  EXPECT_EQ(jobs.entries[1].invalid, too_many);
  EXPECT_EQ(jobs.entries[2].invalid, too_many);
  EXPECT_EQ(jobs.entries[3].invalid, too_many);
  EXPECT_EQ(jobs.entries[4].invalid, too_many);
  EXPECT_EQ(jobs.entries[5].invalid, "");  // an ignored key is never expanded
  EXPECT_EQ(jobs.entries[5].policy, "Dev");
  EXPECT_EQ(jobs.entries[6].invalid, "field 'policy' must be a string");  // small: expanded
  EXPECT_LT(timer.Seconds(), 5.0 * kSlack);
}

TEST(HostileJobs, AliasBudgetForTheWholeFile) {
  // One params block of ~60k events, used by many jobs: each use is allowed
  // alone, but all together exceed the file's budget.
  std::string block = "{runtime: {gpus_request: 2}, hyperparams: {Big: [";
  for (int i = 0; i < 20000; ++i) block += "[x], ";
  block += "]}}";
  std::string text = kHeader + "  - {id: j0, params: &p " + block + "}\n";
  const int uses = 250;
  for (int i = 1; i <= uses; ++i) text += "  - {id: j" + std::to_string(i) + ", params: *p}\n";
  Timer timer;
  auto jobs = Yaml(text);
  ASSERT_FALSE(jobs.unusable);
  ASSERT_EQ(jobs.entries.size(), static_cast<size_t>(uses + 1));
  EXPECT_EQ(jobs.entries[1].invalid, "");
  ASSERT_EQ(jobs.entries[1].params.size(), 1u);
  EXPECT_EQ(jobs.entries[1].params[0].text, "2");
  EXPECT_NE(jobs.entries[uses].invalid, "");
  size_t expanded = 0;
  for (const auto& e : jobs.entries) expanded += e.invalid.empty();
  EXPECT_LT(expanded, static_cast<size_t>(uses));
  EXPECT_GT(expanded * 60000, kMaxAliasNodesTotal / 2);
  EXPECT_LT(timer.Seconds(), 10.0 * kSlack);
}

TEST(HostileJobs, CrlfAndByteOrderMark) {
  auto jsonl = Jsonl("\xEF\xBB\xBF{\"id\": \"a\"}\r\n\r\n{\"id\": \"b\", \"resources\": 2}\r\n");
  ASSERT_EQ(jsonl.entries.size(), 2u);
  EXPECT_EQ(jsonl.entries[0].id, "a");
  EXPECT_EQ(jsonl.entries[1].resources, "2");
  EXPECT_EQ(jsonl.entries[1].mark.line, 3);
  EXPECT_EQ(jsonl.entries[1].invalid, "");
  auto yaml = Yaml("\xEF\xBB\xBF" "apiVersion: rescfg/v1\r\nkind: JobList\r\njobs:\r\n  - id: a\r\n    resources: 2\r\n");
  ASSERT_FALSE(yaml.unusable);
  ASSERT_EQ(yaml.entries.size(), 1u);
  EXPECT_EQ(yaml.entries[0].resources, "2");
  // A byte order mark anywhere else is not whitespace.
  auto late = Jsonl("{\"id\": \"a\"}\n\xEF\xBB\xBF{\"id\": \"b\"}\n");
  EXPECT_NE(late.entries.at(1).invalid, "");
}

TEST(HostileJobs, HugeNumbersStayText) {
  const std::string digits(1000, '9');
  auto jsonl = Jsonl("{\"id\": \"a\", \"resources\": " + digits + ".5e999999}\n");
  EXPECT_EQ(jsonl.entries.at(0).resources, digits + ".5e999999");
  auto yaml = Yaml(kHeader + "  - {id: a, resources: " + digits + "}\n");
  EXPECT_EQ(yaml.entries.at(0).resources, digits);
}

TEST(HostileJobs, ManyEntriesQuickly) {
  std::string jsonl_text, yaml_text = kHeader;
  for (int i = 0; i < 100000; ++i) {
    const std::string id = "job-" + std::to_string(i);
    jsonl_text += "{\"id\": \"" + id + "\", \"policy\": \"Dev\", \"profile\": \"4xGPU\", \"params\": {\"runtime\": {\"gpus_request\": 2}}}\n";
    yaml_text += "  - {id: " + id + ", policy: Dev, profile: 4xGPU}\n";
  }
  Timer timer;
  auto jsonl = Jsonl(jsonl_text);
  const double jsonl_seconds = timer.Seconds();
  ASSERT_EQ(jsonl.entries.size(), 100000u);
  EXPECT_EQ(jsonl.entries.back().id, "job-99999");
  EXPECT_EQ(jsonl.entries.back().params.at(0).text, "2");
  EXPECT_LT(jsonl_seconds, 2.0 * kSlack);  // about 0.1 s in an optimised build
  Timer yaml_timer;
  auto yaml = Yaml(yaml_text);
  ASSERT_EQ(yaml.entries.size(), 100000u);
  EXPECT_EQ(yaml.entries.back().id, "job-99999");
  EXPECT_LT(yaml_timer.Seconds(), 30.0 * kSlack);  // guards against anything quadratic
  RecordProperty("jsonl_seconds", std::to_string(jsonl_seconds));
  RecordProperty("yaml_seconds", std::to_string(yaml_timer.Seconds()));
}

RC_GTEST_PROP(HostileJobs, NoiseNeverCrashes, (const std::string& noise)) {
  CheckInvariants(Yaml(noise));
  CheckInvariants(Yaml(kHeader + "  - " + noise + "\n"));
  CheckInvariants(Jsonl(noise));
}

/// Damaged copies of a valid file: every load has a clear outcome.
RC_GTEST_PROP(HostileJobs, DamagedFilesNeverCrash, ()) {
  const std::string yaml = kHeader +
                           "  - {id: a, policy: &p Dev, profile: 4xGPU, params: {runtime: {gpus_request: 2}}}\n"
                           "  - id: b\n    policy: *p\n    params: {\"hyperparams.Args.cost\": {value: \"1/7\"}}\n";
  const std::string jsonl =
      "{\"id\": \"a\", \"params\": {\"runtime\": {\"gpus_request\": 2}}}\n"
      "{\"id\": \"b\", \"resources\": 0.5, \"params\": {\"hyperparams.Args.cost\": {\"value\": \"1/7\"}}}\n";
  for (const std::string* original : {&yaml, &jsonl}) {
    std::string text = *original;
    const int edits = *rc::gen::inRange(1, 5);
    for (int i = 0; i < edits; ++i) {
      const size_t pos = *rc::gen::inRange<size_t>(0, text.size());
      const char c = *rc::gen::elementOf(std::string("{}[]:,\"'&*-\n \\#!?|>0"));
      if (*rc::gen::arbitrary<bool>()) {
        text.insert(pos, 1, c);
      } else if (!text.empty()) {
        text.erase(pos, 1);
      }
    }
    CheckInvariants(original == &yaml ? Yaml(text) : Jsonl(text));
  }
}

}  // namespace
}  // namespace rescfg
