/// A snapshot's files read ahead (while a command loads its configuration):
/// the tasks found and the companions read; the snapshot is the one read in
/// turn, whichever thread gets to each piece of work first, and what was
/// read for other files is not used.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "clearml/queues.h"
#include "clearml/snapshot.h"
#include "config/loader.h"
#include "decide/report.h"
#include "support/scenario_text.h"
#include "support/temp_dir.h"

namespace rescfg::clearml {
namespace {

/// One pool, one profile, one policy of limit 5: which tasks start tells the queue order.
const char* kConfig = R"({apiVersion: rescfg/v1, kind: ResourceConfiguration,
  pools: [{name: A, resources: 64, queue: a-pool}],
  profiles: [{name: p, allotment: 1, links: [{pool: A, queue: a-1gpu}]}],
  policies: [{name: Dev, limit: 5, profiles: [{profile: p, queue: dev-p}]}]})";

/// `count` queued tasks of dev-p (by ID), and a running one.
std::string Tasks(size_t count) {
  std::string text = R"({"meta": {"result_code": 200}, "data": {"tasks": [)";
  for (size_t i = 0; i < count; ++i) {
    text += R"({"id": "t)" + std::to_string(i) + R"(", "status": "queued", "execution": {"queue": "qdp"}}, )";
  }
  return text + R"({"id": "run", "status": "in_progress", "execution": {"queue": "qa1"}}]}})";
}

/// dev-p lists `listed` tasks, the last first (so queue order is not file order).
std::string Queues(size_t listed) {
  std::string text = R"([{"id": "qa1", "name": "a-1gpu"}, {"id": "qdp", "name": "dev-p", "entries": [)";
  for (size_t i = listed; i-- > 0;) text += R"({"task": "t)" + std::to_string(i) + R"(", "added": "x"})" + (i ? ", " : "");
  return text + "]}]";
}

const char* kWorkers = R"([{"id": "node-1:gpu0", "task": {"id": "run"}, "queue": {"name": "a-1gpu"}}])";

std::string Write(const testing::TempDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.file(name)) << text;
  return dir.file(name);
}

/// What a snapshot reads to: its findings, then its decisions.
std::vector<std::string> Outcome(Snapshot snapshot, const Config& config) {
  std::vector<std::string> seen;
  for (const Finding& f : snapshot.findings) {
    seen.push_back(f.code + " " + f.file + ":" + std::to_string(f.mark.line) + ":" + std::to_string(f.mark.column) +
                   " " + f.message);
  }
  seen.push_back(snapshot.unusable ? "unusable" : "usable");
  seen.push_back("workers " + std::to_string(snapshot.workers.workers.size()));
  if (snapshot.unusable) return seen;
  const std::vector<std::string> decided = testing::Summarise(BuildSchedule(config, std::move(snapshot.jobs)));
  seen.insert(seen.end(), decided.begin(), decided.end());
  return seen;
}

TEST(CompanionsAhead, TheSnapshotIsTheOneReadInTurn) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const std::vector<std::string> paths = DynamicParameterPaths(config);
  testing::TempDir dir;
  struct Case {
    const char* what;
    size_t tasks, listed;
    const char* queues;   ///< "": none given; "broken": a file that is no queues list
    const char* workers;  ///< "": none given; "missing": a path with no file
    const char* form = "response";  ///< of the tasks file: "array", "lines", "broken", "missing" too
  };
  const std::vector<Case> cases = {
      {"both companions", 50, 40, "ok", "ok"},
      // 130 000 tasks: a file large enough to be parsed on two threads.
      {"the tasks found first: the snapshot's thread helps index", 10, 130000, "ok", "ok"},
      {"the companions read first", 130000, 10, "ok", "ok"},
      {"queues only", 50, 40, "ok", ""},
      {"workers only", 50, 40, "", "ok"},
      {"an unusable queues file", 50, 40, "broken", "ok"},
      {"a workers file that is not there", 50, 40, "ok", "missing"},
      {"an array of tasks", 50, 40, "ok", "ok", "array"},
      {"tasks as JSON Lines", 50, 40, "ok", "ok", "lines"},
      {"a tasks document with a syntax error", 50, 40, "ok", "ok", "broken"},
      {"a tasks file that is not there", 50, 40, "ok", "ok", "missing"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string form = c.form;
    std::string text = Tasks(c.tasks);
    if (form == "array" || form == "lines") {
      text = text.substr(text.find('['), text.rfind(']') - text.find('[') + 1);
      if (form == "lines") {
        text = text.substr(1, text.size() - 2);
        for (size_t at = 0; (at = text.find("}}, {", at)) != std::string::npos;) text.replace(at, 5, "}}\n{");
      }
    }
    if (form == "broken") text.replace(text.find("}, {", text.size() / 2), 4, "},, {");
    const std::string tasks = form == "missing" ? dir.file("no-tasks.json") : Write(dir, "tasks.json", text);
    std::string queues, workers;
    if (std::string(c.queues) == "ok") queues = Write(dir, "queues.json", Queues(c.listed));
    if (std::string(c.queues) == "broken") queues = Write(dir, "queues.json", R"([{"id": 5}])");
    if (std::string(c.workers) == "ok") workers = Write(dir, "workers.json", kWorkers);
    if (std::string(c.workers) == "missing") workers = dir.file("no-workers.json");
    const SnapshotFiles files{tasks, queues, workers};
    const std::vector<std::string> in_turn = Outcome(LoadClearmlSnapshot(files, paths, &config), config);
    for (int run = 0; run < 2; ++run) {
      CompanionsAhead ahead(files);
      EXPECT_EQ(Outcome(LoadClearmlSnapshot(files, paths, &config, nullptr, {}, &ahead), config), in_turn);
    }
    if (form == "broken" || form == "missing") {
      EXPECT_EQ(in_turn[in_turn.size() - 2], "unusable");
    }
  }
}

TEST(CompanionsAhead, ReadForOtherFilesTheyAreNotUsed) {
  const Config config = testing::ConfigFromYaml(kConfig);
  const std::vector<std::string> paths = DynamicParameterPaths(config);
  testing::TempDir dir;
  const std::string tasks = Write(dir, "tasks.json", Tasks(20));
  const std::string ten = Write(dir, "ten.json", Queues(10));
  const std::string twenty = Write(dir, "twenty.json", Queues(20));
  const std::string workers = Write(dir, "workers.json", kWorkers);
  const SnapshotFiles files{tasks, twenty, workers};
  const std::vector<std::string> in_turn = Outcome(LoadClearmlSnapshot(files, paths, &config), config);
  const std::string other_tasks = Write(dir, "other-tasks.json", Tasks(5));
  for (const SnapshotFiles& other : {SnapshotFiles{tasks, ten, workers}, SnapshotFiles{tasks, twenty, ""},
                                     SnapshotFiles{other_tasks, twenty, workers}}) {
    CompanionsAhead ahead(other);
    EXPECT_EQ(Outcome(LoadClearmlSnapshot(files, paths, &config, nullptr, {}, &ahead), config), in_turn);
  }
  EXPECT_NE(Outcome(LoadClearmlSnapshot({tasks, ten, workers}, paths, &config), config), in_turn);
}

TEST(CompanionsAhead, LeftUnusedItEndsWithItsReading) {
  testing::TempDir dir;
  const std::string queues = Write(dir, "queues.json", Queues(100000));
  CompanionsAhead unused({Write(dir, "tasks.json", Tasks(1)), queues, Write(dir, "workers.json", kWorkers)});
}

/// The listing index built a part at a time, in either order, finds what
/// it finds built at once.
TEST(CompanionsAhead, TheListingIndexInPartsIsTheIndexBuiltAtOnce) {
  const std::string text = Queues(1000);
  QueueList whole = ReadQueuesText(text, "queues.json");
  for (const std::vector<size_t>& order : {std::vector<size_t>{0, 1}, {1, 0}, {1}, {}}) {
    QueueList parts = ReadQueuesText(Pad(std::string(text)), "queues.json", false);
    for (size_t part : order) parts.IndexPart(part);
    parts.IndexListings();
    for (size_t i = 0; i < 1001; ++i) {
      const std::string id = "t" + std::to_string(i);
      const auto a = whole.ListingOf(id), b = parts.ListingOf(id);
      ASSERT_EQ(a.has_value(), b.has_value()) << id;
      if (a) {
        EXPECT_EQ(a->position, b->position) << id;
      }
    }
  }
}

}  // namespace
}  // namespace rescfg::clearml
