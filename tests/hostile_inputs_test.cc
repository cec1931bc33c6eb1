// Hostile input, second round, at the level of the library: reads against
// their limits, outputs that would land in a state, the plan key, syntax
// error columns, CR-only lines, times outside 0000-9999, long YAML keys,
// Mermaid directives in names.

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "config/loader.h"
#include "export/values_tree.h"
#include "graph/graph.h"
#include "jobs/job_fields.h"
#include "jobs/json_lines.h"
#include "jobs/json_values.h"
#include "jobs/loader.h"
#include "util/sim_time.h"
#include "state/plan_key.h"
#include "state/state_store.h"
#include "util/file_io.h"
#include "validate/validate.h"

namespace rescfg {
namespace {

namespace fs = std::filesystem;

class Scratch : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("rescfg-hostile-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  void Write(const std::string& name, const std::string& text) const { std::ofstream(Path(name)) << text; }
  fs::path dir_;
};

// --- Reads against their limits -------------------------------------------

TEST_F(Scratch, OverItsLimitAnInputIsTooLargeNotUnreadable) {
  Write("big", std::string(1000, 'x'));
  std::string error;
  const char* code = nullptr;
  EXPECT_FALSE(ReadWholeFile(Path("big"), &error, 999, &code));
  EXPECT_STREQ(code, kTooLarge);
  EXPECT_TRUE(ReadWholeFile(Path("big"), &error, 1000, &code));
  EXPECT_FALSE(ReadWholeFile(Path("missing"), &error, 1000, &code));
  EXPECT_STREQ(code, kUnreadable);
  // A device is read in chunks and stops at its limit.
  EXPECT_FALSE(ReadWholeFile("/dev/zero", &error, 5 << 20, &code));
  EXPECT_STREQ(code, kTooLarge);
}

TEST(HostileReads, APipeNeverGrowsItsBufferPastTheLimit) {
  // 3 MiB through a pipe under a limit of 3 MiB + 1: doubling would reach
  // 4 MiB; the buffer stays within the limit.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const size_t size = size_t(3) << 20;
  std::thread writer([&] {
    const std::string chunk(1 << 16, 'y');
    for (size_t sent = 0; sent < size; sent += chunk.size()) {
      if (::write(fds[1], chunk.data(), chunk.size()) != static_cast<ssize_t>(chunk.size())) break;
    }
    ::close(fds[1]);
  });
  std::string error;
  auto text = ReadWholeDescriptor(fds[0], &error, size + 1);
  writer.join();
  ::close(fds[0]);
  ASSERT_TRUE(text) << error;
  EXPECT_EQ(text->size(), size);
  EXPECT_LE(text->capacity(), size + 1);
}

// --- Outputs that would land in a state directory ---------------------------

TEST_F(Scratch, AnOutputInsideAStateDirectoryIsFound) {
  std::string error;
  ASSERT_TRUE(StateStore::Open(Path("st"), StateStore::Access::kWrite, 1, &error)) << error;
  EXPECT_EQ(StateDirectoryHolding(Path("st/history.jsonl")), fs::canonical(dir_ / "st").string());
  EXPECT_NE(StateDirectoryHolding(Path("st/revisions/000001.yaml")), "");
  EXPECT_NE(StateDirectoryHolding(Path("st/new.yaml")), "");
  EXPECT_NE(StateDirectoryHolding(Path("st/../st/config.yaml")), "");
  fs::create_symlink(dir_ / "st" / "revisions", dir_ / "link");
  EXPECT_NE(StateDirectoryHolding(Path("link/x.yaml")), "");
  fs::create_symlink(dir_ / "st" / "lock", dir_ / "file-link");
  EXPECT_NE(StateDirectoryHolding(Path("file-link")), "");
  EXPECT_EQ(StateDirectoryHolding(Path("beside.yaml")), "");
  EXPECT_EQ(StateDirectoryHolding(Path("no/such/dir/x.yaml")), "");
}

TEST_F(Scratch, SameFileByInodeOrResolvedPlace) {
  Write("a", "x");
  fs::create_symlink(dir_ / "a", dir_ / "b");
  EXPECT_TRUE(SameFile(Path("a"), Path("b")));
  EXPECT_TRUE(SameFile(Path("new"), (dir_ / "." / "new").string()));
  EXPECT_FALSE(SameFile(Path("a"), Path("new")));
  EXPECT_FALSE(SameFile("-", "-"));
  EXPECT_FALSE(SameFile("", ""));
}

// --- The plan key -----------------------------------------------------------

TEST_F(Scratch, ThePlanKeyIsMadeOnceWithMode0600) {
  std::string error;
  EXPECT_FALSE(PlanKey(Path(""), /*create=*/false, &error));
  EXPECT_NE(error.find("has no plan key"), std::string::npos) << error;
  auto key = PlanKey(dir_.string(), /*create=*/true, &error);
  ASSERT_TRUE(key) << error;
  EXPECT_EQ(key->size(), 64u);
  struct stat st {};
  ASSERT_EQ(::stat(Path(kPlanKeyFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(PlanKey(dir_.string(), true, &error), key);
  EXPECT_EQ(PlanKey(dir_.string(), false, &error), key);
  // No temporary file is left behind.
  for (const auto& entry : fs::directory_iterator(dir_)) EXPECT_EQ(entry.path().filename(), kPlanKeyFile);
  // Two states, two keys.
  fs::create_directories(dir_ / "other");
  EXPECT_NE(PlanKey(Path("other"), true, &error), key);
  // A damaged key is refused, never replaced.
  Write(kPlanKeyFile, "short\n");
  EXPECT_FALSE(PlanKey(dir_.string(), true, &error));
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
}

TEST_F(Scratch, PlansRacingAgreeOnOneKey) {
  std::vector<std::optional<std::string>> keys(4);
  std::vector<std::thread> threads;
  for (auto& key : keys) {
    threads.emplace_back([&] {
      std::string error;
      key = PlanKey(dir_.string(), true, &error);
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& key : keys) {
    ASSERT_TRUE(key);
    EXPECT_EQ(key, keys[0]);
  }
}

// --- JSON Lines: columns of syntax errors, CR-only lines -----------------------

TEST(HostileJsonLines, ASyntaxErrorNamesItsColumn) {
  auto invalid = [](const std::string& text) {
    auto jobs = LoadJobsText(text, JobsFormat::kJsonLines, "j.jsonl", {});
    return jobs.entries.empty() ? std::string() : PlacedProblem(jobs.entries[0]);
  };
  EXPECT_EQ(invalid("{\"id\": \"a\", \"policy\": Dev}").rfind("line 1, column 23: not valid JSON", 0), 0u)
      << invalid("{\"id\": \"a\", \"policy\": Dev}");
  EXPECT_EQ(invalid("{\"id\": \"a\", \"note\": \"open"), "line 1, column 21: not valid JSON: a string is not closed");
  EXPECT_EQ(invalid("{\"id\": \"a\x01\"}").rfind("line 1, column 10: ", 0), 0u) << invalid("{\"id\": \"a\x01\"}");
  EXPECT_EQ(invalid("{\"id\": \"\xff\"}").rfind("line 1, column 9: ", 0), 0u) << invalid("{\"id\": \"\xff\"}");
  EXPECT_EQ(json::ErrorColumn("{\"a\": [1, 2", simdjson::INCOMPLETE_ARRAY_OR_OBJECT, nullptr), 12u);
}

TEST(HostileJsonLines, ParserOutOfMemoryIsOutOfMemoryNotBadJson) {
  // simdjson's allocation failure is none of the input's: it is thrown as
  // every other one is (out of memory, exit 2), never "not valid JSON".
  EXPECT_THROW(json::SyntaxMessage(simdjson::MEMALLOC), std::bad_alloc);
  EXPECT_EQ(json::SyntaxMessage(simdjson::TAPE_ERROR), "not valid JSON");
}

TEST(HostileJsonLines, CarriageReturnsAloneEndLines) {
  std::string text = "{\"id\": \"a\"}\r{\"id\": \"b\"}\r\n{\"id\": \"c\"}\r";
  json::LoneCarriageReturnsToNewlines(&text);
  EXPECT_EQ(text, "{\"id\": \"a\"}\n{\"id\": \"b\"}\r\n{\"id\": \"c\"}\n");
  auto jobs = LoadJobsText("{\"id\": \"a\"}\r{\"id\": \"b\"}\r\r{\"id\": \"c\"}", JobsFormat::kJsonLines, "j.jsonl", {});
  ASSERT_EQ(jobs.entries.size(), 3u);
  EXPECT_EQ(jobs.entries[2].id, "c");
  EXPECT_EQ(jobs.entries[2].mark.line, 4);
}

TEST_F(Scratch, ABlankJobsFileIsAnEmptyListInAnyFormat) {
  for (const char* name : {"empty.yaml", "empty.jsonl", "blank.yaml"}) {
    Write(name, std::string(name) == "blank.yaml" ? " \n\r\n\t\n" : "");
    auto jobs = LoadJobsFile(Path(name), std::nullopt, {});
    EXPECT_FALSE(jobs.unusable) << name;
    EXPECT_TRUE(jobs.entries.empty()) << name;
  }
}

// --- Simulation times ----------------------------------------------------------

TEST(HostileTimes, OnlyTheYears0000To9999InUtc) {
  std::string error;
  EXPECT_TRUE(ParseSimTime("0000-01-01T00:00:00Z", &error));
  EXPECT_TRUE(ParseSimTime("9999-12-31T23:59:59.999999Z", &error));
  EXPECT_FALSE(ParseSimTime("0000-01-01T00:00:00+01:00", &error));
  EXPECT_NE(error.find("outside the years 0000 to 9999"), std::string::npos) << error;
  EXPECT_FALSE(ParseSimTime("9999-12-31T23:30:00-01:00", &error));
}

// --- Long YAML keys, Mermaid directives -------------------------------------------

TEST(HostileOutputs, AKeyOverTheImplicitLimitIsWrittenExplicitly) {
  for (const std::string& key : {std::string(600, '"'), std::string(1500, 'k'), std::string("short key")}) {
    ValueNode root = ValueNode::Map();
    ValueNode& queues = root.Add("queues", ValueNode::Map());
    queues.Add(key, ValueNode::Map()).Add("labels", ValueNode::Map(/*flow=*/true)).Add(key, ValueNode::String("2"));
    queues.Add("after", ValueNode::Bool(true));
    std::string yaml;
    root.WriteYaml(&yaml);
    YAML::Node parsed;
    ASSERT_NO_THROW(parsed = YAML::Load(yaml)) << yaml.substr(0, 200);
    EXPECT_EQ(parsed["queues"][key]["labels"][key].as<std::string>(), "2");
    EXPECT_TRUE(parsed["queues"]["after"].as<bool>());
  }
}

TEST(HostileOutputs, MermaidDirectivesInNamesAreEscaped) {
  LoadedConfig loaded = LoadConfigText(R"(apiVersion: rescfg/v1
kind: ResourceConfiguration
pools:
  - {name: "g %%{init: {'theme': 'dark'}}%%", resources: 8}
profiles:
  - {name: "p%%", allotment: 1, links: [{pool: "g %%{init: {'theme': 'dark'}}%%"}]}
policies:
  - {name: "%%{init}%%", profiles: ["p%%"]}
)",
                                       "c.yaml");
  ASSERT_TRUE(loaded.config);
  ApplyDefaults(*loaded.config);
  const std::string mermaid = RenderGraph(*loaded.config, GraphFormat::kMermaid);
  EXPECT_EQ(mermaid.find('%'), std::string::npos) << mermaid;
  EXPECT_NE(mermaid.find("#37;#37;{init"), std::string::npos) << mermaid;
}

}  // namespace
}  // namespace rescfg
